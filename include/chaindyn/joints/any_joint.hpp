/// @file
/// AnyJoint: a revolute or prismatic joint about / along a unit axis, both chosen at run time
/// (the joint of ChainX, the runtime-sized chain).
///
/// Its model holds the two run-time-axis models of revolute.hpp and prismatic.hpp on the same
/// axis and forwards every call of the joint model interface (revolute.hpp) to the one its kind
/// names: the algorithms run the same joint code as a Revolute or Prismatic joint of a
/// compile-time chain, plus one well-predicted branch per call.
#pragma once

#include "chaindyn/joints/prismatic.hpp"
#include "chaindyn/joints/revolute.hpp"

namespace chaindyn {

namespace detail {

/// A revolute (S = (a; 0)) or prismatic (S = (0; a)) joint, kind and unit axis a given at run
/// time.
template <typename Scalar>
struct AnyJointModel {
  static constexpr int fixed_axis = -1;  ///< none: the axis is given per link
  static constexpr bool has_runtime_axis = true;

  AnyJointModel() = default;
  /// Checks and normalizes the axis (ModelError naming `where` if it is absent, not finite or
  /// zero).
  AnyJointModel(JointKind kind, const std::optional<Vector3<Scalar>>& axis,
                const std::string& where)
      : kind_(kind) {
    const char* name = kind == JointKind::prismatic ? "Prismatic" : "Revolute";
    revolute_.a = prismatic_.a = checked_unit_axis(axis, where, name);
  }

  JointKind kind() const noexcept { return kind_; }
  JointSlot slot() const noexcept { return JointSlot{kind_, -1}; }
  Vector3<Scalar> axis() const { return revolute_.a; }

  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement,
                                                const Scalar& q) const noexcept {
    return prismatic() ? prismatic_.pose(placement, q) : revolute_.pose(placement, q);
  }
  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement, const Scalar& q,
                                                const Scalar& s, const Scalar& c) const noexcept {
    return prismatic() ? prismatic_.pose(placement, q) : revolute_.pose(placement, q, s, c);
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> motion(const Scalar& qd) const noexcept {
    return prismatic() ? prismatic_.motion(qd) : revolute_.motion(qd);
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> cross_motion(const Motion<Scalar>& v,
                                                     const Scalar& qd) const noexcept {
    return prismatic() ? prismatic_.cross_motion(v, qd) : revolute_.cross_motion(v, qd);
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> subspace_in(const Transform<Scalar>& x) const noexcept {
    return prismatic() ? prismatic_.subspace_in(x) : revolute_.subspace_in(x);
  }
  CHAINDYN_ALWAYS_INLINE Scalar project(const Force<Scalar>& f) const noexcept {
    return prismatic() ? prismatic_.project(f) : revolute_.project(f);
  }
  CHAINDYN_ALWAYS_INLINE Force<Scalar> column(const Inertia<Scalar>& inertia) const noexcept {
    return prismatic() ? prismatic_.column(inertia) : revolute_.column(inertia);
  }
  CHAINDYN_ALWAYS_INLINE Force<Scalar> column(const ArticulatedInertia<Scalar>& ia) const noexcept {
    return prismatic() ? prismatic_.column(ia) : revolute_.column(ia);
  }

 private:
  CHAINDYN_ALWAYS_INLINE bool prismatic() const noexcept { return kind_ == JointKind::prismatic; }

  JointKind kind_ = JointKind::revolute;
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
