/// @file
/// The topology of a model: each joint's parent, the support of a link (the joints on its
/// path to the base) and the questions the algorithms ask about it. The algorithms walk
/// parents, never i - 1: a serial chain is the tree whose parents are i - 1, and its topology
/// answers with constant expressions, so that a chain's generated code is that of a loop over
/// i - 1 (docs/trees.md).
///
/// Joint order: parents before children (parent(i) < i). Walking the joints by increasing
/// index therefore visits every parent before its children (the forward passes of RNEA, ABA,
/// forward kinematics) and by decreasing index every child before its parent (the backward
/// passes), on a chain and on a tree alike (RBDA sec. 4.1.2, the regular numbering).
#pragma once

#include "chaindyn/config.hpp"
#include "chaindyn/error.hpp"

#include <array>
#include <cstddef>
#include <vector>

namespace chaindyn {

/// The parent of a joint attached to the base (a root of the tree): no joint.
inline constexpr std::size_t no_parent = std::size_t(-1);

/// A tree's parent list at compile time, one entry per joint in joint order: the index of the
/// joint's parent, -1 for a joint on the base. `Parents<-1, 0, 1, 1>`: joint 0 on the base,
/// 1 after 0, then two branches (2 and 3) from 1. Each parent comes before its children
/// (P_i < i, checked at compile time).
template <int... P>
struct Parents {
  static constexpr std::size_t size = sizeof...(P);
  static constexpr std::array<int, sizeof...(P)> value{P...};
  /// True when every P_i is i - 1: the tree is a serial chain.
  static constexpr bool chain() {
    for (std::size_t i = 0; i < size; ++i) {
      if (value[i] != int(i) - 1) return false;
    }
    return true;
  }
  /// True when every P_i is -1 or an earlier joint.
  static constexpr bool ordered() {
    for (std::size_t i = 0; i < size; ++i) {
      if (value[i] < -1 || value[i] >= int(i)) return false;
    }
    return true;
  }
};

namespace detail {

/// The topology of a serial chain: joint i's parent is joint i - 1, joint 0's the base. Every
/// answer is a constant expression in i.
class SerialTopology {
 public:
  /// True: every joint but the last has exactly one child, the next one.
  static constexpr bool serial = true;
  /// The parent of joint i (i - 1), no_parent for joint 0.
  static constexpr CHAINDYN_ALWAYS_INLINE std::size_t parent(std::size_t i) noexcept { return i - 1; }
  /// True when joint i is attached to the base.
  static constexpr CHAINDYN_ALWAYS_INLINE bool is_root(std::size_t i) noexcept { return i == 0; }
  /// True when joint j is on link i's path to the base, i itself included (j supports i).
  static constexpr CHAINDYN_ALWAYS_INLINE bool supports(std::size_t j, std::size_t i) noexcept { return j <= i; }
};

/// The questions a tree's topology answers, from its parent(i) (Derived: CRTP).
template <typename Derived>
class TreeTopologyBase {
 public:
  static constexpr bool serial = false;
  CHAINDYN_ALWAYS_INLINE bool is_root(std::size_t i) const noexcept {
    return self().parent(i) == no_parent;
  }
  /// True when joint j is on link i's path to the base, i itself included: walks i's parents
  /// down to j (parents come before children, so the walk stops at the first index <= j).
  CHAINDYN_ALWAYS_INLINE bool supports(std::size_t j, std::size_t i) const noexcept {
    while (i != no_parent && i > j) i = self().parent(i);
    return i == j;
  }

 private:
  CHAINDYN_ALWAYS_INLINE const Derived& self() const noexcept {
    return static_cast<const Derived&>(*this);
  }
};

/// The topology of a tree whose parents are in its type (Tree<Scalar, Parents<...>, ...>).
template <typename P>
class StaticTreeTopology : public TreeTopologyBase<StaticTreeTopology<P>> {
  static_assert(P::ordered(),
                "Parents<...>: each joint's parent must be -1 (the base) or an earlier joint "
                "(parents before children)");

 public:
  static constexpr CHAINDYN_ALWAYS_INLINE std::size_t parent(std::size_t i) noexcept {
    return P::value[i] < 0 ? no_parent : std::size_t(P::value[i]);
  }
};

/// The topology of a tree whose parents are given at run time (TreeX): checked when it is made.
class DynamicTreeTopology : public TreeTopologyBase<DynamicTreeTopology> {
 public:
  DynamicTreeTopology() = default;
  /// parents[i]: joint i's parent, or no_parent (or -1 converted) for a joint on the base.
  /// Throws ModelError unless each parent comes before its child.
  explicit DynamicTreeTopology(std::vector<std::size_t> parents) : parents_(std::move(parents)) {
    for (std::size_t i = 0; i < parents_.size(); ++i) {
      if (parents_[i] != no_parent && parents_[i] >= i) {
        throw_model_error("joint ", i, "'s parent is joint ", parents_[i],
                          ": each joint's parent must come before it (parents before children; "
                          "no_parent for a joint on the base)");
      }
    }
  }
  CHAINDYN_ALWAYS_INLINE std::size_t parent(std::size_t i) const noexcept { return parents_[i]; }
  /// Every joint's parent, in joint order.
  const std::vector<std::size_t>& parents() const noexcept { return parents_; }

 private:
  std::vector<std::size_t> parents_;
};

}  // namespace detail
}  // namespace chaindyn
