/// @file
/// The joint-space mass matrix by the Composite Rigid Body Algorithm (RBDA Table 6.2).
///
/// Two coordinate choices, picked at compile time by the chain length (config.hpp,
/// CHAINDYN_CRBA_BASE_COORDINATES_FROM):
/// - link coordinates (RBDA Table 6.2 as written): the composite inertia I^c_i and the force
///   F = I^c_i S_i are carried from link to parent, M_ji = S_j^T (Xup^T ... F); each ancestor
///   pair costs one force transform, and S_j^T is a single component (the joint's axis is
///   known at compile time);
/// - base coordinates (RBDA sec. 6.2 allows any coordinates; Pinocchio's CRBA works so): every
///   S_i and I_i is expressed in the base frame once per link, I^c_i = sum_{k>=i} oI_k needs no
///   transform, and M_ji = oS_j . (oI^c_i oS_i) is one 6-vector dot product per pair.
/// The first is cheaper on short chains (no base-frame poses), the second per ancestor pair.
#pragma once

#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/model/data.hpp"
#include "chaindyn/model/joint_walks.hpp"

#include <algorithm>

namespace chaindyn {

namespace detail {

/// CRBA in link coordinates (RBDA Table 6.2). Fills M (every entry: on a chain every earlier
/// joint is an ancestor; on a tree M_ij = 0 where neither of i, j supports the other, the
/// branch-induced sparsity), data.liMi, data.Ic (`data`: a Data, or any workspace with those
/// two members, as the returning crba's locals).
template <typename Model, typename Work>
inline CHAINDYN_ALWAYS_INLINE void crba_link_coordinates(const Model& model, Work& data,
                                                         const typename Model::Vector& q,
                                                         typename Model::Matrix& M) noexcept {
  using Scalar = typename Model::Scalar;
  detail::joint_poses(model, data, q);
  // I^c_i = I_i + sum of the children's X^T I^c X (RBDA Table 6.2). On a chain the last link's
  // is its own and every other one is written once, by its only child, below; on a tree each
  // starts as the link's own and its children add to it.
  if constexpr (Model::serial) {
    const std::size_t last = detail::joint_count(model) - 1;
    data.Ic[last] = model.inertia(last);
  } else {
    M.setZero();
    model.indices_forward([&](const std::size_t i) { data.Ic[i] = model.inertia(i); });
  }
  model.joints_backward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    const auto ki = Eigen::Index(i);
    // I^c_i is complete (its child added itself below): F = I^c_i S_i, M_ii = S_i^T F
    Force<Scalar> f = joint.column(data.Ic[i]);
    M(ki, ki) = joint.project(f) + model.armature()[ki];
    // M_ji = M_ij = S_j^T (Xup_{j+1}^T ... Xup_i^T F) for the ancestors j of i: F is carried
    // into each ancestor's coordinates by the transform of the joint below it (its pattern)
    if (!model.is_root(i)) f = to_parent(joint, data.liMi[i], f);
    model.ancestors_backward(i, [&](const std::size_t j, const auto& ancestor) CHAINDYN_ALWAYS_INLINE {
      const auto kj = Eigen::Index(j);
      M(kj, ki) = M(ki, kj) = ancestor.project(f);
      if (!model.is_root(j)) f = to_parent(ancestor, data.liMi[j], f);
    });
    // I^c_p(i) = I_p(i) + Xup_i^T I^c_i Xup_i (a chain's parent has no other child; a tree's
    // parent adds each child to what it has)
    if (!model.is_root(i)) {
      const std::size_t p = model.parent(i);
      to_parent_plus(joint, data.liMi[i], data.Ic[i],
                     Model::serial ? model.inertia(p) : data.Ic[p], data.Ic[p]);
    }
  });
}

/// CRBA in base coordinates (see the file comment). Fills M (every entry), data.liMi,
/// data.oMi, data.oS, data.oIc.
template <typename Model>
inline CHAINDYN_ALWAYS_INLINE void crba_base_coordinates(const Model& model, DataFor<Model>& data,
                                                         const typename Model::Vector& q,
                                                         typename Model::Matrix& M) noexcept {
  using Scalar = typename Model::Scalar;
  // The lower triangle: stored beside the upper one while M fits in L1 (n <= 64 doubles);
  // beyond, by blocks of 8 x 8 after the pass (row-wise stores in the pass miss L1 there).
  const auto n = Eigen::Index(detail::joint_count(model));  // a constant for Chain and ChainN
  const bool transpose_after = n * n * Eigen::Index(sizeof(Scalar)) > 32768;
  world_kinematics(model, data, q);  // oMi, oS
  if constexpr (!Model::serial) M.setZero();  // the entries of pairs on different branches
  model.joints_forward(large_body, [&](const std::size_t i, const auto&) CHAINDYN_ALWAYS_INLINE {
    data.oIc[i] = model.inertia_in(i, data.oMi[i]);  // oI_i
  });
  model.joints_backward(large_body, [&](const std::size_t i, const auto&) CHAINDYN_ALWAYS_INLINE {
    const auto ki = Eigen::Index(i);
    // oI^c_i: a chain's link pulls its child's composite; a tree's children have pushed theirs
    if constexpr (Model::serial) {
      if (Eigen::Index(i) + 1 < n) data.oIc[i] += data.oIc[i + 1];
    }
    const Force<Scalar> f = data.oIc[i] * data.oS[i];
    M(ki, ki) = dot(data.oS[i], f) + model.armature()[ki];
    // the ancestors j of i: on a chain j = 0 .. i-1, on a tree the parents' walk
    if constexpr (Model::serial) {
      for (std::size_t j = 0; j < i; ++j) {
        const auto kj = Eigen::Index(j);
        M(kj, ki) = dot(data.oS[j], f);
        if (!transpose_after) M(ki, kj) = M(kj, ki);
      }
    } else {
      for (std::size_t j = model.parent(i); j != no_parent; j = model.parent(j)) {
        const auto kj = Eigen::Index(j);
        M(kj, ki) = dot(data.oS[j], f);
        M(ki, kj) = M(kj, ki);
      }
    }
    if constexpr (!Model::serial) {
      if (!model.is_root(i)) data.oIc[model.parent(i)] += data.oIc[i];
    }
  });
  if (transpose_after) {
    constexpr Eigen::Index b = 8;
    for (Eigen::Index j0 = 0; j0 < n; j0 += b) {
      for (Eigen::Index i0 = j0; i0 < n; i0 += b) {
        for (Eigen::Index j = j0; j < std::min(j0 + b, n); ++j) {
          for (Eigen::Index i = std::max(i0, j + 1); i < std::min(i0 + b, n); ++i) {
            M(i, j) = M(j, i);
          }
        }
      }
    }
  }
}

/// Link coordinates below CHAINDYN_CRBA_BASE_COORDINATES_FROM joints, base coordinates from
/// there on; a run-time-sized model (ChainX, TreeX) base coordinates at every length (its
/// ancestor loop is not unrolled: on the iiwa, g++, 1.24x the ChainN's time against 1.6x in
/// link coordinates, docs/benchmarks.md); the result into M.
template <typename Model>
inline CHAINDYN_ALWAYS_INLINE void crba_into(const Model& model, DataFor<Model>& data,
                                             const typename Model::Vector& q,
                                             typename Model::Matrix& M) noexcept {
  if constexpr (Model::nq == Eigen::Dynamic) {  // ChainX: base coordinates at every length
    crba_base_coordinates(model, data, q, M);
  } else if constexpr (Model::nq >= CHAINDYN_CRBA_BASE_COORDINATES_FROM) {
    crba_base_coordinates(model, data, q, M);
  } else {
    crba_link_coordinates(model, data, q, M);
  }
}

}  // namespace detail

/// M(q), symmetric positive definite, both triangles filled, armature on the diagonal.
/// Fills data.M; for chains shorter than CHAINDYN_CRBA_BASE_COORDINATES_FROM (9) joints also
/// data.liMi and data.Ic (link coordinates), from there on data.liMi, oMi, oS and oIc (base
/// coordinates; see the file comment). A ChainX or TreeX works in base coordinates.
template <typename Model, typename Q>
void crba(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("crba", model, data, "q", q);
  detail::crba_into(model, data, detail::as_joint_vector<Model>(q.derived()), data.M);
}

/// Returning form of crba: any Eigen vector, size checked (throws ArgumentError). M is computed
/// in the returned matrix itself (named return value), not in a workspace and then copied.
/// A compile-time chain in link coordinates (fewer than CHAINDYN_CRBA_BASE_COORDINATES_FROM
/// joints) keeps its poses and composite inertias in locals, which nothing reads after the
/// call, so the compiler need not store them (on the iiwa faster than the in-place form,
/// which must fill data.liMi and data.Ic); a longer chain or a ChainX
/// uses the thread's workspace (detail::thread_workspace).
template <typename Model, typename Q>
typename Model::Matrix crba(const Model& model, const Eigen::MatrixBase<Q>& q) {
  const auto& qv = detail::checked_joint_vector(model, q, "crba", "q");
  if constexpr (Model::nq != Eigen::Dynamic && Model::nq < CHAINDYN_CRBA_BASE_COORDINATES_FROM) {
    struct {
      PerLinkArray<Transform<typename Model::Scalar>, Model::nq> liMi;
      PerLinkArray<Inertia<typename Model::Scalar>, Model::nq> Ic;
    } work;                     // what crba_link_coordinates reads and writes besides M
    typename Model::Matrix M;  // every entry written
    detail::crba_link_coordinates(model, work, qv, M);
    return M;
  } else {
    Data<Model>& data = detail::thread_workspace(model);
    const auto n = Eigen::Index(detail::joint_count(model));
    typename Model::Matrix M(n, n);  // every entry written by crba_into
    detail::crba_into(model, data, qv, M);
    return M;
  }
}

}  // namespace chaindyn
