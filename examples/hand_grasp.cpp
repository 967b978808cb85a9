// The Allegro right hand closes its four fingers on a ball and holds it (docs/trees.md). The
// hand is SimLab's published URDF (tests/data/urdf/allegro_right_hand.urdf) loaded whole: one
// TreeX<double> of 16 joints, four 4-joint fingers on the palm (the base, fixed; its fingers
// point up, +z, and close towards +x). Its published inertias break the triangle inequality, so
// it loads with InertiaPolicy::accept (kept as written, reported).
//
// - The ball: 0.1 kg, radius 4 cm, in front of the palm. The four fingertips (the URDF's
//   link_*_tip frames) touch it at chosen points of its surface, three fingers from above and
//   beyond, the thumb from below: each finger's four joints are solved for its tip point by
//   damped least squares with the tree's jacobian (within the joint limits).
// - The motion: the fingers close from straight (the thumb turned in) to the grasp in 1 s
//   (cycloidal, joint space); from 1 s to 1.3 s the fingertips take over the ball's weight from
//   its support; held until 2 s.
// - The contact forces: each fingertip pushes the ball towards its centre with a normal force
//   lambda_i (no friction needed): sum lambda_i n_i = -m g, with n_i the unit vector from
//   contact i to the centre. Four normals in three dimensions leave one internal force free
//   (the null vector lambda_0 of N = [n_1 ... n_4], all positive as the fingertips surround
//   the centre: the thumb's contact is opposite the sum of the other three's directions):
//   lambda = the least-norm solution N^T (N N^T)^-1 (-m g) + the multiple of lambda_0 that
//   makes the smallest force 1 N.
// - The torques: one rnea call with each fingertip's contact force (the ball pushes back on it,
//   -lambda_i n_i) as the external wrench of its link.
//
// Checks (exit non-zero when one fails): the torques against crba qdd + nonlinear_effects -
// sum J_i^T f_i (each fingertip's position Jacobian; relative difference), while held against
// the statics gravity_torques - sum J_i^T f_i, aba with the same wrenches giving qdd back, the
// contact forces balancing the ball's weight and all pushing, the fingertips on the ball.
// CSV: hand_grasp.csv (scripts/plot.py draws hand_grasp_index, _middle, _ring, _thumb and
// hand_grasp_forces).
//
// The file's <dynamics> (viscous damping 3 to 8 N m s/rad, Coulomb friction 5 to 10 N m per
// joint) are simulator tuning, an order of magnitude above the torques of this grasp: they are
// left out (the joints' dynamics set to zero between urdf::describe_tree_file and build_tree).
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

constexpr const char* kFingers[4] = {"index", "middle", "ring", "thumb"};
constexpr const char* kTips[4] = {"link_3.0_tip", "link_7.0_tip", "link_11.0_tip", "link_15.0_tip"};

/// Moves finger f's four joints (4f ... 4f + 3) of q until its tip frame's origin is at
/// `goal` (1e-13 m): damped least-squares steps J^T (J J^T + lambda^2 I)^-1 e on the tip's
/// position Jacobian, each joint kept within its limits.
void solve_tip(const Robot& hand, const FrameFor<Robot>& tip, int f, const Eigen::Vector3d& goal,
               Vector& q) {
  for (int it = 0; it < 200; ++it) {
    const Eigen::Vector3d e = goal - frame_pose(hand, q, tip).translation;
    if (e.norm() < 1e-13) return;
    const Eigen::Matrix<double, 3, 4> J =
        jacobian(hand, q, tip).bottomRows<3>().middleCols<4>(4 * f);
    const double lambda2 = e.norm() > 1e-3 ? 1e-4 : 0.0;
    const Eigen::Vector4d dq =
        J.transpose() * (J * J.transpose() + lambda2 * Eigen::Matrix3d::Identity()).lu().solve(e);
    for (int k = 0; k < 4; ++k) {
      const Eigen::Index j = 4 * f + k;
      const auto& limits = hand.link(std::size_t(j)).limits;
      q[j] = limits ? std::clamp(q[j] + dq[k], limits->lower, limits->upper) : q[j] + dq[k];
    }
  }
  throw std::runtime_error(std::string("hand_grasp: the ") + kFingers[f] +
                           " fingertip does not reach its contact point");
}

}  // namespace

int run(int argc, char** argv) {
  std::string file = std::string(CHAINDYN_EXAMPLE_URDF_DIR) + "/allegro_right_hand.urdf";
  const auto out = ex::output_directory(
      argc, argv, "Allegro hand holding a ball: fingertip forces and joint torques.", &file);
  ex::Checks checks;
  urdf::TreeLoadOptions options;
  options.inertia = urdf::InertiaPolicy::accept;
  urdf::TreeDescription description = urdf::describe_tree_file(file, options);
  for (urdf::ChainJoint& j : description.joints) j.link.dynamics = JointDynamics<double>{};
  const Robot hand = urdf::build_tree<Robot>(description);
  if (hand.joint_count() != 16) throw std::runtime_error("hand_grasp: expected 16 joints");
  FrameFor<Robot> tips[4] = {hand.frame(kTips[0]), hand.frame(kTips[1]), hand.frame(kTips[2]),
                             hand.frame(kTips[3])};

  // the ball and the contact points: directions u_i from its centre, the thumb's opposite
  // the other three's sum (so that the four surround the centre)
  const double mass = 0.1, radius = 0.04;
  const Eigen::Vector3d centre(0.08, 0.0, 0.04);
  Eigen::Vector3d u[4] = {Eigen::Vector3d(0.1, 0.6, 1.0).normalized(),
                          Eigen::Vector3d(0.6, 0.0, 1.0).normalized(),
                          Eigen::Vector3d(0.1, -0.6, 1.0).normalized(), Eigen::Vector3d()};
  u[3] = -(u[0] + u[1] + u[2]).normalized();

  // the grasp: from a half-closed hand, each fingertip onto its point
  Vector q_grasp(16), q_open(16);
  q_grasp << 0.1, 0.6, 0.6, 0.4, 0.0, 0.6, 0.6, 0.4, -0.1, 0.6, 0.6, 0.4, 1.2, 0.3, 0.5, 0.5;
  for (int f = 0; f < 4; ++f) solve_tip(hand, tips[f], f, centre + radius * u[f], q_grasp);
  // open: the fingers straight, the thumb turned in as in the grasp
  q_open.setZero();
  for (const Eigen::Index j : {0, 4, 8, 12}) q_open[j] = q_grasp[j];

  // the normal forces: N lambda = -m g, N = [n_1 ... n_4], n_i = -u_i
  Eigen::Matrix<double, 3, 4> N;
  for (int f = 0; f < 4; ++f) N.col(f) = -u[f];
  const Eigen::Vector3d weight = mass * hand.gravity();
  const Eigen::Vector4d least = N.transpose() * (N * N.transpose()).ldlt().solve(-weight);
  // the internal force: u_1 + u_2 + u_3 + |u_1 + u_2 + u_3| u_4 = 0 (the thumb's u_4 is
  // opposite the sum), so N (1, 1, 1, |u_1 + u_2 + u_3|) = 0
  const Eigen::Vector4d internal(1.0, 1.0, 1.0, (u[0] + u[1] + u[2]).norm());
  const double f_min = 1.0;
  double alpha = 0;
  for (int f = 0; f < 4; ++f) alpha = std::max(alpha, (f_min - least[f]) / internal[f]);
  const Eigen::Vector4d lambda = least + alpha * internal;

  double on_ball = 0;
  for (int f = 0; f < 4; ++f) {
    on_ball = std::max(on_ball, std::abs((frame_pose(hand, q_grasp, tips[f]).translation - centre)
                                             .norm() - radius));
  }

  CycloidalTrajectory<Vector> closing(q_open, q_grasp, 1.0);
  const CycloidalTrajectory<double> take_over(0.0, 1.0, 0.3);
  const double take_over_start = 1.0;

  std::vector<std::string> columns{"t_s", "share"};
  for (int j = 0; j < 16; ++j) columns.push_back("tau" + std::to_string(j) + "_Nm");
  for (const char* f : kFingers) columns.push_back(std::string("f_") + f + "_N");
  ex::CsvWriter csv(out / "hand_grasp.csv", columns);

  const double dt = 0.002, t_end = 2.0;
  double worst_tau = 0, worst_static = 0, worst_aba = 0, peak[4] = {0, 0, 0, 0};
  Vector q(16), qd(16), qdd(16);
  for (int k = 0; k <= int(std::lround(t_end / dt)); ++k) {
    const double t = k * dt;
    const auto sample = closing(t);
    q = sample.q;
    qd = sample.qd;
    qdd = sample.qdd;
    const double share = take_over(t - take_over_start).q;  // of the ball's weight

    // each fingertip's contact force on the ball, share * lambda_i n_i; the ball pushes back
    LinkForces<Robot> f_ext = link_forces(hand);
    Eigen::Vector3d f_on_tip[4];
    for (int f = 0; f < 4; ++f) {
      f_on_tip[f] = -share * lambda[f] * N.col(f);
      const Eigen::Vector3d p = frame_pose(hand, q, tips[f]).translation;
      f_ext[tips[f].link()] = ex::wrench_on_link(hand, q, tips[f].link(), p, f_on_tip[f]);
    }
    const Vector tau = rnea(hand, q, qd, qdd, f_ext);
    const double scale = tau.cwiseAbs().maxCoeff();

    // independent path: M qdd + h - sum J_i^T f_i (each tip's position Jacobian)
    Vector jt = Vector::Zero(16);
    for (int f = 0; f < 4; ++f) {
      jt += jacobian(hand, q, tips[f]).bottomRows<3>().transpose() * f_on_tip[f];
    }
    const Vector tau_jt = crba(hand, q) * qdd + nonlinear_effects(hand, q, qd) - jt;
    worst_tau = std::max(worst_tau, (tau - tau_jt).cwiseAbs().maxCoeff() / scale);
    if (t >= 1.0) {  // at rest: the statics
      const Vector tau_static = gravity_torques(hand, q) - jt;
      worst_static = std::max(worst_static, (tau - tau_static).cwiseAbs().maxCoeff() / scale);
    }
    worst_aba = std::max(worst_aba, (aba(hand, q, qd, tau, f_ext) - qdd).cwiseAbs().maxCoeff());
    for (int f = 0; f < 4; ++f) {
      peak[f] = std::max(peak[f], tau.segment<4>(4 * f).cwiseAbs().maxCoeff());
    }

    std::vector<double> row{t, share};
    for (int j = 0; j < 16; ++j) row.push_back(tau[j]);
    for (int f = 0; f < 4; ++f) row.push_back(share * lambda[f]);
    csv.row(row);
  }
  csv.close();

  bool within_limits = true;
  for (std::size_t j = 0; j < 16; ++j) {
    const auto& limits = hand.link(j).limits;
    if (limits && (q_grasp[Eigen::Index(j)] < limits->lower ||
                   q_grasp[Eigen::Index(j)] > limits->upper)) {
      within_limits = false;
    }
  }

  std::printf("Allegro right hand (urdf::describe_tree_file + build_tree, InertiaPolicy::accept:\n"
              "TreeX<double>, 16 joints on four roots) closes in 1 s on a %.1f kg ball (radius\n"
              "%.1f cm) and holds it with four fingertips: normal forces towards its centre, the\n"
              "smallest %.0f N.\n\n",
              mass, 100 * radius, f_min);
  for (int f = 0; f < 4; ++f) {
    std::printf("  %-6s contact force %.3f N, peak |tau| %.3f N m\n", kFingers[f], lambda[f],
                peak[f]);
  }
  std::printf("\n");
  checks.require("the grasp within the URDF's joint limits", within_limits);
  checks.check("fingertips on the ball: max ||p_i - c| - r| [m]", on_ball, 1e-12);
  checks.check("contact forces balance the weight: |sum lambda_i n_i + m g| [N]",
               (N * lambda + weight).norm(), 1e-12);
  checks.require("every contact force pushes (lambda_i >= 1 N)",
                 lambda.minCoeff() >= f_min - 1e-12);
  checks.check("rnea with the fingertip forces vs M qdd + h - sum J_i^T f_i: max relative "
               "difference", worst_tau, 1e-12);
  checks.check("held (t >= 1 s): rnea vs gravity_torques - sum J_i^T f_i: max relative "
               "difference", worst_static, 1e-12);
  checks.check("aba with the same wrenches gives qdd back: max |difference| [rad/s^2]",
               worst_aba, 1e-8);
  std::printf("\n  CSV: %s\n", (out / "hand_grasp.csv").string().c_str());
  return checks.exit_code();
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "chaindyn_hand_grasp: %s\n", e.what());
    return 1;
  }
}
