/// @file
/// Per-link storage: std::array for a chain whose joint count N is known at compile time,
/// std::vector (sized once, when the chain or its workspace is made) for N = Eigen::Dynamic
/// (ChainX). The workspaces (Data, DerivativesData) and a chain's placements and inertias take
/// LineArray, whose run-time form puts a batch pack's spatial vectors on 64-byte boundaries.
#pragma once

#include "chaindyn/config.hpp"

#include <Eigen/Core>

#include <array>
#include <cstddef>
#include <new>
#include <type_traits>
#include <vector>

namespace chaindyn {

/// One T per link of a chain of N joints (N = Eigen::Dynamic: a std::vector).
template <typename T, int N>
using PerLinkArray =
    std::conditional_t<N == Eigen::Dynamic, std::vector<T>, std::array<T, std::size_t(N)>>;

namespace detail {

/// The allocator of LineArray: a block of a T that fills whole 64-byte cache lines (a batch
/// pack's spatial vectors and transforms) starts on a 64-byte boundary, so that every T in it
/// does; of any other T where std::allocator puts it (at alignof(T)).
template <typename T>
struct LineAllocator {
  using value_type = T;
  static constexpr std::size_t kAlignment =
      sizeof(T) % 64 == 0 && alignof(T) < 64 ? 64 : alignof(T);

  LineAllocator() noexcept = default;
  template <typename U>
  LineAllocator(const LineAllocator<U>&) noexcept {}  // NOLINT: rebinding is implicit

  T* allocate(std::size_t n) {
    if constexpr (kAlignment > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
      return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(kAlignment)));
    } else {
      return static_cast<T*>(::operator new(n * sizeof(T)));
    }
  }
  void deallocate(T* p, std::size_t) noexcept {
    if constexpr (kAlignment > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
      ::operator delete(p, std::align_val_t(kAlignment));
    } else {
      ::operator delete(p);
    }
  }
  template <typename U>
  bool operator==(const LineAllocator<U>&) const noexcept {
    return true;
  }
  template <typename U>
  bool operator!=(const LineAllocator<U>&) const noexcept {
    return false;
  }
};

}  // namespace detail

/// PerLinkArray whose run-time form (a std::vector) puts a T of whole cache lines on cache
/// lines whatever T's alignment: where EIGEN_MAX_ALIGN_BYTES lowers the alignment of a batch
/// pack (16, to share Eigen objects with a library built so), Pack<8>'s 64 bytes would
/// otherwise straddle two lines at most addresses (docs/benchmarks.md, "LineArray"). Other T
/// are placed as a std::vector<T> places them.
template <typename T, int N>
using LineArray = std::conditional_t<N == Eigen::Dynamic, std::vector<T, detail::LineAllocator<T>>,
                                     std::array<T, std::size_t(N)>>;

namespace detail {

/// Sizes per-link storage: resizes a std::vector; a std::array's size is its type's.
template <typename T, typename Allocator>
void resize_per_link(std::vector<T, Allocator>& v, std::size_t n) {
  v.resize(n);
}
template <typename T, std::size_t N>
void resize_per_link(std::array<T, N>&, std::size_t) noexcept {}

/// The number of joints of a model: Model::nq, or the run-time count of a ChainX.
template <typename Model>
std::size_t joint_count(const Model& model) noexcept {
  if constexpr (Model::nq == Eigen::Dynamic) {
    return model.joint_count();
  } else {
    return std::size_t(Model::nq);
  }
}

/// f(m), m equal to n: a std::integral_constant for n <= 8 (every arm; one switch), n itself
/// above. Loops over a ChainX's joints with a constant count, which the compilers unroll: the
/// copies between its n x n matrices and the padded right-hand sides of aba_derivatives' solve
/// (with a run-time n, which the compilers vectorise for long columns, a 7-joint ChainX's
/// aba_derivatives took ~0.1 us more with clang++), and the batch's scatter of its matrices
/// (docs/benchmarks.md, "Measurements behind the code").
template <typename F>
inline CHAINDYN_ALWAYS_INLINE void with_small_size(const Eigen::Index n, F&& f) noexcept {
  using I = Eigen::Index;
  switch (n) {
    case 1: return f(std::integral_constant<I, 1>{});
    case 2: return f(std::integral_constant<I, 2>{});
    case 3: return f(std::integral_constant<I, 3>{});
    case 4: return f(std::integral_constant<I, 4>{});
    case 5: return f(std::integral_constant<I, 5>{});
    case 6: return f(std::integral_constant<I, 6>{});
    case 7: return f(std::integral_constant<I, 7>{});
    case 8: return f(std::integral_constant<I, 8>{});
    default: return f(n);
  }
}

}  // namespace detail
}  // namespace chaindyn
