/// @file
/// Derivatives of the dynamics for many states per call: batch::rnea_derivatives and
/// batch::aba_derivatives, the one-state algorithms (algorithms/rnea_derivatives.hpp,
/// algorithms/aba_derivatives.hpp; Carpentier and Mansard, RSS 2018) run on packs of W states.
#pragma once

#include "chaindyn/algorithms/aba_derivatives.hpp"
#include "chaindyn/algorithms/rnea_derivatives.hpp"
#include "chaindyn/batch/workspace.hpp"

namespace chaindyn::batch {

namespace detail {
/// Runs f on ws's workspace of the same robot as a ChainN of RevoluteZ joints when it has one
/// (Workspace::revolute_z_workspace: a ChainX<double> of 7 or 6 joints about z); false if not.
template <typename Model, int W, typename F>
bool on_revolute_z_view(const Workspace<Model, W>& ws, F&& f) {
  if constexpr (std::is_same_v<Model, ChainX<double>>) {
    if (auto* seven = ws.template revolute_z_workspace<7>()) {
      f(*seven);
      return true;
    }
    if (auto* six = ws.template revolute_z_workspace<6>()) {
      f(*six);
      return true;
    }
  }
  return false;
}
}  // namespace detail

/// d tau / d q and d tau / d qd of rnea at every column s of Q, Qd, Qdd (N x n each) into
/// dTau_dq and dTau_dqd (N x N n each, sized by the caller): state s's matrices are
/// .middleCols(s * N, N), as batch::crba's. Allocates nothing; throws ArgumentError on a size
/// mismatch. Chains and trees.
template <typename Model, int W, typename Q, typename Qd, typename Qdd, typename DQ, typename DQd>
void rnea_derivatives(Workspace<Model, W>& ws, const Eigen::MatrixBase<Q>& q,
                      const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Qdd>& qdd,
                      const Eigen::MatrixBase<DQ>& dtau_dq_out,
                      const Eigen::MatrixBase<DQd>& dtau_dqd_out) {
  if (detail::on_revolute_z_view(ws, [&](auto& view) {
        batch::rnea_derivatives(view, q, qd, qdd, dtau_dq_out, dtau_dqd_out);
      })) {
    return;
  }
  using PackModel = typename Workspace<Model, W>::PackModel;
  const Eigen::Index N = ws.joint_count();
  const Eigen::Index n = q.cols();
  detail::check_batch_size(q, N, n, "rnea_derivatives", "Q");
  detail::check_batch_size(qd, N, n, "rnea_derivatives", "Qd");
  detail::check_batch_size(qdd, N, n, "rnea_derivatives", "Qdd");
  detail::check_batch_size(dtau_dq_out, N, N * n, "rnea_derivatives", "dTau_dq");
  detail::check_batch_size(dtau_dqd_out, N, N * n, "rnea_derivatives", "dTau_dqd");
  auto& dtau_dq = const_cast<Eigen::MatrixBase<DQ>&>(dtau_dq_out);
  auto& dtau_dqd = const_cast<Eigen::MatrixBase<DQd>&>(dtau_dqd_out);
  ws.map_columns(n, sizeof(double) * std::size_t(N * N), [&](auto& w, Eigen::Index c, int m) CHAINDYN_ALWAYS_INLINE {
    DerivativesData<PackModel>& dd = w.derivatives;
    auto& [pq, pqd, pqdd] = w.inputs;
    detail::gather(q, c, m, pq);
    detail::gather(qd, c, m, pqd);
    detail::gather(qdd, c, m, pqdd);
    chaindyn::rnea_derivatives(ws.model(), dd, pq, pqd, pqdd);
    detail::scatter_matrices(dd.dtau_dq, c, m, dtau_dq);
    detail::scatter_matrices(dd.dtau_dqd, c, m, dtau_dqd);
  });
}

/// d qdd / d q, d qdd / d qd and d qdd / d tau = M^-1 of aba at every column s of Q, Qd, Tau
/// (N x n each) into dQdd_dq, dQdd_dqd, dQdd_dtau (N x N n each, sized by the caller; state
/// s's matrices are .middleCols(s * N, N)). Allocates nothing; throws ArgumentError on a size
/// mismatch. Chains and trees.
template <typename Model, int W, typename Q, typename Qd, typename Tau, typename DQ, typename DQd,
          typename DTau>
void aba_derivatives(Workspace<Model, W>& ws, const Eigen::MatrixBase<Q>& q,
                     const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Tau>& tau,
                     const Eigen::MatrixBase<DQ>& dqdd_dq_out,
                     const Eigen::MatrixBase<DQd>& dqdd_dqd_out,
                     const Eigen::MatrixBase<DTau>& dqdd_dtau_out) {
  if (detail::on_revolute_z_view(ws, [&](auto& view) {
        batch::aba_derivatives(view, q, qd, tau, dqdd_dq_out, dqdd_dqd_out, dqdd_dtau_out);
      })) {
    return;
  }
  using PackModel = typename Workspace<Model, W>::PackModel;
  const Eigen::Index N = ws.joint_count();
  const Eigen::Index n = q.cols();
  detail::check_batch_size(q, N, n, "aba_derivatives", "Q");
  detail::check_batch_size(qd, N, n, "aba_derivatives", "Qd");
  detail::check_batch_size(tau, N, n, "aba_derivatives", "Tau");
  detail::check_batch_size(dqdd_dq_out, N, N * n, "aba_derivatives", "dQdd_dq");
  detail::check_batch_size(dqdd_dqd_out, N, N * n, "aba_derivatives", "dQdd_dqd");
  detail::check_batch_size(dqdd_dtau_out, N, N * n, "aba_derivatives", "dQdd_dtau");
  auto& dqdd_dq = const_cast<Eigen::MatrixBase<DQ>&>(dqdd_dq_out);
  auto& dqdd_dqd = const_cast<Eigen::MatrixBase<DQd>&>(dqdd_dqd_out);
  auto& dqdd_dtau = const_cast<Eigen::MatrixBase<DTau>&>(dqdd_dtau_out);
  ws.map_columns(n, sizeof(double) * std::size_t(N * N), [&](auto& w, Eigen::Index c, int m) CHAINDYN_ALWAYS_INLINE {
    DerivativesData<PackModel>& dd = w.derivatives;
    auto& [pq, pqd, ptau] = w.inputs;
    detail::gather(q, c, m, pq);
    detail::gather(qd, c, m, pqd);
    detail::gather(tau, c, m, ptau);
    chaindyn::aba_derivatives(ws.model(), dd, pq, pqd, ptau);
    detail::scatter_matrices(dd.dqdd_dq, c, m, dqdd_dq);
    detail::scatter_matrices(dd.dqdd_dqd, c, m, dqdd_dqd);
    detail::scatter_matrices(dd.dqdd_dtau, c, m, dqdd_dtau);
  });
}

}  // namespace chaindyn::batch
