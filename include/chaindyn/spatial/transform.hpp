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
  ///
  /// Computed in closed form through unit quaternions (no Eigen/Geometry expression code to
  /// compile): the half-angle quaternions of the three axis rotations, their Hamilton product
  /// q = qz qy qx and the rotation matrix of q (Shoemake 1985; the same operations, in the same
  /// order, as Eigen's AngleAxis products and Quaternion::toRotationMatrix, so the matrix is
  /// the same to the last bit).
  static Transform FromRPY(const Scalar& roll, const Scalar& pitch, const Scalar& yaw,
                           const Vector3<Scalar>& p = Vector3<Scalar>::Zero()) {
    using std::cos;
    using std::sin;
    struct Quaternion {
      Scalar x, y, z, w;
    };
    // The quaternion of a rotation by `angle` about the unit axis (ax, ay, az).
    const auto axis_angle = [](const Scalar& angle, const Scalar& ax, const Scalar& ay,
                               const Scalar& az) {
      const Scalar half = Scalar(0.5) * angle;
      const Scalar s = sin(half);
      return Quaternion{s * ax, s * ay, s * az, cos(half)};
    };
    // a b, each component grouped as (t1 +- t2) as Eigen's SSE product groups it.
    const auto product = [](const Quaternion& a, const Quaternion& b) {
      return Quaternion{(a.w * b.x + a.y * b.z) - (a.z * b.y - a.x * b.w),
                        (a.w * b.y + a.y * b.w) + (a.z * b.x - a.x * b.z),
                        (a.w * b.z - a.y * b.x) + (a.z * b.w + a.x * b.y),
                        (a.w * b.w - a.y * b.y) - (a.z * b.z + a.x * b.x)};
    };
    const Scalar zero(0), one(1);
    const Quaternion q = product(product(axis_angle(yaw, zero, zero, one),
                                         axis_angle(pitch, zero, one, zero)),
                                 axis_angle(roll, one, zero, zero));
    const Scalar tx = Scalar(2) * q.x, ty = Scalar(2) * q.y, tz = Scalar(2) * q.z;
    const Scalar twx = tx * q.w, twy = ty * q.w, twz = tz * q.w;
    const Scalar txx = tx * q.x, txy = ty * q.x, txz = tz * q.x;
    const Scalar tyy = ty * q.y, tyz = tz * q.y, tzz = tz * q.z;
    Matrix3<Scalar> r;
    r(0, 0) = one - (tyy + tzz);
    r(0, 1) = txy - twz;
    r(0, 2) = txz + twy;
    r(1, 0) = txy + twz;
    r(1, 1) = one - (txx + tzz);
    r(1, 2) = tyz - twx;
    r(2, 0) = txz - twy;
    r(2, 1) = tyz + twx;
    r(2, 2) = one - (txx + tyy);
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
