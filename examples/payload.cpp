// Pick and place with a KUKA iiwa (the lecture notes' "Learning of Dynamics" case): the joint
// torques along one motion without and with a grasped 0.851 kg object, the object attached as
// a payload on the flange with one call. The torque difference is checked against two
// independent paths: the object's own Newton-Euler equations at its centre of mass mapped
// through the Jacobian transpose, and rnea of a chain whose link 7 has the object merged in.
// Exits non-zero when they disagree.
#include <chaindyn/chaindyn.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace chaindyn;
using Arm = robots::KukaIiwa<double>;
using Vector = Arm::Vector;

namespace {

constexpr double kPi = 3.14159265358979323846;

/// Cycloidal rest-to-rest motion from q0 to q1 in time T (zero velocity and acceleration at
/// both ends): s(t) = t/T - sin(2 pi t/T) / (2 pi).
struct Cycloid {
  Vector q0, q1;
  double T;
  void at(double t, Vector& q, Vector& qd, Vector& qdd) const {
    const Vector d = q1 - q0;
    const double w = 2 * kPi / T;
    q = q0 + d * (t / T - std::sin(w * t) / (2 * kPi));
    qd = d * ((1 - std::cos(w * t)) / T);
    qdd = d * (w * std::sin(w * t) / T);
  }
};

}  // namespace

int main() {
  // The object: a 0.851 kg box, 6 x 6 x 12 cm, held with its centre of mass 10 cm beyond the
  // flange on the flange's z axis (link 7's frame is the flange frame of this model).
  const double m = 0.851, a = 0.06, b = 0.06, c = 0.12;
  Payload<double> object;
  object.mass = m;
  object.com = Eigen::Vector3d(0, 0, 0.10);
  object.inertia = Eigen::Vector3d(m / 12 * (b * b + c * c), m / 12 * (a * a + c * c),
                                   m / 12 * (a * a + b * b))
                       .asDiagonal();

  const Arm bare = robots::kuka_iiwa();
  Arm arm = bare;
  arm.set_payload(6, object);  // grasp; arm.clear_payload(6) releases it

  // Independent model: the object merged into link 7 by the parallel-axis theorem.
  std::vector<Link<double>> links(bare.links().begin(), bare.links().end());
  {
    Link<double>& l = links[6];
    const double mt = l.mass + m;
    const Eigen::Vector3d ct = (l.mass * l.com + m * object.com) / mt;
    const auto shift = [&](const Eigen::Matrix3d& i, double mi, const Eigen::Vector3d& ci) {
      const Eigen::Vector3d d = ci - ct;
      return Eigen::Matrix3d(i + mi * (d.squaredNorm() * Eigen::Matrix3d::Identity() -
                                       d * d.transpose()));
    };
    l.inertia = shift(l.inertia, l.mass, l.com) + shift(object.inertia, m, object.com);
    l.mass = mt;
    l.com = ct;
  }
  const Arm merged(links);

  Vector q0, q1;
  q0 << 0.0, 0.6, 0.0, -1.2, 0.0, 0.9, 0.0;   // above the object
  q1 << 1.4, 0.2, 0.4, -1.6, -0.3, 1.2, 0.8;  // above the place location
  const Cycloid motion{q0, q1, 1.5};

  Data<Arm> data;
  Vector q, qd, qdd;
  Vector max_bare = Vector::Zero(), max_loaded = Vector::Zero(), max_diff = Vector::Zero();
  double err_newton_euler = 0, err_merged = 0;
  // a frame at the object's centre of mass on link 7: a handle, its index checked once here
  const auto com_frame = bare.frame(6, Transform<double>::Translation(object.com));
  const int steps = 300;
  for (int k = 0; k <= steps; ++k) {
    motion.at(motion.T * k / steps, q, qd, qdd);
    const Vector tau_bare = rnea(bare, q, qd, qdd);
    const Vector tau_loaded = rnea(arm, q, qd, qdd);
    const Vector diff = tau_loaded - tau_bare;
    max_bare = max_bare.cwiseMax(tau_bare.cwiseAbs());
    max_loaded = max_loaded.cwiseMax(tau_loaded.cwiseAbs());
    max_diff = max_diff.cwiseMax(diff.cwiseAbs());

    // Path 1: Newton-Euler of the object alone, at its centre of mass, base coordinates.
    // (omega; v_c) = J_c qd, (alpha; a_c) = J_c qdd + Jdot_c qd (classical accelerations).
    const FrameJacobian<Arm> Jc = jacobian(bare, q, com_frame, ReferenceFrame::world);
    const FrameVector<Arm> vel = Jc * qd;
    const FrameVector<Arm> acc = Jc * qdd + jdot_qd(bare, q, qd, com_frame, ReferenceFrame::world);
    const Eigen::Matrix3d r = frame_pose(bare, data, q, com_frame).rotation;
    const Eigen::Matrix3d inertia = r * object.inertia * r.transpose();
    const Eigen::Vector3d w = vel.head<3>();
    const Eigen::Vector3d force = m * (acc.tail<3>() - bare.gravity());          // F = m (a - g)
    const Eigen::Vector3d moment = inertia * acc.head<3>() + w.cross(inertia * w);  // Euler
    // the arm must supply (moment; force) at the object's centre: tau += J_c^T (moment; force)
    const Vector by_newton_euler = joint_torques_from_wrench(
        bare, q, com_frame, Force<double>(moment, force), ReferenceFrame::world);
    err_newton_euler = std::max(err_newton_euler, (diff - by_newton_euler).cwiseAbs().maxCoeff());

    // Path 2: the merged chain.
    err_merged = std::max(err_merged, (tau_loaded - rnea(merged, q, qd, qdd)).cwiseAbs().maxCoeff());
  }

  std::printf("KUKA iiwa, cycloidal rest-to-rest motion in %.1f s, %d samples; object %.3f kg, "
              "centre of mass 10 cm beyond the flange\n\n",
              motion.T, steps + 1, m);
  std::printf("  joint   max |tau| without   max |tau| with   max |difference|   (N m)\n");
  for (int j = 0; j < 7; ++j) {
    std::printf("  %5d   %17.3f   %14.3f   %16.3f\n", j + 1, max_bare[j], max_loaded[j],
                max_diff[j]);
  }
  std::printf("\n  difference vs J^T (object's Newton-Euler wrench): %.1e N m\n",
              err_newton_euler);
  std::printf("  with payload vs chain with the object merged into link 7: %.1e N m\n",
              err_merged);

  const double tolerance = 1e-9;
  if (!(err_newton_euler < tolerance && err_merged < tolerance)) {
    std::printf("FAILED: the independent paths disagree by more than %.0e N m\n", tolerance);
    return 1;
  }
  return 0;
}
