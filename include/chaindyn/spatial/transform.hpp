/// @file
/// Rigid transforms between frames, acting on points, motions and forces (RBDA sec. 2.8).
#pragma once

#include "chaindyn/spatial/motion.hpp"

#include <Eigen/Geometry>

namespace chaindyn {

/// The pose of a frame B in a frame A: a point with coordinates x_B in B has coordinates
/// x_A = rotation * x_B + translation in A. `rotation` has B's axes as columns (in A
/// coordinates) and `translation` is B's origin in A coordinates.
///
/// act() carries a motion or force expressed in B into A coordinates (Featherstone's
/// ^A X_B and ^A X_B^*); act_inv() carries one from A into B (^B X_A, ^B X_A^*). For a link,
/// act_inv() of its pose in the parent is Featherstone's Xup[i].
template <typename Scalar>
struct Transform {
  Matrix3<Scalar> rotation = Matrix3<Scalar>::Identity();
  Vector3<Scalar> translation = Vector3<Scalar>::Zero();

  CHAINDYN_ALWAYS_INLINE Transform() {}
  CHAINDYN_ALWAYS_INLINE Transform(const Matrix3<Scalar>& rotation_, const Vector3<Scalar>& translation_)
      : rotation(rotation_), translation(translation_) {}

  static Transform Identity() { return Transform(); }
  /// A pure translation.
  static Transform Translation(const Vector3<Scalar>& p) {
    return Transform(Matrix3<Scalar>::Identity(), p);
  }
  /// A pure rotation.
  static Transform Rotation(const Matrix3<Scalar>& r) {
    return Transform(r, Vector3<Scalar>::Zero());
  }
  /// Rotation from roll-pitch-yaw angles (URDF `rpy`: R = Rz(yaw) Ry(pitch) Rx(roll)).
  static Transform FromRPY(const Scalar& roll, const Scalar& pitch, const Scalar& yaw,
                           const Vector3<Scalar>& p = Vector3<Scalar>::Zero()) {
    using Axis = Eigen::AngleAxis<Scalar>;
    const Matrix3<Scalar> r = (Axis(yaw, Vector3<Scalar>::UnitZ()) *
                               Axis(pitch, Vector3<Scalar>::UnitY()) *
                               Axis(roll, Vector3<Scalar>::UnitX()))
                                  .toRotationMatrix();
    return Transform(r, p);
  }

  /// Composition: (pose of B in A) * (pose of C in B) = pose of C in A.
  friend CHAINDYN_ALWAYS_INLINE Transform operator*(const Transform& ab, const Transform& bc) {
    return Transform(detail::mul(ab.rotation, bc.rotation),
                     detail::mul(ab.rotation, bc.translation) + ab.translation);
  }

  /// The pose of A in B.
  Transform inverse() const {
    const Matrix3<Scalar> rt = rotation.transpose();
    return Transform(rt, -(rt * translation));
  }

  /// A point's coordinates in A from its coordinates in B.
  CHAINDYN_ALWAYS_INLINE Vector3<Scalar> act_point(const Vector3<Scalar>& x) const {
    return rotation * x + translation;
  }

  /// Motion in B -> A: (R w; R v + p x R w) (RBDA eq. 2.24 for ^A X_B).
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> act(const Motion<Scalar>& m) const {
    const Vector3<Scalar> w = detail::mul(rotation, m.angular);
    return Motion<Scalar>(w, detail::mul(rotation, m.linear) + detail::cross3(translation, w));
  }
  /// Motion in A -> B: (R^T w; R^T (v - p x w)).
  CHAINDYN_ALWAYS_INLINE Motion<Scalar> act_inv(const Motion<Scalar>& m) const {
    const Vector3<Scalar> v = m.linear - detail::cross3(translation, m.angular);
    return Motion<Scalar>(detail::mul_transpose(rotation, m.angular),
                          detail::mul_transpose(rotation, v));
  }
  /// Force in B -> A: (R n + p x R f; R f) (RBDA eq. 2.25).
  CHAINDYN_ALWAYS_INLINE Force<Scalar> act(const Force<Scalar>& f) const {
    const Vector3<Scalar> lin = detail::mul(rotation, f.linear);
    return Force<Scalar>(detail::mul(rotation, f.angular) + detail::cross3(translation, lin), lin);
  }
  /// Force in A -> B: (R^T (n - p x f); R^T f).
  CHAINDYN_ALWAYS_INLINE Force<Scalar> act_inv(const Force<Scalar>& f) const {
    const Vector3<Scalar> n = f.angular - detail::cross3(translation, f.linear);
    return Force<Scalar>(detail::mul_transpose(rotation, n),
                         detail::mul_transpose(rotation, f.linear));
  }

  /// The 6x6 Plucker matrix of act() on motions, [R 0; [p]R R] (for tests and users; the
  /// algorithms never build it).
  Eigen::Matrix<Scalar, 6, 6> motion_matrix() const {
    Eigen::Matrix<Scalar, 6, 6> x = Eigen::Matrix<Scalar, 6, 6>::Zero();
    x.template topLeftCorner<3, 3>() = rotation;
    x.template bottomRightCorner<3, 3>() = rotation;
    x.template bottomLeftCorner<3, 3>() = detail::skew(translation) * rotation;
    return x;
  }
};

}  // namespace chaindyn
