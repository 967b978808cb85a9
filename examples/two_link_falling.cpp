// The two-link arm falling under gravity: the lecture notes' ode45 run (Saha, "Simulation of
// Two-link Arm using MATLAB": uniform rods m1 = 3 kg, m2 = 1 kg, a1 = 2 m, a2 = 1 m, tau = 0,
// y0 = [0; 0; 0; 0], tspan = [0 10]); the notes plot the joint angles and rates over time.
// Both links start horizontal and at rest. Checked against independent paths:
//   - at every sample, aba's accelerations against the Lagrangian closed form's M^-1 (tau - h
//     - gamma) (closed_form::TwoLinkArm, with m2 where the notes' gam2 prints m1: an erratum);
//   - the closed form's dynamics integrated with the same integrator and tolerances;
//   - conservation of energy (no friction, no torque).
// The double pendulum is chaotic: two integrations that differ by rounding drift apart
// exponentially, so the seeds' run with ode45's default tolerances (rtol 1e-3) is a different
// motion from the converged one after a few seconds. The example shows when.
//
//   chaindyn_two_link_falling [--out DIR]     (CSV into DIR; plots: scripts/plot.py DIR)
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/simulation.hpp>
#include <chaindyn/closed_form.hpp>

#include "support/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

namespace {

namespace ex = example_support;
using Arm = chaindyn::Chain<double, chaindyn::RevoluteZ, chaindyn::RevoluteZ>;
using Vector = Arm::Vector;

// A planar arm in the vertical x-y plane, y up: both joints about z, q1 from the horizontal
// +x axis, q2 relative to link 1; link i a uniform rod of mass m_i and length a_i along its
// link frame's x axis.
Arm two_link_arm(double m1, double m2, double a1, double a2, double g) {
  const auto rod = [](const char* name, double m, double a) {
    chaindyn::Link<double> link;
    link.name = name;
    link.mass = m;
    link.com = Eigen::Vector3d(a / 2, 0, 0);
    link.inertia = Eigen::Vector3d(0, m * a * a / 12, m * a * a / 12).asDiagonal();
    return link;
  };
  chaindyn::Link<double> link1 = rod("link1", m1, a1), link2 = rod("link2", m2, a2);
  link2.placement = chaindyn::Transform<double>::Translation(Eigen::Vector3d(a1, 0, 0));
  return Arm({link1, link2}, Eigen::Vector3d(0, -g, 0));
}

int run(int argc, char** argv) {
  const auto out = ex::output_directory(
      argc, argv, "Two-link arm falling from rest at q = 0 for 10 s (the seeds' ode45 run).");
  ex::Checks checks;

  const double m1 = 3, m2 = 1, a1 = 2, a2 = 1, g = 9.81, t_end = 10;
  const Arm arm = two_link_arm(m1, m2, a1, a2, g);
  const auto lagrange = chaindyn::closed_form::TwoLinkArm<double>::uniform_rods(m1, m2, a1, a2, g);
  chaindyn::Data<Arm> data;
  const Vector q0 = Vector::Zero(), qd0 = Vector::Zero(), zero = Vector::Zero();
  // Energy scale: the potential energy released from horizontal to hanging straight down.
  const double e_scale = (m1 * a1 / 2 + m2 * (a1 + a2 / 2)) * g;

  std::printf("Two-link arm (uniform rods m1 = %g kg, m2 = %g kg, a1 = %g m, a2 = %g m) falling "
              "from rest at q = (0, 0), tau = 0, %g s\n\n", m1, m2, a1, a2, t_end);

  chaindyn::SimulationOptions<double> tight;  // a converged solution
  tight.rtol = 1e-11;
  tight.atol = 1e-12;
  tight.output_interval = 0.02;
  chaindyn::SimulationOptions<double> seeds = tight;  // ode45's defaults, as in the seeds
  seeds.rtol = 1e-3;
  seeds.atol = 1e-6;

  const auto result = chaindyn::simulate(arm, q0, qd0, chaindyn::ZeroTorque{}, t_end, tight);
  const auto result_seeds = chaindyn::simulate(arm, q0, qd0, chaindyn::ZeroTorque{}, t_end, seeds);

  // Independent path: the closed form's forward dynamics, same integrator and options.
  std::vector<Vector> q_closed_form;
  chaindyn::integrate([&](double, const Vector& q, const Vector& qd) {
                        return lagrange.forward_dynamics(q, qd, zero);
                      },
                      q0, qd0, t_end, tight,
                      [&](const chaindyn::IntegrationSample<Vector>& s) {
                        q_closed_form.push_back(s.q);
                      });

  // The three runs sample the same times (same output interval), one row each per sample.
  const std::size_t n = std::min({result.size(), result_seeds.size(), q_closed_form.size()});
  double max_dqdd = 0, max_qdd = 0, drift = 0, drift_seeds = 0;
  double dq_max = 0, t_diverged = NAN;
  const double e0 = lagrange.kinetic_energy(q0, qd0) + lagrange.potential_energy(q0);
  ex::CsvWriter csv(out / "two_link_falling.csv",
                    {"t_s", "q1_rad", "q2_rad", "qd1_rad_s", "qd2_rad_s", "qdd1_rad_s2",
                     "qdd2_rad_s2", "dE_J", "q1_ode45_defaults_rad", "q2_ode45_defaults_rad"});
  std::printf("  %6s %10s %10s %11s %11s %13s\n", "t [s]", "q1 [rad]", "q2 [rad]", "qd1 [rad/s]",
              "qd2 [rad/s]", "E - E0 [J]");
  for (std::size_t k = 0; k < n; ++k) {
    const Vector& q = result.q[k];
    const Vector& qd = result.qd[k];
    // Pointwise: aba (in the simulation) vs the closed form at the same state.
    const Vector qdd_lagrange = lagrange.forward_dynamics(q, qd, zero);
    max_dqdd = std::max(max_dqdd, (result.qdd[k] - qdd_lagrange).cwiseAbs().maxCoeff());
    max_qdd = std::max(max_qdd, qdd_lagrange.cwiseAbs().maxCoeff());
    // Energy from the chain's algorithms.
    const double de = chaindyn::kinetic_energy(arm, data, q, qd) +
                      chaindyn::potential_energy(arm, data, q) - e0;
    drift = std::max(drift, std::abs(de));
    const double de_seeds =
        lagrange.kinetic_energy(result_seeds.q[k], result_seeds.qd[k]) +
        lagrange.potential_energy(result_seeds.q[k]) - e0;
    drift_seeds = std::max(drift_seeds, std::abs(de_seeds));
    const double dq = (q - q_closed_form[k]).cwiseAbs().maxCoeff();
    dq_max = std::max(dq_max, dq);
    if (std::isnan(t_diverged) && (q - result_seeds.q[k]).cwiseAbs().maxCoeff() > 0.1) {
      t_diverged = result.t[k];
    }
    csv.row({result.t[k], q[0], q[1], qd[0], qd[1], result.qdd[k][0], result.qdd[k][1], de,
             result_seeds.q[k][0], result_seeds.q[k][1]});
    if (k % 50 == 0) {
      std::printf("  %6.1f %10.5f %10.5f %11.5f %11.5f %13.2e\n", result.t[k], q[0], q[1], qd[0],
                  qd[1], de);
    }
  }
  csv.close();

  std::printf("\n  RK45 rtol %.0e: %zu steps, %zu rejected, %zu evaluations of controller + aba\n",
              tight.rtol, result.stats.steps, result.stats.rejected_steps,
              result.stats.evaluations);
  std::printf("  RK45 with ode45's defaults (the seeds' run): %zu steps; max energy error %.2e J "
              "(%.1e of %.2f J);\n  it departs from the converged motion by more than 0.1 rad "
              "at t = %.2f s\n\n",
              result_seeds.stats.steps, drift_seeds, drift_seeds / e_scale, e_scale, t_diverged);

  checks.require("the three integrations have the same number of samples",
                 result.size() == n && result_seeds.size() == n && q_closed_form.size() == n);
  checks.check("max |qdd aba - qdd closed form| along the motion, relative to max |qdd|",
               max_dqdd / max_qdd, 1e-12);
  checks.check("chain (aba) vs closed-form dynamics, same RK45, max |dq| over 10 s [rad]",
               dq_max, 1e-8);
  checks.check("relative energy drift over 10 s, RK45 rtol 1e-11", drift / e_scale, 1e-7);

  std::printf("\n  wrote %s\n", (out / "two_link_falling.csv").c_str());
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
