/// @file
/// The adaptive Dormand-Prince 5(4) method with dense output (MATLAB's ode45 method).
#pragma once

#include "chaindyn/simulation/integration_options.hpp"

#include <initializer_list>

namespace chaindyn {
namespace detail {

/// The Dormand-Prince 5(4) pair (J. R. Dormand, P. J. Prince, "A family of embedded
/// Runge-Kutta formulae", J. Comput. Appl. Math. 6 (1980) 19-26; Hairer, Norsett & Wanner I,
/// Table II.5.2): nodes c, matrix a, 5th-order weights b (= the last row of a, so the last
/// stage is the next step's first: FSAL), error weights e = b - b_hat.
template <typename Scalar>
struct DormandPrince {
  static constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
  static constexpr double a21 = 1.0 / 5;
  static constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
  static constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
  static constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561,
                          a54 = -212.0 / 729;
  static constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247,
                          a64 = 49.0 / 176, a65 = -5103.0 / 18656;
  static constexpr double b1 = 35.0 / 384, b3 = 500.0 / 1113, b4 = 125.0 / 192,
                          b5 = -2187.0 / 6784, b6 = 11.0 / 84;
  static constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920,
                          e5 = -17253.0 / 339200, e6 = 22.0 / 525, e7 = -1.0 / 40;
  /// The continuous extension of order 4 (L. F. Shampine, "Some practical Runge-Kutta
  /// formulas", Math. Comp. 46 (1986) 135-150; Hairer, Norsett & Wanner I, sec. II.6, the dense
  /// output of DOPRI5): with theta in [0, 1] and the step's y0, y1, stage slopes k1..k7,
  ///   r2 = y1 - y0,  r3 = h k1 - r2,  r4 = r2 - h k7 - r3,
  ///   r5 = h (d1 k1 + d3 k3 + d4 k4 + d5 k5 + d6 k6 + d7 k7),
  ///   y(t0 + theta h) = y0 + theta (r2 + (1 - theta) (r3 + theta (r4 + (1 - theta) r5))).
  static constexpr double d1 = -12715105075.0 / 11282082432.0,
                          d3 = 87487479700.0 / 32700410799.0,
                          d4 = -10690763975.0 / 1880347072.0,
                          d5 = 701980252875.0 / 199316789632.0,
                          d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;
};

/// Workspace of the rk45 method on a Space: the stage slopes of q (increment rates) and qd
/// (accelerations), the stage states and increments, the new state, the error estimates, the
/// dense-output coefficients of both components and the scale buffers of the error norm.
template <typename Space>
struct Rk45Work {
  using Config = typename Space::Config;
  using Tangent = typename Space::Tangent;
  Tangent v[7], a[7];  // k_i of the increment (stage rates) and of qd (stage accelerations)
  Config qs, q_new, q_out;
  Tangent th, th_new, qds, qd_new, err_q, err_qd, qd_out, a_out, scale0, scale1;
  Tangent rq[4], rqd[4];  // dense output r2..r5 of the increment and of qd
  Rk45Work(Eigen::Index nq, Eigen::Index nv) {
    for (Config* x : {&qs, &q_new, &q_out}) *x = sized<Config>(nq);
    for (Tangent* x : {&th, &th_new, &qds, &qd_new, &err_q, &err_qd, &qd_out, &a_out, &scale0,
                       &scale1}) {
      *x = sized<Tangent>(nv);
    }
    for (int i = 0; i < 7; ++i) v[i] = a[i] = sized<Tangent>(nv);
    for (int i = 0; i < 4; ++i) rq[i] = rqd[i] = sized<Tangent>(nv);
  }
};

// The stage arithmetic, the error norm and the dense output below are written entry by entry
// in plain scalars, in the same order (hence with the same rounding) as the vector formulas in
// the comments: fixed-size Eigen expressions here cost every translation unit that integrates
// far more compile time (and minutes under sanitizers) than they could save in a step
// dominated by the evaluations of f.

/// max_i |err_i| / (atol + rtol max(|y_i|, |y_new_i|)) (ode45's norm). NaN when any ratio is
/// NaN (a NaN stage), so that the caller rejects the step.
template <typename Vector, typename Y>
typename Vector::Scalar rk45_error_norm(const Vector& err, const Y& y, const Y& y_new,
                                        typename Vector::Scalar rtol,
                                        typename Vector::Scalar atol) noexcept {
  using Scalar = typename Vector::Scalar;
  using std::abs;
  Scalar out(0);
  for (Eigen::Index i = 0; i < err.size(); ++i) {
    const Scalar ay = abs(y[i]), ay_new = abs(y_new[i]);
    const Scalar r = abs(err[i]) / (atol + rtol * (ay < ay_new ? ay_new : ay));
    if (r != r) return r;  // NaN
    if (out < r) out = r;
  }
  return out;
}

/// The dense-output coefficients r2..r5 of one component (DormandPrince::d*).
template <typename Vector>
void dense_coefficients(typename Vector::Scalar h, const Vector& y0, const Vector& y1,
                        const Vector (&k)[7], Vector (&r)[4]) noexcept {
  using Scalar = typename Vector::Scalar;
  using DP = DormandPrince<Scalar>;
  const Scalar d1(DP::d1), d3(DP::d3), d4(DP::d4), d5(DP::d5), d6(DP::d6), d7(DP::d7);
  for (Eigen::Index i = 0; i < y0.size(); ++i) {
    r[0][i] = y1[i] - y0[i];
    r[1][i] = h * k[0][i] - r[0][i];
    r[2][i] = r[0][i] - h * k[6][i] - r[1][i];
    r[3][i] = h * (d1 * k[0][i] + d3 * k[2][i] + d4 * k[3][i] + d5 * k[4][i] + d6 * k[5][i] +
                   d7 * k[6][i]);
  }
}

/// y(t0 + theta h) = y0 + theta (r2 + (1 - theta) (r3 + theta (r4 + (1 - theta) r5))).
template <typename Vector>
void dense_evaluate(typename Vector::Scalar theta, const Vector& y0, const Vector (&r)[4],
                    Vector& out) noexcept {
  using Scalar = typename Vector::Scalar;
  const Scalar theta1 = Scalar(1) - theta;
  for (Eigen::Index i = 0; i < y0.size(); ++i) {
    out[i] = y0[i] + theta * (r[0][i] + theta1 * (r[1][i] + theta * (r[2][i] + theta1 * r[3][i])));
  }
}

[[noreturn]] inline void throw_step_failure(const char* what, double t, double h) {
  throw_error<IntegrationError>("integrate (rk45): ", what, " at t = ", t, " (step ", h, ")");
}

/// The Dormand-Prince 5(4) method with step-size control (Hairer, Norsett & Wanner I, sec.
/// II.4) in the Munthe-Kaas form on the Space (EuclideanSpace: the classic method): each step
/// integrates the increment theta in the tangent at the step's start (q = q0 (+) theta, theta'
/// = dexp^-1_theta(qd)) and qd with the pair's coefficients; the local error is estimated in
/// those tangent coordinates, the dense output interpolates theta and qd.
template <typename Space, typename Eval, typename Emit>
IntegrationStats integrate_rk45(const Space& space, Eval& eval,
                                const typename Space::Config& q0,
                                const typename Space::Tangent& qd0,
                                typename Space::Tangent::Scalar t_end,
                                const IntegrationOptions<typename Space::Tangent::Scalar>& o,
                                Emit& emit) {
  using Config = typename Space::Config;
  using Tangent = typename Space::Tangent;
  using Scalar = typename Tangent::Scalar;
  using DP = DormandPrince<Scalar>;
  using std::abs;
  using std::isfinite;
  using std::max;
  using std::min;
  using std::pow;
  const auto s = [](double x) { return Scalar(x); };
  const Scalar b1(DP::b1), b3(DP::b3), b4(DP::b4), b5(DP::b5), b6(DP::b6);
  const Scalar e1(DP::e1), e3(DP::e3), e4(DP::e4), e5(DP::e5), e6(DP::e6), e7(DP::e7);
  IntegrationStats stats;
  const Eigen::Index n = qd0.size();
  Rk45Work<Space> w(q0.size(), n);
  Config q = q0;
  Tangent qd = qd0;
  const auto& origin = space.origin(q);  // q itself (EuclideanSpace) or the zero increment
  Tangent (&v)[7] = w.v;
  Tangent (&a)[7] = w.a;
  v[0] = qd;
  eval(Scalar(0), q, qd, a[0]);
  ++stats.evaluations;
  emit(Scalar(0), q, qd, a[0]);
  if (!(t_end > Scalar(0))) return stats;

  const bool dense = o.output_interval > Scalar(0);
  std::size_t next_output = 1;  // index k of the next dense sample t = k output_interval
  // Dense samples strictly before t_end (t_end itself is the last step's end).
  const Scalar end_slack = Scalar(64) * std::numeric_limits<Scalar>::epsilon() * t_end;
  Scalar t = Scalar(0);
  Scalar h = min(min(o.dt, o.max_dt), t_end);
  bool last_rejected = false;
  bool last_non_finite = false;  // the last step tried had a non-finite stage
  std::size_t attempts = 0;

  // One stage: the state y0 + h sum_j a_ij k_j (q0 (+) theta), then its slopes.
  const auto stage = [&](int i, Scalar ci, std::initializer_list<std::pair<int, double>> coef) {
    w.th = origin;
    w.qds = qd;
    for (const auto& [j, aij] : coef) {
      const Scalar c = h * s(aij);
      for (Eigen::Index k = 0; k < n; ++k) {
        w.th[k] += c * v[j][k];
        w.qds[k] += c * a[j][k];
      }
    }
    space.retract(q, w.th, w.qs);
    space.rate(w.th, w.qds, v[i]);
    eval(t + ci * h, w.qs, w.qds, a[i]);
    ++stats.evaluations;
  };

  while (t < t_end) {
    if (++attempts > o.max_steps) throw_step_failure("max_steps exceeded", double(t), double(h));
    // Land on t_end exactly; avoid a sliver of a last step.
    bool last = false;
    if (t + Scalar(1.01) * h >= t_end) {
      h = t_end - t;
      last = true;
    }
    if (!(h > abs(t) * Scalar(16) * std::numeric_limits<Scalar>::epsilon()) || !(h > Scalar(0))) {
      throw_step_failure(last_non_finite
                             ? "step size underflow: every step tried gave a value that is not "
                               "finite (f(t, q, qd) returns NaN or infinity near this state)"
                             : "step size underflow (the solution may blow up, or the tolerance "
                               "is too tight for this scalar)",
                         double(t), double(h));
    }
    stage(1, s(DP::c2), {{0, DP::a21}});
    stage(2, s(DP::c3), {{0, DP::a31}, {1, DP::a32}});
    stage(3, s(DP::c4), {{0, DP::a41}, {1, DP::a42}, {2, DP::a43}});
    stage(4, s(DP::c5), {{0, DP::a51}, {1, DP::a52}, {2, DP::a53}, {3, DP::a54}});
    stage(5, Scalar(1), {{0, DP::a61}, {1, DP::a62}, {2, DP::a63}, {3, DP::a64}, {4, DP::a65}});
    // 5th-order solution y + h (b1 k1 + b3 k3 + b4 k4 + b5 k5 + b6 k6); its slopes are the
    // 7th stage (FSAL).
    for (Eigen::Index k = 0; k < n; ++k) {
      w.th_new[k] = origin[k] + h * (b1 * v[0][k] + b3 * v[2][k] + b4 * v[3][k] +
                                     b5 * v[4][k] + b6 * v[5][k]);
      w.qd_new[k] = qd[k] + h * (b1 * a[0][k] + b3 * a[2][k] + b4 * a[3][k] + b5 * a[4][k] +
                                 b6 * a[5][k]);
    }
    space.retract(q, w.th_new, w.q_new);
    const Scalar t_new = last ? t_end : t + h;
    space.rate(w.th_new, w.qd_new, v[6]);
    eval(t_new, w.q_new, w.qd_new, a[6]);
    ++stats.evaluations;
    // Local error estimate y - y_hat = h sum e_i k_i.
    for (Eigen::Index k = 0; k < n; ++k) {
      w.err_q[k] = h * (e1 * v[0][k] + e3 * v[2][k] + e4 * v[3][k] + e5 * v[4][k] +
                        e6 * v[5][k] + e7 * v[6][k]);
      w.err_qd[k] = h * (e1 * a[0][k] + e3 * a[2][k] + e4 * a[3][k] + e5 * a[4][k] +
                         e6 * a[5][k] + e7 * a[6][k]);
    }
    const Scalar err_q = rk45_error_norm(w.err_q, space.scale(q, w.scale0),
                                         space.scale(w.q_new, w.scale1), o.rtol, o.atol);
    const Scalar err_qd = rk45_error_norm(w.err_qd, qd, w.qd_new, o.rtol, o.atol);
    const Scalar err = max(err_q, err_qd);
    // A non-finite stage: shrink hard and retry. (Both norms are tested: max() drops a NaN in
    // its second argument, and a NaN in the last stage reaches err_qd only.)
    if (!isfinite(err_q) || !isfinite(err_qd)) {
      ++stats.rejected_steps;
      h *= o.min_factor;
      last_rejected = true;
      last_non_finite = true;
      continue;
    }
    last_non_finite = false;
    // h_new = h min(max_factor, max(min_factor, safety err^(-1/5))) (HNW I, eq. (4.13)).
    const Scalar grow = last_rejected ? Scalar(1) : o.max_factor;
    const Scalar factor =
        err > Scalar(0) ? min(grow, max(o.min_factor, o.safety * pow(err, Scalar(-0.2)))) : grow;
    if (err > Scalar(1)) {
      ++stats.rejected_steps;
      h *= min(Scalar(1), factor);
      last_rejected = true;
      continue;
    }
    // Accepted.
    ++stats.steps;
    if (dense) {
      // Samples at t_out = k output_interval in (t, t_new], interpolated (t_end is the last
      // step's end, emitted below).
      bool coefficients_ready = false;
      for (;;) {
        const Scalar t_out = Scalar(next_output) * o.output_interval;
        if (!(t_out <= t_new) || !(t_out < t_end - end_slack)) break;
        if (!coefficients_ready) {
          dense_coefficients(h, origin, w.th_new, v, w.rq);
          dense_coefficients(h, qd, w.qd_new, a, w.rqd);
          coefficients_ready = true;
        }
        const Scalar theta = (t_out - t) / h;
        dense_evaluate(theta, origin, w.rq, w.th);
        space.retract(q, w.th, w.q_out);
        dense_evaluate(theta, qd, w.rqd, w.qd_out);
        eval(t_out, w.q_out, w.qd_out, w.a_out);
        ++stats.evaluations;
        emit(t_out, w.q_out, w.qd_out, w.a_out);
        ++next_output;
      }
    }
    t = t_new;
    q = w.q_new;
    qd = w.qd_new;
    v[0] = qd;  // the increment's rate at the new step's start, where theta = 0 (v[6] on a vector space)
    a[0] = a[6];
    if (!dense) {
      emit(t, q, qd, a[0]);  // a[0] = f(t, q, qd) was the last evaluation
    } else if (t >= t_end) {
      // Evaluate f again so that the last evaluation is at the emitted state (the invariant
      // above): dense samples may have been evaluated since a[6]. Same value as a[6].
      eval(t, q, qd, a[0]);
      ++stats.evaluations;
      emit(t, q, qd, a[0]);
    }
    last_rejected = false;
    h = min(h * factor, o.max_dt);
  }
  return stats;
}

}  // namespace detail
}  // namespace chaindyn
