// The built-in KUKA LBR iiwa 7 R800 against facts computed here, independently of the model's
// construction: the source's numbers transcribed again below, placed by a product of
// exponentials (each joint a rotation about its axis in the model frame, through its link's
// origin at q = 0) in 4x4 homogeneous matrices, never through chaindyn's placements, joints or
// spatial algebra.
#include "support/test_support.hpp"

#include <chaindyn/instantiate.hpp>
#include <chaindyn/robots/kuka_iiwa.hpp>

#include <catch2/catch.hpp>

#include <unsupported/Eigen/AutoDiff>

#include <array>
#include <cmath>
#include <string>

// robots::kuka_iiwa<double>() and the link validation compiled "elsewhere" (at the end of this
// file): the macros' declarations must match the definitions, or this file does not compile.
CHAINDYN_EXTERN_KUKA_IIWA();
CHAINDYN_EXTERN_MODEL_CONSTRUCTION(double);

using namespace chaindyn;
using chaindyn::test::relative_error;
using chaindyn::test::rot_x;
using chaindyn::test::rot_y;
using chaindyn::test::rot_z;

namespace {

using Arm = robots::KukaIiwa<double>;
using V = Arm::Vector;
using Matrix4 = Eigen::Matrix4d;

using chaindyn::test::kPi;
constexpr double kG = 9.81;

// Drake, manipulation/models/iiwa_description/iiwa7/iiwa7_no_collision.sdf (commit 966464eb):
// per link, its pose in the model frame at q = 0 (xyz, rpy), its joint's axis in the model
// frame, the centre of mass in the link frame, the mass and the principal moments (every
// inertial rpy and product of inertia in the source is zero). The SDF writes pi/2 and pi as
// 1.5708 and 3.14159; `SourceRoundedRpy` below checks that they are the right angles meant.
struct SourceLink {
  double xyz[3], rpy[3], axis[3], com[3], mass, moments[3];
};
constexpr double kHalfPi = kPi / 2;
const SourceLink kSource[7] = {
    {{0, 0, 0.1575}, {0, 0, 0}, {0, 0, 1}, {0, -0.0347, 0.113}, 2.7025, {0.0171, 0.0163, 0.006}},
    {{0, 0, 0.3405}, {kHalfPi, 0, -kPi}, {0, 1, 0}, {0, 0.0668, 0.0344}, 2.7258, {0.017, 0.0162, 0.0061}},
    {{0, 0, 0.5245}, {0, 0, 0}, {0, 0, 1}, {0, 0.0296, 0.1265}, 3.175, {0.025, 0.0238, 0.0076}},
    {{0, 0, 0.74}, {kHalfPi, 0, 0}, {0, -1, 0}, {0, 0.067, 0.034}, 2.73, {0.017, 0.0162, 0.0061}},
    {{0, 0, 0.924}, {0, 0, -kPi}, {0, 0, 1}, {0.0001, 0.021, 0.076}, 1.69, {0.01, 0.0087, 0.00449}},
    {{0, 0, 1.1395}, {kHalfPi, 0, -kPi}, {0, 1, 0}, {0, 0.0026, 0.0005}, 1.8, {0.0051, 0.0049, 0.0035}},
    {{0, 0, 1.22}, {0, 0, 0}, {0, 0, 1}, {0, 0, 0.0294}, 0.4, {0.0004, 0.0004, 0.0005}},
};
// The rounded rpy the SDF prints for links 2, 4, 5, 6 (index 1, 3, 4, 5).
const double kRoundedRpy[7][3] = {{0, 0, 0},      {1.5708, 0, -3.14159}, {0, 0, 0},
                                  {1.5708, 0, 0}, {0, 0, -3.14159},      {1.5708, 0, -3.14159},
                                  {0, 0, 0}};

/// URDF/SDF rpy: R = Rz(yaw) Ry(pitch) Rx(roll).
Eigen::Matrix3d rpy(const double a[3]) { return test::rpy(a[0], a[1], a[2]); }

Matrix4 homogeneous(const Eigen::Matrix3d& r, const Eigen::Vector3d& p) {
  Matrix4 t = Matrix4::Identity();
  t.topLeftCorner<3, 3>() = r;
  t.topRightCorner<3, 1>() = p;
  return t;
}
Eigen::Vector3d vec(const double a[3]) { return Eigen::Vector3d(a[0], a[1], a[2]); }

/// Rodrigues' rotation by angle q about unit axis a.
Eigen::Matrix3d rodrigues(const Eigen::Vector3d& a, double q) {
  Eigen::Matrix3d k;
  k << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return Eigen::Matrix3d::Identity() + std::sin(q) * k + (1 - std::cos(q)) * k * k;
}

/// Link i's frame in the model frame at configuration q, by the product of exponentials:
/// T_i(q) = E_1(q_1) ... E_i(q_i) T_i(0), E_j the rotation by q_j about the line through link
/// j's origin at q = 0 along joint j's source axis (both in the model frame).
std::array<Matrix4, 7> poe_frames(const V& q) {
  std::array<Matrix4, 7> out;
  Matrix4 motion = Matrix4::Identity();
  for (int j = 0; j < 7; ++j) {
    const SourceLink& s = kSource[j];
    const Eigen::Vector3d a = vec(s.axis), o = vec(s.xyz);
    const Eigen::Matrix3d r = rodrigues(a, q[j]);
    motion = motion * homogeneous(r, o - r * o);
    out[std::size_t(j)] = motion * homogeneous(rpy(s.rpy), o);
  }
  return out;
}

/// Centre of mass of link i in the model frame.
Eigen::Vector3d com_in_model(const Matrix4& frame, const SourceLink& s) {
  return (frame * Eigen::Vector4d(s.com[0], s.com[1], s.com[2], 1)).head<3>();
}

/// Gravity torques by statics: the torque joint j must supply to hold the links j..7 is the
/// moment of their weights about joint j's axis, with the sign flipped:
///   g_j = -a_j . sum_{i >= j} (c_i - o_j) x (m_i g),  g = (0, 0, -9.81)
/// = sum_{i >= j} m_i 9.81 ((e_z x a_j) . (c_i - o_j)): weight times the signed horizontal lever
/// arm. a_j, o_j: joint j's axis and a point on it at q, c_i: centre of mass of link i at q.
V gravity_by_statics(const V& q) {
  const std::array<Matrix4, 7> frames = poe_frames(q);
  V g = V::Zero();
  for (int j = 0; j < 7; ++j) {
    const Matrix4& fj = frames[std::size_t(j)];
    // joint j's axis at q: the frame's rotation applied to the axis in link j's own axes
    // (the source axis mapped back through the zero-configuration orientation)
    const Eigen::Vector3d a =
        fj.topLeftCorner<3, 3>() * rpy(kSource[j].rpy).transpose() * vec(kSource[j].axis);
    const Eigen::Vector3d o = fj.topRightCorner<3, 1>();
    const Eigen::Vector3d lever_direction = Eigen::Vector3d::UnitZ().cross(a);
    for (int i = j; i < 7; ++i) {
      const Eigen::Vector3d c = com_in_model(frames[std::size_t(i)], kSource[i]);
      g[j] += kSource[i].mass * kG * lever_direction.dot(c - o);
    }
  }
  return g;
}

V random_configuration(std::mt19937& gen) {
  V q;
  for (int i = 0; i < 7; ++i) {
    const double limit = robots::kuka_iiwa_position_limits[std::size_t(i)];
    q[i] = test::uniform(gen, -limit, limit);
  }
  return q;
}

}  // namespace

TEST_CASE("iiwa: the source's rounded rpy are the right angles its joint axes require",
          "[robots][iiwa]") {
  for (int i = 0; i < 7; ++i) {
    // each joint axis (model frame) is its link's z axis at q = 0: exactly with pi/2 and pi,
    // to the rounding (3.7e-6 rad) with the printed values
    const Eigen::Vector3d axis = vec(kSource[i].axis);
    CHECK((rpy(kSource[i].rpy).col(2) - axis).norm() < 1e-15);
    CHECK((rpy(kRoundedRpy[i]).col(2) - axis).norm() < 1e-5);
    for (int k = 0; k < 3; ++k) CHECK(std::abs(kSource[i].rpy[k] - kRoundedRpy[i][k]) < 4e-6);
  }
}

TEST_CASE("iiwa: names, zero joint dynamics, default gravity", "[robots][iiwa]") {
  const Arm arm = robots::kuka_iiwa();
  for (std::size_t i = 0; i < 7; ++i) {
    CHECK(arm.link(i).name == "iiwa_link_" + std::to_string(i + 1));
  }
  CHECK(arm.damping().isZero(0));
  CHECK(arm.friction().isZero(0));
  CHECK(arm.armature().isZero(0));
  CHECK(arm.gravity() == Eigen::Vector3d(0, 0, -9.81));
}

TEST_CASE("iiwa: the built-in link table is the source converted (X_{i-1}^-1 X_i, R_i^T a_i), bit "
          "for bit",
          "[robots][iiwa]") {
  // The header holds the conversion's results as plain numbers (no Eigen code to compile in
  // every user's file); here the conversion runs again from the source's poses, through
  // chaindyn's Transform, and every number must be the same double (in float: the same
  // float, converted from it).
  const Arm arm = robots::kuka_iiwa();
  const robots::KukaIiwa<float> arm_f = robots::kuka_iiwa<float>();
  Transform<double> parent_in_model = Transform<double>::Identity();
  for (std::size_t i = 0; i < 7; ++i) {
    INFO("link " << i + 1);
    const SourceLink& s = kSource[i];
    const Transform<double> link_in_model =
        Transform<double>::FromRPY(s.rpy[0], s.rpy[1], s.rpy[2], vec(s.xyz));
    const Transform<double> placement = parent_in_model.inverse() * link_in_model;
    const Eigen::Vector3d axis = link_in_model.rotation.transpose() * vec(s.axis);
    Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
    inertia.diagonal() = vec(s.moments);
    const Link<double>& l = arm.link(i);
    CHECK(l.placement.rotation == placement.rotation);
    CHECK(l.placement.translation == placement.translation);
    REQUIRE(l.axis.has_value());
    CHECK(*l.axis == axis);
    CHECK(l.mass == s.mass);
    CHECK(l.com == vec(s.com));
    CHECK(l.inertia == inertia);
    const Link<float>& f = arm_f.link(i);
    CHECK(f.placement.rotation == placement.rotation.cast<float>());
    CHECK(f.placement.translation == placement.translation.cast<float>());
    CHECK(*f.axis == axis.cast<float>());
    CHECK(f.mass == float(s.mass));
    CHECK(f.com == vec(s.com).cast<float>());
    CHECK(f.inertia == inertia.cast<float>());
    parent_in_model = link_in_model;
  }
}

TEST_CASE("iiwa: total mass equals the sum of the source's link masses (15.2233 kg)",
          "[robots][iiwa]") {
  const Arm arm = robots::kuka_iiwa();
  double model_total = 0, source_total = 0;
  for (std::size_t i = 0; i < 7; ++i) {
    CHECK(arm.inertia(i).mass == Approx(kSource[i].mass).epsilon(1e-15));
    model_total += arm.inertia(i).mass;
    source_total += kSource[i].mass;
  }
  CHECK(source_total == Approx(15.2233).epsilon(1e-14));
  CHECK(model_total == Approx(source_total).epsilon(1e-14));
}

TEST_CASE("iiwa: at q = 0 the arm stands straight up, flange 1.22 m above the base",
          "[robots][iiwa]") {
  const Arm arm = robots::kuka_iiwa();
  const auto frames = forward_kinematics(arm, V::Zero());
  // the joint z offsets along the vertical: differences of successive link heights
  double height = 0;
  for (std::size_t i = 0; i < 7; ++i) {
    height += kSource[i].xyz[2] - (i == 0 ? 0.0 : kSource[i - 1].xyz[2]);
    const Eigen::Vector3d p = frames[i].translation;
    CHECK(std::hypot(p.x(), p.y()) < 1e-14);  // on the vertical through the base origin
    CHECK(p.z() == Approx(height).epsilon(1e-14));
  }
  CHECK(height == Approx(1.22).epsilon(1e-14));
  CHECK(frames[6].translation.z() == Approx(1.22).epsilon(1e-14));
  // link 7's axes: those the source gives it (rpy 0: aligned with the base)
  CHECK((frames[6].rotation - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < 1e-14);
}

TEST_CASE("iiwa: forward kinematics equals the product of exponentials from the source",
          "[robots][iiwa]") {
  const Arm arm = robots::kuka_iiwa();
  std::mt19937 gen(test::kSeed + 301);
  for (int trial = 0; trial < 50; ++trial) {
    const V q = random_configuration(gen);
    const auto frames = forward_kinematics(arm, q);
    const auto expected = poe_frames(q);
    for (std::size_t i = 0; i < 7; ++i) {
      CHECK((frames[i].rotation - expected[i].topLeftCorner<3, 3>()).cwiseAbs().maxCoeff() <
            1e-13);
      CHECK((frames[i].translation - expected[i].topRightCorner<3, 1>()).norm() < 1e-13);
    }
  }
}

TEST_CASE("iiwa: g(0) is what the off-axis centres of mass imply (link 5's is 0.1 mm off)",
          "[robots][iiwa]") {
  const Arm arm = robots::kuka_iiwa();
  const V g = gravity_torques(arm, V::Zero());
  // Straight up, only horizontal offsets across the horizontal axes (joints 2, 4, 6: base +y,
  // -y, +y) produce torque. Of the centres of mass beyond joint 2 only link 5's is off the
  // vertical in x: link 5 is turned by pi about z, so its com x = 0.0001 becomes -0.0001 m.
  // About +y the weight's moment is x m g, so joint 2 holds with -x m g = +m5 g 1e-4; joint
  // 4's axis is -y, so it holds with -m5 g 1e-4; joint 6 carries links 6, 7 (x = 0).
  const double expected = 1.69 * kG * 1e-4;
  CHECK(g[1] == Approx(expected).epsilon(1e-12));
  CHECK(g[3] == Approx(-expected).epsilon(1e-12));
  for (const int j : {0, 2, 4, 5, 6}) CHECK(std::abs(g[j]) < 1e-14);
  CHECK(relative_error(g, gravity_by_statics(V::Zero())) < 1e-14);
}

TEST_CASE("iiwa: joint 2 at +90 deg holds the weights of links 2..7 times their lever arms",
          "[robots][iiwa]") {
  const Arm arm = robots::kuka_iiwa();
  V q = V::Zero();
  q[1] = kPi / 2;
  // Joint 2 turns the arm about +y through its origin o2 = (0, 0, 0.3405): every centre of mass
  // beyond it swings from above o2 to the +x side, and gravity turns the arm further, about +y.
  // The holding torque is -sum m_i g x_i, x_i the horizontal lever arm of link i's centre of
  // mass from the joint-2 axis, read off the homogeneous matrices.
  const auto frames = poe_frames(q);
  const double axis_x = frames[1](0, 3);  // joint 2's axis: along y through link 2's origin
  CHECK(std::abs(axis_x) < 1e-15);
  double expected = 0;
  for (int i = 1; i < 7; ++i) {
    const double lever = com_in_model(frames[std::size_t(i)], kSource[i]).x() - axis_x;
    expected -= kSource[i].mass * kG * lever;
  }
  const V g = gravity_torques(arm, q);
  CHECK(g[1] == Approx(expected).epsilon(1e-13));
  CHECK(g[1] == Approx(-52.6057).margin(5e-5));  // the same sum worked out on paper

  // With the other joints anywhere (joint 1 turns the axis of joint 2 about the vertical),
  // every joint's holding torque is its subtree's weight times the horizontal lever arm.
  std::mt19937 gen(test::kSeed + 302);
  for (int trial = 0; trial < 50; ++trial) {
    V qr = random_configuration(gen);
    if (trial % 2 == 0) qr[1] = kPi / 2;
    INFO("trial " << trial);
    CHECK(relative_error(gravity_torques(arm, qr), gravity_by_statics(qr)) < 1e-13);
  }
}

TEST_CASE("iiwa: potential energy is sum m_i 9.81 z_i of the source's centres of mass",
          "[robots][iiwa]") {
  const Arm arm = robots::kuka_iiwa();
  std::mt19937 gen(test::kSeed + 303);
  for (int trial = 0; trial < 20; ++trial) {
    const V q = random_configuration(gen);
    const auto frames = poe_frames(q);
    double v = 0;
    for (std::size_t i = 0; i < 7; ++i) {
      v += kSource[i].mass * kG * com_in_model(frames[i], kSource[i]).z();
    }
    CHECK(potential_energy(arm, q) == Approx(v).epsilon(1e-13));
  }
}

TEST_CASE("iiwa: M_jj is the moment of inertia of links j..7 about joint j's axis",
          "[robots][iiwa]") {
  // M_jj = sum_{i >= j} ( a^T R_i I_i R_i^T a + m_i |a x (c_i - o_j)|^2 ): each link's own
  // moment about a parallel axis through its centre of mass plus the parallel-axis term, with
  // the source's tensors turned into the model frame by the homogeneous matrices.
  const Arm arm = robots::kuka_iiwa();
  std::mt19937 gen(test::kSeed + 304);
  for (int trial = 0; trial < 30; ++trial) {
    const V q = trial == 0 ? V::Zero() : random_configuration(gen);
    const auto frames = poe_frames(q);
    const Arm::Matrix m = crba(arm, q);
    for (int j = 0; j < 7; ++j) {
      const Matrix4& fj = frames[std::size_t(j)];
      const Eigen::Vector3d a =
          fj.topLeftCorner<3, 3>() * rpy(kSource[j].rpy).transpose() * vec(kSource[j].axis);
      const Eigen::Vector3d o = fj.topRightCorner<3, 1>();
      double expected = 0;
      for (int i = j; i < 7; ++i) {
        const SourceLink& s = kSource[i];
        const Eigen::Matrix3d r = frames[std::size_t(i)].topLeftCorner<3, 3>();
        const Eigen::Matrix3d tensor = Eigen::Vector3d(vec(s.moments)).asDiagonal();
        const Eigen::Vector3d c = com_in_model(frames[std::size_t(i)], s);
        expected += a.dot(r * tensor * r.transpose() * a) + s.mass * a.cross(c - o).squaredNorm();
      }
      INFO("trial " << trial << ", joint " << j + 1);
      CHECK(m(j, j) == Approx(expected).epsilon(1e-13));
    }
  }
}

TEST_CASE("iiwa: M is symmetric positive definite on random configurations", "[robots][iiwa]") {
  const Arm arm = robots::kuka_iiwa();
  std::mt19937 gen(test::kSeed + 305);
  for (int trial = 0; trial < 100; ++trial) {
    const V q = random_configuration(gen);
    const Arm::Matrix m = crba(arm, q);
    INFO("trial " << trial);
    CHECK((m - m.transpose()).cwiseAbs().maxCoeff() <= 1e-15 * m.cwiseAbs().maxCoeff());
    CHECK(test::symmetric_eigenvalues(m).minCoeff() > 1e-6);
    // and ABA inverts RNEA on the same model
    const V qd = test::random_state<V>(gen, 2.0), qdd = test::random_state<V>(gen, 5.0);
    CHECK(relative_error(aba(arm, q, qd, rnea(arm, q, qd, qdd)), qdd) < 1e-10);
  }
}

TEST_CASE("iiwa: g(q) is the gradient of the potential energy (automatic differentiation)",
          "[robots][iiwa][autodiff]") {
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 7, 1>>;
  const robots::KukaIiwa<AD> ad_arm = robots::kuka_iiwa<AD>();
  const Arm arm = robots::kuka_iiwa();
  std::mt19937 gen(test::kSeed + 306);
  for (int trial = 0; trial < 10; ++trial) {
    const V q = random_configuration(gen);
    robots::KukaIiwa<AD>::Vector aq;
    for (int i = 0; i < 7; ++i) aq[i] = AD(q[i], 7, i);
    const AD v = potential_energy(ad_arm, aq);
    CHECK(v.value() == Approx(potential_energy(arm, q)).epsilon(1e-14));
    CHECK(relative_error(v.derivatives(), gravity_torques(arm, q)) < 1e-12);
  }
}

TEST_CASE("iiwa: the float model agrees with the double model", "[robots][iiwa]") {
  const auto fm = robots::kuka_iiwa<float>();
  const Arm dm = robots::kuka_iiwa();
  std::mt19937 gen(test::kSeed + 307);
  for (int trial = 0; trial < 20; ++trial) {
    const V q = random_configuration(gen), qd = test::random_state<V>(gen, 2.0),
            qdd = test::random_state<V>(gen, 5.0);
    using FV = robots::KukaIiwa<float>::Vector;
    const FV fq = q.cast<float>(), fqd = qd.cast<float>(), fqdd = qdd.cast<float>();
    CHECK(relative_error(rnea(fm, fq, fqd, fqdd), rnea(dm, q, qd, qdd)) < 1e-4);
    CHECK(relative_error(crba(fm, fq), crba(dm, q)) < 1e-4);
  }
}

CHAINDYN_INSTANTIATE_KUKA_IIWA();
CHAINDYN_INSTANTIATE_MODEL_CONSTRUCTION(double);
