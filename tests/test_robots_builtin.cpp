// The built-in Panda, UR5, PUMA 560, the seeds' ARISTO rows and two-link arm against facts
// computed independently of the DH builder: zero-configuration poses worked out by hand from
// the published tables, the classic DH matrices written out entry by entry, the PUMA 560
// figures printed by the Robotics Toolbox's own tests, the two-link closed form; plus the
// structural properties every model must have (M symmetric positive definite, aba inverts
// rnea). One chain type per robot family keeps this translation unit light.
#include "support/test_support.hpp"

#include "support/aristo.hpp"
#include <chaindyn/robots/panda.hpp>
#include <chaindyn/robots/puma560.hpp>
#include <chaindyn/closed_form/two_link_arm.hpp>
#include <chaindyn/robots/two_link_arm.hpp>
#include <chaindyn/robots/ur5.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

using chaindyn::test::kPi;
using Matrix4 = Eigen::Matrix4d;

/// Standard DH, written out: Rz(theta) Tz(d) Tx(a) Rx(alpha).
Matrix4 dh_standard_matrix(double a, double alpha, double d, double theta) {
  const double ct = std::cos(theta), st = std::sin(theta), ca = std::cos(alpha),
               sa = std::sin(alpha);
  Matrix4 m;
  m << ct, -st * ca, st * sa, a * ct,  //
      st, ct * ca, -ct * sa, a * st,   //
      0, sa, ca, d,                    //
      0, 0, 0, 1;
  return m;
}

Matrix4 as_homogeneous(const Transform<double>& x) {
  Matrix4 m = Matrix4::Identity();
  m.topLeftCorner<3, 3>() = x.rotation;
  m.topRightCorner<3, 1>() = x.translation;
  return m;
}

template <std::size_t N>
Eigen::Matrix<double, int(N), 1> vec(const std::array<double, N>& a) {
  Eigen::Matrix<double, int(N), 1> v;
  for (std::size_t i = 0; i < N; ++i) v[Eigen::Index(i)] = a[i];
  return v;
}

/// M symmetric positive definite and aba(rnea(qdd)) = qdd at random states; returns the worst
/// aba round-trip error.
template <typename Model>
double check_structure(const Model& model, std::mt19937& gen, double range) {
  using V = typename Model::Vector;
  double worst = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const V q = test::random_state<V>(gen, range), qd = test::random_state<V>(gen, 2.0),
            qdd = test::random_state<V>(gen, 5.0);
    const typename Model::Matrix m = crba(model, q);
    CHECK((m - m.transpose()).cwiseAbs().maxCoeff() == 0.0);
    CHECK(test::positive_definite(m));
    worst = std::max(worst, relative_error(aba(model, q, qd, rnea(model, q, qd, qdd)), qdd));
  }
  CHECK(worst < 1e-10);
  return worst;
}

}  // namespace

TEST_CASE("Panda: flange at q = 0 is at (0.088, 0, 0.926) pointing down, dynamics consistent",
          "[robots][panda]") {
  const robots::Panda<double> arm = robots::panda();
  const auto frames = forward_kinematics(arm, robots::Panda<double>::Vector::Zero().eval());
  const Transform<double> flange = frames.back() * robots::panda_flange();
  Matrix4 hand = Matrix4::Identity();  // Rx(pi), from Franka's table by hand (header comment)
  hand(1, 1) = hand(2, 2) = -1;
  hand.topRightCorner<3, 1>() = Eigen::Vector3d(0.0825 - 0.0825 + 0.088, 0,
                                                0.333 + 0.316 + 0.384 - 0.107);
  const double error = (as_homogeneous(flange) - hand).cwiseAbs().maxCoeff();
  WARN("Panda flange at q = 0 vs hand: " << error);
  CHECK(error < 1e-15);
  // Gaz et al.'s total moving mass
  double mass = 0;
  for (const auto& l : arm.links()) mass += l.mass;
  CHECK(std::abs(mass - 16.062132) < 1e-12);
  std::mt19937 gen(test::kSeed + 801);
  WARN("Panda aba(rnea(qdd)) - qdd: " << check_structure(arm, gen, 2.8));
}

TEST_CASE("UR5: tool flange at q = 0 and at random q equals the written-out DH product",
          "[robots][ur5]") {
  const robots::Ur5<double> arm = robots::ur5();
  using V = robots::Ur5<double>::Vector;
  const Transform<double> zero = forward_kinematics(arm, V::Zero().eval()).back() *
                                 robots::ur5_flange();
  Matrix4 hand = Matrix4::Zero();  // header comment: x6 = x, y6 = z, z6 = -y
  hand(0, 0) = 1;
  hand(2, 1) = 1;
  hand(1, 2) = -1;
  hand(3, 3) = 1;
  hand.topRightCorner<3, 1>() = Eigen::Vector3d(-0.425 - 0.39225, -(0.10915 + 0.0823),
                                                0.089159 - 0.09465);
  double worst = (as_homogeneous(zero) - hand).cwiseAbs().maxCoeff();
  WARN("UR5 flange at q = 0 vs hand: " << worst);
  CHECK(worst < 1e-15);
  // UR's table, typed again: a, d, alpha
  const double a[6] = {0, -0.425, -0.39225, 0, 0, 0};
  const double d[6] = {0.089159, 0, 0, 0.10915, 0.09465, 0.0823};
  const double alpha[6] = {kPi / 2, 0, 0, kPi / 2, -kPi / 2, 0};
  std::mt19937 gen(test::kSeed + 802);
  worst = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const V q = test::random_state<V>(gen, kPi);
    Matrix4 x = Matrix4::Identity();
    for (int i = 0; i < 6; ++i) x = x * dh_standard_matrix(a[i], alpha[i], d[i], q[i]);
    const Transform<double> tool = forward_kinematics(arm, q).back() * robots::ur5_flange();
    worst = std::max(worst, (as_homogeneous(tool) - x).cwiseAbs().maxCoeff());
  }
  WARN("UR5 flange at random q vs DH matrices: " << worst);
  CHECK(worst < 1e-14);
  WARN("UR5 aba(rnea(qdd)) - qdd: " << check_structure(arm, gen, kPi));
}

TEST_CASE("PUMA 560: gravity, M and C qd at qn equal the Robotics Toolbox's printed figures",
          "[robots][puma560]") {
  // robotics-toolbox-python tests/test_SerialLink.py (commit b444bb92): test_gravload,
  // test_inertia, test_coriolis, printed to 4 decimals.
  const robots::Puma560<double> arm = robots::puma560();
  using V = robots::Puma560<double>::Vector;
  using M = robots::Puma560<double>::Matrix;
  const V qn = vec(robots::puma560_qn);
  V g_published;
  g_published << 0, 31.6399, 6.0351, 0, 0.0283, 0;
  M m_published;
  m_published << 3.6594, -0.4044, 0.1006, -0.0025, 0.0000, -0.0000,  //
      -0.4044, 4.4137, 0.3509, 0.0000, 0.0024, 0.0000,                //
      0.1006, 0.3509, 0.9378, 0.0000, 0.0015, 0.0000,                 //
      -0.0025, 0.0000, 0.0000, 0.1925, 0.0000, 0.0000,                //
      0.0000, 0.0024, 0.0015, 0.0000, 0.1713, 0.0000,                 //
      -0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.1941;
  M c_published;
  c_published << -0.1735, -2.0494, -0.1178, -0.0002, -0.0045, 0.0001,  //
      0.6274, 1.1572, 1.9287, -0.0015, -0.0003, -0.0000,                //
      -0.3608, -0.7734, -0.0018, -0.0009, -0.0064, -0.0000,             //
      0.0011, 0.0005, -0.0001, 0.0002, 0.0002, -0.0001,                 //
      -0.0002, 0.0028, 0.0046, -0.0002, -0.0000, -0.0000,               //
      0.0001, 0.0000, 0.0000, 0.0000, 0.0000, 0;
  V qd;
  qd << 1, 2, 3, 1, 2, 3;
  // Our link 3 moments differ from the source's by D = diag(-0.0025, 0.0025, -0.0025) (header
  // comment). M and C qd are linear in the inertia, so the source's values are ours plus those
  // of link 3 alone with inertia D, computed as the difference of two physical bodies
  // A = B + D and B = 0.01 * 1 (every other link empty, unit armature to keep M regular; the
  // armature cancels in the difference).
  const auto lone_link3 = [](const Eigen::Vector3d& moments) {
    auto rows = robots::puma560_dh_rows();
    for (std::size_t i = 0; i < 6; ++i) {
      const Eigen::Matrix3d inertia =
          i == 2 ? Eigen::Matrix3d(moments.asDiagonal()) : Eigen::Matrix3d::Zero();
      rows[i] = rows[i].with_inertia(0, Eigen::Vector3d::Zero(), inertia);
      rows[i].dynamics.armature = 1;
    }
    return dh::standard<robots::Puma560<double>>(rows).chain;
  };
  const auto a_body = lone_link3(Eigen::Vector3d(0.0075, 0.0125, 0.0075));
  const auto b_body = lone_link3(Eigen::Vector3d(0.01, 0.01, 0.01));
  const M m_delta = crba(a_body, qn) - crba(b_body, qn);
  const V c_delta = nonlinear_effects(a_body, qn, qd) - nonlinear_effects(b_body, qn, qd);

  const V g = gravity_torques(arm, qn);
  const double g_error = (g - g_published).cwiseAbs().maxCoeff();
  const M m_ours = crba(arm, qn);
  const double m_error = (m_ours + m_delta - m_published).cwiseAbs().maxCoeff();
  const V c_qd = nonlinear_effects(arm, qn, qd) - g;
  const double c_error = (c_qd + c_delta - c_published * qd).cwiseAbs().maxCoeff();
  WARN("PUMA 560 at qn vs toolbox (4 decimals): g " << g_error << " N m, M " << m_error
                                                    << " kg m^2, C qd " << c_error << " N m");
  WARN("PUMA 560 link 3 correction at qn: M changes by up to "
       << m_delta.cwiseAbs().maxCoeff() << " kg m^2, C qd by up to "
       << c_delta.cwiseAbs().maxCoeff() << " N m");
  CHECK(g_error < 5e-5);   // half a unit of the 4th decimal
  CHECK(m_error < 5e-5);
  CHECK(c_error < 6e-4);   // 12 rounded entries times |qd| <= 3, summed
  std::mt19937 gen(test::kSeed + 803);
  WARN("PUMA 560 aba(rnea(qdd)) - qdd: " << check_structure(arm, gen, kPi));
}

TEST_CASE("ARISTO: the seeds' two DH rows put frame 2 where the hand computation does",
          "[robots][aristo]") {
  const auto rows = test::aristo_seed_rows();
  // frame 2 at (0, 0, 0.322) + 0.3 (cos q2 cos q1, cos q2 sin q1, sin q2), by hand
  for (const auto& qa : {test::aristo_seed_initial, test::aristo_seed_final}) {
    const Eigen::Vector2d q = vec(qa);
    const Transform<double> x = dh::standard_pose(rows, q);
    const Eigen::Vector3d hand(0.3 * std::cos(q[1]) * std::cos(q[0]),
                               0.3 * std::cos(q[1]) * std::sin(q[0]), 0.322 + 0.3 * std::sin(q[1]));
    CHECK((x.translation - hand).cwiseAbs().maxCoeff() < 1e-15);
  }
  CHECK((dh::standard_pose(rows, vec(test::aristo_seed_initial)).translation -
         Eigen::Vector3d(0, 0, 0.622))
            .cwiseAbs()
            .maxCoeff() < 1e-15);
}

TEST_CASE("Two-link arm: the built-in chain equals the seeds' closed form", "[robots][two_link]") {
  const auto arm = robots::two_link_arm();
  const auto lagrange = robots::two_link_arm_closed_form();
  std::mt19937 gen(test::kSeed + 804);
  double worst = 0;
  for (int trial = 0; trial < 20; ++trial) {
    using V = robots::TwoLinkPlanar<double>::Vector;
    const V q = test::random_state<V>(gen, kPi), qd = test::random_state<V>(gen, 2),
            qdd = test::random_state<V>(gen, 5);
    worst = std::max({worst, relative_error(crba(arm, q), lagrange.mass_matrix(q)),
                      relative_error(rnea(arm, q, qd, qdd), lagrange.inverse_dynamics(q, qd, qdd))});
  }
  WARN("two-link arm vs closed form: " << worst);
  CHECK(worst < 1e-12);
  WARN("two-link aba(rnea(qdd)) - qdd: " << check_structure(arm, gen, kPi));
}
