/// @file
/// Serial chains: compile-time sized Chain<Scalar, Joints...> and ChainN<Scalar, N, Joint>,
/// and the runtime-sized ChainX<Scalar> (joint count and kinds from data).
/// (Payloads: model/payload.hpp; links in another scalar type: model/scalar_cast.hpp.)
#pragma once

#include "chaindyn/joints/any_joint.hpp"
#include "chaindyn/joints/placed.hpp"
#include "chaindyn/joints/prismatic.hpp"
#include "chaindyn/joints/revolute.hpp"
#include "chaindyn/model/frame.hpp"
#include "chaindyn/model/link.hpp"
#include "chaindyn/model/payload.hpp"
#include "chaindyn/model/per_link.hpp"
#include "chaindyn/model/scalar_cast.hpp"

#include <array>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
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

template <typename Scalar>
class ChainX;

namespace detail {

/// What every chain holds apart from its joints: the links as given, the data the algorithms
/// read (placements, spatial inertias, joint dynamics) laid out per quantity, and gravity.
template <typename Scalar_, int N>
class ChainBase {
  static_assert(N >= 1 || N == Eigen::Dynamic, "a chain has at least one joint");

 public:
  using Scalar = Scalar_;
  static constexpr int nq = N;
  using Vector = Eigen::Matrix<Scalar, N, 1>;
  using Matrix = Eigen::Matrix<Scalar, N, N>;
  /// A handle on a frame fixed on a link of this chain (model/frame.hpp).
  using FrameType = Frame<Scalar, N>;

  /// The number of joints (N, or the run-time count of a ChainX).
  std::size_t joint_count() const noexcept {
    if constexpr (N == Eigen::Dynamic) {
      return links_.size();
    } else {
      return std::size_t(N);
    }
  }

  /// Calls f(i) for i = 0 .. joint_count()-1 (reverse: from the last), in a plain loop for
  /// every chain type: the walk of steps that read no joint model, so that even a Chain of
  /// different joint types runs them as one loop body (ABA's second and third passes: an
  /// unrolled body this large is slower with g++ 12).
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_index(F&& f) const {
    const std::size_t n = joint_count();
    for (std::size_t i = 0; i < n; ++i) f(i);
  }
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_index_reverse(F&& f) const {
    for (std::size_t i = joint_count(); i-- > 0;) f(i);
  }

  const PerLinkArray<Link<Scalar>, N>& links() const noexcept { return links_; }
  const Link<Scalar>& link(std::size_t i) const noexcept { return links_[i]; }
  /// The pose of joint i's frame in the parent link frame.
  const Transform<Scalar>& placement(std::size_t i) const noexcept { return placement_[i]; }
  /// Link i's spatial inertia about the link-frame origin, its payload included (the one the
  /// algorithms use).
  const Inertia<Scalar>& inertia(std::size_t i) const noexcept { return inertia_[i]; }
  /// Link i's own spatial inertia about the link-frame origin, without payload.
  const Inertia<Scalar>& link_inertia(std::size_t i) const noexcept { return link_inertia_[i]; }
  /// Link i's spatial inertia (payload included) expressed in frame A, given `x` the pose of
  /// link i's frame in A: inertia(i).transformed_by(x) up to rounding, from the centre-of-mass
  /// form the chain keeps beside it (ComInertia::expressed_in: fewer operations; the
  /// algorithms that work in base coordinates call this for every link).
  CHAINDYN_ALWAYS_INLINE Inertia<Scalar> inertia_in(std::size_t i,
                                                    const Transform<Scalar>& x) const noexcept {
    return com_inertia_[i].expressed_in(x);
  }
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
  ///
  /// The payload's centre of mass and inertia are given in the USER's frame of link i (the
  /// URDF's link frame for a chain built from a URDF; see link_frame), and converted here to
  /// the internal link frame; payload(i) returns them as given.
  void set_payload(std::size_t i, const Payload<Scalar>& p) {
    check_link_index(i);
    validate_payload(p, [&] { return where(i); });
    payload_[i] = p;
    const Inertia<Scalar> added = Inertia<Scalar>::from_com(p.mass, p.com, p.inertia);
    // RBDA eq. (2.66): the payload's inertia moved from the user's to the internal link frame
    inertia_[i] = link_inertia_[i] +
                  (link_frame_turned_[i] ? added.transformed_by(link_frame_[i]) : added);
    com_inertia_[i] = ComInertia<Scalar>(inertia_[i]);
  }
  /// Removes link i's payload (if any): its inertia is the link's own again, bit for bit.
  /// Throws IndexError for an index out of range.
  void clear_payload(std::size_t i) {
    check_link_index(i);
    payload_[i].reset();
    inertia_[i] = link_inertia_[i];
    com_inertia_[i] = link_com_inertia(i);
  }
  /// Link i's payload, or empty.
  const std::optional<Payload<Scalar>>& payload(std::size_t i) const noexcept {
    return payload_[i];
  }

  /// The pose of link i's frame as the user knows it (the URDF's link frame for a chain built
  /// from a URDF; the frame the links were given in otherwise) in the chain's INTERNAL link
  /// frame, the one the algorithms compute (data.oMi) and the one Link::com and Link::inertia,
  /// external wrenches (LinkForces) and the regressor's parameters are expressed in. Identity
  /// unless a builder turned the link frame (urdf::build turns it so that the URDF joint axis
  /// is the axis of a fixed-axis joint type: then it is the pure rotation R_a^T, see
  /// urdf/build.hpp). To move a wrench f given in the user's link frame into LinkForces:
  /// `model.link_frame(i).act(f)`.
  const Transform<Scalar>& link_frame(std::size_t i) const noexcept { return link_frame_[i]; }

  /// A payload given in link i's user frame (as set_payload takes it) in the internal link
  /// frame: centre of mass R c + p, inertia about it R I R^T, with (R, p) = link_frame(i).
  /// Unchanged (the same numbers) unless a builder turned the link frame. Throws IndexError.
  Payload<Scalar> payload_in_internal_frame(std::size_t i, const Payload<Scalar>& p) const {
    check_link_index(i);
    if (!link_frame_turned_[i]) return p;
    const Transform<Scalar>& u = link_frame_[i];
    Payload<Scalar> out;
    out.mass = p.mass;
    out.com = u.rotation * p.com + u.translation;
    out.inertia = u.rotation * p.inertia * u.rotation.transpose();
    return out;
  }
  /// The reverse: a payload computed in link i's internal frame (the regressor's, hence
  /// PayloadIdentification's) in the user's link frame, R^T (c - p) and R^T I R.
  Payload<Scalar> payload_in_user_frame(std::size_t i, const Payload<Scalar>& p) const {
    check_link_index(i);
    if (!link_frame_turned_[i]) return p;
    const Transform<Scalar>& u = link_frame_[i];
    Payload<Scalar> out;
    out.mass = p.mass;
    out.com = u.rotation.transpose() * (p.com - u.translation);
    out.inertia = u.rotation.transpose() * p.inertia * u.rotation;
    return out;
  }

  /// Sets link_frame(i) (for builders that turn link frames). Throws IndexError for an index
  /// out of range and ModelError for a transform that is not finite or whose rotation is not
  /// proper. Named frames already added keep their place on the link; a payload already set is
  /// re-read in the new frame.
  void set_link_frame(std::size_t i, const Transform<Scalar>& user_frame_in_link) {
    check_link_index(i);
    check_frame_transform(user_frame_in_link, where(i) + ": link frame");
    link_frame_[i] = user_frame_in_link;
    link_frame_turned_[i] = !is_identity(user_frame_in_link);
    if (payload_[i]) set_payload(i, *payload_[i]);
  }

  /// A handle on the frame F fixed on link `link` (0-based) at pose `offset` in the user's frame
  /// of that link (link_frame: the URDF's link frame for a chain built from a URDF). Identity
  /// gives the link frame itself. The index is checked here, once: the frame algorithms take
  /// the handle without checks. Throws IndexError if link >= nq. Allocates nothing.
  FrameType frame(std::size_t link,
                  const Transform<Scalar>& offset = Transform<Scalar>::Identity()) const {
    check_link_index(link);
    return FrameType(link, link_frame_turned_[link] ? link_frame_[link] * offset : offset);
  }
  /// A handle on the named frame (add_frame; a URDF's links, see docs/urdf.md), optionally
  /// moved by `offset` given in that frame. Throws IndexError naming the frames the chain has
  /// if there is none of that name.
  FrameType frame(std::string_view name,
                  const Transform<Scalar>& offset = Transform<Scalar>::Identity()) const {
    const FrameType& f = find_frame(name);
    return FrameType(f.link(), f.placement() * offset);
  }
  /// A handle on a frame fixed on the base at pose `pose` in the base frame.
  FrameType base_frame(const Transform<Scalar>& pose = Transform<Scalar>::Identity()) const {
    return FrameType(FrameType::base, pose);
  }
  /// A handle of a chain of another scalar type (e.g. this chain's double original, which
  /// cast() converted) as a handle of this chain: the same link, the placement converted number
  /// by number. Both chains have N joints, so the link index stays valid.
  template <typename From>
  FrameType cast_frame(const Frame<From, N>& f) const {
    return FrameType(f.link(), cast_transform<Scalar>(f.placement()));
  }
  /// True if the chain has a frame of that name.
  bool has_frame(std::string_view name) const noexcept {
    for (const NamedFrame<Scalar, N>& f : frames_) {
      if (f.name == name) return true;
    }
    return false;
  }
  /// The named frames, in the order they were added.
  const std::vector<NamedFrame<Scalar, N>>& frames() const noexcept { return frames_; }

  /// Adds a named frame on link `link` at pose `offset` in the user's frame of that link (see
  /// frame(link, offset)), e.g. a tool centre point. Throws IndexError if link >= nq, ModelError
  /// for an empty name, a name the chain already has, or an offset that is not finite or whose
  /// rotation is not proper (orthonormal, determinant +1).
  void add_frame(std::string name, std::size_t link,
                 const Transform<Scalar>& offset = Transform<Scalar>::Identity()) {
    check_link_index(link);
    add_frame(std::move(name), frame(link, offset));
  }
  /// Adds a named frame fixed on the base at pose `pose` in the base frame (same errors).
  void add_base_frame(std::string name, const Transform<Scalar>& pose) {
    add_frame(std::move(name), base_frame(pose));
  }
  /// Adds a handle under a name (same errors but IndexError).
  void add_frame(std::string name, const FrameType& f) {
    if (name.empty()) throw_model_error("a frame's name is empty");
    if (has_frame(name)) throw_model_error("frame '", name, "' is defined twice");
    check_frame_transform(f.placement(), "frame '" + name + "'");
    frames_.push_back(NamedFrame<Scalar, N>{std::move(name), f});
  }

  /// False when the chain was built with ModelChecks::regular off and its mass matrix is
  /// singular at every configuration the regularity check tries (a joint moves no mass: e.g. a
  /// URDF without any <inertial> on the chain, loaded for kinematics). On such a chain the
  /// kinematics (forward_kinematics, frame_pose, jacobian, jdot_qd) are exact and the dynamics
  /// algorithms (rnea, crba, aba, ...) give meaningless numbers (aba divides by zero). Decided
  /// when the chain is built: a payload set later does not change it. True for every chain
  /// built with the default checks (the constructor refuses a singular one).
  bool has_dynamics() const noexcept { return has_dynamics_; }
  /// The checks the chain was built with (kept by cast()).
  const ModelChecks& checks() const noexcept { return checks_; }

  void set_gravity(const Vector3<Scalar>& g) {
    if (!all_finite(g)) throw_model_error("gravity ", format_vector(g), " is not finite");
    gravity_ = g;
    // no angular part, ever: rnea's first-link step relies on it (algorithms/rnea.hpp)
    a0_ = Motion<Scalar>(Vector3<Scalar>::Zero(), -g);
  }

 protected:
  ChainBase(const PerLinkArray<Link<Scalar>, N>& links, const Vector3<Scalar>& g,
            const ModelChecks& checks)
      : links_(links), checks_(checks) {
    const std::size_t n = links_.size();
    if (n == 0) throw_model_error("a chain has at least one joint; no links given");
    resize_per_link(placement_, n);
    resize_per_link(inertia_, n);
    resize_per_link(link_inertia_, n);
    resize_per_link(com_inertia_, n);
    resize_per_link(payload_, n);
    resize_per_link(link_frame_, n);
    resize_per_link(link_frame_turned_, n);
    damping_ = friction_ = armature_ = Vector::Zero(Eigen::Index(n));
    for (std::size_t i = 0; i < n; ++i) {
      const Link<Scalar>& l = links_[i];
      validate_link(l, where(i), checks.physical_inertia);
      placement_[i] = l.placement;
      link_inertia_[i] = inertia_[i] = Inertia<Scalar>::from_com(l.mass, l.com, l.inertia);
      com_inertia_[i] = link_com_inertia(i);
      damping_[Eigen::Index(i)] = l.dynamics.damping;
      friction_[Eigen::Index(i)] = l.dynamics.friction;
      armature_[Eigen::Index(i)] = l.dynamics.armature;
    }
    set_gravity(g);
  }

  std::string where(std::size_t i) const { return link_label(i, links_[i].name); }

  /// Link i's own inertia in the centre-of-mass form, from the link's data as given (not
  /// derived from the origin form: no cancellation in I_C = I_O - m [c]x^T [c]x).
  ComInertia<Scalar> link_com_inertia(std::size_t i) const {
    const Link<Scalar>& l = links_[i];
    return ComInertia<Scalar>(l.mass, l.com, l.inertia);
  }

  /// Checks link i's placement against joint model JM's placement pattern, if it has one, and
  /// sets the entries the pattern states exactly (joints/placed.hpp; throws ModelError).
  template <typename JM>
  void conform_placement(std::size_t i) {
    if constexpr (has_placement_pattern<JM>::value) JM::conform(placement_[i], where(i));
  }

  /// The links in scalar To (for cast()).
  template <typename To>
  PerLinkArray<Link<To>, N> links_as() const {
    PerLinkArray<Link<To>, N> out;
    resize_per_link(out, joint_count());
    for (std::size_t i = 0; i < joint_count(); ++i) out[i] = cast_link<To>(links_[i]);
    return out;
  }
  /// Copies this chain's payloads, in scalar To, onto `other` (for cast()).
  template <typename Other>
  void copy_payloads_to(Other& other) const {
    using To = typename Other::Scalar;
    for (std::size_t i = 0; i < joint_count(); ++i) {
      if (payload_[i]) other.set_payload(i, cast_payload<To>(*payload_[i]));
    }
  }

  /// Refuses a model whose mass matrix is singular at every configuration: a joint whose
  /// articulated-body pivot vanishes at q = 0 and at a few seeded configurations
  /// (detail::find_singular_joint, model/link.hpp). The chain constructors call it once their
  /// joint models are built (which check the axes). set_payload and clear_payload need no second
  /// check: a payload only adds inertia, so M(q) only grows (in the positive semi-definite order)
  /// from the model checked here, and with it every pivot (a Schur complement of M).
  /// With ModelChecks::regular off, a singular model is kept and has_dynamics() is false.
  void check_regular(const PerLinkArray<JointSlot, N>& slots) {
    PerLinkArray<detail::PivotJoint, N> js;
    resize_per_link(js, joint_count());
    for (std::size_t i = 0; i < joint_count(); ++i) {
      js[i] = detail::pivot_joint(slots[i], links_[i], inertia_[i], armature_[Eigen::Index(i)]);
    }
    const int j = detail::find_singular_joint(js.data(), int(joint_count()));
    if (j >= 0) {
      const std::size_t i = std::size_t(j);
      if (!checks_.regular) {
        has_dynamics_ = false;
        return;
      }
      detail::throw_singular_joint(js[i], i, joint_count(), where(i));
    }
  }

  /// Copies this chain's link frames and named frames, in scalar To, onto `other` (for cast();
  /// before copy_payloads_to, which reads the link frames).
  /// (Also from a compile-time chain to a ChainX: `other` may have another N.)
  template <typename Other>
  void copy_frames_to(Other& other) const {
    using To = typename Other::Scalar;
    constexpr int M = Other::nq;
    for (std::size_t i = 0; i < joint_count(); ++i) {
      if (link_frame_turned_[i]) other.set_link_frame(i, cast_transform<To>(link_frame_[i]));
    }
    for (const NamedFrame<Scalar, N>& f : frames_) {
      other.frames_.push_back(NamedFrame<To, M>{
          f.name, Frame<To, M>(f.frame.link(), cast_transform<To>(f.frame.placement()))});
    }
  }

  static PerLinkArray<Link<Scalar>, N> to_array(const std::vector<Link<Scalar>>& links) {
    if constexpr (N == Eigen::Dynamic) {
      return links;
    } else {
      if (links.size() != std::size_t(N)) {
        throw_model_error(links.size(), " links given to a chain of ", N, " joints");
      }
      std::array<Link<Scalar>, N> out;
      for (std::size_t i = 0; i < std::size_t(N); ++i) out[i] = links[i];
      return out;
    }
  }

 private:
  template <typename, int>
  friend class ChainBase;
  template <typename>
  friend class chaindyn::ChainX;

  void check_link_index(std::size_t i) const { check_index(i, joint_count()); }

  static bool is_identity(const Transform<Scalar>& t) {
    for (Eigen::Index r = 0; r < 3; ++r) {
      if (!(scalar_value(t.translation[r]) == 0.0)) return false;
      for (Eigen::Index c = 0; c < 3; ++c) {
        if (!(scalar_value(t.rotation(r, c)) == (r == c ? 1.0 : 0.0))) return false;
      }
    }
    return true;
  }
  /// A frame's pose: finite, with a proper rotation (as a link placement, validate_link).
  static void check_frame_transform(const Transform<Scalar>& t, const std::string& what) {
    const Eigen::Matrix3d r = t.rotation.unaryExpr([](const Scalar& x) { return scalar_value(x); });
    const Eigen::Vector3d p =
        t.translation.unaryExpr([](const Scalar& x) { return scalar_value(x); });
    if (!all_finite(r) || !all_finite(p)) {
      throw_model_error(what, ": pose is not finite (translation ", format_vector(p),
                        ", rotation ", format_matrix(r), ")");
    }
    if (!((r.transpose() * r - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < 1e-6) ||
        !(r.determinant() > 0.0)) {
      throw_model_error(what, ": rotation ", format_matrix(r),
                        " is not a rotation matrix (orthonormal, determinant +1)");
    }
  }
  const FrameType& find_frame(std::string_view name) const {
    for (const NamedFrame<Scalar, N>& f : frames_) {
      if (f.name == name) return f.frame;
    }
    std::string names;
    for (std::size_t k = 0; k < frames_.size(); ++k) {
      names += (k ? ", '" : "'") + frames_[k].name + "'";
    }
    throw_error<IndexError>("no frame named '", name, "' (the chain has ",
                            frames_.empty() ? std::string("none") : names, ")");
  }

  PerLinkArray<Link<Scalar>, N> links_;
  // The placements, the inertias rnea and crba read, the joint-dynamics vectors and the base
  // acceleration start at cache lines (and the model with it), so that where these numbers fall
  // in cache lines is the type's, not the allocator's: at 8-byte offsets of the model, the
  // iiwa's rnea ran 5-6 % slower at half of them with both compilers. com_inertia_ (aba's) is
  // left where it falls: at a cache line too, clang++'s aba ran 3-7 % slower. A ChainX's
  // arrays live on the heap, where malloc aligns them (docs/benchmarks.md, issue 14, eleventh
  // session).
  alignas(64) PerLinkArray<Transform<Scalar>, N> placement_;
  alignas(64) PerLinkArray<Inertia<Scalar>, N> inertia_;  ///< link + payload (what they read)
  PerLinkArray<Inertia<Scalar>, N> link_inertia_;  ///< the link's own, as constructed
  PerLinkArray<ComInertia<Scalar>, N> com_inertia_;  ///< inertia_ by its centre of mass
  PerLinkArray<std::optional<Payload<Scalar>>, N> payload_;  ///< as given (user's link frame)
  /// The user's link frame in the internal one (link_frame), and whether it is not identity.
  PerLinkArray<Transform<Scalar>, N> link_frame_{};
  PerLinkArray<bool, N> link_frame_turned_{};
  std::vector<NamedFrame<Scalar, N>> frames_;
  ModelChecks checks_;
  bool has_dynamics_ = true;
  alignas(64) Vector damping_;
  alignas(64) Vector friction_;
  alignas(64) Vector armature_;
  Vector3<Scalar> gravity_;
  alignas(64) Motion<Scalar> a0_;
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

  /// Builds the chain from its links, base to tip; throws ModelError on bad input. `checks`
  /// (default: all) relaxes what is refused, for files loaded for kinematics or with inertias
  /// kept as written (ModelChecks, model/link.hpp).
  explicit Chain(const std::array<Link<Scalar>, nq>& links,
                 const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
                 const ModelChecks& checks = ModelChecks{})
      : Base(links, gravity, checks), joints_(make_joints(std::make_index_sequence<nq>{})) {
    conform_placements(std::make_index_sequence<nq>{});
    this->check_regular(joint_slots());
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
    Chain<NewScalar, Joints...> out(this->template links_as<NewScalar>(),
                                    detail::matrix_cast<NewScalar>(this->gravity()),
                                    this->checks());
    this->copy_frames_to(out);
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
  void conform_placements(std::index_sequence<I...>) {
    (this->template conform_placement<std::tuple_element_t<I, JointModels>>(I), ...);
  }
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

  /// Builds the chain; see Chain's constructor.
  explicit ChainN(const std::array<Link<Scalar>, N>& links,
                  const Vector3<Scalar>& gravity = default_gravity<Scalar>(),
                  const ModelChecks& checks = ModelChecks{})
      : Base(links, gravity, checks) {
    for (std::size_t i = 0; i < std::size_t(N); ++i) {
      joints_[i] = JointModel(this->link(i).axis, this->where(i));
      this->template conform_placement<JointModel>(i);
    }
    this->check_regular(joint_slots());
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
    ChainN<NewScalar, N, Joint> out(this->template links_as<NewScalar>(),
                                    detail::matrix_cast<NewScalar>(this->gravity()),
                                    this->checks());
    this->copy_frames_to(out);
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
  /// keep compile time and code size linear in N. 8 for joints with the axis in their type,
  /// 4 for joints with a run-time axis (Revolute, Prismatic), whose per-joint step (a general
  /// 3-vector axis where a fixed one has one component) is large enough that the loop runs
  /// faster than the unrolled walk from 6 joints on. A/B, both compilers
  /// (docs/benchmarks.md, eighth session): ChainN<6..8, Revolute> rnea -11 to -16 %, crba -4
  /// to -17 %, forward dynamics -4 to -13 %; 4 joints and shorter even; with RevoluteZ the loop
  /// cost crba 17-19 % at 4 and 6 joints.
  static constexpr int unroll_limit = JointModel::fixed_axis < 0 ? 4 : 8;

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

/// A serial chain whose joint count and joint kinds are known only at run time: a robot read
/// from a URDF or a DH table at start-up (urdf::load_any), a calibration tool, Python. Each
/// joint is an AnyJoint: revolute about or prismatic along a unit axis given per link. Vectors
/// are Eigen::Matrix<Scalar, Dynamic, 1> (Eigen::VectorXd for double), matrices
/// Eigen::Matrix<Scalar, Dynamic, Dynamic>.
///
/// Every algorithm of the library runs on it through the same code as on the compile-time
/// chains: the algorithms walk it with the loops of ChainN beyond its unroll limit. The model
/// allocates when it is made; its workspace `Data<ChainX<Scalar>> data(model)` allocates when
/// it is made (sized to the model); the in-place forms then allocate nothing and stay noexcept.
/// They take the model's own vector type (a dynamic-size vector of the model's joint count; the
/// size is checked by an assertion in debug builds); the returning forms take any Eigen vector
/// and check its size (ArgumentError).
///
///     ChainX<double> arm(links, {JointKind::revolute, JointKind::prismatic});   // axes: Link::axis
///     ChainX<double> iiwa = ChainX<double>::from(robots::kuka_iiwa());         // from a fixed chain
///     const auto any = urdf::load_any("robot.urdf", "tool0");                  // chaindyn/urdf.hpp
template <typename Scalar>
class ChainX : public detail::ChainBase<Scalar, Eigen::Dynamic> {
  using Base = detail::ChainBase<Scalar, Eigen::Dynamic>;

 public:
  using Base::nq;
  using JointModel = detail::AnyJointModel<Scalar>;

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
    joints_.reserve(links.size());
    for (std::size_t i = 0; i < links.size(); ++i) {
      joints_.emplace_back(kinds[i], this->link(i).axis, this->where(i));
    }
    this->check_regular(joint_slots());
  }
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
    for (const JointModel& j : joints_) kinds.push_back(j.kind());
    const PerLinkArray<Link<NewScalar>, nq> links = this->template links_as<NewScalar>();
    ChainX<NewScalar> out(links, kinds, detail::matrix_cast<NewScalar>(this->gravity()),
                          this->checks());
    this->copy_frames_to(out);
    this->copy_payloads_to(out);
    return out;
  }

  const JointModel& joint(std::size_t i) const noexcept { return joints_[i]; }

  /// Each joint's kind and axis slot (-1: every axis is given at run time), base to tip.
  std::vector<JointSlot> joint_slots() const {
    std::vector<JointSlot> out;
    for (const JointModel& j : joints_) out.push_back(j.slot());
    return out;
  }

  /// The walks: loops over the joints (as ChainN beyond its unroll limit).
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_joint(F&& f) const {
    const std::size_t n = joints_.size();
    for (std::size_t i = 0; i < n; ++i) f(i, joints_[i]);
  }
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_joint_reverse(F&& f) const {
    for (std::size_t i = joints_.size(); i-- > 0;) f(i, joints_[i]);
  }
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_joint_loop(F&& f) const {
    for_each_joint(f);
  }
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_joint_reverse_loop(F&& f) const {
    for_each_joint_reverse(f);
  }
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void for_each_ancestor(std::size_t i, F&& f) const {
    for (std::size_t j = i; j-- > 0;) f(j, joints_[j]);
  }

 private:
  template <typename>
  friend class ChainX;
  std::vector<JointModel> joints_;
};

}  // namespace chaindyn
