/// @file
/// Many states per call on a moving base: batch::rnea, aba, crba and jacobian for a
/// FloatingBase (free-flyer or planar base, algorithms/floating_base.hpp), the one-state
/// algorithms run on packs of W states. Q has nq rows, V, A and Tau nv rows, one column per
/// state; the mass matrices and Jacobians are nv columns per state.
#pragma once

#include "chaindyn/algorithms/floating_base.hpp"
#include "chaindyn/batch/workspace.hpp"

#include <tuple>

namespace chaindyn::batch {

namespace detail {

/// One thread's part of a Workspace of a FloatingBase: its Data (the pack model's) and the pack
/// inputs of a call (q, v, a or tau), and a Jacobian, sized once.
template <typename Tree, typename BaseJoint>
struct alignas(64) ThreadWorkspace<FloatingBase<Tree, BaseJoint>> {
  using Model = FloatingBase<Tree, BaseJoint>;
  using Jacobian = FloatingJacobian<Tree, BaseJoint>;

  explicit ThreadWorkspace(const Model& model)
      : data_(model),
        inputs{Model::ConfigVector::Zero(model.nq_size()),
               Model::TangentVector::Zero(model.nv_size()),
               Model::TangentVector::Zero(model.nv_size())},
        jacobian(Jacobian::Zero(6, model.nv_size())) {}

  Data<Model> data_;
  std::tuple<typename Model::ConfigVector, typename Model::TangentVector,
             typename Model::TangentVector>
      inputs;  ///< q, v and a (or tau) of the pack in hand
  Jacobian jacobian;

  Data<Model>& data() noexcept { return data_; }
};

/// Throws ArgumentError unless x is rows x cols, naming nq or nv.
template <typename Derived>
void check_floating_batch(const Eigen::MatrixBase<Derived>& x, Eigen::Index rows,
                          Eigen::Index cols, const char* what, const char* function,
                          const char* name) {
  if (x.rows() != rows || x.cols() != cols) {
    chaindyn::detail::throw_error<ArgumentError>(
        "batch::", function, ": ", name, " is ", x.rows(), " x ", x.cols(), "; expected ", rows,
        " x ", cols, " (one column per state; ", what, " rows on this floating base)");
  }
}

}  // namespace detail

/// States of a moving base, one per column: configurations (nq rows) and tangent vectors
/// (velocities, accelerations, forces: nv rows).
template <typename Model>
using ConfigStates = Eigen::Matrix<typename Model::Scalar, Model::nq, Eigen::Dynamic>;
template <typename Model>
using TangentStates = Eigen::Matrix<typename Model::Scalar, Model::nv, Eigen::Dynamic>;

/// tau_s = rnea(model, q_s, v_s, a_s) (the hybrid form: [base forces; joint forces]) for every
/// column s of Q (nq x n), V and A (nv x n) into Tau (nv x n, sized by the caller). Each q_s's
/// quaternion is taken as unit (as the in-place rnea takes it). Allocates nothing; throws
/// ArgumentError on a size mismatch; ws.threads() threads share the columns.
template <typename Tree, typename BaseJoint, int W, typename Q, typename V, typename A, typename Tau>
void rnea(Workspace<FloatingBase<Tree, BaseJoint>, W>& ws, const Eigen::MatrixBase<Q>& q,
          const Eigen::MatrixBase<V>& v, const Eigen::MatrixBase<A>& a,
          const Eigen::MatrixBase<Tau>& tau_out) {
  const Eigen::Index nq = ws.model().nq_size(), nv = ws.model().nv_size(), n = q.cols();
  detail::check_floating_batch(q, nq, n, "nq", "rnea", "Q");
  detail::check_floating_batch(v, nv, n, "nv", "rnea", "V");
  detail::check_floating_batch(a, nv, n, "nv", "rnea", "A");
  detail::check_floating_batch(tau_out, nv, n, "nv", "rnea", "Tau");
  auto& tau = const_cast<Eigen::MatrixBase<Tau>&>(tau_out);  // Eigen's idiom for output blocks
  ws.map_columns(n, sizeof(double) * std::size_t(nv), [&](auto& w, Eigen::Index c, int m) {
    auto& [pq, pv, pa] = w.inputs;
    detail::gather(q, c, m, pq);
    detail::gather(v, c, m, pv);
    detail::gather(a, c, m, pa);
    chaindyn::rnea(ws.model(), w.data(), pq, pv, pa);
    detail::scatter(w.data().tau, c, m, tau);
  });
}

/// a_s = aba(model, q_s, v_s, tau_s) ([base acceleration; qdd]) for every column s of Q
/// (nq x n), V and Tau (nv x n) into A (nv x n, sized by the caller). Allocates nothing; throws
/// ArgumentError on a size mismatch.
template <typename Tree, typename BaseJoint, int W, typename Q, typename V, typename Tau, typename A>
void aba(Workspace<FloatingBase<Tree, BaseJoint>, W>& ws, const Eigen::MatrixBase<Q>& q,
         const Eigen::MatrixBase<V>& v, const Eigen::MatrixBase<Tau>& tau,
         const Eigen::MatrixBase<A>& a_out) {
  const Eigen::Index nq = ws.model().nq_size(), nv = ws.model().nv_size(), n = q.cols();
  detail::check_floating_batch(q, nq, n, "nq", "aba", "Q");
  detail::check_floating_batch(v, nv, n, "nv", "aba", "V");
  detail::check_floating_batch(tau, nv, n, "nv", "aba", "Tau");
  detail::check_floating_batch(a_out, nv, n, "nv", "aba", "A");
  auto& a = const_cast<Eigen::MatrixBase<A>&>(a_out);
  ws.map_columns(n, sizeof(double) * std::size_t(nv), [&](auto& w, Eigen::Index c, int m) {
    auto& [pq, pv, ptau] = w.inputs;
    detail::gather(q, c, m, pq);
    detail::gather(v, c, m, pv);
    detail::gather(tau, c, m, ptau);
    chaindyn::aba(ws.model(), w.data(), pq, pv, ptau);
    detail::scatter(w.data().a, c, m, a);
  });
}

/// M(q_s) (nv x nv) for every column s of Q (nq x n) into Ms (nv x nv n, sized by the caller):
/// state s's mass matrix is Ms.middleCols(s * nv, nv). Allocates nothing; throws ArgumentError
/// on a size mismatch.
template <typename Tree, typename BaseJoint, int W, typename Q, typename Ms>
void crba(Workspace<FloatingBase<Tree, BaseJoint>, W>& ws, const Eigen::MatrixBase<Q>& q,
          const Eigen::MatrixBase<Ms>& m_out) {
  const Eigen::Index nq = ws.model().nq_size(), nv = ws.model().nv_size(), n = q.cols();
  detail::check_floating_batch(q, nq, n, "nq", "crba", "Q");
  detail::check_floating_batch(m_out, nv, nv * n, "nv", "crba", "Ms");
  auto& ms = const_cast<Eigen::MatrixBase<Ms>&>(m_out);
  ws.map_columns(n, sizeof(double) * std::size_t(nv * nv), [&](auto& w, Eigen::Index c, int m) {
    auto& pq = std::get<0>(w.inputs);
    detail::gather(q, c, m, pq);
    chaindyn::crba(ws.model(), w.data(), pq);
    detail::scatter_matrices(w.data().M, c, m, ms);
  });
}

/// The Jacobian (6 x nv, the base's columns first; floating-base jacobian) of the frame `frame`
/// (a handle of the double model's tree: model.tree().frame(...)) in coordinates `rf` at every
/// column s of Q (nq x n) into Js (6 x nv n, sized by the caller): state s's is
/// Js.middleCols(s * nv, nv). Allocates nothing; throws ArgumentError on a size mismatch.
template <typename Tree, typename BaseJoint, int W, typename Q, typename J>
void jacobian(Workspace<FloatingBase<Tree, BaseJoint>, W>& ws, const Eigen::MatrixBase<Q>& q,
              const FrameFor<Tree>& frame, ReferenceFrame rf, const Eigen::MatrixBase<J>& js_out) {
  const Eigen::Index nq = ws.model().nq_size(), nv = ws.model().nv_size(), n = q.cols();
  detail::check_floating_batch(q, nq, n, "nq", "jacobian", "Q");
  detail::check_floating_batch(js_out, 6, nv * n, "nv", "jacobian", "Js");
  auto& js = const_cast<Eigen::MatrixBase<J>&>(js_out);
  const auto pack_frame = ws.model().tree().cast_frame(frame);
  ws.map_columns(n, sizeof(double) * std::size_t(6 * nv), [&](auto& w, Eigen::Index c, int m) {
    auto& pq = std::get<0>(w.inputs);
    detail::gather(q, c, m, pq);
    chaindyn::jacobian(ws.model(), w.data(), pq, pack_frame, rf, w.jacobian);
    detail::scatter_matrices(w.jacobian, c, m, js);
  });
}

/// Returning forms: a Workspace made for the call (it allocates; in a loop, keep a Workspace).
template <typename Tree, typename BaseJoint, typename Q, typename V, typename A>
TangentStates<FloatingBase<Tree, BaseJoint>> rnea(const FloatingBase<Tree, BaseJoint>& model,
                                                  const Eigen::MatrixBase<Q>& q,
                                                  const Eigen::MatrixBase<V>& v,
                                                  const Eigen::MatrixBase<A>& a,
                                                  const Options& options = {}) {
  Workspace<FloatingBase<Tree, BaseJoint>> ws(model, options);
  TangentStates<FloatingBase<Tree, BaseJoint>> tau(model.nv_size(), q.cols());
  batch::rnea(ws, q, v, a, tau);
  return tau;
}
template <typename Tree, typename BaseJoint, typename Q, typename V, typename Tau>
TangentStates<FloatingBase<Tree, BaseJoint>> aba(const FloatingBase<Tree, BaseJoint>& model,
                                                 const Eigen::MatrixBase<Q>& q,
                                                 const Eigen::MatrixBase<V>& v,
                                                 const Eigen::MatrixBase<Tau>& tau,
                                                 const Options& options = {}) {
  Workspace<FloatingBase<Tree, BaseJoint>> ws(model, options);
  TangentStates<FloatingBase<Tree, BaseJoint>> a(model.nv_size(), q.cols());
  batch::aba(ws, q, v, tau, a);
  return a;
}
/// (nv x nv n)
template <typename Tree, typename BaseJoint, typename Q>
TangentStates<FloatingBase<Tree, BaseJoint>> crba(const FloatingBase<Tree, BaseJoint>& model,
                                                  const Eigen::MatrixBase<Q>& q,
                                                  const Options& options = {}) {
  Workspace<FloatingBase<Tree, BaseJoint>> ws(model, options);
  TangentStates<FloatingBase<Tree, BaseJoint>> ms(model.nv_size(), model.nv_size() * q.cols());
  batch::crba(ws, q, ms);
  return ms;
}

}  // namespace chaindyn::batch
