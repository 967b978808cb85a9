/// @file
/// Mass matrices of many states per call: batch::crba, the one-state crba (RBDA Table 6.2,
/// algorithms/crba.hpp) run on packs of W states.
#pragma once

#include "chaindyn/algorithms/crba.hpp"
#include "chaindyn/batch/workspace.hpp"

namespace chaindyn::batch {

/// M(q_s) for every column s of Q (N x n) into Ms (N x N n, sized by the caller): state s's
/// mass matrix is Ms.middleCols(s * N, N) (column-major, so each state's matrix is N^2
/// consecutive numbers). Allocates nothing; throws ArgumentError on a size mismatch.
template <typename Model, int W, typename Q, typename Ms>
void crba(Workspace<Model, W>& ws, const Eigen::MatrixBase<Q>& q,
          const Eigen::MatrixBase<Ms>& m_out) {
  using PackModel = typename Workspace<Model, W>::PackModel;
  const Eigen::Index N = ws.joint_count();
  const Eigen::Index n = q.cols();
  detail::check_batch_size(q, N, n, "crba", "Q");
  detail::check_batch_size(m_out, N, N * n, "crba", "Ms");
  auto& ms = const_cast<Eigen::MatrixBase<Ms>&>(m_out);  // Eigen's idiom for output blocks
  ws.map_columns(n, sizeof(double) * std::size_t(N * N), [&](auto& w, Eigen::Index c, int m) CHAINDYN_ALWAYS_INLINE {
    Data<PackModel>& data = w.data();
    auto& pq = w.inputs[0];
    detail::gather(q, c, m, pq);
    chaindyn::crba(ws.model(), data, pq);
    detail::scatter_matrices(data.M, c, m, ms);
  });
}

/// Returning form (N x N n): a Workspace made for this call (it allocates).
template <typename Model, typename Q>
Eigen::Matrix<double, Model::nq, Eigen::Dynamic> crba(const Model& model,
                                                      const Eigen::MatrixBase<Q>& q,
                                                      const Options& options = {}) {
  Workspace<Model> ws(model, options);
  const Eigen::Index n = ws.joint_count();
  Eigen::Matrix<double, Model::nq, Eigen::Dynamic> ms(n, n * q.cols());
  batch::crba(ws, q, ms);
  return ms;
}

}  // namespace chaindyn::batch
