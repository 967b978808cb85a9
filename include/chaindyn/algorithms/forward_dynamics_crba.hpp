/// @file
/// Forward dynamics by the O(n^3) route qdd = M^-1 (tau - h - friction): CRBA, an RNEA pass
/// for h, and a Cholesky factorization. The reference the O(n) ABA is checked against.
#pragma once

#include "chaindyn/algorithms/crba.hpp"
#include "chaindyn/algorithms/rnea.hpp"

namespace chaindyn {

namespace detail {

/// In place: L (lower triangle) with L L^T = M for M symmetric positive definite. Reads only
/// M's lower triangle. Two loop orders of the same arithmetic (each entry subtracts its products
/// in the same order and is scaled by the same pivot):
/// - up to 16 joints known at compile time, row by row (Cholesky-Banachiewicz), unrolled whole
///   (CHAINDYN_UNROLL_16: clang++ unrolls it by itself, g++ does not);
/// - longer or run-time-sized chains, column by column, left-looking (Golub & Van Loan, Matrix
///   Computations, 4th ed., Alg. 4.2.2, gaxpy Cholesky): column j is M's column j minus l(j, k)
///   times column k of L for every k < j, an axpy down contiguous memory (L column-major) that
///   the compiler vectorises, where the row form is a chain of dependent dot products
///   (latency-bound; the column form halves g++'s time at n = 64).
/// Each pivot is inverted once and the entries below it multiplied by 1 / l(j, j): n divisions
/// instead of n (n + 1) / 2 (a division is ~13 cycles of latency and 4-5 of throughput, a
/// multiplication 3 and 0.5).
template <typename Matrix>
void cholesky_factor(const Matrix& m, Matrix& l) noexcept {
  static_assert(!Matrix::IsRowMajor, "cholesky_factor walks columns of a column-major matrix");
  using std::sqrt;
  using Scalar = typename Matrix::Scalar;  // not auto: AutoDiffScalar's expressions differ in type
  const Eigen::Index n = m.rows();
  if constexpr (Matrix::RowsAtCompileTime != Eigen::Dynamic && Matrix::RowsAtCompileTime <= 16) {
    Scalar inv[Matrix::RowsAtCompileTime];  // 1 / l(j, j)
    CHAINDYN_UNROLL_16
    for (Eigen::Index i = 0; i < n; ++i) {
      CHAINDYN_UNROLL_16
      for (Eigen::Index j = 0; j <= i; ++j) {
        Scalar s = m(i, j);
        CHAINDYN_UNROLL_16
        for (Eigen::Index k = 0; k < j; ++k) s -= l(i, k) * l(j, k);
        if (i == j) {
          l(i, i) = sqrt(s);
          inv[i] = Scalar(1) / l(i, i);
        } else {
          l(i, j) = s * inv[j];
        }
      }
    }
  } else {
    for (Eigen::Index j = 0; j < n; ++j) {
      Scalar* const cj = &l(0, j);
      for (Eigen::Index i = j; i < n; ++i) cj[i] = m(i, j);
      for (Eigen::Index k = 0; k < j; ++k) {
        const Scalar* const ck = &l(0, k);
        const Scalar ljk = ck[j];
        for (Eigen::Index i = j; i < n; ++i) cj[i] -= ck[i] * ljk;
      }
      const Scalar d = sqrt(cj[j]);
      const Scalar inv_d = Scalar(1) / d;
      cj[j] = d;
      for (Eigen::Index i = j + 1; i < n; ++i) cj[i] *= inv_d;
    }
  }
}

/// In place: x := (L L^T)^-1 x by forward and back substitution. Up to 16 joints known at
/// compile time unrolled whole, with each pivot inverted once for both substitutions (n
/// divisions instead of 2n).
template <typename Matrix, typename Vector>
void cholesky_solve(const Matrix& l, Vector& x) noexcept {
  const Eigen::Index n = l.rows();
  if constexpr (Matrix::RowsAtCompileTime != Eigen::Dynamic && Matrix::RowsAtCompileTime <= 16) {
    using Scalar = typename Matrix::Scalar;
    Scalar inv[Matrix::RowsAtCompileTime];  // 1 / l(i, i)
    CHAINDYN_UNROLL_16
    for (Eigen::Index i = 0; i < n; ++i) {
      inv[i] = Scalar(1) / l(i, i);
      CHAINDYN_UNROLL_16
      for (Eigen::Index k = 0; k < i; ++k) x[i] -= l(i, k) * x[k];
      x[i] *= inv[i];
    }
    CHAINDYN_UNROLL_16
    for (Eigen::Index r = 0; r < n; ++r) {  // i = n - 1 ... 0 (a loop g++ can unroll)
      const Eigen::Index i = n - 1 - r;
      CHAINDYN_UNROLL_16
      for (Eigen::Index k = i + 1; k < n; ++k) x[i] -= l(k, i) * x[k];
      x[i] *= inv[i];
    }
  } else {
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index k = 0; k < i; ++k) x[i] -= l(i, k) * x[k];
      x[i] /= l(i, i);
    }
    for (Eigen::Index i = n; i-- > 0;) {
      for (Eigen::Index k = i + 1; k < n; ++k) x[i] -= l(k, i) * x[k];
      x[i] /= l(i, i);
    }
  }
}

}  // namespace detail

/// qdd = M(q)^-1 (tau - C(q, qd) qd - g(q) - friction(qd)), O(n^3). Fills data.qdd, data.M,
/// data.L (Cholesky factor of M), data.nle.
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
  detail::cholesky_factor(data.M, data.L);
  for (Eigen::Index i = 0; i < Eigen::Index(detail::joint_count(model)); ++i) {
    data.qdd[i] = tauv[i] - data.nle[i] - joint_friction(model, std::size_t(i), qdv[i]);
  }
  detail::cholesky_solve(data.L, data.qdd);
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
