/// @file
/// Revolute joints: RevoluteX/Y/Z with the axis in the type, Revolute with an axis at run time.
///
/// A joint type is a tag that names the joint in a Chain; the chain stores, for scalar S,
/// `Joint::model<S>`, the object the algorithms call: joints/joint_model.hpp lists what it
/// offers and checks it.
#pragma once

#include "chaindyn/joints/joint_common.hpp"

namespace chaindyn {

namespace detail {

/// Revolute joint about coordinate axis K of the joint frame; S = (e_K; 0).
template <int K, typename Scalar>
struct RevoluteFixedModel {
  static_assert(K >= 0 && K < 3, "axis index is 0 (x), 1 (y) or 2 (z)");
  static constexpr JointKind kind = JointKind::revolute;
  static constexpr int fixed_axis = K;  ///< the axis in the type: 0 x, 1 y, 2 z
  static constexpr bool has_runtime_axis = fixed_axis < 0;

  RevoluteFixedModel() = default;
  RevoluteFixedModel(const std::optional<Vector3<Scalar>>& axis, const std::string& where) {
    check_fixed_axis<K>(axis, where, "Revolute");
  }

  Vector3<Scalar> axis() const { return Vector3<Scalar>::Unit(K); }

  /// placement * Rot_K(q): two columns of the placement rotation mix, the third is kept.
  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement, const Scalar& q) const noexcept {
    Scalar s, c;
    sincos_library(q, s, c);
    return pose(placement, q, s, c);
  }
  /// The same with s = sin(q), c = cos(q) given (the algorithms compute them in one batch).
  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement, const Scalar& /*q*/,
                                                const Scalar& s, const Scalar& c) const noexcept {
    constexpr int i = (K + 1) % 3;
    constexpr int j = (K + 2) % 3;
    Transform<Scalar> out;
    const Matrix3<Scalar>& r = placement.rotation;
    out.rotation.col(K) = r.col(K);
    out.rotation.col(i) = c * r.col(i) + s * r.col(j);
    out.rotation.col(j) = c * r.col(j) - s * r.col(i);
    out.translation = placement.translation;
    return out;
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> motion(const Scalar& qd) const noexcept {
    Motion<Scalar> m;
    m.angular[K] = qd;
    return m;
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> cross_motion(const Motion<Scalar>& v, const Scalar& qd) const noexcept {
    return Motion<Scalar>(cross_axis<K>(v.angular, qd), cross_axis<K>(v.linear, qd));
  }
  /// x.act(S): the motion subspace column in another frame, (R e_K; p x R e_K).
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> subspace_in(const Transform<Scalar>& x) const noexcept {
    const Vector3<Scalar> w = x.rotation.col(K);
    return Motion<Scalar>(w, cross3(x.translation, w));
  }
  /// (S qd) x* f = (e_K qd x n; e_K qd x f) (RBDA eq. 2.32 with v = S qd).
  CHAINDYN_ALWAYS_INLINE Force<Scalar> cross_force(const Scalar& qd, const Force<Scalar>& f) const noexcept {
    const Scalar minus_qd = -qd;  // a Scalar, not an expression (AutoDiffScalar)
    return Force<Scalar>(cross_axis<K>(f.angular, minus_qd), cross_axis<K>(f.linear, minus_qd));
  }
  CHAINDYN_ALWAYS_INLINE Scalar project(const Force<Scalar>& f) const noexcept { return f.angular[K]; }
  /// I S = (I_O e_K; e_K x h).
  CHAINDYN_ALWAYS_INLINE Force<Scalar> column(const Inertia<Scalar>& inertia) const noexcept {
    return Force<Scalar>(inertia.rotational.col(K),
                         cross_axis<K>(inertia.first_moment, Scalar(-1)));
  }
  CHAINDYN_ALWAYS_INLINE Force<Scalar> column(const ArticulatedInertia<Scalar>& ia) const noexcept {
    return Force<Scalar>(ia.A.col(K), ia.B.row(K).transpose());
  }
};

/// Revolute joint about a unit axis a of the joint frame, given at run time; S = (a; 0).
template <typename Scalar>
struct RevoluteAxisModel {
  static constexpr JointKind kind = JointKind::revolute;
  static constexpr int fixed_axis = -1;  ///< none: the axis is given per link
  static constexpr bool has_runtime_axis = fixed_axis < 0;
  Vector3<Scalar> a = Vector3<Scalar>::UnitZ();

  RevoluteAxisModel() = default;
  RevoluteAxisModel(const std::optional<Vector3<Scalar>>& axis, const std::string& where)
      : a(checked_unit_axis(axis, where, "Revolute")) {}

  Vector3<Scalar> axis() const { return a; }

  /// placement * Rot(a, q), Rot by Rodrigues' formula c 1 + s [a]x + (1 - c) a a^T.
  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement, const Scalar& q) const noexcept {
    Scalar s, c;
    sincos_library(q, s, c);
    return pose(placement, q, s, c);
  }
  /// The same with s = sin(q), c = cos(q) given.
  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement, const Scalar& /*q*/,
                                                const Scalar& s, const Scalar& c) const noexcept {
    const Vector3<Scalar> sa = s * a;
    const Vector3<Scalar> ta = (Scalar(1) - c) * a;
    Matrix3<Scalar> rot = ta * a.transpose();
    rot(0, 0) += c;
    rot(1, 1) += c;
    rot(2, 2) += c;
    detail::add_skew(rot, sa);
    return Transform<Scalar>(placement.rotation * rot, placement.translation);
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> motion(const Scalar& qd) const noexcept {
    return Motion<Scalar>(a * qd, Vector3<Scalar>::Zero());
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> cross_motion(const Motion<Scalar>& v, const Scalar& qd) const noexcept {
    const Vector3<Scalar> w = a * qd;
    return Motion<Scalar>(detail::cross3(v.angular, w), detail::cross3(v.linear, w));
  }
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> subspace_in(const Transform<Scalar>& x) const noexcept {
    const Vector3<Scalar> w = mul(x.rotation, a);
    return Motion<Scalar>(w, cross3(x.translation, w));
  }
  /// (a qd; 0) x* f = (a qd x n; a qd x f).
  CHAINDYN_ALWAYS_INLINE Force<Scalar> cross_force(const Scalar& qd, const Force<Scalar>& f) const noexcept {
    const Vector3<Scalar> w = a * qd;
    return Force<Scalar>(detail::cross3(w, f.angular), detail::cross3(w, f.linear));
  }
  CHAINDYN_ALWAYS_INLINE Scalar project(const Force<Scalar>& f) const noexcept { return a.dot(f.angular); }
  CHAINDYN_ALWAYS_INLINE Force<Scalar> column(const Inertia<Scalar>& inertia) const noexcept {
    return Force<Scalar>(inertia.rotational * a, detail::cross3(a, inertia.first_moment));
  }
  CHAINDYN_ALWAYS_INLINE Force<Scalar> column(const ArticulatedInertia<Scalar>& ia) const noexcept {
    return Force<Scalar>(ia.A * a, ia.B.transpose() * a);
  }
};

}  // namespace detail

/// Revolute joint about axis K (0: x, 1: y, 2: z) of its joint frame.
template <int K>
struct RevoluteAxis {
  template <typename Scalar>
  using model = detail::RevoluteFixedModel<K, Scalar>;
};
using RevoluteX = RevoluteAxis<0>;
using RevoluteY = RevoluteAxis<1>;
using RevoluteZ = RevoluteAxis<2>;

/// Revolute joint about a unit axis given per link at run time (Link::axis; normalized).
struct Revolute {
  template <typename Scalar>
  using model = detail::RevoluteAxisModel<Scalar>;
};

}  // namespace chaindyn
