/// @file
/// AnyJoint: a revolute or prismatic joint about / along a unit axis, both chosen at run time
/// (the joint of ChainX, the runtime-sized chain).
///
/// Its model forwards every call of the joint model interface (revolute.hpp) to the joint model
/// of its kind and axis: RevoluteZ / PrismaticZ's for an axis that is exactly z, Revolute /
/// Prismatic's (the run-time axis) otherwise. The algorithms run the same joint code as a
/// compile-time chain of those joints, plus one well-predicted switch per call.
#pragma once

#include "chaindyn/joints/prismatic.hpp"
#include "chaindyn/joints/revolute.hpp"

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
  Vector3<Scalar> axis() const { return revolute_.a; }

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

  Mode mode_ = Mode::revolute;
  RevoluteAxisModel<Scalar> revolute_;
  PrismaticAxisModel<Scalar> prismatic_;
};

}  // namespace detail

/// A revolute or prismatic joint whose kind and axis are given per link at run time (the joint
/// type of ChainX).
struct AnyJoint {
  template <typename Scalar>
  using model = detail::AnyJointModel<Scalar>;
};

}  // namespace chaindyn
