/// @file
/// Spatial motion and force vectors and their cross products (RBDA ch. 2).
///
/// Both are ordered [angular; linear], as in Featherstone's *Rigid Body Dynamics Algorithms*
/// (RBDA). A Motion (velocity, acceleration, motion subspace column) is (omega; v_O), the
/// angular velocity and the velocity of the point at the frame origin O. A Force (wrench) is
/// (n_O; f), the moment about O and the resultant force. dot(Motion, Force) is power.
#pragma once

#include "chaindyn/spatial/fwd.hpp"

namespace chaindyn {

template <typename Scalar>
struct Motion {
  Vector3<Scalar> angular = Vector3<Scalar>::Zero();
  Vector3<Scalar> linear = Vector3<Scalar>::Zero();

  Motion() = default;
  Motion(const Vector3<Scalar>& angular_, const Vector3<Scalar>& linear_)
      : angular(angular_), linear(linear_) {}

  static Motion Zero() { return Motion(); }

  /// The six components [angular; linear].
  Eigen::Matrix<Scalar, 6, 1> vector() const {
    Eigen::Matrix<Scalar, 6, 1> out;
    out << angular, linear;
    return out;
  }

  Motion& operator+=(const Motion& o) {
    angular += o.angular;
    linear += o.linear;
    return *this;
  }
  Motion& operator-=(const Motion& o) {
    angular -= o.angular;
    linear -= o.linear;
    return *this;
  }
  friend Motion operator+(Motion a, const Motion& b) { return a += b; }
  friend Motion operator-(Motion a, const Motion& b) { return a -= b; }
  friend Motion operator-(const Motion& a) { return Motion(-a.angular, -a.linear); }
  friend Motion operator*(const Scalar& s, const Motion& m) {
    return Motion(s * m.angular, s * m.linear);
  }
  friend Motion operator*(const Motion& m, const Scalar& s) { return s * m; }
};

template <typename Scalar>
struct Force {
  Vector3<Scalar> angular = Vector3<Scalar>::Zero();  ///< moment about the frame origin
  Vector3<Scalar> linear = Vector3<Scalar>::Zero();   ///< resultant force

  Force() = default;
  Force(const Vector3<Scalar>& angular_, const Vector3<Scalar>& linear_)
      : angular(angular_), linear(linear_) {}

  static Force Zero() { return Force(); }

  /// The six components [angular; linear].
  Eigen::Matrix<Scalar, 6, 1> vector() const {
    Eigen::Matrix<Scalar, 6, 1> out;
    out << angular, linear;
    return out;
  }

  Force& operator+=(const Force& o) {
    angular += o.angular;
    linear += o.linear;
    return *this;
  }
  Force& operator-=(const Force& o) {
    angular -= o.angular;
    linear -= o.linear;
    return *this;
  }
  friend Force operator+(Force a, const Force& b) { return a += b; }
  friend Force operator-(Force a, const Force& b) { return a -= b; }
  friend Force operator-(const Force& a) { return Force(-a.angular, -a.linear); }
  friend Force operator*(const Scalar& s, const Force& f) {
    return Force(s * f.angular, s * f.linear);
  }
  friend Force operator*(const Force& f, const Scalar& s) { return s * f; }
};

/// Power: m . f = omega . n + v . f (RBDA eq. 2.11).
template <typename Scalar>
Scalar dot(const Motion<Scalar>& m, const Force<Scalar>& f) {
  return m.angular.dot(f.angular) + m.linear.dot(f.linear);
}
template <typename Scalar>
Scalar dot(const Force<Scalar>& f, const Motion<Scalar>& m) {
  return dot(m, f);
}

/// Motion cross product m x n = (w x w'; w x v' + v x w') (RBDA eq. 2.31).
template <typename Scalar>
Motion<Scalar> cross(const Motion<Scalar>& m, const Motion<Scalar>& n) {
  return Motion<Scalar>(m.angular.cross(n.angular),
                        m.angular.cross(n.linear) + m.linear.cross(n.angular));
}

/// Force cross product m x* f = (w x n + v x f; w x f) (RBDA eq. 2.32).
template <typename Scalar>
Force<Scalar> cross(const Motion<Scalar>& m, const Force<Scalar>& f) {
  return Force<Scalar>(m.angular.cross(f.angular) + m.linear.cross(f.linear),
                       m.angular.cross(f.linear));
}

}  // namespace chaindyn
