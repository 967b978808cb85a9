/// @file
/// A counting scalar: a double that tallies every arithmetic operation done on it, for exact
/// operation counts of chaindyn's scalar-generic algorithms (benchmarks/op_count/op_count.cpp).
///
///     using chaindyn::op_count::Counted;
///     const ChainN<Counted, 7, RevoluteZ> arm(...);
///     const Counts c = count_ops([&] { rnea(arm, data, q, qd, qdd); });
///     // c.mul, c.add (additions and subtractions), c.div, c.sqrt, c.sin, c.cos, ...
///
/// What is counted: every binary +, -, *, / and compound assignment on two Counted values (a
/// double operand is converted first, so `2 * x` counts), unary minus (separately: a sign flip,
/// not an addition), sqrt, sin, cos (and whether a sin follows a cos of the same argument or vice
/// versa: a pair g++ and clang fuse into one sincos call), comparisons (separately; the
/// algorithms take their decisions on detail::scalar_value, which does not count). `trivial`
/// tallies the additions and multiplications with an operand that is exactly 0 (or a factor
/// exactly +-1): with random states these are structural zeros, work a sparsity-aware code would
/// skip.
///
/// Lives in benchmarks/, not include/chaindyn/: it is a measuring instrument with global
/// (thread-local) counters, not a number type to compute with, and no user code should depend
/// on its interface.
///
/// Caveats on how far the count is the double code's count (see docs/benchmarks.md):
/// - Eigen does not vectorise a custom scalar, but its expression templates pick the same
///   evaluation (coefficient-wise, lazy small products, reductions with n - 1 additions) for
///   Counted as for double, so the arithmetic is the same; SIMD packs it differently, it does
///   not change the number of flops.
/// - With -march=native the compiler fuses a * b + c into one FMA instruction: the counts are
///   floating-point operations, not instructions.
/// - The compiler may drop x * 1.0 and x - 0.0 when it sees the constant (IEEE-exact); it may
///   not drop x + 0.0 or x * 0.0 without -ffast-math (signed zeros, NaN). `trivial` bounds the
///   difference from above.
#pragma once

#include <Eigen/Core>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace chaindyn::op_count {

/// Operation tallies. `add` counts additions and subtractions.
struct Counts {
  std::uint64_t add = 0, mul = 0, div = 0, sqrt = 0, sin = 0, cos = 0;
  std::uint64_t sincos_pairs = 0;  ///< sin and cos of one argument, one after the other
  std::uint64_t neg = 0;           ///< unary minus (a sign flip)
  std::uint64_t cmp = 0;           ///< comparisons of two Counted values
  std::uint64_t trivial = 0;       ///< of add + mul: an operand exactly 0, or a factor +-1

  /// Floating-point operations: additions, multiplications, divisions, square roots.
  std::uint64_t flops() const { return add + mul + div + sqrt; }

  friend Counts operator-(Counts a, const Counts& b) {
    a.add -= b.add;
    a.mul -= b.mul;
    a.div -= b.div;
    a.sqrt -= b.sqrt;
    a.sin -= b.sin;
    a.cos -= b.cos;
    a.sincos_pairs -= b.sincos_pairs;
    a.neg -= b.neg;
    a.cmp -= b.cmp;
    a.trivial -= b.trivial;
    return a;
  }
  friend bool operator==(const Counts& a, const Counts& b) {
    return a.add == b.add && a.mul == b.mul && a.div == b.div && a.sqrt == b.sqrt &&
           a.sin == b.sin && a.cos == b.cos && a.sincos_pairs == b.sincos_pairs &&
           a.neg == b.neg && a.cmp == b.cmp && a.trivial == b.trivial;
  }
};

namespace detail {

struct Tally {
  Counts counts;
  // The last trigonometric call, for sincos pairs: 0 none, 1 sin, 2 cos; and its argument.
  int last_trig = 0;
  double last_trig_arg = 0;
};

inline Tally& tally() {
  thread_local Tally t;
  return t;
}

inline void trig(int kind, double x) {
  Tally& t = tally();
  (kind == 1 ? t.counts.sin : t.counts.cos) += 1;
  if (t.last_trig != 0 && t.last_trig != kind &&
      std::memcmp(&t.last_trig_arg, &x, sizeof x) == 0) {
    ++t.counts.sincos_pairs;
    t.last_trig = 0;  // a pair is used once
  } else {
    t.last_trig = kind;
    t.last_trig_arg = x;
  }
}

}  // namespace detail

/// The current thread's tallies since the last reset.
inline const Counts& counts() { return detail::tally().counts; }
inline void reset_counts() { detail::tally() = detail::Tally{}; }

/// A double that counts the operations done on it. Converts implicitly from arithmetic types
/// (so `Scalar(2)` and `2 * x` work), never implicitly to double: an uncounted use does not
/// compile. value() is the number (detail::scalar_value reads it).
class Counted {
 public:
  Counted() = default;
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  Counted(T v) : v_(static_cast<double>(v)) {}  // NOLINT: implicit on purpose

  double value() const { return v_; }

  Counted& operator+=(const Counted& o) {
    add(v_, o.v_);
    v_ += o.v_;
    return *this;
  }
  Counted& operator-=(const Counted& o) {
    add(v_, o.v_);
    v_ -= o.v_;
    return *this;
  }
  Counted& operator*=(const Counted& o) {
    mul(v_, o.v_);
    v_ *= o.v_;
    return *this;
  }
  Counted& operator/=(const Counted& o) {
    ++detail::tally().counts.div;
    v_ /= o.v_;
    return *this;
  }
  friend Counted operator+(Counted a, const Counted& b) { return a += b; }
  friend Counted operator-(Counted a, const Counted& b) { return a -= b; }
  friend Counted operator*(Counted a, const Counted& b) { return a *= b; }
  friend Counted operator/(Counted a, const Counted& b) { return a /= b; }
  friend Counted operator-(const Counted& a) {
    ++detail::tally().counts.neg;
    return Counted(-a.v_);
  }
  friend Counted operator+(const Counted& a) { return a; }

  friend bool operator<(const Counted& a, const Counted& b) { return cmp(a.v_ < b.v_); }
  friend bool operator>(const Counted& a, const Counted& b) { return cmp(a.v_ > b.v_); }
  friend bool operator<=(const Counted& a, const Counted& b) { return cmp(a.v_ <= b.v_); }
  friend bool operator>=(const Counted& a, const Counted& b) { return cmp(a.v_ >= b.v_); }
  friend bool operator==(const Counted& a, const Counted& b) { return cmp(a.v_ == b.v_); }
  friend bool operator!=(const Counted& a, const Counted& b) { return cmp(a.v_ != b.v_); }

  // Found by argument-dependent lookup (`using std::sqrt; sqrt(x)`, Eigen's numext).
  friend Counted sqrt(const Counted& a) {
    ++detail::tally().counts.sqrt;
    return Counted(std::sqrt(a.v_));
  }
  friend Counted sin(const Counted& a) {
    detail::trig(1, a.v_);
    return Counted(std::sin(a.v_));
  }
  friend Counted cos(const Counted& a) {
    detail::trig(2, a.v_);
    return Counted(std::cos(a.v_));
  }
  /// |a|: a sign operation, not counted as arithmetic.
  friend Counted abs(const Counted& a) { return Counted(std::abs(a.v_)); }
  friend bool isfinite(const Counted& a) { return std::isfinite(a.v_); }
  friend bool isnan(const Counted& a) { return std::isnan(a.v_); }
  friend bool isinf(const Counted& a) { return std::isinf(a.v_); }

 private:
  static void add(double a, double b) {
    Counts& c = detail::tally().counts;
    ++c.add;
    if (a == 0.0 || b == 0.0) ++c.trivial;
  }
  static void mul(double a, double b) {
    Counts& c = detail::tally().counts;
    ++c.mul;
    if (a == 0.0 || b == 0.0 || std::abs(a) == 1.0 || std::abs(b) == 1.0) ++c.trivial;
  }
  static bool cmp(bool r) {
    ++detail::tally().counts.cmp;
    return r;
  }

  double v_ = 0.0;
};

/// The operations f() performs on Counted values (the thread's tallies are reset first).
template <typename F>
Counts count_ops(F&& f) {
  reset_counts();
  f();
  return counts();
}

}  // namespace chaindyn::op_count

namespace Eigen {

/// Eigen's traits for Counted: a real, signed, non-integer type that needs construction; costs
/// as for double (they steer Eigen's evaluation choices only for large expressions).
template <>
struct NumTraits<chaindyn::op_count::Counted> : GenericNumTraits<chaindyn::op_count::Counted> {
  using Counted = chaindyn::op_count::Counted;
  using Real = Counted;
  using NonInteger = Counted;
  using Literal = Counted;
  using Nested = Counted;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 1,
    MulCost = 1
  };
  static inline Counted epsilon() { return Counted(std::numeric_limits<double>::epsilon()); }
  static inline Counted dummy_precision() { return Counted(1e-12); }
  static inline Counted highest() { return Counted(std::numeric_limits<double>::max()); }
  static inline Counted lowest() { return Counted(std::numeric_limits<double>::lowest()); }
  static inline int digits10() { return std::numeric_limits<double>::digits10; }
};

}  // namespace Eigen
