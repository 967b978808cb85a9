/// @file
/// What every integrator shares: the method, its options and statistics, the sample type, and
/// the validation of a call's arguments (ArgumentError naming the offending value).
#pragma once

#include "chaindyn/error.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace chaindyn {

/// The integration method.
enum class Integrator {
  semi_implicit_euler,  ///< qd += dt f(t, q, qd); q += dt qd. Order 1, symplectic, 1 f per step.
  rk4,                  ///< classic Runge-Kutta, order 4, 4 f per step.
  rk45                  ///< Dormand-Prince 5(4), adaptive, FSAL (6 f per accepted step), dense output.
};

/// Options of integrate() and simulate(). Defaults follow ode45 where it has one.
template <typename Scalar>
struct IntegrationOptions {
  Integrator integrator = Integrator::rk45;
  /// Fixed step (semi_implicit_euler, rk4); the first trial step (rk45). Seconds.
  Scalar dt = Scalar(1e-3);
  /// rk45: relative and absolute tolerances of the local error estimate. A step is accepted
  /// when max_i |err_i| / (atol + rtol max(|y_i|, |y_new_i|)) <= 1 over every component of
  /// y = (q, qd). The global error is not bounded by them, only usually of their order.
  Scalar rtol = Scalar(1e-6);
  Scalar atol = Scalar(1e-9);
  /// 0: one sample per step (per accepted step for rk45). > 0: samples at t = k output_interval
  /// (and t_end); rk45 interpolates with its dense output, the fixed-step methods require
  /// output_interval to be a multiple of dt.
  Scalar output_interval = Scalar(0);
  /// The most steps (accepted and rejected) before integrate() gives up with
  /// IntegrationError.
  std::size_t max_steps = 100000000;
  /// rk45 step-size control: h_new = h min(max_factor, max(min_factor, safety err^(-1/5)))
  /// (Hairer, Norsett & Wanner I, sec. II.4, eq. (4.13)); no growth right after a rejection.
  Scalar safety = Scalar(0.9);
  Scalar min_factor = Scalar(0.2);
  Scalar max_factor = Scalar(5);
  /// rk45: the largest step (seconds). Infinite by default.
  Scalar max_dt = std::numeric_limits<Scalar>::infinity();
};

/// What an integration cost. `evaluations` counts calls of f (for simulate(): of the
/// controller and aba).
struct IntegrationStats {
  std::size_t steps = 0;           ///< accepted steps
  std::size_t rejected_steps = 0;  ///< rk45 steps whose error estimate exceeded the tolerance
  std::size_t evaluations = 0;     ///< calls of f
};

/// One output sample: the time, the state and its acceleration f(t, q, qd) at that time.
template <typename Vector>
struct IntegrationSample {
  typename Vector::Scalar t;
  Vector q, qd, qdd;
};

namespace detail {

template <typename Vector>
constexpr void check_vector_type() {
  static_assert(std::is_base_of<Eigen::MatrixBase<Vector>, Vector>::value &&
                    Vector::ColsAtCompileTime == 1 &&
                    std::is_same<Vector, typename Vector::PlainObject>::value,
                "the state of integrate() is a plain Eigen column vector type (call .eval() on "
                "an expression)");
}

/// A zero vector of n entries (n must be the size of a fixed-size Vector).
template <typename Vector>
Vector sized(Eigen::Index n) {
  return Vector::Zero(n);
}

/// Whether every entry is finite (a loop, not Eigen's allFinite() expression: compile time).
template <typename Vector>
bool all_finite_entries(const Vector& v) {
  using std::isfinite;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!isfinite(v[i])) return false;
  }
  return true;
}

/// The entries separated by spaces, for messages (without Eigen's stream formatting, which
/// costs every translation unit that integrates its compile time).
template <typename Vector>
std::string format_entries(const Vector& v) {
  std::ostringstream os;
  for (Eigen::Index i = 0; i < v.size(); ++i) os << (i > 0 ? " " : "") << v[i];
  return os.str();
}

/// The state space of a vector q: the methods' stages add to q itself. The integrators below
/// are written for a state (q, qd) with q on a configuration space and qd in its tangent, in
/// the form of Runge-Kutta-Munthe-Kaas methods (H. Munthe-Kaas, "High order Runge-Kutta
/// methods on manifolds", Appl. Numer. Math. 29 (1999) 115-127; Hairer, Lubich & Wanner,
/// "Geometric Numerical Integration", sec. IV.8.2): each step integrates, with the method's own
/// coefficients, the increment theta in the tangent at the step's start, q(t) = q0 (+) theta(t),
/// theta' = dexp^-1_theta(qd). A Space supplies
///   origin(q)                 the increment's coordinates of "no motion" (here q itself);
///   retract(q0, theta, out)   out = q0 (+) theta (here out = theta: theta holds q0 + increment);
///   rate(theta, qd, out)      out = theta' (here qd);
///   scale(q, buffer)          the size of q per tangent entry, for rk45's relative tolerance
///                             (here |q_i|: q itself).
/// This Space makes the methods the classic ones, with the same arithmetic as on (q, qd).
template <typename Vector>
struct EuclideanSpace {
  using Config = Vector;
  using Tangent = Vector;
  const Vector& origin(const Vector& q) const noexcept { return q; }
  void retract(const Vector&, const Vector& theta, Vector& out) const noexcept { out = theta; }
  void rate(const Vector&, const Vector& qd, Vector& out) const noexcept { out = qd; }
  const Vector& scale(const Vector& q, Vector&) const noexcept { return q; }
};

/// Throws ArgumentError (a std::invalid_argument) naming the offending value: the checks of
/// validate_integration() beyond the sizes (q0 and qd0 may differ in size: a configuration and
/// a velocity).
template <typename Config, typename Tangent>
void validate_integration_values(const Config& q0, const Tangent& qd0,
                                 typename Tangent::Scalar t_end,
                                 const IntegrationOptions<typename Tangent::Scalar>& o);

/// Throws ArgumentError (a std::invalid_argument) naming the offending value.
template <typename Vector>
void validate_integration(const Vector& q0, const Vector& qd0, typename Vector::Scalar t_end,
                          const IntegrationOptions<typename Vector::Scalar>& o) {
  if (q0.size() != qd0.size()) {
    throw_error<ArgumentError>("integrate: q0 has ", q0.size(), " entries but qd0 has ",
                            qd0.size());
  }
  validate_integration_values(q0, qd0, t_end, o);
}

template <typename Config, typename Tangent>
void validate_integration_values(const Config& q0, const Tangent& qd0,
                                 typename Tangent::Scalar t_end,
                                 const IntegrationOptions<typename Tangent::Scalar>& o) {
  using Scalar = typename Tangent::Scalar;
  using std::isfinite;
  if (!all_finite_entries(q0)) {
    throw_error<ArgumentError>("integrate: q0 is not finite: ", format_entries(q0));
  }
  if (!all_finite_entries(qd0)) {
    throw_error<ArgumentError>("integrate: qd0 is not finite: ", format_entries(qd0));
  }
  if (!isfinite(t_end) || t_end < Scalar(0)) {
    throw_error<ArgumentError>("integrate: t_end must be finite and >= 0, got ", t_end);
  }
  if (!isfinite(o.dt) || !(o.dt > Scalar(0))) {
    throw_error<ArgumentError>("integrate: dt must be finite and > 0, got ", o.dt);
  }
  if (!isfinite(o.output_interval) || o.output_interval < Scalar(0)) {
    throw_error<ArgumentError>("integrate: output_interval must be finite and >= 0, got ",
                            o.output_interval);
  }
  if (o.max_steps == 0) throw_error<ArgumentError>("integrate: max_steps must be > 0");
  if (o.integrator == Integrator::rk45) {
    const Scalar min_rtol = Scalar(10) * std::numeric_limits<Scalar>::epsilon();
    if (!isfinite(o.rtol) || !(o.rtol >= min_rtol)) {
      throw_error<ArgumentError>("integrate: rtol must be finite and >= 10 machine epsilons (",
                              min_rtol, "), got ", o.rtol);
    }
    if (!isfinite(o.atol) || !(o.atol > Scalar(0))) {
      throw_error<ArgumentError>("integrate: atol must be finite and > 0, got ", o.atol);
    }
    if (!(o.safety > Scalar(0) && o.safety <= Scalar(1))) {
      throw_error<ArgumentError>("integrate: safety must be in (0, 1], got ", o.safety);
    }
    if (!(o.min_factor > Scalar(0) && o.min_factor < Scalar(1))) {
      throw_error<ArgumentError>("integrate: min_factor must be in (0, 1), got ", o.min_factor);
    }
    if (!(o.max_factor > Scalar(1)) || !isfinite(o.max_factor)) {
      throw_error<ArgumentError>("integrate: max_factor must be finite and > 1, got ",
                              o.max_factor);
    }
    if (!(o.max_dt > Scalar(0))) {
      throw_error<ArgumentError>("integrate: max_dt must be > 0, got ", o.max_dt);
    }
  } else if (o.output_interval > Scalar(0)) {
    using std::abs;
    using std::round;
    using std::sqrt;
    const Scalar ratio = o.output_interval / o.dt;
    const Scalar k = round(ratio);
    if (!(k >= Scalar(1)) || abs(ratio - k) > sqrt(std::numeric_limits<Scalar>::epsilon()) * k) {
      throw_error<ArgumentError>("integrate: output_interval (", o.output_interval,
                              ") must be a multiple of dt (", o.dt,
                              ") for the fixed-step integrators");
    }
    // k becomes a step count (a std::size_t): bounded before the cast
    if (!(k <= Scalar(o.max_steps))) {
      throw_error<ArgumentError>("integrate: output_interval / dt = ", double(ratio),
                                 " steps per sample exceed max_steps (", o.max_steps, ")");
    }
  }
}

/// Throws ArgumentError unless f's result has the state's size (a dynamic-size Vector only:
/// a fixed size is the type's). `who` names the caller.
template <typename Vector, typename Result>
void check_acceleration_size(const Result& qdd, Eigen::Index n, const char* who) {
  if constexpr (Vector::SizeAtCompileTime == Eigen::Dynamic) {
    if (qdd.size() != n) {
      throw_error<ArgumentError>(who, ": acceleration(t, q, qd) returned ", qdd.size(),
                                 " entries; the state has ", n);
    }
  }
}

/// The index of the first entry of v that is not finite (NaN or infinite), or -1.
template <typename Vector>
Eigen::Index first_non_finite(const Vector& v) noexcept {
  using std::isfinite;
  for (Eigen::Index k = 0; k < v.size(); ++k) {
    if (!isfinite(v[k])) return k;
  }
  return -1;
}

/// Throws IntegrationError unless q, qd and qdd are finite after a fixed step to t: names the
/// first offending component, and whether the state or f(t, q, qd) went bad, instead of
/// returning every later sample as NaN in silence. `who` names the method.
template <typename Config, typename Tangent>
void check_fixed_step(const char* who, typename Tangent::Scalar t, std::size_t step,
                      const Config& q, const Tangent& qd, const Tangent& qdd) {
  const Eigen::Index kq = first_non_finite(q), kqd = first_non_finite(qd);
  if (kq >= 0 || kqd >= 0) {
    const bool in_q = kq >= 0;
    throw_error<IntegrationError>(
        "integrate (", who, "): the state is not finite at t = ", double(t), " (step ", step,
        "): ", in_q ? "q[" : "qd[", in_q ? kq : kqd, "] = ", double(in_q ? q[kq] : qd[kqd]),
        " (every acceleration of the step was finite: the step is too large for the "
        "dynamics, or the state overflows)");
  }
  const Eigen::Index ka = first_non_finite(qdd);
  if (ka >= 0) {
    throw_error<IntegrationError>("integrate (", who, "): the acceleration f(t, q, qd) is not "
                                  "finite at t = ", double(t), " (step ", step, ") with a finite "
                                  "state: qdd[", ka, "] = ", double(qdd[ka]));
  }
}

}  // namespace detail
}  // namespace chaindyn
