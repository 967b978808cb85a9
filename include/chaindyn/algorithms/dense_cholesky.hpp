/// @file
/// The dense Cholesky factorization L L^T = M of a chain's mass matrix and its solves
/// (detail::cholesky_factor, detail::cholesky_solve), used by forward_dynamics_crba, the
/// floating base's forward dynamics and derivatives and operational_space. Kernels on
/// column-major arrays: unrolled whole for a size known at compile time, blocked by panels of
/// eight columns for long or run-time-sized chains.
#pragma once

#include "chaindyn/config.hpp"

#include <Eigen/Core>

#include <cmath>
#include <type_traits>

namespace chaindyn::detail {

/// In place: the first N rows and columns of l (leading dimension ldl) get L's lower triangle,
/// L L^T = M for M symmetric positive definite (the lower triangle of m, leading dimension ldm),
/// row by row (Cholesky-Banachiewicz), unrolled whole (CHAINDYN_UNROLL_16: clang++ unrolls it
/// by itself, g++ does not); inv_out[j] = 1 / L(j, j). Each pivot is inverted once and the entries
/// below it multiplied by 1 / l(j, j): N divisions instead of N (N + 1) / 2 (a division is ~13
/// cycles of latency and 4-5 of throughput, a multiplication 3 and 0.5).
template <int N, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void cholesky_factor_unrolled(const Scalar* m, const Eigen::Index ldm,
                                                            Scalar* l, const Eigen::Index ldl,
                                                            Scalar (&inv_out)[N]) noexcept {
  using std::sqrt;
  Scalar inv[N];  // a local array: no store to l can alias it
  CHAINDYN_UNROLL_16
  for (Eigen::Index i = 0; i < N; ++i) {
    CHAINDYN_UNROLL_16
    for (Eigen::Index j = 0; j <= i; ++j) {
      Scalar s = m[i + j * ldm];
      CHAINDYN_UNROLL_16
      for (Eigen::Index k = 0; k < j; ++k) s -= l[i + k * ldl] * l[j + k * ldl];
      if (i == j) {
        l[i + i * ldl] = sqrt(s);
        inv[i] = Scalar(1) / l[i + i * ldl];
      } else {
        l[i + j * ldl] = s * inv[j];
      }
    }
  }
  CHAINDYN_UNROLL_16
  for (int i = 0; i < N; ++i) inv_out[i] = inv[i];
}

/// In place: x := L^-1 x for the first N rows of x and l (lower triangle, leading dimension ld),
/// unrolled whole; inv_out[i] = 1 / L(i, i) on return.
template <int N, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void cholesky_forward_unrolled(const Scalar* l, const Eigen::Index ld,
                                                             Scalar* x,
                                                             Scalar (&inv_out)[N]) noexcept {
  Scalar inv[N];
  CHAINDYN_UNROLL_16
  for (Eigen::Index i = 0; i < N; ++i) {
    inv[i] = Scalar(1) / l[i + i * ld];
    CHAINDYN_UNROLL_16
    for (Eigen::Index k = 0; k < i; ++k) x[i] -= l[i + k * ld] * x[k];
    x[i] *= inv[i];
  }
  CHAINDYN_UNROLL_16
  for (int i = 0; i < N; ++i) inv_out[i] = inv[i];
}

/// In place: x := L^-T x for the first N rows of x and l (leading dimension ld), unrolled whole,
/// with inv_in[i] = 1 / L(i, i).
template <int N, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void cholesky_back_unrolled(const Scalar* l, const Eigen::Index ld,
                                                          Scalar* x,
                                                          const Scalar (&inv_in)[N]) noexcept {
  Scalar inv[N];
  CHAINDYN_UNROLL_16
  for (int i = 0; i < N; ++i) inv[i] = inv_in[i];
  CHAINDYN_UNROLL_16
  for (Eigen::Index r = 0; r < N; ++r) {  // i = N - 1 ... 0 (a loop g++ can unroll)
    const Eigen::Index i = N - 1 - r;
    CHAINDYN_UNROLL_16
    for (Eigen::Index k = i + 1; k < N; ++k) x[i] -= l[k + i * ld] * x[k];
    x[i] *= inv[i];
  }
}

/// The panel width of the blocked kernels: columns per panel, rows per diagonal block.
constexpr int kCholeskyPanel = 8;

/// Calls f(std::integral_constant<int, s>) for the run-time size 1 <= s <= kCholeskyPanel: the
/// unrolled kernels on a diagonal block whose size is known at run time only.
template <typename F>
inline CHAINDYN_ALWAYS_INLINE void with_block_size(const Eigen::Index s, F&& f) noexcept {
  switch (s) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 3: f(std::integral_constant<int, 3>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 5: f(std::integral_constant<int, 5>{}); break;
    case 6: f(std::integral_constant<int, 6>{}); break;
    case 7: f(std::integral_constant<int, 7>{}); break;
    default: f(std::integral_constant<int, 8>{}); break;
  }
}
static_assert(kCholeskyPanel == 8, "with_block_size covers the sizes 1 ... 8");

/// The SIMD packet of the blocked kernels: Eigen's widest packet of Scalar whose size divides
/// the panel width.
template <typename Scalar>
using CholeskyPacket = typename Eigen::internal::find_best_packet<Scalar, kCholeskyPanel>::type;

/// Packets of rows per tile of the panel update: two where the registers hold the 2 x 8
/// accumulators (32 SIMD registers, AVX-512), else one.
template <typename Scalar>
constexpr int cholesky_tile_packets() {
  return EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS >= 32 &&
                 Eigen::internal::unpacket_traits<CholeskyPacket<Scalar>>::size > 1
             ? 2
             : 1;
}

/// acc[r][c] = M(i0 + r P ..., j0 + c) - sum_{k < j0} L(i0 + r P ..., k) L(j0 + c, k) for the
/// R packets of P rows from i0 and the panel's columns j0 ... j0 + 7: the rank-j0 update of a
/// tile, its R x 8 packets in registers across the whole sum (each k: R loads of a column of L,
/// 8 broadcasts of its row j0 + c, 8 R multiply-adds). The products are subtracted in the order
/// of k, each rounded once, as the unblocked form does.
template <int R, typename Packet, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void cholesky_panel_update(Packet (&acc)[R][kCholeskyPanel],
                                                         const Scalar* m, const Eigen::Index ldm,
                                                         const Scalar* l, const Eigen::Index ldl,
                                                         const Eigen::Index i0,
                                                         const Eigen::Index j0) noexcept {
  using namespace Eigen::internal;
  constexpr int P = unpacket_traits<Packet>::size;
  CHAINDYN_UNROLL_16
  for (int c = 0; c < kCholeskyPanel; ++c) {
    CHAINDYN_UNROLL_16
    for (int r = 0; r < R; ++r) acc[r][c] = ploadu<Packet>(m + i0 + r * P + (j0 + c) * ldm);
  }
  for (Eigen::Index t = j0; t > 0; --t) {  // k = 0 ... j0 - 1 (counted down: g++ 12
                                           // -Waggressive-loop-optimizations misfires on k++)
    const Scalar* const lk = l + (j0 - t) * ldl;  // column k of L
    const Scalar* const lj = lk + j0;
    Packet a[R];
    CHAINDYN_UNROLL_16
    for (int r = 0; r < R; ++r) a[r] = pnegate(ploadu<Packet>(lk + i0 + r * P));
    CHAINDYN_UNROLL_16
    for (int c = 0; c < kCholeskyPanel; ++c) {
      const Packet b = pset1<Packet>(lj[c]);
      CHAINDYN_UNROLL_16
      for (int r = 0; r < R; ++r) acc[r][c] = pmadd(a[r], b, acc[r][c]);
    }
  }
}

/// The rows of a panel below its diagonal block, R packets from row i0: the rank-j0 update,
/// then the triangular solve with the panel's diagonal block (L(i, j0 + c) = (A(i, j0 + c) -
/// sum_{c' < c} L(i, j0 + c') L(j0 + c, j0 + c')) / L(j0 + c, j0 + c)) in registers, stored
/// once.
template <int R, typename Packet, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void cholesky_panel_rows(
    const Scalar* m, const Eigen::Index ldm, Scalar* l, const Eigen::Index ldl,
    const Eigen::Index i0, const Eigen::Index j0, const Scalar (&inv)[kCholeskyPanel]) noexcept {
  using namespace Eigen::internal;
  constexpr int P = unpacket_traits<Packet>::size;
  Packet acc[R][kCholeskyPanel];
  cholesky_panel_update<R>(acc, m, ldm, l, ldl, i0, j0);
  const Scalar* const d = l + j0 + j0 * ldl;  // the panel's diagonal block of L
  CHAINDYN_UNROLL_16
  for (int c = 0; c < kCholeskyPanel; ++c) {
    CHAINDYN_UNROLL_16
    for (int cp = 0; cp < c; ++cp) {
      const Packet b = pset1<Packet>(-d[c + cp * ldl]);
      CHAINDYN_UNROLL_16
      for (int r = 0; r < R; ++r) acc[r][c] = pmadd(acc[r][cp], b, acc[r][c]);
    }
    const Packet s = pset1<Packet>(inv[c]);
    CHAINDYN_UNROLL_16
    for (int r = 0; r < R; ++r) {
      acc[r][c] = pmul(acc[r][c], s);
      pstoreu(l + i0 + r * P + (j0 + c) * ldl, acc[r][c]);
    }
  }
}

/// In place: L (lower triangle of l) with L L^T = M (lower triangle of m), n x n column-major
/// arrays, blocked left-looking: the gaxpy Cholesky (Golub & Van Loan, Matrix Computations,
/// 4th ed., Alg. 4.2.2) by panels of columns. The columns go in panels of eight that end
/// at column n - 1 (the first panel holds the n mod 8 left over; it needs no update). Per panel
/// from column j0:
/// - its diagonal block's rank-j0 update (cholesky_panel_update, into a local block), then its
///   factor by the unrolled kernel;
/// - the rows below in tiles of whole SIMD packets (the rows left are a multiple of eight):
///   rank-j0 update and triangular solve in registers, each entry of L stored once.
/// Each entry subtracts its products in the order of k, as the unblocked forms do; ~n^3 / 6
/// multiply-adds, in packets.
template <typename Scalar>
inline void cholesky_factor_blocked(const Scalar* m, const Eigen::Index ldm, Scalar* l,
                                    const Eigen::Index ldl, const Eigen::Index n) noexcept {
  using namespace Eigen::internal;
  using Packet = CholeskyPacket<Scalar>;
  constexpr int P = unpacket_traits<Packet>::size;
  constexpr int R = cholesky_tile_packets<Scalar>();
  constexpr int B = kCholeskyPanel;
  static_assert(B % P == 0, "a diagonal block is whole packets");
  if (n <= 0) return;
  if (n <= B) {  // one diagonal block
    with_block_size(n, [&](auto size) CHAINDYN_ALWAYS_INLINE {
      Scalar inv[decltype(size)::value];
      cholesky_factor_unrolled<decltype(size)::value>(m, ldm, l, ldl, inv);
    });
    return;
  }
  const Eigen::Index first = n % B;
  if (first > 0) {  // the first panel: no update; its rows below by columns (axpys)
    with_block_size(first, [&](auto size) CHAINDYN_ALWAYS_INLINE {
      constexpr int F = decltype(size)::value;
      Scalar inv[F];
      cholesky_factor_unrolled<F>(m, ldm, l, ldl, inv);
      for (int c = 0; c < F; ++c) {
        Scalar* const lc = l + c * ldl;
        const Scalar* const mc = m + c * ldm;
        for (Eigen::Index i = F; i < n; ++i) lc[i] = mc[i];
        for (int cp = 0; cp < c; ++cp) {
          const Scalar* const lcp = l + cp * ldl;
          const Scalar s = lcp[c];
          for (Eigen::Index i = F; i < n; ++i) lc[i] -= lcp[i] * s;
        }
        for (Eigen::Index i = F; i < n; ++i) lc[i] *= inv[c];
      }
    });
  }
  for (Eigen::Index j0 = first; j0 < n; j0 += B) {
    Scalar block[B * B];  // the diagonal block after the update (column-major; lower used)
    Scalar inv[B];
    CHAINDYN_UNROLL_16
    for (int r = 0; r < B / P; ++r) {
      Packet acc[1][B];
      cholesky_panel_update<1>(acc, m, ldm, l, ldl, j0 + r * P, j0);
      CHAINDYN_UNROLL_16
      for (int c = 0; c < B; ++c) pstoreu(block + r * P + c * B, acc[0][c]);
    }
    cholesky_factor_unrolled<B>(block, B, l + j0 + j0 * ldl, ldl, inv);
    Eigen::Index i = j0 + B;
    if constexpr (R > 1) {
      for (; i + R * P <= n; i += R * P) cholesky_panel_rows<R, Packet>(m, ldm, l, ldl, i, j0, inv);
    }
    for (; i < n; i += P) cholesky_panel_rows<1, Packet>(m, ldm, l, ldl, i, j0, inv);
  }
}

/// In place: x := (L L^T)^-1 x, L the lower triangle of the n x n column-major l, by blocks of
/// rows with cholesky_factor_blocked's boundaries:
/// - forward, block by block from the first: x_b -= L(b, 0 ... b0 - 1) x(0 ... b0 - 1) (packets
///   of rows, one multiply-add per column), then the block's unrolled forward substitution;
/// - back, from the last block: x_b -= L(b1 ... n - 1, b)^T x(b1 ... n - 1) (eight dot
///   products down contiguous columns, in packets), then the block's unrolled back
///   substitution.
template <typename Scalar>
inline void cholesky_solve_blocked(const Scalar* l, const Eigen::Index ld, Scalar* x,
                                   const Eigen::Index n) noexcept {
  using namespace Eigen::internal;
  using Packet = CholeskyPacket<Scalar>;
  constexpr int P = unpacket_traits<Packet>::size;
  constexpr int B = kCholeskyPanel;
  if (n <= 0) return;
  if (n <= B) {  // one diagonal block: each pivot inverted once for both substitutions
    with_block_size(n, [&](auto size) CHAINDYN_ALWAYS_INLINE {
      Scalar inv[decltype(size)::value];
      cholesky_forward_unrolled<decltype(size)::value>(l, ld, x, inv);
      cholesky_back_unrolled<decltype(size)::value>(l, ld, x, inv);
    });
    return;
  }
  const Eigen::Index first = n % B;
  if (first > 0) {
    with_block_size(first, [&](auto size) CHAINDYN_ALWAYS_INLINE {
      constexpr int F = decltype(size)::value;
      Scalar inv[F];
      cholesky_forward_unrolled<F>(l, ld, x, inv);
    });
  }
  for (Eigen::Index b0 = first; b0 < n; b0 += B) {
    Packet acc[B / P];
    CHAINDYN_UNROLL_16
    for (int r = 0; r < B / P; ++r) acc[r] = ploadu<Packet>(x + b0 + r * P);
    for (Eigen::Index k = 0; k < b0; ++k) {
      const Scalar* const lk = l + k * ld;
      const Packet xk = pset1<Packet>(-x[k]);
      CHAINDYN_UNROLL_16
      for (int r = 0; r < B / P; ++r) acc[r] = pmadd(ploadu<Packet>(lk + b0 + r * P), xk, acc[r]);
    }
    CHAINDYN_UNROLL_16
    for (int r = 0; r < B / P; ++r) pstoreu(x + b0 + r * P, acc[r]);
    Scalar inv[B];
    cholesky_forward_unrolled<B>(l + b0 + b0 * ld, ld, x + b0, inv);
  }
  for (Eigen::Index b0 = n - B; b0 >= first; b0 -= B) {
    Packet acc[B];
    CHAINDYN_UNROLL_16
    for (int c = 0; c < B; ++c) acc[c] = pset1<Packet>(Scalar(0));
    for (Eigen::Index i = b0 + B; i < n; i += P) {
      const Packet xi = ploadu<Packet>(x + i);
      CHAINDYN_UNROLL_16
      for (int c = 0; c < B; ++c) acc[c] = pmadd(ploadu<Packet>(l + i + (b0 + c) * ld), xi, acc[c]);
    }
    Scalar inv[B];
    CHAINDYN_UNROLL_16
    for (int c = 0; c < B; ++c) {
      Scalar lanes[P];  // the packet's sum lane by lane (g++ 12 warns falsely inside predux's
      pstoreu(lanes, acc[c]);  // AVX-512 intrinsics under -march=native)
      Scalar sum = lanes[0];
      CHAINDYN_UNROLL_16
      for (int p = 1; p < P; ++p) sum += lanes[p];
      x[b0 + c] -= sum;
      inv[c] = Scalar(1) / l[b0 + c + (b0 + c) * ld];
    }
    cholesky_back_unrolled<B>(l + b0 + b0 * ld, ld, x + b0, inv);
  }
  if (first > 0) {
    with_block_size(first, [&](auto size) CHAINDYN_ALWAYS_INLINE {
      constexpr int F = decltype(size)::value;
      Scalar inv[F];
      CHAINDYN_UNROLL_16
      for (int c = 0; c < F; ++c) {
        Scalar s(0);
        for (Eigen::Index i = F; i < n; ++i) s += l[i + c * ld] * x[i];
        x[c] -= s;
        inv[c] = Scalar(1) / l[c + c * ld];
      }
      cholesky_back_unrolled<F>(l, ld, x, inv);
    });
  }
}

/// Whether the blocked kernels serve Scalar (Eigen has SIMD packets of it: float, double).
template <typename Scalar>
constexpr bool cholesky_blocked_scalar = Eigen::internal::packet_traits<Scalar>::Vectorizable;

/// The size up to which a chain known at compile time runs the unrolled kernels whole.
constexpr int kCholeskyUnrolledUpTo = 16;

/// In place: L (lower triangle) with L L^T = M for M symmetric positive definite. Reads only
/// M's lower triangle; writes only L's. Up to kCholeskyUnrolledUpTo joints known at compile
/// time: cholesky_factor_unrolled on the whole matrix; longer or run-time-sized chains:
/// cholesky_factor_blocked (a run-time size of at most 8 is its first panel alone: the
/// unrolled kernel of that size). Scalars without SIMD packets (AutoDiff): column by column,
/// left-looking (Golub & Van Loan, Alg. 4.2.2, gaxpy Cholesky).
template <typename Matrix>
void cholesky_factor(const Matrix& m, Matrix& l) noexcept {
  static_assert(!Matrix::IsRowMajor, "cholesky_factor walks columns of a column-major matrix");
  using std::sqrt;
  using Scalar = typename Matrix::Scalar;  // not auto: AutoDiffScalar's expressions differ in type
  constexpr int N = Matrix::RowsAtCompileTime;
  const Eigen::Index n = m.rows();
  if constexpr (N != Eigen::Dynamic && N <= kCholeskyUnrolledUpTo) {
    Scalar inv[N];
    cholesky_factor_unrolled<N>(m.data(), m.outerStride(), l.data(), l.outerStride(), inv);
  } else if constexpr (cholesky_blocked_scalar<Scalar>) {
    cholesky_factor_blocked(m.data(), m.outerStride(), l.data(), l.outerStride(), n);
  } else {
    for (Eigen::Index j = 0; j < n; ++j) {
      Scalar* const cj = &l(0, j);
      for (Eigen::Index i = j; i < n; ++i) cj[i] = m(i, j);
      for (Eigen::Index k = 0; k < j; ++k) {
        const Scalar* const ck = &l(0, k);
        const Scalar ljk = ck[j];
        for (Eigen::Index i = j; i < n; ++i) cj[i] -= ck[i] * ljk;
      }
      const Scalar d = sqrt(cj[j]);
      const Scalar inv_d = Scalar(1) / d;
      cj[j] = d;
      for (Eigen::Index i = j + 1; i < n; ++i) cj[i] *= inv_d;
    }
  }
}

/// In place: x := (L L^T)^-1 x by forward and back substitution, L the lower triangle of
/// cholesky_factor's l: unrolled whole up to kCholeskyUnrolledUpTo joints known at compile time
/// (each pivot inverted once for both substitutions: n divisions instead of 2n), blocked
/// (cholesky_solve_blocked) beyond and at run-time sizes; scalars without SIMD packets row by
/// row.
template <typename Matrix, typename Vector>
void cholesky_solve(const Matrix& l, Vector& x) noexcept {
  using Scalar = typename Matrix::Scalar;
  constexpr int N = Matrix::RowsAtCompileTime;
  const Eigen::Index n = l.rows();
  if constexpr (N != Eigen::Dynamic && N <= kCholeskyUnrolledUpTo) {
    Scalar inv[N];
    cholesky_forward_unrolled<N>(l.data(), l.outerStride(), x.data(), inv);
    cholesky_back_unrolled<N>(l.data(), l.outerStride(), x.data(), inv);
  } else if constexpr (cholesky_blocked_scalar<Scalar>) {
    cholesky_solve_blocked(l.data(), l.outerStride(), x.data(), n);
  } else {
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index k = 0; k < i; ++k) x[i] -= l(i, k) * x[k];
      x[i] /= l(i, i);
    }
    for (Eigen::Index i = n; i-- > 0;) {
      for (Eigen::Index k = i + 1; k < n; ++k) x[i] -= l(k, i) * x[k];
      x[i] /= l(i, i);
    }
  }
}

}  // namespace chaindyn::detail
