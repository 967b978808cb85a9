/// @file
/// Pack<W>: W doubles in one SIMD register, a scalar type the generic algorithms run on, so one
/// call of rnea, aba or crba evaluates W robot states at once (one state per lane).
///
/// Why a small type of our own over the GCC/Clang vector extensions, not a SIMD library such as
/// xsimd (Debian libxsimd-dev 8.1): the algorithms need only + - * /, comparisons, a select,
/// sqrt and the sine and cosine of the library's own kernel (spatial/sincos.hpp), which the
/// vector extensions give on every target g++ and clang++ compile for (a vector wider than the
/// target's registers is split into several instructions by the compiler, so Pack<8> compiles
/// and is tested without AVX-512 too). The core keeps its one dependency (Eigen), the type is
/// ~200 lines that read like the scalar code, and every lane computes with the same operations
/// in the same order as the one-state algorithm (results equal to ~1 ulp: fused multiply-adds
/// may be contracted differently in the two). MSVC has no vector extensions: there, and
/// wherever `CHAINDYN_BATCH_NO_VECTOR_EXTENSIONS` is defined, the width is 1 (plain double).
///
/// The width fits the target the file is compiled for (`-march=native` on an AVX-512 machine:
/// 8 doubles; AVX/AVX2: 4; SSE2 or NEON: 2; else 1): batch::native_width. As with Eigen's
/// fixed-size types, compile every translation unit that shares a batch::Workspace with the same
/// flags.
#pragma once

#include "chaindyn/spatial/sincos.hpp"

#include <Eigen/Core>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if !defined(CHAINDYN_BATCH_NO_VECTOR_EXTENSIONS) && (defined(__GNUC__) || defined(__clang__))
#define CHAINDYN_BATCH_VECTOR_EXTENSIONS 1
#endif

namespace chaindyn::batch {

/// The lane count of the target's widest double registers (see the file comment).
#if defined(CHAINDYN_BATCH_VECTOR_EXTENSIONS) && defined(__AVX512F__)
inline constexpr int native_width = 8;
#elif defined(CHAINDYN_BATCH_VECTOR_EXTENSIONS) && defined(__AVX__)
inline constexpr int native_width = 4;
#elif defined(CHAINDYN_BATCH_VECTOR_EXTENSIONS) && (defined(__SSE2__) || defined(__ARM_NEON))
inline constexpr int native_width = 2;
#else
inline constexpr int native_width = 1;
#endif

#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS

namespace detail {
/// A pack's alignment: its size, but no more than Eigen's largest static alignment for this
/// target (EIGEN_MAX_STATIC_ALIGN_BYTES: 64 with AVX-512, 32 with AVX, 16 with SSE2), because
/// Eigen's fixed-size storage asks for at most that and a C++ compiler refuses an array of a
/// type aligned more than the array itself. A pack wider than the target's registers (Pack<8>
/// without AVX-512) then loads and stores unaligned, which costs nothing on current CPUs.
constexpr int pack_alignment(int bytes) {
  constexpr int eigen_max = EIGEN_MAX_STATIC_ALIGN_BYTES > 0 ? EIGEN_MAX_STATIC_ALIGN_BYTES : 8;
  return bytes < eigen_max ? bytes : eigen_max;
}
/// The vector types of W doubles and W 64-bit integers. Spelled out per width: g++ 12 does not
/// apply a vector_size that depends on a template parameter inside a class template's body.
template <int W>
struct VectorTypes;
template <>
struct VectorTypes<2> {
  typedef double Double __attribute__((vector_size(16), aligned(pack_alignment(16))));
  typedef std::int64_t Int __attribute__((vector_size(16), aligned(pack_alignment(16))));
};
template <>
struct VectorTypes<4> {
  typedef double Double __attribute__((vector_size(32), aligned(pack_alignment(32))));
  typedef std::int64_t Int __attribute__((vector_size(32), aligned(pack_alignment(32))));
};
template <>
struct VectorTypes<8> {
  typedef double Double __attribute__((vector_size(64), aligned(pack_alignment(64))));
  typedef std::int64_t Int __attribute__((vector_size(64), aligned(pack_alignment(64))));
};
}  // namespace detail

/// The result of comparing two packs: all bits set in a lane where the comparison holds.
template <int W>
struct Mask {
  using Native = typename detail::VectorTypes<W>::Int;
  Native v;

  friend Mask operator&(const Mask& a, const Mask& b) noexcept { return Mask{a.v & b.v}; }
  friend Mask operator|(const Mask& a, const Mask& b) noexcept { return Mask{a.v | b.v}; }
  friend Mask operator!(const Mask& a) noexcept { return Mask{~a.v}; }
  /// True if the comparison holds in every lane. Only for Eigen's generic code, which compares
  /// scalars in a few places that are dead for a real scalar (GeneralProduct.h:
  /// `imag(alpha) == 0` for complex-by-real products); chaindyn's algorithms never branch on a
  /// state's number (they take select(), and the tests check every lane against the one-state
  /// algorithm).
  explicit operator bool() const noexcept {
    bool out = true;
    for (int l = 0; l < W; ++l) out &= v[l] != 0;
    return out;
  }
};

/// True if the comparison holds in every lane / in some lane.
template <int W>
inline bool all(const Mask<W>& m) noexcept {
  bool out = true;
  for (int l = 0; l < W; ++l) out &= m.v[l] != 0;
  return out;
}
template <int W>
inline bool any(const Mask<W>& m) noexcept {
  bool out = false;
  for (int l = 0; l < W; ++l) out |= m.v[l] != 0;
  return out;
}

/// W doubles, one per lane, with the arithmetic of double lane by lane. A double converts to a
/// Pack implicitly (every lane the same), so the algorithms' constants (Scalar(0), Scalar(2))
/// and the model's numbers need no code of their own. With clang++ a product and the sum or
/// difference that takes it fuse into one multiply-add, as g++ fuses them by default
/// (CHAINDYN_FP_CONTRACT_HERE, config.hpp: a pack's a * b + c is two operator calls).
template <int W>
struct Pack {
  static_assert(W == 2 || W == 4 || W == 8, "a Pack holds 2, 4 or 8 doubles");
  /// The lane count (its presence is how the library's kernels recognise a pack:
  /// detail::is_pack in spatial/kernels.hpp).
  static constexpr int lanes = W;
  using Native = typename detail::VectorTypes<W>::Double;
  Native v;

  Pack() = default;
  /// Every lane x.
  CHAINDYN_ALWAYS_INLINE Pack(double x) noexcept : v(Native{} + x) {}  // NOLINT: implicit
  CHAINDYN_ALWAYS_INLINE explicit Pack(const Native& n) noexcept : v(n) {}

  /// Lane l.
  double operator[](int l) const noexcept { return v[l]; }
  void set(int l, double x) noexcept { v[l] = x; }
  /// Lane 0: only for numbers every lane shares (a model's parameters, which the chain's
  /// validation reads through detail::scalar_value); a decision on a state's number takes a
  /// Mask and select() instead.
  explicit operator double() const noexcept { return v[0]; }

  CHAINDYN_ALWAYS_INLINE Pack& operator+=(const Pack& o) noexcept {
    CHAINDYN_FP_CONTRACT_HERE v += o.v;
    return *this;
  }
  CHAINDYN_ALWAYS_INLINE Pack& operator-=(const Pack& o) noexcept {
    CHAINDYN_FP_CONTRACT_HERE v -= o.v;
    return *this;
  }
  CHAINDYN_ALWAYS_INLINE Pack& operator*=(const Pack& o) noexcept {
    CHAINDYN_FP_CONTRACT_HERE v *= o.v;
    return *this;
  }
  CHAINDYN_ALWAYS_INLINE Pack& operator/=(const Pack& o) noexcept { v /= o.v; return *this; }

  friend CHAINDYN_ALWAYS_INLINE Pack operator+(const Pack& a, const Pack& b) noexcept {
    CHAINDYN_FP_CONTRACT_HERE return Pack(a.v + b.v);
  }
  friend CHAINDYN_ALWAYS_INLINE Pack operator-(const Pack& a, const Pack& b) noexcept {
    CHAINDYN_FP_CONTRACT_HERE return Pack(a.v - b.v);
  }
  friend CHAINDYN_ALWAYS_INLINE Pack operator*(const Pack& a, const Pack& b) noexcept {
    CHAINDYN_FP_CONTRACT_HERE return Pack(a.v * b.v);
  }
  friend CHAINDYN_ALWAYS_INLINE Pack operator/(const Pack& a, const Pack& b) noexcept {
    return Pack(a.v / b.v);
  }
  friend CHAINDYN_ALWAYS_INLINE Pack operator-(const Pack& a) noexcept { return Pack(-a.v); }
  friend CHAINDYN_ALWAYS_INLINE Pack operator+(const Pack& a) noexcept { return a; }

  friend Mask<W> operator<(const Pack& a, const Pack& b) noexcept { return Mask<W>{a.v < b.v}; }
  friend Mask<W> operator>(const Pack& a, const Pack& b) noexcept { return Mask<W>{a.v > b.v}; }
  friend Mask<W> operator<=(const Pack& a, const Pack& b) noexcept { return Mask<W>{a.v <= b.v}; }
  friend Mask<W> operator>=(const Pack& a, const Pack& b) noexcept { return Mask<W>{a.v >= b.v}; }
  friend Mask<W> operator==(const Pack& a, const Pack& b) noexcept { return Mask<W>{a.v == b.v}; }
  friend Mask<W> operator!=(const Pack& a, const Pack& b) noexcept { return Mask<W>{a.v != b.v}; }
};

/// a where m holds, b elsewhere (branch-free: one blend).
template <int W>
inline CHAINDYN_ALWAYS_INLINE Pack<W> select(const Mask<W>& m, const Pack<W>& a,
                                             const Pack<W>& b) noexcept {
  return Pack<W>(m.v ? a.v : b.v);
}

template <int W>
inline CHAINDYN_ALWAYS_INLINE Pack<W> abs(const Pack<W>& x) noexcept {
  return select(x < Pack<W>(0.0), -x, x);
}
template <int W>
inline CHAINDYN_ALWAYS_INLINE Pack<W> min(const Pack<W>& a, const Pack<W>& b) noexcept {
  return select(b < a, b, a);
}
template <int W>
inline CHAINDYN_ALWAYS_INLINE Pack<W> max(const Pack<W>& a, const Pack<W>& b) noexcept {
  return select(a < b, b, a);
}
/// Lane by lane (the library calls it only when a model is built or checked, never in the
/// algorithms: forward_dynamics_crba's Cholesky, the axis normalisation).
template <int W>
inline Pack<W> sqrt(const Pack<W>& x) noexcept {
  Pack<W> out;
  for (int l = 0; l < W; ++l) out.v[l] = std::sqrt(x.v[l]);
  return out;
}
template <int W>
inline Mask<W> isfinite(const Pack<W>& x) noexcept {
  return abs(x) <= Pack<W>(std::numeric_limits<double>::max());  // false for inf and NaN
}

/// sin and cos of n joint coordinates, each a pack of W states, with each lane's numbers those
/// of the one-state algorithm (detail::sincos): a state whose coordinates are all within
/// |x| <= 1e5 takes the kernel for every joint, a state with one coordinate beyond, infinite or
/// NaN takes the C library for every joint, whatever its neighbours in the pack hold.
template <int W>
inline CHAINDYN_ALWAYS_INLINE void sincos_states(const Pack<W>* x, Pack<W>* s, Pack<W>* c,
                                                 int n) noexcept {
#ifndef __FAST_MATH__
  Mask<W> in_range{~typename Mask<W>::Native{}};
  for (int i = 0; i < n; ++i) in_range = in_range & (abs(x[i]) <= Pack<W>(1e5));
  if (all(in_range)) {
    for (int i = 0; i < n; ++i) {
      double xs[W], ss[W], cs[W];
      std::memcpy(xs, &x[i].v, sizeof xs);
      chaindyn::detail::sincos_kernel<typename Pack<W>::Native, typename Mask<W>::Native>(xs, ss,
                                                                                          cs);
      std::memcpy(&s[i].v, ss, sizeof ss);
      std::memcpy(&c[i].v, cs, sizeof cs);
    }
    return;
  }
  for (int l = 0; l < W; ++l) {
    const bool kernel = in_range.v[l] != 0;
    for (int i = 0; i < n; ++i) {
      double sl, cl;
      if (kernel) {
        const double xl = x[i].v[l];
        chaindyn::detail::sincos_kernel<double, std::uint64_t>(&xl, &sl, &cl);
      } else {
        sl = std::sin(x[i].v[l]);
        cl = std::cos(x[i].v[l]);
      }
      s[i].v[l] = sl;
      c[i].v[l] = cl;
    }
  }
#else
  for (int i = 0; i < n; ++i) {
    for (int l = 0; l < W; ++l) {
      s[i].v[l] = std::sin(x[i].v[l]);
      c[i].v[l] = std::cos(x[i].v[l]);
    }
  }
#endif
}

/// sin and cos of every lane: lane by lane the one-state numbers (sincos_states with one
/// coordinate: the library's branch-free kernel, or the C library in a lane whose |x| > 1e5,
/// infinite or NaN).
template <int W>
inline CHAINDYN_ALWAYS_INLINE void sincos(const Pack<W>& x, Pack<W>& s, Pack<W>& c) noexcept {
  sincos_states(&x, &s, &c, 1);
}
template <int W>
inline Pack<W> sin(const Pack<W>& x) noexcept {
  Pack<W> s, c;
  sincos(x, s, c);
  return s;
}
template <int W>
inline Pack<W> cos(const Pack<W>& x) noexcept {
  Pack<W> s, c;
  sincos(x, s, c);
  return c;
}

#endif  // CHAINDYN_BATCH_VECTOR_EXTENSIONS

namespace detail {
template <int W>
struct ScalarOfWidth {
  using type = Pack<W>;
};
template <>
struct ScalarOfWidth<1> {
  using type = double;
};
}  // namespace detail

/// The scalar a batch of width W computes in: Pack<W>, or double for W = 1.
template <int W>
using PackOf = typename detail::ScalarOfWidth<W>::type;

/// The lanes of a pack scalar (1 for double).
template <typename P>
inline constexpr int lanes_of = P::lanes;
template <>
inline constexpr int lanes_of<double> = 1;

/// Lane l of a pack (a double is its own lane 0).
inline double lane(const double& x, int /*l*/) noexcept { return x; }
inline void set_lane(double& x, int /*l*/, double value) noexcept { x = value; }
#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
template <int W>
inline double lane(const Pack<W>& x, int l) noexcept {
  return x.v[l];
}
template <int W>
inline void set_lane(Pack<W>& x, int l, double value) noexcept {
  x.v[l] = value;
}
#endif

}  // namespace chaindyn::batch

#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
namespace Eigen {

/// What Eigen needs to know of a Pack: a real, signed, non-integer scalar with the costs of one
/// instruction; epsilon and the precisions those of double. Eigen does not vectorise it (no
/// packet traits): each Eigen operation on Pack<W> is already W lanes wide.
template <int W>
struct NumTraits<chaindyn::batch::Pack<W>> : GenericNumTraits<chaindyn::batch::Pack<W>> {
  using P = chaindyn::batch::Pack<W>;
  using Real = P;
  using NonInteger = P;
  using Literal = P;
  using Nested = P;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 0,
    ReadCost = 1,
    AddCost = 1,
    MulCost = 1
  };
  static inline P epsilon() { return P(NumTraits<double>::epsilon()); }
  static inline P dummy_precision() { return P(NumTraits<double>::dummy_precision()); }
  static inline P highest() { return P(NumTraits<double>::highest()); }
  static inline P lowest() { return P(NumTraits<double>::lowest()); }
  static inline int digits10() { return NumTraits<double>::digits10(); }
};

}  // namespace Eigen
#endif
