/// @file
/// Scalar helpers and the 3D Eigen aliases every spatial header uses.
#pragma once

#include <Eigen/Core>

#include <cmath>
#include <type_traits>

namespace chaindyn {

template <typename Scalar>
using Vector3 = Eigen::Matrix<Scalar, 3, 1>;
template <typename Scalar>
using Matrix3 = Eigen::Matrix<Scalar, 3, 3>;

namespace detail {

template <typename T, typename = void>
struct has_value_member : std::false_type {};
template <typename T>
struct has_value_member<T, std::void_t<decltype(std::declval<const T&>().value())>>
    : std::true_type {};

/// The plain number behind a scalar: the scalar itself for float and double, the value part
/// of an automatic-differentiation scalar (recursively, for nested AD types). Used only where a
/// decision is taken on a number (validation, the sign of a velocity), never in a derivative.
template <typename T>
double scalar_value(const T& x) {
  if constexpr (std::is_arithmetic_v<T>) {
    return static_cast<double>(x);
  } else if constexpr (has_value_member<T>::value) {
    return scalar_value(x.value());
  } else {
    return static_cast<double>(x);
  }
}

/// The skew-symmetric matrix of a vector, [a]x, such that [a]x b = a x b.
template <typename Scalar>
Matrix3<Scalar> skew(const Vector3<Scalar>& a) {
  Matrix3<Scalar> m;
  m << Scalar(0), -a.z(), a.y(),  //
      a.z(), Scalar(0), -a.x(),   //
      -a.y(), a.x(), Scalar(0);
  return m;
}

/// a x (s e_k): the cross product with a scaled coordinate axis, the sparsity a joint whose
/// axis is in its type exploits (two products instead of six).
template <int K, typename Scalar>
Vector3<Scalar> cross_axis(const Vector3<Scalar>& a, const Scalar& s) {
  static_assert(K >= 0 && K < 3, "axis index is 0 (x), 1 (y) or 2 (z)");
  if constexpr (K == 0) {
    return Vector3<Scalar>(Scalar(0), a.z() * s, -a.y() * s);
  } else if constexpr (K == 1) {
    return Vector3<Scalar>(-a.z() * s, Scalar(0), a.x() * s);
  } else {
    return Vector3<Scalar>(a.y() * s, -a.x() * s, Scalar(0));
  }
}

/// sign(x) in {-1, 0, 1}; the Coulomb friction model's direction.
template <typename Scalar>
Scalar sign(const Scalar& x) {
  const double v = scalar_value(x);
  return Scalar(v > 0.0 ? 1 : (v < 0.0 ? -1 : 0));
}

}  // namespace detail
}  // namespace chaindyn
