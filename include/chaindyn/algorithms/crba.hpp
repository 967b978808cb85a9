/// @file
/// The joint-space mass matrix by the Composite Rigid Body Algorithm (RBDA Table 6.2).
#pragma once

#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/model/data.hpp"

namespace chaindyn {

/// M(q), symmetric positive definite, both triangles filled, armature on the diagonal.
/// Fills data.M (and data.liMi, data.Ic).
template <typename Model, typename Q>
void crba(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q) noexcept {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  using Scalar = typename Model::Scalar;
  detail::joint_poses(model, data, detail::as_joint_vector<Model>(q.derived()));
  model.for_each_joint([&](const std::size_t i, const auto&) CHAINDYN_ALWAYS_INLINE {
    data.Ic[i] = model.inertia(i);  // I^c_i = I_i                              RBDA Table 6.2
  });
  model.for_each_joint_reverse([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    const auto ki = Eigen::Index(i);
    // I^c_i is complete (its child added itself below): F = I^c_i S_i, M_ii = S_i^T F
    Force<Scalar> f = joint.column(data.Ic[i]);
    data.M(ki, ki) = joint.project(f) + model.armature()[ki];
    // M_ji = M_ij = S_j^T (Xup_{j+1}^T ... Xup_i^T F) for the ancestors j of i
    model.for_each_ancestor(i, [&](const std::size_t j, const auto& ancestor) CHAINDYN_ALWAYS_INLINE {
      f = data.liMi[j + 1].act(f);
      const auto kj = Eigen::Index(j);
      data.M(kj, ki) = data.M(ki, kj) = ancestor.project(f);
    });
    // I^c_p(i) += Xup_i^T I^c_i Xup_i
    if (i > 0) data.Ic[i - 1] += data.Ic[i].transformed_by(data.liMi[i]);
  });
}

/// Returning form of crba: any Eigen vector, size checked (throws ArgumentError).
template <typename Model, typename Q>
typename Model::Matrix crba(const Model& model, const Eigen::MatrixBase<Q>& q) {
  Data<Model>& data = detail::thread_workspace(model);
  crba(model, data, detail::checked_joint_vector(model, q, "crba", "q"));
  return data.M;
}

}  // namespace chaindyn
