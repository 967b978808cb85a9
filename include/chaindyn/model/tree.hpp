/// @file
/// Kinematic trees: Tree<Scalar, Parents<...>, Joints...> (parents and joint types at compile
/// time) and TreeX<Scalar> (parents and joint kinds at run time). Every algorithm of the
/// library runs on them through the code that runs on the chains (model/topology.hpp): a chain
/// is the tree whose parents are i - 1. docs/trees.md.
#pragma once

#include "chaindyn/model/chain.hpp"
#include "chaindyn/model/topology.hpp"

#include <array>
#include <initializer_list>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace chaindyn {

namespace detail {
/// A Tree's topology: the chain's (constant expressions) when every parent is i - 1.
template <typename P>
using TreeTopologyOf = std::conditional_t<P::chain(), SerialTopology, StaticTreeTopology<P>>;
}  // namespace detail

template <typename Scalar, typename P, typename... Joints>
class Tree;

/// A kinematic tree of sizeof...(Joints) joints of the given types, in joint order (parents
/// before children), with joint i's parent P_i (Parents<...>, model/topology.hpp; -1: the
/// base). Link i is the body joint i moves; its placement is the pose of joint i's frame in
/// its parent link's frame (in the base frame for a joint on the base).
///
///     // a torso joint and two arms of two joints each on it
///     using Robot = Tree<double, Parents<-1, 0, 1, 0, 3>, RevoluteZ, RevoluteY, RevoluteY,
///                        RevoluteY, RevoluteY>;
///     Robot robot({torso, l_shoulder, l_elbow, r_shoulder, r_elbow});   // ModelError on bad input
///
/// Walked like Chain (folds over the joint types). With every P_i = i - 1 it is a chain, and
/// the algorithms run the chain's code.
template <typename Scalar, int... P, typename... Joints>
class Tree<Scalar, Parents<P...>, Joints...>
    : public detail::ChainBase<Scalar, int(sizeof...(Joints))>,
      public detail::JointWalks<std::tuple<typename Joints::template model<Scalar>...>, true,
                                detail::TreeTopologyOf<Parents<P...>>> {
  using Base = detail::ChainBase<Scalar, int(sizeof...(Joints))>;
  using Walks = detail::JointWalks<std::tuple<typename Joints::template model<Scalar>...>, true,
                                   detail::TreeTopologyOf<Parents<P...>>>;
  static_assert(sizeof...(P) == sizeof...(Joints), "Tree: one parent per joint");

 public:
  using Base::nq;
  using JointModels = std::tuple<typename Joints::template model<Scalar>...>;
  static_assert((detail::check_joint_model<typename Joints::template model<Scalar>, Scalar>() && ...));

  /// Builds the tree from its links in joint order; throws ModelError on bad input (as Chain).
  explicit Tree(const std::array<Link<Scalar>, nq>& links,
                const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
                const ModelChecks& checks = ModelChecks{})
      : Base(links, gravity, checks), Walks(make_joints(std::make_index_sequence<nq>{})) {
    conform_placements(std::make_index_sequence<nq>{});
    this->check_regular(joint_slots(), *this);
  }
  explicit Tree(const std::vector<Link<Scalar>>& links,
                const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
                const ModelChecks& checks = ModelChecks{})
      : Tree(Base::to_array(links), gravity, checks) {}
  Tree(std::initializer_list<Link<Scalar>> links,
       const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
       const ModelChecks& checks = ModelChecks{})
      : Tree(std::vector<Link<Scalar>>(links), gravity, checks) {}

  /// The same tree in scalar NewScalar; see Chain::cast.
  template <typename NewScalar>
  Tree<NewScalar, Parents<P...>, Joints...> cast() const {
    return this->template converted<Tree<NewScalar, Parents<P...>, Joints...>>();
  }

  template <std::size_t I>
  const auto& joint() const noexcept {
    return std::get<I>(this->joints_);
  }

  /// Each joint's kind and fixed axis (or -1 for a run-time axis), in joint order.
  static constexpr std::array<JointSlot, std::size_t(nq)> joint_slots() {
    return {slot_of<typename Joints::template model<Scalar>>()...};
  }
  /// Every joint's parent (no_parent for a joint on the base), in joint order.
  static std::vector<std::size_t> parents() {
    return {(P < 0 ? no_parent : std::size_t(P))...};
  }

 private:
  template <std::size_t... I>
  void conform_placements(std::index_sequence<I...>) {
    (this->template conform_placement<std::tuple_element_t<I, JointModels>>(I), ...);
  }
  template <std::size_t... I>
  JointModels make_joints(std::index_sequence<I...>) const {
    return JointModels(typename Joints::template model<Scalar>(this->link(I).axis,
                                                                   this->where(I))...);
  }
};

/// A kinematic tree whose joint count, joint kinds and parents are known only at run time: the
/// tree form of ChainX (AnyJoint joints, dynamic-size vectors, the same checks of the in-place
/// forms' arguments). parents[i] is joint i's parent, no_parent for a joint on the base; each
/// parent comes before its children (ModelError otherwise).
///
///     TreeX<double> hand(links, kinds, {no_parent, 0, 1, 0, 3});
template <typename Scalar>
class TreeX : public detail::ChainBase<Scalar, Eigen::Dynamic>,
              public detail::JointWalks<std::vector<detail::AnyJointModel<Scalar>>, false,
                                        detail::DynamicTreeTopology> {
  using Base = detail::ChainBase<Scalar, Eigen::Dynamic>;
  using Walks = detail::JointWalks<std::vector<detail::AnyJointModel<Scalar>>, false,
                                   detail::DynamicTreeTopology>;

 public:
  using Base::nq;
  using JointModel = detail::AnyJointModel<Scalar>;

  /// Links in joint order, the kind of each joint (its axis: Link::axis) and each joint's
  /// parent. Throws ModelError for bad links (as ChainX), counts that differ, or a parent that
  /// does not come before its child.
  TreeX(const std::vector<Link<Scalar>>& links, const std::vector<JointKind>& kinds,
        const std::vector<std::size_t>& parents,
        const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
        const ModelChecks& checks = ModelChecks{})
      : Base(links, gravity, checks), Walks({}, checked_parents(links.size(), parents)) {
    if (kinds.size() != links.size()) {
      detail::throw_model_error("TreeX: ", links.size(), " links but ", kinds.size(),
                                " joint kinds given; one kind per link is expected");
    }
    this->joints_.reserve(links.size());
    for (std::size_t i = 0; i < links.size(); ++i) {
      this->joints_.emplace_back(kinds[i], this->link(i).axis, this->where(i));
      this->conform_runtime_placement(i, this->joints_[i]);
    }
    this->check_regular(joint_slots(), *this);
  }

  /// The same robot as a compile-time model (Chain, ChainN or Tree): links, kinds, parents,
  /// gravity, link frames, named frames and payloads (see ChainX::from).
  template <typename Fixed>
  static TreeX from(const Fixed& model) {
    static_assert(Fixed::nq != Eigen::Dynamic, "TreeX::from takes a compile-time model");
    static_assert(std::is_same_v<typename Fixed::Scalar, Scalar>,
                  "TreeX::from: cast the model to this scalar type first");
    const auto slots = Fixed::joint_slots();
    std::vector<Link<Scalar>> links(model.links().begin(), model.links().end());
    std::vector<JointKind> kinds;
    std::vector<std::size_t> parents;
    for (std::size_t i = 0; i < links.size(); ++i) {
      kinds.push_back(slots[i].kind);
      parents.push_back(model.parent(i));
      if (slots[i].axis >= 0) links[i].axis = Vector3<Scalar>::Unit(slots[i].axis);
      links[i].placement = model.placement(i);
    }
    TreeX out(links, kinds, parents, model.gravity(), model.checks());
    model.copy_frames_to(out);
    model.copy_payloads_to(out);
    return out;
  }

  /// The same tree in scalar NewScalar; see Chain::cast.
  template <typename NewScalar>
  TreeX<NewScalar> cast() const {
    std::vector<JointKind> kinds;
    for (const JointModel& j : this->joints_) kinds.push_back(j.kind());
    return this->template converted<TreeX<NewScalar>>(kinds, this->parents());
  }

  const JointModel& joint(std::size_t i) const noexcept { return this->joints_[i]; }

  /// Each joint's kind and axis slot (-1: every axis is given at run time), in joint order.
  std::vector<JointSlot> joint_slots() const {
    std::vector<JointSlot> out;
    for (const JointModel& j : this->joints_) out.push_back(j.slot());
    return out;
  }

 private:
  static std::vector<std::size_t> checked_parents(std::size_t n,
                                                  const std::vector<std::size_t>& parents) {
    if (parents.size() != n) {
      detail::throw_model_error("TreeX: ", n, " links but ", parents.size(),
                                " parents given; one parent per link is expected");
    }
    return parents;
  }
};

}  // namespace chaindyn
