// Integrators and simulate(): convergence orders measured on the pendulum against its exact
// (Jacobi elliptic) solution, energy conservation of the two-link arm, simulate() with aba
// against integrating the closed forms' forward dynamics, dense output against an exact
// solution, sampling, streaming, validation; on kinematic trees, energy conservation and a
// tree of independent branches against its chains simulated one by one.
#include "support/test_support.hpp"
#include "support/two_link.hpp"

#include <chaindyn/algorithms/energy.hpp>
#include <chaindyn/closed_form/simple_pendulum.hpp>
#include <chaindyn/model/tree.hpp>
#include <chaindyn/simulation.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

using namespace chaindyn;

namespace {

using chaindyn::test::kPi;
using Vector1 = Eigen::Matrix<double, 1, 1>;
using Vector2 = Eigen::Vector2d;

/// The pendulum released from rest at theta0 in closed form: with w = sqrt(g / l),
/// k = sin(theta0 / 2) and K = K(k) the complete elliptic integral of the first kind,
///   theta(t) = 2 asin(k sn(K - w t | k^2)),   theta_dot(t) = -2 k w cn(K - w t | k^2)
/// (e.g. Lawden, "Elliptic Functions and Applications", sec. 5.2). sn and cn by the
/// arithmetic-geometric mean and descending Landen transformation (Abramowitz & Stegun 16.4).
struct ExactPendulum {
  double theta0, w, k, K;

  ExactPendulum(double theta0_, double g, double l)
      : theta0(theta0_), w(std::sqrt(g / l)), k(std::sin(theta0_ / 2)), K(0) {
    amplitude(0.0, &K);
  }

  /// Jacobi's amplitude phi(u | m = k^2) (sn = sin phi, cn = cos phi); optionally K(m).
  double amplitude(double u, double* K_out = nullptr) const {
    double a[40], c[40];
    a[0] = 1;
    double b = std::sqrt(1 - k * k);
    c[0] = k;
    int n = 0;
    while (std::abs(c[n]) > 1e-17 && n < 38) {
      a[n + 1] = (a[n] + b) / 2;
      c[n + 1] = (a[n] - b) / 2;
      b = std::sqrt(a[n] * b);
      ++n;
    }
    if (K_out) *K_out = kPi / (2 * a[n]);
    double phi = std::ldexp(a[n] * u, n);
    for (int i = n; i > 0; --i) phi = (phi + std::asin(c[i] / a[i] * std::sin(phi))) / 2;
    return phi;
  }

  double theta(double t) const { return 2 * std::asin(k * std::sin(amplitude(K - w * t))); }
  double theta_dot(double t) const { return -2 * k * w * std::cos(amplitude(K - w * t)); }
  double period() const { return 4 * K / w; }
};

/// Least-squares slope of log(err) against log(h).
double loglog_slope(const std::vector<double>& h, const std::vector<double>& err) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = double(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(err[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

const char* name(Integrator i) {
  switch (i) {
    case Integrator::semi_implicit_euler: return "semi-implicit Euler";
    case Integrator::rk4: return "RK4";
    case Integrator::rk45: return "RK45";
  }
  return "?";
}

const closed_form::SimplePendulum<double> kPendulum(1.0, 1.0, 9.81);

/// The pendulum's error at t_end: max(|q - theta|, |qd - theta_dot| / w).
double pendulum_error(const ExactPendulum& exact, double t, const Vector1& q, const Vector1& qd) {
  return std::max(std::abs(q[0] - exact.theta(t)), std::abs(qd[0] - exact.theta_dot(t)) / exact.w);
}

/// A PD controller tracking a quintic: what a control loop passes to simulate().
struct QuinticPd {
  QuinticTrajectory<Vector2> reference{Vector2(0.0, 0.0), Vector2(1.0, -0.5), 2.0};
  Vector2 operator()(double t, const Vector2& q, const Vector2& qd) const {
    const auto r = reference(t);
    return 200.0 * (r.q - q) + 30.0 * (r.qd - qd);
  }
};

}  // namespace

TEST_CASE("the exact pendulum solution starts at rest at theta0 and has the tabulated K",
          "[simulation]") {
  const ExactPendulum exact(kPi / 2, 9.81, 1.0);
  CHECK(exact.K == Approx(1.8540746773013719).epsilon(1e-15));  // K(m = 1/2), A&S Table 17.1
  CHECK(exact.theta(0) == Approx(kPi / 2).epsilon(1e-15));
  CHECK(std::abs(exact.theta_dot(0)) < 1e-15);
  CHECK(std::abs(exact.theta(exact.period() / 2) + kPi / 2) < 1e-14);
  // It obeys theta_dd = -w^2 sin(theta): central differences of theta_dot.
  for (double t : {0.3, 1.1, 1.7}) {
    const double h = 1e-5;
    const double thdd = (exact.theta_dot(t + h) - exact.theta_dot(t - h)) / (2 * h);
    CHECK(thdd == Approx(-exact.w * exact.w * std::sin(exact.theta(t))).epsilon(1e-8));
  }
}

TEST_CASE("semi-implicit Euler converges with order 1 and RK4 with order 4 on the pendulum",
          "[simulation]") {
  // The pendulum released at q = pi/2, simulated by aba on SimplePendulum::to_chain() for 2 s;
  // the error at t = 2 s against the exact elliptic-function solution, over dt halvings.
  const auto chain = kPendulum.to_chain();
  const ExactPendulum exact(kPi / 2, kPendulum.g, kPendulum.l);
  const double t_end = 2.0;
  for (const auto& [method, n0, low, high] :
       {std::make_tuple(Integrator::semi_implicit_euler, 400, 0.95, 1.05),
        std::make_tuple(Integrator::rk4, 25, 3.9, 4.1)}) {
    std::vector<double> hs, errs;
    for (int n = n0; n <= 16 * n0; n *= 2) {
      SimulationOptions<double> o;
      o.integrator = method;
      o.dt = t_end / n;
      Vector1 q, qd;
      double t = -1;
      simulate(chain, Vector1(kPi / 2), Vector1(0), ZeroTorque{}, t_end, o,
               [&](const SimulationSample<decltype(chain)>& s) {
                 t = s.t;
                 q = s.q;
                 qd = s.qd;
               });
      REQUIRE(t == t_end);
      hs.push_back(o.dt);
      errs.push_back(pendulum_error(exact, t_end, q, qd));
    }
    const double slope = loglog_slope(hs, errs);
    WARN(name(method) << ": measured order " << slope << " (errors " << errs.front() << " at dt "
                      << hs.front() << " to " << errs.back() << " at dt " << hs.back() << ")");
    CHECK(slope > low);
    CHECK(slope < high);
  }
}

TEST_CASE("RK45's global error on the pendulum stays within a small multiple of the tolerance",
          "[simulation]") {
  // Tolerance sweep; the error at t_end and at every dense-output sample (output_interval
  // 0.01 s) against the exact solution. The state is of size ~1 (q up to pi/2, qd/w up to
  // 1.4), so atol = rtol makes the tolerance ~ rtol in absolute terms.
  const auto chain = kPendulum.to_chain();
  const ExactPendulum exact(kPi / 2, kPendulum.g, kPendulum.l);
  std::vector<double> steps;
  for (double tol : {1e-4, 1e-6, 1e-8, 1e-10}) {
    SimulationOptions<double> o;
    o.rtol = tol;
    o.atol = tol;
    o.output_interval = 0.01;
    double worst = 0, at_end = 0;
    const IntegrationStats stats =
        simulate(chain, Vector1(kPi / 2), Vector1(0), ZeroTorque{}, 2.0, o,
                 [&](const SimulationSample<decltype(chain)>& s) {
                   const double e = pendulum_error(exact, s.t, s.q, s.qd);
                   worst = std::max(worst, e);
                   if (s.t == 2.0) at_end = e;
                 });
    WARN("RK45 rtol = atol = " << tol << ": error at t_end " << at_end
                               << ", worst over the dense samples " << worst << " ("
                               << worst / tol << " x tol), " << stats.steps << " steps, "
                               << stats.rejected_steps << " rejected");
    CHECK(at_end > 0);
    CHECK(worst < 20 * tol);
    steps.push_back(double(stats.steps));
  }
  // Order 5 with error-per-step control: steps grow like tol^(-1/5), x2.5 per factor 100.
  for (std::size_t i = 1; i < steps.size(); ++i) {
    CHECK(steps[i] / steps[i - 1] > 1.8);
    CHECK(steps[i] / steps[i - 1] < 3.5);
  }
}

TEST_CASE("RK45's dense output follows the exact solution of the harmonic oscillator",
          "[simulation]") {
  // q'' = -q, q(0) = 1, qd(0) = 0: q = cos t. Steps are long (few per period) so that the
  // interpolation, not the step ends, is what the samples test.
  IntegrationOptions<double> o;
  o.rtol = 1e-7;
  o.atol = 1e-7;
  o.output_interval = 0.01;
  double worst = 0, worst_qdd = 0;
  std::size_t samples = 0;
  const auto stats = integrate([](double, const Vector1& q, const Vector1&) -> Vector1 { return -q; },
                               Vector1(1.0), Vector1(0.0), 10.0, o,
                               [&](const IntegrationSample<Vector1>& s) {
                                 worst = std::max({worst, std::abs(s.q[0] - std::cos(s.t)),
                                                   std::abs(s.qd[0] + std::sin(s.t))});
                                 worst_qdd = std::max(worst_qdd, std::abs(s.qdd[0] + s.q[0]));
                                 ++samples;
                               });
  WARN("RK45 dense output, rtol = atol = 1e-7: worst error " << worst << " over " << samples
                                                             << " samples, " << stats.steps
                                                             << " steps");
  CHECK(samples == 1001);
  CHECK(stats.steps < 200);  // many samples per step: the interpolant is exercised
  CHECK(worst < 1e-6);
  CHECK(worst_qdd == 0);  // qdd is f at the sample's state
}

TEST_CASE("RK4 conserves the energy of the frictionless two-link arm to 1e-8 over 10 s",
          "[simulation]") {
  // m1 = 3, m2 = 1, a1 = 2, a2 = 1, uniform rods, falling under gravity from rest at q = 0
  // (both links horizontal); RK4, dt = 1e-3, 10 s (1.5 s in the unoptimised sanitizer build:
  // CI time). T + V from the closed form (independent of the chain the simulation runs on).
  // Drift relative to the peak kinetic energy.
  const double t_end = test::kUnoptimised ? 1.5 : 10.0;
  const auto arm = test::two_link_rods();
  const auto chain = arm.to_chain();
  double e0 = 0, drift = 0, t_max = 0;
  bool first = true;
  for (Integrator method : {Integrator::rk4, Integrator::semi_implicit_euler}) {
    SimulationOptions<double> o;
    o.integrator = method;
    o.dt = 1e-3;
    drift = t_max = 0;
    first = true;
    simulate(chain, Vector2::Zero(), Vector2::Zero(), ZeroTorque{}, t_end, o,
             [&](const SimulationSample<decltype(chain)>& s) {
               const double kinetic = arm.kinetic_energy(s.q, s.qd);
               const double e = kinetic + arm.potential_energy(s.q);
               if (first) e0 = e;
               first = false;
               drift = std::max(drift, std::abs(e - e0));
               t_max = std::max(t_max, kinetic);
             });
    WARN(name(method) << ", dt = 1e-3, " << t_end << " s: max |E - E0| = " << drift << " J, peak T = "
                      << t_max << " J, relative drift " << drift / t_max);
    if (method == Integrator::rk4) CHECK(drift / t_max < 1e-8);
    CHECK(t_max > 10);  // it did fall
  }
}

TEST_CASE("simulate with aba agrees with integrating the closed forms' forward dynamics",
          "[simulation]") {
  const auto arm = test::two_link_rods();
  const auto chain = arm.to_chain();
  const QuinticPd controller;
  for (Integrator method : {Integrator::semi_implicit_euler, Integrator::rk4, Integrator::rk45}) {
    for (bool controlled : {false, true}) {
      SimulationOptions<double> o;
      o.integrator = method;
      o.dt = 1e-3;
      o.output_interval = 0.01;
      const double t_end = test::kUnoptimised ? 0.5 : 3.0;  // CI time under the sanitizers
      const Vector2 q0(0.1, -0.2), qd0(0.0, 0.3);
      const auto torque = [&](double t, const Vector2& q, const Vector2& qd) -> Vector2 {
        return controlled ? controller(t, q, qd) : Vector2::Zero();
      };
      const SimulationResult<decltype(chain)> sim = simulate(chain, q0, qd0, torque, t_end, o);
      std::vector<IntegrationSample<Vector2>> ref;
      integrate([&](double t, const Vector2& q,
                    const Vector2& qd) { return arm.forward_dynamics(q, qd, torque(t, q, qd)); },
                q0, qd0, t_end, o, [&](const IntegrationSample<Vector2>& s) { ref.push_back(s); });
      REQUIRE(sim.size() == ref.size());
      REQUIRE(sim.size() == std::size_t(std::lround(t_end / 0.01)) + 1);
      double state = 0, qdd = 0, tau = 0;
      for (std::size_t i = 0; i < ref.size(); ++i) {
        CHECK(sim.t[i] == ref[i].t);
        state = std::max({state, (sim.q[i] - ref[i].q).cwiseAbs().maxCoeff(),
                          (sim.qd[i] - ref[i].qd).cwiseAbs().maxCoeff()});
        // at each sample: tau is the controller's, qdd the closed form's forward dynamics
        tau = std::max(tau, (sim.tau[i] - torque(sim.t[i], sim.q[i], sim.qd[i])).cwiseAbs().maxCoeff());
        qdd = std::max(qdd, (sim.qdd[i] - arm.forward_dynamics(sim.q[i], sim.qd[i], sim.tau[i]))
                                .cwiseAbs()
                                .maxCoeff());
      }
      WARN(name(method) << (controlled ? ", PD on a quintic" : ", passive")
                        << ": simulate vs closed form, max state difference " << state
                        << ", qdd " << qdd << ", tau " << tau);
      CHECK(state < 1e-10);
      CHECK(qdd < 1e-11);
      CHECK(tau == 0);
    }
  }
}

TEST_CASE("the streaming and the returning simulate give identical samples", "[simulation]") {
  const auto chain = test::two_link_rods().to_chain();
  for (Integrator method : {Integrator::semi_implicit_euler, Integrator::rk4, Integrator::rk45}) {
    for (double interval : {0.0, 0.05}) {
      SimulationOptions<double> o;
      o.integrator = method;
      o.dt = 1e-2;
      o.output_interval = interval;
      const auto returned = simulate(chain, Vector2(0.3, 0.1), Vector2(0, 1), QuinticPd{}, 1.0, o);
      std::size_t i = 0, mismatches = 0;
      const auto stats = simulate(chain, Vector2(0.3, 0.1), Vector2(0, 1), QuinticPd{}, 1.0, o,
                                  [&](const SimulationSample<decltype(chain)>& s) {
                                    mismatches += !(i < returned.size() && s.t == returned.t[i] &&
                                                    s.q == returned.q[i] && s.qd == returned.qd[i] &&
                                                    s.qdd == returned.qdd[i] &&
                                                    s.tau == returned.tau[i]);
                                    ++i;
                                  });
      INFO(name(method) << ", output_interval " << interval);
      CHECK(i == returned.size());
      CHECK(mismatches == 0);
      CHECK(stats.steps == returned.stats.steps);
      CHECK(stats.evaluations == returned.stats.evaluations);
    }
  }
}

TEST_CASE("output_interval samples at exact multiples of the interval and at t_end",
          "[simulation]") {
  const auto chain = kPendulum.to_chain();
  SECTION("rk45 interpolates at k * output_interval") {
    SimulationOptions<double> o;
    o.output_interval = 0.1;
    const auto r = simulate(chain, Vector1(1.0), Vector1(0), ZeroTorque{}, 1.05, o);
    REQUIRE(r.size() == 12);
    for (std::size_t k = 0; k + 1 < r.size(); ++k) CHECK(r.t[k] == double(k) * 0.1);
    CHECK(r.t.back() == 1.05);
  }
  SECTION("fixed steps land on k * output_interval") {
    SimulationOptions<double> o;
    o.integrator = Integrator::rk4;
    o.dt = 1e-3;
    o.output_interval = 0.01;
    const auto r = simulate(chain, Vector1(1.0), Vector1(0), ZeroTorque{}, 1.0, o);
    REQUIRE(r.size() == 101);
    for (std::size_t k = 0; k < r.size(); ++k) CHECK(r.t[k] == double(k) * 0.01);
    CHECK(r.stats.steps == 1000);
  }
  SECTION("one sample per step, the last step shortened to end at t_end") {
    SimulationOptions<double> o;
    o.integrator = Integrator::semi_implicit_euler;
    o.dt = 1e-3;
    const auto r = simulate(chain, Vector1(1.0), Vector1(0), ZeroTorque{}, 0.0155, o);
    REQUIRE(r.size() == 17);
    CHECK(r.t[15] == Approx(0.015).epsilon(1e-14));
    CHECK(r.t.back() == 0.0155);
  }
  SECTION("t_end = 0 gives the initial sample only") {
    const auto r = simulate(chain, Vector1(1.0), Vector1(0.5), ZeroTorque{}, 0.0);
    REQUIRE(r.size() == 1);
    CHECK(r.q[0][0] == 1.0);
    CHECK(r.qd[0][0] == 0.5);
    CHECK(r.qdd[0][0] == Approx(-9.81 * std::sin(1.0)).epsilon(1e-14));
  }
}

TEST_CASE("the single-step functions match integrate's fixed steps", "[simulation]") {
  const auto f = [](double t, const Vector2& q, const Vector2& qd) -> Vector2 {
    return Vector2(-std::sin(q[0]) + 0.1 * std::cos(t), -q[1] - 0.2 * qd[1] + q[0] * qd[0]);
  };
  for (Integrator method : {Integrator::semi_implicit_euler, Integrator::rk4}) {
    IntegrationOptions<double> o;
    o.integrator = method;
    o.dt = 0.01;
    Vector2 q_end, qd_end;
    integrate(f, Vector2(0.5, -0.3), Vector2(0.1, 0.2), 1.0, o,
              [&](const IntegrationSample<Vector2>& s) {
                q_end = s.q;
                qd_end = s.qd;
              });
    Vector2 q(0.5, -0.3), qd(0.1, 0.2);
    for (int k = 0; k < 100; ++k) {
      if (method == Integrator::rk4) {
        rk4_step(f, k * 0.01, 0.01, q, qd);
      } else {
        semi_implicit_euler_step(f, k * 0.01, 0.01, q, qd);
      }
    }
    INFO(name(method));
    CHECK((q - q_end).cwiseAbs().maxCoeff() < 1e-13);
    CHECK((qd - qd_end).cwiseAbs().maxCoeff() < 1e-13);
  }
}

TEST_CASE("simulate in float agrees with double", "[simulation]") {
  const auto chain_f = kPendulum.cast<float>().to_chain();
  const auto chain_d = kPendulum.to_chain();
  using Vector1f = Eigen::Matrix<float, 1, 1>;
  for (Integrator method : {Integrator::rk4, Integrator::rk45}) {
    SimulationOptions<float> of;
    of.integrator = method;
    of.dt = 1e-2f;
    of.rtol = 1e-5f;
    of.atol = 1e-5f;
    SimulationOptions<double> od;
    od.integrator = method;
    od.dt = 1e-2;
    od.rtol = 1e-10;
    od.atol = 1e-10;
    const auto rf = simulate(chain_f, Vector1f(1.5f), Vector1f(0), ZeroTorque{}, 2.0f, of);
    const auto rd = simulate(chain_d, Vector1(1.5), Vector1(0), ZeroTorque{}, 2.0, od);
    INFO(name(method) << ": float " << rf.q.back()[0] << ", double " << rd.q.back()[0]);
    CHECK(rf.t.back() == 2.0f);
    CHECK(std::abs(double(rf.q.back()[0]) - rd.q.back()[0]) < 1e-3);
  }
}

TEST_CASE("integrate and simulate reject invalid input with a message naming it",
          "[simulation]") {
  using Catch::Matchers::Contains;
  const auto chain = kPendulum.to_chain();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto run = [&](const Vector1& q0, const Vector1& qd0, double t_end,
                       const SimulationOptions<double>& o) {
    simulate(chain, q0, qd0, ZeroTorque{}, t_end, o);
  };
  const Vector1 zero(0.0);
  SimulationOptions<double> o;
  CHECK_THROWS_WITH(run(zero, zero, -1.0, o), Contains("t_end"));
  CHECK_THROWS_WITH(run(zero, zero, nan, o), Contains("t_end"));
  CHECK_THROWS_WITH(run(Vector1(nan), zero, 1.0, o), Contains("q0"));
  CHECK_THROWS_WITH(run(zero, Vector1(std::numeric_limits<double>::infinity()), 1.0, o), Contains("qd0"));
  auto bad = o;
  bad.dt = 0;
  CHECK_THROWS_WITH(run(zero, zero, 1.0, bad), Contains("dt"));
  bad = o;
  bad.rtol = 0;
  CHECK_THROWS_WITH(run(zero, zero, 1.0, bad), Contains("rtol"));
  bad = o;
  bad.atol = -1e-9;
  CHECK_THROWS_WITH(run(zero, zero, 1.0, bad), Contains("atol"));
  bad = o;
  bad.output_interval = -0.1;
  CHECK_THROWS_WITH(run(zero, zero, 1.0, bad), Contains("output_interval"));
  bad = o;
  bad.integrator = Integrator::rk4;
  bad.dt = 0.003;
  bad.output_interval = 0.01;
  CHECK_THROWS_WITH(run(zero, zero, 1.0, bad), Contains("multiple of dt"));
  bad = o;
  bad.max_steps = 10;
  CHECK_THROWS_AS(run(Vector1(1.0), zero, 10.0, bad), IntegrationError);
  // A solution that blows up (qd' = qd^2, qd = 1 / (1 - t)): rk45 cannot pass t = 1.
  IntegrationOptions<double> blow;
  CHECK_THROWS_WITH(integrate([](double, const Vector1&, const Vector1& qd) -> Vector1 {
                      return qd.cwiseProduct(qd);
                    },
                              zero, Vector1(1.0), 2.0, blow, [](const auto&) {}),
                    Contains("step size underflow"));
}

TEST_CASE("RK45 rejects and retries a step with a NaN stage instead of accepting it",
          "[simulation]") {
  // A harmonic oscillator whose f fails once, with a NaN in one component: at the first
  // evaluation after t = 0.3 (a stage inside a step), or at the 7th evaluation (the last,
  // FSAL stage of the first step, whose slopes are the next step's first). A transient
  // failure, e.g. of a controller. The error estimate must see the NaN, so the step is
  // rejected, retried with a smaller step and the solution stays finite and close to the
  // exact one. (Before, the norm's maximum dropped the NaN of one component, the step was
  // accepted and the rest of the solution was NaN, or the NaN slopes of the last stage were
  // kept and every later step failed.)
  for (const bool fsal : {false, true}) {
    for (const int component : {0, 1}) {
      INFO((fsal ? "7th evaluation (last stage of step 1)" : "first evaluation after t = 0.3")
           << ", NaN in component " << component);
      bool failed = false;
      int calls = 0;
      const auto f = [&](double t, const Vector2& q, const Vector2&) -> Vector2 {
        Vector2 a = -q;
        ++calls;
        if (!failed && (fsal ? calls == 7 : t > 0.3)) {
          failed = true;
          a[component] = std::numeric_limits<double>::quiet_NaN();
        }
        return a;
      };
      IntegrationOptions<double> o;
      o.output_interval = 0.05;
      std::size_t samples = 0, non_finite = 0;
      double worst = 0;
      const auto stats = integrate(f, Vector2(1.0, 0.5), Vector2(0.0, 0.0), 1.0, o,
                                   [&](const IntegrationSample<Vector2>& s) {
                                     ++samples;
                                     if (!s.q.allFinite() || !s.qd.allFinite()) {
                                       ++non_finite;
                                       return;
                                     }
                                     const Vector2 exact(std::cos(s.t), 0.5 * std::cos(s.t));
                                     worst = std::max(worst, (s.q - exact).cwiseAbs().maxCoeff());
                                   });
      CHECK(failed);
      CHECK(stats.rejected_steps >= 1);
      CHECK(samples == 21);
      CHECK(non_finite == 0);
      CHECK(worst < 1e-5);
    }
  }
}

TEST_CASE("a controller or an acceleration that returns NaN is named with t and the component",
          "[simulation]") {
  // Issue 12, item 5: before, RK4 returned every sample from there on as NaN in silence and
  // RK45 stopped with "step size underflow ... at t = 0.5", naming neither the controller nor
  // the component.
  using Catch::Matchers::Contains;
  const auto iiwa = robots::kuka_iiwa();
  using V = robots::KukaIiwa<double>::Vector;
  const V zero = V::Zero();
  const auto bad_controller = [&](double t, const V& q, const V&) {
    V tau = gravity_torques(iiwa, q);
    if (t >= 0.05) tau[3] = std::numeric_limits<double>::quiet_NaN();
    return tau;
  };
  for (const Integrator method : {Integrator::rk4, Integrator::rk45}) {
    SimulationOptions<double> o;
    o.integrator = method;
    o.dt = 1e-3;
    INFO("integrator " << int(method));
    CHECK_THROWS_AS(simulate(iiwa, zero, zero, bad_controller, 0.1, o), IntegrationError);
    // (RK4 evaluates on its grid, t = 0.05 exactly; RK45 at its first stage after 0.05. The
    // NaN comes early: each step is an aba of the iiwa, slow under the sanitizers at -O0.)
    CHECK_THROWS_WITH(simulate(iiwa, zero, zero, bad_controller, 0.1, o),
                      Contains(method == Integrator::rk4
                                   ? "simulate: the controller returned a torque that is not "
                                     "finite at t = 0.05:"
                                   : "simulate: the controller returned a torque that is not "
                                     "finite at t = 0.") &&
                          Contains("tau[3] = nan"));
  }
  // integrate() with a plain f: the fixed-step methods name f's component...
  const auto bad_f = [](double t, const Vector2& q, const Vector2&) {
    Vector2 a = -q;
    if (t >= 0.25) a[1] = std::numeric_limits<double>::infinity();
    return a;
  };
  const auto ignore = [](const IntegrationSample<Vector2>&) {};
  IntegrationOptions<double> o;
  o.integrator = Integrator::rk4;
  o.dt = 0.01;
  CHECK_THROWS_WITH(integrate(bad_f, Vector2(1, 0), Vector2(0, 1), 1.0, o, ignore),
                    Contains("integrate (rk4): the acceleration f(t, q, qd) is not finite at "
                             "t = 0.25") &&
                        Contains("qdd[1] = inf"));
  o.integrator = Integrator::semi_implicit_euler;
  CHECK_THROWS_WITH(integrate(bad_f, Vector2(1, 0), Vector2(0, 1), 1.0, o, ignore),
                    Contains("integrate (semi_implicit_euler): the acceleration"));
  // ... and RK45, which retries a non-finite stage with a smaller step, says why it gave up.
  o.integrator = Integrator::rk45;
  CHECK_THROWS_WITH(integrate(bad_f, Vector2(1, 0), Vector2(0, 1), 1.0, o, ignore),
                    Contains("step size underflow: every step tried gave a value that is not "
                             "finite"));
}

TEST_CASE("simulate on a tree: no torque conserves T + V; independent branches move as their chains",
          "[simulation][trees]") {
  // A torso joint with two arms on it (joint 1 -> 2, joint 3 -> 4), frictionless random links,
  // released with a random velocity: T + V (energy.hpp) stays constant to the integrator's
  // tolerance, with RK45 on the compile-time Tree and RK4 on the same tree as a TreeX.
  using Torso = Tree<double, Parents<-1, 0, 1, 0, 3>, RevoluteZ, Revolute, Revolute, Revolute,
                     Prismatic>;
  std::mt19937 gen(test::kSeed + 4100);
  const Torso torso(test::random_links<Torso>(gen));
  const TreeX<double> torso_x = TreeX<double>::from(torso);
  const Torso::Vector q0 = test::random_state<Torso::Vector>(gen, 1.0);
  const Torso::Vector qd0 = test::random_state<Torso::Vector>(gen, 1.0);
  const double t_end = test::kUnoptimised ? 0.25 : 2.0;
  const auto drift_of = [&](const auto& model, const SimulationOptions<double>& o) {
    using Model = std::decay_t<decltype(model)>;
    const typename Model::Vector q = q0, qd = qd0;
    const double e0 = kinetic_energy(model, q, qd) + potential_energy(model, q);
    double drift = 0, peak = 0;
    simulate(model, q, qd, ZeroTorque{}, t_end, o, [&](const SimulationSample<Model>& s) {
      const double kinetic = kinetic_energy(model, s.q, s.qd);
      drift = std::max(drift, std::abs(kinetic + potential_energy(model, s.q) - e0));
      peak = std::max(peak, kinetic);
    });
    return drift / peak;
  };
  SimulationOptions<double> rk45;
  rk45.rtol = 1e-10;
  rk45.atol = 1e-12;
  SimulationOptions<double> rk4;
  rk4.integrator = Integrator::rk4;
  rk4.dt = 1e-3;
  const double drift_rk45 = drift_of(torso, rk45), drift_rk4 = drift_of(torso_x, rk4);
  WARN("tree, " << t_end << " s: relative energy drift RK45 (rtol 1e-10) " << drift_rk45
                << ", RK4 (dt 1e-3) " << drift_rk4);
  CHECK(drift_rk45 < 1e-9);
  CHECK(drift_rk4 < 1e-9);

  // Two branches on the base, independent chains: the tree's samples are the chains' samples,
  // the fixed-step methods taking the same steps (run-time models: TreeX against ChainX), 100
  // steps of each.
  std::vector<Link<double>> links;
  for (int i = 0; i < 5; ++i) links.push_back(test::random_link(gen, true));
  const std::vector<JointKind> kinds = {JointKind::revolute, JointKind::revolute,
                                        JointKind::prismatic, JointKind::revolute,
                                        JointKind::revolute};
  const TreeX<double> branches(links, kinds, {no_parent, 0, 1, no_parent, 3});
  const ChainX<double> a({links[0], links[1], links[2]}, {kinds[0], kinds[1], kinds[2]});
  const ChainX<double> b({links[3], links[4]}, {kinds[3], kinds[4]});
  const Eigen::VectorXd q = test::random_state<Eigen::VectorXd>(gen, 1.0, 5);
  const Eigen::VectorXd qd = test::random_state<Eigen::VectorXd>(gen, 1.0, 5);
  for (const Integrator method : {Integrator::semi_implicit_euler, Integrator::rk4}) {
    SimulationOptions<double> o;
    o.integrator = method;
    o.dt = 1e-3;
    o.output_interval = 0.01;
    const auto tree = simulate(branches, q, qd, ZeroTorque{}, 0.1, o);
    const auto sa = simulate(a, q.head(3), qd.head(3), ZeroTorque{}, 0.1, o);
    const auto sb = simulate(b, q.tail(2), qd.tail(2), ZeroTorque{}, 0.1, o);
    REQUIRE(tree.size() == sa.size());
    REQUIRE(tree.size() == sb.size());
    double worst = 0;
    for (std::size_t i = 0; i < tree.size(); ++i) {
      CHECK(tree.t[i] == sa.t[i]);
      worst = std::max({worst, test::relative_error(tree.q[i].head(3), sa.q[i]),
                        test::relative_error(tree.q[i].tail(2), sb.q[i]),
                        test::relative_error(tree.qd[i].head(3), sa.qd[i]),
                        test::relative_error(tree.qd[i].tail(2), sb.qd[i])});
    }
    INFO(name(method) << ": tree against its chains, worst relative difference " << worst);
    CHECK(worst < 1e-12);
  }
}
