/// @file
/// The geometric Jacobian of a frame fixed on a link, the product Jdot qd, and the joint torques
/// that balance a wrench on the frame (tau = J^T f).
///
/// **Rows are ordered [angular; linear]**, like chaindyn's Motion and Force (RBDA), not
/// [linear; angular] as in Siciliano et al. and Craig: J qd = (omega; v). In ReferenceFrame::world
/// the axes are the base frame's and the point is the frame's origin (the classical geometric
/// Jacobian); in ReferenceFrame::local the axes are the frame's own (frames.hpp).
///
/// Each comes in three forms: in place with a frame handle (model.frame(...), model/frame.hpp:
/// noexcept, no check, the index was checked when the handle was made); in place with a link
/// index and an offset in the user's link frame (checked: throws IndexError); returning, with a
/// handle, a (link, offset) or a frame name.
#pragma once

#include "chaindyn/algorithms/frames.hpp"

namespace chaindyn {

/// A frame's Jacobian: 6 x nq, rows [angular; linear], column j the contribution of qd_j.
template <typename Model>
using FrameJacobian = Eigen::Matrix<typename Model::Scalar, 6, Model::nq>;

/// A frame's six-vector [angular; linear] (Jdot qd, J qd).
template <typename Model>
using FrameVector = Eigen::Matrix<typename Model::Scalar, 6, 1>;

namespace detail {

/// World-frame kinematics of links 0..link (world_kinematics: liMi, oMi, oS), then oMf.
template <typename Model>
void joint_columns(const Model& model, DataFor<Model>& data, const typename Model::Vector& q,
                   std::size_t link,
                   const Transform<typename Model::Scalar>& frame_in_link) noexcept {
  world_kinematics(model, data, q, link);
  data.oMf = data.oMi[link] * frame_in_link;
}

}  // namespace detail

/// The Jacobian J of the frame F `frame` (a handle made by the model, model/frame.hpp) in
/// coordinates `rf`: J qd = (omega; v), omega F's angular velocity and v the velocity of F's
/// origin, in the base axes (world) or F's axes (local). Columns of joints that do not support
/// F's link (on a chain: after it; on a tree: off its path to the base) are zero (all of them
/// for a frame on the base). Column j of a supporting joint is joint j's motion
/// subspace S_j moved to F's origin:
///     world:  (w_j; v_j + w_j x p),    local: (R^T w_j; R^T (v_j + w_j x p))
/// with (w_j; v_j) = oS_j in base coordinates about the base origin, p F's origin and R F's
/// rotation in the base frame (RBDA eq. 2.24 and sec. 2.8). For a revolute joint with axis z_j
/// through o_j this is the textbook (z_j; z_j x (p - o_j)), for a prismatic joint (0; z_j).
/// No check: the handle's link was checked when it was made. Writes J; fills data.liMi, oMi,
/// oS (links 0..link), oMf.
template <typename Model, typename Q>
void jacobian(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q_in,
              const FrameFor<Model>& frame, ReferenceFrame rf, FrameJacobian<Model>& J)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("jacobian", model, data, "q", q_in, "frame", frame);
  detail::check_matrix<Model>("jacobian", "J", J, 6, Eigen::Index(detail::joint_count(model)));
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  using Scalar = typename Model::Scalar;
  if (frame.on_base()) {
    data.oMf = frame.placement();
    J.setZero();
    return;
  }
  const std::size_t link = frame.link();
  detail::joint_columns(model, data, q, link, frame.placement());
  const Vector3<Scalar>& p = data.oMf.translation;
  const Matrix3<Scalar>& r = data.oMf.rotation;
  for (std::size_t j = 0; j < detail::joint_count(model); ++j) {
    const auto k = Eigen::Index(j);
    if (!model.supports(j, link)) {
      J.col(k).setZero();
      continue;
    }
    const Motion<Scalar>& s = data.oS[j];
    // velocity of the point p of a body moving with s: v + w x p                 RBDA eq. (2.20)
    const Vector3<Scalar> v = s.linear + detail::cross3(s.angular, p);
    if (rf == ReferenceFrame::world) {
      J.col(k).template head<3>() = s.angular;
      J.col(k).template tail<3>() = v;
    } else {
      J.col(k).template head<3>() = detail::mul_transpose(r, s.angular);
      J.col(k).template tail<3>() = detail::mul_transpose(r, v);
    }
  }
}

/// Checked in-place Jacobian of the frame at pose `frame_in_link` in the USER's frame of link
/// `link` (Chain::link_frame; the URDF's link frame for a URDF-built chain): the handle form with
/// model.frame(link, frame_in_link). Throws IndexError if link >= Model::nq (hence not
/// noexcept); allocates nothing.
template <typename Model, typename Q>
void jacobian(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
              std::size_t link, const Transform<typename Model::Scalar>& frame_in_link,
              ReferenceFrame rf, FrameJacobian<Model>& J) {
  jacobian(model, data, q, model.frame(link, frame_in_link), rf, J);
}

/// Checked in-place Jacobian of link `link`'s (user) frame. Throws IndexError.
template <typename Model, typename Q>
void jacobian(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
              std::size_t link, ReferenceFrame rf, FrameJacobian<Model>& J) {
  jacobian(model, data, q, model.frame(link), rf, J);
}

/// Returning form: the Jacobian of a frame handle.
template <typename Model, typename Q>
FrameJacobian<Model> jacobian(const Model& model, const Eigen::MatrixBase<Q>& q,
                              const FrameFor<Model>& frame,
                              ReferenceFrame rf = ReferenceFrame::world) {
  Data<Model>& data = detail::thread_workspace(model);
  FrameJacobian<Model> J(6, Eigen::Index(detail::joint_count(model)));
  jacobian(model, data, detail::checked_joint_vector(model, q, "jacobian", "q"), frame, rf, J);
  return J;
}

/// Returning form: the Jacobian of the frame `frame_in_link` (user's frame of link `link`).
/// Throws IndexError (a std::out_of_range) if link >= Model::nq.
template <typename Model, typename Q>
FrameJacobian<Model> jacobian(const Model& model, const Eigen::MatrixBase<Q>& q,
                              std::size_t link,
                              const Transform<typename Model::Scalar>& frame_in_link,
                              ReferenceFrame rf = ReferenceFrame::world) {
  return jacobian(model, q, model.frame(link, frame_in_link), rf);
}

/// Returning form: the Jacobian of link `link`'s (user) frame (world: the classical geometric
/// Jacobian of the link origin). Throws IndexError (a std::out_of_range) if link >= Model::nq.
template <typename Model, typename Q>
FrameJacobian<Model> jacobian(const Model& model, const Eigen::MatrixBase<Q>& q,
                              std::size_t link, ReferenceFrame rf = ReferenceFrame::world) {
  return jacobian(model, q, model.frame(link), rf);
}

/// Returning form: the Jacobian of a named frame. Throws IndexError if there is none.
template <typename Model, typename Q>
FrameJacobian<Model> jacobian(const Model& model, const Eigen::MatrixBase<Q>& q,
                              std::string_view name, ReferenceFrame rf = ReferenceFrame::world) {
  return jacobian(model, q, model.frame(name), rf);
}

/// Jdot(q, qd) qd of frame F (a handle) in coordinates `rf`: the part of d/dt (J qd) =
/// J qdd + Jdot qd that does not depend on qdd, i.e. F's acceleration at qdd = 0, where
///   world: (omega_dot; p_ddot), the angular acceleration and the CLASSICAL acceleration of F's
///          origin (the second derivative of its position), in base coordinates;
///   local: d/dt of F's body velocity (R^T omega; R^T p_dot), which is F's SPATIAL
///          acceleration in F's coordinates (RBDA sec. 2.11): its linear part is
///          R^T p_ddot - (R^T omega) x (R^T p_dot), not the classical R^T p_ddot. For the
///          classical acceleration in F's axes, rotate the world result by R^T.
/// Computed by the RNEA's velocity/acceleration recursion with qdd = 0 and no gravity
/// (RBDA eqs. 5.6-5.7), moved to F with RBDA eq. (2.24), and converted to the classical
/// acceleration p_ddot = a_lin + omega x v (RBDA sec. 2.11) for world. Zero for a frame on the
/// base. No check (the handle was checked when made). Writes out; fills data.liMi, oMi, v, a
/// (links 0..link; here a is the velocity-product acceleration without gravity) and data.oMf.
template <typename Model, typename Q, typename Qd>
void jdot_qd(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q_in,
             const Eigen::MatrixBase<Qd>& qd_in, const FrameFor<Model>& frame, ReferenceFrame rf,
             FrameVector<Model>& out) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("jdot_qd", model, data, "q", q_in, "qd", qd_in, "frame", frame);
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  const auto& qd = detail::as_joint_vector<Model>(qd_in.derived());
  using Scalar = typename Model::Scalar;
  if (frame.on_base()) {
    data.oMf = frame.placement();
    out.setZero();
    return;
  }
  const std::size_t link = frame.link();
  const Transform<Scalar>& frame_in_link = frame.placement();
  detail::joint_poses(model, data, q);
  model.joints_forward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    if (i > link) return;
    const auto k = Eigen::Index(i);
    const Transform<Scalar>& x = data.liMi[i];
    data.oMi[i] = model.is_root(i) ? x : data.oMi[model.parent(i)] * x;
    // v_i = Xup_i v_p + S_i qd_i,  a_i = Xup_i a_p + v_i x S_i qd_i (qdd = 0)   RBDA eqs. (5.6-5.7)
    Motion<Scalar>& v = data.v[i];
    Motion<Scalar>& a = data.a[i];
    if (model.is_root(i)) {
      v = joint.motion(qd[k]);
      a = Motion<Scalar>::Zero();
    } else {
      v = x.act_inv(data.v[model.parent(i)]) + joint.motion(qd[k]);
      a = x.act_inv(data.a[model.parent(i)]);
    }
    a += joint.cross_motion(v, qd[k]);
  });
  data.oMf = data.oMi[link] * frame_in_link;
  // F is fixed on the link: its spatial velocity and acceleration in F coordinates
  const Motion<Scalar> vf = frame_in_link.act_inv(data.v[link]);
  const Motion<Scalar> af = frame_in_link.act_inv(data.a[link]);
  if (rf == ReferenceFrame::local) {
    out.template head<3>() = af.angular;
    out.template tail<3>() = af.linear;
  } else {
    // classical acceleration of F's origin: a_lin + omega x v                 RBDA sec. 2.11
    const Matrix3<Scalar>& r = data.oMf.rotation;
    out.template head<3>() = detail::mul(r, af.angular);
    out.template tail<3>() =
        detail::mul(r, Vector3<Scalar>(af.linear + detail::cross3(vf.angular, vf.linear)));
  }
}

/// Checked in-place Jdot qd of the frame `frame_in_link` in the user's frame of link `link`.
/// Throws IndexError if link >= Model::nq (hence not noexcept).
template <typename Model, typename Q, typename Qd>
void jdot_qd(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
             const Eigen::MatrixBase<Qd>& qd, std::size_t link,
             const Transform<typename Model::Scalar>& frame_in_link, ReferenceFrame rf,
             FrameVector<Model>& out) {
  jdot_qd(model, data, q, qd, model.frame(link, frame_in_link), rf, out);
}

/// Checked in-place Jdot qd of link `link`'s (user) frame. Throws IndexError.
template <typename Model, typename Q, typename Qd>
void jdot_qd(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
             const Eigen::MatrixBase<Qd>& qd, std::size_t link, ReferenceFrame rf,
             FrameVector<Model>& out) {
  jdot_qd(model, data, q, qd, model.frame(link), rf, out);
}

/// Returning form of jdot_qd for a frame handle.
template <typename Model, typename Q, typename Qd>
FrameVector<Model> jdot_qd(const Model& model, const Eigen::MatrixBase<Q>& q,
                           const Eigen::MatrixBase<Qd>& qd, const FrameFor<Model>& frame,
                           ReferenceFrame rf = ReferenceFrame::world) {
  Data<Model>& data = detail::thread_workspace(model);
  FrameVector<Model> out;
  jdot_qd(model, data, detail::checked_joint_vector(model, q, "jdot_qd", "q"),
          detail::checked_joint_vector(model, qd, "jdot_qd", "qd"), frame, rf, out);
  return out;
}

/// Returning form of jdot_qd for frame `frame_in_link` (user's frame of link `link`). Throws
/// IndexError (a std::out_of_range) if link >= Model::nq.
template <typename Model, typename Q, typename Qd>
FrameVector<Model> jdot_qd(const Model& model, const Eigen::MatrixBase<Q>& q,
                           const Eigen::MatrixBase<Qd>& qd, std::size_t link,
                           const Transform<typename Model::Scalar>& frame_in_link,
                           ReferenceFrame rf = ReferenceFrame::world) {
  return jdot_qd(model, q, qd, model.frame(link, frame_in_link), rf);
}

/// Returning form of jdot_qd for link `link`'s (user) frame. Throws IndexError.
template <typename Model, typename Q, typename Qd>
FrameVector<Model> jdot_qd(const Model& model, const Eigen::MatrixBase<Q>& q,
                           const Eigen::MatrixBase<Qd>& qd, std::size_t link,
                           ReferenceFrame rf = ReferenceFrame::world) {
  return jdot_qd(model, q, qd, model.frame(link), rf);
}

/// Returning form of jdot_qd for a named frame. Throws IndexError if there is none.
template <typename Model, typename Q, typename Qd>
FrameVector<Model> jdot_qd(const Model& model, const Eigen::MatrixBase<Q>& q,
                           const Eigen::MatrixBase<Qd>& qd, std::string_view name,
                           ReferenceFrame rf = ReferenceFrame::world) {
  return jdot_qd(model, q, qd, model.frame(name), rf);
}

/// tau = J^T f: the joint-space image of a wrench f = (moment about F's origin; force) on the
/// frame F `frame` (a handle), f given in coordinates `rf` (world: base axes; local: F's axes).
/// Two readings of the same product (the equation of motion with end-effector forces):
/// - f applied TO the frame by the environment: M qdd + C qd + g + eps = tau + J^T f. rnea
///   with f as an external wrench returns rnea(q, qd, qdd) - J^T f (docs/conventions.md).
/// - f the wrench the frame must EXERT on the environment: tau = M qdd + C qd + g + eps + J^T f
///   (statics: tau = J^T f).
/// The wrench is moved to base coordinates about the base origin (RBDA eq. 2.25, X^*) and
/// projected on each joint's column: tau_j = oS_j . f_0 (power duality, RBDA eq. 2.11); joints
/// after F's link get zero (all of them for a frame on the base). O(n), J is never formed. No
/// check (the handle was checked when made). Fills data.tau (and data.liMi, oMi, oS for links
/// 0..link, oMf).
template <typename Model, typename Q>
void joint_torques_from_wrench(const Model& model, DataFor<Model>& data,
                               const Eigen::MatrixBase<Q>& q_in, const FrameFor<Model>& frame,
                               const Force<typename Model::Scalar>& wrench,
                               ReferenceFrame rf) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("joint_torques_from_wrench", model, data, "q", q_in, "frame", frame);
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  using Scalar = typename Model::Scalar;
  if (frame.on_base()) {
    data.oMf = frame.placement();
    data.tau.setZero();
    return;
  }
  const std::size_t link = frame.link();
  detail::joint_columns(model, data, q, link, frame.placement());
  // world: (n + p x f; f);  local: oMf^* (n; f)
  const Force<Scalar> f0 = rf == ReferenceFrame::world
                               ? Transform<Scalar>::Translation(data.oMf.translation).act(wrench)
                               : data.oMf.act(wrench);
  for (std::size_t j = 0; j < detail::joint_count(model); ++j) {
    data.tau[Eigen::Index(j)] = model.supports(j, link) ? dot(data.oS[j], f0) : Scalar(0);
  }
}

/// Checked in-place form for a wrench on the frame `frame_in_link` in the user's frame of link
/// `link`. Throws IndexError if link >= Model::nq (hence not noexcept).
template <typename Model, typename Q>
void joint_torques_from_wrench(const Model& model, DataFor<Model>& data,
                               const Eigen::MatrixBase<Q>& q, std::size_t link,
                               const Force<typename Model::Scalar>& wrench,
                               const Transform<typename Model::Scalar>& frame_in_link,
                               ReferenceFrame rf) {
  joint_torques_from_wrench(model, data, q, model.frame(link, frame_in_link), wrench, rf);
}

/// Checked in-place form for a wrench on link `link`'s (user) frame, about its origin. Throws
/// IndexError.
template <typename Model, typename Q>
void joint_torques_from_wrench(const Model& model, DataFor<Model>& data,
                               const Eigen::MatrixBase<Q>& q, std::size_t link,
                               const Force<typename Model::Scalar>& wrench, ReferenceFrame rf) {
  joint_torques_from_wrench(model, data, q, model.frame(link), wrench, rf);
}

/// Returning form of joint_torques_from_wrench for a frame handle.
template <typename Model, typename Q>
typename Model::Vector joint_torques_from_wrench(const Model& model,
                                                 const Eigen::MatrixBase<Q>& q,
                                                 const FrameFor<Model>& frame,
                                                 const Force<typename Model::Scalar>& wrench,
                                                 ReferenceFrame rf = ReferenceFrame::world) {
  Data<Model>& data = detail::thread_workspace(model);
  joint_torques_from_wrench(
      model, data, detail::checked_joint_vector(model, q, "joint_torques_from_wrench", "q"),
      frame, wrench, rf);
  return data.tau;
}

/// Returning form for a wrench on the frame `frame_in_link` (user's frame of link `link`).
/// Throws IndexError (a std::out_of_range) if link >= Model::nq.
template <typename Model, typename Q>
typename Model::Vector joint_torques_from_wrench(
    const Model& model, const Eigen::MatrixBase<Q>& q, std::size_t link,
    const Force<typename Model::Scalar>& wrench,
    const Transform<typename Model::Scalar>& frame_in_link =
        Transform<typename Model::Scalar>::Identity(),
    ReferenceFrame rf = ReferenceFrame::world) {
  return joint_torques_from_wrench(model, q, model.frame(link, frame_in_link), wrench, rf);
}

/// Returning form for a wrench on link `link`'s (user) frame. Throws IndexError.
template <typename Model, typename Q>
typename Model::Vector joint_torques_from_wrench(const Model& model,
                                                 const Eigen::MatrixBase<Q>& q,
                                                 std::size_t link,
                                                 const Force<typename Model::Scalar>& wrench,
                                                 ReferenceFrame rf) {
  return joint_torques_from_wrench(model, q, model.frame(link), wrench, rf);
}

/// Returning form for a wrench on a named frame. Throws IndexError if there is none.
template <typename Model, typename Q>
typename Model::Vector joint_torques_from_wrench(const Model& model,
                                                 const Eigen::MatrixBase<Q>& q,
                                                 std::string_view name,
                                                 const Force<typename Model::Scalar>& wrench,
                                                 ReferenceFrame rf = ReferenceFrame::world) {
  return joint_torques_from_wrench(model, q, model.frame(name), wrench, rf);
}

}  // namespace chaindyn
