/// @file
/// What every chain stores apart from its joint models: the links as given, the numbers the
/// algorithms read (placements, spatial inertias and their centre-of-mass form, joint dynamics)
/// laid out per quantity, gravity, and the checks the chain was built with.
#pragma once

#include "chaindyn/joints/placed.hpp"
#include "chaindyn/model/frame.hpp"
#include "chaindyn/model/link.hpp"
#include "chaindyn/model/payload.hpp"
#include "chaindyn/model/per_link.hpp"
#include "chaindyn/model/scalar_cast.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace chaindyn {

/// Gravity's default: (0, 0, -9.81) m/s^2 in base coordinates.
template <typename Scalar>
Vector3<Scalar> default_gravity() {
  return Vector3<Scalar>(Scalar(0), Scalar(0), Scalar(-9.81));
}

namespace detail {

/// The storage of a chain of N joints (N = Eigen::Dynamic: ChainX) and the inertias derived
/// from its links. The layers above it add the link frames and named frames
/// (model/link_frames.hpp) and the payloads (model/chain_payloads.hpp), whose state is declared
/// here; Chain, ChainN and ChainX add the joint models.
template <typename Scalar_, int N>
class ChainStorage {
  static_assert(N >= 1 || N == Eigen::Dynamic, "a chain has at least one joint");

 public:
  using Scalar = Scalar_;
  static constexpr int nq = N;
  using Vector = Eigen::Matrix<Scalar, N, 1>;
  using Matrix = Eigen::Matrix<Scalar, N, N>;

  /// The number of joints (N, or the run-time count of a ChainX).
  std::size_t joint_count() const noexcept {
    if constexpr (N == Eigen::Dynamic) {
      return links_.size();
    } else {
      return std::size_t(N);
    }
  }

  /// Calls f(i) for i = 0 .. joint_count()-1, the index only, in a plain loop for every chain
  /// type: the walk of steps that read no joint model, so that even a Chain of different joint
  /// types runs them as one loop body (ABA's second and third passes).
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void indices_forward(F&& f) const {
    const std::size_t n = joint_count();
    for (std::size_t i = 0; i < n; ++i) f(i);
  }
  /// Calls f(i) for i = joint_count()-1 .. 0 (see indices_forward).
  template <typename F>
  CHAINDYN_ALWAYS_INLINE void indices_backward(F&& f) const {
    for (std::size_t i = joint_count(); i-- > 0;) f(i);
  }

  /// The index of the link named `name` (Link::name; a URDF's link name). Throws IndexError,
  /// listing the names, if no link has it.
  std::size_t link_index(std::string_view name) const {
    return find_name(name, "link", [](const Link<Scalar>& l) -> const std::string& { return l.name; });
  }
  /// The index of the joint named `name` (Link::joint_name; a URDF's joint name): the joint
  /// that moves link joint_index(name). Throws IndexError, listing the names, if none has it.
  std::size_t joint_index(std::string_view name) const {
    return find_name(name, "joint",
                     [](const Link<Scalar>& l) -> const std::string& { return l.joint_name; });
  }

  const PerLinkArray<Link<Scalar>, N>& links() const noexcept { return links_; }
  const Link<Scalar>& link(std::size_t i) const noexcept { return links_[i]; }
  /// The pose of joint i's frame in the parent link frame.
  const Transform<Scalar>& placement(std::size_t i) const noexcept { return placement_[i]; }
  /// The r of the AxisRowPattern<r> found in link i's placement when the chain was built (a
  /// joint that takes_axis_row: RevoluteZ), or -1; the algorithms choose the link transform's
  /// kernels by it (detail::with_link_pattern). A compile-time chain's only (a ChainX's joints
  /// carry their own: AnyJointModel::axis_row).
  template <int M = N, std::enable_if_t<M != Eigen::Dynamic, int> = 0>
  int axis_row(std::size_t i) const noexcept {
    return axis_rows_[i];
  }
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
  ChainStorage(const PerLinkArray<Link<Scalar>, N>& links, const Vector3<Scalar>& g,
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
  void check_link_index(std::size_t i) const { check_index(i, joint_count()); }

  /// Link i's inertia becomes its own plus `added` (a payload, in the internal link frame).
  void add_to_link_inertia(std::size_t i, const Inertia<Scalar>& added) {
    // RBDA eq. (2.66) moved `added` into the link frame; inertias of rigidly joined bodies add
    inertia_[i] = link_inertia_[i] + added;
    com_inertia_[i] = ComInertia<Scalar>(inertia_[i]);
  }
  /// Link i's inertia becomes its own again, bit for bit.
  void reset_link_inertia(std::size_t i) {
    inertia_[i] = link_inertia_[i];
    com_inertia_[i] = link_com_inertia(i);
  }

  /// Link i's own inertia in the centre-of-mass form, from the link's data as given (not
  /// derived from the origin form: no cancellation in I_C = I_O - m [c]x^T [c]x).
  ComInertia<Scalar> link_com_inertia(std::size_t i) const {
    const Link<Scalar>& l = links_[i];
    return ComInertia<Scalar>(l.mass, l.com, l.inertia);
  }

  /// Checks link i's placement against joint model JM's placement pattern, if it has one, and
  /// sets the entries the pattern states exactly (joints/placed.hpp; throws ModelError); for a
  /// joint that states none but takes_axis_row (RevoluteZ), finds the AxisRowPattern of the
  /// placement as a run-time joint does and sets its entries exactly (conform_axis_row).
  template <typename JM>
  void conform_placement(std::size_t i) {
    if constexpr (has_placement_pattern<JM>::value) JM::conform(placement_[i], where(i));
    if constexpr (N != Eigen::Dynamic) {
      axis_rows_[i] = static_cast<signed char>(
          takes_axis_row<JM>() ? conform_axis_row(placement_[i]) : -1);
    }
  }

  /// Lets joint i's run-time model (AnyJointModel) find the structure of link i's placement
  /// and set the entries it relies on exactly (joints/any_joint.hpp).
  template <typename JM>
  void conform_runtime_placement(std::size_t i, JM& joint) {
    joint.conform(placement_[i]);
  }

  /// The links in scalar To (for cast()).
  template <typename To>
  PerLinkArray<Link<To>, N> links_as() const {
    PerLinkArray<Link<To>, N> out;
    resize_per_link(out, joint_count());
    for (std::size_t i = 0; i < joint_count(); ++i) out[i] = cast_link<To>(links_[i]);
    return out;
  }

  /// Refuses a model whose mass matrix is singular at every configuration: a joint whose
  /// articulated-body pivot vanishes at q = 0 and at a few seeded configurations
  /// (detail::find_singular_joint, model/link.hpp). The chain constructors call it once their
  /// joint models are built (which check the axes). set_payload and clear_payload need no second
  /// check: a payload only adds inertia, so M(q) only grows (in the positive semi-definite order)
  /// from the model checked here, and with it every pivot (a Schur complement of M).
  /// With ModelChecks::regular off, a singular model is kept and has_dynamics() is false.
  /// `topology`: the model's parents (model/topology.hpp).
  template <typename Topology>
  void check_regular(const PerLinkArray<JointSlot, N>& slots, const Topology& topology) {
    std::vector<detail::PivotJoint> js(joint_count());
    std::vector<bool> leaf(joint_count(), true);
    for (std::size_t i = 0; i < joint_count(); ++i) {
      js[i] = detail::pivot_joint(slots[i], links_[i], inertia_[i], armature_[Eigen::Index(i)]);
      js[i].parent = topology.is_root(i) ? -1 : int(topology.parent(i));
      if (!topology.is_root(i)) leaf[topology.parent(i)] = false;
    }
    const int j = detail::find_singular_joint(js.data(), int(joint_count()));
    if (j >= 0) {
      const std::size_t i = std::size_t(j);
      if (!checks_.regular) {
        has_dynamics_ = false;
        return;
      }
      detail::throw_singular_joint(js[i], i, leaf[i], where(i));
    }
  }

  /// The links of a std::vector as this chain's per-link storage; throws ModelError when a
  /// compile-time chain gets another count.
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
  template <typename Get>
  std::size_t find_name(std::string_view name, const char* what, const Get& get) const {
    for (std::size_t i = 0; i < joint_count(); ++i) {
      if (!name.empty() && get(links_[i]) == name) return i;
    }
    std::string names;
    for (std::size_t i = 0; i < joint_count(); ++i) {
      names += (i ? ", '" : "'") + get(links_[i]) + "'";
    }
    throw_error<IndexError>("no ", what, " is named '", name, "'; the ", what, "s: ", names);
  }

  PerLinkArray<Link<Scalar>, N> links_;
  // The placements, the inertias rnea and crba read, the joint-dynamics vectors and the base
  // acceleration start at cache lines (and the model with it), so that where these numbers
  // fall in cache lines is the type's, not the allocator's. com_inertia_ (aba's) is left where
  // it falls (faster for clang++'s aba). A ChainX's arrays live on the heap, where malloc
  // aligns them (a batch pack's on cache lines: LineArray).
  alignas(64) LineArray<Transform<Scalar>, N> placement_;
  alignas(64) LineArray<Inertia<Scalar>, N> inertia_;  ///< link + payload (what they read)
  PerLinkArray<Inertia<Scalar>, N> link_inertia_;  ///< the link's own, as constructed
  LineArray<ComInertia<Scalar>, N> com_inertia_;  ///< inertia_ by its centre of mass

 protected:
  // The layers' own state, kept here so that one class fixes where everything lies (the
  // algorithms' numbers around them do not move when a layer changes).
  PerLinkArray<std::optional<Payload<Scalar>>, N> payload_;  ///< as given (user's link frame)
  /// The user's link frame in the internal one (link_frame), and whether it is not identity.
  PerLinkArray<Transform<Scalar>, N> link_frame_{};
  PerLinkArray<bool, N> link_frame_turned_{};
  std::vector<NamedFrame<Scalar, N>> frames_;

 private:
  ModelChecks checks_;
  bool has_dynamics_ = true;
  /// conform_placement's, -1: none (a compile-time chain's only)
  std::conditional_t<N != Eigen::Dynamic, PerLinkArray<signed char, N>, std::array<signed char, 0>>
      axis_rows_{};
  alignas(64) Vector damping_;
  alignas(64) Vector friction_;
  alignas(64) Vector armature_;
  Vector3<Scalar> gravity_;
  alignas(64) Motion<Scalar> a0_;
};

}  // namespace detail
}  // namespace chaindyn
