/// @file
/// The eigen-decomposition of a small symmetric matrix (3x3: an inertia's principal moments;
/// 4x4: a pseudo-inertia) by the cyclic Jacobi method, for the rooms that check or project
/// inertias (urdf/, identification/).
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <utility>

namespace chaindyn::detail {

/// a = vectors diag(values) vectors^T, values ascending.
template <int N>
struct SymmetricEigen {
  Eigen::Matrix<double, N, 1> values;
  Eigen::Matrix<double, N, N> vectors;
};

/// The eigen-decomposition of the symmetric part of `in` by the cyclic Jacobi method (Golub &
/// Van Loan, "Matrix Computations", 4th ed., sec. 8.5: Alg. 8.5.1 for each 2x2 symmetric Schur
/// rotation, Alg. 8.5.3 for the sweeps). The eigenvalues are accurate to a few ulps of ||a||,
/// also when repeated (where a closed form, an arccos near +-1, loses half the digits: a
/// placeholder inertia's moments often are); quadratic convergence, 4-6 sweeps. Written out
/// rather than Eigen::SelfAdjointEigenSolver, whose instantiation costs every file that
/// includes it seconds of compile time, whether it calls it or not.
template <int N>
SymmetricEigen<N> symmetric_eigen(const Eigen::Matrix<double, N, N>& in) {
  static_assert(N >= 2, "a matrix of at least 2 x 2");
  Eigen::Matrix<double, N, N> a = 0.5 * (in + in.transpose());
  Eigen::Matrix<double, N, N> v = Eigen::Matrix<double, N, N>::Identity();
  const double norm_sq = a.squaredNorm();
  for (int sweep = 0; sweep < 32; ++sweep) {
    double off_sq = 0.0;
    for (int p = 0; p < N - 1; ++p) {
      for (int q = p + 1; q < N; ++q) off_sq += a(p, q) * a(p, q);
    }
    // off(a) <= 1e-17 ||a||_F: below the rounding of the diagonal (a zero matrix: no sweep;
    // NaN input: all 32 sweeps)
    if (!(off_sq > 1e-34 * norm_sq)) break;
    for (int p = 0; p < N - 1; ++p) {
      for (int q = p + 1; q < N; ++q) {
        if (a(p, q) == 0.0) continue;
        // The rotation J (J_pp = J_qq = c, J_pq = s, J_qp = -s) with (J^T a J)_pq = 0:
        // t = tan of its angle, the smaller root of t^2 + 2 theta t - 1 = 0
        const double theta = (a(q, q) - a(p, p)) / (2.0 * a(p, q));
        const double t = std::abs(theta) > 1e150
                             ? 0.5 / theta
                             : (theta >= 0.0 ? 1.0 : -1.0) /
                                   (std::abs(theta) + std::sqrt(1.0 + theta * theta));
        const double c = 1.0 / std::sqrt(1.0 + t * t), s = t * c;
        for (int k = 0; k < N; ++k) {  // a <- a J, v <- v J
          const double akp = a(k, p), akq = a(k, q);
          a(k, p) = c * akp - s * akq;
          a(k, q) = s * akp + c * akq;
          const double vkp = v(k, p), vkq = v(k, q);
          v(k, p) = c * vkp - s * vkq;
          v(k, q) = s * vkp + c * vkq;
        }
        for (int k = 0; k < N; ++k) {  // a <- J^T a
          const double apk = a(p, k), aqk = a(q, k);
          a(p, k) = c * apk - s * aqk;
          a(q, k) = s * apk + c * aqk;
        }
      }
    }
  }
  // ascending (insertion sort, the vectors with their values)
  SymmetricEigen<N> out{a.diagonal(), v};
  for (int i = 1; i < N; ++i) {
    for (int j = i; j > 0 && out.values[j] < out.values[j - 1]; --j) {
      std::swap(out.values[j], out.values[j - 1]);
      out.vectors.col(j).swap(out.vectors.col(j - 1));
    }
  }
  return out;
}

}  // namespace chaindyn::detail
