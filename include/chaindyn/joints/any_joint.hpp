/// @file
/// AnyJoint: a revolute or prismatic joint about / along a unit axis, both chosen at run time
/// (the joint of ChainX, the runtime-sized chain).
///
/// Its model forwards every call of the joint model interface (revolute.hpp) to the joint model
/// of its kind and axis: RevoluteZ / PrismaticZ's for an axis that is exactly z, Revolute /
/// Prismatic's (the run-time axis) otherwise. The algorithms run the same joint code as a
/// compile-time chain of those joints, plus one well-predicted switch per call.
///
/// The structure of a placement, which a compile-time chain states in its joint types (Placed,
/// placed.hpp), a run-time joint finds when its model is built (AnyJointModel::conform): a
/// revolute joint about z whose placement maps z to a coordinate axis of the parent (column z
/// of the placement rotation is +-e_r to within kPatternTolerance, as for most joints of a
/// URDF arm) has a link transform liMi = placement * Rz(q) with row r = (0, 0, +-1) and column
/// z zero elsewhere. Those entries are set exactly in the placement the algorithms read, and the
/// transforms between the link and its parent (to_link, to_parent, to_parent_plus, and compose
/// with clang++: kPatternedCompose) skip them: one switch per call picks the kernel of r
/// (AxisRowPattern<r>) or the dense one.
#pragma once

#include "chaindyn/joints/placed.hpp"
#include "chaindyn/joints/prismatic.hpp"
#include "chaindyn/joints/revolute.hpp"

#include <cstddef>
#include <utility>

namespace chaindyn {

namespace detail {

/// A revolute (S = (a; 0)) or prismatic (S = (0; a)) joint, kind and unit axis a given at run
/// time. An axis that is exactly z (what urdf::load_any, the DH builders and ChainX::from a
/// RevoluteZ/PrismaticZ chain give) takes the code of RevoluteZ / PrismaticZ, whose S^T f is
/// one component and I S one column; any other axis that of Revolute / Prismatic.
template <typename Scalar>
struct AnyJointModel {
  static constexpr int fixed_axis = -1;  ///< none in the type: the axis is given per link
  static constexpr bool has_runtime_axis = true;

  AnyJointModel() = default;
  /// Checks and normalizes the axis (ModelError naming `where` if it is absent, not finite or
  /// zero).
  AnyJointModel(JointKind kind, const std::optional<Vector3<Scalar>>& axis,
                const std::string& where) {
    const bool prismatic = kind == JointKind::prismatic;
    revolute_.a = prismatic_.a =
        checked_unit_axis(axis, where, prismatic ? "Prismatic" : "Revolute");
    const Vector3<Scalar>& a = revolute_.a;
    const bool z = scalar_value(a.x()) == 0.0 && scalar_value(a.y()) == 0.0 &&
                   scalar_value(a.z()) == 1.0;
    mode_ = prismatic ? (z ? Mode::prismatic_z : Mode::prismatic) : (z ? Mode::revolute_z : Mode::revolute);
  }

  JointKind kind() const noexcept {
    return mode_ == Mode::prismatic || mode_ == Mode::prismatic_z ? JointKind::prismatic
                                                                   : JointKind::revolute;
  }
  JointSlot slot() const noexcept { return JointSlot{kind(), -1}; }
  /// Whether this is a revolute joint about z (the code of RevoluteZ).
  bool revolute_about_z() const noexcept { return mode_ == Mode::revolute_z; }
  Vector3<Scalar> axis() const { return revolute_.a; }

  /// For a revolute joint about z: when column z of `placement`'s rotation is +-e_r to within
  /// kPatternTolerance (the joint's axis is a coordinate axis of the parent link), sets that
  /// column and row r of the other two columns exactly (+-1 and zeros), and keeps r: the link
  /// transforms then take the kernels of AxisRowPattern<r> (see the file comment). Otherwise
  /// leaves the placement as it is (dense kernels).
  void conform(Transform<Scalar>& placement) noexcept {
    axis_row_ = kNoAxisRow;
    if (mode_ != Mode::revolute_z) return;
    const int r = conform_axis_row(placement);
    if (r >= 0) axis_row_ = static_cast<unsigned char>(r);
  }

  /// The r of AxisRowPattern<r> that conform() found, or -1 (dense kernels).
  int axis_row() const noexcept { return axis_row_ == kNoAxisRow ? -1 : int(axis_row_); }

  /// f(PatternTag<the pattern of this joint's link transform>): AxisRowPattern<r> for a joint
  /// that conform() found so, DensePattern otherwise (one switch).
  template <typename F>
  CHAINDYN_ALWAYS_INLINE auto with_link_pattern(F&& f) const noexcept {
    return with_axis_row_pattern<DensePattern>(axis_row_, std::forward<F>(f));
  }

  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement,
                                                const Scalar& q) const noexcept {
    return visit([&](const auto& j) CHAINDYN_ALWAYS_INLINE { return j.pose(placement, q); });
  }
  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement, const Scalar& q,
                                                const Scalar& s, const Scalar& c) const noexcept {
    return visit([&](const auto& j) CHAINDYN_ALWAYS_INLINE { return j.pose(placement, q, s, c); });
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> motion(const Scalar& qd) const noexcept {
    return visit([&](const auto& j) CHAINDYN_ALWAYS_INLINE { return j.motion(qd); });
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> cross_motion(const Motion<Scalar>& v,
                                                     const Scalar& qd) const noexcept {
    return visit([&](const auto& j) CHAINDYN_ALWAYS_INLINE { return j.cross_motion(v, qd); });
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> subspace_in(const Transform<Scalar>& x) const noexcept {
    return visit([&](const auto& j) CHAINDYN_ALWAYS_INLINE { return j.subspace_in(x); });
  }
  CHAINDYN_ALWAYS_INLINE Force<Scalar> cross_force(const Scalar& qd,
                                                    const Force<Scalar>& f) const noexcept {
    return visit([&](const auto& j) CHAINDYN_ALWAYS_INLINE { return j.cross_force(qd, f); });
  }
  CHAINDYN_ALWAYS_INLINE Scalar project(const Force<Scalar>& f) const noexcept {
    return visit([&](const auto& j) CHAINDYN_ALWAYS_INLINE { return j.project(f); });
  }
  CHAINDYN_ALWAYS_INLINE Force<Scalar> column(const Inertia<Scalar>& inertia) const noexcept {
    return visit([&](const auto& j) CHAINDYN_ALWAYS_INLINE { return j.column(inertia); });
  }
  CHAINDYN_ALWAYS_INLINE Force<Scalar> column(const ArticulatedInertia<Scalar>& ia) const noexcept {
    return visit([&](const auto& j) CHAINDYN_ALWAYS_INLINE { return j.column(ia); });
  }

 private:
  enum class Mode : unsigned char { revolute_z, prismatic_z, revolute, prismatic };

  /// f(the joint model of this joint's kind and axis): one switch, the case the model's own.
  template <typename F>
  CHAINDYN_ALWAYS_INLINE auto visit(F&& f) const noexcept {
    switch (mode_) {
      case Mode::revolute_z:
        return f(RevoluteFixedModel<2, Scalar>());
      case Mode::prismatic_z:
        return f(PrismaticFixedModel<2, Scalar>());
      case Mode::prismatic:
        return f(prismatic_);
      case Mode::revolute:
        break;
    }
    return f(revolute_);
  }

  static constexpr unsigned char kNoAxisRow = 3;

  Mode mode_ = Mode::revolute;
  unsigned char axis_row_ = kNoAxisRow;  ///< r of AxisRowPattern<r>, or kNoAxisRow (dense)
  RevoluteAxisModel<Scalar> revolute_;
  PrismaticAxisModel<Scalar> prismatic_;
};

/// A run-time joint's link pattern is its own (AnyJointModel::with_link_pattern): the
/// transforms between a link and its parent (placed.hpp) take its kernels.
template <typename Model, typename Scalar, typename F>
inline CHAINDYN_ALWAYS_INLINE auto with_link_pattern(const Model&, std::size_t,
                                                     const AnyJointModel<Scalar>& joint, F&& f) {
  return joint.with_link_pattern(std::forward<F>(f));
}

}  // namespace detail

/// A revolute or prismatic joint whose kind and axis are given per link at run time (the joint
/// type of ChainX).
struct AnyJoint {
  template <typename Scalar>
  using model = detail::AnyJointModel<Scalar>;
};

}  // namespace chaindyn
