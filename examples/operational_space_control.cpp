// Operational-space control of the KUKA iiwa (Khatib 1987): the flange tracks a circle in a
// vertical plane while holding its orientation, pushes a wall (a spring) with a set force along
// the wall's normal, and a posture task runs in the null space. At each 1 kHz tick the
// controller asks chaindyn for the task-space dynamics of the flange -- Lambda, mu, p and Jbar
// in one O(n) sweep, M^-1 never formed, and N = 1 - Jbar J:
//
//     tau = J^T (Lambda a* + mu + p - f_wall) + N^T (tau_posture + h),   h = C qd + g
//         = J^T Lambda (a* - Jdot qd) + h - J^T f_wall + N^T tau_posture
//
// a* the task acceleration: PD on the path in y and z and on the orientation, and along the
// wall's normal x a force loop a*_x = k_f (F_push - F_measured) - d_x xdot. With an exact
// model the task-space closed loop is xdd = a*: y and z obey e'' + 2 w e' + w^2 e = 0, whatever
// the wall and the posture do. The plant is aba with the wall's force on the flange, RK4 at
// 1 kHz (the torque held over each step).
//
// Checked: the same controller written the dense way (crba, M^-1 by Cholesky, Lambda =
// (J M^-1 J^T)^-1, Jbar = M^-1 J^T Lambda, mu and p by their definitions) gives the same
// torques to 1e-10 (relative) at every tick; the path error follows e0 (1 + w t) exp(-w t); the
// contact force settles at F_push; the posture task does not disturb the flange. Both
// controllers are timed per tick.
//
//   chaindyn_operational_space_control [--out DIR]   (CSV into DIR; plots: scripts/plot.py DIR)
#include <chaindyn/chaindyn.hpp>

#include "support/output.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

namespace {

namespace ex = example_support;
using namespace chaindyn;
using Arm = robots::KukaIiwa<double>;  // ChainN<double, 7, RevoluteZ>
using Vector = Arm::Vector;
using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

/// The task: where the flange should be and how hard it should push.
struct Task {
  Eigen::Vector3d center;     // circle centre (y, z used; x is the wall's side)
  double radius = 0.08;       // m
  double period = 4.0;        // s per lap (after a smooth start)
  Eigen::Matrix3d rotation;   // desired flange orientation (held)
  double wall_x = 0;          // the wall's plane, x = wall_x, normal +x
  double wall_stiffness = 5000;  // N/m
  double push = 10;           // N, the force the flange should press the wall with

  /// Desired position, velocity and acceleration at time t (x unused: the force loop's): the
  /// circle's angle starts at rest, its rate ramping to w as w (3 x^2 - 2 x^3), x = t / t_ramp.
  void desired(double t, Eigen::Vector3d& p, Eigen::Vector3d& v, Eigen::Vector3d& a) const {
    const double w = 2 * M_PI / period, t_ramp = 1.0;
    // angular rate ramps as w s(t/t_ramp), s(x) = 3x^2 - 2x^3, then stays w
    double theta, rate, accel;
    if (t < t_ramp) {
      const double x = t / t_ramp;
      theta = w * t_ramp * (x * x * x - 0.5 * x * x * x * x);
      rate = w * (3 * x * x - 2 * x * x * x);
      accel = w * (6 * x - 6 * x * x) / t_ramp;
    } else {
      theta = w * t_ramp * 0.5 + w * (t - t_ramp);
      rate = w;
      accel = 0;
    }
    const double s = std::sin(theta), c = std::cos(theta);
    p = center + radius * Eigen::Vector3d(0, s, 1 - c);
    v = radius * rate * Eigen::Vector3d(0, c, s);
    a = radius * accel * Eigen::Vector3d(0, c, s) +
        radius * rate * rate * Eigen::Vector3d(0, -s, c);
  }

  /// The wall's force on the flange at position p (zero off the wall).
  Eigen::Vector3d wall_force(const Eigen::Vector3d& p) const {
    const double depth = p.x() - wall_x;
    return Eigen::Vector3d(depth > 0 ? -wall_stiffness * depth : 0.0, 0, 0);
  }
};

/// Gains: path and orientation PD at w (critically damped), the force loop, the posture PD.
struct Gains {
  double w = 20, w_orientation = 20;
  double force = 2.0, damping_x = 150;  // a*_x = force (F_push - F) - damping_x xdot
  Vector kp_posture = Vector::Constant(20), kd_posture = Vector::Constant(8);
};

/// The orientation error e with R_d = exp([e]x) R to first order: 1/2 sum_i r_i x r_d,i
/// (Siciliano et al., Robotics, eq. 3.91).
Eigen::Vector3d orientation_error(const Eigen::Matrix3d& r, const Eigen::Matrix3d& rd) {
  Eigen::Vector3d e = Eigen::Vector3d::Zero();
  for (int i = 0; i < 3; ++i) e += r.col(i).cross(rd.col(i));
  return 0.5 * e;
}

/// What both controllers share: the commanded task acceleration a* (world axes at the flange,
/// [angular; linear]) and the posture torque, from the state and the measured wall force.
Vector6 task_acceleration(const Task& task, const Gains& g, double t, const Transform<double>& pose,
                          const Vector6& velocity, const Eigen::Vector3d& f_wall) {
  Eigen::Vector3d pd, vd, ad;
  task.desired(t, pd, vd, ad);
  Vector6 a;
  const double w2 = g.w_orientation * g.w_orientation;
  a.head<3>() = w2 * orientation_error(pose.rotation, task.rotation) -
                2 * g.w_orientation * velocity.head<3>();
  const Eigen::Vector3d e = pd - pose.translation, de = vd - velocity.tail<3>();
  a.tail<3>() = ad + 2 * g.w * de + g.w * g.w * e;
  // along the wall's normal: a force loop (the flange presses with -f_wall.x())
  a[3] = g.force * (task.push + f_wall.x()) - g.damping_x * velocity[3];
  return a;
}

Vector posture_torque(const Gains& g, const Vector& q, const Vector& qd, const Vector& q_posture) {
  return g.kp_posture.cwiseProduct(q_posture - q) - g.kd_posture.cwiseProduct(qd);
}

/// The controller on chaindyn's task-space algorithms: one Data, in-place calls, no allocation.
struct RecursiveOsc {
  const Arm& arm;
  FrameFor<Arm> flange;
  Data<Arm> data;
  OperationalSpaceDynamics<double> os;
  TaskInverse<Arm> jbar;
  Arm::Matrix N;
  FrameJacobian<Arm> J;

  Vector torque(const Task& task, const Gains& g, double t, const Vector& q, const Vector& qd,
                const Vector& q_posture, const Eigen::Vector3d& f_wall) {
    // Lambda, mu, p and Jbar in one sweep (O(n)); N = 1 - Jbar J
    operational_space_dynamics(arm, data, q, qd, flange, ReferenceFrame::world, os, jbar);
    jacobian(arm, data, q, flange, ReferenceFrame::world, J);
    N.setIdentity();
    N.noalias() -= jbar * J;
    Motion<double> v;
    frame_velocity(arm, data, q, qd, flange, ReferenceFrame::world, v);
    const Vector6 a = task_acceleration(task, g, t, data.oMf, v.vector(), f_wall);
    Vector6 f_task = os.Lambda * a + os.mu + os.p;
    f_task.tail<3>() -= f_wall;
    nonlinear_effects(arm, data, q, qd);
    const Vector null_torque = posture_torque(g, q, qd, q_posture) + data.nle;
    return J.transpose() * f_task + N.transpose() * null_torque;
  }
};

/// The same controller written the dense way: M, its Cholesky factorization, M^-1 J^T, Lambda =
/// (J M^-1 J^T)^-1 (O(n^3)), and mu, p, Jbar, N by their definitions.
struct DenseOsc {
  const Arm& arm;
  FrameFor<Arm> flange;
  Data<Arm> data;

  Vector torque(const Task& task, const Gains& g, double t, const Vector& q, const Vector& qd,
                const Vector& q_posture, const Eigen::Vector3d& f_wall) {
    crba(arm, data, q);
    const Eigen::LLT<Arm::Matrix> llt(data.M);
    const FrameJacobian<Arm> J = jacobian(arm, q, flange);
    const Vector6 jdot_qd_world = jdot_qd(arm, q, qd, flange);
    gravity_torques(arm, data, q);
    const Vector grav = data.tau;
    nonlinear_effects(arm, data, q, qd);
    const Vector h = data.nle;
    const Eigen::Matrix<double, 7, 6> minv_jt = llt.solve(J.transpose());
    const Matrix6 lambda = (J * minv_jt).inverse();
    const Eigen::Matrix<double, 7, 6> jbar = minv_jt * lambda;
    const Vector6 mu = lambda * (J * llt.solve(h - grav) - jdot_qd_world);
    const Vector6 p = jbar.transpose() * grav;
    const Arm::Matrix N = Arm::Matrix::Identity() - jbar * J;
    const Motion<double> v = frame_velocity(arm, q, qd, flange);
    const Transform<double> pose = frame_pose(arm, q, flange);
    const Vector6 a = task_acceleration(task, g, t, pose, v.vector(), f_wall);
    Vector6 f_task = lambda * a + mu + p;
    f_task.tail<3>() -= f_wall;
    return J.transpose() * f_task + N.transpose() * (posture_torque(g, q, qd, q_posture) + h);
  }
};

/// The plant: qdd = aba(q, qd, tau) with the wall's force on the flange (link 7's frame, about
/// its origin).
struct Plant {
  const Arm& arm;
  FrameFor<Arm> flange;
  const Task& task;
  Data<Arm> data;
  LinkForces<Arm> f_ext{};

  Eigen::Vector3d flange_position(const Vector& q) {
    return frame_pose(arm, data, q, flange).translation;
  }
  Vector acceleration(const Vector& q, const Vector& qd, const Vector& tau) {
    frame_pose(arm, data, q, flange);
    const Eigen::Vector3d p = data.oMf.translation, f = task.wall_force(p);
    // (p x f; f) about the base origin, in link 7's frame about its origin
    f_ext[6] = data.oMi[6].act_inv(Force<double>(p.cross(f), f));
    aba(arm, data, q, qd, tau, f_ext);
    return data.qdd;
  }
};

int run(int argc, char** argv) {
  const auto out = ex::output_directory(
      argc, argv, "KUKA iiwa: operational-space control with a wall and a null-space posture.");
  ex::Checks checks;
  const Arm arm = robots::kuka_iiwa();
  const auto flange = arm.frame(6);
  Vector q0;
  q0 << 0.0, 0.7, 0.0, -1.5, 0.0, 0.9, 0.0;
  const Vector q_posture = q0 + Vector::Constant(0.15);  // pulls the elbow: the null space only
  const Transform<double> pose0 = frame_pose(arm, q0, flange);

  Task task;
  task.rotation = pose0.rotation;
  task.wall_x = pose0.translation.x() + 0.003;  // the flange starts 3 mm from the wall
  const Eigen::Vector3d start_offset(0, 0.0, 0.01);  // and 1 cm below the path's start
  task.center = pose0.translation + start_offset;
  Gains gains;

  RecursiveOsc recursive{arm, flange, {}, {}, {}, {}, {}};
  DenseOsc dense{arm, flange, {}};
  Plant plant{arm, flange, task, {}, {}};

  const double dt = 1e-3, t_end = 6.0;
  const int steps = int(std::lround(t_end / dt));
  Vector q = q0, qd = Vector::Zero();
  ex::CsvWriter csv(out / "operational_space_control.csv",
                    {"t_s", "y_m", "z_m", "y_d_m", "z_d_m", "e_yz_m", "e_yz_analytic_m",
                     "e_orientation_rad", "f_contact_N", "f_push_N", "dense_diff_rel"});
  double worst_dense = 0, worst_model = 0, worst_orientation_late = 0, force_error_late = 0;
  double time_recursive = 0, time_dense = 0;
  using Clock = std::chrono::steady_clock;
  for (int k = 0; k <= steps; ++k) {
    const double t = k * dt;
    const Transform<double> pose = frame_pose(arm, q, flange);
    const Eigen::Vector3d f_wall = task.wall_force(pose.translation);
    const auto t0 = Clock::now();
    const Vector tau = recursive.torque(task, gains, t, q, qd, q_posture, f_wall);
    const auto t1 = Clock::now();
    const Vector tau_dense = dense.torque(task, gains, t, q, qd, q_posture, f_wall);
    const auto t2 = Clock::now();
    time_recursive += std::chrono::duration<double>(t1 - t0).count();
    time_dense += std::chrono::duration<double>(t2 - t1).count();
    const double diff = (tau - tau_dense).cwiseAbs().maxCoeff() / tau_dense.cwiseAbs().maxCoeff();
    worst_dense = std::max(worst_dense, diff);

    Eigen::Vector3d pd, vd, ad;
    task.desired(t, pd, vd, ad);
    const Eigen::Vector2d e = (pd - pose.translation).tail<2>();
    // e'' + 2 w e' + w^2 e = 0, e(0) = start offset, e'(0) = 0
    const double decay = (1 + gains.w * t) * std::exp(-gains.w * t);
    const double e_analytic = decay * start_offset.tail<2>().norm();
    worst_model = std::max(worst_model, std::abs(e.norm() - e_analytic));
    const double e_rot = orientation_error(pose.rotation, task.rotation).norm();
    if (t > 2.0) {
      worst_orientation_late = std::max(worst_orientation_late, e_rot);
      force_error_late = std::max(force_error_late, std::abs(-f_wall.x() - task.push));
    }
    if (k % 10 == 0) {
      csv.row({t, pose.translation.y(), pose.translation.z(), pd.y(), pd.z(), e.norm(), e_analytic,
               e_rot, -f_wall.x(), task.push, diff});
    }
    if (k == steps) break;
    // RK4, the torque held over the step
    const auto f = [&](const Vector& qq, const Vector& vv) {
      return plant.acceleration(qq, vv, tau);
    };
    const Vector k1v = f(q, qd), k1q = qd;
    const Vector k2v = f(q + 0.5 * dt * k1q, qd + 0.5 * dt * k1v), k2q = qd + 0.5 * dt * k1v;
    const Vector k3v = f(q + 0.5 * dt * k2q, qd + 0.5 * dt * k2v), k3q = qd + 0.5 * dt * k2v;
    const Vector k4v = f(q + dt * k3q, qd + dt * k3v), k4q = qd + dt * k3v;
    q += dt / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
    qd += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
  csv.close();
  const Transform<double> pose_end = frame_pose(arm, q, flange);
  std::printf("KUKA LBR iiwa 7: operational-space control of the flange, %g s at 1 kHz\n", t_end);
  std::printf("  circle r = %.2f m in y-z, orientation held, wall at x = %.4f m (k = %g N/m), "
              "push %g N, posture task in the null space\n",
              task.radius, task.wall_x, task.wall_stiffness, task.push);
  std::printf("  contact force at the end: %.4f N; flange %.2f mm into the wall\n",
              -task.wall_force(pose_end.translation).x(),
              1e3 * (pose_end.translation.x() - task.wall_x));
  std::printf("  controller per tick: chaindyn's task-space algorithms %.2f us, the dense route "
              "%.2f us (%.1fx)\n\n",
              1e6 * time_recursive / (steps + 1), 1e6 * time_dense / (steps + 1),
              time_dense / time_recursive);
  checks.check("recursive and dense controllers: max |tau - tau_dense| / max |tau_dense|",
               worst_dense, 1e-10);
  checks.check("path error in y, z against e0 (1 + w t) exp(-w t) [m]", worst_model, 2e-4);
  checks.check("orientation error after 2 s [rad]", worst_orientation_late, 1e-3);
  checks.check("contact force after 2 s: max |F - F_push| [N]", force_error_late, 0.05);
  std::printf("\n  CSV: %s\n", (out / "operational_space_control.csv").string().c_str());
  return checks.exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "chaindyn_operational_space_control: %s\n", e.what());
    return 1;
  }
}
