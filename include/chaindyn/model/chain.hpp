/// @file
/// Serial chains: compile-time sized Chain<Scalar, Joints...> and ChainN<Scalar, N, Joint>,
/// and the runtime-sized ChainX<Scalar> (joint count and kinds from data). The header users
/// include for the chain types; the parts they are made of, one concern each:
///   model/chain_storage.hpp   links, placements, inertias, joint dynamics, gravity
///   model/link_frames.hpp     user vs internal link frames, named frames
///   model/chain_payloads.hpp  payloads (detail::ChainBase, every chain's base)
///   model/joint_walks.hpp     the joint models and the walks over them
/// (Links in another scalar type: model/scalar_cast.hpp.)
#pragma once

#include "chaindyn/joints/any_joint.hpp"
#include "chaindyn/joints/joint_model.hpp"
#include "chaindyn/joints/placed.hpp"
#include "chaindyn/joints/prismatic.hpp"
#include "chaindyn/joints/revolute.hpp"
#include "chaindyn/model/chain_payloads.hpp"
#include "chaindyn/model/joint_walks.hpp"

#include <array>
#include <initializer_list>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace chaindyn {

namespace detail {

/// ChainN's walks unroll up to this many joints: 8 for joints with the axis in their type, 4
/// for joints with a run-time axis (Revolute, Prismatic), whose per-joint step (a general
/// 3-vector axis where a fixed one has one component) is large enough that the loop runs
/// faster than the unrolled walk from 6 joints on, and 4 for joints whose link transforms take
/// a kernel chosen per link at run time (takes_axis_row: RevoluteZ), which an unrolled walk
/// compiles once per link and kernel (docs/benchmarks.md, "Compile time and code size").
/// column_unroll_limit: the same for the walks tagged ColumnLoops (clang++'s crba), whose loops
/// over the columns pay for the unrolled copies: 8 for RevoluteZ too.
template <typename JointModel>
inline constexpr int column_unroll_limit = JointModel::fixed_axis < 0 ? 4 : 8;
template <typename JointModel>
inline constexpr int unroll_limit =
    takes_axis_row<JointModel>() ? 4 : column_unroll_limit<JointModel>;

}  // namespace detail

/// A serial chain of sizeof...(Joints) joints of the given types, base to tip.
///
///     using Arm = Chain<double, RevoluteZ, RevoluteY, PrismaticX>;
///     Arm arm({link0, link1, link2});            // throws ModelError on bad input
///
/// The algorithms walk it with a fold over the joint types, so each joint's sparsity is known
/// at compile time. The model is never modified by an algorithm.
template <typename Scalar, typename... Joints>
class Chain : public detail::ChainBase<Scalar, int(sizeof...(Joints))>,
              public detail::JointWalks<std::tuple<typename Joints::template model<Scalar>...>,
                                        true> {
  using Base = detail::ChainBase<Scalar, int(sizeof...(Joints))>;
  using Walks =
      detail::JointWalks<std::tuple<typename Joints::template model<Scalar>...>, true>;

 public:
  using Base::nq;
  using JointModels = std::tuple<typename Joints::template model<Scalar>...>;
  static_assert((detail::check_joint_model<typename Joints::template model<Scalar>, Scalar>() && ...));

  /// Builds the chain from its links, base to tip; throws ModelError on bad input. `checks`
  /// (default: all) relaxes what is refused, for files loaded for kinematics or with inertias
  /// kept as written (ModelChecks, model/link.hpp).
  explicit Chain(const std::array<Link<Scalar>, nq>& links,
                 const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
                 const ModelChecks& checks = ModelChecks{})
      : Base(links, gravity, checks), Walks(make_joints(std::make_index_sequence<nq>{})) {
    conform_placements(std::make_index_sequence<nq>{});
    this->check_regular(joint_slots(), *this);
  }
  explicit Chain(const std::vector<Link<Scalar>>& links,
                 const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
                 const ModelChecks& checks = ModelChecks{})
      : Chain(Base::to_array(links), gravity, checks) {}
  Chain(std::initializer_list<Link<Scalar>> links,
        const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
        const ModelChecks& checks = ModelChecks{})
      : Chain(std::vector<Link<Scalar>>(links), gravity, checks) {}

  /// The same chain in scalar NewScalar (e.g. float, long double, an Eigen AutoDiffScalar):
  /// links (all members), gravity and payloads converted number by number, so a
  /// double -> long double -> double round trip is exact. Converting out of an
  /// AutoDiffScalar keeps the values and drops the derivatives. Throws ModelError only if a
  /// number becomes invalid in the new type (e.g. a mass that overflows float).
  template <typename NewScalar>
  Chain<NewScalar, Joints...> cast() const {
    return this->template converted<Chain<NewScalar, Joints...>>();
  }

  template <std::size_t I>
  const auto& joint() const noexcept {
    return std::get<I>(this->joints_);
  }

  /// Each joint's kind and fixed axis (or -1 for a run-time axis), base to tip.
  static constexpr std::array<JointSlot, std::size_t(nq)> joint_slots() {
    return {slot_of<typename Joints::template model<Scalar>>()...};
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

/// A serial chain of N joints of one type (e.g. `ChainN<double, 7, Revolute>`, the axis of
/// each given per link at run time). Walked by fold expressions up to unroll_limit joints (the
/// link index a compile-time constant in each step, as in Chain) and by loops beyond, which
/// keep compile time and code size linear in N: this is the form for long chains. A RevoluteZ
/// joint's placement that maps z to a coordinate axis of the parent (most joints of a URDF arm)
/// is set exactly to that structure when the chain is built, and the link transforms skip its
/// zeros (axis_row(i), docs/conventions.md "Placement types").
template <typename Scalar, int N, typename Joint>
class ChainN
    : public detail::ChainBase<Scalar, N>,
      public detail::JointWalks<
          std::array<typename Joint::template model<Scalar>, N>,
          (N <= detail::unroll_limit<typename Joint::template model<Scalar>>),
          detail::SerialTopology,
          (N <= detail::column_unroll_limit<typename Joint::template model<Scalar>>)> {
  using Base = detail::ChainBase<Scalar, N>;

 public:
  using Base::nq;
  using JointModel = typename Joint::template model<Scalar>;
  static_assert(detail::check_joint_model<JointModel, Scalar>());
  /// Chains of up to this many joints are walked unrolled (detail::unroll_limit).
  static constexpr int unroll_limit = detail::unroll_limit<JointModel>;

  /// Builds the chain; see Chain's constructor.
  explicit ChainN(const std::array<Link<Scalar>, N>& links,
                  const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
                  const ModelChecks& checks = ModelChecks{})
      : Base(links, gravity, checks) {
    for (std::size_t i = 0; i < std::size_t(N); ++i) {
      this->joints_[i] = JointModel(this->link(i).axis, this->where(i));
      this->template conform_placement<JointModel>(i);
    }
    this->check_regular(joint_slots(), *this);
  }
  explicit ChainN(const std::vector<Link<Scalar>>& links,
                  const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
                  const ModelChecks& checks = ModelChecks{})
      : ChainN(Base::to_array(links), gravity, checks) {}
  ChainN(std::initializer_list<Link<Scalar>> links,
         const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
         const ModelChecks& checks = ModelChecks{})
      : ChainN(std::vector<Link<Scalar>>(links), gravity, checks) {}

  /// The same chain in scalar NewScalar; see Chain::cast.
  template <typename NewScalar>
  ChainN<NewScalar, N, Joint> cast() const {
    return this->template converted<ChainN<NewScalar, N, Joint>>();
  }

  const JointModel& joint(std::size_t i) const noexcept { return this->joints_[i]; }

  /// Each joint's kind and fixed axis (or -1 for a run-time axis), base to tip: all the same.
  static constexpr std::array<JointSlot, std::size_t(N)> joint_slots() {
    std::array<JointSlot, std::size_t(N)> out{};
    for (auto& s : out) s = slot_of<JointModel>();
    return out;
  }
};

/// A serial chain whose joint count and joint kinds are known only at run time: a robot read
/// from a URDF or a DH table at start-up (urdf::load_any), a calibration tool, Python. Each
/// joint is an AnyJoint: revolute about or prismatic along a unit axis given per link. Vectors
/// are Eigen::Matrix<Scalar, Dynamic, 1> (Eigen::VectorXd for double), matrices
/// Eigen::Matrix<Scalar, Dynamic, Dynamic>.
///
/// Every algorithm of the library runs on it through the same code as on the compile-time
/// chains: the algorithms walk it with the loops of ChainN beyond its unroll limit. The model
/// allocates when it is made; its workspace `Data<ChainX<Scalar>> data(model)` allocates when
/// it is made (sized to the model); the in-place forms then allocate nothing. They take the
/// model's own vector type and check, once per call, that the Data, the vectors, the forces and
/// the frame handles are sized for this model (ArgumentError: so they are not noexcept,
/// model/arguments.hpp); the returning forms take any Eigen vector and check it (ArgumentError).
///
///     ChainX<double> arm(links, {JointKind::revolute, JointKind::prismatic});   // axes: Link::axis
///     ChainX<double> iiwa = ChainX<double>::from(robots::kuka_iiwa());         // from a fixed chain
///     const auto any = urdf::load_any("robot.urdf", "tool0");                  // chaindyn/urdf.hpp
template <typename Scalar>
class ChainX : public detail::ChainBase<Scalar, Eigen::Dynamic>,
               public detail::JointWalks<std::vector<detail::AnyJointModel<Scalar>>, false> {
  using Base = detail::ChainBase<Scalar, Eigen::Dynamic>;

 public:
  using Base::nq;
  using JointModel = detail::AnyJointModel<Scalar>;
  static_assert(detail::check_joint_model<JointModel, Scalar, false>());

  /// Links base to tip and the kind of each joint (the axis of each: Link::axis, normalized).
  /// Throws ModelError for bad links (as Chain) or when the counts differ or are zero.
  ChainX(const std::vector<Link<Scalar>>& links, const std::vector<JointKind>& kinds,
         const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
         const ModelChecks& checks = ModelChecks{})
      : Base(links, gravity, checks) {
    if (kinds.size() != links.size()) {
      detail::throw_model_error("ChainX: ", links.size(), " links but ", kinds.size(),
                                " joint kinds given; one kind per link is expected");
    }
    this->joints_.reserve(links.size());
    for (std::size_t i = 0; i < links.size(); ++i) {
      this->joints_.emplace_back(kinds[i], this->link(i).axis, this->where(i));
      this->conform_runtime_placement(i, this->joints_[i]);
    }
    this->check_regular(joint_slots(), *this);
  }
  /// The same with the kinds as a braced list, `ChainX<double> arm(links, {JointKind::revolute,
  /// JointKind::prismatic})` (a list of two would otherwise also read as a gravity vector).
  ChainX(const std::vector<Link<Scalar>>& links, std::initializer_list<JointKind> kinds,
         const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
         const ModelChecks& checks = ModelChecks{})
      : ChainX(links, std::vector<JointKind>(kinds), gravity, checks) {}
  /// A chain of revolute joints only.
  explicit ChainX(const std::vector<Link<Scalar>>& links,
                  const Vector3<Scalar>& gravity = default_gravity<Scalar>())
      : ChainX(links, std::vector<JointKind>(links.size(), JointKind::revolute), gravity) {}

  /// The same robot as a compile-time chain (Chain or ChainN): its links (the axis of each joint
  /// whose axis is in its type made explicit, and the placement the chain's algorithms read:
  /// a Placed joint's with its pattern's entries exact), gravity, link frames, named frames and
  /// payloads. Every algorithm gives the same numbers on both, up to rounding.
  template <typename Fixed>
  static ChainX from(const Fixed& chain) {
    static_assert(Fixed::nq != Eigen::Dynamic, "ChainX::from takes a Chain or a ChainN");
    static_assert(std::is_same_v<typename Fixed::Scalar, Scalar>,
                  "ChainX::from: cast the chain to this scalar type first");
    const auto slots = Fixed::joint_slots();
    std::vector<Link<Scalar>> links(chain.links().begin(), chain.links().end());
    std::vector<JointKind> kinds;
    for (std::size_t i = 0; i < links.size(); ++i) {
      kinds.push_back(slots[i].kind);
      if (slots[i].axis >= 0) links[i].axis = Vector3<Scalar>::Unit(slots[i].axis);
      // the placement the algorithms read: a Placed joint's has its pattern's exact zeros and
      // ones (joints/placed.hpp), so that both chains compute the same numbers
      links[i].placement = chain.placement(i);
    }
    ChainX out(links, kinds, chain.gravity(), chain.checks());
    chain.copy_frames_to(out);
    chain.copy_payloads_to(out);
    return out;
  }

  /// The same chain in scalar NewScalar; see Chain::cast.
  template <typename NewScalar>
  ChainX<NewScalar> cast() const {
    std::vector<JointKind> kinds;
    for (const JointModel& j : this->joints_) kinds.push_back(j.kind());
    return this->template converted<ChainX<NewScalar>>(kinds);
  }

  const JointModel& joint(std::size_t i) const noexcept { return this->joints_[i]; }

  /// Whether every joint is revolute about z (what urdf::load_any gives most arms).
  bool revolute_about_z() const noexcept {
    for (const JointModel& j : this->joints_) {
      if (!j.revolute_about_z()) return false;
    }
    return true;
  }

  /// The same robot as ChainN<Scalar, N, RevoluteZ>, when it has N joints each revolute about
  /// z (revolute_about_z()): its links, gravity, checks, link frames, named frames and payloads,
  /// as cast() copies them. Every algorithm gives the same numbers on both, up to rounding.
  /// Throws ArgumentError otherwise.
  template <int N>
  ChainN<Scalar, N, RevoluteZ> as_revolute_z_chain() const {
    if (this->joint_count() != std::size_t(N) || !revolute_about_z()) {
      detail::throw_error<ArgumentError>("ChainX::as_revolute_z_chain<", N, ">: the chain has ",
                                         this->joint_count(), " joints",
                                         revolute_about_z() ? "" : ", not all revolute about z");
    }
    return this->template converted<ChainN<Scalar, N, RevoluteZ>>();
  }

  /// Each joint's kind and axis slot (-1: every axis is given at run time), base to tip.
  std::vector<JointSlot> joint_slots() const {
    std::vector<JointSlot> out;
    for (const JointModel& j : this->joints_) out.push_back(j.slot());
    return out;
  }
};

}  // namespace chaindyn
