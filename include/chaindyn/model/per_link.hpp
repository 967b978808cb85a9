/// @file
/// Per-link storage: std::array for a chain whose joint count N is known at compile time,
/// std::vector (sized once, when the chain or its workspace is made) for N = Eigen::Dynamic
/// (ChainX).
#pragma once

#include <Eigen/Core>

#include <array>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace chaindyn {

/// One T per link of a chain of N joints (N = Eigen::Dynamic: a std::vector).
template <typename T, int N>
using PerLinkArray =
    std::conditional_t<N == Eigen::Dynamic, std::vector<T>, std::array<T, std::size_t(N)>>;

namespace detail {

/// Sizes per-link storage: resizes a std::vector; a std::array's size is its type's.
template <typename T>
void resize_per_link(std::vector<T>& v, std::size_t n) {
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

}  // namespace detail
}  // namespace chaindyn
