/// @file
/// Sine and cosine of every joint coordinate in one branch-free pass.
///
/// A revolute joint needs sin(q_i) and cos(q_i) once per call of every algorithm. Seven calls
/// of the C library's sin and cos cost ~80 ns on this project's benchmark machine, as much as
/// half the arithmetic of an iiwa RNEA. `sincos` below computes all of them in one loop the
/// compiler vectorises (no calls, no branches per element): measured against long double over
/// 10^6 angles, at most 1.53 ulp for |x| <= 100 and 2.26 ulp up to 1e5 (the C library: 0.52);
/// tests/test_spatial.cpp requires <= 2.5 ulp.
///
/// Method (e.g. Muller, *Elementary Functions*, 3rd ed., secs. 11.1 and 11.2):
///   1. Cody–Waite reduction: k = nearest integer to x 2/pi, r = x - k pi/2 with pi/2 split
///      into three parts P1 + P2 + P3 (P1 and P2 have 33 significant bits, so k P1 and k P2
///      are exact for |k| < 2^20); |r| <= pi/4.
///   2. sin r and cos r by their Taylor polynomials to r^15 and r^16 (Horner): on |r| <= pi/4
///      the first omitted terms are below 5e-17 and 3e-18.
///   3. The quadrant k mod 4 swaps and negates: sin x = (sin r, cos r, -sin r, -cos r)[k mod 4],
///      cos x = (cos r, -sin r, -cos r, sin r)[k mod 4].
/// Angles beyond |x| = 1e5 rad, infinities and NaN take the C library's sin and cos (one
/// branch per batch, never taken in practice). Under -ffast-math the compiler may reorder the
/// reduction, so the C library is used throughout; scalar types other than float and double
/// (long double, automatic differentiation) use their own sin and cos.
#pragma once

#include "chaindyn/spatial/kernels.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace chaindyn {
namespace detail {

/// sin and cos of one number with the scalar type's own functions (ADL for AD types).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void sincos_library(const Scalar& x, Scalar& s, Scalar& c) {
  using std::cos;
  using std::sin;
  s = sin(x);
  c = cos(x);
}

/// sin and cos of one lane type by the method above: D is double or a GCC/Clang vector of
/// doubles (batch::Pack's lanes, chaindyn/batch/pack.hpp) and Bits the unsigned (or signed)
/// 64-bit integer of the same shape. Written once for both: the arithmetic, `& | + == != ?:`
/// mean the same on a number and lane by lane on a vector, so every lane of a pack gets the
/// one-state result. x, s and c point to the sizeof(D) / 8 doubles of the lanes. Requires
/// |x| <= 1e5. (Through pointers and memcpy: a vector passed by value changes the ABI between
/// targets, and a pack may align its vector less than the vector type this template sees.)
template <typename D, typename Bits>
inline CHAINDYN_ALWAYS_INLINE void sincos_kernel(const double* x_in, double* s_out,
                                                 double* c_out) noexcept {
  D x;
  std::memcpy(&x, x_in, sizeof x);
  constexpr double two_over_pi = 0x1.45f306dc9c883p-1;
  constexpr double p1 = 0x1.921fb54400000p+0;  // pi/2 = p1 + p2 + p3
  constexpr double p2 = 0x1.0b4611a600000p-34;
  constexpr double p3 = 0x1.3198a2e037073p-69;
  // Adding 1.5 * 2^52 rounds to the nearest integer and leaves it in the low mantissa bits.
  constexpr double round_shift = 0x1.8p52;
  const D shifted = x * two_over_pi + round_shift;
  const D k = shifted - round_shift;
  Bits bits;
  static_assert(sizeof bits == sizeof shifted, "Bits must have D's shape");
  std::memcpy(&bits, &shifted, sizeof bits);
  const Bits quadrant = bits & 3;
  const D r = ((x - k * p1) - k * p2) - k * p3;
  const D z = r * r;
  // sin r = r (1 - z/3! + z^2/5! - ... - z^7/15!)
  const D ps =
      -1.0 / 6 +
      z * (1.0 / 120 +
           z * (-1.0 / 5040 +
                z * (1.0 / 362880 +
                     z * (-1.0 / 39916800 +
                          z * (1.0 / 6227020800 + z * (-1.0 / 1307674368000.0))))));
  const D sin_r = r + r * z * ps;
  // cos r = 1 - z/2! + z^2/4! - ... + z^8/16!
  const D pc =
      1.0 / 24 +
      z * (-1.0 / 720 +
           z * (1.0 / 40320 +
                z * (-1.0 / 3628800 +
                     z * (1.0 / 479001600 +
                          z * (-1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0))))));
  const D cos_r = 1.0 - 0.5 * z + z * z * pc;
  // The quadrant swaps and negates (on a vector: lane-wise selects, no branch).
  const D sv = (quadrant & 1) != 0 ? cos_r : sin_r;
  const D cv = (quadrant & 1) != 0 ? sin_r : cos_r;
  const D s = (quadrant & 2) != 0 ? -sv : sv;
  const D c = ((quadrant + 1) & 2) != 0 ? -cv : cv;
  std::memcpy(s_out, &s, sizeof s);
  std::memcpy(c_out, &c, sizeof c);
}

/// sin and cos of x[0..n) into s and c: the branch-free kernel above (double arithmetic;
/// float inputs are computed in double and rounded once). Requires |x| <= 1e5 for all.
template <typename T>
inline CHAINDYN_ALWAYS_INLINE void sincos_reduced(const T* x, T* s, T* c, int n) noexcept {
  for (int i = 0; i < n; ++i) {
    const double xi = double(x[i]);
    double si, ci;
    sincos_kernel<double, std::uint64_t>(&xi, &si, &ci);
    s[i] = T(si);
    c[i] = T(ci);
  }
}

/// The SIMD width sincos_padded works at: a target's widest vector of doubles (8 with AVX-512,
/// 4 with AVX, else 2).
#if defined(__AVX512F__)
inline constexpr int kSincosLanes = 8;
#elif defined(__AVX__)
inline constexpr int kSincosLanes = 4;
#else
inline constexpr int kSincosLanes = 2;
#endif

/// Whether sincos hands the angles after the last whole vector of kSincosLanes to
/// sincos_padded: with clang++, which vectorises sincos_reduced's loop at the full vector width
/// and runs the rest one angle at a time (a 7-joint chain's angles all of them, with AVX-512).
/// g++ vectorises that rest too, and the padded vector made its rnea of the iiwa's ChainX ~10 %
/// slower (docs/benchmarks.md, "Measurements behind the code").
inline constexpr bool kSincosPaddedRest = kClangCompiler;

#if defined(__GNUC__) || defined(__clang__)
/// sincos_reduced of fewer than kSincosLanes angles, as one GCC/Clang vector whose unused lanes
/// are zero. Requires |x| <= 1e5 for all. (Through arrays and memcpy, as sincos_kernel: no
/// vector crosses a call.)
template <typename T>
inline CHAINDYN_ALWAYS_INLINE void sincos_padded(const T* x, T* s, T* c, int n) noexcept {
  constexpr int L = kSincosLanes;
  typedef double Lanes __attribute__((vector_size(8 * L)));
  typedef std::uint64_t LaneBits __attribute__((vector_size(8 * L)));
  double xl[L] = {}, sl[L], cl[L];
  for (int j = 0; j < n; ++j) xl[j] = double(x[j]);
  sincos_kernel<Lanes, LaneBits>(xl, sl, cl);
  for (int j = 0; j < n; ++j) {
    s[j] = T(sl[j]);
    c[j] = T(cl[j]);
  }
}
#endif

/// s[i] = sin(x[i]), c[i] = cos(x[i]) for i < n.
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void sincos(const Scalar* x, Scalar* s, Scalar* c, int n) noexcept {
  if constexpr (is_pack<Scalar>::value) {
    // A SIMD pack of states (batch/pack.hpp): its sincos_states, found by argument-dependent
    // lookup, runs sincos_kernel on every lane at once and gives each lane the numbers below.
    sincos_states(x, s, c, n);
  } else {
#ifndef __FAST_MATH__
    if constexpr (std::is_same_v<Scalar, double> || std::is_same_v<Scalar, float>) {
      bool in_range = true;
      for (int i = 0; i < n; ++i) in_range &= std::abs(double(x[i])) <= 1e5;  // false for NaN
      if (in_range) {
#if defined(__GNUC__) || defined(__clang__)
        if constexpr (kSincosPaddedRest) {
          const int whole = n - n % kSincosLanes;  // angles in whole vectors
          sincos_reduced(x, s, c, whole);
          if (whole < n) sincos_padded(x + whole, s + whole, c + whole, n - whole);
          return;
        }
#endif
        sincos_reduced(x, s, c, n);
        return;
      }
    }
#endif
    for (int i = 0; i < n; ++i) sincos_library(x[i], s[i], c[i]);
  }
}

}  // namespace detail
}  // namespace chaindyn
