/// @file
/// The 3D Eigen aliases, the scalar helpers and the written-out 3x3 kernels (cross products,
/// matrix-vector and matrix-matrix products, rotations of inertia-like matrices) every spatial
/// header and algorithm uses.
#pragma once

#include "chaindyn/config.hpp"

#include <Eigen/Core>

#include <cmath>
#include <type_traits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/// Whether a scalar is a SIMD pack of states (chaindyn/batch/pack.hpp): a type with a static
/// member `lanes`. The kernels that decide on a number (sign, sincos's range check) take its
/// branch-free lane-wise form then, found by argument-dependent lookup.
template <typename T, typename = void>
struct is_pack : std::false_type {};
template <typename T>
struct is_pack<T, std::void_t<decltype(T::lanes)>> : std::true_type {};

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

/// The Vector3 (x, y, z), with x and y written by one 16-byte store when Scalar is double on
/// x86 (SSE2). Eigen reads the first two entries of a Vector3d as one 16-byte packet (its sums,
/// differences and scalings of 3-vectors: a packet of two and one scalar). When the vector was
/// built by three 8-byte stores, the packet load spans two stores, which the processor cannot
/// forward: the load waits until both stores have retired, ~10-20 cycles, on the critical path
/// of every link (g++ keeps such temporaries in memory; clang++ builds the packet in
/// registers and never stalls). Written as one store, the load is forwarded (the figures:
/// docs/benchmarks.md, "Measurements behind the code"). The kernels that return a Vector3
/// (cross3, mul, mul_transpose, the placement patterns' products and Inertia's products) build
/// it here, and so do the sums that Eigen reads as packets next (add3_packed). add3 and sub3 do
/// not: through make3 everywhere they made g++'s rnea slower, where nothing stalled on them.
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> make3(const Scalar& x, const Scalar& y,
                                                    const Scalar& z) {
#if defined(__SSE2__)
  if constexpr (std::is_same<Scalar, double>::value) {
    Vector3<Scalar> out;
    _mm_storeu_pd(out.data(), _mm_setr_pd(x, y));
    out.data()[2] = z;
    return out;
  } else
#endif
  {
    return Vector3<Scalar>(x, y, z);
  }
}

/// a x b, written out: g++ 12 leaves Eigen's cross() out of line in the hot loops.
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> cross3(const Vector3<Scalar>& a,
                                                     const Vector3<Scalar>& b) {
  return make3<Scalar>(a.y() * b.z() - a.z() * b.y(), a.z() * b.x() - a.x() * b.z(),
                       a.x() * b.y() - a.y() * b.x());
}

/// a + b and a - b, written out: g++ 12 calls Eigen's constructor of a Vector3 from the sum of
/// two evaluated Vector3s out of line in the hot loops.
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> add3(const Vector3<Scalar>& a,
                                                   const Vector3<Scalar>& b) {
  return Vector3<Scalar>(a.x() + b.x(), a.y() + b.y(), a.z() + b.z());
}
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> sub3(const Vector3<Scalar>& a,
                                                   const Vector3<Scalar>& b) {
  return Vector3<Scalar>(a.x() - b.x(), a.y() - b.y(), a.z() - b.z());
}

/// a + b built by make3: for the sums that Eigen reads as packets right after (the spatial
/// cross products' and Inertia's product's sums of two 3x3 kernels), where add3's three
/// scalar stores stall g++'s next packet load (see make3).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> add3_packed(const Vector3<Scalar>& a,
                                                          const Vector3<Scalar>& b) {
  return make3<Scalar>(a.x() + b.x(), a.y() + b.y(), a.z() + b.z());
}

/// m v and m^T v for 3x3 m, written out for the same reason as cross3.
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> mul(const Matrix3<Scalar>& m,
                                                  const Vector3<Scalar>& v) {
  return make3<Scalar>(m(0, 0) * v.x() + m(0, 1) * v.y() + m(0, 2) * v.z(),
                       m(1, 0) * v.x() + m(1, 1) * v.y() + m(1, 2) * v.z(),
                       m(2, 0) * v.x() + m(2, 1) * v.y() + m(2, 2) * v.z());
}
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> mul_transpose(const Matrix3<Scalar>& m,
                                                            const Vector3<Scalar>& v) {
  return make3<Scalar>(m(0, 0) * v.x() + m(1, 0) * v.y() + m(2, 0) * v.z(),
                       m(0, 1) * v.x() + m(1, 1) * v.y() + m(2, 1) * v.z(),
                       m(0, 2) * v.x() + m(1, 2) * v.y() + m(2, 2) * v.z());
}

/// a b for 3x3 matrices, written out (g++ 12 calls Eigen's 3x3 product out of line).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Matrix3<Scalar> mul(const Matrix3<Scalar>& a,
                                                  const Matrix3<Scalar>& b) {
  Matrix3<Scalar> out;
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) {
      out(i, j) = a(i, 0) * b(0, j) + a(i, 1) * b(1, j) + a(i, 2) * b(2, j);
    }
  }
  return out;
}

/// f(i, j) for the six entries i <= j of a symmetric 3x3 matrix, written out: g++ 12 leaves
/// the triangular double loop `for i, for j >= i` rolled in the hot kernels (a run-time loop
/// with computed indices), where it unrolls the square ones.
template <typename F>
inline CHAINDYN_ALWAYS_INLINE void for_upper3(F&& f) {
  f(0, 0);
  f(0, 1);
  f(0, 2);
  f(1, 1);
  f(1, 2);
  f(2, 2);
}

/// m += [v]x (the cross-product matrix, v x u = [v]x u) entry by entry: the six off-diagonal
/// entries only, no 3x3 temporary (the joints' Rodrigues rotation, the articulated inertia's
/// B += [h]x).
template <typename Derived, typename V>
inline CHAINDYN_ALWAYS_INLINE void add_skew(Eigen::MatrixBase<Derived>& m, const V& v) {
  m(0, 1) -= v[2];
  m(0, 2) += v[1];
  m(1, 0) += v[2];
  m(1, 2) -= v[0];
  m(2, 0) -= v[1];
  m(2, 1) += v[0];
}

/// r s r^T for a symmetric s (a change of basis of an inertia-like matrix); symmetric result.
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Matrix3<Scalar> rotate_symmetric(const Matrix3<Scalar>& r,
                                                               const Matrix3<Scalar>& s) {
  const Matrix3<Scalar> t = mul(r, s);
  Matrix3<Scalar> out;
  for_upper3([&](const int i, const int j) CHAINDYN_ALWAYS_INLINE {
    out(i, j) = t(i, 0) * r(j, 0) + t(i, 1) * r(j, 1) + t(i, 2) * r(j, 2);
    out(j, i) = out(i, j);
  });
  return out;
}

/// r m r^T for a general m.
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Matrix3<Scalar> rotate(const Matrix3<Scalar>& r,
                                                     const Matrix3<Scalar>& m) {
  const Matrix3<Scalar> t = mul(r, m);
  Matrix3<Scalar> out;
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) {
      out(i, j) = t(i, 0) * r(j, 0) + t(i, 1) * r(j, 1) + t(i, 2) * r(j, 2);
    }
  }
  return out;
}

/// [p]x m: each column crossed with p.
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Matrix3<Scalar> skew_mul(const Vector3<Scalar>& p,
                                                       const Matrix3<Scalar>& m) {
  Matrix3<Scalar> out;
  for (int j = 0; j < 3; ++j) {
    out(0, j) = p.y() * m(2, j) - p.z() * m(1, j);
    out(1, j) = p.z() * m(0, j) - p.x() * m(2, j);
    out(2, j) = p.x() * m(1, j) - p.y() * m(0, j);
  }
  return out;
}

/// [p]x m^T: each row of m, as a column, crossed with p (no transposed temporary: g++ 12 warns
/// -Wmaybe-uninitialized inside Eigen's aliasing check on one, with assertions on).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Matrix3<Scalar> skew_mul_transpose(const Vector3<Scalar>& p,
                                                                 const Matrix3<Scalar>& m) {
  Matrix3<Scalar> out;
  for (int j = 0; j < 3; ++j) {
    out(0, j) = p.y() * m(j, 2) - p.z() * m(j, 1);
    out(1, j) = p.z() * m(j, 0) - p.x() * m(j, 2);
    out(2, j) = p.x() * m(j, 1) - p.y() * m(j, 0);
  }
  return out;
}

/// a x (s e_k): the cross product with a scaled coordinate axis, the sparsity a joint whose
/// axis is in its type exploits (two products instead of six).
template <int K, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> cross_axis(const Vector3<Scalar>& a, const Scalar& s) {
  static_assert(K >= 0 && K < 3, "axis index is 0 (x), 1 (y) or 2 (z)");
  if constexpr (K == 0) {
    return Vector3<Scalar>(Scalar(0), a.z() * s, -a.y() * s);
  } else if constexpr (K == 1) {
    return Vector3<Scalar>(-a.z() * s, Scalar(0), a.x() * s);
  } else {
    return Vector3<Scalar>(a.y() * s, -a.x() * s, Scalar(0));
  }
}

/// sign(x) in {-1, 0, 1}; the Coulomb friction model's direction. For a pack of states, lane by
/// lane with two selects (no branch).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Scalar sign(const Scalar& x) {
  if constexpr (is_pack<Scalar>::value) {
    const Scalar zero(0.0);
    return select(x > zero, Scalar(1.0), select(x < zero, Scalar(-1.0), zero));
  } else {
    const double v = scalar_value(x);
    return Scalar(v > 0.0 ? 1 : (v < 0.0 ? -1 : 0));
  }
}

}  // namespace detail
}  // namespace chaindyn
