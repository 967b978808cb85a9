/// @file
/// Forward dynamics by the O(n^3) route qdd = M^-1 (tau - h - friction): CRBA, an RNEA pass
/// for h, and a Cholesky factorization. The reference the O(n) ABA is checked against.
#pragma once

#include "chaindyn/algorithms/crba.hpp"
#include "chaindyn/algorithms/dense_cholesky.hpp"
#include "chaindyn/algorithms/rnea.hpp"

namespace chaindyn {

namespace detail {

/// In place: the factorization M = L^T L of a tree's mass matrix that keeps its branch-induced
/// sparsity (RBDA sec. 6.5, Table 6.3; R. Featherstone, "Efficient factorization of the
/// joint-space inertia matrix for branched kinematic trees", IJRR 24(6), 2005): L is lower
/// triangular with L(k, i) != 0 only where i supports k, and the factorization touches only
/// those entries, from the leaves inwards:
///     L(k, k) = sqrt(M'(k, k)),  L(k, i) = M'(k, i) / L(k, k) for the ancestors i of k,
///     M'(i, j) -= L(k, i) L(k, j) for the ancestors j of each ancestor i of k (and j = i),
/// with M' what is left of M. O(sum of the squared depths) instead of O(n^3 / 3); on a chain it
/// is the dense factorization taken from the tip. Reads M's lower triangle; writes L's lower
/// triangle where the pattern allows (the rest of L keeps whatever it held).
template <typename Model, typename Matrix>
void ltl_factor(const Model& model, const Matrix& m, Matrix& l) noexcept {
  using std::sqrt;
  using Scalar = typename Matrix::Scalar;
  const std::size_t n = joint_count(model);
  for (std::size_t k = 0; k < n; ++k) {
    const auto kk = Eigen::Index(k);
    l(kk, kk) = m(kk, kk);
    for (std::size_t i = model.parent(k); i != no_parent; i = model.parent(i)) {
      l(kk, Eigen::Index(i)) = m(kk, Eigen::Index(i));
    }
  }
  for (std::size_t k = n; k-- > 0;) {
    const auto kk = Eigen::Index(k);
    const Scalar d = sqrt(l(kk, kk));
    const Scalar inv_d = Scalar(1) / d;
    l(kk, kk) = d;
    for (std::size_t i = model.parent(k); i != no_parent; i = model.parent(i)) {
      l(kk, Eigen::Index(i)) *= inv_d;
    }
    for (std::size_t i = model.parent(k); i != no_parent; i = model.parent(i)) {
      const Scalar lki = l(kk, Eigen::Index(i));
      for (std::size_t j = i; j != no_parent; j = model.parent(j)) {
        l(Eigen::Index(i), Eigen::Index(j)) -= lki * l(kk, Eigen::Index(j));
      }
    }
  }
}

/// In place: x := (L^T L)^-1 x with ltl_factor's L, by the two sparse substitutions of RBDA
/// Table 6.4: L^T y = x from the leaves inwards, then L x = y from the base outwards.
template <typename Model, typename Matrix, typename Vector>
void ltl_solve(const Model& model, const Matrix& l, Vector& x) noexcept {
  const std::size_t n = joint_count(model);
  for (std::size_t i = n; i-- > 0;) {
    const auto ki = Eigen::Index(i);
    x[ki] /= l(ki, ki);
    for (std::size_t j = model.parent(i); j != no_parent; j = model.parent(j)) {
      x[Eigen::Index(j)] -= l(ki, Eigen::Index(j)) * x[ki];
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto ki = Eigen::Index(i);
    for (std::size_t j = model.parent(i); j != no_parent; j = model.parent(j)) {
      x[ki] -= l(ki, Eigen::Index(j)) * x[Eigen::Index(j)];
    }
    x[ki] /= l(ki, ki);
  }
}

}  // namespace detail

/// qdd = M(q)^-1 (tau - C(q, qd) qd - g(q) - friction(qd)), O(n^3) on a chain. Fills data.qdd,
/// data.M, data.L, data.nle: on a chain L is M's Cholesky factor (L L^T = M); on a tree it is
/// the sparse factor of detail::ltl_factor (L^T L = M, L(k, i) = 0 unless i supports k: RBDA
/// sec. 6.5), whose cost grows with the depths of the branches, not with n^3.
template <typename Model, typename Q, typename Qd, typename Tau>
void forward_dynamics_crba(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
                           const Eigen::MatrixBase<Qd>& qd,
                           const Eigen::MatrixBase<Tau>& tau) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Tau>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("forward_dynamics_crba", model, data, "q", q, "qd", qd, "tau", tau);
  const auto& qv = detail::as_joint_vector<Model>(q.derived());
  const auto& qdv = detail::as_joint_vector<Model>(qd.derived());
  const auto& tauv = detail::as_joint_vector<Model>(tau.derived());
  crba(model, data, qv);  // fills data.liMi at q too: h's RNEA pass reuses the joint poses
  detail::rnea_pass<true, false, false, false>(model, data, qv, qdv, detail::NoArgument{}, nullptr);
  data.nle = data.tau;
  if constexpr (Model::serial) {
    detail::cholesky_factor(data.M, data.L);
  } else {
    detail::ltl_factor(model, data.M, data.L);
  }
  for (Eigen::Index i = 0; i < Eigen::Index(detail::joint_count(model)); ++i) {
    data.qdd[i] = tauv[i] - data.nle[i] - joint_friction(model, std::size_t(i), qdv[i]);
  }
  if constexpr (Model::serial) {
    detail::cholesky_solve(data.L, data.qdd);
  } else {
    detail::ltl_solve(model, data.L, data.qdd);
  }
}

/// Returning form of forward_dynamics_crba: any Eigen vectors, sizes checked.
template <typename Model, typename Q, typename Qd, typename Tau>
typename Model::Vector forward_dynamics_crba(const Model& model, const Eigen::MatrixBase<Q>& q,
                                             const Eigen::MatrixBase<Qd>& qd,
                                             const Eigen::MatrixBase<Tau>& tau) {
  Data<Model>& data = detail::thread_workspace(model);
  forward_dynamics_crba(model, data,
                        detail::checked_joint_vector(model, q, "forward_dynamics_crba", "q"),
                        detail::checked_joint_vector(model, qd, "forward_dynamics_crba", "qd"),
                        detail::checked_joint_vector(model, tau, "forward_dynamics_crba", "tau"));
  return data.qdd;
}

}  // namespace chaindyn
