/// @file
/// The joint models of a chain, base to tip, and the walks the algorithms use to visit them:
/// joints_forward / joints_backward hand each joint's index and model (base to tip / tip to
/// base), ancestors_backward(i, ...) the joints between joint i and the base, nearest first.
/// (The walks that hand only the index, indices_forward / indices_backward, are the storage's:
/// model/chain_storage.hpp.) The parents the walks follow are the model's topology
/// (model/topology.hpp), which JointWalks inherits.
#pragma once

#include "chaindyn/config.hpp"
#include "chaindyn/model/topology.hpp"

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace chaindyn {

/// Tag for a walk whose per-joint body is large (ABA's first pass, the derivatives'): the
/// chain runs it as one loop body wherever its joints share a type, where the plain walk may
/// unroll (`model.joints_forward(large_body, f)`).
struct LargeBody {
  explicit LargeBody() = default;
};
inline constexpr LargeBody large_body{};

/// Tag for a walk whose per-joint body loops over the joints past the current one (crba's
/// columns, tip to base): folded wherever the chain's type allows it (a ChainN of up to 8
/// joints with the axis in the type), even where the plain walk loops, so that those loops
/// have compile-time trip counts (`model.joints_backward(column_loops, f)`).
struct ColumnLoops {
  explicit ColumnLoops() = default;
};
inline constexpr ColumnLoops column_loops{};

namespace detail {

/// The number of joint models a storage holds at compile time (0 for a std::vector).
template <typename Models>
struct static_joint_count : std::integral_constant<std::size_t, 0> {};
template <typename... M>
struct static_joint_count<std::tuple<M...>> : std::integral_constant<std::size_t, sizeof...(M)> {};
template <typename M, std::size_t N>
struct static_joint_count<std::array<M, N>> : std::integral_constant<std::size_t, N> {};

template <typename Models>
struct is_joint_tuple : std::false_type {};
template <typename... M>
struct is_joint_tuple<std::tuple<M...>> : std::true_type {};

/// The joint models of a chain and the walks over them, written once for every chain type.
/// `Models`: a std::tuple (Chain: joints of different types), a std::array (ChainN) or a
/// std::vector (ChainX). `Unrolled`: the walks are fold expressions over the joints, the index
/// handed as a std::integral_constant (a compile-time link index in each step), instead of
/// loops, the index a std::size_t. A tuple is always walked unrolled (its joints have no
/// common type); a vector never. `Topology`: the parents (model/topology.hpp).
/// `UnrolledColumns`: the same for the walks tagged ColumnLoops.
template <typename Models, bool Unrolled, typename Topology = SerialTopology,
          bool UnrolledColumns = Unrolled>
class JointWalks : public Topology {
  static constexpr bool tuple = is_joint_tuple<Models>::value;
  static_assert(!tuple || Unrolled, "a tuple of joints is walked unrolled");
  /// The joint count if the storage fixes it (std::tuple, std::array), else 0 (std::vector).
  static constexpr std::size_t fixed_count = static_joint_count<Models>::value;
  using Sequence = std::make_index_sequence<fixed_count>;

 public:
  /// Calls f(i, joint_model) for i = 0 .. n-1 (base to tip).
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void joints_forward(F&& f) const {
    if constexpr (Unrolled) {
      fold_forward(f, Sequence{});
    } else {
      loop_forward(f);
    }
  }
  /// Calls f(i, joint_model) for i = n-1 .. 0 (tip to base).
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void joints_backward(F&& f) const {
    if constexpr (Unrolled) {
      fold_backward(f, Sequence{});
    } else {
      loop_backward(f);
    }
  }
  /// The same walks for a large per-joint body: one loop body wherever the joints share a
  /// type (so that several unrolled copies of, say, ABA's step do not crowd the instruction
  /// cache); unrolled only for a Chain, whose joints cannot share a loop body.
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void joints_forward(LargeBody, F&& f) const {
    if constexpr (tuple) {
      fold_forward(f, Sequence{});
    } else {
      loop_forward(f);
    }
  }
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void joints_backward(LargeBody, F&& f) const {
    if constexpr (tuple) {
      fold_backward(f, Sequence{});
    } else {
      loop_backward(f);
    }
  }
  /// The walk tip to base for a body that loops over the joints past the current one.
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void joints_backward(ColumnLoops, F&& f) const {
    if constexpr (UnrolledColumns) {
      fold_backward(f, Sequence{});
    } else {
      loop_backward(f);
    }
  }
  /// Calls f(j, joint_model) for the ancestors j of joint i, nearest first (on a chain
  /// j = i-1 .. 0).
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void ancestors_backward(std::size_t i, F&& f) const {
    if constexpr (Unrolled) {
      joints_backward([&](const std::size_t j, const auto& joint) CHAINDYN_ALWAYS_INLINE {
        if constexpr (Topology::serial) {
          if (j < i) f(j, joint);
        } else {
          if (j < i && this->supports(j, i)) f(j, joint);
        }
      });
    } else if constexpr (Topology::serial) {
      for (std::size_t j = i; j-- > 0;) f(j, joints_[j]);
    } else {
      for (std::size_t j = this->parent(i); j != no_parent; j = this->parent(j)) f(j, joints_[j]);
    }
  }

 protected:
  JointWalks() = default;
  explicit JointWalks(Models models) : joints_(std::move(models)) {}
  template <typename... TopologyArgs>
  JointWalks(Models models, TopologyArgs&&... topology)
      : Topology(std::forward<TopologyArgs>(topology)...), joints_(std::move(models)) {}

  Models joints_;

 private:
  template <typename F, std::size_t... I>
  CHAINDYN_ALWAYS_INLINE void fold_forward(F& f, std::index_sequence<I...>) const {
    if constexpr (tuple) {
      (f(std::integral_constant<std::size_t, I>{}, std::get<I>(joints_)), ...);
    } else {
      (f(std::integral_constant<std::size_t, I>{}, joints_[I]), ...);
    }
  }
  template <typename F, std::size_t... I>
  CHAINDYN_ALWAYS_INLINE void fold_backward(F& f, std::index_sequence<I...>) const {
    constexpr std::size_t last = sizeof...(I) - 1;
    if constexpr (tuple) {
      (f(std::integral_constant<std::size_t, last - I>{}, std::get<last - I>(joints_)), ...);
    } else {
      (f(std::integral_constant<std::size_t, last - I>{}, joints_[last - I]), ...);
    }
  }
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void loop_forward(F& f) const {
    if constexpr (fixed_count > 0) {
      for (std::size_t i = 0; i < fixed_count; ++i) f(i, joints_[i]);
    } else {
      const std::size_t n = joints_.size();
      for (std::size_t i = 0; i < n; ++i) f(i, joints_[i]);
    }
  }
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void loop_backward(F& f) const {
    if constexpr (fixed_count > 0) {
      for (std::size_t i = fixed_count; i-- > 0;) f(i, joints_[i]);
    } else {
      for (std::size_t i = joints_.size(); i-- > 0;) f(i, joints_[i]);
    }
  }
};

}  // namespace detail
}  // namespace chaindyn
