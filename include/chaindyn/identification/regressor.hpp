/// @file
/// The inverse-dynamics regressor: tau = Y(q, qd, qdd) pi, linear in the inertial parameters
/// (Atkeson, An & Hollerbach, "Estimation of inertial parameters of manipulator loads and
/// links", IJRR 5(3), 1986; Khalil & Dombre, "Modeling, identification and control of robots",
/// ch. 12).
#pragma once

#include "chaindyn/algorithms/rnea.hpp"

namespace chaindyn {

/// Number of inertial parameters per link.
inline constexpr int kInertialParametersPerLink = 10;

namespace detail {
/// k * Model::nq, or Eigen::Dynamic for a runtime-sized model.
template <typename Model>
inline constexpr int times_nq(int k) {
  return Model::nq == Eigen::Dynamic ? Eigen::Dynamic : k * Model::nq;
}
}  // namespace detail

/// The N x 10N regressor matrix of a model.
template <typename Model>
using RegressorMatrix = Eigen::Matrix<typename Model::Scalar, Model::nq,
                                      detail::times_nq<Model>(kInertialParametersPerLink)>;
/// The 10N vector of inertial parameters of a model.
template <typename Model>
using InertialParameters = Eigen::Matrix<typename Model::Scalar,
                                         detail::times_nq<Model>(kInertialParametersPerLink), 1>;

/// Number of joint-dynamics parameters per joint (damping, Coulomb friction, armature).
inline constexpr int kJointDynamicsParametersPerJoint = 3;
/// The N x 13N regressor with joint-dynamics columns (regressor_with_joint_dynamics).
template <typename Model>
using RegressorWithJointDynamicsMatrix =
    Eigen::Matrix<typename Model::Scalar, Model::nq,
                  detail::times_nq<Model>(kInertialParametersPerLink +
                                          kJointDynamicsParametersPerJoint)>;
/// The 13N vector [inertial parameters; damping; Coulomb friction; armature].
template <typename Model>
using ParametersWithJointDynamics =
    Eigen::Matrix<typename Model::Scalar,
                  detail::times_nq<Model>(kInertialParametersPerLink +
                                          kJointDynamicsParametersPerJoint),
                  1>;

namespace detail {

/// The spatial inertia with parameter p (0..9, the order of inertial_parameters) set to 1 and
/// every other parameter 0; not a physical body, only a basis element of the linear map.
template <typename Scalar>
Inertia<Scalar> unit_inertia(int p) noexcept {
  Inertia<Scalar> out;
  if (p == 0) {
    out.mass = Scalar(1);
  } else if (p < 4) {
    out.first_moment[p - 1] = Scalar(1);
  } else {
    // xx, xy, xz, yy, yz, zz
    constexpr int rows[6] = {0, 0, 0, 1, 1, 2};
    constexpr int cols[6] = {0, 1, 2, 1, 2, 2};
    const int r = rows[p - 4], c = cols[p - 4];
    out.rotational(r, c) = Scalar(1);
    out.rotational(c, r) = Scalar(1);
  }
  return out;
}

}  // namespace detail

/// The inertial parameters pi of the model the algorithms see (payloads included), 10 per
/// link, link i's at rows 10 i .. 10 i + 9, in the order
///     m,  m c_x, m c_y, m c_z,  I_xx, I_xy, I_xz, I_yy, I_yz, I_zz
/// with c the centre of mass in the link frame and I the rotational inertia about the
/// LINK-FRAME ORIGIN in link-frame axes (I = I_C - m [c]x [c]x, parallel axis; Inertia's
/// `rotational`). Products of inertia are the matrix entries (I_xy = -sum m x y), not their
/// negatives.
template <typename Model>
InertialParameters<Model> inertial_parameters(const Model& model) {
  const auto n = Eigen::Index(detail::joint_count(model));
  InertialParameters<Model> pi(kInertialParametersPerLink * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& in = model.inertia(std::size_t(i));
    auto p = pi.template segment<kInertialParametersPerLink>(kInertialParametersPerLink * i);
    p << in.mass, in.first_moment, in.rotational(0, 0), in.rotational(0, 1),
        in.rotational(0, 2), in.rotational(1, 1), in.rotational(1, 2), in.rotational(2, 2);
  }
  return pi;
}

namespace detail {

/// The 10 regressor columns of link k into Y's columns col0 .. col0 + 9 (rows of joints that do
/// not support k are left alone: they are zero), from the velocities and accelerations in
/// data.v, data.a:
///     Y(i, col0 + p) = S_i^T X^*_{i<-k} (I^p a_k + v_k x* I^p v_k),   i supports k.
template <typename Model, typename Out>
void link_regressor_columns(const Model& model, const DataFor<Model>& data, const std::size_t k,
                            const Eigen::Index col0, Out& Y) noexcept {
  using Scalar = typename Model::Scalar;
  const Motion<Scalar>& v = data.v[k];
  const Motion<Scalar>& a = data.a[k];
  for (int p = 0; p < kInertialParametersPerLink; ++p) {
    const Inertia<Scalar> unit = unit_inertia<Scalar>(p);
    Force<Scalar> f = unit * a + cross(v, unit * v);
    // carry f from link k to the base, projecting on each joint on the way (the joints that
    // support link k, children before parents)
    std::size_t child = k;
    model.joints_backward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
      if (i > k || !model.supports(i, k)) return;
      if (i < k) f = data.liMi[child].act(f);
      child = i;
      Y(Eigen::Index(i), col0 + p) = joint.project(f);
    });
  }
}

}  // namespace detail

/// Fills Y with the regressor of the rigid-body part of rnea:
///     Y(q, qd, qdd) * inertial_parameters(model) = rnea(model, q, qd, qdd)
///                                                  - damping qd - friction sign(qd) - armature qdd
/// (gravity included; joint dynamics are not inertial parameters and stay out of Y: add them
/// to Y pi, or use regressor_with_joint_dynamics, which appends their columns). Y depends on the kinematics
/// (placements, axes, gravity) and the state only, never on the model's inertias.
///
/// Method: link k's body force f_k = I_k a_k + v_k x* I_k v_k (RBDA eq. 5.9) is linear in
/// link k's 10 parameters, f_k = sum_p pi_kp (I^p a_k + v_k x* I^p v_k) with I^p the unit
/// inertias; joint i <= k feels S_i^T X^*_{i<-k} f_k (RBDA eq. 5.10-11), so
///     Y(i, 10 k + p) = S_i^T X^*_{i<-k} (I^p a_k + v_k x* I^p v_k),   i <= k,   0 for i > k.
/// O(10 n^2). Uses data.liMi, v, a (and f, tau) as scratch. No allocation.
template <typename Model, typename Q, typename Qd, typename Qdd>
void regressor(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
               const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Qdd>& qdd,
               RegressorMatrix<Model>& Y) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Qdd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("regressor", model, data, "q", q, "qd", qd, "qdd", qdd);
  const auto n = Eigen::Index(detail::joint_count(model));
  detail::check_matrix<Model>("regressor", "Y", Y, n, kInertialParametersPerLink * n);
  // Velocities and accelerations (with -gravity at the base): the RNEA's forward pass.
  detail::rnea_pass<true, true, false>(model, data, detail::as_joint_vector<Model>(q.derived()),
                                       detail::as_joint_vector<Model>(qd.derived()),
                                       detail::as_joint_vector<Model>(qdd.derived()), nullptr);
  Y.setZero();
  for (std::size_t k = 0; k < detail::joint_count(model); ++k) {
    detail::link_regressor_columns(model, data, k,
                                   Eigen::Index(kInertialParametersPerLink * k), Y);
  }
}

/// The N x 10 regressor of link k alone: regressor's columns 10 k .. 10 k + 9, so that
/// Y_k * (link k's 10 parameters) is the torque link k's inertia causes (rows i > k are zero).
/// The torque a payload on link k adds is Y_k times the payload's parameters (about link k's
/// origin, the order of inertial_parameters). O(10 n). No allocation. Throws IndexError if
/// k is not a link of the model (hence not noexcept).
template <typename Model, typename Q, typename Qd, typename Qdd>
void link_regressor(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
                    const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Qdd>& qdd,
                    std::size_t k,
                    Eigen::Matrix<typename Model::Scalar, Model::nq, kInertialParametersPerLink>&
                        Yk) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Qdd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("link_regressor", model, data, "q", q, "qd", qd, "qdd", qdd);
  detail::check_index(k, detail::joint_count(model), "link_regressor: link");
  detail::check_matrix<Model>("link_regressor", "Yk", Yk, Eigen::Index(detail::joint_count(model)),
                              kInertialParametersPerLink);
  detail::rnea_pass<true, true, false>(model, data, detail::as_joint_vector<Model>(q.derived()),
                                       detail::as_joint_vector<Model>(qd.derived()),
                                       detail::as_joint_vector<Model>(qdd.derived()), nullptr);
  Yk.setZero();
  detail::link_regressor_columns(model, data, k, 0, Yk);
}

/// The parameters of regressor_with_joint_dynamics: inertial_parameters(model) (10 N), then
/// the joints' viscous damping (N), Coulomb friction (N) and armature (N), in joint order.
template <typename Model>
ParametersWithJointDynamics<Model> parameters_with_joint_dynamics(const Model& model) {
  ParametersWithJointDynamics<Model> out(
      (kInertialParametersPerLink + kJointDynamicsParametersPerJoint) *
      Eigen::Index(detail::joint_count(model)));
  out << inertial_parameters(model), model.damping(), model.friction(), model.armature();
  return out;
}

/// The regressor of all of rnea, joint dynamics included:
///     Y(q, qd, qdd) * parameters_with_joint_dynamics(model) = rnea(model, q, qd, qdd).
/// Columns 0 .. 10N-1 are regressor's; then one column per joint and quantity, non-zero only in
/// the joint's own row, the terms of joint_friction and the armature torque:
///     Y(i, 10N + i) = qd_i  (damping),  Y(i, 11N + i) = sign(qd_i)  (Coulomb friction),
///     Y(i, 12N + i) = qdd_i  (armature: rotor inertia reflected through the gear ratio).
/// sign(0) = 0, as in rnea (no stiction). O(10 n^2). No allocation.
template <typename Model, typename Q, typename Qd, typename Qdd>
void regressor_with_joint_dynamics(const Model& model, DataFor<Model>& data,
                                   const Eigen::MatrixBase<Q>& q_in,
                                   const Eigen::MatrixBase<Qd>& qd_in,
                                   const Eigen::MatrixBase<Qdd>& qdd_in,
                                   RegressorWithJointDynamicsMatrix<Model>& Y)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Qdd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("regressor_with_joint_dynamics", model, data, "q", q_in, "qd", qd_in,
                         "qdd", qdd_in);
  detail::check_matrix<Model>(
      "regressor_with_joint_dynamics", "Y", Y, Eigen::Index(detail::joint_count(model)),
      (kInertialParametersPerLink + kJointDynamicsParametersPerJoint) *
          Eigen::Index(detail::joint_count(model)));
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  const auto& qd = detail::as_joint_vector<Model>(qd_in.derived());
  const auto& qdd = detail::as_joint_vector<Model>(qdd_in.derived());
  const auto n = Eigen::Index(detail::joint_count(model));
  const Eigen::Index ni = kInertialParametersPerLink * n;
  detail::rnea_pass<true, true, false>(model, data, q, qd, qdd, nullptr);
  Y.setZero();
  for (std::size_t k = 0; k < std::size_t(n); ++k) {
    detail::link_regressor_columns(model, data, k,
                                   Eigen::Index(kInertialParametersPerLink * k), Y);
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    Y(i, ni + i) = qd[i];
    Y(i, ni + n + i) = detail::sign(qd[i]);
    Y(i, ni + 2 * n + i) = qdd[i];
  }
}

/// Returning form of regressor_with_joint_dynamics: any Eigen vectors, sizes checked (throws
/// ArgumentError).
template <typename Model, typename Q, typename Qd, typename Qdd>
RegressorWithJointDynamicsMatrix<Model> regressor_with_joint_dynamics(
    const Model& model, const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Qd>& qd,
    const Eigen::MatrixBase<Qdd>& qdd) {
  const auto n = Eigen::Index(detail::joint_count(model));
  RegressorWithJointDynamicsMatrix<Model> Y(
      n, (kInertialParametersPerLink + kJointDynamicsParametersPerJoint) * n);
  regressor_with_joint_dynamics(
      model, detail::thread_workspace(model),
      detail::checked_joint_vector(model, q, "regressor_with_joint_dynamics", "q"),
      detail::checked_joint_vector(model, qd, "regressor_with_joint_dynamics", "qd"),
      detail::checked_joint_vector(model, qdd, "regressor_with_joint_dynamics", "qdd"), Y);
  return Y;
}

/// Returning form of regressor: any Eigen vectors, sizes checked (throws ArgumentError).
template <typename Model, typename Q, typename Qd, typename Qdd>
RegressorMatrix<Model> regressor(const Model& model, const Eigen::MatrixBase<Q>& q,
                                 const Eigen::MatrixBase<Qd>& qd,
                                 const Eigen::MatrixBase<Qdd>& qdd) {
  const auto n = Eigen::Index(detail::joint_count(model));
  RegressorMatrix<Model> Y(n, kInertialParametersPerLink * n);
  regressor(model, detail::thread_workspace(model),
            detail::checked_joint_vector(model, q, "regressor", "q"),
            detail::checked_joint_vector(model, qd, "regressor", "qd"),
            detail::checked_joint_vector(model, qdd, "regressor", "qdd"), Y);
  return Y;
}

}  // namespace chaindyn
