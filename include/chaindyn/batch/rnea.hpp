/// @file
/// Inverse dynamics of many states per call: batch::rnea, the one-state rnea (RBDA Table 5.1,
/// algorithms/rnea.hpp) run on packs of W states.
#pragma once

#include "chaindyn/algorithms/rnea.hpp"
#include "chaindyn/batch/workspace.hpp"

namespace chaindyn::batch {

/// tau_s = rnea(model, q_s, qd_s, qdd_s) for every column s of Q, Qd, Qdd (N x n each, N the
/// model's joints, any n) into the columns of Tau (N x n, sized by the caller; a block of a
/// larger matrix will do). Friction, armature and gravity as rnea has them. Allocates nothing;
/// throws ArgumentError on a size mismatch; ws.threads() threads share the columns.
template <typename Model, int W, typename Q, typename Qd, typename Qdd, typename Tau>
void rnea(Workspace<Model, W>& ws, const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Qd>& qd,
          const Eigen::MatrixBase<Qdd>& qdd, const Eigen::MatrixBase<Tau>& tau_out) {
  using PackModel = typename Workspace<Model, W>::PackModel;
  const Eigen::Index N = ws.joint_count();
  const Eigen::Index n = q.cols();
  detail::check_batch_size(q, N, n, "rnea", "Q");
  detail::check_batch_size(qd, N, n, "rnea", "Qd");
  detail::check_batch_size(qdd, N, n, "rnea", "Qdd");
  detail::check_batch_size(tau_out, N, n, "rnea", "Tau");
  auto& tau = const_cast<Eigen::MatrixBase<Tau>&>(tau_out);  // Eigen's idiom for output blocks
  ws.map_columns(n, sizeof(double) * std::size_t(N), [&](auto& w, Eigen::Index c, int m) CHAINDYN_ALWAYS_INLINE {
    Data<PackModel>& data = w.data();
    auto& [pq, pqd, pqdd] = w.inputs;
    detail::gather(q, c, m, pq);
    detail::gather(qd, c, m, pqd);
    detail::gather(qdd, c, m, pqdd);
    chaindyn::rnea(ws.model(), data, pq, pqd, pqdd);
    detail::scatter(data.tau, c, m, tau);
  });
}

/// Returning form: a Workspace made for this call (it allocates; in a loop, keep a Workspace
/// and call the in-place form).
template <typename Model, typename Q, typename Qd, typename Qdd>
States<Model> rnea(const Model& model, const Eigen::MatrixBase<Q>& q,
                   const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Qdd>& qdd,
                   const Options& options = {}) {
  Workspace<Model> ws(model, options);
  States<Model> tau(ws.joint_count(), q.cols());
  batch::rnea(ws, q, qd, qdd, tau);
  return tau;
}

}  // namespace chaindyn::batch
