/// @file
/// The fixed-step methods: semi-implicit (symplectic) Euler and classic Runge-Kutta 4.
#pragma once

#include "chaindyn/simulation/integration_options.hpp"

namespace chaindyn {
namespace detail {

/// The methods below keep this invariant, on which simulate() relies to record the torque: the
/// last call of eval before an emit is at the emitted (t, q, qd).
///   eval(t, q, qd, qdd_out) computes qdd_out = f(t, q, qd);
///   emit(t, q, qd, qdd) hands one sample on.

// The stage arithmetic below is written entry by entry in plain scalars, in the same order
// (hence with the same rounding) as the vector formulas in the comments: fixed-size Eigen
// expressions here cost every translation unit that integrates far more compile time (and
// minutes under sanitizers) than they could save in a step dominated by evaluations of f.

/// Semi-implicit Euler step given a = f(t, q, qd): qd += h a; q += h qd.
template <typename Vector>
void semi_implicit_euler_update(typename Vector::Scalar h, const Vector& a, Vector& q,
                                Vector& qd) noexcept {
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    qd[i] += h * a[i];
    q[i] += h * qd[i];
  }
}

/// Workspace of the classic RK4 step.
template <typename Vector>
struct Rk4Work {
  Vector q2, qd2, a2, q3, qd3, a3, q4, qd4, a4;
  explicit Rk4Work(Eigen::Index n) {
    for (Vector* x : {&q2, &qd2, &a2, &q3, &qd3, &a3, &q4, &qd4, &a4}) *x = sized<Vector>(n);
  }
};

/// One classic RK4 step (Kutta 1901; Hairer, Norsett & Wanner I, Table II.1.2) of y' = (qd,
/// f(t, q, qd)), given a1 = f(t, q, qd):
///   (q2, qd2) = (q, qd) + h/2 (qd, a1),    a2 = f(t + h/2, q2, qd2)
///   (q3, qd3) = (q, qd) + h/2 (qd2, a2),   a3 = f(t + h/2, q3, qd3)
///   (q4, qd4) = (q, qd) + h (qd3, a3),     a4 = f(t + h, q4, qd4)
///   q += h/6 (qd + 2 (qd2 + qd3) + qd4),   qd += h/6 (a1 + 2 (a2 + a3) + a4)
template <typename Vector, typename Eval>
void rk4_update(Eval& eval, typename Vector::Scalar t, typename Vector::Scalar h,
                const Vector& a1, Vector& q, Vector& qd, Rk4Work<Vector>& w) {
  using Scalar = typename Vector::Scalar;
  const Eigen::Index n = q.size();
  const Scalar half = h / Scalar(2);
  for (Eigen::Index i = 0; i < n; ++i) {
    w.q2[i] = q[i] + half * qd[i];
    w.qd2[i] = qd[i] + half * a1[i];
  }
  eval(t + half, w.q2, w.qd2, w.a2);
  for (Eigen::Index i = 0; i < n; ++i) {
    w.q3[i] = q[i] + half * w.qd2[i];
    w.qd3[i] = qd[i] + half * w.a2[i];
  }
  eval(t + half, w.q3, w.qd3, w.a3);
  for (Eigen::Index i = 0; i < n; ++i) {
    w.q4[i] = q[i] + h * w.qd3[i];
    w.qd4[i] = qd[i] + h * w.a3[i];
  }
  eval(t + h, w.q4, w.qd4, w.a4);
  const Scalar sixth = h / Scalar(6);
  for (Eigen::Index i = 0; i < n; ++i) {
    q[i] += sixth * (qd[i] + Scalar(2) * (w.qd2[i] + w.qd3[i]) + w.qd4[i]);
    qd[i] += sixth * (a1[i] + Scalar(2) * (w.a2[i] + w.a3[i]) + w.a4[i]);
  }
}

/// The fixed-step methods. The step grid is t_k = k h with h = dt, or, with an output interval
/// P = m dt (m an integer), t_k = (k / m) P + (k % m) h with h = P / m, so that every m-th step
/// ends exactly at a multiple of P. The last step ends at t_end exactly (shorter when t_end is
/// not on the grid). Samples: t = 0, every step or every m-th step, and t_end.
template <typename Vector, typename Eval, typename Emit>
IntegrationStats integrate_fixed(Eval& eval, const Vector& q0, const Vector& qd0,
                                 typename Vector::Scalar t_end,
                                 const IntegrationOptions<typename Vector::Scalar>& o,
                                 Emit& emit) {
  using Scalar = typename Vector::Scalar;
  using std::ceil;
  using std::round;
  using std::sqrt;
  IntegrationStats stats;
  const Eigen::Index n = q0.size();
  Vector q = q0, qd = qd0, a = sized<Vector>(n);
  Rk4Work<Vector> work(n);
  const char* const who = o.integrator == Integrator::semi_implicit_euler ? "semi_implicit_euler"
                                                                          : "rk4";
  // Every evaluation, the inner stages included: at a finite state, an acceleration that is
  // not finite is f's fault (a fixed step has no retry), named with t and the component.
  std::size_t step = 0;
  const auto checked_eval = [&](Scalar ti, const Vector& qi, const Vector& qdi, Vector& out) {
    eval(ti, qi, qdi, out);
    if (first_non_finite(qi) < 0 && first_non_finite(qdi) < 0) {
      check_fixed_step(who, ti, step, qi, qdi, out);
    }
  };
  checked_eval(Scalar(0), q, qd, a);
  ++stats.evaluations;
  check_fixed_step(who, Scalar(0), 0, q, qd, a);
  emit(Scalar(0), q, qd, a);
  if (!(t_end > Scalar(0))) return stats;

  const bool sampled = o.output_interval > Scalar(0);
  const Scalar period = sampled ? o.output_interval : o.dt;
  const std::size_t every = sampled ? std::size_t(round(o.output_interval / o.dt)) : 1;
  const Scalar h_grid = period / Scalar(every);
  // Number of steps: t_end / h rounded up, except that a t_end within rounding of the grid
  // ends with a full step (no sliver of a step at the end).
  const Scalar ratio = t_end / h_grid;
  Scalar steps_real = round(ratio);
  if (std::abs(double(ratio - steps_real)) >
      double(sqrt(std::numeric_limits<Scalar>::epsilon()) * std::max(Scalar(1), ratio))) {
    steps_real = ceil(ratio);
  }
  const double steps_d = std::max(1.0, double(steps_real));
  if (!(steps_d <= double(o.max_steps))) {
    throw_error<IntegrationError>("integrate: t_end / dt = ", steps_d,
                                  " steps exceed max_steps (", o.max_steps, ")");
  }
  const auto steps = std::size_t(steps_d);
  const auto grid = [&](std::size_t k) {
    return Scalar(k / every) * period + Scalar(k % every) * h_grid;
  };

  for (std::size_t k = 0; k < steps; ++k) {
    const Scalar t = grid(k);
    const Scalar t_next = k + 1 == steps ? t_end : std::min(t_end, grid(k + 1));
    const Scalar h = t_next - t;
    step = k + 1;
    if (o.integrator == Integrator::semi_implicit_euler) {
      semi_implicit_euler_update(h, a, q, qd);
    } else {
      rk4_update(checked_eval, t, h, a, q, qd, work);
      stats.evaluations += 3;
    }
    checked_eval(t_next, q, qd, a);  // the next step's first stage, and the sample's qdd
    ++stats.evaluations;
    ++stats.steps;
    check_fixed_step(who, t_next, k + 1, q, qd, a);
    if ((k + 1) % every == 0 || k + 1 == steps) emit(t_next, q, qd, a);
  }
  return stats;
}

}  // namespace detail
}  // namespace chaindyn
