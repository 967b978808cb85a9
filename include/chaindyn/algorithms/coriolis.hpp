/// @file
/// The Coriolis matrix C(q, qd) in its Christoffel form, O(n^2), and the Christoffel symbols.
///
/// C is not unique: any C with C(q, qd) qd = the velocity terms of the equation of motion will
/// do for inverse dynamics. The Christoffel form is the one with
///     C_ij = sum_k Gamma_ijk qd_k,   Gamma_ijk = 1/2 (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i),
/// the unique C that is linear in qd with Gamma_ijk = Gamma_ikj and Mdot = C + C^T, i.e.
/// Mdot - 2C skew-symmetric (the passivity property controllers rely on).
///
/// Algorithm (after S. Echeandia and P. M. Wensing, "Numerical methods to compute the Coriolis
/// matrix and Christoffel symbols for rigid-body systems", J. Comput. Nonlinear Dynam. 16(9),
/// 2021, sec. 3; derived and written here in base coordinates):
///   With S_j the joint columns and v_i the link velocities, all in base coordinates about the
///   base origin (spatial vectors, [angular; linear]), J_i = [S_0 .. S_i 0 ..] the Jacobian of
///   link i and I_i its spatial inertia in base coordinates, M = sum_i J_i^T I_i J_i and the
///   Newton-Euler equations give C qd = sum_i J_i^T (I_i Jdot_i qd + v_i x* I_i v_i), with
///   Jdot_i = [Sdot_0 .. Sdot_i 0 ..], Sdot_j = v_j x S_j (RBDA eq. 2.39 for a vector fixed in
///   body j). Take
///       C = sum_i J_i^T (I_i Jdot_i + B_i J_i),
///       B_i = 1/2 ( (v_i x*) I_i - I_i (v_i x) + (I_i v_i) xbar* ),
///   where (h xbar*) m = m x* h. Then B_i v_i = v_i x* I_i v_i (so C qd is right), and with
///   Idot_i = (v_i x*) I_i - I_i (v_i x) the terms give Mdot - 2C = sum_i (Jdot_i^T I_i J_i -
///   J_i^T I_i Jdot_i) - sum_i J_i^T (I_i v_i) xbar* J_i, skew since xbar* is. Symmetry
///   Gamma_ijk = Gamma_ikj, i.e. C(q, x) y = C(q, y) x, follows from Jdot(x) y - Jdot(y) x =
///   (J x) x (J y) and B(x) y - B(y) x = -I ((J x) x (J y)). So this C is the Christoffel one.
///   Sums over the subtree i >= max(r, c) become composite terms: with Ic_c = sum_{i>=c} I_i and
///   Bc_c = sum_{i>=c} B_i,
///       C_rc = S_r . (Ic_c Sdot_c + Bc_c S_c)                      for r <= c,
///       C_rc = Sdot_c . (Ic_r S_r) + S_c . (Bc_r^T S_r)            for r >  c,
///   (on a tree: i over the subtree of the joint further from the base, r <= c meaning r
///   supports c; C_rc = 0 for joints on different branches, whose columns no J_i shares),
///   computed tip to base in one pass: O(n) 6x6 work, O(n^2) dot products.
#pragma once

#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/model/data.hpp"

namespace chaindyn {

namespace detail {

template <typename Scalar>
using Matrix6 = Eigen::Matrix<Scalar, 6, 6>;

/// The 6x6 matrix of m x (motion cross product, RBDA eq. 2.31): [[w]x 0; [v]x [w]x].
template <typename Scalar>
Matrix6<Scalar> motion_cross_matrix(const Motion<Scalar>& m) {
  Matrix6<Scalar> out = Matrix6<Scalar>::Zero();
  const Matrix3<Scalar> w = skew(m.angular);
  out.template topLeftCorner<3, 3>() = w;
  out.template bottomRightCorner<3, 3>() = w;
  out.template bottomLeftCorner<3, 3>() = skew(m.linear);
  return out;
}

/// B(I, v) = 1/2 ((v x*) I - I (v x) + (I v) xbar*), (h xbar*) m = m x* h, i.e. for h = (n; f)
/// h xbar* = -[[n]x [f]x; [f]x 0] (Echeandia and Wensing 2021; see the file comment).
template <typename Scalar>
Matrix6<Scalar> coriolis_b(const Inertia<Scalar>& inertia, const Motion<Scalar>& v) {
  const Matrix6<Scalar> i = inertia.matrix();
  const Matrix6<Scalar> vx = motion_cross_matrix(v);
  const Force<Scalar> h = inertia * v;
  Matrix6<Scalar> hbar = Matrix6<Scalar>::Zero();
  const Matrix3<Scalar> fx = skew(h.linear);
  hbar.template topLeftCorner<3, 3>() = -skew(h.angular);
  hbar.template topRightCorner<3, 3>() = -fx;
  hbar.template bottomLeftCorner<3, 3>() = -fx;
  // v x* = -(v x)^T
  return Scalar(0.5) * (-(vx.transpose() * i) - i * vx + hbar);
}

template <typename Scalar>
Force<Scalar> to_force(const Eigen::Matrix<Scalar, 6, 1>& x) {
  return Force<Scalar>(x.template head<3>(), x.template tail<3>());
}

}  // namespace detail

/// C(q, qd), the Coriolis and centrifugal matrix in Christoffel form (file comment):
/// C(q, qd) qd = nonlinear_effects(q, qd) - gravity_torques(q), Mdot - 2C skew-symmetric,
/// C_ij = sum_k Gamma_ijk qd_k. Joint friction and armature do not enter (the armature is
/// constant in M). O(n^2). Fills data.C (and data.liMi, oMi, oS, ov, oSdot, oIc; on a tree
/// data.oBc).
template <typename Model, typename Q, typename Qd>
void coriolis_matrix(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q_in,
                     const Eigen::MatrixBase<Qd>& qd_in) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("coriolis_matrix", model, data, "q", q_in, "qd", qd_in);
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  const auto& qd = detail::as_joint_vector<Model>(qd_in.derived());
  using Scalar = typename Model::Scalar;
  const std::size_t n = detail::joint_count(model);
  // Forward pass: everything in base coordinates about the base origin.
  detail::world_kinematics(model, data, q);  // oMi, S_i = oS[i]
  model.joints_forward([&](const std::size_t i, const auto&) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    data.ov[i] = model.is_root(i) ? data.oS[i] * qd[k]
                                  : data.ov[model.parent(i)] + data.oS[i] * qd[k];  // v_i
    data.oSdot[i] = cross(data.ov[i], data.oS[i]);                              // v_i x S_i
    data.oIc[i] = model.inertia_in(i, data.oMi[i]);                             // I_i
    if constexpr (!Model::serial) data.oBc[i] = detail::coriolis_b(data.oIc[i], data.ov[i]);  // B_i
  });
  // Backward pass: composite Ic_c, Bc_c and row/column c of C. On a chain Bc_c is one running
  // sum and Ic_c pulls its child's; on a tree (B_i in data.oBc from the forward pass) each link
  // pushes both to its parent,
  // and C_rc = 0 for r, c on different branches (no link moves with both joints).
  detail::Matrix6<Scalar> bc = detail::Matrix6<Scalar>::Zero();
  if constexpr (!Model::serial) data.C.setZero();
  for (std::size_t c = n; c-- > 0;) {
    if constexpr (Model::serial) {
      bc += detail::coriolis_b(data.oIc[c], data.ov[c]);
      if (c + 1 < n) data.oIc[c] += data.oIc[c + 1];
    } else {
      bc = data.oBc[c];  // B_c and its children's Bc
    }
    const Inertia<Scalar>& ic = data.oIc[c];
    const Motion<Scalar>& s = data.oS[c];
    const Force<Scalar> f1 = ic * data.oSdot[c] + detail::to_force<Scalar>(bc * s.vector());
    const Force<Scalar> f2 = ic * s;
    const Force<Scalar> f3 = detail::to_force<Scalar>(bc.transpose() * s.vector());
    const auto kc = Eigen::Index(c);
    if constexpr (Model::serial) {
      for (std::size_t r = 0; r <= c; ++r) data.C(Eigen::Index(r), kc) = dot(data.oS[r], f1);
      for (std::size_t r = 0; r < c; ++r) {
        // C_cr, row c > column r
        data.C(kc, Eigen::Index(r)) = dot(data.oSdot[r], f2) + dot(data.oS[r], f3);
      }
    } else {
      // the joints r that support c: C_rc, and C_cr for r != c
      data.C(kc, kc) = dot(s, f1);
      for (std::size_t r = model.parent(c); r != no_parent; r = model.parent(r)) {
        data.C(Eigen::Index(r), kc) = dot(data.oS[r], f1);
        data.C(kc, Eigen::Index(r)) = dot(data.oSdot[r], f2) + dot(data.oS[r], f3);
      }
      if (!model.is_root(c)) {
        data.oBc[model.parent(c)] += bc;
        data.oIc[model.parent(c)] += data.oIc[c];
      }
    }
  }
}

/// Returning form of coriolis_matrix: any Eigen vectors, sizes checked.
template <typename Model, typename Q, typename Qd>
typename Model::Matrix coriolis_matrix(const Model& model, const Eigen::MatrixBase<Q>& q,
                                       const Eigen::MatrixBase<Qd>& qd) {
  Data<Model>& data = detail::thread_workspace(model);
  coriolis_matrix(model, data, detail::checked_joint_vector(model, q, "coriolis_matrix", "q"),
                  detail::checked_joint_vector(model, qd, "coriolis_matrix", "qd"));
  return data.C;
}

/// The Christoffel symbols of the first kind at q, one N x N matrix per row index i:
///     gamma[i](j, k) = Gamma_ijk = 1/2 (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i),
/// so that C_ij = sum_k gamma[i](j, k) qd_k and (C qd)_i = qd^T gamma[i] qd; each gamma[i] is
/// symmetric. Since C is linear in qd, column k of the matrices is C(q, e_k):
/// gamma[i](j, k) = C(q, e_k)_ij; n calls of coriolis_matrix, O(n^3). Fills data.C (with
/// qd = e_{n-1}) and what coriolis_matrix fills.
template <typename Model, typename Q>
void christoffel_symbols(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q_in,
                         PerLinkArray<typename Model::Matrix, Model::nq>& gamma)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("christoffel_symbols", model, data, "q", q_in, "gamma", gamma);
  for (const auto& g : gamma) {
    const auto m = Eigen::Index(detail::joint_count(model));
    detail::check_matrix<Model>("christoffel_symbols", "gamma[i]", g, m, m);
  }
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  const auto n = Eigen::Index(detail::joint_count(model));
  // qd = e_k, held in data.qdd (which coriolis_matrix does not touch): no vector is made here
  typename Model::Vector& unit = data.qdd;
  for (Eigen::Index k = 0; k < n; ++k) {
    unit.setZero();
    unit[k] = typename Model::Scalar(1);
    coriolis_matrix(model, data, q, unit);
    for (Eigen::Index i = 0; i < n; ++i) {
      gamma[std::size_t(i)].col(k) = data.C.row(i).transpose();
    }
  }
}

/// Returning form of christoffel_symbols: gamma[i](j, k) = Gamma_ijk.
template <typename Model, typename Q>
PerLinkArray<typename Model::Matrix, Model::nq> christoffel_symbols(const Model& model,
                                                                    const Eigen::MatrixBase<Q>& q) {
  const auto n = Eigen::Index(detail::joint_count(model));
  PerLinkArray<typename Model::Matrix, Model::nq> gamma;
  detail::resize_per_link(gamma, std::size_t(n));
  for (auto& g : gamma) g.resize(n, n);
  christoffel_symbols(model, detail::thread_workspace(model),
                      detail::checked_joint_vector(model, q, "christoffel_symbols", "q"), gamma);
  return gamma;
}

}  // namespace chaindyn
