/// @file
/// Partial derivatives of forward dynamics: d qdd / d q, d qdd / d qd and d qdd / d tau = M^-1.
///
/// First version, by the implicit-function route of Carpentier and Mansard, RSS 2018 (sec.
/// IV-A, eq. (13)): forward dynamics qdd = FD(q, qd, tau) solves tau = ID(q, qd, qdd), so
/// differentiating ID(q, qd, FD(q, qd, tau)) = tau gives
///     d qdd / d q  = -M^-1 d ID / d q,    d qdd / d qd = -M^-1 d ID / d qd,
///     d qdd / d tau = M^-1,
/// with the ID derivatives of rnea_derivatives evaluated at qdd = aba(q, qd, tau). M^-1 is
/// formed from crba and a Cholesky factorization, O(n^3) (an O(n^2) Minv
/// algorithm, issue 6 item 5, can replace it later).
#pragma once

#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/algorithms/crba.hpp"
#include "chaindyn/algorithms/rnea_derivatives.hpp"

namespace chaindyn {

namespace detail {

/// inv := M^-1 for M symmetric positive definite (lower triangle read), by the Cholesky
/// factor L (L L^T = M, into l) and 2n triangular solves per column. O(n^3), no allocation.
/// Every intermediate is a Scalar (for expression-template scalars such as AutoDiffScalar).
template <typename Matrix>
void spd_inverse(const Matrix& m, Matrix& l, Matrix& inv) noexcept {
  using Scalar = typename Matrix::Scalar;
  using std::sqrt;
  const Eigen::Index n = m.rows();
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j <= i; ++j) {
      Scalar s = m(i, j);
      for (Eigen::Index k = 0; k < j; ++k) s -= l(i, k) * l(j, k);
      if (i == j) {
        l(i, i) = Scalar(sqrt(s));
      } else {
        l(i, j) = Scalar(s / l(j, j));
      }
    }
  }
  for (Eigen::Index c = 0; c < n; ++c) {
    for (Eigen::Index i = 0; i < n; ++i) {  // forward: L y = e_c
      Scalar x = Scalar(i == c ? 1 : 0);
      for (Eigen::Index k = 0; k < i; ++k) x -= l(i, k) * inv(k, c);
      inv(i, c) = Scalar(x / l(i, i));
    }
    for (Eigen::Index i = n; i-- > 0;) {  // back: L^T x = y
      Scalar x = inv(i, c);
      for (Eigen::Index k = i + 1; k < n; ++k) x -= l(k, i) * inv(k, c);
      inv(i, c) = Scalar(x / l(i, i));
    }
  }
}

}  // namespace detail

/// The result of the returning form of aba_derivatives.
template <typename Model>
struct AbaDerivatives {
  typename Model::Matrix dqdd_dq;    ///< d qdd / d q
  typename Model::Matrix dqdd_dqd;   ///< d qdd / d qd
  typename Model::Matrix dqdd_dtau;  ///< d qdd / d tau = M^-1
};

/// d qdd / d q, d qdd / d qd and M^-1 of aba(model, q, qd, tau) (friction and armature
/// included). noexcept, no allocation. Fills data.dqdd_dq, data.dqdd_dqd, data.dqdd_dtau, data.qdd
/// (= aba), and what aba, rnea_derivatives and crba fill (data.M, data.L).
template <typename Model>
void aba_derivatives(const Model& model, DerivativesDataFor<Model>& data,
                     const typename Model::Vector& q, const typename Model::Vector& qd,
                     const typename Model::Vector& tau) noexcept {
  using Vector = typename Model::Vector;
  aba(model, data, q, qd, tau);
  const Vector qdd = data.qdd;
  rnea_derivatives(model, data, q, qd, qdd);
  crba(model, data, q);
  detail::spd_inverse(data.M, data.L, data.dqdd_dtau);
  data.dqdd_dq.noalias() = -(data.dqdd_dtau * data.dtau_dq);
  data.dqdd_dqd.noalias() = -(data.dqdd_dtau * data.dtau_dqd);
  data.qdd = qdd;
}

/// Returning form of aba_derivatives.
template <typename Model>
AbaDerivatives<Model> aba_derivatives(const Model& model, const typename Model::Vector& q,
                                      const typename Model::Vector& qd,
                                      const typename Model::Vector& tau) {
  auto data = std::make_unique<DerivativesData<Model>>();
  aba_derivatives(model, *data, q, qd, tau);
  return AbaDerivatives<Model>{data->dqdd_dq, data->dqdd_dqd, data->dqdd_dtau};
}

}  // namespace chaindyn
