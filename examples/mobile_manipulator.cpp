// A mobile manipulator: a UR5 on a 40 kg wheeled base that moves on level ground (a planar
// base: x, y, yaw). The base drives a 2 m arc to the left while the tool holds a straight line in
// the world, pointing down, from a point in front of the base at the start to one in front of it
// at the end: the arm makes up for the base's turn and drift.
//
//   1. Plan (kinematics): resolved-acceleration control on the whole 6 x 9 Jacobian (3 base
//      columns + 6 joints) drives the tool along its line; the base follows its arc in the
//      Jacobian's null space (task priority: the tool first). Integrated on the configuration
//      manifold at 1 ms.
//   2. Inverse dynamics along the plan: rnea gives the base's forces [f_x; f_y; tau_z] (what
//      the wheels must apply, in base coordinates) and the joint torques; checked against
//      crba(q) a + nonlinear_effects(q, v) at every step.
//   3. Independent check: the computed forces and torques, and nothing else, drive a
//      simulation (floating-base ABA, RK4 on the manifold); the tool's path is reproduced (the
//      difference from the plan is printed), and aba(q, v, tau) gives the plan's accelerations
//      back. Open loop, the arm standing on a base that rolls freely is unstable like an
//      inverted pendulum on a cart: any difference, rounding included, grows tenfold in half a
//      second. So the simulation starts again from the plan's state every 0.5 s (multiple
//      shooting), and each half second of it is the forces' work alone.
//
//   chaindyn_mobile_manipulator [--out DIR]     (CSV into DIR; plots: scripts/plot.py DIR)
#include <chaindyn/chaindyn.hpp>

#include "support/output.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

namespace {

namespace ex = example_support;
using Arm = chaindyn::robots::Ur5<double>;
using Robot = chaindyn::PlanarBaseRobot<Arm>;
using Config = Robot::ConfigVector;   // [x; y; yaw; q1..q6]
using Tangent = Robot::TangentVector;  // [v_x; v_y; omega_z; qd1..qd6]
using Jacobian = chaindyn::FloatingJacobian<Arm, chaindyn::PlanarBase<double>>;
using Vector6 = Eigen::Matrix<double, 6, 1>;

constexpr double kDuration = 5.0;  // the motion; then 0.5 s at rest
constexpr double kArcRadius = 2.5, kArcLength = 2.0;

// The quintic time scaling sigma(t) from 0 to 1 over kDuration, at rest at both ends, and its
// first two derivatives.
Eigen::Vector3d scaling(double t) {
  const double u = std::min(std::max(t / kDuration, 0.0), 1.0);
  const double s = u * u * u * (10 - 15 * u + 6 * u * u);
  const double ds = 30 * u * u * (1 - u) * (1 - u) / kDuration;
  const double dds = 60 * u * (1 - u) * (1 - 2 * u) / (kDuration * kDuration);
  return {s, ds, dds};
}

// The base's reference: an arc of kArcRadius turning left, its configuration [x; y; yaw],
// body velocity [v_x; 0; omega] and body acceleration (their time derivative).
struct BaseReference {
  Eigen::Vector3d q, v, a;
};
BaseReference base_reference(double t) {
  const Eigen::Vector3d s = kArcLength * scaling(t);
  const double yaw = s[0] / kArcRadius;
  return {{kArcRadius * std::sin(yaw), kArcRadius * (1 - std::cos(yaw)), yaw},
          {s[1], 0.0, s[1] / kArcRadius},
          {s[2], 0.0, s[2] / kArcRadius}};
}

// The tool's pose and its twist (omega; v) in world axes at the tool's origin.
struct Tool {
  chaindyn::Transform<double> pose;
  Vector6 twist;
};

// The tool's pose and twist at (q, v), and its Jacobian J (world axes).
Tool tool_state(const Robot& robot, chaindyn::Data<Robot>& data, const Config& q,
                const Tangent& v, Jacobian& J) {
  using namespace chaindyn;
  const auto frame = robot.tree().frame(5, robots::ur5_flange());  // UR5's flange
  jacobian(robot, data, q, frame, ReferenceFrame::world, J);
  return {data.oMb * data.tree.oMf, J * v};
}

// [log(R_d R^T); p_d - p]: the tool's pose error in world axes.
Vector6 pose_error(const chaindyn::Transform<double>& pose, const Eigen::Matrix3d& rd,
                   const Eigen::Vector3d& pd) {
  const Eigen::AngleAxisd turn(Eigen::Matrix3d(rd * pose.rotation.transpose()));
  Vector6 e;
  e << turn.angle() * turn.axis(), pd - pose.translation;
  return e;
}

int run(int argc, char** argv) {
  const auto out = ex::output_directory(
      argc, argv, "A UR5 on a wheeled base: the base drives an arc, the tool holds a line.");
  ex::Checks checks;
  using namespace chaindyn;

  // The base: a 40 kg cart of 0.7 x 0.5 x 0.4 m, its centre of mass 0.2 m behind and 0.2 m
  // above the base frame's origin, which is on the ground under the arm's mount; the UR5 stands
  // on the cart's top (0.4 m). Joint 1's placement is its own offset along z (joints/placed.hpp):
  // the mount adds 0.4 m to it.
  Link<double> cart;
  cart.mass = 40.0;
  cart.com = Eigen::Vector3d(-0.2, 0.0, 0.2);
  const double lx = 0.7, ly = 0.5, lz = 0.4, m = cart.mass;
  cart.inertia = Eigen::Vector3d(m * (ly * ly + lz * lz) / 12, m * (lx * lx + lz * lz) / 12,
                                 m * (lx * lx + ly * ly) / 12)
                     .asDiagonal();
  const Arm ur5 = robots::ur5();
  std::vector<Link<double>> links(ur5.links().begin(), ur5.links().end());
  links[0].placement.translation.z() += lz;
  const Robot robot(cart, Arm(links));
  auto data = std::make_unique<Data<Robot>>();

  // The tool's line: from 0.55 m in front of the base (and 0.15 m to its right) at the start to
  // 0.55 m in front (0.15 m to its left) at the end, 0.6 m above the ground, pointing down.
  const Eigen::Matrix3d rd = Eigen::Vector3d(1.0, -1.0, -1.0).asDiagonal();
  const Eigen::Vector3d start(0.55, -0.15, 0.6);
  const BaseReference base_end = base_reference(kDuration);
  const Eigen::Vector3d end = PlanarBase<double>::pose(base_end.q).act_point({0.55, 0.15, 0.6});
  const auto tool_reference = [&](double t) {
    const Eigen::Vector3d s = scaling(t);
    return std::array<Eigen::Vector3d, 3>{start + s[0] * (end - start), s[1] * (end - start),
                                          s[2] * (end - start)};
  };

  // The start: the base at the origin, the arm solved for the line's first point (Newton on
  // the arm's six columns) from an elbow-up pose facing the base's x axis.
  Config q = robot.neutral();
  q.tail<6>() << M_PI, -1.2, 1.6, -1.97, -M_PI / 2, 0.0;
  Tangent v = Tangent::Zero();
  Jacobian J;
  for (int iteration = 0; iteration < 50; ++iteration) {
    const Tool tool = tool_state(robot, *data, q, v, J);
    const Vector6 e = pose_error(tool.pose, rd, start);
    if (e.norm() < 1e-13) break;
    q.tail<6>() += J.rightCols<6>().partialPivLu().solve(e);
  }
  checks.check("start pose: the arm on the line's first point (Newton) [m, rad]",
               pose_error(tool_state(robot, *data, q, v, J).pose, rd, start).norm(), 1e-12);

  // 1. and 2.: the plan and its inverse dynamics.
  const double dt = 1e-3;
  const int steps = int(std::lround((kDuration + 0.5) / dt));
  const double kp = 400.0, kd = 40.0;  // the tool's and the base's: 20 rad/s, critically damped
  std::vector<Config> plan_q;
  std::vector<Tangent> plan_v, plan_a, plan_tau;
  std::vector<Eigen::Vector3d> plan_tool;
  double worst_line = 0, worst_identity = 0, worst_aba = 0, worst_base = 0;
  const auto keep_max = [](double& worst, double x) {  // NaN sticks
    if (!(x <= worst)) worst = x;
  };
  auto check_data = std::make_unique<Data<Robot>>();
  Jacobian J_plus, J_minus;
  for (int k = 0; k <= steps; ++k) {
    const double t = k * dt;
    const Tool tool = tool_state(robot, *data, q, v, J);
    // J-dot v by central differences along v on the manifold
    const double h = 1e-6;
    tool_state(robot, *check_data, integrate(robot, q, v, h), v, J_plus);
    tool_state(robot, *check_data, integrate(robot, q, v, -h), v, J_minus);
    const Vector6 jdot_v = (J_plus - J_minus) * v / (2 * h);
    // the tool's task: a = J^+ (x_dd + kd (x_d' - J v) + kp e - J-dot v) + N z
    const auto [pd, pd_dot, pd_ddot] = tool_reference(t);
    Vector6 twist_d = Vector6::Zero(), accel_d = Vector6::Zero();
    twist_d.tail<3>() = pd_dot;
    accel_d.tail<3>() = pd_ddot;
    const Vector6 b = accel_d + kd * (twist_d - tool.twist) + kp * pose_error(tool.pose, rd, pd) - jdot_v;
    const Eigen::Matrix<double, 9, 6> J_pinv = J.transpose() * (J * J.transpose()).inverse();
    // the base's task in the tool's null space (N = 1 - J^+ J): follow the arc (errors in
    // base coordinates, SE(2)); a = a_1 + (S N)^+ (z - S a_1), S = [1_3 0] the base's rows
    // (Siciliano and Slotine's task priority)
    const BaseReference base = base_reference(t);
    const Eigen::Vector3d z = base.a + kd * (base.v - v.head<3>()) +
                              kp * PlanarBase<double>::difference(q.head<3>(), base.q);
    const Tangent a1 = J_pinv * b;
    const Eigen::Matrix<double, 9, 9> N = Eigen::Matrix<double, 9, 9>::Identity() - J_pinv * J;
    const Eigen::Matrix<double, 3, 9> SN = N.topRows<3>();
    const Tangent a = a1 + SN.transpose() * (SN * SN.transpose()).ldlt().solve(z - a1.head<3>());
    rnea(robot, *data, q, v, a);
    const Tangent tau_sample = data->tau;
    // checks: rnea = crba a + h; aba gives a back
    crba(robot, *check_data, q);
    const Eigen::Matrix<double, 9, 9> M = check_data->M;
    nonlinear_effects(robot, *check_data, q, v);
    keep_max(worst_identity, (M * a + check_data->tau - tau_sample).cwiseAbs().maxCoeff());
    aba(robot, *check_data, q, v, tau_sample);
    keep_max(worst_aba, (check_data->a - a).cwiseAbs().maxCoeff());
    keep_max(worst_line, (tool.pose.translation - pd).norm());
    keep_max(worst_base, (q.head<2>() - base.q.head<2>()).norm());
    // The forces held over the step [t, t + dt]: rnea at the step's midpoint (the plan moves
    // with the constant acceleration a over the step), so that a simulation holding them
    // reproduces the plan to second order in dt.
    const Config q_mid = integrate(robot, q, v + 0.25 * dt * a, 0.5 * dt);
    const Tangent v_mid = v + 0.5 * dt * a;
    rnea(robot, *data, q_mid, v_mid, a);
    plan_q.push_back(q);
    plan_v.push_back(v);
    plan_a.push_back(a);
    plan_tau.push_back(data->tau);
    plan_tool.push_back(tool.pose.translation);
    q = integrate(robot, q, v + 0.5 * dt * a, dt);
    v += dt * a;
  }

  // 3. The simulation: the plan's forces alone, floating-base ABA, RK4 on the manifold, from
  // the plan's state at every half second.
  ex::CsvWriter csv(out / "mobile_manipulator.csv",
                    {"t_s", "base_x_m", "base_y_m", "base_yaw_rad", "target_x_m", "target_y_m",
                     "tool_x_m", "tool_y_m", "tool_z_m", "plan_error_m", "sim_error_m",
                     "f_x_N", "f_y_N", "tau_z_Nm", "tau1_Nm", "tau2_Nm", "tau3_Nm", "tau4_Nm",
                     "tau5_Nm", "tau6_Nm"});
  std::printf("  %5s %7s %7s %7s %11s %11s %8s %8s %8s %9s\n", "t [s]", "x [m]", "y [m]",
              "yaw", "|e| plan", "|e| sim", "f_x [N]", "f_y [N]", "tau_z", "max|tau_j|");
  const int window = 500;
  q = plan_q[0];
  v = plan_v[0];
  double worst_sim = 0, worst_sim_base = 0;
  for (int k = 0; k <= steps; ++k) {
    const double t = k * dt;
    const Tool tool = tool_state(robot, *check_data, q, v, J);
    const Eigen::Vector3d target = tool_reference(t)[0];
    const double plan_error = (plan_tool[std::size_t(k)] - target).norm();
    const double sim_error = (tool.pose.translation - plan_tool[std::size_t(k)]).norm();
    keep_max(worst_sim, sim_error);
    keep_max(worst_sim_base, difference(robot, plan_q[std::size_t(k)], q).head<3>().norm());
    const Tangent& tau = plan_tau[std::size_t(k)];
    if (k % 10 == 0) {
      csv.row({t, q[0], q[1], q[2], target[0], target[1], tool.pose.translation[0],
               tool.pose.translation[1], tool.pose.translation[2], plan_error, sim_error, tau[0],
               tau[1], tau[2], tau[3], tau[4], tau[5], tau[6], tau[7], tau[8]});
    }
    if (k % 500 == 0) {
      std::printf("  %5.1f %7.3f %7.3f %7.3f %11.2e %11.2e %8.2f %8.2f %8.2f %9.2f\n", t, q[0],
                  q[1], q[2], plan_error, sim_error, tau[0], tau[1], tau[2],
                  tau.tail<6>().cwiseAbs().maxCoeff());
    }
    if (k % window == 0) {  // a window ends (its errors are counted above), the next starts
      q = plan_q[std::size_t(k)];
      v = plan_v[std::size_t(k)];
    }
    if (k < steps) rk4_step(robot, *data, q, v, tau, dt);
  }
  csv.close();

  const double turn = plan_q.back()[2];
  std::printf("\n  the base drove %.2f m along its arc and turned by %.1f deg; the tool held its "
              "line in the world\n\n",
              kArcLength, turn * 180 / M_PI);
  checks.check("plan: the tool off its line, max [m]", worst_line, 1e-4);
  checks.check("plan: the base off its arc, max [m]", worst_base, 1e-4);
  checks.check("rnea - (crba a + nonlinear_effects), max |difference| [N, N m]", worst_identity, 1e-9);
  checks.check("aba(q, v, rnea(q, v, a)) - a, max |difference| [1/s^2]", worst_aba, 1e-9);
  checks.check("simulated (ABA, RK4, 0.5 s windows) tool path - planned, max [m]", worst_sim, 2e-6);
  checks.check("simulated base pose - planned, max |difference| [m, rad]", worst_sim_base, 2e-6);
  checks.require("the base turns (> 40 degrees)", turn > 40 * M_PI / 180);
  std::printf("\n  CSV: %s\n", (out / "mobile_manipulator.csv").c_str());
  return checks.exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mobile_manipulator: %s\n", e.what());
    return 1;
  }
}
