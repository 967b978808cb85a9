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
  const auto kernel = [&](int t, Eigen::Index first, Eigen::Index count) CHAINDYN_FLATTEN {
    Data<PackModel>& data = ws.data(t);
    auto& pq = ws.inputs(t)[0];
    for (Eigen::Index c = first; c < first + count; c += W) {
      const int m = int(std::min<Eigen::Index>(W, first + count - c));
      detail::gather(q, c, m, pq);
      chaindyn::crba(ws.model(), data, pq);
      detail::scatter_matrices(data.M, c, m, ms);
    }
  };
  ws.for_each_range(n, sizeof(double) * std::size_t(N * N), kernel);
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
