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

/// The N x 10N regressor matrix of a model.
template <typename Model>
using RegressorMatrix = Eigen::Matrix<typename Model::Scalar, Model::nq,
                                      kInertialParametersPerLink * Model::nq>;
/// The 10N vector of inertial parameters of a model.
template <typename Model>
using InertialParameters = Eigen::Matrix<typename Model::Scalar,
                                         kInertialParametersPerLink * Model::nq, 1>;

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
  InertialParameters<Model> pi;
  for (int i = 0; i < Model::nq; ++i) {
    const auto& in = model.inertia(std::size_t(i));
    auto p = pi.template segment<kInertialParametersPerLink>(kInertialParametersPerLink * i);
    p << in.mass, in.first_moment, in.rotational(0, 0), in.rotational(0, 1),
        in.rotational(0, 2), in.rotational(1, 1), in.rotational(1, 2), in.rotational(2, 2);
  }
  return pi;
}

/// Fills Y with the regressor of the rigid-body part of rnea:
///     Y(q, qd, qdd) * inertial_parameters(model) = rnea(model, q, qd, qdd)
///                                                  - damping qd - friction sign(qd) - armature qdd
/// (gravity included; joint dynamics are not inertial parameters and stay out of Y: add them
/// to Y pi, or identify them with extra columns of your own). Y depends on the kinematics
/// (placements, axes, gravity) and the state only, never on the model's inertias.
///
/// Method: link k's body force f_k = I_k a_k + v_k x* I_k v_k (RBDA eq. 5.9) is linear in
/// link k's 10 parameters, f_k = sum_p pi_kp (I^p a_k + v_k x* I^p v_k) with I^p the unit
/// inertias; joint i <= k feels S_i^T X^*_{i<-k} f_k (RBDA eq. 5.10-11), so
///     Y(i, 10 k + p) = S_i^T X^*_{i<-k} (I^p a_k + v_k x* I^p v_k),   i <= k,   0 for i > k.
/// O(10 n^2). Uses data.liMi, v, a (and f, tau) as scratch. No allocation.
template <typename Model>
void regressor(const Model& model, DataFor<Model>& data, const typename Model::Vector& q,
               const typename Model::Vector& qd, const typename Model::Vector& qdd,
               RegressorMatrix<Model>& Y) noexcept {
  using Scalar = typename Model::Scalar;
  constexpr int np = kInertialParametersPerLink;
  // Velocities and accelerations (with -gravity at the base): the RNEA's forward pass.
  detail::rnea_pass<true, true, false>(model, data, q, qd, qdd, nullptr);
  Y.setZero();
  for (std::size_t k = 0; k < std::size_t(Model::nq); ++k) {
    const Motion<Scalar>& v = data.v[k];
    const Motion<Scalar>& a = data.a[k];
    for (int p = 0; p < np; ++p) {
      const Inertia<Scalar> unit = detail::unit_inertia<Scalar>(p);
      Force<Scalar> f = unit * a + cross(v, unit * v);
      const Eigen::Index col = Eigen::Index(np * k) + p;
      // carry f from link k to the base, projecting on each joint on the way
      model.for_each_joint_reverse([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
        if (i > k) return;
        if (i < k) f = data.liMi[i + 1].act(f);
        Y(Eigen::Index(i), col) = joint.project(f);
      });
    }
  }
}

/// Returning form of regressor.
template <typename Model>
RegressorMatrix<Model> regressor(const Model& model, const typename Model::Vector& q,
                                 const typename Model::Vector& qd,
                                 const typename Model::Vector& qdd) {
  Data<Model> data;
  RegressorMatrix<Model> Y;
  regressor(model, data, q, qd, qdd, Y);
  return Y;
}

}  // namespace chaindyn
