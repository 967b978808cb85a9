// A Franka Emika Panda with its hand and two fingers, as one kinematic tree (docs/trees.md):
// the arm moves along a cycloidal path for 3 s while the fingers close on a 0.5 kg object (5 cm
// wide) and squeeze it with 20 N; from then on the fingers carry the object. The finger forces
// and the arm torques come from one rnea call with the contact wrenches on the two finger links.
// They are checked against two independent paths: the mass matrix (crba) times qdd plus the
// bias forces minus the contact Jacobians' transposes times the contact forces, and forward
// dynamics (aba with the same wrenches) giving back the accelerations. Exits non-zero when they
// disagree. CSV: panda_grasp.csv (scripts/plot.py draws panda_grasp_fingers, panda_grasp_arm).
//
// The model: chaindyn::robots::panda() (Franka's DH table, Gaz et al. 2019's inertias) with
// the hand of franka_description (0.73 kg, mounted at the flange turned by -45 deg about z)
// merged into link 7, and the two prismatic fingers (0.015 kg each, 5.84 cm beyond the hand
// frame, moving along the hand's +y and -y) as two branches on link 7.
#include <chaindyn/chaindyn.hpp>

#include "support/contact.hpp"
#include "support/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

using namespace chaindyn;
namespace ex = example_support;

namespace {

constexpr double kPi = 3.14159265358979323846;

/// The arm's seven joints, then the two fingers on link 7 (joint 6): parents before children.
using PandaHand = Tree<double, Parents<-1, 0, 1, 2, 3, 4, 5, 6, 6>, RevoluteZ, RevoluteZ,
                       RevoluteZ, RevoluteZ, RevoluteZ, RevoluteZ, RevoluteZ, Prismatic, Prismatic>;
using Vector = PandaHand::Vector;

PandaHand make_panda_hand() {
  const auto arm = robots::panda();
  std::vector<Link<double>> links(arm.links().begin(), arm.links().end());
  for (std::size_t i = 0; i < 7; ++i) links[i].placement = arm.placement(i);
  // The hand frame in link 7's frame: the flange (d = 0.107 m), turned by -45 deg about z.
  const Eigen::Matrix3d rz = Eigen::AngleAxisd(-kPi / 4, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  const Transform<double> hand = robots::panda_flange<double>() * Transform<double>(rz, Eigen::Vector3d::Zero());
  // The hand's inertia (franka_description: 0.73 kg, com (-0.01, 0, 0.03) m in the hand frame,
  // diag(0.001, 0.0025, 0.0017) kg m^2 about it) added to link 7's (RBDA eq. 2.66).
  {
    Link<double>& l7 = links[6];
    const Inertia<double> sum =
        Inertia<double>::from_com(l7.mass, l7.com, l7.inertia) +
        Inertia<double>::from_com(0.73, Eigen::Vector3d(-0.01, 0, 0.03),
                                  Eigen::Vector3d(0.001, 0.0025, 0.0017).asDiagonal())
            .transformed_by(hand);
    l7.mass = sum.mass;
    l7.com = sum.com();
    l7.inertia = sum.inertia_about_com();
  }
  for (int side = 0; side < 2; ++side) {
    Link<double> finger;
    finger.name = side == 0 ? "left_finger" : "right_finger";
    finger.joint_name = side == 0 ? "finger_joint1" : "finger_joint2";
    finger.placement = hand * Transform<double>::Translation({0, 0, 0.0584});
    finger.axis = Eigen::Vector3d(0, side == 0 ? 1.0 : -1.0, 0);  // q: each finger's opening
    finger.mass = 0.015;
    finger.inertia = Eigen::Vector3d(2.375e-6, 2.375e-6, 7.5e-7).asDiagonal();
    links.push_back(finger);
  }
  return PandaHand(links);
}

/// Cycloidal rest-to-rest motion from a to b over [t0, t0 + T]: value, rate, second rate.
struct Cycloid {
  double t0, T;
  void at(double t, double& s, double& sd, double& sdd) const {
    const double u = std::clamp((t - t0) / T, 0.0, 1.0), w = 2 * kPi / T;
    const bool moving = t > t0 && t < t0 + T;
    s = u - std::sin(2 * kPi * u) / (2 * kPi);
    sd = moving ? (1 - std::cos(2 * kPi * u)) / T : 0.0;
    sdd = moving ? w * std::sin(2 * kPi * u) / T : 0.0;
  }
};

struct GraspMotion {
  Vector q0, q1;
  double open = 0.04, closed = 0.025;    // finger opening (m): 8 cm apart, then the 5 cm object
  Cycloid arm{0.0, 3.0}, fingers{0.0, 0.8}, squeeze{0.8, 0.2};
  void at(double t, Vector& q, Vector& qd, Vector& qdd) const {
    double s, sd, sdd;
    arm.at(t, s, sd, sdd);
    q = q0 + s * (q1 - q0);
    qd = sd * (q1 - q0);
    qdd = sdd * (q1 - q0);
    fingers.at(t, s, sd, sdd);
    for (int k = 7; k < 9; ++k) {
      q[k] = open + s * (closed - open);
      qd[k] = sd * (closed - open);
      qdd[k] = sdd * (closed - open);
    }
  }
};

}  // namespace

int run(int argc, char** argv) {
  const auto out = ex::output_directory(
      argc, argv, "Panda with its fingers: finger forces and arm torques of a grasp while moving.");
  ex::Checks checks;
  const PandaHand robot = make_panda_hand();
  GraspMotion motion;
  motion.q0.resize(9);
  motion.q1.resize(9);
  motion.q0 << 0.0, -0.6, 0.0, -2.2, 0.0, 1.6, 0.8, 0.04, 0.04;
  motion.q1 << 0.9, -0.2, 0.3, -1.8, -0.2, 1.9, 0.3, 0.025, 0.025;
  const double m_object = 0.5, f_squeeze = 20.0;
  // the contact points: on each finger's pad, 4.5 cm along the finger (its link frame's z)
  const auto pad = [&](std::size_t finger) {
    return robot.frame(finger, Transform<double>::Translation({0, 0, 0.045}));
  };
  const auto pad1 = pad(7), pad2 = pad(8);
  const auto centre = [&](const Vector& q) {
    return Eigen::Vector3d(0.5 * (frame_pose(robot, q, pad1).translation +
                                  frame_pose(robot, q, pad2).translation));
  };

  ex::CsvWriter csv(out / "panda_grasp.csv",
                    {"t_s", "opening_m", "share", "f1_N", "f2_N", "tau1_Nm", "tau2_Nm", "tau3_Nm",
                     "tau4_Nm", "tau5_Nm", "tau6_Nm", "tau7_Nm", "tau6_free_Nm", "tau7_free_Nm"});
  const double dt = 0.005, t_end = 3.0, h = 1e-4;
  double worst_jt = 0, worst_aba = 0, peak_f = 0;
  Vector q, qd, qdd, qa, qb, unused1, unused2;
  for (int k = 0; k <= int(std::lround(t_end / dt)); ++k) {
    const double t = k * dt;
    motion.at(t, q, qd, qdd);
    // the share of the object's load the fingers carry: 0 until they touch, 1 once squeezed
    double share, unused;
    motion.squeeze.at(t, share, unused, unused);
    // the object's required force m (a - g), a by central differences of its centre's path
    motion.at(t - h, qa, unused1, unused2);
    motion.at(t + h, qb, unused1, unused2);
    const Eigen::Vector3d a = (centre(qa) - 2 * centre(q) + centre(qb)) / (h * h);
    const Eigen::Vector3d f_object = m_object * (a - robot.gravity());
    // the force on each finger (world): the object pushes it open by the squeeze force, and
    // takes half its own load from it
    LinkForces<PandaHand> f_ext = link_forces(robot);
    Eigen::Vector3d f_world[2];
    const std::size_t finger[2] = {7, 8};
    const decltype(pad1)* pads[2] = {&pad1, &pad2};
    for (int s = 0; s < 2; ++s) {
      const Transform<double> link = frame_pose(robot, q, finger[s]);
      const Eigen::Vector3d opening = link.rotation * *robot.link(finger[s]).axis;
      f_world[s] = share * (f_squeeze * opening - 0.5 * f_object);
      // the force at the pad's point, in the finger's link frame about its origin
      f_ext[finger[s]] = ex::wrench_on_link(robot, q, finger[s],
                                            frame_pose(robot, q, *pads[s]).translation, f_world[s]);
    }
    const Vector tau = rnea(robot, q, qd, qdd, f_ext);
    const Vector tau_free = rnea(robot, q, qd, qdd);
    // independent path 1: M qdd + h(q, qd) - sum J_pad^T f (crba, nonlinear_effects, jacobian)
    Vector tau_jt = crba(robot, q) * qdd + nonlinear_effects(robot, q, qd);
    for (int s = 0; s < 2; ++s) {
      const Eigen::Matrix<double, 6, 9> J = jacobian(robot, q, *pads[s]);
      tau_jt -= J.bottomRows<3>().transpose() * f_world[s];
    }
    worst_jt = std::max(worst_jt, (tau - tau_jt).cwiseAbs().maxCoeff());
    // independent path 2: forward dynamics with the same wrenches gives qdd back
    worst_aba = std::max(worst_aba, (aba(robot, q, qd, tau, f_ext) - qdd).cwiseAbs().maxCoeff());
    peak_f = std::max({peak_f, std::abs(tau[7]), std::abs(tau[8])});
    csv.row({t, q[7] + q[8], share, tau[7], tau[8], tau[0], tau[1], tau[2], tau[3], tau[4], tau[5],
             tau[6], tau_free[5], tau_free[6]});
  }
  csv.close();

  std::printf("Panda with two fingers (Tree<double, Parents<-1, 0, ..., 6, 6>, ...>, 9 joints): the arm\n"
              "moves for 3 s, the fingers close in 0.8 s on a %.1f kg object and squeeze with %.0f N.\n\n",
              m_object, f_squeeze);
  std::printf("  peak finger force %.2f N (the squeeze, with each finger's share of the load)\n\n",
              peak_f);
  checks.check("rnea with contact wrenches vs M qdd + h - J^T f: max |difference| [N, N m]",
               worst_jt, 1e-9);
  checks.check("aba with the same wrenches gives qdd back: max |difference| [rad/s^2, m/s^2]",
               worst_aba, 1e-8);
  std::printf("\n  CSV: %s\n", (out / "panda_grasp.csv").string().c_str());
  return checks.exit_code();
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "chaindyn_panda_grasp: %s\n", e.what());
    return 1;
  }
}
