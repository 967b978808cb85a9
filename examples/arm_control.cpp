// Controller code on a 7-joint arm (the built-in KUKA LBR iiwa 7): how a control loop uses
// chaindyn. Each controller keeps its own Data workspace and calls the in-place algorithms, so
// the loop allocates nothing; the plant is simulate() (aba) with RK4 at 1 kHz.
//
// 1. Gravity compensation + PD to a set point, tau = g(q) + Kp (q_goal - q) - Kd qd. Checked:
//    the arm settles at the goal, and V = 1/2 qd^T M qd + 1/2 e^T Kp e never increases
//    (dV/dt = -qd^T Kd qd: Takegaki & Arimoto, "A new feedback method for dynamic control of
//    manipulators", J. Dyn. Syst. Meas. Control 103 (1981) 119-125).
// 2. Computed-torque tracking of a quintic trajectory, tau = M (qdd_d + Kd de + Kp e) + C qd + g
//    = rnea(q, qd, qdd_d + Kd de + Kp e) with e = q_d - q, starting off the trajectory. With an
//    exact model every joint's error obeys e'' + Kd e' + Kp e = 0; with Kp = w^2, Kd = 2 w and
//    e'(0) = 0 it is e(t) = e(0) (1 + w t) exp(-w t), the independent path checked here.
//
//   chaindyn_arm_control [--out DIR]     (CSV into DIR; plots: scripts/plot.py DIR)
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/simulation.hpp>

#include "support/output.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <vector>

// --- Only for this example's check that the control loop does not allocate: count calls of
// the global operator new (std::vector, std::function, std::make_unique... all go through it;
// Eigen's fixed-size vectors and matrices never allocate). Not something controller code needs.
namespace {
std::size_t allocations = 0;
}
// (g++ 12 -O3, once it inlines these into a std::unique_ptr's destructor, sees free() on memory
// from operator new and warns -Wmismatched-new-delete: they are the replaced pair, malloc/free
// on both sides, so the warning is off for these lines.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
// ---

namespace {

namespace ex = example_support;
using Arm = chaindyn::robots::KukaIiwa<double>;  // ChainN<double, 7, RevoluteZ>
using Vector = Arm::Vector;

/// tau = g(q) + Kp (q_goal - q) - Kd qd. One Data per controller: gravity_torques writes into
/// data.tau without allocating.
struct GravityCompensatedPd {
  const Arm& arm;
  Vector q_goal, kp, kd;
  chaindyn::Data<Arm> data;

  Vector operator()(double /*t*/, const Vector& q, const Vector& qd) {
    chaindyn::gravity_torques(arm, data, q);
    return data.tau + kp.cwiseProduct(q_goal - q) - kd.cwiseProduct(qd);
  }
};

/// Computed torque: tau = rnea(q, qd, qdd_d + Kd (qd_d - qd) + Kp (q_d - q)), one in-place rnea
/// per call (M qdd + C qd + g without forming M).
struct ComputedTorque {
  const Arm& arm;
  chaindyn::QuinticTrajectory<Vector> desired;
  double kp, kd;
  chaindyn::Data<Arm> data;

  Vector operator()(double t, const Vector& q, const Vector& qd) {
    const auto d = desired(t);
    const Vector qdd_ref = d.qdd + kd * (d.qd - qd) + kp * (d.q - q);
    chaindyn::rnea(arm, data, q, qd, qdd_ref);
    return data.tau;
  }
};

Vector make_vector(std::initializer_list<double> v) {
  Vector out;
  std::copy(v.begin(), v.end(), out.data());
  return out;
}

int run(int argc, char** argv) {
  const auto out = ex::output_directory(
      argc, argv, "KUKA iiwa: gravity compensation + PD, and computed-torque tracking.");
  ex::Checks checks;
  const Arm arm = chaindyn::robots::kuka_iiwa();
  chaindyn::Data<Arm> data;  // the example's own workspace (energies, torques to print)
  const double deg = 180 / M_PI;

  chaindyn::SimulationOptions<double> rk4_1khz;
  rk4_1khz.integrator = chaindyn::Integrator::rk4;
  rk4_1khz.dt = 1e-3;
  rk4_1khz.output_interval = 1e-2;

  std::printf("KUKA LBR iiwa 7 (robots::kuka_iiwa()), plant: simulate() = aba + RK4 at 1 kHz\n\n");

  // ---- 1. Gravity compensation + PD from the upright pose to a set point. -------------------
  const Vector q_goal = make_vector({0.5, 0.7, -0.4, -1.3, 0.6, 0.9, -0.3});
  // Gains from the inertia each joint sees at the goal (crba's diagonal): Kp_i = w^2 M_ii,
  // Kd_i = 2 w M_ii, about critically damped at w = 10 rad/s near the goal. Uniform gains
  // would be far too stiff for the wrist: M_77 is 2000 times smaller than M_22.
  const double omega_pd = 10;
  chaindyn::crba(arm, data, q_goal);
  const Vector inertia_goal = data.M.diagonal();
  GravityCompensatedPd pd{arm, q_goal, omega_pd * omega_pd * inertia_goal,
                          2 * omega_pd * inertia_goal, {}};
  const double t_pd = 4;
  std::vector<double> pd_t;
  std::vector<Vector> pd_q;
  double lyapunov_rise = -INFINITY, lyapunov_prev = NAN, lyapunov0 = NAN;
  Vector pd_final_tau = Vector::Zero(), pd_final_q = Vector::Zero(), pd_final_qd = Vector::Zero();
  const auto pd_stats = chaindyn::simulate(
      arm, Vector::Zero(), Vector::Zero(), pd, t_pd, rk4_1khz,
      [&](const chaindyn::SimulationSample<Arm>& s) {
        const Vector e = q_goal - s.q;
        const double v = chaindyn::kinetic_energy(arm, data, s.q, s.qd) +
                         0.5 * e.dot(pd.kp.cwiseProduct(e));
        if (std::isnan(lyapunov0)) lyapunov0 = v;
        // (written so that a NaN propagates into the check)
        if (!std::isnan(lyapunov_prev) && !(v - lyapunov_prev <= lyapunov_rise)) {
          lyapunov_rise = v - lyapunov_prev;
        }
        lyapunov_prev = v;
        pd_t.push_back(s.t), pd_q.push_back(s.q);
        pd_final_q = s.q, pd_final_qd = s.qd, pd_final_tau = s.tau;
      });
  const double pd_error = (pd_final_q - q_goal).cwiseAbs().maxCoeff();
  chaindyn::gravity_torques(arm, data, q_goal);
  const Vector g_goal = data.tau;
  std::printf("1. Gravity compensation + PD, upright pose -> q_goal in %g s (%zu RK4 steps)\n",
              t_pd, pd_stats.steps);
  std::printf("  %-8s %10s %12s %14s %14s\n", "joint", "goal [deg]", "q(4 s) [deg]",
              "tau(4 s) [N m]", "g(goal) [N m]");
  for (int i = 0; i < 7; ++i) {
    std::printf("  %-8d %10.3f %12.5f %14.5f %14.5f\n", i + 1, q_goal[i] * deg,
                pd_final_q[i] * deg, pd_final_tau[i], g_goal[i]);
  }
  std::printf("  V = 1/2 qd^T M qd + 1/2 e^T Kp e: %.3f J at t = 0, %.2e J at t = %g s\n\n",
              lyapunov0, lyapunov_prev, t_pd);
  checks.check("PD + gravity compensation: max |q(4 s) - q_goal| [rad]", pd_error, 1e-6);
  checks.check("PD + gravity compensation: max |tau(4 s) - g(q_goal)| [N m]",
               (pd_final_tau - g_goal).cwiseAbs().maxCoeff(), 1e-5);
  checks.check("Lyapunov function never increases: max V(t + 10 ms) - V(t) [J]",
               lyapunov_rise, 1e-9 * lyapunov0);

  // ---- 2. Computed-torque tracking of a quintic, starting off the trajectory. ---------------
  const double omega = 10, t_move = 3, t_track = 4;  // closed-loop bandwidth 10 rad/s
  const Vector q_start = q_goal;
  const Vector q_end = make_vector({-0.6, 0.3, 0.5, -0.8, -0.7, 1.2, 0.8});
  const Vector e0 = make_vector({0.05, -0.04, 0.03, -0.02, -0.05, -0.03, 0.04});  // rad
  ComputedTorque ct{arm, chaindyn::QuinticTrajectory<Vector>(q_start, q_end, t_move),
                    omega * omega, 2 * omega, {}};

  // Storage for every sample, reserved up front: the loop itself must not allocate.
  const std::size_t samples = std::size_t(std::lround(t_track / rk4_1khz.output_interval)) + 1;
  std::vector<double> ct_t;
  std::vector<Vector> ct_error, ct_tau;
  ct_t.reserve(samples), ct_error.reserve(samples), ct_tau.reserve(samples);
  std::size_t allocations_first = 0, allocations_last = 0, k = 0;
  double max_model_error = 0, max_error = 0;
  const auto start = std::chrono::steady_clock::now();
  const auto ct_stats = chaindyn::simulate(
      arm, q_start - e0, Vector::Zero(), ct, t_track, rk4_1khz,
      [&](const chaindyn::SimulationSample<Arm>& s) {
        if (k++ == 0) allocations_first = allocations;
        allocations_last = allocations;
        const Vector e = ct.desired(s.t).q - s.q;
        // e(t) = e0 (1 + w t) exp(-w t): the error dynamics of an exact model.
        const double decay = (1 + omega * s.t) * std::exp(-omega * s.t);
        max_model_error = std::max(max_model_error, (e - decay * e0).cwiseAbs().maxCoeff());
        if (s.t >= 1.0) max_error = std::max(max_error, e.cwiseAbs().maxCoeff());
        ct_t.push_back(s.t), ct_error.push_back(e), ct_tau.push_back(s.tau);
      });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("2. Computed-torque tracking of a quintic (%g s, then holding), Kp = %g, Kd = %g, "
              "starting %.2f to %.2f deg off\n", t_move, omega * omega, 2 * omega,
              e0.cwiseAbs().minCoeff() * deg, e0.cwiseAbs().maxCoeff() * deg);
  std::printf("  %6s %12s %12s %12s %12s\n", "t [s]", "|e|max [deg]", "e1 [deg]",
              "e1 analytic", "|tau|max [N m]");
  for (std::size_t i = 0; i < ct_t.size(); i += 50) {
    const double decay = (1 + omega * ct_t[i]) * std::exp(-omega * ct_t[i]);
    std::printf("  %6.2f %12.3e %12.3e %12.3e %12.3f\n", ct_t[i],
                ct_error[i].cwiseAbs().maxCoeff() * deg, ct_error[i][0] * deg,
                decay * e0[0] * deg, ct_tau[i].cwiseAbs().maxCoeff());
  }
  std::printf("  %zu RK4 steps, %zu evaluations of controller + aba in %.1f ms (%.2f us each, "
              "with the sampling)\n\n", ct_stats.steps, ct_stats.evaluations, seconds * 1e3,
              seconds * 1e6 / double(ct_stats.evaluations));
  checks.check("computed torque: max |e(t) - e0 (1 + w t) exp(-w t)| [rad]", max_model_error,
               1e-9);
  checks.check("computed torque: max |e| after 1 s [rad]", max_error, 1e-3);
  checks.require("the control loop allocated nothing (operator new calls between the first "
                 "and the last sample: " + std::to_string(allocations_last - allocations_first) +
                     ")",
                 allocations_last == allocations_first && k == samples);

  // ---- Output. ----------------------------------------------------------------------------------
  // Joint angles with the goal as constant columns; tracking errors with the exact error
  // dynamics' e0 (1 + w t) exp(-w t) beside them.
  std::vector<std::string> pd_columns{"t_s"}, ct_columns{"t_s"};
  const auto add_joints = [](std::vector<std::string>& columns, const char* name,
                             const char* unit) {  // q1_rad, ..., q7_rad
    for (int j = 1; j <= 7; ++j) columns.push_back(name + std::to_string(j) + unit);
  };
  add_joints(pd_columns, "q", "_rad");
  add_joints(pd_columns, "q", "_goal_rad");
  add_joints(ct_columns, "e", "_rad");
  add_joints(ct_columns, "e", "_analytic_rad");
  add_joints(ct_columns, "tau", "_Nm");
  ex::CsvWriter csv_pd(out / "arm_control_pd.csv", pd_columns);
  for (std::size_t i = 0; i < pd_t.size(); ++i) {
    std::vector<double> row{pd_t[i]};
    for (int j = 0; j < 7; ++j) row.push_back(pd_q[i][j]);
    for (int j = 0; j < 7; ++j) row.push_back(q_goal[j]);
    csv_pd.row(row);
  }
  csv_pd.close();
  ex::CsvWriter csv_ct(out / "arm_control_tracking.csv", ct_columns);
  for (std::size_t i = 0; i < ct_t.size(); ++i) {
    const double decay = (1 + omega * ct_t[i]) * std::exp(-omega * ct_t[i]);
    std::vector<double> row{ct_t[i]};
    for (int j = 0; j < 7; ++j) row.push_back(ct_error[i][j]);
    for (int j = 0; j < 7; ++j) row.push_back(decay * e0[j]);
    for (int j = 0; j < 7; ++j) row.push_back(ct_tau[i][j]);
    csv_ct.row(row);
  }
  csv_ct.close();
  std::printf("  wrote %s\n        %s\n", (out / "arm_control_pd.csv").c_str(),
              (out / "arm_control_tracking.csv").c_str());
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
