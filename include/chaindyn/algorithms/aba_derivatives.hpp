/// @file
/// Partial derivatives of forward dynamics: d qdd / d q, d qdd / d qd and d qdd / d tau = M^-1.
///
/// First version, by the implicit-function route of Carpentier and Mansard, RSS 2018 (sec.
/// IV-A, eq. (13)): forward dynamics qdd = FD(q, qd, tau) solves tau = ID(q, qd, qdd), so
/// differentiating ID(q, qd, FD(q, qd, tau)) = tau gives
///     d qdd / d q  = -M^-1 d ID / d q,    d qdd / d qd = -M^-1 d ID / d qd,
///     d qdd / d tau = M^-1,
/// with the ID derivatives of rnea_derivatives evaluated at qdd = aba(q, qd, tau), and M^-1 by
/// inverse_mass_matrix (O(n^2), without forming M). The two products with M^-1 are O(n^3).
#pragma once

#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/algorithms/inverse_mass_matrix.hpp"
#include "chaindyn/algorithms/rnea_derivatives.hpp"

namespace chaindyn {

/// The result of the returning form of aba_derivatives.
template <typename Model>
struct AbaDerivatives {
  typename Model::Matrix dqdd_dq;    ///< d qdd / d q
  typename Model::Matrix dqdd_dqd;   ///< d qdd / d qd
  typename Model::Matrix dqdd_dtau;  ///< d qdd / d tau = M^-1
};

/// d qdd / d q, d qdd / d qd and M^-1 of aba(model, q, qd, tau) (friction and armature
/// included). noexcept, no allocation. Fills dd.dqdd_dq, dd.dqdd_dqd, dd.dqdd_dtau,
/// dd.data.qdd (= aba), and what aba, rnea_derivatives and inverse_mass_matrix fill.
template <typename Model, typename Q, typename Qd, typename Tau>
void aba_derivatives(const Model& model, DerivativesDataFor<Model>& dd,
                     const Eigen::MatrixBase<Q>& q_in, const Eigen::MatrixBase<Qd>& qd_in,
                     const Eigen::MatrixBase<Tau>& tau) noexcept {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Tau>, CHAINDYN_FIXED_SIZE_MESSAGE);
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  const auto& qd = detail::as_joint_vector<Model>(qd_in.derived());
  Data<Model>& data = dd.data;
  aba(model, data, q, qd, tau);
  // data.qdd is read in place: neither rnea_derivatives nor inverse_mass_matrix writes it
  rnea_derivatives(model, dd, q, qd, data.qdd);
  inverse_mass_matrix(model, data, q);
  dd.dqdd_dtau = data.Minv;
  if constexpr (Model::nq == Eigen::Dynamic) {
    // Eigen's blocked product of dynamic-size matrices may allocate its workspace: the
    // coefficient-wise (lazy) product allocates nothing
    dd.dqdd_dq.noalias() = -dd.dqdd_dtau.lazyProduct(dd.dtau_dq);
    dd.dqdd_dqd.noalias() = -dd.dqdd_dtau.lazyProduct(dd.dtau_dqd);
  } else {
    dd.dqdd_dq.noalias() = -(dd.dqdd_dtau * dd.dtau_dq);
    dd.dqdd_dqd.noalias() = -(dd.dqdd_dtau * dd.dtau_dqd);
  }
}

/// Returning form of aba_derivatives: any Eigen vectors, sizes checked (throws
/// ArgumentError). Its workspace is per thread (detail::thread_workspace_of).
template <typename Model, typename Q, typename Qd, typename Tau>
AbaDerivatives<Model> aba_derivatives(const Model& model, const Eigen::MatrixBase<Q>& q,
                                      const Eigen::MatrixBase<Qd>& qd,
                                      const Eigen::MatrixBase<Tau>& tau) {
  auto& dd = detail::thread_workspace_of<DerivativesData<Model>>(model);
  aba_derivatives(model, dd, detail::checked_joint_vector(model, q, "aba_derivatives", "q"),
                  detail::checked_joint_vector(model, qd, "aba_derivatives", "qd"),
                  detail::checked_joint_vector(model, tau, "aba_derivatives", "tau"));
  return AbaDerivatives<Model>{dd.dqdd_dq, dd.dqdd_dqd, dd.dqdd_dtau};
}

}  // namespace chaindyn
