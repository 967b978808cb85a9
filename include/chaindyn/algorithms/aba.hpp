/// @file
/// Forward dynamics by the Articulated Body Algorithm, O(n) (RBDA Table 7.1).
#pragma once

#include "chaindyn/algorithms/friction.hpp"
#include "chaindyn/model/data.hpp"

namespace chaindyn {

namespace detail {

template <typename Model>
void aba_pass(const Model& model, DataFor<Model>& data, const typename Model::Vector& q,
              const typename Model::Vector& qd, const typename Model::Vector& tau,
              const LinkForces<Model>* f_ext) noexcept {
  using Scalar = typename Model::Scalar;
  // Pass 1, base to tip: velocities, velocity-product accelerations, bias forces.
  model.for_each_joint([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    const Transform<Scalar>& x = data.liMi[i] = joint.pose(model.placement(i), q[k]);
    Motion<Scalar>& v = data.v[i];
    // v_i = Xup_i v_p(i) + S_i qd_i;  c_i = v_i x S_i qd_i
    v = i == 0 ? joint.motion(qd[k]) : x.act_inv(data.v[i - 1]) + joint.motion(qd[k]);
    data.c[i] = joint.cross_motion(v, qd[k]);
    // IA_i = I_i;  pA_i = v_i x* I_i v_i - f_ext_i
    const Inertia<Scalar>& inertia = model.inertia(i);
    data.IA[i] = ArticulatedInertia<Scalar>(inertia);
    data.pA[i] = cross(v, inertia * v);
    if (f_ext) data.pA[i] -= (*f_ext)[i];
  });
  // Pass 2, tip to base: articulated inertias and bias forces.
  model.for_each_joint_reverse([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    // U_i = IA_i S_i;  D_i = S_i^T U_i (+ armature);  u_i = tau_i - S_i^T pA_i (- friction)
    data.U[i] = joint.column(data.IA[i]);
    data.D[k] = joint.project(data.U[i]) + model.armature()[k];
    data.u[k] = tau[k] - joint_friction(model, i, qd[k]) - joint.project(data.pA[i]);
    if (i > 0) {
      // Ia = IA_i - U_i U_i^T / D_i;  pa = pA_i + Ia c_i + U_i u_i / D_i
      // IA_p(i) += Xup_i^T Ia Xup_i;  pA_p(i) += Xup_i^T pa
      const Scalar inv_d = Scalar(1) / data.D[k];
      ArticulatedInertia<Scalar> ia = data.IA[i];
      ia.subtract_outer(data.U[i], inv_d);
      const Force<Scalar> pa = data.pA[i] + ia * data.c[i] + (data.u[k] * inv_d) * data.U[i];
      data.IA[i - 1] += ia.transformed_by(data.liMi[i]);
      data.pA[i - 1] += data.liMi[i].act(pa);
    }
  });
  // Pass 3, base to tip: accelerations.
  model.for_each_joint([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    // a'_i = Xup_i a_p(i) + c_i, a_0 = -gravity;  qdd_i = (u_i - U_i^T a'_i) / D_i;
    // a_i = a'_i + S_i qdd_i
    Motion<Scalar>& a = data.a[i];
    a = data.liMi[i].act_inv(i == 0 ? model.base_acceleration() : data.a[i - 1]) + data.c[i];
    data.qdd[k] = (data.u[k] - dot(a, data.U[i])) / data.D[k];
    a += joint.motion(data.qdd[k]);
  });
}

}  // namespace detail

/// Forward dynamics qdd = M^-1 (tau - C qd - g - friction), O(n), with armature. Fills
/// data.qdd (and data.liMi, v, a, c, IA, pA, U, D, u).
template <typename Model>
void aba(const Model& model, DataFor<Model>& data, const typename Model::Vector& q,
         const typename Model::Vector& qd, const typename Model::Vector& tau) noexcept {
  detail::aba_pass(model, data, q, qd, tau, nullptr);
}

/// Forward dynamics with external wrenches f_ext[i] on link i, expressed in link i's frame
/// about its origin ([moment; force]). Fills data.qdd.
template <typename Model>
void aba(const Model& model, DataFor<Model>& data, const typename Model::Vector& q,
         const typename Model::Vector& qd, const typename Model::Vector& tau,
         const LinkForces<Model>& f_ext) noexcept {
  detail::aba_pass(model, data, q, qd, tau, &f_ext);
}

/// Returning form of aba.
template <typename Model>
typename Model::Vector aba(const Model& model, const typename Model::Vector& q,
                           const typename Model::Vector& qd, const typename Model::Vector& tau) {
  Data<Model> data;
  aba(model, data, q, qd, tau);
  return data.qdd;
}

/// Returning form of aba with external wrenches (link frames, about link origins).
template <typename Model>
typename Model::Vector aba(const Model& model, const typename Model::Vector& q,
                           const typename Model::Vector& qd, const typename Model::Vector& tau,
                           const LinkForces<Model>& f_ext) {
  Data<Model> data;
  aba(model, data, q, qd, tau, f_ext);
  return data.qdd;
}

}  // namespace chaindyn
