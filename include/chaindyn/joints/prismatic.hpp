/// @file
/// Prismatic joints: PrismaticX/Y/Z with the axis in the type, Prismatic with an axis at run
/// time. The joint model interface is described in revolute.hpp.
#pragma once

#include "chaindyn/joints/joint_common.hpp"

namespace chaindyn {

namespace detail {

/// Prismatic joint along coordinate axis K of the joint frame; S = (0; e_K).
template <int K, typename Scalar>
struct PrismaticFixedModel {
  static_assert(K >= 0 && K < 3, "axis index is 0 (x), 1 (y) or 2 (z)");
  static constexpr JointKind kind = JointKind::prismatic;
  static constexpr int fixed_axis = K;  ///< the axis in the type: 0 x, 1 y, 2 z
  static constexpr bool has_runtime_axis = fixed_axis < 0;

  PrismaticFixedModel() = default;
  PrismaticFixedModel(const std::optional<Vector3<Scalar>>& axis, const std::string& where) {
    check_fixed_axis<K>(axis, where, "Prismatic");
  }

  Vector3<Scalar> axis() const { return Vector3<Scalar>::Unit(K); }

  /// placement * Trans(q e_K).
  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement, const Scalar& q) const noexcept {
    return Transform<Scalar>(placement.rotation,
                             placement.translation + placement.rotation.col(K) * q);
  }
  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement, const Scalar& q,
                                                const Scalar& /*s*/, const Scalar& /*c*/) const noexcept {
    return pose(placement, q);
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> motion(const Scalar& qd) const noexcept {
    Motion<Scalar> m;
    m.linear[K] = qd;
    return m;
  }
  /// v x (0; qd e_K) = (0; w x qd e_K).
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> cross_motion(const Motion<Scalar>& v, const Scalar& qd) const noexcept {
    return Motion<Scalar>(Vector3<Scalar>::Zero(), cross_axis<K>(v.angular, qd));
  }
  /// x.act(S) = (0; R e_K).
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> subspace_in(const Transform<Scalar>& x) const noexcept {
    return Motion<Scalar>(Vector3<Scalar>::Zero(), x.rotation.col(K));
  }
  /// (0; e_K qd) x* f = (e_K qd x f; 0).
  CHAINDYN_ALWAYS_INLINE Force<Scalar> cross_force(const Scalar& qd, const Force<Scalar>& f) const noexcept {
    const Scalar minus_qd = -qd;  // a Scalar, not an expression (AutoDiffScalar)
    return Force<Scalar>(cross_axis<K>(f.linear, minus_qd), Vector3<Scalar>::Zero());
  }
  CHAINDYN_ALWAYS_INLINE Scalar project(const Force<Scalar>& f) const noexcept { return f.linear[K]; }
  /// I S = (h x e_K; m e_K).
  CHAINDYN_ALWAYS_INLINE Force<Scalar> column(const Inertia<Scalar>& inertia) const noexcept {
    Force<Scalar> out(cross_axis<K>(inertia.first_moment, Scalar(1)), Vector3<Scalar>::Zero());
    out.linear[K] = inertia.mass;
    return out;
  }
  CHAINDYN_ALWAYS_INLINE Force<Scalar> column(const ArticulatedInertia<Scalar>& ia) const noexcept {
    return Force<Scalar>(ia.B.col(K), ia.C.col(K));
  }
};

/// Prismatic joint along a unit axis a of the joint frame, given at run time; S = (0; a).
template <typename Scalar>
struct PrismaticAxisModel {
  static constexpr JointKind kind = JointKind::prismatic;
  static constexpr int fixed_axis = -1;  ///< none: the axis is given per link
  static constexpr bool has_runtime_axis = fixed_axis < 0;
  Vector3<Scalar> a = Vector3<Scalar>::UnitZ();

  PrismaticAxisModel() = default;
  PrismaticAxisModel(const std::optional<Vector3<Scalar>>& axis, const std::string& where)
      : a(checked_unit_axis(axis, where, "Prismatic")) {}

  Vector3<Scalar> axis() const { return a; }

  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement, const Scalar& q) const noexcept {
    return Transform<Scalar>(placement.rotation,
                             placement.translation + placement.rotation * (a * q));
  }
  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement, const Scalar& q,
                                                const Scalar& /*s*/, const Scalar& /*c*/) const noexcept {
    return pose(placement, q);
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> motion(const Scalar& qd) const noexcept {
    return Motion<Scalar>(Vector3<Scalar>::Zero(), a * qd);
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> cross_motion(const Motion<Scalar>& v, const Scalar& qd) const noexcept {
    return Motion<Scalar>(Vector3<Scalar>::Zero(), detail::cross3(v.angular, Vector3<Scalar>(a * qd)));
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> subspace_in(const Transform<Scalar>& x) const noexcept {
    return Motion<Scalar>(Vector3<Scalar>::Zero(), mul(x.rotation, a));
  }
  /// (0; a qd) x* f = (a qd x f; 0).
  CHAINDYN_ALWAYS_INLINE Force<Scalar> cross_force(const Scalar& qd, const Force<Scalar>& f) const noexcept {
    return Force<Scalar>(detail::cross3(Vector3<Scalar>(a * qd), f.linear), Vector3<Scalar>::Zero());
  }
  CHAINDYN_ALWAYS_INLINE Scalar project(const Force<Scalar>& f) const noexcept { return a.dot(f.linear); }
  CHAINDYN_ALWAYS_INLINE Force<Scalar> column(const Inertia<Scalar>& inertia) const noexcept {
    return Force<Scalar>(detail::cross3(inertia.first_moment, a), inertia.mass * a);
  }
  CHAINDYN_ALWAYS_INLINE Force<Scalar> column(const ArticulatedInertia<Scalar>& ia) const noexcept {
    return Force<Scalar>(ia.B * a, ia.C * a);
  }
};

}  // namespace detail

/// Prismatic joint along axis K (0: x, 1: y, 2: z) of its joint frame.
template <int K>
struct PrismaticAxis {
  template <typename Scalar>
  using model = detail::PrismaticFixedModel<K, Scalar>;
};
using PrismaticX = PrismaticAxis<0>;
using PrismaticY = PrismaticAxis<1>;
using PrismaticZ = PrismaticAxis<2>;

/// Prismatic joint along a unit axis given per link at run time (Link::axis; normalized).
struct Prismatic {
  template <typename Scalar>
  using model = detail::PrismaticAxisModel<Scalar>;
};

}  // namespace chaindyn
