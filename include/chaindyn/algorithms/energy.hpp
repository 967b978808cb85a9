/// @file
/// Kinetic and potential energy of a chain.
#pragma once

#include "chaindyn/algorithms/forward_kinematics.hpp"

namespace chaindyn {

/// T = sum_i 1/2 v_i . I_i v_i + sum_i 1/2 armature_i qd_i^2 = 1/2 qd^T M(q) qd (J).
/// Fills data.kinetic_energy (and data.liMi, data.v).
template <typename Model, typename Q, typename Qd>
typename Model::Scalar kinetic_energy(const Model& model, DataFor<Model>& data,
                                      const Eigen::MatrixBase<Q>& q,
                                      const Eigen::MatrixBase<Qd>& qd_in) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("kinetic_energy", model, data, "q", q, "qd", qd_in);
  using Scalar = typename Model::Scalar;
  const auto& qd = detail::as_joint_vector<Model>(qd_in.derived());
  Scalar t(0);
  detail::joint_poses(model, data, detail::as_joint_vector<Model>(q.derived()));
  model.joints_forward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    const Transform<Scalar>& x = data.liMi[i];
    Motion<Scalar>& v = data.v[i];
    v = model.is_root(i) ? joint.motion(qd[k])
                         : x.act_inv(data.v[model.parent(i)]) + joint.motion(qd[k]);
    t += dot(v, model.inertia(i) * v) + model.armature()[k] * qd[k] * qd[k];
  });
  data.kinetic_energy = Scalar(0.5) * t;
  return data.kinetic_energy;
}

/// Returning form of kinetic_energy: any Eigen vectors, sizes checked.
template <typename Model, typename Q, typename Qd>
typename Model::Scalar kinetic_energy(const Model& model, const Eigen::MatrixBase<Q>& q,
                                      const Eigen::MatrixBase<Qd>& qd) {
  return kinetic_energy(model, detail::thread_workspace(model),
                        detail::checked_joint_vector(model, q, "kinetic_energy", "q"),
                        detail::checked_joint_vector(model, qd, "kinetic_energy", "qd"));
}

/// V = -sum_i m_i g . c_i, c_i the centre of mass of link i in the base frame: zero when every
/// centre of mass is at the height of the base origin (J). Fills data.potential_energy (and
/// data.liMi, data.oMi).
template <typename Model, typename Q>
typename Model::Scalar potential_energy(const Model& model, DataFor<Model>& data,
                                        const Eigen::MatrixBase<Q>& q) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("potential_energy", model, data, "q", q);
  using Scalar = typename Model::Scalar;
  forward_kinematics(model, data, q);
  Scalar v(0);
  for (std::size_t i = 0; i < detail::joint_count(model); ++i) {
    const Inertia<Scalar>& inertia = model.inertia(i);
    const Transform<Scalar>& x = data.oMi[i];
    // m c_world = R h + m p
    v -= model.gravity().dot(x.rotation * inertia.first_moment + inertia.mass * x.translation);
  }
  data.potential_energy = v;
  return v;
}

/// Returning form of potential_energy: any Eigen vector, size checked.
template <typename Model, typename Q>
typename Model::Scalar potential_energy(const Model& model, const Eigen::MatrixBase<Q>& q) {
  return potential_energy(model, detail::thread_workspace(model),
                          detail::checked_joint_vector(model, q, "potential_energy", "q"));
}

}  // namespace chaindyn
