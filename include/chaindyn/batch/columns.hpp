/// @file
/// Columns of a batch matrix in and out of packs: gather (W columns into the lanes of a pack
/// vector), scatter and scatter_matrices (lanes back into columns), and the size check of a
/// batch argument.
#pragma once

#include "chaindyn/batch/pack.hpp"
#include "chaindyn/error.hpp"
#include "chaindyn/model/per_link.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

namespace chaindyn::batch::detail {

/// True if X's coefficients are in memory at X.data() + row * rowStride() + col * colStride()
/// (a Matrix, a Map, a Block of either: Eigen's DirectAccessBit).
template <typename Derived>
inline constexpr bool has_direct_access = (int(Derived::Flags) & Eigen::DirectAccessBit) != 0;

#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
/// The pack {p[0], p[stride], ..., p[(W-1) stride]}, built in a register (one load and W-1
/// inserts or shuffles, no trip through memory).
template <int W, std::size_t... L>
inline CHAINDYN_ALWAYS_INLINE Pack<W> load_strided(const double* p, Eigen::Index stride,
                                            std::index_sequence<L...>) noexcept {
  return Pack<W>(typename Pack<W>::Native{p[Eigen::Index(L) * stride]...});
}
/// Stores the W lanes of v at p[0], p[stride], ..., p[(W-1) stride].
template <int W>
inline CHAINDYN_ALWAYS_INLINE void store_strided(const Pack<W>& v, double* p,
                                          Eigen::Index stride) noexcept {
  for (int l = 0; l < W; ++l) p[l * stride] = v.v[l];
}
#endif

/// Loads columns first .. first+count-1 (count <= W) of X into the lanes of a pack vector; the
/// lanes past count repeat the last column (valid numbers, results ignored).
///
/// A full pack (count == W) of an X with direct access (a Matrix, a Map, a Block) builds each
/// pack in a register from W strided loads (load_strided): the generic path, which a short
/// pack and any other Eigen expression take, fills an array of W doubles and copies it into
/// the pack with one memcpy (inserting lane by lane into a vector in memory makes clang++ write
/// the whole vector back per lane), and its char-typed stores may alias anything, so the
/// matrix's data pointer is reloaded for every lane: the register path avoids both.
template <typename P, int R, typename Derived>
inline void gather(const Eigen::MatrixBase<Derived>& x, Eigen::Index first, int count,
                   Eigen::Matrix<P, R, 1>& out) noexcept {
  constexpr int W = lanes_of<P>;
#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
  if constexpr (W > 1 && has_direct_access<Derived>) {
    if (count == W) {
      const Eigen::Index rs = x.derived().rowStride(), cs = x.derived().colStride();
      const double* base = x.derived().data() + first * cs;
      for (Eigen::Index k = 0; k < out.rows(); ++k) {
        out[k] = load_strided<W>(base + k * rs, cs, std::make_index_sequence<std::size_t(W)>());
      }
      return;
    }
  }
#endif
  Eigen::Index cols[W];
  for (int l = 0; l < W; ++l) cols[l] = first + std::min(l, count - 1);
  for (Eigen::Index k = 0; k < out.rows(); ++k) {
    double lanes[W];
    for (int l = 0; l < W; ++l) lanes[l] = x.derived().coeff(k, cols[l]);
    static_assert(sizeof(P) == sizeof lanes, "a pack is W doubles");
    std::memcpy(static_cast<void*>(&out[k]), lanes, sizeof lanes);
  }
}

/// Stores the first count lanes of a pack vector into columns first .. first+count-1 of X (a
/// full pack into an X with direct access: store_strided, as gather).
template <typename P, int R, typename Derived>
inline void scatter(const Eigen::Matrix<P, R, 1>& in, Eigen::Index first, int count,
                    Eigen::MatrixBase<Derived>& x) noexcept {
  constexpr int W = lanes_of<P>;
#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
  if constexpr (W > 1 && has_direct_access<Derived>) {
    if (count == W) {
      const Eigen::Index rs = x.derived().rowStride(), cs = x.derived().colStride();
      double* base = x.derived().data() + first * cs;
      for (Eigen::Index k = 0; k < in.rows(); ++k) store_strided(in[k], base + k * rs, cs);
      return;
    }
  }
#endif
  for (Eigen::Index k = 0; k < in.rows(); ++k) {
    double lanes[W];
    std::memcpy(lanes, static_cast<const void*>(&in[k]), sizeof lanes);
    for (int l = 0; l < count; ++l) x.derived().coeffRef(k, first + l) = lanes[l];
  }
}

// The register transpose of scatter_matrices needs __builtin_shufflevector (clang++, g++ 12);
// without it the scatter stores lane by lane.
#if defined(CHAINDYN_BATCH_VECTOR_EXTENSIONS) && defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define CHAINDYN_DETAIL_SHUFFLEVECTOR 1
#endif
#endif

#ifdef CHAINDYN_DETAIL_SHUFFLEVECTOR
/// Transposes the W x W block of doubles held by W packs in place: afterwards r[l] holds lane
/// l of the W packs given, in their order (log2 W rounds of two-vector shuffles, as the
/// textbook register transpose).
template <int W>
inline CHAINDYN_ALWAYS_INLINE void transpose_packs(typename Pack<W>::Native (&r)[W]) noexcept {
  using V = typename Pack<W>::Native;
  if constexpr (W == 2) {
    const V t0 = __builtin_shufflevector(r[0], r[1], 0, 2);
    const V t1 = __builtin_shufflevector(r[0], r[1], 1, 3);
    r[0] = t0;
    r[1] = t1;
  } else if constexpr (W == 4) {
    V t[4];
    for (int i = 0; i < 4; i += 2) {  // pairs of rows, lanes interleaved one by one
      t[i] = __builtin_shufflevector(r[i], r[i + 1], 0, 4, 2, 6);
      t[i + 1] = __builtin_shufflevector(r[i], r[i + 1], 1, 5, 3, 7);
    }
    for (int i = 0; i < 2; ++i) {  // then two by two
      r[i] = __builtin_shufflevector(t[i], t[i + 2], 0, 1, 4, 5);
      r[i + 2] = __builtin_shufflevector(t[i], t[i + 2], 2, 3, 6, 7);
    }
  } else {
    static_assert(W == 8, "transpose_packs: 2, 4 or 8 lanes");
    V t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
      t[i] = __builtin_shufflevector(r[i], r[i + 1], 0, 8, 2, 10, 4, 12, 6, 14);
      t[i + 1] = __builtin_shufflevector(r[i], r[i + 1], 1, 9, 3, 11, 5, 13, 7, 15);
    }
    for (int i : {0, 1, 4, 5}) {
      u[i] = __builtin_shufflevector(t[i], t[i + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      u[i + 2] = __builtin_shufflevector(t[i], t[i + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    }
    for (int i = 0; i < 4; ++i) {
      r[i] = __builtin_shufflevector(u[i], u[i + 4], 0, 1, 2, 3, 8, 9, 10, 11);
      r[i + 4] = __builtin_shufflevector(u[i], u[i + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
  }
}
#endif

/// Stores lane l of each of count states' R x C pack matrix into X's columns, state s's
/// matrix at columns (first + s) * C .. (first + s) * C + C - 1 (the batch layout of matrices;
/// a full pack into an X with direct access: store_strided, as gather).
template <typename P, int R, int C, typename Derived>
inline void scatter_matrices(const Eigen::Matrix<P, R, C>& in, Eigen::Index first, int count,
                             Eigen::MatrixBase<Derived>& x) noexcept {
  constexpr int W = lanes_of<P>;
  const Eigen::Index cols = in.cols();
#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
  if constexpr (W > 1 && has_direct_access<Derived>) {
    const Eigen::Index rs = x.derived().rowStride(), cs = x.derived().colStride();
    double* base = x.derived().data() + first * cols * cs;
#ifdef CHAINDYN_DETAIL_SHUFFLEVECTOR
    if constexpr (W == 2 || W == 4 || W == 8) {
      if (count == W && rs == 1) {
        // each column of a state's matrix is contiguous: W rows of the W states at a time, the
        // W x W block transposed in registers, then one run of rows per state. The runs have a
        // length known at compile time (a ChainX's of up to 8 rows by with_small_size): with a
        // run-time length the copies' calls cost more than the transposes save.
        using V = typename P::Native;
        const auto columns = [&](auto row_count) CHAINDYN_ALWAYS_INLINE {
          constexpr int n = int(decltype(row_count)::value);
          const auto run = [&](const Eigen::Index j, const int k0, auto length)
                               CHAINDYN_ALWAYS_INLINE {
            constexpr int m = decltype(length)::value;  // rows k0 .. k0 + m - 1, m <= W
            V r[W];
            for (int i = 0; i < W; ++i) r[i] = i < m ? in(k0 + i, j).v : V{};
            transpose_packs<W>(r);
            for (int l = 0; l < W; ++l) {
              std::memcpy(base + (Eigen::Index(l) * cols + j) * cs + k0, &r[l],
                          sizeof(double) * std::size_t(m));
            }
          };
          for (Eigen::Index j = 0; j < cols; ++j) {
            for (int k0 = 0; k0 + W <= n; k0 += W) run(j, k0, std::integral_constant<int, W>{});
            if constexpr (n % W != 0) run(j, n - n % W, std::integral_constant<int, n % W>{});
          }
        };
        if constexpr (R != Eigen::Dynamic) {
          columns(std::integral_constant<int, R>{});
          return;
        } else if (in.rows() <= 8) {
          chaindyn::detail::with_small_size(in.rows(), [&](auto rows) CHAINDYN_ALWAYS_INLINE {
            if constexpr (!std::is_same_v<decltype(rows), Eigen::Index>) columns(rows);
          });
          return;
        }
      }
    }
#endif
    if (count == W) {
      for (Eigen::Index j = 0; j < cols; ++j) {
        for (Eigen::Index k = 0; k < in.rows(); ++k) {
          store_strided(in(k, j), base + k * rs + j * cs, cols * cs);
        }
      }
      return;
    }
  }
#endif
  for (Eigen::Index j = 0; j < cols; ++j) {
    for (Eigen::Index k = 0; k < in.rows(); ++k) {
      double lanes[W];
      std::memcpy(lanes, static_cast<const void*>(&in(k, j)), sizeof lanes);
      for (int l = 0; l < count; ++l) x.derived().coeffRef(k, (first + l) * cols + j) = lanes[l];
    }
  }
}

/// Checks a batch argument's size: rows x cols (throws ArgumentError naming both).
template <typename Derived>
void check_batch_size(const Eigen::MatrixBase<Derived>& x, Eigen::Index rows, Eigen::Index cols,
                      const char* function, const char* name) {
  if (x.rows() != rows || x.cols() != cols) {
    chaindyn::detail::throw_error<ArgumentError>(
        "batch::", function, ": ", name, " is ", x.rows(), " x ", x.cols(), "; expected ", rows,
        " x ", cols, " (one column per state", rows == x.rows() ? "" : ", one row per joint", ")");
  }
}

}  // namespace chaindyn::batch::detail
