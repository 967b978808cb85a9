// Baxter carries a box with both arms (docs/trees.md). The robot is Rethink Robotics' published
// URDF (tests/data/urdf/baxter.urdf) loaded whole with urdf::load_tree: one TreeX<double> of 19
// joints, the head, two 7-joint arms and their four gripper fingers. Both grippers hold a 3 kg
// box (0.30 x 0.40 x 0.20 m) by the top edges of its two end walls; the box is lifted by 20 cm
// (0-2 s) and moved 20 cm to the right while it turns by 20 deg about the vertical (1.5-4 s),
// then held until 4.5 s. The head turns towards the box's goal meanwhile; the fingers stay
// closed.
//
// - The box's Newton-Euler wrench, from its prescribed motion: F = m (a - g) and
//   N = I alpha + omega x I omega about its centre (I in world axes). The two grippers share it
//   equally, taken about the midpoint between them (each exerts F/2 and half the moment there),
//   and press the box's ends together with an internal squeeze of 30 N along the line between
//   them, which adds nothing to the box's wrench.
// - The arms' joint paths: each arm's grasp frame (the URDF's left_gripper / right_gripper)
//   follows its grasp on the box. Each arm's upper-arm roll e0 is held at 0, so the other six
//   joints are a square inverse-kinematics problem (Newton steps, damped far from the goal, on
//   the six columns of the tree's jacobian) whose solution is a smooth function of time; the
//   joint rates and accelerations follow from the same Jacobian: qd = J^-1 V and
//   qdd = J^-1 (A - Jdot qd) (jdot_qd), V and A the grasp's velocity and acceleration.
// - The torques: one rnea call with the two grippers' wrenches as external wrenches (the box
//   pushes on each gripper with the opposite of the gripper's wrench on the box).
//
// Checks (exit non-zero when one fails): the torques against crba(q) qdd + nonlinear_effects
// + friction_torques + sum J^T w over both grasp frames (relative difference), aba with the
// same wrenches giving qdd back, the grippers' wrenches adding up to the box's, the joint
// rates and accelerations against central differences of the inverse-kinematics solutions,
// the joints within the URDF's limits. CSV: dual_arm_carry.csv (scripts/plot.py draws
// dual_arm_carry_left, _right, _forces and _moments).
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/simulation/trajectories.hpp>
#include <chaindyn/urdf.hpp>

#include "support/contact.hpp"
#include "support/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

using namespace chaindyn;
namespace ex = example_support;

namespace {

using Robot = TreeX<double>;
using Vector = Eigen::VectorXd;
using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

constexpr double kPi = 3.14159265358979323846;
constexpr const char* kArmJoints[7] = {"s0", "s1", "e0", "e1", "w0", "w1", "w2"};

/// The box: a uniform 3 kg box, a x b x c along its own x (forward), y (from gripper to
/// gripper) and z (up); its centre's path and its turn about the vertical.
struct Box {
  double mass = 3.0, a = 0.30, b = 0.40, c = 0.20;
  Eigen::Vector3d start{0.70, 0.0, -0.05};  // its centre at t = 0 (Baxter's base frame) [m]
  double lift = 0.20, side = -0.20, turn = 20 * kPi / 180;
  CycloidalTrajectory<double> up{0.0, 1.0, 2.0}, across{0.0, 1.0, 2.5};  // time laws 0 -> 1
  double across_start = 1.5;

  /// I about the centre in the box's axes: m (b^2 + c^2) / 12, ...
  Eigen::Matrix3d inertia() const {
    return Eigen::Vector3d(mass / 12 * (b * b + c * c), mass / 12 * (a * a + c * c),
                           mass / 12 * (a * a + b * b))
        .asDiagonal();
  }

  /// The box at time t: pose (R, p), velocity (omega, v), acceleration (alpha, a) of its centre.
  struct State {
    Transform<double> pose;
    Eigen::Vector3d w, v, alpha, a;
  };
  State at(double t) const {
    const auto u = up(t), s = across(t - across_start);
    State x;
    x.pose = Transform<double>(
        Eigen::AngleAxisd(turn * s.q, Eigen::Vector3d::UnitZ()).toRotationMatrix(),
        start + Eigen::Vector3d(0, side * s.q, lift * u.q));
    x.v = Eigen::Vector3d(0, side * s.qd, lift * u.qd);
    x.a = Eigen::Vector3d(0, side * s.qdd, lift * u.qdd);
    x.w = Eigen::Vector3d(0, 0, turn * s.qd);
    x.alpha = Eigen::Vector3d(0, 0, turn * s.qdd);
    return x;
  }
};

/// One arm: its joints (s0 ... w2) and its grasp frame, the grasp's pose in the box's frame.
struct Arm {
  std::size_t joint[7];
  std::size_t solved[6];  // every joint but e0 (held)
  FrameFor<Robot> frame;
  Transform<double> grasp;  // the grasp frame's goal in the box frame

  Arm(const Robot& robot, const std::string& side, double y, double top)
      : frame(robot.frame(side + "_gripper")) {
    for (int k = 0, s = 0; k < 7; ++k) {
      joint[k] = robot.joint_index(side + "_" + kArmJoints[k]);
      if (k != 2) solved[s++] = joint[k];
    }
    // on the top edge of an end wall, pointing down (the gripper's z), the fingers closing
    // across the wall (the gripper's y along the box's y)
    grasp = Transform<double>(Eigen::Vector3d(-1, 1, -1).asDiagonal().toDenseMatrix(),
                              Eigen::Vector3d(0, y, top));
  }

  /// The six solved columns of the grasp frame's Jacobian (world axes, rows [angular; linear]).
  Matrix6 columns(const Robot& robot, const Vector& q) const {
    const FrameJacobian<Robot> J = jacobian(robot, q, frame);
    Matrix6 Js;
    for (int k = 0; k < 6; ++k) Js.col(k) = J.col(Eigen::Index(solved[k]));
    return Js;
  }

  /// Moves the six solved joints of q until the grasp frame is at `goal` (1e-13): Newton steps
  /// on the pose error (rotation vector of R_goal R^T; position), damped least squares
  /// (J^T (J J^T + lambda^2 I)^-1) while the error is large.
  void solve(const Robot& robot, const Transform<double>& goal, Vector& q) const {
    for (int it = 0; it < 100; ++it) {
      const Transform<double> pose = frame_pose(robot, q, frame);
      const Eigen::AngleAxisd turn(Eigen::Matrix3d(goal.rotation * pose.rotation.transpose()));
      Vector6 e;
      e << turn.angle() * turn.axis(), goal.translation - pose.translation;
      if (e.norm() < 1e-13) return;
      const Matrix6 Js = columns(robot, q);
      const double lambda2 = e.norm() > 1e-2 ? 1e-2 : 0.0;
      const Vector6 dq =
          Js.transpose() * (Js * Js.transpose() + lambda2 * Matrix6::Identity()).lu().solve(e);
      for (int k = 0; k < 6; ++k) q[Eigen::Index(solved[k])] += dq[k];
    }
    throw std::runtime_error("dual_arm_carry: the inverse kinematics did not converge");
  }
};

/// The whole robot's motion at time t: the arms by inverse kinematics (q warm-started with the
/// previous solution), the head turning towards the box's goal, the fingers closed.
struct CarryMotion {
  const Robot& robot;
  const Box& box;
  const Arm* arms[2];
  std::size_t head;
  double head_goal;

  void at(double t, Vector& q, Vector& qd, Vector& qdd) const {
    const Box::State b = box.at(t);
    const auto s = box.across(t - box.across_start);
    qd.setZero();
    qdd.setZero();
    q[Eigen::Index(head)] = head_goal * s.q;
    qd[Eigen::Index(head)] = head_goal * s.qd;
    qdd[Eigen::Index(head)] = head_goal * s.qdd;
    for (const Arm* arm : arms) arm->solve(robot, b.pose * arm->grasp, q);
    // the grasp's velocity V and acceleration A, rigid with the box (r from the box's centre)
    Vector6 V[2], A[2];
    for (int i = 0; i < 2; ++i) {
      const Eigen::Vector3d r = b.pose.rotation * arms[i]->grasp.translation;
      V[i] << b.w, b.v + b.w.cross(r);
      A[i] << b.alpha, b.a + b.alpha.cross(r) + b.w.cross(b.w.cross(r));
      const Vector6 rates = arms[i]->columns(robot, q).partialPivLu().solve(V[i]);
      for (int k = 0; k < 6; ++k) qd[Eigen::Index(arms[i]->solved[k])] = rates[k];
    }
    for (int i = 0; i < 2; ++i) {  // Jdot qd once qd is complete
      const Arm* arm = arms[i];
      const Vector6 accelerations =
          arm->columns(robot, q).partialPivLu().solve(A[i] - jdot_qd(robot, q, qd, arm->frame));
      for (int k = 0; k < 6; ++k) qdd[Eigen::Index(arm->solved[k])] = accelerations[k];
    }
  }
};

}  // namespace

int run(int argc, char** argv) {
  std::string file = std::string(CHAINDYN_EXAMPLE_URDF_DIR) + "/baxter.urdf";
  const auto out = ex::output_directory(
      argc, argv, "Baxter carries a box with both arms: joint torques and gripper wrenches.",
      &file);
  ex::Checks checks;
  const Robot robot = urdf::load_tree(file);
  const Box box;
  const Arm left(robot, "left", box.b / 2, box.c / 2), right(robot, "right", -box.b / 2, box.c / 2);
  const std::size_t head = robot.joint_index("head_pan");
  const Box::State goal = box.at(1e9);
  const CarryMotion motion{robot, box, {&left, &right}, head,
                      std::atan2(goal.pose.translation.y(), goal.pose.translation.x())};
  const double squeeze = 30.0;  // N, each gripper pressing its end of the box inwards

  const Eigen::Index n = Eigen::Index(robot.joint_count());
  // start: Baxter's untucked pose, then the arms' six joints solved onto the grasps
  Vector q = Vector::Zero(n), qd(n), qdd(n);
  for (const Arm* arm : {&left, &right}) {
    q[Eigen::Index(arm->joint[1])] = -0.55;
    q[Eigen::Index(arm->joint[3])] = 0.75;
    q[Eigen::Index(arm->joint[5])] = 1.26;
  }

  std::vector<std::string> columns{"t_s", "box_y_m", "box_z_m", "box_turn_rad", "tau_head_Nm"};
  for (const char* side : {"L", "R"}) {
    for (const char* j : kArmJoints) columns.push_back(std::string("tau") + side + "_" + j + "_Nm");
  }
  for (const char* w : {"fL_x_N", "fL_y_N", "fL_z_N", "fR_x_N", "fR_y_N", "fR_z_N", "n_x_Nm",
                        "n_y_Nm", "n_z_Nm"}) {
    columns.push_back(w);
  }
  ex::CsvWriter csv(out / "dual_arm_carry.csv", columns);

  const double dt = 0.005, t_end = 4.5, h = 1e-4;
  double worst_tau = 0, worst_aba = 0, worst_sum = 0, worst_qd = 0, worst_qdd = 0;
  double peak_tau[2] = {0, 0}, peak_at[2] = {0, 0}, peak_f = 0;
  std::size_t peak_joint[2] = {0, 0};
  bool within_limits = true;
  const Eigen::Matrix3d inertia = box.inertia();
  Vector qa = q, qb = q, unused1(n), unused2(n);
  for (int k = 0; k <= int(std::lround(t_end / dt)); ++k) {
    const double t = k * dt;
    motion.at(t, q, qd, qdd);
    const Box::State b = box.at(t);

    // the box's Newton-Euler wrench (what the grippers exert on it), about its centre
    const Eigen::Matrix3d I = b.pose.rotation * inertia * b.pose.rotation.transpose();
    const Eigen::Vector3d F = box.mass * (b.a - robot.gravity());
    const Eigen::Vector3d N = I * b.alpha + b.w.cross(I * b.w);
    // shared: each gripper F/2 and half the moment about the midpoint m between them, plus the
    // squeeze along the line between them (opposite forces on one line: no net force or moment)
    const Eigen::Vector3d pL = frame_pose(robot, q, left.frame).translation;
    const Eigen::Vector3d pR = frame_pose(robot, q, right.frame).translation;
    const Eigen::Vector3d m = 0.5 * (pL + pR), towards_right = (pR - pL).normalized();
    const Eigen::Vector3d n_each = 0.5 * (N - (m - b.pose.translation).cross(F));
    const Eigen::Vector3d fL = 0.5 * F + squeeze * towards_right;
    const Eigen::Vector3d fR = 0.5 * F - squeeze * towards_right;
    {  // the two wrenches about the centre add up to the box's
      const Eigen::Vector3d c = b.pose.translation;
      const Eigen::Vector3d sum_n = 2 * n_each + (pL - c).cross(fL) + (pR - c).cross(fR);
      worst_sum = std::max({worst_sum, (fL + fR - F).cwiseAbs().maxCoeff(),
                            (sum_n - N).cwiseAbs().maxCoeff()});
    }
    // the box pushes on each gripper with the opposite wrench
    LinkForces<Robot> f_ext = link_forces(robot);
    f_ext[left.frame.link()] = ex::wrench_on_link(robot, q, left.frame.link(), pL, -fL, -n_each);
    f_ext[right.frame.link()] = ex::wrench_on_link(robot, q, right.frame.link(), pR, -fR, -n_each);
    const Vector tau = rnea(robot, q, qd, qdd, f_ext);

    // independent path 1: M qdd + h + friction + sum J^T w, w each gripper's wrench on the box
    // at its grasp frame's origin (world axes, [moment; force]); the friction is the URDF's
    // viscous joint damping (0.7 N m s/rad on each arm joint), which rnea includes
    Vector tau_jt = crba(robot, q) * qdd + nonlinear_effects(robot, q, qd) +
                    friction_torques(robot, qd);
    Vector6 wL, wR;
    wL << n_each, fL;
    wR << n_each, fR;
    tau_jt += jacobian(robot, q, left.frame).transpose() * wL +
              jacobian(robot, q, right.frame).transpose() * wR;
    worst_tau = std::max(worst_tau,
                         (tau - tau_jt).cwiseAbs().maxCoeff() / tau.cwiseAbs().maxCoeff());
    // independent path 2: forward dynamics with the same wrenches gives qdd back
    worst_aba = std::max(worst_aba, (aba(robot, q, qd, tau, f_ext) - qdd).cwiseAbs().maxCoeff());
    // the joint rates and accelerations against central differences of the IK solutions
    if (k % 10 == 0) {
      qa = qb = q;
      motion.at(t - h, qa, unused1, unused2);
      motion.at(t + h, qb, unused1, unused2);
      worst_qd = std::max(worst_qd, ((qb - qa) / (2 * h) - qd).cwiseAbs().maxCoeff());
      worst_qdd = std::max(worst_qdd, ((qb - 2 * q + qa) / (h * h) - qdd).cwiseAbs().maxCoeff());
    }

    for (Eigen::Index j = 0; j < n; ++j) {  // the joint paths within the URDF's limits
      const auto& limits = robot.link(std::size_t(j)).limits;
      if (limits && (q[j] < limits->lower || q[j] > limits->upper)) within_limits = false;
    }
    for (int side = 0; side < 2; ++side) {
      const Arm& arm = side == 0 ? left : right;
      for (int j = 0; j < 7; ++j) {
        const double v = std::abs(tau[Eigen::Index(arm.joint[j])]);
        if (v > peak_tau[side]) {
          peak_tau[side] = v;
          peak_joint[side] = std::size_t(j);
          peak_at[side] = t;
        }
      }
    }
    peak_f = std::max({peak_f, fL.norm(), fR.norm()});
    std::vector<double> row{t, b.pose.translation.y(), b.pose.translation.z(),
                            box.turn * box.across(t - box.across_start).q,
                            tau[Eigen::Index(head)]};
    for (const Arm* arm : {&left, &right}) {
      for (const std::size_t j : arm->joint) row.push_back(tau[Eigen::Index(j)]);
    }
    for (const Eigen::Vector3d* v : {&fL, &fR, &n_each}) {
      for (int c = 0; c < 3; ++c) row.push_back((*v)[c]);
    }
    csv.row(row);
  }
  csv.close();

  std::printf("Baxter (urdf::load_tree: TreeX<double>, %zu joints) carries a %.1f kg box with\n"
              "both arms: lifted %.0f cm, moved %.0f cm to the right and turned %.0f deg in 4 s;\n"
              "the grippers share the box's wrench equally and squeeze it with %.0f N.\n\n",
              robot.joint_count(), box.mass, 100 * box.lift, -100 * box.side,
              box.turn * 180 / kPi, squeeze);
  for (int side = 0; side < 2; ++side) {
    std::printf("  %s arm: peak |tau| %.2f N m (joint %s, t = %.2f s)\n",
                side == 0 ? "left " : "right", peak_tau[side], kArmJoints[peak_joint[side]],
                peak_at[side]);
  }
  std::printf("  peak gripper force on the box %.2f N (half the box's load and the squeeze)\n\n",
              peak_f);
  checks.require("every joint within the URDF's limits along the path", within_limits);
  checks.check("grippers' wrenches add up to the box's Newton-Euler wrench: max |difference| "
               "[N, N m]", worst_sum, 1e-12);
  checks.check("rnea with the grippers' wrenches vs M qdd + h + friction + sum J^T w: max "
               "relative difference", worst_tau, 1e-12);
  checks.check("aba with the same wrenches gives qdd back: max |difference| [rad/s^2]",
               worst_aba, 1e-8);
  checks.check("IK rates vs central differences of the IK solutions: max |difference| [rad/s]",
               worst_qd, 1e-6);
  checks.check("IK accelerations vs central differences: max |difference| [rad/s^2]", worst_qdd,
               1e-3);
  std::printf("\n  CSV: %s\n", (out / "dual_arm_carry.csv").string().c_str());
  return checks.exit_code();
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "chaindyn_dual_arm_carry: %s\n", e.what());
    return 1;
  }
}
