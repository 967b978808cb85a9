// Inverse dynamics of the one-link arm along the lecture notes' cycloidal trajectory (Saha,
// "Robot Dynamics: Euler-Lagrange", "Inverse Dynamics of One-link Planar Arm Using MATLAB"):
// T = 10 s from 0 to pi, m = 1 kg, a = 1 m, g = 9.81 m/s^2. The torque from chaindyn's rnea is
// compared with the Lagrangian closed form (1/3) m a^2 qdd + (1/2) m g a sin q = tau and with
// the seeds' MATLAB loop typed in; the example fails (exit code 1) if they disagree.
//
//   chaindyn_one_link_inverse_dynamics [--out DIR]     (CSV into DIR; plots: scripts/plot.py DIR)
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/simulation.hpp>
#include <chaindyn/closed_form.hpp>

#include "support/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>

namespace {

// The arm as a user would describe it: one revolute joint about z at the base origin, the
// link a uniform rod of mass m and length a along its x axis. Saha measures the angle from
// the direction of gravity, so gravity points along the base x axis: at q = 0 the rod hangs
// straight down.
chaindyn::Chain<double, chaindyn::RevoluteZ> one_link_arm(double m, double a, double g) {
  chaindyn::Link<double> rod;
  rod.name = "rod";
  rod.mass = m;
  rod.com = Eigen::Vector3d(a / 2, 0, 0);                            // mid-length
  rod.inertia = Eigen::Vector3d(0, m * a * a / 12, m * a * a / 12).asDiagonal();  // about the COM
  return chaindyn::Chain<double, chaindyn::RevoluteZ>({rod}, Eigen::Vector3d(g, 0, 0));
}

int run(int argc, char** argv) {
  namespace ex = example_support;
  const auto out = ex::output_directory(
      argc, argv, "One-link arm on the seeds' cycloidal trajectory: rnea vs the closed form.");
  ex::Checks checks;

  const double m = 1, a = 1, g = 9.81;          // the seeds' link parameters
  const double T = 10, th0 = 0, thT = M_PI;      // the seeds' trajectory
  const auto arm = one_link_arm(m, a, g);
  using Vector = decltype(arm)::Vector;
  chaindyn::Data<decltype(arm)> data;            // workspace of the in-place rnea
  const chaindyn::CycloidalTrajectory<double> trajectory(th0, thT, T);
  const auto lagrange = chaindyn::closed_form::OneLinkArm<double>::uniform_rod(m, a, g);

  std::printf("One-link arm (m = %g kg, a = %g m, g = %g m/s^2) on the cycloidal trajectory\n"
              "%g -> pi rad in T = %g s; torque from rnea vs the Lagrangian closed form.\n\n",
              m, a, g, th0, T);
  std::printf("  %6s %9s %11s %13s %14s %16s\n", "t [s]", "q [rad]", "qd [rad/s]",
              "qdd [rad/s^2]", "tau rnea [N m]", "tau closed form");

  ex::CsvWriter csv(out / "one_link_inverse_dynamics.csv",
                    {"t_s", "q_rad", "qd_rad_s", "qdd_rad_s2", "tau_rnea_Nm",
                     "tau_closed_form_Nm", "tau_seeds_Nm"});
  double err_closed_form = 0, err_seeds = 0, err_trajectory = 0, tau_peak = 0, t_peak = 0;
  const int n = 200;                                  // dt = 0.05 s; every 4th is a seeds' sample
  for (int k = 0; k <= n; ++k) {
    const double t = T * k / n;
    const auto s = trajectory(t);
    const Vector q(s.q), qd(s.qd), qdd(s.qdd);
    chaindyn::rnea(arm, data, q, qd, qdd);            // in place, allocation-free
    const double tau = data.tau[0];

    // Independent paths: the closed form, and the seeds' MATLAB loop typed in (trajectory
    // formula and torque), "con = 2*pi/T; th = th0 + (delth/T)*(t - sin(con*t)/con); ...".
    const double tau_lagrange = lagrange.inverse_dynamics(q, qd, qdd)[0];
    const double con = 2 * M_PI / T, delth = thT - th0;
    const double th = th0 + (delth / T) * (t - std::sin(con * t) / con);
    const double thd = delth * (1 - std::cos(con * t)) / T;
    const double thdd = delth * con * std::sin(con * t) / T;
    const double tau_seeds = (m * a * a / 3) * thdd + (m * g * a / 2) * std::sin(th);
    err_closed_form = std::max(err_closed_form, std::abs(tau - tau_lagrange));
    err_seeds = std::max(err_seeds, std::abs(tau - tau_seeds));
    err_trajectory = std::max({err_trajectory, std::abs(s.q - th), std::abs(s.qd - thd),
                               std::abs(s.qdd - thdd)});
    if (std::abs(tau) > std::abs(tau_peak)) tau_peak = tau, t_peak = t;

    csv.row({t, s.q, s.qd, s.qdd, tau, tau_lagrange, tau_seeds});
    if (k % 20 == 0) {
      std::printf("  %6.1f %9.4f %11.4f %13.4f %14.6f %16.6f\n", t, s.q, s.qd, s.qdd, tau,
                  tau_lagrange);
    }
  }
  csv.close();

  std::printf("\n  peak torque %.4f N m at t = %.2f s\n", tau_peak, t_peak);
  checks.check("max |tau rnea - tau closed form| [N m]", err_closed_form, 1e-12);
  checks.check("max |tau rnea - tau of the seeds' MATLAB loop| [N m]", err_seeds, 1e-12);
  checks.check("max |CycloidalTrajectory - the seeds' formula| (q, qd, qdd)", err_trajectory,
               1e-12);

  std::printf("\n  wrote %s\n", (out / "one_link_inverse_dynamics.csv").c_str());
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
