/// @file
/// The inverse of the joint-space mass matrix in O(n^2) without forming M: the articulated-body
/// algorithm (RBDA Table 7.1) driven by unit joint forces.
#pragma once

#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/model/data.hpp"

namespace chaindyn {

/// M(q)^-1, armature included, in O(n^2) without forming or factorizing M. Fills data.Minv
/// (both triangles; and data.liMi, IA, U, D, u; on a tree also data.a).
///
/// Derivation. With zero velocity and zero gravity ABA (RBDA Table 7.1) computes
/// qdd = M^-1 tau, so column j of M^-1 is ABA's output for tau = e_j. The articulated
/// inertias IA_i, U_i = IA_i S_i and D_i = S_i^T U_i (+ armature) do not depend on tau: one
/// tip-to-base pass computes them for all columns (O(n)). For tau = e_j, with c_i = 0 and
/// pA_i = 0 for i > j, the bias pass reduces to
///     u_j = 1,   u_i = -S_i^T pA_i (i < j),   pA_p(i) = Xup_i^T (pA_i + U_i u_i / D_i),
/// a walk from j to the base (O(j)), and the acceleration pass to
///     a'_i = Xup_i a_p(i) (a_0 = 0),   qdd_i = (u_i - U_i^T a'_i) / D_i,   a_i = a'_i + S_i qdd_i,
/// a walk from the base to the tip (O(n)). Over n columns: O(n^2). This is the unit-force
/// reading of ABA (RBDA sec. 7.3); Carpentier's Minv algorithm (J. Carpentier, "Analytical
/// inverse of the joint space inertia matrix", 2018) organizes the same recursions with all
/// columns propagated together and has the same O(n^2) cost on a chain.
template <typename Model, typename Q>
void inverse_mass_matrix(const Model& model, DataFor<Model>& data,
                         const Eigen::MatrixBase<Q>& q_in) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("inverse_mass_matrix", model, data, "q", q_in);
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  using Scalar = typename Model::Scalar;
  const std::size_t n = detail::joint_count(model);
  // Poses and rigid-body inertias, base to tip.
  detail::joint_poses(model, data, q);
  model.joints_forward([&](const std::size_t i, const auto&) CHAINDYN_ALWAYS_INLINE {
    data.IA[i] = ArticulatedInertia<Scalar>(model.inertia(i));
  });
  // (children before parents: IA_i is complete when joint i's step reads it)
  // Articulated inertias, tip to base: U_i = IA_i S_i, D_i = S_i^T U_i + armature_i,
  // IA_p(i) += Xup_i^T (IA_i - U_i U_i^T / D_i) Xup_i.
  model.joints_backward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    data.U[i] = joint.column(data.IA[i]);
    data.D[k] = joint.project(data.U[i]) + model.armature()[k];
    if (Model::serial ? i > 0 : !model.is_root(i)) {
      ArticulatedInertia<Scalar> ia = data.IA[i];
      ia.subtract_outer(data.U[i], Scalar(1) / data.D[k]);
      data.IA[Model::serial ? i - 1 : model.parent(i)] += ia.transformed_by(data.liMi[i]);
    }
  });
  for (std::size_t j = 0; j < n; ++j) {
    // Bias pass for tau = e_j, from joint j to the base along the joints that support it;
    // u_i = 0 elsewhere. c: the joint visited before i on the way (on a chain i + 1).
    Force<Scalar> pa;  // pA_c + U_c u_c / D_c, in link c's frame
    [[maybe_unused]] std::size_t c = j;
    model.joints_backward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
      const auto k = Eigen::Index(i);
      if constexpr (Model::serial) {
        if (i > j) {
          data.u[k] = Scalar(0);
          return;
        }
      } else if (i > j || !model.supports(i, j)) {
        data.u[k] = Scalar(0);
        return;
      }
      if (i == j) {
        data.u[k] = Scalar(1);
        pa = (Scalar(1) / data.D[k]) * data.U[i];
      } else {
        const Force<Scalar> pA = data.liMi[Model::serial ? i + 1 : c].act(pa);  // Xup_c^T pa
        data.u[k] = -joint.project(pA);
        pa = pA + (data.u[k] / data.D[k]) * data.U[i];
      }
      if constexpr (!Model::serial) c = i;
    });
    // Acceleration pass, base to tip: column j of M^-1. On a chain a_p(i) is the previous
    // step's a; a tree's link reads its parent's from data.a.
    Motion<Scalar> a;  // a_i; zero at the base (no gravity, no velocity)
    const auto kj = Eigen::Index(j);
    model.joints_forward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
      const auto k = Eigen::Index(i);
      if constexpr (Model::serial) {
        if (i > 0) a = data.liMi[i].act_inv(a);
      } else {
        a = model.is_root(i) ? Motion<Scalar>() : data.liMi[i].act_inv(data.a[model.parent(i)]);
      }
      const Scalar qdd = (data.u[k] - dot(a, data.U[i])) / data.D[k];
      data.Minv(k, kj) = qdd;
      a += joint.motion(qdd);
      if constexpr (!Model::serial) data.a[i] = a;
    });
  }
}

/// Returning form of inverse_mass_matrix.
template <typename Model, typename Q>
typename Model::Matrix inverse_mass_matrix(const Model& model, const Eigen::MatrixBase<Q>& q) {
  Data<Model>& data = detail::thread_workspace(model);
  inverse_mass_matrix(model, data, detail::checked_joint_vector(model, q, "inverse_mass_matrix", "q"));
  return data.Minv;
}

}  // namespace chaindyn
