/// @file
/// DerivativesData: the workspace of rnea_derivatives and aba_derivatives, a Data<Model> and
/// beside it the derivative matrices and the intermediates only the derivatives need.
#pragma once

#include "chaindyn/model/data.hpp"
#include "chaindyn/model/per_link.hpp"
#include "chaindyn/model/root_motion.hpp"

#include <array>
#include <type_traits>

namespace chaindyn {

namespace detail {
/// n rounded up to a whole number of Eigen's SIMD packets of Scalar (n itself when Scalar has
/// no packet, e.g. AutoDiff).
template <typename Scalar>
constexpr int padded_to_packets(int n) {
  constexpr int w = Eigen::internal::packet_traits<Scalar>::Vectorizable
                        ? int(Eigen::internal::packet_traits<Scalar>::size)
                        : 1;
  return (n + w - 1) / w * w;
}
/// DerivativesData::solve_y when no padding is needed, solve_k when the solves do not use it
struct Unpadded {};

/// aba_derivatives solves with M^-1 in joint space (aba_solve_joint_space, O(n^2) per
/// right-hand side) on a chain of fewer joints than this, and by ABA's own passes
/// (aba_solve_rows, O(n) per right-hand side) from here on: ~n^2 against ~24 n multiply-adds
/// per right-hand side. A ChainX chooses at run time, by its joint count. (A tree solves in
/// joint space whatever its size, walking each joint's ancestors: aba_solve_tree.)
constexpr int kJointSpaceSolveBelow = 16;
template <typename Model>
constexpr bool solve_in_joint_space =
    Model::serial && Model::nq != Eigen::Dynamic && Model::nq < kJointSpaceSolveBelow;
/// Whether a workspace of Model needs the joint-space couplings (solve_k).
template <typename Model>
constexpr bool may_solve_in_joint_space =
    Model::serial && (Model::nq == Eigen::Dynamic || solve_in_joint_space<Model>);
}  // namespace detail

/// The workspace of rnea_derivatives and aba_derivatives: a Data<Model> (`data`: the kinematics,
/// the RNEA and ABA intermediates, tau, qdd, Minv; pass it to any other in-place algorithm) and
/// beside it the derivative matrices and the intermediates only the derivatives need. About
/// 5 n^2 + 100 n numbers: allocate it once (e.g. std::make_unique), reuse it. Fixed-size: the
/// algorithms allocate nothing.
template <typename Model>
struct DerivativesData {
  using Scalar = typename Model::Scalar;
  using Matrix = typename Model::Matrix;
  template <typename T>
  using PerLink = typename Data<Model>::template PerLink<T>;

  /// The workspace of a compile-time chain.
  DerivativesData() : DerivativesData(data) {}
  /// The workspace of `model` (a ChainX's: allocates here, once).
  explicit DerivativesData(const Model& model) : data(model) { resize(); }
  DerivativesData(const DerivativesData& other) = default;
  DerivativesData& operator=(const DerivativesData& other) = default;

  /// The number of links this workspace is sized for.
  std::size_t size() const noexcept { return data.size(); }

  Data<Model> data;  ///< tau (rnea_derivatives), qdd (aba_derivatives), the base-coordinate
                     ///< kinematics oMi, oS, ov, oa and composite inertias oIc, Minv, ...

  Matrix dtau_dq;    ///< d tau / d q (rnea_derivatives)
  Matrix dtau_dqd;   ///< d tau / d qd (rnea_derivatives)
  Matrix dqdd_dq;    ///< d qdd / d q (aba_derivatives)
  Matrix dqdd_dqd;   ///< d qdd / d qd (aba_derivatives)
  Matrix dqdd_dtau;  ///< d qdd / d tau = M^-1 (aba_derivatives)

  // Base coordinates, about the base origin (rnea_derivatives; see its file comment). On a
  // tree j-1 is j's parent, and oh, of and oIdot hold the sums over link i's subtree after the
  // call (its backward pass accumulates them in place).
  PerLink<Motion<Scalar>> psi;        ///< psi_j = S_j x v_{j-1}
  PerLink<Motion<Scalar>> upsilon;    ///< u_j = S_j x a_{j-1} - psi_j x v_{j-1}
  PerLink<Force<Scalar>> oh;          ///< h_i = I_i v_i
  PerLink<Force<Scalar>> of;          ///< f_i = I_i a_i + v_i x* h_i
  PerLink<Inertia<Scalar>> oIdot;     ///< Idot_i = (v_i x*) I_i - I_i (v_i x) (zero mass)
  PerLink<Force<Scalar>> col_q;       ///< S_k x* F_k - Ic_k u_k - 2 Bc_k psi_k
  PerLink<Force<Scalar>> col_qd;      ///< 2 Bc_k S_k - 2 Ic_k psi_k
  /// Row i: a spatial vector of link i, stored row-wise so that its six components for all
  /// links are six contiguous columns (the O(n^2) step runs down them, SIMD packets of rows).
  /// A chain's only: a tree's pairs are computed in its backward pass.
  using PairRows = Eigen::Matrix<Scalar, Model::nq, 6>;
  PairRows pair_s;    ///< S_i
  PairRows pair_ics;  ///< Ic_i S_i
  PairRows pair_bts;  ///< 2 Bc_i^T S_i

  // aba_derivatives' solves with M^-1 (aba_derivatives.hpp; solve_p and solve_a a chain's
  // only): the right-hand sides one per row,
  // their count padded to a whole number of SIMD packets (Eigen's packet size for Scalar: 8
  // doubles with AVX-512, 4 with AVX, 1 for non-SIMD scalars), and pA_i and a_i likewise.
  static constexpr int solve_rows = Model::nq == Eigen::Dynamic
                                        ? int(Eigen::Dynamic)
                                        : detail::padded_to_packets<Scalar>(Model::nq);
  static constexpr bool solve_padded = solve_rows != Model::nq;  // never for a ChainX
  /// A ChainX pads its right-hand sides at run time, when it solves in joint space (fewer than
  /// kJointSpaceSolveBelow joints): n rows rounded up to whole packets, so that its solve runs
  /// on whole packets as a compile-time chain's does.
  static constexpr bool solve_padded_at_run_time = Model::serial && Model::nq == Eigen::Dynamic;
  using SolveScratch = Eigen::Matrix<Scalar, solve_rows, 6>;
  using SolveRows = Eigen::Matrix<Scalar, solve_rows, Model::nq>;
  std::array<SolveScratch, 3> solve_p;
  std::array<SolveScratch, 3> solve_a;
  /// the right-hand sides when padded (else the solves run in the result matrices)
  std::conditional_t<solve_padded || solve_padded_at_run_time, std::array<SolveRows, 3>,
                     detail::Unpadded>
      solve_y;
  /// the joint-space couplings K of aba_solve_joint_space (column i: S_j . U_i / D_i, j < i)
  /// (a ChainX's: n x n below kJointSpaceSolveBelow joints, else empty)
  std::conditional_t<detail::may_solve_in_joint_space<Model>, Matrix, detail::Unpadded> solve_k;

 private:
  explicit DerivativesData(const Data<Model>&) { resize(); }
  void resize() {
    const std::size_t n = data.size();
    const auto k = Eigen::Index(n);
    for (auto* p : {&dtau_dq, &dtau_dqd, &dqdd_dq, &dqdd_dqd, &dqdd_dtau}) *p = Matrix::Zero(k, k);
    for (auto* p : {&psi, &upsilon}) detail::resize_per_link(*p, n);
    for (auto* p : {&oh, &of, &col_q, &col_qd}) detail::resize_per_link(*p, n);
    detail::resize_per_link(oIdot, n);
    for (auto* p : {&pair_s, &pair_ics, &pair_bts}) *p = PairRows::Zero(k, 6);
    if constexpr (detail::solve_in_joint_space<Model>) solve_k.setZero();
    if constexpr (detail::may_solve_in_joint_space<Model> && Model::nq == Eigen::Dynamic) {
      const Eigen::Index kn = k < detail::kJointSpaceSolveBelow ? k : 0;
      solve_k = Matrix::Zero(kn, kn);
    }
    if constexpr (solve_padded_at_run_time) {
      const Eigen::Index kn = k < detail::kJointSpaceSolveBelow ? k : 0;
      for (SolveRows& y : solve_y) y = SolveRows::Zero(detail::padded_to_packets<Scalar>(int(kn)), kn);
    }
    if constexpr (Model::serial && Model::nq == Eigen::Dynamic) {  // (a tree does not use them)
      for (auto* p : {&solve_p, &solve_a}) {
        for (SolveScratch& m : *p) m = SolveScratch::Zero(k, 6);
      }
    }
  }
};

template <typename Model>
struct DerivativesData<const Model> : DerivativesData<Model> {
  using DerivativesData<Model>::DerivativesData;
};

namespace detail {
/// The workspace of rnea_derivatives_pass on a tree that stands on a moving base body
/// (Root = MovingRoot<BaseJoint>: a floating base's derivatives,
/// algorithms/floating_base_derivatives.hpp): `root` holds the base body's velocity v and
/// acceleration a (gravity as a fictitious acceleration), the root links' parent motion.
template <typename Model, typename BaseJoint>
struct RootedDerivativesData : DerivativesData<Model> {
  using DerivativesData<Model>::DerivativesData;
  RootMotion<typename Model::Scalar, BaseJoint> root;
};
}  // namespace detail

/// The workspace parameter of the derivative algorithms, Model deduced from the model only.
template <typename Model>
using DerivativesDataFor = typename detail::type_identity<DerivativesData<Model>>::type;

}  // namespace chaindyn
