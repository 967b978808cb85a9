/// @file
/// Spatial motion and force vectors and their cross products (RBDA ch. 2).
///
/// Both are ordered [angular; linear], as in Featherstone's *Rigid Body Dynamics Algorithms*
/// (RBDA). A Motion (velocity, acceleration, motion subspace column) is (omega; v_O), the
/// angular velocity and the velocity of the point at the frame origin O. A Force (wrench) is
/// (n_O; f), the moment about O and the resultant force. dot(Motion, Force) is power.
#pragma once

#include "chaindyn/spatial/kernels.hpp"

namespace chaindyn {

template <typename Scalar>
struct Motion {
  Vector3<Scalar> angular = Vector3<Scalar>::Zero();
  Vector3<Scalar> linear = Vector3<Scalar>::Zero();

  CHAINDYN_ALWAYS_INLINE Motion() {}
  CHAINDYN_ALWAYS_INLINE Motion(const Vector3<Scalar>& angular_, const Vector3<Scalar>& linear_)
      : angular(angular_), linear(linear_) {}

  static Motion Zero() { return Motion(); }

  /// The six components [angular; linear].
  Eigen::Matrix<Scalar, 6, 1> vector() const {
    Eigen::Matrix<Scalar, 6, 1> out;
    out << angular, linear;
    return out;
  }

  CHAINDYN_ALWAYS_INLINE Motion& operator+=(const Motion& o) {
    angular += o.angular;
    linear += o.linear;
    return *this;
  }
  CHAINDYN_ALWAYS_INLINE Motion& operator-=(const Motion& o) {
    angular -= o.angular;
    linear -= o.linear;
    return *this;
  }
  friend CHAINDYN_ALWAYS_INLINE Motion operator+(Motion a, const Motion& b) { return a += b; }
  friend CHAINDYN_ALWAYS_INLINE Motion operator-(Motion a, const Motion& b) { return a -= b; }
  friend CHAINDYN_ALWAYS_INLINE Motion operator-(const Motion& a) { return Motion(-a.angular, -a.linear); }
  friend CHAINDYN_ALWAYS_INLINE Motion operator*(const Scalar& s, const Motion& m) {
    return Motion(s * m.angular, s * m.linear);
  }
  friend CHAINDYN_ALWAYS_INLINE Motion operator*(const Motion& m, const Scalar& s) { return s * m; }
};

template <typename Scalar>
struct Force {
  Vector3<Scalar> angular = Vector3<Scalar>::Zero();  ///< moment about the frame origin
  Vector3<Scalar> linear = Vector3<Scalar>::Zero();   ///< resultant force

  CHAINDYN_ALWAYS_INLINE Force() {}
  CHAINDYN_ALWAYS_INLINE Force(const Vector3<Scalar>& angular_, const Vector3<Scalar>& linear_)
      : angular(angular_), linear(linear_) {}

  static Force Zero() { return Force(); }

  /// The six components [angular; linear].
  Eigen::Matrix<Scalar, 6, 1> vector() const {
    Eigen::Matrix<Scalar, 6, 1> out;
    out << angular, linear;
    return out;
  }

  CHAINDYN_ALWAYS_INLINE Force& operator+=(const Force& o) {
    angular += o.angular;
    linear += o.linear;
    return *this;
  }
  CHAINDYN_ALWAYS_INLINE Force& operator-=(const Force& o) {
    angular -= o.angular;
    linear -= o.linear;
    return *this;
  }
  friend CHAINDYN_ALWAYS_INLINE Force operator+(Force a, const Force& b) { return a += b; }
  friend CHAINDYN_ALWAYS_INLINE Force operator-(Force a, const Force& b) { return a -= b; }
  friend CHAINDYN_ALWAYS_INLINE Force operator-(const Force& a) { return Force(-a.angular, -a.linear); }
  friend CHAINDYN_ALWAYS_INLINE Force operator*(const Scalar& s, const Force& f) {
    return Force(s * f.angular, s * f.linear);
  }
  friend CHAINDYN_ALWAYS_INLINE Force operator*(const Force& f, const Scalar& s) { return s * f; }
};

/// Power: m . f = omega . n + v . f (RBDA eq. 2.11).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Scalar dot(const Motion<Scalar>& m, const Force<Scalar>& f) {
  return m.angular.dot(f.angular) + m.linear.dot(f.linear);
}
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Scalar dot(const Force<Scalar>& f, const Motion<Scalar>& m) {
  return dot(m, f);
}

/// Motion cross product m x n = (w x w'; w x v' + v x w') (RBDA eq. 2.31).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Motion<Scalar> cross(const Motion<Scalar>& m, const Motion<Scalar>& n) {
  return Motion<Scalar>(detail::cross3(m.angular, n.angular),
                        detail::add3_packed(detail::cross3(m.angular, n.linear),
                                            detail::cross3(m.linear, n.angular)));
}

/// Force cross product m x* f = (w x n + v x f; w x f) (RBDA eq. 2.32).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Force<Scalar> cross(const Motion<Scalar>& m, const Force<Scalar>& f) {
  return Force<Scalar>(detail::add3_packed(detail::cross3(m.angular, f.angular),
                                           detail::cross3(m.linear, f.linear)),
                       detail::cross3(m.angular, f.linear));
}

}  // namespace chaindyn
