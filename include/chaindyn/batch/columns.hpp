/// @file
/// Columns of a batch matrix in and out of packs: gather (W columns into the lanes of a pack
/// vector), scatter and scatter_matrices (lanes back into columns), and the size check of a
/// batch argument.
#pragma once

#include "chaindyn/batch/pack.hpp"
#include "chaindyn/error.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
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
    if (count == W) {
      const Eigen::Index rs = x.derived().rowStride(), cs = x.derived().colStride();
      double* base = x.derived().data() + first * cols * cs;
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
