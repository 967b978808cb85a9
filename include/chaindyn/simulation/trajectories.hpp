/// @file
/// Joint trajectories with position, velocity and acceleration: cycloidal (Saha's lecture notes'
/// formula), quintic polynomial and trapezoidal velocity, for one joint (a scalar Value) or
/// many (an Eigen column vector Value).
#pragma once

#include "chaindyn/error.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace chaindyn {

namespace detail {

/// What a trajectory needs to know about its Value: the scalar, whether it is a vector, and a
/// few coefficient-wise helpers that read the same for both.
template <typename Value, typename = void>
struct TrajectoryValue {
  using Scalar = Value;
  static Value zero_like(const Value&) { return Value(0); }
  static bool all_finite(const Value& v) {
    using std::isfinite;
    return isfinite(v);
  }
  static bool all_positive(const Value& v) { return v > Value(0); }
  static Value abs(const Value& v) {
    using std::abs;
    return abs(v);
  }
  static Scalar max_ratio(const Value& num, const Value& den) { return num / den; }
  static bool same_size(const Value&, const Value&) { return true; }
  static Eigen::Index size(const Value&) { return 1; }
  static Scalar& at(Value& v, Eigen::Index) { return v; }
  static const Scalar& at(const Value& v, Eigen::Index) { return v; }
};

template <typename Value>
struct TrajectoryValue<Value, std::enable_if_t<std::is_base_of<Eigen::MatrixBase<Value>, Value>::value>> {
  static_assert(Value::ColsAtCompileTime == 1, "a trajectory's Value is a column vector");
  using Scalar = typename Value::Scalar;
  static Value zero_like(const Value& v) { return Value::Zero(v.size()); }
  static bool all_finite(const Value& v) { return v.allFinite(); }
  static bool all_positive(const Value& v) { return (v.array() > Scalar(0)).all(); }
  static Value abs(const Value& v) { return v.cwiseAbs(); }
  /// max_i num_i / den_i (0 for an empty vector).
  static Scalar max_ratio(const Value& num, const Value& den) {
    Scalar out(0);
    for (Eigen::Index i = 0; i < num.size(); ++i) out = std::max(out, Scalar(num[i] / den[i]));
    return out;
  }
  static bool same_size(const Value& a, const Value& b) { return a.size() == b.size(); }
  static Eigen::Index size(const Value& v) { return v.size(); }
  static Scalar& at(Value& v, Eigen::Index i) { return v.coeffRef(i); }
  static const Scalar& at(const Value& v, Eigen::Index i) { return v.coeffRef(i); }
};

template <typename Scalar>
constexpr Scalar pi() {
  return Scalar(3.14159265358979323846264338327950288);
}

template <typename Scalar>
void check_duration(const char* who, const Scalar& duration) {
  using std::isfinite;
  if (!isfinite(duration) || !(duration > Scalar(0))) {
    throw_error<ArgumentError>(who, ": the duration must be finite and positive, got ", duration);
  }
}

template <typename Value>
void check_value(const char* who, const char* what, const Value& v) {
  if (!TrajectoryValue<Value>::all_finite(v)) {
    throw_error<ArgumentError>(who, ": ", what, " is not finite");
  }
}

template <typename Value>
void check_sizes(const char* who, const Value& a, const Value& b) {
  if (!TrajectoryValue<Value>::same_size(a, b)) {
    throw_error<ArgumentError>(who, ": the start and end values differ in size");
  }
}

}  // namespace detail

/// The scalar type of a trajectory Value: Value itself, or Value::Scalar for a vector.
template <typename Value>
using TrajectoryScalar = typename detail::TrajectoryValue<Value>::Scalar;

/// One point of a trajectory: position, velocity, acceleration (rad, rad/s, rad/s^2 for
/// revolute joints).
template <typename Value>
struct TrajectorySample {
  Value q, qd, qdd;
};

/// The cycloidal rest-to-rest motion from q0 (at t = 0) to qf (at t = T) of Saha's lecture
/// notes ("Inverse Dynamics of One-link Planar Arm Using MATLAB"), with w = 2 pi / T:
///
///     q   = q0 + (qf - q0)/T (t - sin(w t)/w)
///     qd  = (qf - q0)/T (1 - cos(w t))
///     qdd = (qf - q0)/T w sin(w t)
///
/// Velocity and acceleration are zero at both ends; the jerk is not. Outside [0, T] the end
/// points are held (q0 or qf, zero velocity and acceleration).
template <typename Value>
class CycloidalTrajectory {
 public:
  using Scalar = TrajectoryScalar<Value>;
  using Sample = TrajectorySample<Value>;

  /// Throws ArgumentError (a std::invalid_argument) when the duration is not finite and positive or q0, qf are
  /// not finite (or differ in size).
  CycloidalTrajectory(const Value& q0, const Value& qf, Scalar duration)
      : q0_(q0), qf_(qf), delta_(qf - q0), duration_(duration) {
    constexpr const char* who = "CycloidalTrajectory";
    detail::check_duration(who, duration);
    detail::check_sizes(who, q0, qf);
    detail::check_value(who, "q0", q0);
    detail::check_value(who, "qf", qf);
  }

  Sample operator()(Scalar t) const noexcept {
    using Traits = detail::TrajectoryValue<Value>;
    if (!(t > Scalar(0))) return {q0_, Traits::zero_like(q0_), Traits::zero_like(q0_)};
    if (!(t < duration_)) return {qf_, Traits::zero_like(q0_), Traits::zero_like(q0_)};
    using std::cos;
    using std::sin;
    const Scalar w = Scalar(2) * detail::pi<Scalar>() / duration_;
    const Scalar s = sin(w * t), c = cos(w * t);
    const Scalar rate = Scalar(1) / duration_;
    Sample out{q0_ + delta_ * (rate * (t - s / w)), delta_ * (rate * (Scalar(1) - c)),
               delta_ * (rate * w * s)};
    return out;
  }

  Scalar duration() const noexcept { return duration_; }

 private:
  Value q0_, qf_, delta_;
  Scalar duration_;
};

/// A quintic polynomial from a start sample (t = 0) to an end sample (t = T): position,
/// velocity and acceleration are met at both ends (Biagiotti & Melchiorri, "Trajectory
/// Planning for Automatic Machines and Robots", Springer 2008, sec. 2.1.5). In normalized time
/// s = t/T, with h = q1 - q0 and the boundary velocities and accelerations scaled by T and
/// T^2 (v = qd T, a = qdd T^2):
///
///     q(s) = q0 + v0 s + a0/2 s^2 + c3 s^3 + c4 s^4 + c5 s^5
///     c3 = 10 h - 6 v0 - 4 v1 - (3 a0 - a1)/2
///     c4 = -15 h + 8 v0 + 7 v1 + (3 a0 - 2 a1)/2
///     c5 = 6 h - 3 (v0 + v1) + (a1 - a0)/2
///
/// Rest to rest (zero boundary velocities and accelerations) this is q0 + h (10 s^3 - 15 s^4 +
/// 6 s^5). Outside [0, T] the boundary sample is returned (the start sample for t < 0, the end
/// sample for t > T): for rest-to-rest motions the end points are held.
template <typename Value>
class QuinticTrajectory {
 public:
  using Scalar = TrajectoryScalar<Value>;
  using Sample = TrajectorySample<Value>;

  /// Rest to rest from q0 to qf in `duration` seconds.
  QuinticTrajectory(const Value& q0, const Value& qf, Scalar duration)
      : QuinticTrajectory(Sample{q0, detail::TrajectoryValue<Value>::zero_like(q0),
                                 detail::TrajectoryValue<Value>::zero_like(q0)},
                          Sample{qf, detail::TrajectoryValue<Value>::zero_like(qf),
                                 detail::TrajectoryValue<Value>::zero_like(qf)},
                          duration) {}

  /// From `start` to `end` (positions, velocities, accelerations) in `duration` seconds.
  /// Throws ArgumentError (a std::invalid_argument) on a duration that is not finite and positive, non-finite
  /// boundary values or boundary values of different sizes.
  QuinticTrajectory(const Sample& start, const Sample& end, Scalar duration)
      : start_(start), end_(end), duration_(duration) {
    constexpr const char* who = "QuinticTrajectory";
    detail::check_duration(who, duration);
    for (const Value* v : {&start.qd, &start.qdd, &end.q, &end.qd, &end.qdd}) {
      detail::check_sizes(who, start.q, *v);
    }
    detail::check_value(who, "the start position", start.q);
    detail::check_value(who, "the start velocity", start.qd);
    detail::check_value(who, "the start acceleration", start.qdd);
    detail::check_value(who, "the end position", end.q);
    detail::check_value(who, "the end velocity", end.qd);
    detail::check_value(who, "the end acceleration", end.qdd);
    // Entry by entry in plain scalars (the same arithmetic, in the same order, as the vector
    // formulas above): vector expressions of this length cost every translation unit that
    // builds a quintic far more compile time than they could save at run time.
    using Traits = detail::TrajectoryValue<Value>;
    const Scalar T = duration, T2 = duration * duration;
    c1_ = c2_ = c3_ = c4_ = c5_ = Traits::zero_like(start.q);
    for (Eigen::Index i = 0; i < Traits::size(start.q); ++i) {
      const Scalar h = Traits::at(end.q, i) - Traits::at(start.q, i);
      const Scalar v0 = Traits::at(start.qd, i) * T, v1 = Traits::at(end.qd, i) * T;
      const Scalar a0 = Traits::at(start.qdd, i) * T2, a1 = Traits::at(end.qdd, i) * T2;
      Traits::at(c1_, i) = v0;
      Traits::at(c2_, i) = a0 * Scalar(0.5);
      Traits::at(c3_, i) = h * Scalar(10) - v0 * Scalar(6) - v1 * Scalar(4) -
                           (a0 * Scalar(3) - a1) * Scalar(0.5);
      Traits::at(c4_, i) = h * Scalar(-15) + v0 * Scalar(8) + v1 * Scalar(7) +
                           (a0 * Scalar(3) - a1 * Scalar(2)) * Scalar(0.5);
      Traits::at(c5_, i) = h * Scalar(6) - (v0 + v1) * Scalar(3) + (a1 - a0) * Scalar(0.5);
    }
  }

  Sample operator()(Scalar t) const noexcept {
    if (!(t > Scalar(0))) return start_;
    if (!(t < duration_)) return end_;
    using Traits = detail::TrajectoryValue<Value>;
    const Scalar s = t / duration_, rate = Scalar(1) / duration_, rate2 = rate * rate;
    Sample out{start_.q, start_.q, start_.q};
    for (Eigen::Index i = 0; i < Traits::size(start_.q); ++i) {
      const Scalar c1 = Traits::at(c1_, i), c2 = Traits::at(c2_, i), c3 = Traits::at(c3_, i),
                   c4 = Traits::at(c4_, i), c5 = Traits::at(c5_, i);
      // Horner in s; d/dt = (1/T) d/ds.
      Traits::at(out.q, i) += (c1 + (c2 + (c3 + (c4 + c5 * s) * s) * s) * s) * s;
      Traits::at(out.qd, i) =
          (c1 + (c2 * Scalar(2) +
                 (c3 * Scalar(3) + (c4 * Scalar(4) + c5 * (Scalar(5) * s)) * s) * s) * s) *
          rate;
      Traits::at(out.qdd, i) =
          (c2 * Scalar(2) + (c3 * Scalar(6) + (c4 * Scalar(12) + c5 * (Scalar(20) * s)) * s) * s) *
          rate2;
    }
    return out;
  }

  Scalar duration() const noexcept { return duration_; }

 private:
  Sample start_, end_;
  Scalar duration_;
  Value c1_, c2_, c3_, c4_, c5_;  // coefficients of s^1 .. s^5 (position units)
};

/// A trapezoidal velocity profile, rest to rest from q0 to qf: constant acceleration, cruise at
/// constant velocity, constant deceleration (Biagiotti & Melchiorri 2008, sec. 3.2.2), in the
/// least time that keeps |qd_i| <= v_max_i and |qdd_i| <= a_max_i for every joint i.
///
/// Multi-joint motions are synchronized: every joint follows the same normalized profile
/// sigma(t) (0 -> 1) with common phase times, q_i(t) = q0_i + (qf_i - q0_i) sigma(t), so all
/// joints start, end their acceleration, start their deceleration and stop together (the
/// path is a straight line in joint space). With cruise end s = T - Ta and acceleration time Ta,
/// joint i moves at |h_i| / s and accelerates at |h_i| / (Ta s), so the limits ask
/// s >= c = max_i |h_i| / v_max_i and Ta s >= e = max_i |h_i| / a_max_i; the least T = Ta + s:
///
///     c^2 > e (trapezoid):   s = c,        Ta = e / c,       T = c + e / c
///     c^2 <= e (triangle):   s = sqrt(e),  Ta = sqrt(e),     T = 2 sqrt(e)   (no cruise)
///
/// For one joint this is the textbook profile (Ta = v_max / a_max, T = |h| / v_max + Ta, or the
/// triangle Ta = sqrt(|h| / a_max) when v_max is not reached); with several joints the
/// slowest joint sets the phase times and the others run below their limits. A motion of zero
/// length has duration 0. Outside [0, T] the end points are held.
template <typename Value>
class TrapezoidalTrajectory {
 public:
  using Scalar = TrajectoryScalar<Value>;
  using Sample = TrajectorySample<Value>;

  /// Throws ArgumentError (a std::invalid_argument) when q0, qf are not finite or v_max, a_max are not finite
  /// and positive (or the sizes differ).
  TrapezoidalTrajectory(const Value& q0, const Value& qf, const Value& v_max, const Value& a_max)
      : q0_(q0), qf_(qf), delta_(qf - q0) {
    using Traits = detail::TrajectoryValue<Value>;
    using std::sqrt;
    constexpr const char* who = "TrapezoidalTrajectory";
    detail::check_sizes(who, q0, qf);
    detail::check_sizes(who, q0, v_max);
    detail::check_sizes(who, q0, a_max);
    detail::check_value(who, "q0", q0);
    detail::check_value(who, "qf", qf);
    if (!Traits::all_finite(v_max) || !Traits::all_positive(v_max)) {
      detail::throw_error<ArgumentError>(who, ": v_max must be finite and positive");
    }
    if (!Traits::all_finite(a_max) || !Traits::all_positive(a_max)) {
      detail::throw_error<ArgumentError>(who, ": a_max must be finite and positive");
    }
    const Value distance = Traits::abs(delta_);
    const Scalar c = Traits::max_ratio(distance, v_max);
    const Scalar e = Traits::max_ratio(distance, a_max);
    if (!(e > Scalar(0))) {  // nothing moves
      t_accel_ = t_cruise_end_ = duration_ = Scalar(0);
    } else if (c * c > e) {
      t_cruise_end_ = c;
      t_accel_ = e / c;
      duration_ = c + t_accel_;
    } else {
      t_accel_ = t_cruise_end_ = sqrt(e);
      duration_ = Scalar(2) * t_accel_;
    }
  }

  Sample operator()(Scalar t) const noexcept {
    using Traits = detail::TrajectoryValue<Value>;
    if (!(t > Scalar(0))) return {q0_, Traits::zero_like(q0_), Traits::zero_like(q0_)};
    if (!(t < duration_)) return {qf_, Traits::zero_like(q0_), Traits::zero_like(q0_)};
    // The normalized profile sigma: peak velocity 1/s, acceleration 1/(Ta s).
    const Scalar v = Scalar(1) / t_cruise_end_, a = v / t_accel_;
    Scalar sigma, sigma_d, sigma_dd;
    if (t < t_accel_) {
      sigma = Scalar(0.5) * a * t * t;
      sigma_d = a * t;
      sigma_dd = a;
    } else if (t <= duration_ - t_accel_) {
      sigma = v * (t - Scalar(0.5) * t_accel_);
      sigma_d = v;
      sigma_dd = Scalar(0);
    } else {
      const Scalar r = duration_ - t;  // time to go
      sigma = Scalar(1) - Scalar(0.5) * a * r * r;
      sigma_d = a * r;
      sigma_dd = -a;
    }
    return {q0_ + delta_ * sigma, delta_ * sigma_d, delta_ * sigma_dd};
  }

  Scalar duration() const noexcept { return duration_; }
  /// The common acceleration (and deceleration) time Ta.
  Scalar acceleration_time() const noexcept { return t_accel_; }

 private:
  Value q0_, qf_, delta_;
  Scalar t_accel_, t_cruise_end_, duration_;
};

}  // namespace chaindyn
