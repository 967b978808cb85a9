/// @file
/// Forward dynamics of many states per call: batch::aba, the one-state aba (RBDA Table 7.1,
/// algorithms/aba.hpp) run on packs of W states.
#pragma once

#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/batch/workspace.hpp"

namespace chaindyn::batch {

/// qdd_s = aba(model, q_s, qd_s, tau_s) for every column s of Q, Qd, Tau (N x n each) into the
/// columns of Qdd (N x n, sized by the caller). Allocates nothing; throws ArgumentError on a
/// size mismatch; ws.threads() threads share the columns.
template <typename Model, int W, typename Q, typename Qd, typename Tau, typename Qdd>
void aba(Workspace<Model, W>& ws, const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Qd>& qd,
         const Eigen::MatrixBase<Tau>& tau, const Eigen::MatrixBase<Qdd>& qdd_out) {
  using PackModel = typename Workspace<Model, W>::PackModel;
  const Eigen::Index N = ws.joint_count();
  const Eigen::Index n = q.cols();
  detail::check_batch_size(q, N, n, "aba", "Q");
  detail::check_batch_size(qd, N, n, "aba", "Qd");
  detail::check_batch_size(tau, N, n, "aba", "Tau");
  detail::check_batch_size(qdd_out, N, n, "aba", "Qdd");
  auto& qdd = const_cast<Eigen::MatrixBase<Qdd>&>(qdd_out);  // Eigen's idiom for output blocks
  ws.map_columns(n, sizeof(double) * std::size_t(N), [&](auto& w, Eigen::Index c, int m) CHAINDYN_ALWAYS_INLINE {
    Data<PackModel>& data = w.data();
    auto& [pq, pqd, ptau] = w.inputs;
    detail::gather(q, c, m, pq);
    detail::gather(qd, c, m, pqd);
    detail::gather(tau, c, m, ptau);
    chaindyn::aba(ws.model(), data, pq, pqd, ptau);
    detail::scatter(data.qdd, c, m, qdd);
  });
}

/// Returning form: a Workspace made for this call (it allocates; in a loop, keep a Workspace).
template <typename Model, typename Q, typename Qd, typename Tau>
States<Model> aba(const Model& model, const Eigen::MatrixBase<Q>& q,
                  const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Tau>& tau,
                  const Options& options = {}) {
  Workspace<Model> ws(model, options);
  States<Model> qdd(ws.joint_count(), q.cols());
  batch::aba(ws, q, qd, tau, qdd);
  return qdd;
}

}  // namespace chaindyn::batch
