/// @file
/// Analytical derivatives of a floating base's dynamics (a free-flyer or a planar base,
/// model/floating_base.hpp): rnea_derivatives (d tau / d q, d tau / d v, M = d tau / d a of
/// the hybrid rnea) and aba_derivatives (d a / d q, d a / d v, d a / d tau = M^-1 of aba).
/// docs/derivatives.md.
///
/// Derivatives with respect to q are taken in q's tangent space: column i is
/// d/deps f(integrate(q, eps e_i)) at eps = 0 (nv columns; the base's columns move the base by
/// the body twist S_0 e_i, the convention of Pinocchio).
///
/// Derivation (the world-frame RNEA derivatives of J. Carpentier and N. Mansard, "Analytical
/// Derivatives of Rigid Body Dynamics Algorithms", RSS 2018; the tree's formulas are in
/// algorithms/rnea_derivatives.hpp, whose pass this file runs). Every quantity is in base
/// coordinates: the base body's frame at this instant, held fixed in the world, so the base
/// is joint 0 of the tree, its columns S_j = S_0 e_j (constant: the identity's columns for a
/// free-flyer), its parent the world (v = 0, a = a_w = -a_g, the gravity acceleration in base
/// coordinates), its velocity v_0 = S_0 v_b and its acceleration a'_0 = S_0 a_b + a_w.
/// - A base coordinate j moves the whole system rigidly by exp(eps S_j) (the base's frame turns
///   with it, so all of its own columns S_k move too, not only the later ones as on a chain),
///   gravity staying where it is: the tree's formulas hold with the base's
///   psi_j = S_j x 0 = 0 and u_j = S_j x a_w. With F_0 = f_0 + sum of the root links'
///   F, Ic_0 = I_0 + sum of their Ic (the whole system's), and (S_j x S_k) . F + S_k .
///   (S_j x* F) = 0 for the base-base pairs:
///     d tau_k / d q_j = -S_k . Ic_k (S_j x a_w) = -S_j . (a_w x* Ic_k S_k)  (k a joint or the base),
///     d tau_b / d q_j = S_0^T col_q_j                                          (j a joint),
///   col_q_j = S_j x* F_j - Ic_j u_j - 2 Bc_j psi_j the tree's (its root links' psi and u with
///   the moving parent: psi = S x v_0, u = S x a'_0 - psi x v_0).
/// - The velocity: v_0 = S_0 v_b is the base's whole velocity, so a'_0 does not depend on v_b
///   (v_0 x S_0 v_b = 0) and d a_i / d v_b,j = S_j x (v_i - v_0) for every body i (the base
///   included): the tree's formulas with the base's psi_j = 1/2 S_j x v_0,
///     d tau_k / d v_b,j = S_j . (2 Bc_k^T S_k - v_0 x* Ic_k S_k)              (k a joint),
///     d tau_b / d v_b,j = S_0^T (2 Bc_0 S_j - Ic_0 (S_j x v_0)),
///     d tau_b / d qd_j  = S_0^T col_qd_j,  col_qd_j = 2 Bc_j S_j - 2 Ic_j psi_j,
///   2 Bc m = Idc m + m x* Hc as in rnea_derivatives.hpp, Idc_0 and Hc_0 including the base
///   body's Idot_0 and h_0 = I_0 v_0.
/// - M from the same composites: M_jk = S_j . Ic_k S_k (j supporting k), its base rows
///   S_0^T Ic_k S_k and S_0^T Ic_0 S_0 (the floating crba, RBDA ch. 9).
/// aba_derivatives: a = aba(q, v, tau), then rnea_derivatives at a, and d a / d(q, v) =
/// -M^-1 d tau / d(q, v) (the derivative of rnea(q, v, aba(q, v, tau)) = tau), d a / d tau =
/// M^-1, with a dense Cholesky factor of M.
/// Cost: the tree's pass, O(sum of the joints' depths), plus O(n) for the base's rows and
/// columns; aba_derivatives adds O(nv^3) for the factor and the solves.
#pragma once

#include "chaindyn/algorithms/floating_base.hpp"
#include "chaindyn/algorithms/rnea_derivatives.hpp"
#include "chaindyn/model/floating_derivatives_data.hpp"

#include <memory>

namespace chaindyn {

/// The result of the returning form of a floating base's rnea_derivatives.
template <typename Model>
struct FloatingRneaDerivatives {
  typename Model::Matrix dtau_dq;  ///< d tau / d q (q's tangent: nv x nv)
  typename Model::Matrix dtau_dv;  ///< d tau / d v
  typename Model::Matrix M;        ///< d tau / d a, the mass matrix
};

/// The result of the returning form of a floating base's aba_derivatives.
template <typename Model>
struct FloatingAbaDerivatives {
  typename Model::Matrix dqdd_dq;    ///< d a / d q (q's tangent: nv x nv)
  typename Model::Matrix dqdd_dv;    ///< d a / d v
  typename Model::Matrix dqdd_dtau;  ///< d a / d tau = M^-1
};

namespace detail {

/// A row of DerivativesData::pair_ics / pair_bts as a force.
template <typename Scalar, typename Rows>
inline Force<Scalar> force_row(const Rows& rows, std::size_t k) noexcept {
  const auto r = Eigen::Index(k);
  return Force<Scalar>(Vector3<Scalar>(rows(r, 0), rows(r, 1), rows(r, 2)),
                       Vector3<Scalar>(rows(r, 3), rows(r, 4), rows(r, 5)));
}

/// The floating base's rnea derivatives and M (file comment) once dd.data.oMb, q, qd, qdd and
/// dd.tree.root.v, root.a (the base's acceleration without gravity) are set. Writes
/// dd.dtau_dq, dd.dtau_dv, dd.data.M and dd.data.tau.
template <typename Tree, typename BaseJoint>
void floating_rnea_derivatives_pass(const FloatingBase<Tree, BaseJoint>& model,
                                    DerivativesData<FloatingBase<Tree, BaseJoint>>& dd) noexcept {
  using Scalar = typename Tree::Scalar;
  constexpr int kBase = BaseJoint::nv;
  const Tree& tree = model.tree();
  auto& data = dd.data;
  auto& td = dd.tree;
  auto& root = td.root;
  const Motion<Scalar> aw = -gravity_in_base(model, data);  // the world's a_w = -a_g
  root.a += aw;                                              // a'_0 = S_0 a_b + a_w
  rnea_derivatives_pass<false, Tree, MovingRoot<BaseJoint>>(tree, td, data.q, data.qd, data.qdd);
  const std::size_t n = joint_count(tree);
  const auto nn = Eigen::Index(n);
  const Motion<Scalar>& v0 = root.v;
  // The base's composites: its own terms and its root links' subtrees' (a chain's pass keeps
  // per-link terms in of, oh, oIdot and the running composite inertia in oIc).
  const Inertia<Scalar>& i0 = model.base_inertia();
  Inertia<Scalar> ic0 = i0;
  Force<Scalar> h0 = i0 * v0;
  Force<Scalar> f0 = i0 * root.a + cross(v0, h0);
  Inertia<Scalar> idc0 = inertia_rate(i0, v0);
  for (std::size_t i = 0; i < n; ++i) {
    if (Tree::serial || tree.is_root(i)) {
      f0 += td.of[i];
      h0 += td.oh[i];
      idc0 += td.oIdot[i];
    }
    if (tree.is_root(i)) ic0 += td.data.oIc[i];
  }
  data.tau.template head<kBase>() = BaseJoint::project(f0);  // S_0^T F_0
  data.tau.tail(nn) = td.data.tau;
  // The tree's block, and the tree's rows and columns of M (M_jk = S_j . Ic_k S_k).
  dd.dtau_dq.bottomRightCorner(nn, nn) = td.dtau_dq;
  dd.dtau_dv.bottomRightCorner(nn, nn) = td.dtau_dqd;
  if constexpr (!Tree::serial) data.M.bottomRightCorner(nn, nn).setZero();
  for (std::size_t k = 0; k < n; ++k) {
    const Eigen::Index kk = kBase + Eigen::Index(k);
    const Force<Scalar> ics = force_row<Scalar>(td.pair_ics, k);  // Ic_k S_k
    const Force<Scalar> bts = force_row<Scalar>(td.pair_bts, k);  // 2 Bc_k^T S_k
    for (std::size_t j = k; j != no_parent; j = tree.parent(j)) {
      const Scalar m = dot(td.data.oS[j], ics);
      data.M(kBase + Eigen::Index(j), kk) = m;
      data.M(kk, kBase + Eigen::Index(j)) = m;
    }
    data.M(kk, kk) += tree.armature()[Eigen::Index(k)];
    const auto ms = BaseJoint::project(ics);  // S_0^T Ic_k S_k
    data.M.template block<kBase, 1>(0, kk) = ms;
    data.M.template block<1, kBase>(kk, 0) = ms.transpose();
    // row k, base columns j: -S_j . (a_w x* Ic_k S_k) and S_j . (2 Bc_k^T S_k - v_0 x* Ic_k S_k)
    dd.dtau_dq.template block<1, kBase>(kk, 0) = -BaseJoint::project(cross(aw, ics)).transpose();
    dd.dtau_dv.template block<1, kBase>(kk, 0) = BaseJoint::project(bts - cross(v0, ics)).transpose();
    // column k, base rows: S_0^T col_q_k and S_0^T col_qd_k
    dd.dtau_dq.template block<kBase, 1>(0, kk) = BaseJoint::project(td.col_q[k]);
    dd.dtau_dv.template block<kBase, 1>(0, kk) = BaseJoint::project(td.col_qd[k]);
  }
  // The base-base block, column j: -S_0^T Ic_0 (S_j x a_w) and
  // S_0^T (Idc_0 S_j + S_j x* Hc_0 - Ic_0 (S_j x v_0)); M's S_0^T Ic_0 S_0.
  for (int j = 0; j < kBase; ++j) {
    Eigen::Matrix<Scalar, kBase, 1> e = Eigen::Matrix<Scalar, kBase, 1>::Zero();
    e[j] = Scalar(1);
    const Motion<Scalar> s = BaseJoint::motion(e);
    dd.dtau_dq.template block<kBase, 1>(0, j) = -BaseJoint::project(ic0 * cross(s, aw));
    dd.dtau_dv.template block<kBase, 1>(0, j) =
        BaseJoint::project(massless_times(idc0, s) + cross(s, h0) - ic0 * cross(s, v0));
    data.M.template block<kBase, 1>(0, j) = BaseJoint::project(ic0 * s);
  }
  data.Ic0 = ic0;
}

template <typename Model, typename Work, typename Q, typename V, typename A>
void check_floating_derivatives(const Model& model, const char* function, const Work& dd,
                                const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v,
                                const char* a_name, const Eigen::MatrixBase<A>& a) {
  check_floating_workspace(model, function, dd);
  check_floating_vector(model, function, "q", q, true);
  check_floating_vector(model, function, "v", v, false);
  check_floating_vector(model, function, a_name, a, false);
}

/// x <- M^-1 x column by column, L the Cholesky factor of M.
template <typename Matrix>
inline void cholesky_solve_columns(const Matrix& l, Matrix& x) noexcept {
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    auto col = x.col(c);
    cholesky_solve(l, col);
  }
}

}  // namespace detail

/// d tau / d q (q's tangent), d tau / d v and M = d tau / d a of the hybrid rnea(model, q, v,
/// a) on a floating or planar base (tau = [the base's generalized forces; joint forces]; file
/// comment for the derivation), analytically: the tree's rnea_derivatives pass with the base
/// body at its root, O(sum of the joints' depths), plus the base's rows and columns, O(n).
/// Writes dd.dtau_dq, dd.dtau_dv (nv x nv), dd.data.M, dd.data.tau (= rnea) and the tree's
/// intermediates in dd.tree. No allocation; noexcept on a compile-time tree (a ChainX's or
/// TreeX's checks the sizes: ArgumentError).
template <typename Tree, typename Q, typename V, typename A, typename BaseJoint>
void rnea_derivatives(const FloatingBase<Tree, BaseJoint>& model,
                      DerivativesData<FloatingBase<Tree, BaseJoint>>& dd,
                      const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v,
                      const Eigen::MatrixBase<A>& a) noexcept(!detail::checks_sizes<Tree>) {
  using Model = FloatingBase<Tree, BaseJoint>;
  static_assert(detail::floating_sized<Model, Q>(Model::nq) &&
                    detail::floating_sized<Model, V>(Model::nv) &&
                    detail::floating_sized<Model, A>(Model::nv),
                "rnea_derivatives(floating base, dd, q, v, a): q of nq, v and a of nv entries");
  if constexpr (detail::checks_sizes<Tree>) {
    detail::check_floating_derivatives(model, "rnea_derivatives", dd, q, v, "a", a);
  }
  auto& data = dd.data;
  detail::floating_configuration(data, q);
  detail::split_tangent<Model>(v, dd.tree.root.v, data.qd);
  detail::split_tangent<Model>(a, dd.tree.root.a, data.qdd);
  detail::floating_rnea_derivatives_pass(model, dd);
}

/// Returning form of a floating base's rnea_derivatives: any Eigen vectors, checked (sizes,
/// finite entries, a free-flyer's unit quaternion; ArgumentError).
template <typename Tree, typename Q, typename V, typename A, typename BaseJoint>
FloatingRneaDerivatives<FloatingBase<Tree, BaseJoint>> rnea_derivatives(
    const FloatingBase<Tree, BaseJoint>& model, const Eigen::MatrixBase<Q>& q,
    const Eigen::MatrixBase<V>& v, const Eigen::MatrixBase<A>& a) {
  using Model = FloatingBase<Tree, BaseJoint>;
  const char* f = "rnea_derivatives";
  const typename Model::ConfigVector qc = detail::checked_floating(model, f, "q", q, true);
  const typename Model::TangentVector vc = detail::checked_floating(model, f, "v", v, false);
  const typename Model::TangentVector ac = detail::checked_floating(model, f, "a", a, false);
  const auto dd = std::make_unique<DerivativesData<Model>>(model);
  rnea_derivatives(model, *dd, qc, vc, ac);
  return FloatingRneaDerivatives<Model>{dd->dtau_dq, dd->dtau_dv, dd->data.M};
}

/// d a / d q (q's tangent), d a / d v and d a / d tau = M^-1 of aba(model, q, v, tau) on a
/// floating or planar base (a = [base acceleration; qdd]): aba, rnea_derivatives at its a,
/// then -M^-1 d tau / d(q, v) with M^-1 from a dense Cholesky factor of M (file comment). Writes
/// dd.dqdd_dq, dd.dqdd_dv, dd.dqdd_dtau, dd.data.a (= aba) and what rnea_derivatives writes
/// (dd.data.tau = tau to rounding), dd.data.L. No allocation; noexcept on a compile-time tree.
template <typename Tree, typename Q, typename V, typename Tau, typename BaseJoint>
void aba_derivatives(const FloatingBase<Tree, BaseJoint>& model,
                     DerivativesData<FloatingBase<Tree, BaseJoint>>& dd,
                     const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v,
                     const Eigen::MatrixBase<Tau>& tau) noexcept(!detail::checks_sizes<Tree>) {
  using Model = FloatingBase<Tree, BaseJoint>;
  static_assert(detail::floating_sized<Model, Q>(Model::nq) &&
                    detail::floating_sized<Model, V>(Model::nv) &&
                    detail::floating_sized<Model, Tau>(Model::nv),
                "aba_derivatives(floating base, dd, q, v, tau): q of nq, v and tau of nv entries");
  if constexpr (detail::checks_sizes<Tree>) {
    detail::check_floating_derivatives(model, "aba_derivatives", dd, q, v, "tau", tau);
  }
  auto& data = dd.data;
  aba(model, data, q, v, tau);  // data.a, data.qd (and data.oMb, data.q)
  detail::split_tangent<Model>(v, dd.tree.root.v, data.qd);
  detail::split_tangent<Model>(data.a, dd.tree.root.a, data.qdd);
  detail::floating_rnea_derivatives_pass(model, dd);
  // M^-1 by nv solves with the Cholesky factor, then two nv x nv products: cheaper than 2 nv
  // more solves of one column each (coefficient-wise products: a ChainX/TreeX's GEMM would
  // allocate its blocks on the heap)
  detail::cholesky_factor(data.M, data.L);
  dd.dqdd_dtau.setIdentity();
  detail::cholesky_solve_columns(data.L, dd.dqdd_dtau);
  dd.dqdd_dq.noalias() = -dd.dqdd_dtau.lazyProduct(dd.dtau_dq);
  dd.dqdd_dv.noalias() = -dd.dqdd_dtau.lazyProduct(dd.dtau_dv);
}

/// Returning form of a floating base's aba_derivatives: checked (ArgumentError).
template <typename Tree, typename Q, typename V, typename Tau, typename BaseJoint>
FloatingAbaDerivatives<FloatingBase<Tree, BaseJoint>> aba_derivatives(
    const FloatingBase<Tree, BaseJoint>& model, const Eigen::MatrixBase<Q>& q,
    const Eigen::MatrixBase<V>& v, const Eigen::MatrixBase<Tau>& tau) {
  using Model = FloatingBase<Tree, BaseJoint>;
  const char* f = "aba_derivatives";
  const typename Model::ConfigVector qc = detail::checked_floating(model, f, "q", q, true);
  const typename Model::TangentVector vc = detail::checked_floating(model, f, "v", v, false);
  const typename Model::TangentVector tc = detail::checked_floating(model, f, "tau", tau, false);
  const auto dd = std::make_unique<DerivativesData<Model>>(model);
  aba_derivatives(model, *dd, qc, vc, tc);
  return FloatingAbaDerivatives<Model>{dd->dqdd_dq, dd->dqdd_dv, dd->dqdd_dtau};
}

}  // namespace chaindyn
