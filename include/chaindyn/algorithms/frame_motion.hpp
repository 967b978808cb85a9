/// @file
/// The velocity and acceleration of a frame F fixed on a link, spatial and classical, and the
/// time derivative of its Jacobian as a matrix.
///
/// Coordinates (ReferenceFrame, frames.hpp), about F's origin in both:
/// - `world`: the base frame's axes (Pinocchio calls this LOCAL_WORLD_ALIGNED);
/// - `local`: F's own axes (Pinocchio's LOCAL).
/// The spatial velocity in base coordinates about the base origin (Pinocchio's WORLD) is
/// data.oMf.act(frame_velocity(..., local)) after any of these calls.
///
/// Velocity: (omega; v), omega F's angular velocity and v the velocity of F's origin, so that
/// frame_velocity = J qd with jacobian's J in the same coordinates.
///
/// Acceleration, two readings (RBDA sec. 2.11):
/// - spatial (frame_acceleration): the rate of change of F's spatial velocity, (omega_dot;
///   a), a = p_ddot - omega x p_dot; in `local` it is d/dt of F's body velocity, so
///   frame_acceleration(local) = J_local qdd + Jdot_local qd;
/// - classical (frame_classical_acceleration): (omega_dot; p_ddot), the second derivative of
///   F's origin; in `world` it is d/dt of (omega; p_dot), so
///   frame_classical_acceleration(world) = J_world qdd + Jdot_world qd.
/// jdot_qd (jacobian.hpp) is the acceleration at qdd = 0 in the reading that is a time
/// derivative in each coordinate choice: spatial for local, classical for world;
/// jacobian_time_derivative's matrix gives the same, Jdot qd.
///
/// Computed in base coordinates (the link velocities v_i = v_p + S_i qd_i and accelerations
/// a_i = a_p + S_i qdd_i + v_i x S_i qd_i, RBDA eqs. 5.6-5.7 in base coordinates, no gravity),
/// then moved to F (RBDA eq. 2.24). O(n) over F's support.
#pragma once

#include "chaindyn/algorithms/jacobian.hpp"

namespace chaindyn {

namespace detail {

/// Velocities (and, with qdd, accelerations without gravity) of links 0..link in base
/// coordinates about the base origin: data.liMi, oMi, oS, ov (and oa), and data.oMf. On a
/// chain, a link's parent is the link before it: the recursion carries it in a local; on a
/// tree each link reads its parent's (every link 0..link: the parents come first).
template <typename Model>
void frame_motion_pass(const Model& model, DataFor<Model>& data, const typename Model::Vector& q,
                       const typename Model::Vector& qd, const typename Model::Vector* qdd,
                       const FrameFor<Model>& frame) noexcept {
  using Scalar = typename Model::Scalar;
  const std::size_t link = frame.link();
  world_kinematics(model, data, q, link);
  Motion<Scalar> v;
  Motion<Scalar> a;
  model.indices_forward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    if (i > link) return;
    const auto k = Eigen::Index(i);
    const Motion<Scalar>& s = data.oS[i];
    if constexpr (!Model::serial) {
      const bool root = model.is_root(i);
      v = root ? Motion<Scalar>() : data.ov[model.parent(i)];
      if (qdd) a = root ? Motion<Scalar>() : data.oa[model.parent(i)];
    }
    // v_i = v_p + S_i qd_i;  a_i = a_p + S_i qdd_i + v_i x S_i qd_i        RBDA eqs. (5.6-5.7)
    v += s * qd[k];
    data.ov[i] = v;
    if (qdd) {
      a += s * (*qdd)[k];
      a += cross(v, s) * qd[k];
      data.oa[i] = a;
    }
  });
  data.oMf = data.oMi[link] * frame.placement();
}

/// F's velocity in `rf` from v, its link's spatial velocity in base coordinates.
template <typename Scalar>
Motion<Scalar> velocity_in(const Transform<Scalar>& oMf, const Motion<Scalar>& v,
                           ReferenceFrame rf) noexcept {
  return rf == ReferenceFrame::world ? Transform<Scalar>::Translation(oMf.translation).act_inv(v)
                                     : oMf.act_inv(v);
}

}  // namespace detail

/// F's velocity (omega; v) in `rf` (file comment): J qd. Zero for a frame on the base. No check
/// (the handle was checked when made). Fills data.liMi, oMi, oS, ov (links 0..F's link), oMf.
template <typename Model, typename Q, typename Qd>
void frame_velocity(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
                    const Eigen::MatrixBase<Qd>& qd, const FrameFor<Model>& frame,
                    ReferenceFrame rf, Motion<typename Model::Scalar>& out)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("frame_velocity", model, data, "q", q, "qd", qd, "frame", frame);
  if (frame.on_base()) {
    data.oMf = frame.placement();
    out = Motion<typename Model::Scalar>::Zero();
    return;
  }
  detail::frame_motion_pass(model, data, detail::as_joint_vector<Model>(q.derived()),
                            detail::as_joint_vector<Model>(qd.derived()), nullptr, frame);
  out = detail::velocity_in(data.oMf, data.ov[frame.link()], rf);
}

/// F's spatial acceleration (omega_dot; p_ddot - omega x p_dot) in `rf` at (q, qd, qdd), no
/// gravity (file comment). Zero for a frame on the base. Fills data.liMi, oMi, oS, ov, oa
/// (links 0..F's link; oa here without gravity), oMf.
template <typename Model, typename Q, typename Qd, typename Qdd>
void frame_acceleration(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
                        const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Qdd>& qdd,
                        const FrameFor<Model>& frame, ReferenceFrame rf,
                        Motion<typename Model::Scalar>& out)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Qdd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("frame_acceleration", model, data, "q", q, "qd", qd, "qdd", qdd, "frame",
                         frame);
  if (frame.on_base()) {
    data.oMf = frame.placement();
    out = Motion<typename Model::Scalar>::Zero();
    return;
  }
  const auto& qdd_v = detail::as_joint_vector<Model>(qdd.derived());
  detail::frame_motion_pass(model, data, detail::as_joint_vector<Model>(q.derived()),
                            detail::as_joint_vector<Model>(qd.derived()), &qdd_v, frame);
  // a spatial acceleration moves between coordinates like a velocity          RBDA sec. 2.11
  out = detail::velocity_in(data.oMf, data.oa[frame.link()], rf);
}

/// F's classical acceleration (omega_dot; p_ddot) in `rf` (world: base axes, local: F's axes)
/// at (q, qd, qdd), no gravity: the spatial one plus (0; omega x p_dot) (RBDA sec. 2.11). Zero
/// for a frame on the base. Fills what frame_acceleration fills.
template <typename Model, typename Q, typename Qd, typename Qdd>
void frame_classical_acceleration(const Model& model, DataFor<Model>& data,
                                  const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Qd>& qd,
                                  const Eigen::MatrixBase<Qdd>& qdd, const FrameFor<Model>& frame,
                                  ReferenceFrame rf, Motion<typename Model::Scalar>& out)
    noexcept(!detail::checks_sizes<Model>) {
  frame_acceleration(model, data, q, qd, qdd, frame, rf, out);
  if (frame.on_base()) return;
  const Motion<typename Model::Scalar> v = detail::velocity_in(data.oMf, data.ov[frame.link()], rf);
  out.linear += detail::cross3(v.angular, v.linear);
}

/// Returning form of frame_velocity; any Eigen vectors, checked (ArgumentError).
template <typename Model, typename Q, typename Qd>
Motion<typename Model::Scalar> frame_velocity(const Model& model, const Eigen::MatrixBase<Q>& q,
                                              const Eigen::MatrixBase<Qd>& qd,
                                              const FrameFor<Model>& frame,
                                              ReferenceFrame rf = ReferenceFrame::world) {
  Data<Model>& data = detail::thread_workspace(model);
  Motion<typename Model::Scalar> out;
  frame_velocity(model, data, detail::checked_joint_vector(model, q, "frame_velocity", "q"),
                 detail::checked_joint_vector(model, qd, "frame_velocity", "qd"), frame, rf, out);
  return out;
}

/// Returning form of frame_velocity for a named frame. Throws IndexError if there is none.
template <typename Model, typename Q, typename Qd>
Motion<typename Model::Scalar> frame_velocity(const Model& model, const Eigen::MatrixBase<Q>& q,
                                              const Eigen::MatrixBase<Qd>& qd,
                                              std::string_view name,
                                              ReferenceFrame rf = ReferenceFrame::world) {
  return frame_velocity(model, q, qd, model.frame(name), rf);
}

/// Returning form of frame_acceleration (spatial).
template <typename Model, typename Q, typename Qd, typename Qdd>
Motion<typename Model::Scalar> frame_acceleration(const Model& model, const Eigen::MatrixBase<Q>& q,
                                                  const Eigen::MatrixBase<Qd>& qd,
                                                  const Eigen::MatrixBase<Qdd>& qdd,
                                                  const FrameFor<Model>& frame,
                                                  ReferenceFrame rf = ReferenceFrame::world) {
  Data<Model>& data = detail::thread_workspace(model);
  Motion<typename Model::Scalar> out;
  frame_acceleration(model, data, detail::checked_joint_vector(model, q, "frame_acceleration", "q"),
                     detail::checked_joint_vector(model, qd, "frame_acceleration", "qd"),
                     detail::checked_joint_vector(model, qdd, "frame_acceleration", "qdd"), frame,
                     rf, out);
  return out;
}

/// Returning form of frame_classical_acceleration.
template <typename Model, typename Q, typename Qd, typename Qdd>
Motion<typename Model::Scalar> frame_classical_acceleration(
    const Model& model, const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Qd>& qd,
    const Eigen::MatrixBase<Qdd>& qdd, const FrameFor<Model>& frame,
    ReferenceFrame rf = ReferenceFrame::world) {
  Data<Model>& data = detail::thread_workspace(model);
  Motion<typename Model::Scalar> out;
  frame_classical_acceleration(
      model, data, detail::checked_joint_vector(model, q, "frame_classical_acceleration", "q"),
      detail::checked_joint_vector(model, qd, "frame_classical_acceleration", "qd"),
      detail::checked_joint_vector(model, qdd, "frame_classical_acceleration", "qdd"), frame, rf,
      out);
  return out;
}

/// Jdot = d/dt J(q(t)) of F's Jacobian in `rf` at (q, qd), 6 x nq: Jdot qd = jdot_qd. Column j
/// (j supports F's link; the others zero) from d/dt S_j = v_j x S_j (base coordinates, RBDA sec. 2.9,
/// v_j link j's velocity):
///     world: (dw_j; dv_j + dw_j x p + w_j x p_dot),  (dw_j; dv_j) = v_j x S_j,
///     local: X_F^-1 ((v_j - v_F) x S_j),  X_F^-1 = oMf.act_inv, v_F F's link's velocity
/// (the local column X_F^-1 S_j changes with S_j and with X_F^-1, whose rate is -X_F^-1 v_F x).
/// Zero for a frame on the base. Fills data.liMi, oMi, oS, ov (links 0..F's link), oMf.
template <typename Model, typename Q, typename Qd>
void jacobian_time_derivative(const Model& model, DataFor<Model>& data,
                              const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Qd>& qd,
                              const FrameFor<Model>& frame, ReferenceFrame rf,
                              FrameJacobian<Model>& jdot) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("jacobian_time_derivative", model, data, "q", q, "qd", qd, "frame",
                         frame);
  detail::check_matrix<Model>("jacobian_time_derivative", "jdot", jdot, 6,
                              Eigen::Index(detail::joint_count(model)));
  using Scalar = typename Model::Scalar;
  jdot.setZero();
  if (frame.on_base()) {
    data.oMf = frame.placement();
    return;
  }
  const std::size_t link = frame.link();
  detail::frame_motion_pass(model, data, detail::as_joint_vector<Model>(q.derived()),
                            detail::as_joint_vector<Model>(qd.derived()), nullptr, frame);
  const Vector3<Scalar>& p = data.oMf.translation;
  const Motion<Scalar>& vf = data.ov[link];
  const Vector3<Scalar> pdot = vf.linear + detail::cross3(vf.angular, p);
  model.indices_forward([&](const std::size_t j) CHAINDYN_ALWAYS_INLINE {
    if (j > link) return;
    if constexpr (!Model::serial) {
      if (!model.supports(j, link)) return;  // a joint off F's root path does not move F
    }
    const auto k = Eigen::Index(j);
    const Motion<Scalar>& s = data.oS[j];
    if (rf == ReferenceFrame::world) {
      const Motion<Scalar> ds = cross(data.ov[j], s);
      jdot.col(k).template head<3>() = ds.angular;
      jdot.col(k).template tail<3>() = ds.linear + detail::cross3(ds.angular, p) +
                                       detail::cross3(s.angular, pdot);
    } else {
      jdot.col(k) = data.oMf.act_inv(cross(Motion<Scalar>(data.ov[j] - vf), s)).vector();
    }
  });
}

/// Returning form of jacobian_time_derivative.
template <typename Model, typename Q, typename Qd>
FrameJacobian<Model> jacobian_time_derivative(const Model& model, const Eigen::MatrixBase<Q>& q,
                                              const Eigen::MatrixBase<Qd>& qd,
                                              const FrameFor<Model>& frame,
                                              ReferenceFrame rf = ReferenceFrame::world) {
  Data<Model>& data = detail::thread_workspace(model);
  FrameJacobian<Model> jdot(6, Eigen::Index(detail::joint_count(model)));
  jacobian_time_derivative(
      model, data, detail::checked_joint_vector(model, q, "jacobian_time_derivative", "q"),
      detail::checked_joint_vector(model, qd, "jacobian_time_derivative", "qd"), frame, rf, jdot);
  return jdot;
}

}  // namespace chaindyn
