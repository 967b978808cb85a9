/// @file
/// Partial derivatives of forward dynamics: d qdd / d q, d qdd / d qd and d qdd / d tau = M^-1,
/// in O(n^2) on a chain, on a tree in O(n sum of the joints' depths) (aba_solve_tree).
///
/// The implicit-function route of Carpentier and Mansard, RSS 2018 (sec. IV-A, eq. (13)):
/// forward dynamics qdd = FD(q, qd, tau) solves tau = ID(q, qd, qdd), so differentiating
/// ID(q, qd, FD(q, qd, tau)) = tau gives
///     d qdd / d q  = -M^-1 d ID / d q,    d qdd / d qd = -M^-1 d ID / d qd,
///     d qdd / d tau = M^-1,
/// with the ID derivatives of rnea_derivatives evaluated at qdd = aba(q, qd, tau).
///
/// The three products with M^-1 are not formed as dense n^3 products: aba has already
/// factorized M in its tip-to-base pass (the articulated-body inertias; in base coordinates
/// U_i = IA_i S_i and D_i = S_i^T U_i + armature_i, RBDA Table 7.1), and with zero velocity and
/// zero gravity ABA maps joint forces b to M^-1 b (RBDA sec. 7.3). Its two remaining passes,
/// run for all 3n right-hand sides (the columns of -dtau_dq, -dtau_dqd and the identity)
/// together, are, with P (pA_i, one row per right-hand side) and A (a_i, likewise):
///     tip to base:  u_i = b_i - P S_i,            P += (u_i / D_i) U_i^T,
///     base to tip:  x_i = (u_i - A U_i) / D_i,    A += x_i S_i^T,
/// 4 multiply-adds of 6 per link and right-hand side: ~75 n^2 flops in all, against the 4 n^3
/// of two dense products plus M^-1 by inverse_mass_matrix (whose per-column walks transform
/// between link frames). The right-hand sides are stored one per row (the solution of link i
/// for all of them is a contiguous column), so every step is a vector operation over them.
/// Chains of fewer than kJointSpaceSolveBelow joints (a ChainX's count checked at run time) run
/// the same two passes in joint space, as two unit-triangular substitutions
/// (aba_solve_joint_space, and its run-time-size form): n^2 multiply-adds per right-hand side,
/// cheaper than the 24 n of the 6-vector passes on short chains. A tree solves in joint space at
/// every size, the couplings only between a joint and its ancestors (aba_solve_tree): 2 d
/// multiply-adds per right-hand side and joint of depth d (the 6-vector passes would need a
/// scratch pA per pending branch).
#pragma once

#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/algorithms/rnea_derivatives.hpp"

#include <cmath>
#include <type_traits>

namespace chaindyn {

namespace detail {

/// a * b + c, fused (one rounding) where the target has FMA instructions and Scalar is a
/// floating-point type; a * b + c otherwise (std::fma without them is a slow library call).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Scalar multiply_add(const Scalar& a, const Scalar& b,
                                                  const Scalar& c) noexcept {
#if defined(__FMA__)
  if constexpr (std::is_floating_point_v<Scalar>) return std::fma(a, b, c);
#endif
  return a * b + c;
}

/// aba_solve_rows' step on one Y's rows first..rows - 1 (y: the right-hand sides' entries of
/// one joint, m0..m5: the six columns of the scratch P or A): each row's
/// r = (y - sum_c x_c m_c) * scale, stored in y, then m_c += w_c r. The seven arrays are
/// distinct (restrict parameters, which both compilers keep through inlining), so the loop
/// vectorises whether the row count is a constant (a compile-time chain) or not (a ChainX).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void aba_row_sweep(
    Scalar* CHAINDYN_RESTRICT y, Scalar* CHAINDYN_RESTRICT m0, Scalar* CHAINDYN_RESTRICT m1,
    Scalar* CHAINDYN_RESTRICT m2, Scalar* CHAINDYN_RESTRICT m3, Scalar* CHAINDYN_RESTRICT m4,
    Scalar* CHAINDYN_RESTRICT m5, const Eigen::Index first, const Eigen::Index rows,
    const Scalar (&x)[6], const Scalar scale, const Scalar (&w)[6]) noexcept {
  for (Eigen::Index r = first; r < rows; ++r) {
    const Scalar s1 = multiply_add(x[2], m2[r], multiply_add(x[1], m1[r], x[0] * m0[r]));
    const Scalar s2 = multiply_add(x[5], m5[r], multiply_add(x[4], m4[r], x[3] * m3[r]));
    const Scalar v = (y[r] - (s1 + s2)) * scale;
    y[r] = v;
    m0[r] = multiply_add(w[0], v, m0[r]);
    m1[r] = multiply_add(w[1], v, m1[r]);
    m2[r] = multiply_add(w[2], v, m2[r]);
    m3[r] = multiply_add(w[3], v, m3[r]);
    m4[r] = multiply_add(w[4], v, m4[r]);
    m5[r] = multiply_add(w[5], v, m5[r]);
  }
}

/// Y <- Y M^-1 (i.e. (M^-1 Y^T)^T, M symmetric) for each of ys... and for `identity`, which
/// must hold the identity on entry (it leaves with M^-1): each row of a Y, a right-hand side
/// b^T on entry, becomes (M^-1 b)^T, by the two last passes of ABA with zero velocity and
/// gravity on the factorization aba left in `data` (oS, oU, D and 1 / D: see the file
/// comment). p[g] and a[g] are n x 6 scratch matrices (P and A above) for the g-th Y of ys...,
/// the last ones for the identity. O(n^2) per Y of n rows; noexcept, no allocation.
///
/// In the tip-to-base pass, the identity's rows j < i are still zero at link i (b_j = e_j, and
/// no link below j has touched row j), so that pass runs over its rows from i on only, which
/// halves its work for M^-1.
///
/// Each pass is a loop over the rows that reads and writes each row of p (or a) once per link,
/// with fused multiply-adds (aba_row_sweep: 27 instructions per 4 rows where axpy on the
/// columns of p and a took 44). Used from kJointSpaceSolveBelow joints on (shorter chains,
/// ChainX included, solve in joint space).
template <typename Model, typename Scratch, typename Identity, typename... Ys>
inline CHAINDYN_ALWAYS_INLINE void aba_solve_rows(const Model& model, const Data<Model>& data,
                                                  Scratch* p, Scratch* a, Identity& identity,
                                                  Ys&... ys) noexcept {
  using Scalar = typename Model::Scalar;
  constexpr std::size_t count = sizeof...(Ys) + 1;
  // one Y's rows first..rows - 1 (the right-hand sides y, the scratch m): each row's
  // r = y - sum_c x_c m_c (then times `scale`), stored in y, then m_c += w_c r
  const auto row_sweep = [](Scalar* y, Scratch& m, const Eigen::Index first,
                            const Scalar (&x)[6], const Scalar scale, const Scalar (&w)[6])
                             CHAINDYN_ALWAYS_INLINE {
    aba_row_sweep(y, m.col(0).data(), m.col(1).data(), m.col(2).data(), m.col(3).data(),
                  m.col(4).data(), m.col(5).data(), first, m.rows(), x, scale, w);
  };
  for (std::size_t g = 0; g < count; ++g) p[g].setZero();
  model.joints_backward(large_body, [&](const std::size_t i, const auto&) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    const Motion<Scalar>& s = data.oS[i];
    const Force<Scalar>& uf = data.oU[i];
    const Scalar inv_d = data.Dinv[k];
    // u_i = b_i - S_i^T pA_i, pA_p(i) += U_i u_i / D_i
    const Scalar x[6] = {s.angular[0], s.angular[1], s.angular[2],
                         s.linear[0],  s.linear[1],  s.linear[2]};
    const Scalar w[6] = {uf.angular[0] * inv_d, uf.angular[1] * inv_d, uf.angular[2] * inv_d,
                         uf.linear[0] * inv_d,  uf.linear[1] * inv_d,  uf.linear[2] * inv_d};
    std::size_t g = 0;
    (row_sweep(ys.col(k).data(), p[g++], 0, x, Scalar(1), w), ...);
    row_sweep(identity.col(k).data(), p[count - 1], k, x, Scalar(1), w);
  });
  for (std::size_t g = 0; g < count; ++g) a[g].setZero();
  model.joints_forward(large_body, [&](const std::size_t i, const auto&) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    const Motion<Scalar>& s = data.oS[i];
    const Force<Scalar>& uf = data.oU[i];
    const Scalar inv_d = data.Dinv[k];
    // x_i = (u_i - U_i^T a_p(i)) / D_i, a_i = a_p(i) + S_i x_i
    const Scalar x[6] = {uf.angular[0], uf.angular[1], uf.angular[2],
                         uf.linear[0],  uf.linear[1],  uf.linear[2]};
    const Scalar w[6] = {s.angular[0], s.angular[1], s.angular[2],
                         s.linear[0],  s.linear[1],  s.linear[2]};
    std::size_t g = 0;
    (row_sweep(ys.col(k).data(), a[g++], 0, x, inv_d, w), ...);
    row_sweep(identity.col(k).data(), a[count - 1], 0, x, inv_d, w);
  });
}

/// The same solves as aba_solve_rows (Y <- Y M^-1 for each of ys... and the identity) for a
/// compile-time chain of fewer than kJointSpaceSolveBelow joints, with ABA's factorization
/// carried into joint space. In the two passes of the file comment, S_j^T pA_j sums
/// U_i u_i / D_i over the links i > j below it, and U_i^T a_p(i) sums S_j x_j over the links
/// j < i above it; with the couplings K(j, i) = S_j^T U_i / D_i (j < i, K strictly upper
/// triangular) they are
///     tip to base:  u_j = b_j - sum_{i > j} K(j, i) u_i,    i.e. (1 + K) u = b,
///     base to tip:  x_i = u_i / D_i - sum_{j < i} K(j, i) x_j,  i.e. (1 + K^T) x = D^-1 u,
/// so that M = (1 + K) D (1 + K)^T: the factorization of the mass matrix that ABA's passes
/// carry out implicitly (it follows from the two passes above; RBDA sec. 7.3 for the passes).
/// Two unit-triangular substitutions: n^2 - n multiply-adds and n multiplications per
/// right-hand side, against 24 n multiply-adds through the 6-vectors pA and a (aba_solve_rows),
/// and no product with M^-1. K costs 6 n^2 multiply-adds once (S_j^T U_i / D_i for all j, a
/// product of the n x 6 rows of S_j, `s_rows`, with U_i / D_i). Each column of a Y (one
/// joint's entry of every right-hand side) is a fixed-size vector, summed in a register block
/// from the farthest joint to the nearest, so that the column written last is read last.
/// N: the joint count, Model's, or a ChainX's known here (its matrices then as fixed-size maps).
template <typename Model, int N = Model::nq, typename SRows, typename Couplings,
          typename Identity, typename... Ys>
inline CHAINDYN_ALWAYS_INLINE void aba_solve_joint_space(const Data<Model>& data,
                                                         const SRows& s_rows, Couplings& k,
                                                         Identity& identity, Ys&... ys) noexcept {
  using Scalar = typename Model::Scalar;
  constexpr Eigen::Index n = N;
  static_assert(n != Eigen::Dynamic, "aba_solve_joint_space needs a joint count at compile time");
  CHAINDYN_UNROLL_16
  for (Eigen::Index i = 1; i < n; ++i) {
    const Force<Scalar>& uf = data.oU[std::size_t(i)];
    const Scalar inv_d = data.Dinv[i];
    Eigen::Matrix<Scalar, 6, 1> w;
    for (int c = 0; c < 6; ++c) w[c] = component(uf, c) * inv_d;
    k.col(i).noalias() = s_rows * w;  // rows j >= i are not read
  }
  const auto forward = [&k](auto& y) CHAINDYN_ALWAYS_INLINE {  // (1 + K) u = b, tip to base
    using Column = Eigen::Matrix<Scalar, std::decay_t<decltype(y)>::RowsAtCompileTime, 1>;
    CHAINDYN_UNROLL_16
    for (Eigen::Index t = 1; t < n; ++t) {
      const Eigen::Index j = n - 1 - t;
      Column u = y.col(j);
      CHAINDYN_UNROLL_16
      for (Eigen::Index i = n - 1; i > j; --i) u -= k(j, i) * y.col(i);
      y.col(j) = u;
    }
  };
  const auto backward = [&k, &data](auto& y) CHAINDYN_ALWAYS_INLINE {  // (1 + K^T) x = D^-1 u
    using Column = Eigen::Matrix<Scalar, std::decay_t<decltype(y)>::RowsAtCompileTime, 1>;
    CHAINDYN_UNROLL_16
    for (Eigen::Index i = 0; i < n; ++i) {
      Column x = y.col(i) * data.Dinv[i];
      CHAINDYN_UNROLL_16
      for (Eigen::Index j = 0; j < i; ++j) x -= k(j, i) * y.col(j);
      y.col(i) = x;
    }
  };
  (forward(ys), ...);
  forward(identity);
  (backward(ys), ...);
  backward(identity);
}

/// aba_solve_joint_space_dynamic on rows r0..r0 + P - 1 of the Ys y[0..count) (P right-hand
/// sides of each, a column of a block in a register): the tip-to-base substitution, then the
/// base-to-tip one, the Ys interleaved (independent chains of multiply-adds). On raw pointers
/// held in locals (k: K, column-major with leading dimension ldk; the Ys column-major with
/// leading dimension ldy): through the matrices, every store of a block (a may-alias vector
/// store) made the compiler reload their data pointers and strides.
template <int P, typename Scalar, std::size_t count>
inline CHAINDYN_ALWAYS_INLINE void joint_space_rows(const Scalar* const k, const Eigen::Index ldk,
                                                    const Scalar* const inv_d,
                                                    const Eigen::Index n,
                                                    Scalar* const (&y)[count],
                                                    const Eigen::Index ldy,
                                                    const Eigen::Index r0) noexcept {
  using Block = Eigen::Matrix<Scalar, P, 1>;
  const auto at = [&](const std::size_t g, const Eigen::Index j) CHAINDYN_ALWAYS_INLINE {
    return Eigen::Map<Block>(y[g] + j * ldy + r0);
  };
  Block t[count];
  for (Eigen::Index j = n - 2; j >= 0; --j) {  // (1 + K) u = b, tip to base
    for (std::size_t g = 0; g < count; ++g) t[g] = at(g, j);
    for (Eigen::Index i = n - 1; i > j; --i) {
      const Scalar kji = k[j + i * ldk];
      for (std::size_t g = 0; g < count; ++g) t[g] -= kji * at(g, i);
    }
    for (std::size_t g = 0; g < count; ++g) at(g, j) = t[g];
  }
  for (Eigen::Index i = 0; i < n; ++i) {  // (1 + K^T) x = D^-1 u, base to tip
    for (std::size_t g = 0; g < count; ++g) t[g] = at(g, i) * inv_d[i];
    for (Eigen::Index j = 0; j < i; ++j) {
      const Scalar kji = k[j + i * ldk];
      for (std::size_t g = 0; g < count; ++g) t[g] -= kji * at(g, j);
    }
    for (std::size_t g = 0; g < count; ++g) at(g, i) = t[g];
  }
}

/// Column i of the couplings, k[j] = S_j . w for j < i (w = U_i / D_i; s0..s5 the columns of
/// the n x 6 rows of S_j): a loop down six contiguous columns, which the compiler vectorises
/// (restrict parameters: k is not one of the s columns).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void coupling_column(
    Scalar* CHAINDYN_RESTRICT k, const Scalar* CHAINDYN_RESTRICT s0,
    const Scalar* CHAINDYN_RESTRICT s1, const Scalar* CHAINDYN_RESTRICT s2,
    const Scalar* CHAINDYN_RESTRICT s3, const Scalar* CHAINDYN_RESTRICT s4,
    const Scalar* CHAINDYN_RESTRICT s5, const Scalar (&w)[6], const Eigen::Index i) noexcept {
  for (Eigen::Index j = 0; j < i; ++j) {
    k[j] = (s0[j] * w[0] + s1[j] * w[1] + s2[j] * w[2]) + (s3[j] * w[3] + s4[j] * w[4] + s5[j] * w[5]);
  }
}

/// aba_solve_joint_space for a chain whose joint count is known at run time only (a ChainX of
/// fewer than kJointSpaceSolveBelow joints): the same substitutions in the same order, on
/// blocks of rows (right-hand sides) of P, P / 2, ..., 1 rows (P: Eigen's SIMD packet size for
/// Scalar), each column of a block a register (no temporary on the heap). The Ys have n
/// columns and at least n rows: aba_derivatives pads them to whole packets (rows past n are
/// right-hand sides of their own, zero), so that every block is a whole packet.
template <typename Model, typename SRows, typename Couplings, typename Identity, typename... Ys>
inline CHAINDYN_ALWAYS_INLINE void aba_solve_joint_space_dynamic(const Data<Model>& data,
                                                                 const SRows& s_rows,
                                                                 Couplings& k, Identity& identity,
                                                                 Ys&... ys) noexcept {
  using Scalar = typename Model::Scalar;
  constexpr int packet = Eigen::internal::packet_traits<Scalar>::Vectorizable
                             ? int(Eigen::internal::packet_traits<Scalar>::size)
                             : 1;
  const Eigen::Index n = s_rows.rows();
  const Eigen::Index rows = identity.rows();
  for (Eigen::Index i = 1; i < n; ++i) {  // K(j, i) = S_j . U_i / D_i, j < i
    const Force<Scalar>& uf = data.oU[std::size_t(i)];
    const Scalar inv_d = data.Dinv[i];
    Scalar w[6];
    for (int c = 0; c < 6; ++c) w[c] = component(uf, c) * inv_d;
    coupling_column(k.col(i).data(), s_rows.col(0).data(), s_rows.col(1).data(),
                    s_rows.col(2).data(), s_rows.col(3).data(), s_rows.col(4).data(),
                    s_rows.col(5).data(), w, i);
  }
  Scalar* const y[] = {identity.data(), ys.data()...};
  const Eigen::Index ldy = identity.outerStride();
  Eigen::Index r0 = 0;  // blocks of P, P / 2, ... rows, then single rows
  const auto blocks = [&](auto p) CHAINDYN_ALWAYS_INLINE {
    constexpr int P = decltype(p)::value;
    if constexpr (P >= 1) {
      for (; r0 + P <= rows; r0 += P) {
        joint_space_rows<P>(k.data(), k.outerStride(), data.Dinv.data(), n, y, ldy, r0);
      }
    }
  };
  blocks(std::integral_constant<int, packet>{});
  blocks(std::integral_constant<int, packet / 2>{});
  blocks(std::integral_constant<int, packet / 4>{});
  blocks(std::integral_constant<int, packet / 8>{});
  for (; r0 < rows; ++r0) {
    joint_space_rows<1>(k.data(), k.outerStride(), data.Dinv.data(), n, y, ldy, r0);
  }
}

/// aba_solve_joint_space_dynamic for a scalar without SIMD packets of its own (packet size 1: a
/// batch pack, which is a SIMD register): a ChainX of 6 or 7 joints runs aba_solve_joint_space
/// with that count, its matrices (K, the rows of S_j, the Ys' top n rows) as fixed-size maps,
/// so that every loop is unrolled and each column of a Y is a block of registers; other counts
/// the run-time one (each right-hand side a row of its own).
template <typename Model, typename SRows, typename Couplings, typename Identity, typename... Ys>
inline CHAINDYN_ALWAYS_INLINE void aba_solve_joint_space_of_count(
    const Eigen::Index n, const Data<Model>& data, const SRows& s_rows, Couplings& k,
    Identity& identity, Ys&... ys) noexcept {
  using Scalar = typename Model::Scalar;
  const auto fixed = [&](auto count) CHAINDYN_ALWAYS_INLINE {
    constexpr int m = decltype(count)::value;
    using Stride = Eigen::OuterStride<>;
    using Square = Eigen::Map<Eigen::Matrix<Scalar, m, m>, 0, Stride>;
    const auto square = [](auto& y) CHAINDYN_ALWAYS_INLINE {
      return Square(y.data(), m, m, Stride(y.outerStride()));
    };
    const Eigen::Map<const Eigen::Matrix<Scalar, m, 6>, 0, Stride> s(
        s_rows.data(), m, 6, Stride(s_rows.outerStride()));
    Square kf = square(k), idf = square(identity);
    const auto solve = [&](auto... yf) CHAINDYN_ALWAYS_INLINE {
      aba_solve_joint_space<Model, m>(data, s, kf, idf, yf...);
    };
    solve(square(ys)...);
  };
  if (n == 7) {
    fixed(std::integral_constant<int, 7>{});
  } else if (n == 6) {
    fixed(std::integral_constant<int, 6>{});
  } else {
    aba_solve_joint_space_dynamic<Model>(data, s_rows, k, identity, ys...);
  }
}

/// out(r, c) = scale * in(c, r) for r, c < n: an n x n transpose between column-major arrays of
/// leading dimensions ldo and ldi (distinct).
template <typename Scalar, typename Size>
inline CHAINDYN_ALWAYS_INLINE void transpose_into(Scalar* CHAINDYN_RESTRICT out,
                                                  const Eigen::Index ldo,
                                                  const Scalar* CHAINDYN_RESTRICT in,
                                                  const Eigen::Index ldi, const Size n,
                                                  const Scalar scale) noexcept {
  for (Eigen::Index c = 0; c < n; ++c) {
    for (Eigen::Index r = 0; r < n; ++r) out[r + c * ldo] = scale * in[c + r * ldi];
  }
}

/// y[r] -= c x[r] for r < rows (y and x distinct).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void column_multiply_subtract(Scalar* CHAINDYN_RESTRICT y,
                                                            const Scalar* CHAINDYN_RESTRICT x,
                                                            const Scalar c,
                                                            const Eigen::Index rows) noexcept {
  for (Eigen::Index r = 0; r < rows; ++r) y[r] = multiply_add(-c, x[r], y[r]);
}

/// The solves of aba_solve_joint_space (Y <- Y M^-1 for each of ys..., the identity among
/// them) on a tree: the couplings K(j, i) = S_j^T U_i / D_i are those of the joints j that
/// support i (the articulated-body bias pA_j sums U_i u_i / D_i over j's subtree only, and
/// a_p(i) sums S_j x_j over i's ancestors only), zero for every other pair, so each
/// substitution walks the ancestors (RBDA sec. 6.5's branch-induced sparsity, here on the
/// factorization M = (1 + K) D (1 + K)^T that ABA's passes carry out):
///     tip to base:  u_i final once i's descendants (after it) are done; u_j -= K(j, i) u_i
///                   for each ancestor j,
///     base to tip:  x_i = u_i / D_i - sum_{ancestors j} K(j, i) x_j,
/// one multiply-add of a column (one joint's entries of every right-hand side) per (joint,
/// ancestor) pair and pass: O(n sum of depths) per Y. noexcept, no allocation.
template <typename Model, typename... Ys>
inline CHAINDYN_ALWAYS_INLINE void aba_solve_tree(const Model& model, const Data<Model>& data,
                                                  Ys&... ys) noexcept {
  using Scalar = typename Model::Scalar;
  const auto coupling = [&data](const std::size_t j, const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    return dot(data.oS[j], data.oU[i]) * data.Dinv[Eigen::Index(i)];
  };
  // column `to` of each Y -= c times its column `from` (plain loops on distinct columns: an
  // Eigen expression per column and Y costs its set-up on a TreeX's short columns)
  const auto subtract = [&](const Eigen::Index to, const Scalar& c, const Eigen::Index from)
                            CHAINDYN_ALWAYS_INLINE {
    (column_multiply_subtract(ys.col(to).data(), ys.col(from).data(), c, ys.rows()), ...);
  };
  model.indices_backward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    for (std::size_t j = model.parent(i); j != no_parent; j = model.parent(j)) {
      subtract(Eigen::Index(j), coupling(j, i), Eigen::Index(i));
    }
  });
  model.indices_forward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    const Scalar inv_d = data.Dinv[k];
    ((ys.col(k) *= inv_d), ...);
    for (std::size_t j = model.parent(i); j != no_parent; j = model.parent(j)) {
      subtract(k, coupling(j, i), Eigen::Index(j));
    }
  });
}

}  // namespace detail

/// The result of the returning form of aba_derivatives.
template <typename Model>
struct AbaDerivatives {
  typename Model::Matrix dqdd_dq;    ///< d qdd / d q
  typename Model::Matrix dqdd_dqd;   ///< d qdd / d qd
  typename Model::Matrix dqdd_dtau;  ///< d qdd / d tau = M^-1
};

namespace detail {
/// aba_pass as a function of its own: a compile-time chain of packs (batch), whose
/// aba_derivatives clang++ otherwise inlines it into in a large unit, 7 joints and up.
template <typename... Args>
CHAINDYN_NOINLINE void aba_pass_out_of_line(Args&&... args) noexcept {
  aba_pass(std::forward<Args>(args)...);
}
}  // namespace detail

/// d qdd / d q, d qdd / d qd and M^-1 of aba(model, q, qd, tau) (friction and armature
/// included), on a chain or a tree: O(n^2) on a chain. No allocation; noexcept on a
/// compile-time model (a ChainX's or TreeX's checks its arguments' sizes:
/// model/arguments.hpp). Fills dd.dqdd_dq, dd.dqdd_dqd, dd.dqdd_dtau,
/// dd.data.qdd (= aba), and what aba and rnea_derivatives fill (not data.Minv).
template <typename Model, typename Q, typename Qd, typename Tau>
CHAINDYN_GNU_FLATTEN
void aba_derivatives(const Model& model, DerivativesDataFor<Model>& dd,
                     const Eigen::MatrixBase<Q>& q_in, const Eigen::MatrixBase<Qd>& qd_in,
                     const Eigen::MatrixBase<Tau>& tau) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Tau>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("aba_derivatives", model, dd, "q", q_in, "qd", qd_in, "tau", tau);
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  const auto& qd = detail::as_joint_vector<Model>(qd_in.derived());
  Data<Model>& data = dd.data;
  // qdd and the factorization oU, D, Dinv (kept by rnea_derivatives); each link's rigid inertia
  // in base coordinates, which aba computes, kept for rnea_derivatives in data.oIc (where its
  // backward pass sums them into the composites)
  const auto keep = [&data](const std::size_t i, const Inertia<typename Model::Scalar>& inertia)
                        CHAINDYN_ALWAYS_INLINE { data.oIc[i] = inertia; };
  if constexpr (!Eigen::internal::packet_traits<typename Model::Scalar>::Vectorizable &&
                Model::nq != Eigen::Dynamic) {
    detail::aba_pass_out_of_line(model, data, q, qd,
                                 detail::as_joint_vector<Model>(tau.derived()), nullptr, keep);
  } else {
    detail::aba_pass(model, data, q, qd, detail::as_joint_vector<Model>(tau.derived()), nullptr,
                     keep);
  }
  // rnea_derivatives at qdd = aba's, from aba's base-coordinate kinematics (oMi, oS, ov and
  // oa: the same quantities at the same state) and link inertias. data.qdd is read in
  // place: neither pass nor the solves write it.
  detail::rnea_derivatives_pass<true>(model, dd, q, qd, data.qdd);
  // The right-hand sides, one per row: -dtau_dq^T, -dtau_dqd^T, I (M^-1 I = M^-1, symmetric).
  if constexpr (DerivativesData<Model>::solve_padded) {
    constexpr int n = Model::nq;
    auto& y = dd.solve_y;  // rows n.. stay zero through the solve
    y[0].template topRows<n>() = -dd.dtau_dq.transpose();
    y[1].template topRows<n>() = -dd.dtau_dqd.transpose();
    y[2].template topRows<n>().setIdentity();
    for (auto& m : y) m.template bottomRows<DerivativesData<Model>::solve_rows - n>().setZero();
    if constexpr (!Model::serial) {
      detail::aba_solve_tree(model, data, y[2], y[0], y[1]);
    } else if constexpr (detail::solve_in_joint_space<Model>) {
      detail::aba_solve_joint_space<Model>(data, dd.pair_s, dd.solve_k, y[2], y[0], y[1]);
    } else {
      detail::aba_solve_rows(model, data, dd.solve_p.data(), dd.solve_a.data(), y[2], y[0], y[1]);
    }
    dd.dqdd_dq = y[0].template topRows<n>().transpose();
    dd.dqdd_dqd = y[1].template topRows<n>().transpose();
    dd.dqdd_dtau = y[2].template topRows<n>();
  } else {
    if constexpr (DerivativesData<Model>::solve_padded_at_run_time) {
      // a ChainX of fewer than kJointSpaceSolveBelow joints: the compile-time chain's padded
      // solve in joint space, its size at run time
      const auto n = Eigen::Index(detail::joint_count(model));
      if (n < detail::kJointSpaceSolveBelow) {
        // rows n.. of each Y: right-hand sides of their own, zero since the workspace was made
        // (each row is solved on its own: whatever they hold never reaches rows < n)
        using Scalar = typename Model::Scalar;
        auto& y = dd.solve_y;
        const Eigen::Index ld = y[0].outerStride();
        detail::with_small_size(n, [&](const auto m) CHAINDYN_ALWAYS_INLINE {
          detail::transpose_into(y[0].data(), ld, dd.dtau_dq.data(), n, m, Scalar(-1));
          detail::transpose_into(y[1].data(), ld, dd.dtau_dqd.data(), n, m, Scalar(-1));
          for (Eigen::Index c = 0; c < m; ++c) {
            Scalar* const col = y[2].data() + c * ld;
            for (Eigen::Index r = 0; r < m; ++r) col[r] = Scalar(r == c ? 1 : 0);
          }
        });
        if constexpr (Eigen::internal::packet_traits<Scalar>::Vectorizable) {
          detail::aba_solve_joint_space_dynamic<Model>(data, dd.pair_s, dd.solve_k, y[2], y[0],
                                                       y[1]);
        } else {
          // a scalar that is a SIMD register of its own (batch's packs): one row per right-hand
          // side, so the rows of a column are the register block; 6 and 7 joints (most arms)
          // with the compile-time chain's unrolled solve, on fixed-size maps
          detail::aba_solve_joint_space_of_count<Model>(n, data, dd.pair_s, dd.solve_k, y[2],
                                                        y[0], y[1]);
        }
        detail::with_small_size(n, [&](const auto m) CHAINDYN_ALWAYS_INLINE {
          detail::transpose_into(dd.dqdd_dq.data(), n, y[0].data(), ld, m, Scalar(1));
          detail::transpose_into(dd.dqdd_dqd.data(), n, y[1].data(), ld, m, Scalar(1));
          for (Eigen::Index c = 0; c < m; ++c) {
            const Scalar* const col = y[2].data() + c * ld;
            Scalar* const out = dd.dqdd_dtau.data() + c * n;
            for (Eigen::Index r = 0; r < m; ++r) out[r] = col[r];
          }
        });
        return;
      }
    }
    dd.dqdd_dq = -dd.dtau_dq.transpose();
    dd.dqdd_dqd = -dd.dtau_dqd.transpose();
    dd.dqdd_dtau.setIdentity();
    if constexpr (!Model::serial) {
      detail::aba_solve_tree(model, data, dd.dqdd_dtau, dd.dqdd_dq, dd.dqdd_dqd);
    } else if constexpr (detail::solve_in_joint_space<Model>) {
      detail::aba_solve_joint_space<Model>(data, dd.pair_s, dd.solve_k, dd.dqdd_dtau, dd.dqdd_dq,
                                    dd.dqdd_dqd);
    } else {
      detail::aba_solve_rows(model, data, dd.solve_p.data(), dd.solve_a.data(), dd.dqdd_dtau,
                             dd.dqdd_dq, dd.dqdd_dqd);
    }
    dd.dqdd_dq.transposeInPlace();
    dd.dqdd_dqd.transposeInPlace();
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
