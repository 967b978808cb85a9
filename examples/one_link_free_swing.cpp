// The one-link arm swinging freely from q = pi/2 for 10 s: the lecture notes' ode45 run (Saha,
// "Simulation of One-link Arm using MATLAB": m = 1 kg, a = 1 m, tau = 0, y0 = [pi/2; 0],
// tspan = [0 10]), with each of chaindyn's integrators. Reports the energy drift of each and
// checks the motion against independent paths:
//   - the same integration of the Lagrangian closed form's forward dynamics (not aba);
//   - the exact period of a pendulum released from rest at q0, 4 K(sin(q0/2)) / omega_0 with
//     K the complete elliptic integral of the first kind (computed by the arithmetic-geometric
//     mean, Abramowitz & Stegun 17.6), omega_0^2 = m g d / (I_c + m d^2) = 3 g / (2 a);
//   - conservation of energy (no friction, no torque).
//
//   chaindyn_one_link_free_swing [--out DIR]     (CSV into DIR; plots: scripts/plot.py DIR)
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/simulation.hpp>
#include <chaindyn/closed_form.hpp>

#include "support/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

namespace ex = example_support;
using Arm = chaindyn::Chain<double, chaindyn::RevoluteZ>;
using Vector = Arm::Vector;

// Saha's one-link arm: a uniform rod about a revolute joint; gravity along the base x axis, so
// that q is the angle from the downward vertical (see one_link_inverse_dynamics.cpp).
Arm one_link_arm(double m, double a, double g) {
  chaindyn::Link<double> rod;
  rod.name = "rod";
  rod.mass = m;
  rod.com = Eigen::Vector3d(a / 2, 0, 0);
  rod.inertia = Eigen::Vector3d(0, m * a * a / 12, m * a * a / 12).asDiagonal();
  return Arm({rod}, Eigen::Vector3d(g, 0, 0));
}

// K(k) = pi / (2 AGM(1, sqrt(1 - k^2))) (Abramowitz & Stegun 17.6.1 and 17.6.2).
double elliptic_k(double k) {
  double x = 1, y = std::sqrt(1 - k * k);
  while (std::abs(x - y) > 1e-15 * x) {
    const double next = 0.5 * (x + y);
    y = std::sqrt(x * y);
    x = next;
  }
  return M_PI / (2 * x);
}

// Times where q crosses zero, from the samples (t, q, qd): the cubic Hermite interpolant of each
// bracketing interval, solved by Newton's method from the secant's root.
std::vector<double> zero_crossings(const std::vector<double>& t, const std::vector<double>& q,
                                   const std::vector<double>& qd) {
  std::vector<double> out;
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    if (!((q[i] < 0) != (q[i + 1] < 0)) || q[i] == 0) continue;
    const double h = t[i + 1] - t[i];
    const auto p = [&](double s, double& dp) {  // Hermite basis on s in [0, 1]
      const double s2 = s * s, s3 = s2 * s;
      dp = ((6 * s2 - 6 * s) * q[i] + (3 * s2 - 4 * s + 1) * h * qd[i] +
            (-6 * s2 + 6 * s) * q[i + 1] + (3 * s2 - 2 * s) * h * qd[i + 1]);
      return (2 * s3 - 3 * s2 + 1) * q[i] + (s3 - 2 * s2 + s) * h * qd[i] +
             (-2 * s3 + 3 * s2) * q[i + 1] + (s3 - s2) * h * qd[i + 1];
    };
    double s = q[i] / (q[i] - q[i + 1]);
    for (int it = 0; it < 20; ++it) {
      double dp;
      const double v = p(s, dp);
      s -= v / dp;
    }
    out.push_back(t[i] + s * h);
  }
  return out;
}

struct Run {
  std::string name;
  chaindyn::SimulationOptions<double> options;
  std::vector<double> t, q, qd, energy_error;  // energy_error: |E(t) - E(0)| (J)
  chaindyn::IntegrationStats stats;
  double drift = 0;  // max |E - E0| (J)
};

int run(int argc, char** argv) {
  const auto out = ex::output_directory(
      argc, argv, "One-link arm swinging freely from q = pi/2 for 10 s, each integrator.");
  ex::Checks checks;

  const double m = 1, a = 1, g = 9.81, q0 = M_PI / 2, t_end = 10;
  const Arm arm = one_link_arm(m, a, g);
  const auto lagrange = chaindyn::closed_form::OneLinkArm<double>::uniform_rod(m, a, g);
  chaindyn::Data<Arm> data;
  const auto energy = [&](const Vector& q, const Vector& qd) {
    return chaindyn::kinetic_energy(arm, data, q, qd) + chaindyn::potential_energy(arm, data, q);
  };
  // Energy scale: the energy released from q0 to the bottom, m g (a/2) (1 - cos q0).
  const double e_scale = m * g * a / 2 * (1 - std::cos(q0));

  std::printf("One-link arm (m = %g kg, a = %g m) released from rest at q = pi/2, tau = 0, "
              "%g s\n\n", m, a, t_end);

  std::vector<Run> runs(4);
  runs[0].name = "semi-implicit Euler, dt 1 ms";
  runs[0].options.integrator = chaindyn::Integrator::semi_implicit_euler;
  runs[1].name = "RK4, dt 1 ms";
  runs[1].options.integrator = chaindyn::Integrator::rk4;
  runs[2].name = "RK45, rtol 1e-3 (ode45 default)";
  runs[2].options.rtol = 1e-3;
  runs[2].options.atol = 1e-6;
  runs[3].name = "RK45, rtol 1e-10";
  runs[3].options.rtol = 1e-10;
  runs[3].options.atol = 1e-12;
  for (Run& r : runs) {
    r.options.dt = 1e-3;               // the fixed step; rk45's first trial step
    r.options.output_interval = 0.02;  // samples every 20 ms (rk45: dense output)
  }

  const Vector q_init(q0), qd_init(0);
  const double e0 = energy(q_init, qd_init);
  for (Run& r : runs) {
    // Streaming form: every sample goes to the callback, nothing is stored by the library.
    r.stats = chaindyn::simulate(arm, q_init, qd_init, chaindyn::ZeroTorque{}, t_end, r.options,
                                 [&](const chaindyn::SimulationSample<Arm>& s) {
                                   const double de = std::abs(energy(s.q, s.qd) - e0);
                                   r.t.push_back(s.t);
                                   r.q.push_back(s.q[0]);
                                   r.qd.push_back(s.qd[0]);
                                   r.energy_error.push_back(de);
                                   r.drift = std::max(r.drift, de);
                                 });
  }

  // Independent path 1: the closed form's forward dynamics, same integrator (RK4, 1 ms).
  double max_dq_closed_form = 0;
  std::size_t closed_form_samples = 0;
  {
    const Run& rk4 = runs[1];
    std::size_t k = 0;
    chaindyn::integrate(
        [&](double, const Vector& q, const Vector& qd) {
          return lagrange.forward_dynamics(q, qd, Vector(0));
        },
        q_init, qd_init, t_end, rk4.options,
        [&](const chaindyn::IntegrationSample<Vector>& s) {
          if (k < rk4.q.size()) {
            max_dq_closed_form = std::max(max_dq_closed_form, std::abs(s.q[0] - rk4.q[k]));
          }
          ++k;
        });
    closed_form_samples = k;
  }

  // Independent path 2: the exact period.
  const double omega0 = std::sqrt(3 * g / (2 * a));
  const double period_exact = 4 * elliptic_k(std::sin(q0 / 2)) / omega0;

  std::printf("  %-32s %6s %7s %11s %11s %11s %11s\n", "integrator", "steps", "f evals",
              "q(10 s)", "period [s]", "max|dE| [J]", "rel. drift");
  ex::CsvWriter csv(out / "one_link_free_swing.csv",
                    {"t_s", "q_euler_rad", "qd_euler_rad_s", "q_rk4_rad", "qd_rk4_rad_s",
                     "q_rk45_ode45_rad", "qd_rk45_ode45_rad_s", "q_rk45_tight_rad",
                     "qd_rk45_tight_rad_s", "abs_dE_euler_J", "abs_dE_rk4_J",
                     "abs_dE_rk45_ode45_J", "abs_dE_rk45_tight_J"});
  std::vector<double> period(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& r = runs[i];
    const auto crossings = zero_crossings(r.t, r.q, r.qd);
    period[i] = crossings.size() >= 2 ? 2 * (crossings.back() - crossings.front()) /
                                            double(crossings.size() - 1)
                                      : NAN;
    std::printf("  %-32s %6zu %7zu %11.8f %11.8f %11.2e %11.2e\n", r.name.c_str(), r.stats.steps,
                r.stats.evaluations, r.q.back(), period[i], r.drift, r.drift / e_scale);
  }
  for (std::size_t k = 0; k < runs[0].t.size(); ++k) {
    csv.row({runs[0].t[k], runs[0].q[k], runs[0].qd[k], runs[1].q[k], runs[1].qd[k],
             runs[2].q[k], runs[2].qd[k], runs[3].q[k], runs[3].qd[k], runs[0].energy_error[k],
             runs[1].energy_error[k], runs[2].energy_error[k], runs[3].energy_error[k]});
  }
  csv.close();
  std::printf("\n  exact period 4 K(sin(pi/4)) / omega_0 = %.8f s (omega_0 = %.6f rad/s)\n"
              "  rel. drift = max|dE| / (m g a/2 (1 - cos q0)) = max|dE| / %.4f J\n\n",
              period_exact, omega0, e_scale);

  checks.require("the closed-form integration has as many samples as the chain's",
                 closed_form_samples == runs[1].t.size());
  checks.require("every run has the same sample times",
                 runs[0].t.size() == runs[1].t.size() && runs[1].t.size() == runs[2].t.size() &&
                     runs[2].t.size() == runs[3].t.size());
  checks.check("chain (aba) vs closed-form dynamics, RK4 1 ms, max |dq| [rad]",
               max_dq_closed_form, 1e-10);
  checks.check("period, RK45 tight vs elliptic integral [s]", std::abs(period[3] - period_exact),
               1e-7);
  checks.check("period, RK4 1 ms vs elliptic integral [s]", std::abs(period[1] - period_exact),
               1e-7);
  checks.check("relative energy drift, RK4 1 ms", runs[1].drift / e_scale, 1e-8);
  checks.check("relative energy drift, RK45 tight", runs[3].drift / e_scale, 1e-8);
  // Symplectic Euler: energy error bounded, O(dt), no secular drift. ode45's defaults: loose.
  checks.check("relative energy error, semi-implicit Euler 1 ms", runs[0].drift / e_scale, 1e-2);
  checks.check("relative energy drift, RK45 ode45's defaults", runs[2].drift / e_scale, 5e-2);

  std::printf("\n  wrote %s\n", (out / "one_link_free_swing.csv").c_str());
  return checks.exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
