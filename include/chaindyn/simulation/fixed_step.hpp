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

/// Semi-implicit Euler step given a = f(t, q, qd): qd += h a; q += h qd (on a Space: q (+)
/// h qd, the new velocity). th is a tangent-sized buffer.
template <typename Space>
void semi_implicit_euler_update(const Space& space, typename Space::Tangent::Scalar h,
                                const typename Space::Tangent& a, typename Space::Config& q,
                                typename Space::Tangent& qd, typename Space::Tangent& th) {
  const auto& o = space.origin(q);
  for (Eigen::Index i = 0; i < qd.size(); ++i) {
    qd[i] += h * a[i];
    th[i] = o[i] + h * qd[i];
  }
  space.retract(q, th, q);
}

/// Semi-implicit Euler step of a vector state given a = f(t, q, qd).
template <typename Vector>
void semi_implicit_euler_update(typename Vector::Scalar h, const Vector& a, Vector& q,
                                Vector& qd) noexcept {
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    qd[i] += h * a[i];
    q[i] += h * qd[i];
  }
}

/// Workspace of the classic RK4 step on a Space: the stages' configurations, velocities,
/// accelerations, increments th (tangent coordinates) and increment rates k.
template <typename Space>
struct Rk4Work {
  using Config = typename Space::Config;
  using Tangent = typename Space::Tangent;
  Config q2, q3, q4;
  Tangent qd2, a2, qd3, a3, qd4, a4, th, k2, k3, k4;
  Rk4Work(Eigen::Index nq, Eigen::Index nv) {
    for (Config* x : {&q2, &q3, &q4}) *x = sized<Config>(nq);
    for (Tangent* x : {&qd2, &a2, &qd3, &a3, &qd4, &a4, &th, &k2, &k3, &k4}) {
      *x = sized<Tangent>(nv);
    }
  }
};

/// One classic RK4 step (Kutta 1901; Hairer, Norsett & Wanner I, Table II.1.2) of y' = (qd,
/// f(t, q, qd)), given a1 = f(t, q, qd), in the Munthe-Kaas form on the Space (EuclideanSpace:
/// the classic step itself), with th_i the stage increments and k_i = dexp^-1_{th_i}(qd_i):
///   (th2, qd2) = (0, qd) + h/2 (qd, a1),   q2 = q (+) th2,  a2 = f(t + h/2, q2, qd2)
///   (th3, qd3) = (0, qd) + h/2 (k2, a2),   q3 = q (+) th3,  a3 = f(t + h/2, q3, qd3)
///   (th4, qd4) = (0, qd) + h (k3, a3),     q4 = q (+) th4,  a4 = f(t + h, q4, qd4)
///   q = q (+) h/6 (qd + 2 (k2 + k3) + k4),  qd += h/6 (a1 + 2 (a2 + a3) + a4)
template <typename Space, typename Eval>
void rk4_update(const Space& space, Eval& eval, typename Space::Tangent::Scalar t,
                typename Space::Tangent::Scalar h, const typename Space::Tangent& a1,
                typename Space::Config& q, typename Space::Tangent& qd, Rk4Work<Space>& w) {
  using Scalar = typename Space::Tangent::Scalar;
  const Eigen::Index n = qd.size();
  const auto& o = space.origin(q);
  const Scalar half = h / Scalar(2);
  for (Eigen::Index i = 0; i < n; ++i) {
    w.th[i] = o[i] + half * qd[i];
    w.qd2[i] = qd[i] + half * a1[i];
  }
  space.retract(q, w.th, w.q2);
  space.rate(w.th, w.qd2, w.k2);
  eval(t + half, w.q2, w.qd2, w.a2);
  for (Eigen::Index i = 0; i < n; ++i) {
    w.th[i] = o[i] + half * w.k2[i];
    w.qd3[i] = qd[i] + half * w.a2[i];
  }
  space.retract(q, w.th, w.q3);
  space.rate(w.th, w.qd3, w.k3);
  eval(t + half, w.q3, w.qd3, w.a3);
  for (Eigen::Index i = 0; i < n; ++i) {
    w.th[i] = o[i] + h * w.k3[i];
    w.qd4[i] = qd[i] + h * w.a3[i];
  }
  space.retract(q, w.th, w.q4);
  space.rate(w.th, w.qd4, w.k4);
  eval(t + h, w.q4, w.qd4, w.a4);
  const Scalar sixth = h / Scalar(6);
  for (Eigen::Index i = 0; i < n; ++i) {
    w.th[i] = o[i] + sixth * (qd[i] + Scalar(2) * (w.k2[i] + w.k3[i]) + w.k4[i]);
    qd[i] += sixth * (a1[i] + Scalar(2) * (w.a2[i] + w.a3[i]) + w.a4[i]);
  }
  space.retract(q, w.th, w.q2);
  q = w.q2;
}

/// The fixed-step methods. The step grid is t_k = k h with h = dt, or, with an output interval
/// P = m dt (m an integer), t_k = (k / m) P + (k % m) h with h = P / m, so that every m-th step
/// ends exactly at a multiple of P. The last step ends at t_end exactly (shorter when t_end is
/// not on the grid). Samples: t = 0, every step or every m-th step, and t_end.
template <typename Space, typename Eval, typename Emit>
IntegrationStats integrate_fixed(const Space& space, Eval& eval,
                                 const typename Space::Config& q0,
                                 const typename Space::Tangent& qd0,
                                 typename Space::Tangent::Scalar t_end,
                                 const IntegrationOptions<typename Space::Tangent::Scalar>& o,
                                 Emit& emit) {
  using Config = typename Space::Config;
  using Tangent = typename Space::Tangent;
  using Scalar = typename Tangent::Scalar;
  using std::ceil;
  using std::round;
  using std::sqrt;
  IntegrationStats stats;
  Config q = q0;
  Tangent qd = qd0, a = sized<Tangent>(qd0.size());
  Rk4Work<Space> work(q0.size(), qd0.size());
  const char* const who = o.integrator == Integrator::semi_implicit_euler ? "semi_implicit_euler"
                                                                          : "rk4";
  // Every evaluation, the inner stages included: at a finite state, an acceleration that is
  // not finite is f's fault (a fixed step has no retry), named with t and the component.
  std::size_t step = 0;
  const auto checked_eval = [&](Scalar ti, const Config& qi, const Tangent& qdi, Tangent& out) {
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
      semi_implicit_euler_update(space, h, a, q, qd, work.th);
    } else {
      rk4_update(space, checked_eval, t, h, a, q, qd, work);
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
