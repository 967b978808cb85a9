// The iiwa with elastic joints (Spong's reduced model, harmonic-drive-like stiffness and
// reflected rotor inertia per joint): controllers designed on the rigid model against
// controllers that know the springs, on the same elastic robot (simulate_elastic, RK45). Only
// the motor side is measured (theta, thetad), as on a robot with motor encoders.
//
// 1. Tracking a pick-and-place path (home -> pick -> place -> home, rest-to-rest polynomials
//    of degree 9, so that jerk and snap start and end at zero):
//    - rigid:   tau_m = rnea_rigid(q_d, qd_d, qdd_d) + Kp (q_d - theta) + Kd (qd_d - thetad),
//               rnea_rigid with the rotors as armature (the rigid model K -> infinity tends to);
//    - elastic: tau_m = flatness feedforward (elastic_inverse_dynamics: Spong 1987, sec. 4;
//               De Luca, ICRA 2000) + Kp (theta_d - theta) + Kd (thetad_d - thetad).
//    Checked: the elastic controller tracks to the integrator's accuracy (its model is exact);
//    the rigid one is worse by orders of magnitude.
// 2. Regulation with gravity compensation:
//    - rigid:   tau_m = g(theta) + Kp (q_goal - theta) - Kd thetad, which settles off the goal
//               where K (theta - q) = g(q) and Kp (q_goal - theta) + g(theta) = g(q): checked
//               against that equilibrium solved by a fixed-point iteration;
//    - elastic: tau_m = g(q_goal) + Kp (theta_goal - theta) - Kd thetad with
//               theta_goal = q_goal + K^-1 g(q_goal) (P. Tomei, "A simple PD controller for
//               robots with elastic joints", IEEE TAC 36 (1991) 1208-1213): settles at the goal.
//
//   chaindyn_elastic_joints [--out DIR]     (CSV into DIR; plots: scripts/plot.py DIR)
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/simulation.hpp>

#include "support/output.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

namespace ex = example_support;
using Arm = chaindyn::robots::KukaIiwa<double>;
using Vector = Arm::Vector;

/// Rest-to-rest segments between waypoints, s(u) = 126u^5 - 420u^6 + 540u^7 - 315u^8 + 70u^9:
/// velocity to snap are zero at both ends (4 times continuously differentiable as a whole).
struct RestToRest9 {
  std::vector<Vector> waypoints;
  double duration;  ///< per segment (s)

  /// The k-th time derivative (k = 0..4) at t; held at the last waypoint after the end.
  Vector d(int k, double t) const {
    const std::size_t segments = waypoints.size() - 1;
    std::size_t i = std::min(segments - 1, std::size_t(std::max(0.0, t) / duration));
    double u = std::clamp((t - double(i) * duration) / duration, 0.0, 1.0);
    // coefficients of s by power, differentiated k times
    std::array<double, 10> c{0, 0, 0, 0, 0, 126, -420, 540, -315, 70};
    for (int m = 0; m < k; ++m) {
      for (std::size_t p = 0; p + 1 < c.size(); ++p) c[p] = c[p + 1] * double(p + 1);
      c[9] = 0;
    }
    double s = 0;
    for (std::size_t p = c.size(); p-- > 0;) s = s * u + c[p];
    const Vector delta = waypoints[i + 1] - waypoints[i];
    if (k == 0) return waypoints[i] + s * delta;
    return s / std::pow(duration, k) * delta;
  }
};

int run(int argc, char** argv) {
  const auto out = ex::output_directory(
      argc, argv, "The elastic-joint iiwa: rigid-model against elastic-model controllers.");
  ex::Checks checks;
  const Arm arm = chaindyn::robots::kuka_iiwa();
  Vector k, b;
  k << 8000, 8000, 6000, 6000, 3000, 2000, 2000;  // N m/rad
  b << 0.6, 0.6, 0.4, 0.4, 0.15, 0.1, 0.1;        // kg m^2, reflected through the gear
  const chaindyn::ElasticJoints<Arm> elastic(arm, k, Vector::Zero(), b);
  // the rigid model the controllers of the rigid kind use: the rotors as armature
  std::array<chaindyn::Link<double>, 7> links = arm.links();
  for (std::size_t i = 0; i < 7; ++i) links[i].dynamics.armature = b[Eigen::Index(i)];
  const Arm rigid(links);
  // motor PD: about 25 rad/s on each motor
  const Vector kp = 625.0 * b, kd = 50.0 * b;

  chaindyn::IntegrationOptions<double> options;
  options.rtol = 1e-9;
  options.atol = 1e-10;
  options.output_interval = 1e-3;

  // ---- 1. Tracking. -----------------------------------------------------------------------
  Vector home, pick, place;
  home << 0.0, 0.4, 0.0, -1.2, 0.0, 0.9, 0.0;
  pick << 0.8, 0.9, 0.2, -1.0, -0.3, 1.2, 0.5;
  place << -0.7, 0.8, -0.3, -0.9, 0.4, 1.3, -0.6;
  const RestToRest9 path{{home, pick, place, home}, 1.5};
  const double t_end = 5.0;
  chaindyn::ElasticData<Arm> flat(arm);
  auto feedforward = [&](double t) {
    chaindyn::elastic_inverse_dynamics(arm, elastic, flat, path.d(0, t), path.d(1, t),
                                       path.d(2, t), path.d(3, t), path.d(4, t), Vector::Zero());
  };
  chaindyn::Data<Arm> rigid_data(rigid);
  auto rigid_tracking = [&](double t, const Vector&, const Vector&, const Vector& theta,
                            const Vector& thetad) -> Vector {
    chaindyn::rnea(rigid, rigid_data, path.d(0, t), path.d(1, t), path.d(2, t));
    return rigid_data.tau + kp.cwiseProduct(path.d(0, t) - theta) +
           kd.cwiseProduct(path.d(1, t) - thetad);
  };
  auto elastic_tracking = [&](double t, const Vector&, const Vector&, const Vector& theta,
                              const Vector& thetad) -> Vector {
    feedforward(t);
    return flat.tau_m + kp.cwiseProduct(flat.theta - theta) + kd.cwiseProduct(flat.thetad - thetad);
  };
  // both start at rest on the path, the springs deflected by gravity
  feedforward(0);
  const Vector theta0 = flat.theta;
  std::printf("iiwa with elastic joints: K = %g..%g N m/rad, B = %g..%g kg m^2\n", k.minCoeff(),
              k.maxCoeff(), b.minCoeff(), b.maxCoeff());
  const auto rr = chaindyn::simulate_elastic(arm, elastic, home, Vector::Zero(), theta0,
                                             Vector::Zero(), rigid_tracking, t_end, options);
  const auto re = chaindyn::simulate_elastic(arm, elastic, home, Vector::Zero(), theta0,
                                             Vector::Zero(), elastic_tracking, t_end, options);
  double worst_rigid = 0, worst_elastic = 0;
  std::vector<double> err_rigid, err_elastic;
  for (std::size_t i = 0; i < rr.size(); ++i) {
    err_rigid.push_back((path.d(0, rr.t[i]) - rr.q[i]).lpNorm<Eigen::Infinity>());
    err_elastic.push_back((path.d(0, re.t[i]) - re.q[i]).lpNorm<Eigen::Infinity>());
    worst_rigid = std::max(worst_rigid, err_rigid.back());
    worst_elastic = std::max(worst_elastic, err_elastic.back());
  }
  std::printf("\n1. tracking the pick-and-place path (%zu samples, %zu and %zu RK45 steps)\n",
              rr.size(), rr.stats.steps, re.stats.steps);
  std::printf("  max link error: rigid-model controller %.3e rad, elastic (flatness) %.3e rad\n",
              worst_rigid, worst_elastic);
  checks.check("elastic controller: max |q_d - q| [rad]", worst_elastic, 1e-6);
  checks.require("the rigid-model controller's error is over 100x the elastic one's",
                 worst_rigid > 100 * worst_elastic);

  // ---- 2. Regulation with gravity compensation. -------------------------------------------
  Vector q_goal;
  q_goal << 0.3, 0.7, -0.2, -1.1, 0.2, 1.0, 0.4;
  const Vector g_goal = chaindyn::gravity_torques(arm, q_goal);
  const Vector theta_goal = q_goal + g_goal.cwiseQuotient(k);
  chaindyn::Data<Arm> gc_data(arm);
  auto rigid_gc = [&](double, const Vector&, const Vector&, const Vector& theta,
                      const Vector& thetad) -> Vector {
    chaindyn::gravity_torques(arm, gc_data, theta);
    return gc_data.tau + kp.cwiseProduct(q_goal - theta) - kd.cwiseProduct(thetad);
  };
  auto tomei = [&](double, const Vector&, const Vector&, const Vector& theta,
                   const Vector& thetad) -> Vector {
    return g_goal + kp.cwiseProduct(theta_goal - theta) - kd.cwiseProduct(thetad);
  };
  // with a little spring damping (the links' own modes, undamped, would ring on for minutes
  // under motor-side feedback alone)
  const chaindyn::ElasticJoints<Arm> damped(arm, k, Vector::Constant(3.0), b);
  const double t_reg = 4.0;
  const auto gr = chaindyn::simulate_elastic(arm, damped, home, Vector::Zero(), theta0,
                                             Vector::Zero(), rigid_gc, t_reg, options);
  const auto ge = chaindyn::simulate_elastic(arm, damped, home, Vector::Zero(), theta0,
                                             Vector::Zero(), tomei, t_reg, options);
  // the rigid controller's equilibrium: K (theta - q) = g(q), Kp (q_goal - theta) = g(q) - g(theta)
  Vector q_eq = q_goal, theta_eq = theta_goal;
  for (int it = 0; it < 200; ++it) {
    const Vector g_q = chaindyn::gravity_torques(arm, q_eq);
    theta_eq = q_goal - (g_q - chaindyn::gravity_torques(arm, theta_eq)).cwiseQuotient(kp);
    q_eq = theta_eq - g_q.cwiseQuotient(k);
  }
  const double static_rigid = (q_goal - gr.q.back()).lpNorm<Eigen::Infinity>();
  const double static_elastic = (q_goal - ge.q.back()).lpNorm<Eigen::Infinity>();
  std::printf("\n2. regulation with gravity compensation, after %g s\n", t_reg);
  std::printf("  |q_goal - q|: rigid g(theta) + PD %.3e rad (predicted %.3e), Tomei's %.3e rad\n",
              static_rigid, (q_goal - q_eq).lpNorm<Eigen::Infinity>(), static_elastic);
  checks.check("rigid gravity compensation settles at its equilibrium: |q - q_eq| [rad]",
               (gr.q.back() - q_eq).lpNorm<Eigen::Infinity>(), 1e-6);
  checks.check("Tomei's controller settles at the goal: |q_goal - q| [rad]", static_elastic, 1e-6);

  // ---- Output. ----------------------------------------------------------------------------
  ex::CsvWriter track(out / "elastic_joints_tracking.csv",
                      {"t_s", "e_rigid_rad", "e_elastic_rad", "q4_d_rad", "q4_rigid_rad",
                       "q4_elastic_rad", "tau4_rigid_Nm", "tau4_elastic_Nm"});
  for (std::size_t i = 0; i < rr.size(); i += 5) {
    track.row({rr.t[i], err_rigid[i], err_elastic[i], path.d(0, rr.t[i])[3], rr.q[i][3],
               re.q[i][3], rr.tau_m[i][3], re.tau_m[i][3]});
  }
  track.close();
  ex::CsvWriter reg(out / "elastic_joints_regulation.csv",
                    {"t_s", "e_rigid_rad", "e_tomei_rad"});
  for (std::size_t i = 0; i < gr.size(); i += 5) {
    reg.row({gr.t[i], (q_goal - gr.q[i]).lpNorm<Eigen::Infinity>(),
             (q_goal - ge.q[i]).lpNorm<Eigen::Infinity>()});
  }
  reg.close();
  std::printf("  wrote %s\n        %s\n", (out / "elastic_joints_tracking.csv").c_str(),
              (out / "elastic_joints_regulation.csv").c_str());
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
