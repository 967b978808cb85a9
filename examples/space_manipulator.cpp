// A free-floating space manipulator: the KUKA iiwa on a 150 kg satellite, no gravity, nothing
// acting on the satellite. The arm's motors swing it through a slow manoeuvre (joint PD control
// to a moving target); the satellite turns and drifts in reaction, so that the total linear and
// angular momentum stay what they were (zero: everything starts at rest) and the centre of mass
// of the whole system stays where it was. Simulated with RK4 on the configuration manifold
// (rk4_step: the satellite's pose as position + unit quaternion), accelerations by the
// floating-base ABA. Checked against independent paths:
//   - the momentum summed over the bodies from their centres of mass' velocities, taken from
//     frame Jacobians (J v, not the dynamics' forward pass), against the centroidal momentum
//     matrix's A_G v: both constant to the integrator's tolerance;
//   - the system's centre of mass, summed over the bodies' poses, fixed;
//   - the floating-base ABA against crba + Cholesky at every sample.
//
//   chaindyn_space_manipulator [--out DIR]     (CSV into DIR; plots: scripts/plot.py DIR)
#include <chaindyn/chaindyn.hpp>

#include "support/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>

namespace {

namespace ex = example_support;
using Arm = chaindyn::robots::KukaIiwa<double>;
using Robot = chaindyn::FloatingBase<Arm>;

// Roll, pitch, yaw (Z-Y-X) of a rotation matrix, for the plots.
Eigen::Vector3d rpy(const Eigen::Matrix3d& r) {
  return {std::atan2(r(2, 1), r(2, 2)), std::asin(-std::clamp(r(2, 0), -1.0, 1.0)),
          std::atan2(r(1, 0), r(0, 0))};
}

// The total momentum [angular about the world origin; linear] in world axes, and the centre of
// mass, summed over the satellite and the seven links: each body's centre-of-mass velocity and
// angular velocity from its frame's Jacobian (a frame at the body's centre of mass, world
// axes), its inertia about the centre of mass turned into world axes.
struct Sums {
  Eigen::Matrix<double, 6, 1> momentum;
  Eigen::Vector3d com;
};
Sums body_by_body(const Robot& robot, chaindyn::Data<Robot>& data, const Robot::ConfigVector& q,
                  const Robot::TangentVector& v) {
  using namespace chaindyn;
  Sums s{Eigen::Matrix<double, 6, 1>::Zero(), Eigen::Vector3d::Zero()};
  double mass = 0;
  FloatingJacobian<Arm> J;
  const auto add = [&](const FrameFor<Arm>& frame, double m, const Eigen::Matrix3d& ic) {
    jacobian(robot, data, q, frame, ReferenceFrame::world, J);
    const Transform<double> pose = data.oMb * data.tree.oMf;  // the centre of mass's frame
    const Eigen::Matrix<double, 6, 1> twist = J * v;          // (omega; v_c), world axes
    const Eigen::Vector3d c = pose.translation, vc = twist.tail<3>();
    const Eigen::Matrix3d iw = pose.rotation * ic * pose.rotation.transpose();
    s.momentum.head<3>() += iw * twist.head<3>() + c.cross(m * vc);
    s.momentum.tail<3>() += m * vc;
    s.com += m * c;
    mass += m;
  };
  const Inertia<double>& i0 = robot.base_inertia();
  add(robot.tree().base_frame(Transform<double>::Translation(i0.com())), i0.mass,
      i0.inertia_about_com());
  for (std::size_t i = 0; i < 7; ++i) {
    add(robot.tree().frame(i, Transform<double>::Translation(robot.tree().link(i).com)),
        robot.tree().link(i).mass, robot.tree().link(i).inertia);
  }
  s.com /= mass;
  return s;
}

int run(int argc, char** argv) {
  const auto out = ex::output_directory(
      argc, argv, "The iiwa on a free-floating satellite: the arm moves, the satellite turns.");
  ex::Checks checks;
  using namespace chaindyn;

  // The satellite: a 150 kg box of 1.2 x 1.2 x 1 m, its centre 0.6 m below the arm's mount
  // (the base frame's origin, where the iiwa's base stands).
  Link<double> satellite;
  satellite.mass = 150.0;
  satellite.com = Eigen::Vector3d(0.0, 0.0, -0.6);
  const double a = 1.2, b = 1.2, c = 1.0, m = satellite.mass;
  satellite.inertia = Eigen::Vector3d(m * (b * b + c * c) / 12, m * (a * a + c * c) / 12,
                                      m * (a * a + b * b) / 12)
                          .asDiagonal();
  Arm arm = robots::kuka_iiwa();
  arm.set_gravity(Eigen::Vector3d::Zero());  // in orbit: free fall, no gravity in the frame
  const Robot robot(satellite, arm);
  auto data = std::make_unique<Data<Robot>>();
  auto check_data = std::make_unique<Data<Robot>>();

  // The manoeuvre: from a folded pose the arm runs a closed loop in joint space over 8 s
  // (q_target = q0 + A (1 - cos(2 pi t / T)) / 2 + B sin(2 pi t / T)), tracked by joint PD
  // control; the arm's reaction torques are all that turns the satellite. The loop encloses an
  // area, so the satellite ends turned although the arm is back where it started (the
  // momentum constraint is not integrable: the classic reorientation of a free-floating base).
  Robot::ConfigVector q = robot.neutral();
  Eigen::Matrix<double, 7, 1> q0, amplitude, loop;
  q0 << 0.0, 0.3, 0.0, -1.2, 0.0, 0.6, 0.0;
  amplitude << 2.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.5;
  loop << 0.0, 0.8, 0.0, 0.0, 0.0, -0.8, 0.0;
  q.tail<7>() = q0;
  Robot::TangentVector v = Robot::TangentVector::Zero(), tau = Robot::TangentVector::Zero();
  const double period = 8.0, dt = 1e-3, t_end = 10.0;
  // PD gains scaled by each joint's own inertia (the mass matrix's diagonal at the start): a
  // 10 rad/s, critically damped response on every joint, whatever inertia it moves
  crba(robot, *data, q);
  const Eigen::Matrix<double, 7, 1> inertia = data->M.diagonal().tail<7>();
  const Eigen::Matrix<double, 7, 1> kp = 100.0 * inertia, kd = 20.0 * inertia;

  const Sums start = body_by_body(robot, *check_data, q, v);
  ex::CsvWriter csv(out / "space_manipulator.csv",
                    {"t_s", "q1_rad", "q2_rad", "q4_rad", "q6_rad", "roll_rad", "pitch_rad",
                     "yaw_rad", "x_m", "y_m", "z_m", "com_x_m", "com_y_m", "com_z_m",
                     "abs_dh_bodies", "abs_dh_Ag", "abs_dcom_m"});
  std::printf("  %5s %8s %8s %8s %9s %9s %11s %11s\n", "t [s]", "q1", "q4", "yaw", "pitch",
              "roll", "|dh| bodies", "|dcom| [m]");
  double worst_h = 0, worst_ag = 0, worst_com = 0, worst_fd = 0, max_turn = 0;
  const auto keep_max = [](double& worst, double x) {  // NaN sticks
    if (!(x <= worst)) worst = x;
  };
  const int steps = int(std::lround(t_end / dt));
  for (int k = 0; k <= steps; ++k) {
    const double t = k * dt;
    const double phase = t < period ? 2 * M_PI * t / period : 0.0;
    const Eigen::Matrix<double, 7, 1> target =
        q0 + amplitude * (0.5 * (1 - std::cos(phase))) + loop * std::sin(phase);
    tau.tail<7>() = (kp.array() * (target - q.tail<7>()).array() -
                     kd.array() * v.tail<7>().array())
                        .matrix();
    if (k % 10 == 0) {
      const Sums now = body_by_body(robot, *check_data, q, v);
      centroidal_momentum_matrix(robot, *check_data, q);
      Eigen::Matrix<double, 6, 1> hg = check_data->Ag * v;  // about the centre of mass
      hg.head<3>() += check_data->com.cross(hg.tail<3>());   // about the world origin
      const double dh = (now.momentum - start.momentum).norm();
      const double dag = (hg - start.momentum).norm();
      const double dcom = (now.com - start.com).norm();
      keep_max(worst_h, dh);
      keep_max(worst_ag, dag);
      keep_max(worst_com, dcom);
      // aba against crba + Cholesky at this state
      aba(robot, *check_data, q, v, tau);
      const Robot::TangentVector a_aba = check_data->a;
      forward_dynamics_crba(robot, *check_data, q, v, tau);
      keep_max(worst_fd, (check_data->a - a_aba).cwiseAbs().maxCoeff());
      const Eigen::Vector3d angles = rpy(Robot::Base::pose(q).rotation);
      keep_max(max_turn, angles.cwiseAbs().maxCoeff());
      csv.row({t, q[7], q[8], q[10], q[12], angles[0], angles[1], angles[2], q[0], q[1], q[2],
               now.com[0], now.com[1], now.com[2], dh, dag, dcom});
      if (k % 1000 == 0) {
        std::printf("  %5.1f %8.4f %8.4f %8.4f %9.4f %9.4f %11.2e %11.2e\n", t, q[7], q[10],
                    angles[2], angles[1], angles[0], dh, dcom);
      }
    }
    if (k < steps) rk4_step(robot, *data, q, v, tau, dt);
  }
  csv.close();

  const Eigen::Vector3d final_angles = rpy(Robot::Base::pose(q).rotation);
  std::printf("\n  the arm is back at its start pose; the satellite has turned by (%.2f, %.2f, "
              "%.2f) deg (roll, pitch, yaw)\n  and moved by %.3f m, its centre of mass fixed\n\n",
              final_angles[0] * 180 / M_PI, final_angles[1] * 180 / M_PI,
              final_angles[2] * 180 / M_PI, q.head<3>().norm());
  checks.check("momentum summed over the bodies (Jacobians), change over 10 s [N m s]", worst_h,
               1e-9);
  checks.check("momentum by A_G v, change over 10 s [N m s]", worst_ag, 1e-9);
  checks.check("centre of mass of the whole system, displacement [m]", worst_com, 1e-9);
  checks.check("floating-base aba vs crba + Cholesky, max |difference| [1/s^2]", worst_fd, 1e-9);
  checks.check("quaternion norm - 1", std::abs(q.segment<4>(3).norm() - 1), 1e-14);
  checks.require("the satellite turns (attitude change > 2 degrees)", max_turn > 2 * M_PI / 180);
  checks.require("the satellite ends turned (> 1 degree) with the arm back at its start pose",
                 final_angles.cwiseAbs().maxCoeff() > M_PI / 180 &&
                     (q.tail<7>() - q0).cwiseAbs().maxCoeff() < 1e-2);
  std::printf("\n  CSV: %s\n", (out / "space_manipulator.csv").c_str());
  return checks.exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "space_manipulator: %s\n", e.what());
    return 1;
  }
}
