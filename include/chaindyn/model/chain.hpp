/// @file
/// Compile-time sized serial chains: Chain<Scalar, Joints...> and ChainN<Scalar, N, Joint>.
/// (Payloads: model/payload.hpp; links in another scalar type: model/scalar_cast.hpp.)
#pragma once

#include "chaindyn/joints/prismatic.hpp"
#include "chaindyn/joints/revolute.hpp"
#include "chaindyn/model/link.hpp"
#include "chaindyn/model/payload.hpp"
#include "chaindyn/model/scalar_cast.hpp"

#include <array>
#include <initializer_list>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace chaindyn {

/// Gravity's default: (0, 0, -9.81) m/s^2 in base coordinates.
template <typename Scalar>
Vector3<Scalar> default_gravity() {
  return Vector3<Scalar>(Scalar(0), Scalar(0), Scalar(-9.81));
}

namespace detail {

/// What every chain holds apart from its joints: the links as given, the data the algorithms
/// read (placements, spatial inertias, joint dynamics) laid out per quantity, and gravity.
template <typename Scalar_, int N>
class ChainBase {
  static_assert(N >= 1, "a chain has at least one joint");

 public:
  using Scalar = Scalar_;
  static constexpr int nq = N;
  using Vector = Eigen::Matrix<Scalar, N, 1>;
  using Matrix = Eigen::Matrix<Scalar, N, N>;

  const std::array<Link<Scalar>, N>& links() const noexcept { return links_; }
  const Link<Scalar>& link(std::size_t i) const noexcept { return links_[i]; }
  /// The pose of joint i's frame in the parent link frame.
  const Transform<Scalar>& placement(std::size_t i) const noexcept { return placement_[i]; }
  /// Link i's spatial inertia about the link-frame origin, its payload included (the one the
  /// algorithms use).
  const Inertia<Scalar>& inertia(std::size_t i) const noexcept { return inertia_[i]; }
  /// Link i's own spatial inertia about the link-frame origin, without payload.
  const Inertia<Scalar>& link_inertia(std::size_t i) const noexcept { return link_inertia_[i]; }
  const Vector& damping() const noexcept { return damping_; }
  const Vector& friction() const noexcept { return friction_; }
  const Vector& armature() const noexcept { return armature_; }

  /// Gravity in base coordinates (m/s^2).
  const Vector3<Scalar>& gravity() const noexcept { return gravity_; }
  /// The fictitious base acceleration a_0 = (0; -g) that puts gravity into the recursions
  /// (RBDA sec. 5.3).
  const Motion<Scalar>& base_acceleration() const noexcept { return a0_; }
  /// Attaches a rigid payload to link i (0-based), replacing the one already there: from now on
  /// every algorithm sees link i's inertia plus the payload's (the payload moves with link i).
  /// The link's own inertia is kept apart, so clear_payload restores it bit for bit. Allocates
  /// nothing unless it throws: IndexError for an index out of range, ModelError for a payload a link would
  /// be refused for (non-finite numbers, negative mass, an inertia that is not symmetric
  /// positive semi-definite or breaks the triangle inequality).
  void set_payload(std::size_t i, const Payload<Scalar>& p) {
    check_link_index(i);
    validate_payload(p, [&] { return where(i); });
    payload_[i] = p;
    inertia_[i] = link_inertia_[i] + Inertia<Scalar>::from_com(p.mass, p.com, p.inertia);
  }
  /// Removes link i's payload (if any): its inertia is the link's own again, bit for bit.
  /// Throws IndexError for an index out of range.
  void clear_payload(std::size_t i) {
    check_link_index(i);
    payload_[i].reset();
    inertia_[i] = link_inertia_[i];
  }
  /// Link i's payload, or empty.
  const std::optional<Payload<Scalar>>& payload(std::size_t i) const noexcept {
    return payload_[i];
  }

  void set_gravity(const Vector3<Scalar>& g) {
    if (!all_finite(g)) throw_model_error("gravity ", format_vector(g), " is not finite");
    gravity_ = g;
    a0_ = Motion<Scalar>(Vector3<Scalar>::Zero(), -g);
  }

 protected:
  ChainBase(const std::array<Link<Scalar>, N>& links, const Vector3<Scalar>& g) : links_(links) {
    for (std::size_t i = 0; i < std::size_t(N); ++i) {
      const Link<Scalar>& l = links_[i];
      validate_link(l, where(i));
      placement_[i] = l.placement;
      link_inertia_[i] = inertia_[i] = Inertia<Scalar>::from_com(l.mass, l.com, l.inertia);
      damping_[Eigen::Index(i)] = l.dynamics.damping;
      friction_[Eigen::Index(i)] = l.dynamics.friction;
      armature_[Eigen::Index(i)] = l.dynamics.armature;
    }
    set_gravity(g);
  }

  std::string where(std::size_t i) const { return link_label(i, links_[i].name); }

  /// The links in scalar To (for cast()).
  template <typename To>
  std::array<Link<To>, N> links_as() const {
    std::array<Link<To>, N> out;
    for (std::size_t i = 0; i < std::size_t(N); ++i) out[i] = cast_link<To>(links_[i]);
    return out;
  }
  /// Copies this chain's payloads, in scalar To, onto `other` (for cast()).
  template <typename Other>
  void copy_payloads_to(Other& other) const {
    using To = typename Other::Scalar;
    for (std::size_t i = 0; i < std::size_t(N); ++i) {
      if (payload_[i]) other.set_payload(i, cast_payload<To>(*payload_[i]));
    }
  }

  /// Refuses a model whose mass matrix is singular at every configuration: a joint whose
  /// articulated-body pivot vanishes at q = 0 and at a few seeded configurations
  /// (detail::find_singular_joint, model/link.hpp). The chain constructors call it once their
  /// joint models are built (which check the axes). set_payload and clear_payload need no second
  /// check: a payload only adds inertia, so M(q) only grows (in the positive semi-definite order)
  /// from the model checked here, and with it every pivot (a Schur complement of M).
  void check_regular(const std::array<JointSlot, std::size_t(N)>& slots) const {
    std::array<detail::PivotJoint, std::size_t(N)> js;
    for (std::size_t i = 0; i < std::size_t(N); ++i) {
      js[i] = detail::pivot_joint(slots[i], links_[i], inertia_[i], armature_[Eigen::Index(i)]);
    }
    const int j = detail::find_singular_joint(js.data(), N);
    if (j >= 0) {
      const std::size_t i = std::size_t(j);
      detail::throw_singular_joint(js[i], i, std::size_t(N), where(i));
    }
  }

  static std::array<Link<Scalar>, N> to_array(const std::vector<Link<Scalar>>& links) {
    if (links.size() != std::size_t(N)) {
      throw_model_error(links.size(), " links given to a chain of ", N, " joints");
    }
    std::array<Link<Scalar>, N> out;
    for (std::size_t i = 0; i < std::size_t(N); ++i) out[i] = links[i];
    return out;
  }

 private:
  static void check_link_index(std::size_t i) { check_index(i, std::size_t(N)); }

  std::array<Link<Scalar>, N> links_;
  std::array<Transform<Scalar>, N> placement_;
  std::array<Inertia<Scalar>, N> inertia_;       ///< link + payload: what the algorithms read
  std::array<Inertia<Scalar>, N> link_inertia_;  ///< the link's own, as constructed
  std::array<std::optional<Payload<Scalar>>, N> payload_;
  Vector damping_, friction_, armature_;
  Vector3<Scalar> gravity_;
  Motion<Scalar> a0_;
};

}  // namespace detail

/// A serial chain of sizeof...(Joints) joints of the given types, base to tip.
///
///     using Arm = Chain<double, RevoluteZ, RevoluteY, PrismaticX>;
///     Arm arm({link0, link1, link2});            // throws ModelError on bad input
///
/// The algorithms walk it with a fold over the joint types, so each joint's sparsity is known
/// at compile time. The model is never modified by an algorithm.
template <typename Scalar, typename... Joints>
class Chain : public detail::ChainBase<Scalar, int(sizeof...(Joints))> {
  using Base = detail::ChainBase<Scalar, int(sizeof...(Joints))>;

 public:
  using Base::nq;
  using JointModels = std::tuple<typename Joints::template model<Scalar>...>;

  explicit Chain(const std::array<Link<Scalar>, nq>& links,
                 const Vector3<Scalar>& gravity = default_gravity<Scalar>())
      : Base(links, gravity), joints_(make_joints(std::make_index_sequence<nq>{})) {
    this->check_regular(joint_slots());
  }
  explicit Chain(const std::vector<Link<Scalar>>& links,
                 const Vector3<Scalar>& gravity = default_gravity<Scalar>())
      : Chain(Base::to_array(links), gravity) {}
  Chain(std::initializer_list<Link<Scalar>> links,
        const Vector3<Scalar>& gravity = default_gravity<Scalar>())
      : Chain(std::vector<Link<Scalar>>(links), gravity) {}

  /// The same chain in scalar NewScalar (e.g. float, long double, an Eigen AutoDiffScalar):
  /// links (all members), gravity and payloads converted number by number, so a
  /// double -> long double -> double round trip is exact. Converting out of an
  /// AutoDiffScalar keeps the values and drops the derivatives. Throws ModelError only if a
  /// number becomes invalid in the new type (e.g. a mass that overflows float).
  template <typename NewScalar>
  Chain<NewScalar, Joints...> cast() const {
    Chain<NewScalar, Joints...> out(this->template links_as<NewScalar>(),
                                    detail::matrix_cast<NewScalar>(this->gravity()));
    this->copy_payloads_to(out);
    return out;
  }

  template <std::size_t I>
  const auto& joint() const noexcept {
    return std::get<I>(joints_);
  }

  /// Each joint's kind and fixed axis (or -1 for a run-time axis), base to tip.
  static constexpr std::array<JointSlot, std::size_t(nq)> joint_slots() {
    return {slot_of<typename Joints::template model<Scalar>>()...};
  }

  /// Calls f(i, joint_model) for i = 0 .. nq-1, i as std::integral_constant.
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_joint(F&& f) const {
    forward(f, std::make_index_sequence<nq>{});
  }
  /// Calls f(i, joint_model) for i = nq-1 .. 0, i as std::integral_constant.
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_joint_reverse(F&& f) const {
    backward(f, std::make_index_sequence<nq>{});
  }
  /// The walks an algorithm asks to be loops (see ChainN::for_each_joint_loop): joints of
  /// different types cannot share a loop body, so in a Chain they unroll too.
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_joint_loop(F&& f) const {
    for_each_joint(f);
  }
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_joint_reverse_loop(F&& f) const {
    for_each_joint_reverse(f);
  }
  /// Calls f(j, joint_model) for j = i-1 .. 0, the ancestors of joint i, nearest first.
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_ancestor(std::size_t i, F&& f) const {
    for_each_joint_reverse([&](const std::size_t j, const auto& joint) CHAINDYN_ALWAYS_INLINE {
      if (j < i) f(j, joint);
    });
  }

 private:
  template <std::size_t... I>
  JointModels make_joints(std::index_sequence<I...>) const {
    return JointModels(typename Joints::template model<Scalar>(this->link(I).axis,
                                                                   this->where(I))...);
  }
  template <typename F, std::size_t... I>
  CHAINDYN_ALWAYS_INLINE void forward(F& f, std::index_sequence<I...>) const {
    (f(std::integral_constant<std::size_t, I>{}, std::get<I>(joints_)), ...);
  }
  template <typename F, std::size_t... I>
  CHAINDYN_ALWAYS_INLINE void backward(F& f, std::index_sequence<I...>) const {
    constexpr std::size_t last = sizeof...(I) - 1;
    (f(std::integral_constant<std::size_t, last - I>{}, std::get<last - I>(joints_)), ...);
  }

  JointModels joints_;
};

/// A serial chain of N joints of one type (e.g. `ChainN<double, 7, Revolute>`, the axis of
/// each given per link at run time). Walked by a plain loop: this is the form for long chains.
template <typename Scalar, int N, typename Joint>
class ChainN : public detail::ChainBase<Scalar, N> {
  using Base = detail::ChainBase<Scalar, N>;

 public:
  using Base::nq;
  using JointModel = typename Joint::template model<Scalar>;

  explicit ChainN(const std::array<Link<Scalar>, N>& links,
                  const Vector3<Scalar>& gravity = default_gravity<Scalar>())
      : Base(links, gravity) {
    for (std::size_t i = 0; i < std::size_t(N); ++i) {
      joints_[i] = JointModel(this->link(i).axis, this->where(i));
    }
    this->check_regular(joint_slots());
  }
  explicit ChainN(const std::vector<Link<Scalar>>& links,
                  const Vector3<Scalar>& gravity = default_gravity<Scalar>())
      : ChainN(Base::to_array(links), gravity) {}
  ChainN(std::initializer_list<Link<Scalar>> links,
         const Vector3<Scalar>& gravity = default_gravity<Scalar>())
      : ChainN(std::vector<Link<Scalar>>(links), gravity) {}

  /// The same chain in scalar NewScalar; see Chain::cast.
  template <typename NewScalar>
  ChainN<NewScalar, N, Joint> cast() const {
    ChainN<NewScalar, N, Joint> out(this->template links_as<NewScalar>(),
                                    detail::matrix_cast<NewScalar>(this->gravity()));
    this->copy_payloads_to(out);
    return out;
  }

  const JointModel& joint(std::size_t i) const noexcept { return joints_[i]; }

  /// Each joint's kind and fixed axis (or -1 for a run-time axis), base to tip: all the same.
  static constexpr std::array<JointSlot, std::size_t(N)> joint_slots() {
    std::array<JointSlot, std::size_t(N)> out{};
    for (auto& s : out) s = slot_of<JointModel>();
    return out;
  }

  /// Chains of up to this many joints are walked by fold expressions (fully unrolled, the
  /// link index a compile-time constant in each step, as in Chain); longer ones by loops, which
  /// keep compile time and code size linear in N.
  static constexpr int unroll_limit = 8;

  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_joint(F&& f) const {
    if constexpr (N <= unroll_limit) {
      forward(f, std::make_index_sequence<std::size_t(N)>{});
    } else {
      for (std::size_t i = 0; i < std::size_t(N); ++i) f(i, joints_[i]);
    }
  }
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_joint_reverse(F&& f) const {
    if constexpr (N <= unroll_limit) {
      backward(f, std::make_index_sequence<std::size_t(N)>{});
    } else {
      for (std::size_t i = N; i-- > 0;) f(i, joints_[i]);
    }
  }
  /// The same walks as loops whatever N: for algorithms whose per-joint body is so large
  /// that seven unrolled copies overflow the instruction cache (ABA: g++ 12, iiwa, 1038 ns
  /// unrolled vs 858 ns as a loop; measured with benchmarks/compile_cost's code sizes in mind).
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_joint_loop(F&& f) const {
    for (std::size_t i = 0; i < std::size_t(N); ++i) f(i, joints_[i]);
  }
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_joint_reverse_loop(F&& f) const {
    for (std::size_t i = N; i-- > 0;) f(i, joints_[i]);
  }
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_ancestor(std::size_t i, F&& f) const {
    if constexpr (N <= unroll_limit) {
      for_each_joint_reverse([&](const std::size_t j, const JointModel& joint) CHAINDYN_ALWAYS_INLINE {
        if (j < i) f(j, joint);
      });
    } else {
      for (std::size_t j = i; j-- > 0;) f(j, joints_[j]);
    }
  }

 private:
  template <typename F, std::size_t... I>
  CHAINDYN_ALWAYS_INLINE void forward(F& f, std::index_sequence<I...>) const {
    (f(std::integral_constant<std::size_t, I>{}, joints_[I]), ...);
  }
  template <typename F, std::size_t... I>
  CHAINDYN_ALWAYS_INLINE void backward(F& f, std::index_sequence<I...>) const {
    constexpr std::size_t last = sizeof...(I) - 1;
    (f(std::integral_constant<std::size_t, last - I>{}, joints_[last - I]), ...);
  }

  std::array<JointModel, N> joints_;
};

}  // namespace chaindyn
