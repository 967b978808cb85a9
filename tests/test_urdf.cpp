// The URDF parser (chaindyn/urdf.hpp): hand-written URDFs against hand-built chains, the axis
// rotation of fixed-axis joint slots against run-time axes, fixed-joint merging against the
// same URDF with the fixed joints made revolute and held at zero, every error case (message
// names the element and the line), and the published URDFs in tests/data/urdf.
// Built into chaindyn_tests (the URDF group) only when tinyxml2 is found.

#include "support/test_support.hpp"

#include <chaindyn/identification.hpp>
#include <chaindyn/urdf.hpp>

#include <catch2/catch.hpp>
#include <tinyxml2.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#ifndef CHAINDYN_URDF_DATA_DIR
#error "CHAINDYN_URDF_DATA_DIR (tests/data/urdf) must be defined"
#endif

using namespace chaindyn;
using chaindyn::test::relative_error;
using chaindyn::test::rot_x;
using chaindyn::test::rot_y;
using chaindyn::test::rot_z;
using chaindyn::test::rpy;

namespace {

const std::string data_dir = CHAINDYN_URDF_DATA_DIR;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}


Eigen::Matrix3d tensor(double ixx, double ixy, double ixz, double iyy, double iyz, double izz) {
  Eigen::Matrix3d i;
  i << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
  return i;
}

/// Compares two chains of the same joint count: rnea, crba and aba at seeded random states,
/// and the world positions of every link's centre of mass.
template <typename A, typename B>
void expect_same_dynamics(const A& a, const B& b, std::uint32_t seed, double tol = 1e-12) {
  static_assert(A::nq == B::nq, "same joint count");
  using V = typename A::Vector;
  std::mt19937 gen(seed);
  for (int trial = 0; trial < 5; ++trial) {
    const V q = test::random_state<V>(gen, 3.0), qd = test::random_state<V>(gen, 2.0),
            qdd = test::random_state<V>(gen, 4.0), tau = test::random_state<V>(gen, 10.0);
    CHECK(relative_error(rnea(a, q, qd, qdd), rnea(b, q, qd, qdd)) < tol);
    CHECK(relative_error(crba(a, q), crba(b, q)) < tol);
    CHECK(relative_error(aba(a, q, qd, tau), aba(b, q, qd, tau)) < tol * 100);
    const auto fa = forward_kinematics(a, q);
    const auto fb = forward_kinematics(b, q);
    for (std::size_t i = 0; i < std::size_t(A::nq); ++i) {
      CHECK(relative_error(fa[i].act_point(a.link(i).com), fb[i].act_point(b.link(i).com)) < tol);
    }
  }
}

/// Runs `f` and checks it throws a ParseError whose message contains every fragment and whose
/// line() is `line` (unless -1); also that it is a chaindyn::ModelError.
template <typename F>
void expect_parse_error(F&& f, int line, std::initializer_list<const char*> fragments) {
  try {
    f();
    FAIL("no ParseError thrown (expected: " << *fragments.begin() << ")");
  } catch (const urdf::ParseError& e) {
    const std::string what = e.what();
    INFO(what);
    if (line >= 0) CHECK(e.line() == line);
    if (line > 0) CHECK(what.find("line " + std::to_string(line) + ":") != std::string::npos);
    for (const char* fragment : fragments) {
      INFO("expected fragment: " << fragment);
      CHECK(what.find(fragment) != std::string::npos);
    }
    const ModelError* base = &e;
    CHECK(base != nullptr);
  }
}

// --- a hand-written three-joint URDF -------------------------------------------------------

// Lines matter for the error tests below: keep this text's layout.
const char* const three_joints = R"(<?xml version="1.0"?>
<robot name="three">
  <link name="base"/>
  <joint name="j1" type="revolute">
    <parent link="base"/>
    <child link="l1"/>
    <origin xyz="0.1 0.2 0.3" rpy="0.3 -0.2 0.1"/>
    <axis xyz="0 0 1"/>
    <limit lower="-1" upper="2" effort="30" velocity="4"/>
    <dynamics damping="0.25" friction="0.125"/>
  </joint>
  <link name="l1">
    <inertial>
      <origin xyz="0.01 0.02 0.15" rpy="0.5 0.1 -0.4"/>
      <mass value="2.5"/>
      <inertia ixx="0.04" ixy="0.001" ixz="-0.002" iyy="0.05" iyz="0.003" izz="0.03"/>
    </inertial>
  </link>
  <joint name="j2" type="prismatic">
    <parent link="l1"/>
    <child link="l2"/>
    <origin xyz="0 0 0.4" rpy="0 1.5707963267948966 0"/>
    <axis xyz="1 0 0"/>
    <limit lower="0" upper="0.5" effort="100" velocity="0.5"/>
  </joint>
  <link name="l2">
    <inertial>
      <origin xyz="0.1 0 -0.05"/>
      <mass value="1.5"/>
      <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.03" iyz="0" izz="0.025"/>
    </inertial>
  </link>
  <joint name="j3" type="continuous">
    <parent link="l2"/>
    <child link="l3"/>
    <origin xyz="0.2 0 0" rpy="0 0 0.7"/>
    <axis xyz="0.3 -0.4 1.2"/>
    <limit effort="12" velocity="6"/>
  </joint>
  <link name="l3">
    <inertial>
      <origin xyz="0 0.05 0.1" rpy="-0.3 0.2 0.9"/>
      <mass value="0.8"/>
      <inertia ixx="0.005" ixy="0.0002" ixz="0" iyy="0.004" iyz="-0.0001" izz="0.006"/>
    </inertial>
  </link>
</robot>
)";

using Three = Chain<double, RevoluteZ, PrismaticX, Revolute>;

Three three_by_hand() {
  std::vector<Link<double>> links(3);
  links[0].placement = Transform<double>(rpy(0.3, -0.2, 0.1), Eigen::Vector3d(0.1, 0.2, 0.3));
  links[0].mass = 2.5;
  links[0].com = Eigen::Vector3d(0.01, 0.02, 0.15);
  const Eigen::Matrix3d r0 = rpy(0.5, 0.1, -0.4);
  links[0].inertia = r0 * tensor(0.04, 0.001, -0.002, 0.05, 0.003, 0.03) * r0.transpose();
  links[0].dynamics.damping = 0.25;
  links[0].dynamics.friction = 0.125;
  links[1].placement = Transform<double>(rot_y(1.5707963267948966), Eigen::Vector3d(0, 0, 0.4));
  links[1].mass = 1.5;
  links[1].com = Eigen::Vector3d(0.1, 0, -0.05);
  links[1].inertia = tensor(0.02, 0, 0, 0.03, 0, 0.025);
  links[2].placement = Transform<double>(rot_z(0.7), Eigen::Vector3d(0.2, 0, 0));
  links[2].axis = Eigen::Vector3d(0.3, -0.4, 1.2);
  links[2].mass = 0.8;
  links[2].com = Eigen::Vector3d(0, 0.05, 0.1);
  const Eigen::Matrix3d r2 = rpy(-0.3, 0.2, 0.9);
  links[2].inertia = r2 * tensor(0.005, 0.0002, 0, 0.004, -0.0001, 0.006) * r2.transpose();
  return Three(links);
}

}  // namespace

TEST_CASE("urdf: a hand-written URDF gives the hand-built chain (rnea, crba, forward kinematics to 1e-12)",
          "[urdf]") {
  const Three parsed = urdf::parse<Three>(three_joints);
  const Three by_hand = three_by_hand();
  for (std::size_t i = 0; i < 3; ++i) {
    INFO("link " << i);
    CHECK(relative_error(parsed.link(i).placement.rotation, by_hand.link(i).placement.rotation) < 1e-15);
    CHECK(relative_error(parsed.link(i).placement.translation, by_hand.link(i).placement.translation) < 1e-15);
    CHECK(parsed.link(i).mass == by_hand.link(i).mass);
    CHECK(relative_error(parsed.link(i).com, by_hand.link(i).com) < 1e-15);
    CHECK(relative_error(parsed.link(i).inertia, by_hand.link(i).inertia) < 1e-15);
  }
  CHECK(relative_error(parsed.joint<2>().axis(), Eigen::Vector3d(0.3, -0.4, 1.2).normalized()) < 1e-15);
  expect_same_dynamics(parsed, by_hand, test::kSeed + 501);
  // rnea adds the joint friction read from <dynamics>: damping qd + friction sign(qd)
  const Three::Vector zero = Three::Vector::Zero(), qd(0.5, 0, 0);
  CHECK(std::abs(rnea(parsed, zero, qd, zero)[0] - nonlinear_effects(parsed, zero, qd)[0] -
                 (0.25 * 0.5 + 0.125)) < 1e-12);
}

TEST_CASE("urdf: names, limits and joint dynamics are kept in the links", "[urdf]") {
  const Three c = urdf::parse<Three>(three_joints);
  CHECK(c.link(0).name == "l1");
  CHECK(c.link(0).joint_name == "j1");
  CHECK(c.link(2).joint_name == "j3");
  REQUIRE(c.link(0).limits);
  CHECK(c.link(0).limits->lower == -1.0);
  CHECK(c.link(0).limits->upper == 2.0);
  CHECK(c.link(0).limits->effort == 30.0);
  CHECK(c.link(0).limits->velocity == 4.0);
  CHECK(c.link(0).dynamics.damping == 0.25);
  CHECK(c.link(0).dynamics.friction == 0.125);
  CHECK(c.link(1).dynamics.damping == 0.0);
  REQUIRE(c.link(2).limits);  // continuous: unbounded position, the effort and velocity given
  CHECK(c.link(2).limits->lower == -std::numeric_limits<double>::infinity());
  CHECK(c.link(2).limits->upper == std::numeric_limits<double>::infinity());
  CHECK(c.link(2).limits->effort == 12.0);

  const urdf::Description d = urdf::describe(three_joints);
  CHECK(d.robot_name == "three");
  CHECK(d.root_link == "base");
  CHECK(d.tip_link == "l3");
  REQUIRE(d.joints.size() == 3);
  CHECK(d.joints[1].type == urdf::JointType::prismatic);
  CHECK(d.joints[2].type == urdf::JointType::continuous);
  CHECK(d.joints[2].kind == JointKind::revolute);
  CHECK(d.joints[1].line == 19);
}

TEST_CASE("urdf: the joint limits a chain refuses (NaN, lower > upper, negative velocity or effort)",
          "[urdf][validation]") {
  Link<double> l;
  l.mass = 1;
  l.inertia = Eigen::Matrix3d::Identity() * 0.1;
  l.limits = JointLimits<double>{-1, 1, 2, 3};
  CHECK_NOTHROW(ChainN<double, 1, RevoluteZ>({l}));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const JointLimits<double>& bad : {JointLimits<double>{1, -1, 2, 3}, JointLimits<double>{nan, 1, 2, 3},
                                         JointLimits<double>{-1, 1, -2, 3}, JointLimits<double>{-1, 1, 2, -3}}) {
    l.limits = bad;
    using One = ChainN<double, 1, RevoluteZ>;
    CHECK_THROWS_AS(One({l}), ModelError);
  }
}

// --- axis rotation --------------------------------------------------------------------------

namespace {

/// A chain of joints of type `type` with the given axes, each link with an offset placement,
/// an inertial origin with rpy and a full inertia tensor.
std::string axes_urdf(const char* type, const std::vector<const char*>& axes) {
  std::string s = "<robot name=\"axes\">\n  <link name=\"l0\"/>\n";
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::string k = std::to_string(i + 1);
    const double t = 0.3 * double(i + 1);
    s += "  <joint name=\"j" + k + "\" type=\"" + type + "\"><parent link=\"l" + std::to_string(i) +
         "\"/><child link=\"l" + k + "\"/><origin xyz=\"0.1 " + std::to_string(0.2 * t) +
         " 0.3\" rpy=\"" + std::to_string(t) + " " + std::to_string(-0.5 * t) + " 0.4\"/><axis xyz=\"" +
         axes[i] + "\"/></joint>\n";
    s += "  <link name=\"l" + k + "\"><inertial><origin xyz=\"0.05 -0.02 " + std::to_string(0.1 * t) +
         "\" rpy=\"0.2 " + std::to_string(t) + " -0.1\"/><mass value=\"" + std::to_string(1.0 + t) +
         "\"/><inertia ixx=\"0.03\" ixy=\"0.002\" ixz=\"-0.001\" iyy=\"0.04\" iyz=\"0.003\" "
         "izz=\"0.05\"/></inertial></link>\n";
  }
  return s + "</robot>\n";
}

}  // namespace

TEST_CASE("urdf: rotation_onto takes the type's axis onto the URDF axis with a proper rotation",
          "[urdf][axis]") {
  std::mt19937 gen(test::kSeed + 502);
  std::vector<Eigen::Vector3d> axes = {Eigen::Vector3d::UnitX(), -Eigen::Vector3d::UnitX(),
                                       Eigen::Vector3d::UnitY(), -Eigen::Vector3d::UnitY(),
                                       Eigen::Vector3d::UnitZ(), -Eigen::Vector3d::UnitZ(),
                                       Eigen::Vector3d(1e-9, 0, -1).normalized(),
                                       Eigen::Vector3d(1, 1, 0).normalized()};
  for (int i = 0; i < 50; ++i) axes.push_back(test::random_vector(gen, -1, 1).normalized());
  for (int k = 0; k < 3; ++k) {
    for (const Eigen::Vector3d& a : axes) {
      const Eigen::Matrix3d r = urdf::rotation_onto(k, a);
      INFO("K = " << k << ", a = " << a.transpose());
      CHECK((r * Eigen::Vector3d::Unit(k) - a).cwiseAbs().maxCoeff() < 1e-15);
      CHECK((r.transpose() * r - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < 1e-15);
      CHECK(std::abs(r.determinant() - 1.0) < 1e-15);
    }
  }
  CHECK(urdf::rotation_onto(2, Eigen::Vector3d::UnitZ()) == Eigen::Matrix3d::Identity());
  // the antiparallel case is the half-turn about x for a z joint
  CHECK(urdf::rotation_onto(2, -Eigen::Vector3d::UnitZ()) ==
        Eigen::Vector3d(1, -1, -1).asDiagonal().toDenseMatrix());
  // the minimal rotation keeps a vector perpendicular to both axes fixed
  const Eigen::Vector3d a = Eigen::Vector3d(1, 1, 0).normalized();
  CHECK((urdf::rotation_onto(2, a) * Eigen::Vector3d(1, -1, 0) - Eigen::Vector3d(1, -1, 0))
            .cwiseAbs()
            .maxCoeff() < 1e-15);
}

// Seven joints, as the published arms below: the chain types are shared (compile time).
const std::vector<const char*> seven_axes = {"0 1 0", "1 1 0", "0 0 -1", "-1 0.2 -0.3",
                                             "0 0 1", "1 0 0", "0 -1 0"};

TEST_CASE("urdf: any revolute axis loaded as RevoluteZ or RevoluteX gives the run-time-axis chain's tau, M, qdd and COM positions",
          "[urdf][axis]") {
  const std::string xml = axes_urdf("revolute", seven_axes);
  const auto z = urdf::parse<ChainN<double, 7, RevoluteZ>>(xml);
  const auto x = urdf::parse<ChainN<double, 7, RevoluteX>>(xml);
  const auto runtime = urdf::parse<ChainN<double, 7, Revolute>>(xml);
  CHECK(relative_error(*runtime.link(1).axis, Eigen::Vector3d(1, 1, 0).normalized()) < 1e-15);
  CHECK_FALSE(z.link(1).axis.has_value());
  // joint 5's URDF axis already is z: its link keeps its numbers, and its placement is only
  // re-expressed in joint 4's turned frame (R_a^T placement)
  CHECK(z.link(4).com == runtime.link(4).com);
  CHECK(z.link(4).inertia == runtime.link(4).inertia);
  const Eigen::Matrix3d ra3 = urdf::rotation_onto(2, Eigen::Vector3d(-1, 0.2, -0.3).normalized());
  CHECK(relative_error(z.link(4).placement.rotation,
                       Eigen::Matrix3d(ra3.transpose() * runtime.link(4).placement.rotation)) < 1e-15);
  CHECK(relative_error(z.link(4).placement.translation,
                       Eigen::Vector3d(ra3.transpose() * runtime.link(4).placement.translation)) < 1e-15);
  expect_same_dynamics(z, runtime, test::kSeed + 503);
  expect_same_dynamics(x, runtime, test::kSeed + 504);
}

TEST_CASE("urdf: any prismatic axis loaded as PrismaticZ gives the run-time-axis chain's tau, M, qdd and COM positions",
          "[urdf][axis]") {
  const std::string xml = axes_urdf("prismatic", seven_axes);
  expect_same_dynamics(urdf::parse<ChainN<double, 7, PrismaticZ>>(xml),
                       urdf::parse<ChainN<double, 7, Prismatic>>(xml), test::kSeed + 505);
}

// --- fixed joints ---------------------------------------------------------------------------

namespace {

/// world -(a)-> base -(j1)-> l1 -(b)-> l1b -(j2)-> l2 -(c)-> tool: a, b, c are `welded`
/// ("fixed", or "revolute" to compare with the welded model held at zero); j1, j2 revolute.
/// With `side`, a massive link fixed to l1 off the path.
std::string weld_urdf(const char* welded, bool side = false) {
  const std::string w = welded;
  std::string s = R"(<robot name="weld">
  <link name="world"/>
  <joint name="a" type=")" + w + R"("><parent link="world"/><child link="base"/>
    <origin xyz="0.3 -0.2 0.5" rpy="0.1 0.2 0.3"/><axis xyz="0 0 1"/></joint>
  <link name="base"><inertial><mass value="7"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.2" rpy="0 0.4 0"/><axis xyz="0 1 0"/></joint>
  <link name="l1"><inertial><origin xyz="0 0.1 0.2" rpy="0.3 0 0"/><mass value="2"/>
    <inertia ixx="0.03" ixy="0.001" ixz="0" iyy="0.02" iyz="0" izz="0.025"/></inertial></link>
  <joint name="b" type=")" + w + R"("><parent link="l1"/><child link="l1b"/>
    <origin xyz="0.1 0.05 0.4" rpy="-0.5 0.2 1.0"/><axis xyz="1 0 0"/></joint>
  <link name="l1b"><inertial><origin xyz="0.02 0 0.1" rpy="0 0.3 0.2"/><mass value="1.25"/>
    <inertia ixx="0.01" ixy="0" ixz="0.001" iyy="0.012" iyz="0" izz="0.008"/></inertial></link>
  <joint name="j2" type="revolute"><parent link="l1b"/><child link="l2"/>
    <origin xyz="0 0.1 0.3" rpy="0.2 0 -0.3"/><axis xyz="0 0 1"/></joint>
  <link name="l2"><inertial><origin xyz="0.1 0 0"/><mass value="1"/>
    <inertia ixx="0.004" ixy="0" ixz="0" iyy="0.005" iyz="0" izz="0.006"/></inertial></link>
  <joint name="c" type=")" + w + R"("><parent link="l2"/><child link="tool"/>
    <origin xyz="0 0 0.15" rpy="0 0 0.785"/><axis xyz="0 1 0"/></joint>
  <link name="tool"><inertial><origin xyz="0 0.02 0.05" rpy="0.1 0.2 0.3"/><mass value="0.5"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.0015"/></inertial></link>
)";
  if (side) {
    s += R"(  <joint name="side_joint" type="fixed"><parent link="l1"/><child link="side"/>
    <origin xyz="-0.1 0 0.1" rpy="0 0 1.2"/></joint>
  <link name="side"><inertial><origin xyz="0 0.01 0" rpy="0.4 0 0"/><mass value="0.7"/>
    <inertia ixx="0.002" ixy="0.0001" ixz="0" iyy="0.003" iyz="0" izz="0.0015"/></inertial></link>
)";
  }
  return s + "</robot>\n";
}

/// The 6x6 spatial inertia of a (mass, com, inertia about com) body, written out (RBDA eq. 2.63).
Eigen::Matrix<double, 6, 6> spatial(double m, const Eigen::Vector3d& c, const Eigen::Matrix3d& ic) {
  const Eigen::Matrix3d cx = detail::skew(c);
  Eigen::Matrix<double, 6, 6> out;
  out << ic + m * cx * cx.transpose(), m * cx, m * cx.transpose(), m * Eigen::Matrix3d::Identity();
  return out;
}

/// A body's 6x6 inertia moved into frame B, given the pose P of its frame in B: X^T I X with
/// X the matrix of P.act_inv on motions (B coordinates -> body coordinates), built column by
/// column: kinetic energy is invariant.
Eigen::Matrix<double, 6, 6> moved(const Eigen::Matrix<double, 6, 6>& i, const Transform<double>& p) {
  Eigen::Matrix<double, 6, 6> x;
  for (int k = 0; k < 6; ++k) {
    const Eigen::Matrix<double, 6, 1> e = Eigen::Matrix<double, 6, 1>::Unit(k);
    x.col(k) = p.act_inv(Motion<double>(e.head<3>(), e.tail<3>())).vector();
  }
  return x.transpose() * i * x;
}

}  // namespace

TEST_CASE("urdf: fixed joints merge like revolute joints held at zero (tau, M, poses)",
          "[urdf][fixed]") {
  using Welded = ChainN<double, 2, Revolute>;
  using Free = ChainN<double, 5, Revolute>;
  const Welded welded = urdf::parse<Welded>(weld_urdf("fixed"));
  const Free free = urdf::parse<Free>(weld_urdf("revolute"));
  const std::size_t moving[2] = {1, 3};  // j1 and j2 among a, j1, b, j2, c
  std::mt19937 gen(test::kSeed + 506);
  for (int trial = 0; trial < 5; ++trial) {
    const Welded::Vector q = test::random_state<Welded::Vector>(gen, 3.0),
                         qd = test::random_state<Welded::Vector>(gen, 2.0),
                         qdd = test::random_state<Welded::Vector>(gen, 4.0);
    Free::Vector fq = Free::Vector::Zero(), fqd = Free::Vector::Zero(), fqdd = Free::Vector::Zero();
    for (int i = 0; i < 2; ++i) {
      fq[Eigen::Index(moving[i])] = q[i];
      fqd[Eigen::Index(moving[i])] = qd[i];
      fqdd[Eigen::Index(moving[i])] = qdd[i];
    }
    const Free::Vector ftau = rnea(free, fq, fqd, fqdd);
    const Free::Matrix fm = crba(free, fq);
    const Welded::Vector tau = rnea(welded, q, qd, qdd);
    const Welded::Matrix m = crba(welded, q);
    const auto fposes = forward_kinematics(free, fq);
    const auto poses = forward_kinematics(welded, q);
    for (int i = 0; i < 2; ++i) {
      CHECK(relative_error(tau[i], ftau[Eigen::Index(moving[i])]) < 1e-12);
      for (int j = 0; j < 2; ++j) {
        CHECK(relative_error(m(i, j), fm(Eigen::Index(moving[i]), Eigen::Index(moving[j]))) < 1e-12);
      }
      CHECK(relative_error(poses[std::size_t(i)].rotation, fposes[moving[i]].rotation) < 1e-12);
      CHECK(relative_error(poses[std::size_t(i)].translation, fposes[moving[i]].translation) < 1e-12);
    }
  }
  // the tip may be named as any link fixed to the last moving one: the same chain
  const Welded to_tool = urdf::parse<Welded>(weld_urdf("fixed"), "tool");
  const Welded to_l2 = urdf::parse<Welded>(weld_urdf("fixed"), "l2");
  expect_same_dynamics(to_tool, welded, test::kSeed + 507, 0.0 + 1e-15);
  expect_same_dynamics(to_l2, welded, test::kSeed + 508, 0.0 + 1e-15);
}

TEST_CASE("urdf: a massive link fixed off the path adds its spatial inertia to its body",
          "[urdf][fixed]") {
  using Welded = ChainN<double, 2, Revolute>;
  const Welded with = urdf::parse<Welded>(weld_urdf("fixed", true));
  // link 0 of the chain is l1 with l1b (pose b) and side (pose side_joint) welded to it
  const Transform<double> b(rpy(-0.5, 0.2, 1.0), Eigen::Vector3d(0.1, 0.05, 0.4));
  const Transform<double> side(rot_z(1.2), Eigen::Vector3d(-0.1, 0, 0.1));
  const Eigen::Matrix3d r1 = rot_x(0.3), rb = rpy(0, 0.3, 0.2), rs = rot_x(0.4);
  const Eigen::Matrix<double, 6, 6> expected =
      spatial(2, Eigen::Vector3d(0, 0.1, 0.2), r1 * tensor(0.03, 0.001, 0, 0.02, 0, 0.025) * r1.transpose()) +
      moved(spatial(1.25, Eigen::Vector3d(0.02, 0, 0.1), rb * tensor(0.01, 0, 0.001, 0.012, 0, 0.008) * rb.transpose()), b) +
      moved(spatial(0.7, Eigen::Vector3d(0, 0.01, 0), rs * tensor(0.002, 0.0001, 0, 0.003, 0, 0.0015) * rs.transpose()), side);
  const Link<double>& l = with.link(0);
  CHECK(l.mass == Approx(3.95).epsilon(1e-15));
  CHECK(relative_error(spatial(l.mass, l.com, l.inertia), expected) < 1e-14);
  // l2 with the tool welded to it
  const Transform<double> c(rot_z(0.785), Eigen::Vector3d(0, 0, 0.15));
  const Eigen::Matrix3d rt = rpy(0.1, 0.2, 0.3);
  const Eigen::Matrix<double, 6, 6> expected2 =
      spatial(1, Eigen::Vector3d(0.1, 0, 0), tensor(0.004, 0, 0, 0.005, 0, 0.006)) +
      moved(spatial(0.5, Eigen::Vector3d(0, 0.02, 0.05), rt * tensor(0.001, 0, 0, 0.002, 0, 0.0015) * rt.transpose()), c);
  const Link<double>& l2 = with.link(1);
  CHECK(relative_error(spatial(l2.mass, l2.com, l2.inertia), expected2) < 1e-14);
  // fixed joints before the first moving joint compose into its placement; the root's mass
  // (7 kg on "base") is not in the chain
  const Transform<double> a(rpy(0.1, 0.2, 0.3), Eigen::Vector3d(0.3, -0.2, 0.5));
  const Transform<double> j1 = a * Transform<double>(rot_y(0.4), Eigen::Vector3d(0, 0, 0.2));
  CHECK(relative_error(l.placement.rotation, j1.rotation) < 1e-15);
  CHECK(relative_error(l.placement.translation, j1.translation) < 1e-15);
  // j2 sits on l1b: its placement in l1 is b * origin(j2)
  const Transform<double> j2 = b * Transform<double>(rpy(0.2, 0, -0.3), Eigen::Vector3d(0, 0.1, 0.3));
  CHECK(relative_error(l2.placement.rotation, j2.rotation) < 1e-15);
  CHECK(relative_error(l2.placement.translation, j2.translation) < 1e-15);
}

TEST_CASE("urdf: with a tip named, moving branches off the path are left out", "[urdf][tree]") {
  // the side link on its own revolute joint: a branch at l1
  std::string xml = weld_urdf("fixed", true);
  const std::string fixed_side = R"(<joint name="side_joint" type="fixed">)";
  xml.replace(xml.find(fixed_side), fixed_side.size(),
              R"(<joint name="side_joint" type="revolute"><axis xyz="0 0 1"/>)");
  expect_parse_error([&] { urdf::parse<ChainN<double, 2, Revolute>>(xml); }, 8,
                     {"link 'l1'", "the tree branches", "joint 'j2'", "joint 'side_joint'",
                      "name the tip link"});
  // b is fixed, so both j2 (from l1b) and side_joint (from l1) continue from l1's body
  const auto chain = urdf::parse<ChainN<double, 2, Revolute>>(xml, "tool");
  const auto plain = urdf::parse<ChainN<double, 2, Revolute>>(weld_urdf("fixed"));
  expect_same_dynamics(chain, plain, test::kSeed + 509, 1e-15);
  const auto to_side = urdf::parse<ChainN<double, 2, Revolute>>(xml, "side");
  CHECK(to_side.link(1).name == "side");
  CHECK(to_side.link(1).joint_name == "side_joint");
}

// --- errors ---------------------------------------------------------------------------------

namespace {

/// three_joints with one piece of text replaced (which must occur).
std::string edited(const std::string& from, const std::string& to) {
  std::string s = three_joints;
  const std::size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  s.replace(at, from.size(), to);
  return s;
}

void parse3(const std::string& xml, std::string_view tip = {}) { urdf::parse<Three>(xml, tip); }

}  // namespace

TEST_CASE("urdf errors: malformed XML, not a robot, NUL bytes, empty input", "[urdf][errors]") {
  expect_parse_error([] { parse3(edited("</link>\n  <joint name=\"j2\"", "\n  <joint name=\"j2\"")); },
                     -1, {"malformed XML"});
  // tinyxml2 reports the line of the element whose closing tag does not match
  try {
    parse3(edited("  </joint>\n  <link name=\"l1\">", "  </jont>\n  <link name=\"l1\">"));
    FAIL("no error");
  } catch (const urdf::ParseError& e) {
    INFO(e.what());
    CHECK(e.line() == 4);
    CHECK(std::string(e.what()).find("line 4: malformed XML") != std::string::npos);
  }
  expect_parse_error([] { parse3("<?xml version=\"1.0\"?>\n<model name=\"x\"/>\n"); }, 2,
                     {"<model>, not <robot>"});
  static const char with_nul[] = "<robot>\n\n<link name=\"a\"/>\0</robot>";
  expect_parse_error([] { parse3(std::string(with_nul, sizeof with_nul - 1)); }, 3,
                     {"malformed XML", "NUL byte"});
  expect_parse_error([] { parse3(""); }, -1, {"malformed XML"});
  expect_parse_error([] { parse3("<robot name=\"empty\"/>"); }, 1, {"robot 'empty'", "has no <link>"});
}

TEST_CASE("urdf errors: missing mass or inertia, missing attributes, non-finite or malformed numbers",
          "[urdf][errors]") {
  expect_parse_error([] { parse3(edited("      <mass value=\"2.5\"/>\n", "")); }, 13,
                     {"link 'l1'", "<inertial> has no <mass>"});
  expect_parse_error(
      [] { parse3(edited("      <inertia ixx=\"0.04\" ixy=\"0.001\" ixz=\"-0.002\" iyy=\"0.05\" iyz=\"0.003\" izz=\"0.03\"/>\n", "")); },
      13, {"link 'l1'", "<inertial> has no <inertia>"});
  expect_parse_error([] { parse3(edited("ixy=\"0.001\" ", "")); }, 16,
                     {"link 'l1'", "<inertia> has no attribute 'ixy'"});
  expect_parse_error([] { parse3(edited("<mass value=\"2.5\"/>", "<mass value=\"nan\"/>")); }, 15,
                     {"link 'l1'", "value=\"nan\"", "is not a finite number"});
  expect_parse_error([] { parse3(edited("<mass value=\"2.5\"/>", "<mass value=\"1e999\"/>")); }, 15,
                     {"link 'l1'", "is not a finite number"});
  expect_parse_error([] { parse3(edited("xyz=\"0.1 0.2 0.3\"", "xyz=\"0.1 inf 0.3\"")); }, 7,
                     {"joint 'j1'", "<origin> attribute xyz=\"0.1 inf 0.3\" is not 3 finite numbers"});
  expect_parse_error([] { parse3(edited("xyz=\"0.1 0.2 0.3\"", "xyz=\"0.1 0.2\"")); }, 7,
                     {"joint 'j1'", "is not 3 finite numbers"});
  expect_parse_error([] { parse3(edited("xyz=\"0.1 0.2 0.3\"", "xyz=\"0.1 0.2 0.3 0.4\"")); }, 7,
                     {"joint 'j1'", "is not 3 finite numbers"});
  expect_parse_error([] { parse3(edited("xyz=\"0.1 0.2 0.3\"", "xyz=\"0.1 0.2x 0.3\"")); }, 7,
                     {"joint 'j1'", "is not 3 finite numbers"});
  expect_parse_error([] { parse3(edited("<axis xyz=\"0 0 1\"/>", "<axis xyz=\"0 0 0\"/>")); }, 8,
                     {"joint 'j1'", "<axis xyz> is zero"});
  expect_parse_error([] { parse3(edited("<limit effort=\"12\" velocity=\"6\"/>", "<limit velocity=\"6\"/>")); },
                     38, {"joint 'j3'", "<limit> has no attribute 'effort'"});
  expect_parse_error([] { parse3(edited("<link name=\"l2\">", "<link>")); }, 26,
                     {"link", "no (or an empty) attribute 'name'"});
  // numbers the chain refuses, placed at the element that holds them
  expect_parse_error([] { parse3(edited("<mass value=\"2.5\"/>", "<mass value=\"-2.5\"/>")); }, 12,
                     {"link 'l1'", "mass is negative"});
  expect_parse_error([] { parse3(edited("izz=\"0.025\"", "izz=\"0.2\"")); }, 26,
                     {"link 'l2'", "triangle inequality"});
  expect_parse_error([] { parse3(edited("damping=\"0.25\"", "damping=\"-0.25\"")); }, 4,
                     {"joint 'j1'", "damping is negative"});
  expect_parse_error([] { parse3(edited("lower=\"-1\" upper=\"2\"", "lower=\"3\" upper=\"2\"")); }, 4,
                     {"joint 'j1'", "lower <= upper"});
  expect_parse_error([] { parse3(edited("velocity=\"4\"", "velocity=\"-4\"")); }, 4,
                     {"joint 'j1'", "velocity limit"});
}

TEST_CASE("urdf errors: unknown, floating and planar joint types, joint count and kind mismatches",
          "[urdf][errors]") {
  expect_parse_error([] { parse3(edited("type=\"prismatic\"", "type=\"floating\"")); }, 19,
                     {"joint 'j2'", "'floating' is not supported"});
  expect_parse_error([] { parse3(edited("type=\"prismatic\"", "type=\"planar\"")); }, 19,
                     {"joint 'j2'", "'planar' is not supported"});
  expect_parse_error([] { parse3(edited("type=\"prismatic\"", "type=\"hinge\"")); }, 19,
                     {"joint 'j2'", "unknown joint type 'hinge'"});
  expect_parse_error([] { urdf::parse<ChainN<double, 2, Revolute>>(three_joints); }, 2,
                     {"robot 'three'", "from link 'base' to link 'l3' has 3 moving joints ('j1', 'j2', 'j3')",
                      "the Chain type has 2"});
  expect_parse_error([] { urdf::parse<ChainN<double, 3, Revolute>>(three_joints); }, 19,
                     {"joint 'j2'", "a prismatic joint given for joint 1 of the Chain type, which is revolute"});
  expect_parse_error([] { parse3(edited("type=\"prismatic\"", "type=\"revolute\"")); }, 19,
                     {"joint 'j2'", "a revolute joint given for joint 1", "which is prismatic"});
  expect_parse_error([] { parse3(edited("type=\"continuous\"", "type=\"prismatic\"")); }, 33,
                     {"joint 'j3'", "a prismatic joint given for joint 2", "which is revolute"});
  // a tip fixed to the root: no moving joint at all
  expect_parse_error([] { parse3(three_joints, "base"); }, 2, {"has 0 moving joints"});
}

TEST_CASE("urdf errors: unknown links, two parents, cycles, no single root, unknown tip, duplicates",
          "[urdf][errors]") {
  expect_parse_error([] { parse3(edited("<parent link=\"l1\"/>", "<parent link=\"l9\"/>")); }, 19,
                     {"joint 'j2'", "parent link 'l9' is not defined"});
  expect_parse_error([] { parse3(edited("<child link=\"l3\"/>", "<child link=\"nowhere\"/>")); }, 33,
                     {"joint 'j3'", "child link 'nowhere' is not defined"});
  expect_parse_error([] { parse3(edited("<child link=\"l3\"/>", "<child link=\"l1\"/>")); }, 33,
                     {"joint 'j3'", "link 'l1' has two parent joints, 'j1' (line 4) and 'j3' (line 33)",
                      "a URDF is a tree"});
  const char* const cycle = R"(<robot name="cyc">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/>
  <joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="bc" type="fixed"><parent link="b"/><child link="c"/></joint>
  <joint name="ca" type="fixed"><parent link="c"/><child link="a"/></joint>
</robot>)";
  expect_parse_error([&] { parse3(cycle); }, 5,
                     {"joint 'ca'", "joints form a cycle: link 'a' <- joint 'ca' <- link 'c' <- "
                                    "joint 'bc' <- link 'b' <- joint 'ab' <- link 'a'"});
  expect_parse_error([] { parse3(edited("<parent link=\"l1\"/>", "<parent link=\"l2\"/>")); }, 19,
                     {"joint 'j2'", "joints form a cycle", "link 'l2' is its own parent"});
  expect_parse_error([] { parse3(edited("<child link=\"l1\"/>", "<child link=\"l4\"/>")); }, 4,
                     {"joint 'j1'", "child link 'l4' is not defined"});
  {
    std::string two_roots = edited("<link name=\"base\"/>", "<link name=\"base\"/>\n  <link name=\"stray\"/>");
    expect_parse_error([&] { parse3(two_roots); }, 2,
                       {"robot 'three'", "no single root", "'base' (line 3)", "'stray' (line 4)"});
  }
  expect_parse_error([] { parse3(three_joints, "l7"); }, 2, {"robot 'three'", "tip link 'l7' is not defined"});
  expect_parse_error([] { parse3(edited("<link name=\"l2\">", "<link name=\"l1\">")); }, 26,
                     {"link 'l1'", "is defined twice (lines 12 and 26)"});
  expect_parse_error([] { parse3(edited("<joint name=\"j3\"", "<joint name=\"j1\"")); }, 33,
                     {"joint 'j1'", "is defined twice (lines 4 and 33)"});
  expect_parse_error([] { parse3(edited("<inertial>\n      <origin xyz=\"0.1 0 -0.05\"/>",
                                        "<inertial></inertial><inertial>\n      <origin xyz=\"0.1 0 -0.05\"/>")); },
                     26, {"link 'l2'", "two <inertial> elements"});
}

TEST_CASE("urdf errors: the chain's own checks (a massless last link) come back as ParseError",
          "[urdf][errors]") {
  std::string xml = edited("<mass value=\"0.8\"/>", "<mass value=\"0\"/>");
  const std::string tensor3 =
      R"(ixx="0.005" ixy="0.0002" ixz="0" iyy="0.004" iyz="-0.0001" izz="0.006")";
  xml.replace(xml.find(tensor3), tensor3.size(), R"(ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0")");
  expect_parse_error([&] { parse3(xml); }, 2, {"robot 'three'", "link 2 ('l3')", "singular"});
}

TEST_CASE("urdf: load reads files and names them in errors", "[urdf][errors]") {
  expect_parse_error([] { urdf::load<Three>(data_dir + "/no_such_file.urdf"); }, 0,
                     {"no_such_file.urdf: cannot open the file"});
  expect_parse_error([] { urdf::load<ChainN<double, 6, RevoluteZ>>(data_dir + "/iiwa14_no_collision.urdf"); },
                     6, {"iiwa14_no_collision.urdf: line 6: robot 'iiwa14'", "has 7 moving joints"});
}

// --- published URDFs -----------------------------------------------------------------------

TEST_CASE("urdf: Drake's iiwa14 loads with its names, limits and damping, and RevoluteZ and Revolute agree",
          "[urdf][published]") {
  const std::string path = data_dir + "/iiwa14_no_collision.urdf";
  const auto z = urdf::load<ChainN<double, 7, RevoluteZ>>(path);
  const auto r = urdf::load<ChainN<double, 7, Revolute>>(path, "iiwa_link_ee");
  const urdf::Description d = urdf::describe(read_text(path));
  CHECK(d.root_link == "base");
  CHECK(d.tip_link == "iiwa_link_7");
  CHECK(z.link(2).name == "iiwa_link_3");
  CHECK(z.link(2).joint_name == "iiwa_joint_3");
  CHECK(z.link(2).dynamics.damping == 0.5);
  REQUIRE(z.link(6).limits);
  CHECK(z.link(6).limits->upper == 3.05432619099);
  CHECK(z.link(6).limits->effort == 300);
  CHECK(z.link(0).placement.translation == Eigen::Vector3d(0, 0, 0.1575));
  CHECK(z.link(6).mass == 1.2);
  expect_same_dynamics(z, r, test::kSeed + 510);
}

TEST_CASE("urdf: the Panda's fingers branch off the hand, and to the hand its mass is merged into link 7",
          "[urdf][published]") {
  const std::string path = data_dir + "/panda.urdf";
  using Panda = ChainN<double, 7, RevoluteZ>;
  expect_parse_error([&] { urdf::load<Panda>(path); }, 223,
                     {"link 'panda_hand'", "fixed to link 'panda_link7'", "panda_finger_joint1",
                      "panda_finger_joint2", "name the tip link"});
  const Panda p = urdf::load<Panda>(path, "panda_hand");
  CHECK(p.link(6).mass == Approx(0.735522 + 0.73).epsilon(1e-15));
  CHECK(p.link(6).dynamics.damping == 0.003);
  expect_same_dynamics(p, urdf::load<ChainN<double, 7, Revolute>>(path, "panda_hand_tcp"), test::kSeed + 512);
}

TEST_CASE("urdf: a float chain parses and agrees with the double chain", "[urdf][scalar]") {
  const std::string xml = axes_urdf("revolute", seven_axes);
  const auto d = urdf::parse<ChainN<double, 7, RevoluteZ>>(xml);
  const auto f = urdf::parse<ChainN<float, 7, RevoluteZ>>(xml);
  const Eigen::Matrix<double, 7, 1> q = Eigen::Matrix<double, 7, 1>::LinSpaced(-0.6, 0.6);
  CHECK(relative_error(rnea(f, q.cast<float>(), q.cast<float>(), q.cast<float>()), rnea(d, q, q, q)) < 1e-5);
}

// --- frames as the file defines them (issue 12, item 3) ---------------------------------------

namespace {

/// The published files, the chain each test loads from them (tip) and its joint count.
struct Robot {
  const char* file;
  const char* tip;
};

/// Every model of `robot` loaded as ChainN<double, N, RevoluteZ> (axes turned onto z) and as
/// ChainN<double, N, Revolute> (axes as written).
template <int N, typename F>
void with_both(const Robot& robot, F&& f) {
  const std::string path = data_dir + "/" + robot.file;
  f(urdf::load<ChainN<double, N, RevoluteZ>>(path, robot.tip),
    urdf::load<ChainN<double, N, Revolute>>(path, robot.tip));
}

/// The world pose of every link of a URDF file at joint positions `q_of` (by joint name; joints
/// not named are held at 0), composed by hand from the file's joint origins and axes read with
/// tinyxml2 -- a path that shares nothing with chaindyn's parser:
///   pose(child) = pose(parent) * origin(joint) * motion(joint, q),
/// origin = (Rz(yaw) Ry(pitch) Rx(roll), xyz), motion a rotation by q about the normalized
/// axis (revolute, continuous) or a translation q * axis (prismatic).
std::map<std::string, Transform<double>> poses_by_hand(
    const std::string& path, const std::map<std::string, double>& q_of) {
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.LoadFile(path.c_str()) == tinyxml2::XML_SUCCESS);
  const auto triple = [](const tinyxml2::XMLElement* e, const char* attr, Eigen::Vector3d def) {
    const char* text = e ? e->Attribute(attr) : nullptr;
    if (text) REQUIRE(std::sscanf(text, "%lf %lf %lf", &def[0], &def[1], &def[2]) == 3);
    return def;
  };
  std::map<std::string, const tinyxml2::XMLElement*> joint_to;  // by child link
  std::map<std::string, bool> is_child;
  std::vector<std::string> links;
  const tinyxml2::XMLElement* robot = doc.RootElement();
  for (auto* l = robot->FirstChildElement("link"); l; l = l->NextSiblingElement("link")) {
    links.emplace_back(l->Attribute("name"));
  }
  for (auto* j = robot->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
    joint_to[j->FirstChildElement("child")->Attribute("link")] = j;
  }
  std::map<std::string, Transform<double>> out;
  // each link's pose: walk up to the root (files are small; no memoisation needed)
  for (const std::string& link : links) {
    Transform<double> x = Transform<double>::Identity();
    for (std::string l = link; joint_to.count(l);) {
      const tinyxml2::XMLElement* j = joint_to.at(l);
      const tinyxml2::XMLElement* o = j->FirstChildElement("origin");
      const Eigen::Vector3d xyz = triple(o, "xyz", Eigen::Vector3d::Zero());
      const Eigen::Vector3d r = triple(o, "rpy", Eigen::Vector3d::Zero());
      const Eigen::Vector3d axis =
          triple(j->FirstChildElement("axis"), "xyz", Eigen::Vector3d(1, 0, 0)).normalized();
      const std::string type = j->Attribute("type");
      const auto qi = q_of.find(j->Attribute("name"));
      const double q = qi == q_of.end() ? 0.0 : qi->second;
      Transform<double> motion = Transform<double>::Identity();
      if (type == "revolute" || type == "continuous") {
        motion.rotation = Eigen::AngleAxisd(q, axis).toRotationMatrix();
      } else if (type == "prismatic") {
        motion.translation = q * axis;
      }
      x = Transform<double>(rpy(r[0], r[1], r[2]), xyz) * motion * x;
      l = j->FirstChildElement("parent")->Attribute("link");
    }
    out[link] = x;
  }
  return out;
}

const Robot ur5{"ur5_robot.urdf", ""};
const Robot iiwa{"iiwa14_no_collision.urdf", ""};
const Robot panda{"panda.urdf", "panda_hand"};

}  // namespace

TEST_CASE("urdf frames: RevoluteZ and Revolute give the same frame poses, Jacobians, Jdot qd and J^T f for every link frame and a TCP offset (0.35 m apart before)",
          "[urdf][frames]") {
  std::mt19937 gen(test::kSeed + 701u);
  double worst = 0.0;
  const auto check = [&](const auto& z, const auto& r) {
    using V = typename std::decay_t<decltype(z)>::Vector;
    for (int s = 0; s < 10; ++s) {
      const V q = test::random_state<V>(gen, 3.1), qd = test::random_state<V>(gen, 2.0);
      // a TCP given in the URDF's link frame: up to 0.2 m away, turned arbitrarily
      const Transform<double> tcp(test::random_rotation(gen), test::random_vector(gen, -0.2, 0.2));
      const Force<double> f(test::random_vector(gen, -5, 5), test::random_vector(gen, -50, 50));
      for (std::size_t i = 0; i < std::size_t(z.nq); ++i) {
        INFO("state " << s << ", link " << i);
        for (const Transform<double>& offset : {Transform<double>::Identity(), tcp}) {
          const Transform<double> a = frame_pose(z, q, i, offset), b = frame_pose(r, q, i, offset);
          worst = std::max(worst, relative_error(a.translation, b.translation));
          CHECK(relative_error(a.translation, b.translation) < 1e-12);
          CHECK(relative_error(a.rotation, b.rotation) < 1e-12);
          for (const ReferenceFrame rf : {ReferenceFrame::world, ReferenceFrame::local}) {
            CHECK(relative_error(jacobian(z, q, i, offset, rf), jacobian(r, q, i, offset, rf)) < 1e-12);
            CHECK(relative_error(jdot_qd(z, q, qd, i, offset, rf), jdot_qd(r, q, qd, i, offset, rf)) < 1e-11);
            CHECK(relative_error(joint_torques_from_wrench(z, q, i, f, offset, rf),
                                 joint_torques_from_wrench(r, q, i, f, offset, rf)) < 1e-12);
          }
        }
      }
      for (const auto& nf : z.frames()) {
        INFO("frame " << nf.name);
        CHECK(relative_error(frame_pose(z, q, nf.name).rotation, frame_pose(r, q, nf.name).rotation) < 1e-12);
        CHECK(relative_error(jacobian(z, q, nf.name, ReferenceFrame::local),
                             jacobian(r, q, nf.name, ReferenceFrame::local)) < 1e-12);
      }
    }
  };
  with_both<6>(ur5, check);
  with_both<7>(iiwa, check);
  with_both<7>(panda, check);
  WARN("worst TCP position difference RevoluteZ vs Revolute: " << worst << " (relative, floored at 1 m)");
}

TEST_CASE("urdf frames: every link welded to the chain is a named frame at the pose composed by hand from the file's joint origins",
          "[urdf][frames]") {
  std::mt19937 gen(test::kSeed + 703u);
  const auto check = [&](const Robot& robot, std::initializer_list<const char*> expected_names,
                         std::initializer_list<const char*> base_names) {
    return [&, expected_names, base_names](const auto& z, const auto& r) {
      using V = typename std::decay_t<decltype(z)>::Vector;
      for (const char* name : expected_names) {
        INFO(robot.file << ": " << name);
        REQUIRE(z.has_frame(name));
        CHECK_FALSE(z.frame(name).on_base());
      }
      for (const char* name : base_names) {
        INFO(robot.file << ": " << name);
        REQUIRE(z.has_frame(name));
        CHECK(z.frame(name).on_base());
      }
      for (std::size_t i = 0; i < std::size_t(z.nq); ++i) CHECK(z.has_frame(z.link(i).name));
      for (int s = 0; s < 5; ++s) {
        const V q = test::random_state<V>(gen, 3.1);
        std::map<std::string, double> q_of;
        for (std::size_t i = 0; i < std::size_t(z.nq); ++i) q_of[z.link(i).joint_name] = q[Eigen::Index(i)];
        const auto by_hand = poses_by_hand(data_dir + "/" + robot.file, q_of);
        for (const auto& nf : z.frames()) {
          INFO(robot.file << ", state " << s << ": frame " << nf.name);
          const Transform<double> want = by_hand.at(nf.name);
          for (const Transform<double>& got : {frame_pose(z, q, nf.name), frame_pose(r, q, nf.name)}) {
            CHECK(relative_error(got.rotation, want.rotation) < 1e-12);
            CHECK(relative_error(got.translation, want.translation) < 1e-12);
          }
        }
      }
    };
  };
  with_both<6>(ur5, check(ur5, {"tool0", "ee_link", "wrist_3_link", "shoulder_link"},
                          {"world", "base_link", "base"}));
  with_both<7>(iiwa, check(iiwa, {"iiwa_link_ee", "iiwa_link_7", "iiwa_link_1"}, {"base"}));
  with_both<7>(panda, check(panda, {"panda_hand", "panda_link8", "panda_hand_tcp", "panda_link7"},
                            {"panda_link0"}));
  // fingers are on moving joints off the chain: not frames of it
  with_both<7>(panda, [](const auto& z, const auto&) { CHECK_FALSE(z.has_frame("panda_leftfinger")); });
}

TEST_CASE("urdf frames: a payload and a wrench given in the URDF's link frame act alike on RevoluteZ and Revolute",
          "[urdf][frames]") {
  with_both<6>(ur5, [](auto z, auto r) {
    // a 2 kg tool 10 cm out along the URDF's y axis of the last link (tool0 sits that way)
    const Payload<double> p{2.0, Eigen::Vector3d(0.01, 0.1, -0.02),
                            Eigen::Vector3d(0.004, 0.003, 0.002).asDiagonal()};
    z.set_payload(5, p);
    r.set_payload(5, p);
    expect_same_dynamics(z, r, test::kSeed + 705);
    // an external wrench given in the URDF's link frame, moved into LinkForces' (internal) frame
    using Z = std::decay_t<decltype(z)>;
    using R = std::decay_t<decltype(r)>;
    LinkForces<Z> fz;
    LinkForces<R> fr;
    std::mt19937 gen(test::kSeed + 707u);
    for (std::size_t i = 0; i < 6; ++i) {
      const Force<double> f(test::random_vector(gen, -3, 3), test::random_vector(gen, -30, 30));
      fz[i] = z.link_frame(i).act(f);
      fr[i] = r.link_frame(i).act(f);
    }
    const typename Z::Vector q = test::random_state<typename Z::Vector>(gen, 3.0);
    CHECK(relative_error(rnea(z, q, q, q, fz), rnea(r, q, q, q, fr)) < 1e-12);
    // a Revolute chain's link frames are the file's: nothing to convert
    CHECK(r.link_frame(1).rotation == Eigen::Matrix3d::Identity());
    CHECK_FALSE(z.link_frame(1).rotation == Eigen::Matrix3d::Identity());
  });
}

TEST_CASE("urdf frames: a float chain and a copy keep the file's frames", "[urdf][frames][scalar]") {
  const std::string path = data_dir + "/ur5_robot.urdf";
  const auto z = urdf::load<ChainN<double, 6, RevoluteZ>>(path);
  const auto f = z.cast<float>();
  const auto lf = urdf::load<ChainN<float, 6, RevoluteZ>>(path);
  REQUIRE(f.frames().size() == z.frames().size());
  const Eigen::Matrix<double, 6, 1> q = Eigen::Matrix<double, 6, 1>::LinSpaced(-1.2, 0.9);
  const Transform<double> x = frame_pose(z, q, "tool0");
  CHECK(relative_error(frame_pose(f, q.cast<float>().eval(), "tool0").translation, x.translation) < 1e-5);
  CHECK(relative_error(frame_pose(lf, q.cast<float>().eval(), "tool0").translation, x.translation) < 1e-5);
  CHECK(relative_error(frame_pose(f, q.cast<float>().eval(), 5, Transform<float>::Translation(
                                      Eigen::Vector3f(0, 0.0823f, 0))).translation,
                       x.translation) < 1e-5);
}

TEST_CASE("urdf frames: a payload identified on RevoluteZ and on Revolute comes back in the URDF's link frame",
          "[urdf][frames][identification]") {
  const Payload<double> truth{1.7, Eigen::Vector3d(0.03, 0.12, -0.05),
                              (Eigen::Matrix3d() << 0.02, 0.001, -0.002, 0.001, 0.03, 0.003,
                               -0.002, 0.003, 0.025).finished()};
  with_both<6>(ur5, [&](const auto& z, const auto& r) {
    const auto identify = [&](const auto& bare) {
      using M = std::decay_t<decltype(bare)>;
      using V = typename M::Vector;
      M loaded = bare;
      loaded.set_payload(5, truth);
      PayloadIdentification<M> id(bare, 5);
      std::mt19937 gen(test::kSeed + 709u);
      for (int k = 0; k < 40; ++k) {
        const V q = test::random_state<V>(gen, 3.0), qd = test::random_state<V>(gen, 2.0),
                qdd = test::random_state<V>(gen, 4.0);
        id.add_sample(q, qd, qdd, rnea(loaded, q, qd, qdd));
      }
      const PayloadEstimate<double> all = id.estimate();
      const PayloadEstimate<double> four = id.estimate_mass_and_com(truth.inertia);
      REQUIRE(all.ok());
      REQUIRE(four.ok());
      CHECK(std::abs(all.payload->mass - truth.mass) < 1e-9);
      CHECK(relative_error(all.payload->com, truth.com) < 1e-9);
      CHECK(relative_error(all.payload->inertia, truth.inertia) < 1e-8);
      CHECK(relative_error(four.payload->com, truth.com) < 1e-9);
      CHECK(relative_error(four.payload->inertia, truth.inertia) < 1e-12);
    };
    identify(z);
    identify(r);
  });
}

// --- real robot files: only what the chain uses is checked (issue 13) ------------------------
//
// Fixtures in tests/data/urdf/fixtures, derived from the published files: each loads with the
// expected report and the clean file's numbers. Expected lines are found in the fixture's text
// (not by the parser).

namespace {

const std::string fixture_dir = data_dir + "/fixtures";
using Iiwa = ChainN<double, 7, RevoluteZ>;

/// The 1-based line of the first occurrence of `needle` in `text` (0 if none).
int line_of(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  if (at == std::string::npos) return 0;
  int line = 1;
  for (std::size_t i = 0; i < at; ++i) line += text[i] == '\n';
  return line;
}

/// Checks that the report has exactly one finding of that kind on that element, with that
/// severity and line, whose message holds every fragment.
void expect_finding(const urdf::Report& report, urdf::Diagnostic::Kind kind,
                    urdf::Diagnostic::Severity severity, const std::string& element, int line,
                    std::initializer_list<const char*> fragments) {
  INFO(urdf::to_string(report));
  INFO("expected: " << element << " at line " << line);
  int found = 0;
  for (const urdf::Diagnostic& d : report.diagnostics) {
    if (d.kind != kind || d.element != element) continue;
    ++found;
    CHECK(d.severity == severity);
    CHECK(d.line == line);
    for (const char* fragment : fragments) {
      INFO("expected fragment: " << fragment);
      CHECK(d.message.find(fragment) != std::string::npos);
    }
  }
  CHECK(found == 1);
}

using Kind = urdf::Diagnostic::Kind;
constexpr auto warning = urdf::Diagnostic::Severity::warning;
constexpr auto note = urdf::Diagnostic::Severity::note;

urdf::LoadOptions with(const std::string& tip,
                       urdf::InertiaPolicy policy = urdf::InertiaPolicy::strict) {
  urdf::LoadOptions o;
  o.tip = tip;
  o.inertia = policy;
  return o;
}

}  // namespace

TEST_CASE("urdf real files: the published files load with notes only (what the chain leaves out), no warning",
          "[urdf][report]") {
  const std::string iiwa_text = read_text(data_dir + "/iiwa14_no_collision.urdf");
  const urdf::Description iiwa = urdf::describe(iiwa_text);
  CHECK(iiwa.report.warnings() == 0);
  CHECK(iiwa.report.diagnostics.size() == 1);
  expect_finding(iiwa.report, Kind::base_inertia, note, "link 'iiwa_link_0'",
                 line_of(iiwa_text, "<link name=\"iiwa_link_0\">"),
                 {"fixed to the root link 'base'", "(5 kg) is not part of the chain"});
  CHECK(iiwa.checks.physical_inertia);
  CHECK(iiwa.checks.regular);

  const std::string panda_text = read_text(data_dir + "/panda.urdf");
  const urdf::Description panda = urdf::describe(panda_text, "panda_hand");
  CHECK(panda.report.warnings() == 0);
  CHECK(panda.report.diagnostics.size() == 3);
  expect_finding(panda.report, Kind::base_inertia, note, "link 'panda_link0'",
                 line_of(panda_text, "<link name=\"panda_link0\">"),
                 {"the root link is the base", "(0.629769 kg)"});
  expect_finding(panda.report, Kind::off_chain, note, "joint 'panda_finger_joint1'",
                 line_of(panda_text, "<joint name=\"panda_finger_joint1\""),
                 {"prismatic joint off the chain from link 'panda_link0' to link 'panda_hand'",
                  "left out, with link 'panda_leftfinger' (line 253)"});
  expect_finding(panda.report, Kind::off_chain, note, "joint 'panda_finger_joint2'",
                 line_of(panda_text, "<joint name=\"panda_finger_joint2\""),
                 {"left out, with link 'panda_rightfinger'"});

  const urdf::Description ur5 = urdf::describe(read_text(data_dir + "/ur5_robot.urdf"));
  CHECK(ur5.report.warnings() == 0);
  CHECK(ur5.report.count(Kind::base_inertia) == 1);
  CHECK(ur5.report.diagnostics.size() == 1);

  // a tip in the middle: what lies beyond it is listed
  const urdf::Description to3 = urdf::describe(iiwa_text, "iiwa_link_3");
  expect_finding(to3.report, Kind::off_chain, note, "joint 'iiwa_joint_4'",
                 line_of(iiwa_text, "<joint name=\"iiwa_joint_4\""),
                 {"left out, with 6 links ('iiwa_link_4' (line 170), 'iiwa_link_5'", "and 5 joints among them"});
}

TEST_CASE("urdf real files: a placeholder inertia on the root link is reported and ignored, the numbers are the clean file's",
          "[urdf][report]") {
  const std::string path = fixture_dir + "/iiwa_root_placeholder.urdf";
  const std::string text = read_text(path);
  const Iiwa clean = urdf::load<Iiwa>(data_dir + "/iiwa14_no_collision.urdf");
  for (const auto policy : {urdf::InertiaPolicy::strict, urdf::InertiaPolicy::repair,
                            urdf::InertiaPolicy::accept}) {
    urdf::Report report;
    const Iiwa a = urdf::load<Iiwa>(path, with("", policy), &report);
    CHECK(report.file == path);
    CHECK(report.diagnostics.size() == 2);
    CHECK(report.warnings() == 1);
    const int line = line_of(text, "<link name=\"base\">");
    expect_finding(report, Kind::base_inertia, warning, "link 'base'", line,
                   {"<inertial>: inertia [1e-06 1e-06 1e-06;", "violates the triangle inequality",
                    "ignored (the root link is the base, fixed to the world"});
    expect_finding(report, Kind::base_inertia, note, "link 'iiwa_link_0'",
                   line_of(text, "<link name=\"iiwa_link_0\">"), {"(5 kg) is not part of the chain"});
    // printable: file:line: severity: element: message, one per line
    const std::string printed = urdf::to_string(report);
    CHECK(printed.find(path + ":" + std::to_string(line) + ": warning: link 'base': <inertial>: ") == 0);
    CHECK(std::count(printed.begin(), printed.end(), '\n') == 2);
    CHECK(a.has_dynamics());
    CHECK(a.checks().physical_inertia);
    expect_same_dynamics(a, clean, test::kSeed + 1301, 1e-14);
  }
  // the old entry points load it too (strict, no report); describe_file gives the same report
  expect_same_dynamics(urdf::load<Iiwa>(path), clean, test::kSeed + 1302, 1e-14);
  const urdf::Description d = urdf::describe_file(path);
  CHECK(d.report.file == path);
  CHECK(d.report.diagnostics.size() == 2);
  CHECK(urdf::describe(text).report.file.empty());
}

TEST_CASE("urdf real files: non-physical inertias off the chain are reported and ignored, on the chain they are refused by name",
          "[urdf][report][errors]") {
  const std::string path = fixture_dir + "/iiwa_off_chain_bad_inertia.urdf";
  const std::string text = read_text(path);
  urdf::Report report;
  const Iiwa a = urdf::load<Iiwa>(path, with("iiwa_link_7"), &report);
  CHECK(report.warnings() == 2);
  expect_finding(report, Kind::off_chain, note, "joint 'camera_pan_joint'",
                 line_of(text, "<joint name=\"camera_pan_joint\""),
                 {"revolute joint off the chain from link 'base' to link 'iiwa_link_7'",
                  "left out, with 2 links ('camera_mount'", "'camera_link'", ") and 1 joint among them"});
  expect_finding(report, Kind::off_chain_inertia, warning, "link 'camera_mount'",
                 line_of(text, "<link name=\"camera_mount\">"),
                 {"triangle inequality", "ignored (the link is off the chain",
                  "left out with joint 'camera_pan_joint'"});
  expect_finding(report, Kind::off_chain_inertia, warning, "link 'camera_link'",
                 line_of(text, "<link name=\"camera_link\">"), {"triangle inequality", "ignored"});
  expect_same_dynamics(a, urdf::load<Iiwa>(data_dir + "/iiwa14_no_collision.urdf"),
                       test::kSeed + 1303, 1e-14);
  // without a tip the tree branches at link 3
  expect_parse_error([&] { urdf::load<Iiwa>(path); }, line_of(text, "<link name=\"iiwa_link_3\">"),
                     {"iiwa_off_chain_bad_inertia.urdf", "link 'iiwa_link_3'", "the tree branches",
                      "joint 'iiwa_joint_4'", "joint 'camera_pan_joint'", "name the tip link"});
  // to the camera, the mount is a chain link: its merged body (with the camera fixed to it) is
  // checked, and refused with the file, the line, the parts, the rule and what to do
  const std::string parts =
      "the merged body of this chain link and the links fixed to it ('camera_link' (line " +
      std::to_string(line_of(text, "<link name=\"camera_link\">")) + "))";
  expect_parse_error([&] { urdf::load<ChainN<double, 4, RevoluteZ>>(path, "camera_link"); },
                     line_of(text, "<link name=\"camera_mount\">"),
                     {"iiwa_off_chain_bad_inertia.urdf", "link 'camera_mount'", parts.c_str(),
                      "violates the triangle inequality",
                      "The link is on the chain (joint 'camera_pan_joint'",
                      "correct the file, or load with LoadOptions::inertia = InertiaPolicy::repair",
                      "InertiaPolicy::accept"});
}

TEST_CASE("urdf real files: a placeholder on a link welded to a chain link is reported, the merged body, physical, is used and equals the clean file's",
          "[urdf][report]") {
  const std::string path = fixture_dir + "/iiwa_welded_placeholder.urdf";
  const std::string text = read_text(path);
  urdf::Report report;
  const Iiwa a = urdf::load<Iiwa>(path, urdf::LoadOptions{}, &report);
  CHECK(report.warnings() == 1);
  expect_finding(report, Kind::welded_inertia, warning, "link 'iiwa_link_ee_kuka'",
                 line_of(text, "<link name=\"iiwa_link_ee_kuka\">"),
                 {"its own <inertial> (0.0001 kg): inertia [1e-08 1e-08 1e-08;",
                  "violates the triangle inequality", "fixed to chain link 'iiwa_link_7'",
                  "whose merged body (1.2 kg)", "is physical: used as merged, nothing changed"});
  const Iiwa clean = urdf::load<Iiwa>(data_dir + "/iiwa14_no_collision.urdf");
  CHECK(a.link(6).mass == Approx(1.2).epsilon(1e-15));
  CHECK(relative_error(a.link(6).com, clean.link(6).com) < 1e-14);
  CHECK(relative_error(a.link(6).inertia, clean.link(6).inertia) < 1e-12);
  expect_same_dynamics(a, clean, test::kSeed + 1304, 1e-14);
}

TEST_CASE("urdf real files: floating and planar joints off the path are left out and reported, on the path they are refused by name",
          "[urdf][report][errors]") {
  const std::string path = fixture_dir + "/iiwa_floating_off_path.urdf";
  const std::string text = read_text(path);
  urdf::Report report;
  const Iiwa a = urdf::load<Iiwa>(path, urdf::LoadOptions{}, &report);  // the default leaf
  CHECK(report.warnings() == 0);
  expect_finding(report, Kind::off_chain, note, "joint 'object_joint'",
                 line_of(text, "<joint name=\"object_joint\""),
                 {"floating joint (not supported on a chain) off the chain", "with link 'object'"});
  expect_finding(report, Kind::off_chain, note, "joint 'cart_joint'",
                 line_of(text, "<joint name=\"cart_joint\""),
                 {"planar joint (not supported on a chain) off the chain", "with link 'cart'"});
  expect_same_dynamics(a, urdf::load<Iiwa>(data_dir + "/iiwa14_no_collision.urdf"),
                       test::kSeed + 1305, 1e-14);
  expect_parse_error([&] { urdf::load<ChainN<double, 1, RevoluteZ>>(path, "object"); },
                     line_of(text, "<joint name=\"object_joint\""),
                     {"joint 'object_joint'", "joint type 'floating' is not supported on a chain",
                      "it lies on the path from the root link 'base' to the tip link 'object'",
                      "Name a tip link before it, or make its child link 'object' the root"});
  expect_parse_error([&] { urdf::load<ChainN<double, 1, RevoluteZ>>(path, "cart"); },
                     line_of(text, "<joint name=\"cart_joint\""),
                     {"joint 'cart_joint'", "joint type 'planar' is not supported on a chain"});
}

TEST_CASE("urdf real files: a file without inertials loads for kinematics (has_dynamics false), frame poses and Jacobians equal the clean file's",
          "[urdf][report][kinematics]") {
  using Ur5 = ChainN<double, 6, RevoluteZ>;
  const std::string path = fixture_dir + "/ur5_no_inertials.urdf";
  const std::string text = read_text(path);
  const Ur5 clean = urdf::load<Ur5>(data_dir + "/ur5_robot.urdf");
  CHECK(clean.has_dynamics());
  for (const auto policy : {urdf::InertiaPolicy::strict, urdf::InertiaPolicy::repair,
                            urdf::InertiaPolicy::accept}) {
    urdf::Report report;
    const Ur5 k = urdf::load<Ur5>(path, with("", policy), &report);
    CHECK(report.diagnostics.size() == 1);
    expect_finding(report, Kind::kinematics_only, warning, "robot 'ur5'",
                   line_of(text, "<robot name=\"ur5\">"),
                   {"no link of the chain from link 'world' to link 'wrist_3_link' has mass or inertia",
                    "loaded for kinematics only", "has_dynamics() is false"});
    CHECK_FALSE(k.has_dynamics());
    CHECK_FALSE(k.checks().regular);
    CHECK_FALSE(k.cast<float>().has_dynamics());
    std::mt19937 gen(test::kSeed + 1306);
    for (int s = 0; s < 5; ++s) {
      const Ur5::Vector q = test::random_state<Ur5::Vector>(gen, 3.1);
      for (const char* frame : {"tool0", "ee_link", "wrist_3_link", "forearm_link", "base"}) {
        INFO(frame);
        const Transform<double> x = frame_pose(k, q, frame), y = frame_pose(clean, q, frame);
        CHECK(relative_error(x.rotation, y.rotation) < 1e-14);
        CHECK(relative_error(x.translation, y.translation) < 1e-14);
        for (const auto rf : {ReferenceFrame::world, ReferenceFrame::local}) {
          CHECK(relative_error(jacobian(k, q, frame, rf), jacobian(clean, q, frame, rf)) < 1e-14);
        }
      }
    }
  }
  // the model behind it: ModelChecks::regular off keeps a singular chain, default refuses it
  std::array<Link<double>, 6> massless;
  for (std::size_t i = 0; i < 6; ++i) massless[i] = clean.link(i);
  for (auto& l : massless) {
    l.mass = 0;
    l.inertia.setZero();
  }
  CHECK_THROWS_WITH(Ur5(massless), Catch::Contains("moves no inertia"));
  ModelChecks kinematics;
  kinematics.regular = false;
  CHECK_FALSE(Ur5(massless, default_gravity<double>(), kinematics).has_dynamics());
}

TEST_CASE("urdf real files: continuous joints and a mimic joint on the chain load with the clean file's numbers, the mimic is reported",
          "[urdf][report]") {
  using PandaFinger = Chain<double, RevoluteZ, RevoluteZ, RevoluteZ, RevoluteZ, RevoluteZ,
                            RevoluteZ, RevoluteZ, PrismaticZ>;
  const std::string path = fixture_dir + "/panda_mimic_continuous.urdf";
  const std::string text = read_text(path);
  urdf::Report report;
  const PandaFinger a = urdf::load<PandaFinger>(path, with("panda_rightfinger"), &report);
  CHECK(report.warnings() == 1);
  CHECK(report.diagnostics.size() == 3);
  expect_finding(report, Kind::mimic, warning, "joint 'panda_finger_joint2'",
                 line_of(text, "<mimic joint=\"panda_finger_joint1\""),
                 {"<mimic joint='panda_finger_joint1'> is not modelled",
                  "an independent joint (its own q, qd, qdd and torque)"});
  expect_finding(report, Kind::off_chain, note, "joint 'panda_finger_joint1'",
                 line_of(text, "<joint name=\"panda_finger_joint1\""), {"with link 'panda_leftfinger'"});
  CHECK(report.count(Kind::base_inertia) == 1);
  const PandaFinger clean = urdf::load<PandaFinger>(data_dir + "/panda.urdf", "panda_rightfinger");
  expect_same_dynamics(a, clean, test::kSeed + 1307, 1e-14);
  // continuous: no position limits
  REQUIRE(a.link(6).limits);
  CHECK(a.link(6).limits->lower == -std::numeric_limits<double>::infinity());
  CHECK(a.link(6).limits->upper == std::numeric_limits<double>::infinity());
  CHECK(a.link(6).limits->effort == clean.link(6).limits->effort);
  CHECK(clean.link(6).limits->upper == Approx(2.8973));
}

TEST_CASE("urdf real files: a placeholder inertia on a chain link is refused (strict), repaired by the smallest diagonal shift (repair) or kept (accept), each reported",
          "[urdf][report][errors]") {
  const std::string path = fixture_dir + "/iiwa_chain_placeholder.urdf";
  const std::string text = read_text(path);
  const int line = line_of(text, "<link name=\"iiwa_link_7\">");
  expect_parse_error([&] { urdf::load<Iiwa>(path); }, line,
                     {"iiwa_chain_placeholder.urdf: line ", "link 'iiwa_link_7': <inertial>: inertia [0.0001 0.0001 0.0001;",
                      "violates the triangle inequality of principal moments (I1 + I2 >= I3)",
                      "The link is on the chain (joint 'iiwa_joint_7', line " ,
                      "InertiaPolicy::repair", "InertiaPolicy::accept"});
  expect_parse_error([&] { urdf::describe_file(path); }, line,
                     {"iiwa_chain_placeholder.urdf: line ", "link 'iiwa_link_7'", "triangle inequality"});
  const Eigen::Matrix3d written = Eigen::Matrix3d::Constant(1e-4);
  const Iiwa clean = urdf::load<Iiwa>(data_dir + "/iiwa14_no_collision.urdf");
  std::array<Link<double>, 7> links;
  for (std::size_t i = 0; i < 7; ++i) links[i] = clean.link(i);

  SECTION("repair") {
    urdf::Report report;
    const Iiwa a = urdf::load<Iiwa>(path, with("", urdf::InertiaPolicy::repair), &report);
    CHECK(report.warnings() == 1);
    expect_finding(report, Kind::inertia_repaired, warning, "link 'iiwa_link_7'", line,
                   {"violates the triangle inequality", "repaired (InertiaPolicy::repair): s = 0.0003 kg m^2",
                    "mass and centre of mass unchanged"});
    // independently: the principal moments by Eigen's solver, s = l3 - l1 - l2
    const Eigen::Vector3d l = chaindyn::test::symmetric_eigenvalues(written);
    const double s = l[2] - l[1] - l[0];
    CHECK(s == Approx(3e-4).epsilon(1e-12));
    const Eigen::Matrix3d expected = written + s * Eigen::Matrix3d::Identity();
    CHECK(relative_error(a.link(6).inertia, expected) < 1e-14);
    CHECK(a.link(6).mass == 1.2);
    // the smallest: a shift 0.1 % smaller still breaks the rule, the repaired tensor passes
    CHECK(chaindyn::detail::inertia_problem(written + 0.999 * s * Eigen::Matrix3d::Identity()) != "");
    CHECK(chaindyn::detail::inertia_problem(a.link(6).inertia) == "");
    links[6].inertia = expected;
    expect_same_dynamics(a, Iiwa(links), test::kSeed + 1308, 1e-14);
  }
  SECTION("accept") {
    urdf::Report report;
    const Iiwa a = urdf::load<Iiwa>(path, with("", urdf::InertiaPolicy::accept), &report);
    CHECK(report.warnings() == 1);
    expect_finding(report, Kind::inertia_accepted, warning, "link 'iiwa_link_7'", line,
                   {"violates the triangle inequality", "kept as written (InertiaPolicy::accept)"});
    CHECK(a.link(6).inertia == written);
    CHECK_FALSE(a.checks().physical_inertia);
    CHECK(a.has_dynamics());
    links[6].inertia = written;
    CHECK_THROWS_WITH(Iiwa(links), Catch::Contains("violates the triangle inequality"));
    ModelChecks as_written;
    as_written.physical_inertia = false;
    expect_same_dynamics(a, Iiwa(links, default_gravity<double>(), as_written), test::kSeed + 1309, 1e-14);
    CHECK_FALSE(a.cast<long double>().checks().physical_inertia);
  }
}

TEST_CASE("urdf real files: the repair's principal moments (Smith's closed form) agree with Eigen's solver",
          "[urdf][report]") {
  std::mt19937 gen(test::kSeed + 1310);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < 20; ++k) {
    Eigen::Matrix3d a;
    for (int r = 0; r < 3; ++r) {
      for (int c = r; c < 3; ++c) a(r, c) = a(c, r) = u(gen);
    }
    if (k == 0) a = Eigen::Matrix3d::Constant(0.3);  // a double and a single eigenvalue
    if (k == 1) a = Eigen::Vector3d(0.2, -0.1, 0.5).asDiagonal();
    const Eigen::Vector3d e = chaindyn::test::symmetric_eigenvalues(a);
    CHECK((chaindyn::detail::symmetric_eigen<3>(a).values - e).cwiseAbs().maxCoeff() < 1e-14);
  }
}

TEST_CASE("urdf::load_any: the Panda as a ChainX has the file's joints and frames and the numbers "
          "of ChainN<double, 7, Revolute>",
          "[urdf][chainx]") {
  const std::string path = data_dir + "/panda.urdf";
  const ChainX<double> x = urdf::load_any(path, "panda_hand");
  const auto r = urdf::load<ChainN<double, 7, Revolute>>(path, "panda_hand");
  REQUIRE(x.joint_count() == 7);
  REQUIRE(x.frames().size() == r.frames().size());
  REQUIRE(x.link(6).joint_name == r.link(6).joint_name);
  std::mt19937 gen(test::kSeed + 1701);
  for (int s = 0; s < 3; ++s) {
    const Eigen::VectorXd q = test::random_state<Eigen::VectorXd>(gen, 2.0, 7),
                          qd = test::random_state<Eigen::VectorXd>(gen, 2.0, 7);
    CHECK(relative_error(rnea(x, q, qd, q), rnea(r, q, qd, q)) < 1e-14);
    CHECK(relative_error(crba(x, q), crba(r, q)) < 1e-14);
    CHECK(relative_error(jacobian(x, q, "panda_hand"), jacobian(r, q, "panda_hand")) < 1e-14);
    CHECK(relative_error(frame_pose(x, q, "panda_link3").translation,
                         frame_pose(r, q, "panda_link3").translation) < 1e-14);
  }
  // a file with a prismatic joint: the kinds come from the file
  const std::string xml = R"(<robot name="rp">
    <link name="base"/>
    <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
      <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
    <link name="l1"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
    <joint name="j2" type="prismatic"><parent link="l1"/><child link="l2"/>
      <origin xyz="0 0 0.5"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
    <link name="l2"><inertial><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  </robot>)";
  const ChainX<double> rp = urdf::parse_any(xml);
  REQUIRE(rp.joint_count() == 2);
  REQUIRE(rp.joint(0).kind() == JointKind::revolute);
  REQUIRE(rp.joint(1).kind() == JointKind::prismatic);
  const auto rp_fixed = urdf::parse<Chain<double, Revolute, Prismatic>>(xml);
  const Eigen::Vector2d q(0.3, 0.1), qd(-0.4, 0.2);
  CHECK(relative_error(rnea(rp, q, qd, qd), rnea(rp_fixed, q, qd, qd)) < 1e-14);
  expect_parse_error([] { urdf::parse_any("<robot name='a'><link name='b'/></robot>"); }, 1,
                     {"robot 'a'", "has no moving joint"});
}

TEST_CASE("urdf frames: a frame handle of a double chain works on its cast<float>() and on float "
          "chains of the same type",
          "[urdf][frames][scalar]") {
  const std::string path = data_dir + "/ur5_robot.urdf";
  const auto z = urdf::load<ChainN<double, 6, RevoluteZ>>(path);
  const auto f = z.cast<float>();
  const auto tool0 = z.frame("tool0");  // Frame<double, 6>
  const Eigen::Matrix<double, 6, 1> q = Eigen::Matrix<double, 6, 1>::LinSpaced(-1.2, 0.9);
  const Eigen::Matrix<float, 6, 1> qf = q.cast<float>();
  const Transform<double> x = frame_pose(z, q, tool0);
  CHECK(relative_error(frame_pose(f, qf, tool0).translation, x.translation) < 1e-5);
  Data<ChainN<float, 6, RevoluteZ>> data;
  CHECK(relative_error(frame_pose(f, data, qf, tool0).translation, x.translation) < 1e-5);
  CHECK(relative_error(jacobian(f, qf, tool0), jacobian(z, q, tool0)) < 1e-5);
  // and the ChainX of the same file, cast to float, with its own handle
  const ChainX<double> xd = urdf::load_any(path);
  const auto handle = xd.frame("tool0");
  const ChainX<float> xf = xd.cast<float>();
  const Eigen::VectorXf qx = qf;
  CHECK(relative_error(frame_pose(xf, qx, handle).translation, x.translation) < 1e-5);
}

TEST_CASE("urdf: a wrong tip names the closest links, or says the name is a joint's",
          "[urdf][boundary]") {
  const std::string path = std::string(CHAINDYN_URDF_DATA_DIR) + "/ur5_robot.urdf";
  CHECK_THROWS_WITH(urdf::load_any(path, "tool"),
                    Catch::Matchers::Contains("the tip link 'tool' is not defined; the closest "
                                              "link names: 'tool0'"));
  CHECK_THROWS_WITH(urdf::load_any(path, "wrist_3_joint"),
                    Catch::Matchers::Contains("it is the name of a joint") &&
                        Catch::Matchers::Contains("child link 'wrist_3_link'"));
}

TEST_CASE("urdf: inertia rounding noise loads and an axis whose squared norm overflows is a "
          "direction", "[urdf][boundary]") {
  const auto one_link = [](const std::string& inertia, const std::string& axis) {
    return "<robot name='r'><link name='base'/><link name='arm'><inertial><mass value='0.5'/>"
           "<origin xyz='0.1 0 0'/><inertia " + inertia + "/></inertial></link>"
           "<joint name='j' type='revolute'><parent link='base'/><child link='arm'/>"
           "<axis xyz='" + axis + "'/><limit lower='-1' upper='1' effort='1' velocity='1'/>"
           "</joint></robot>";
  };
  const std::string zero_but = "ixy='0' iyy='0' iyz='0' izz='0'";
  CHECK_NOTHROW(urdf::parse_any(one_link("ixx='-5.4e-20' ixz='0' " + zero_but, "0 0 1")));
  CHECK_NOTHROW(urdf::parse_any(one_link("ixx='0' ixz='2.4e-35' " + zero_but, "0 0 1")));
  CHECK_THROWS_AS(urdf::parse_any(one_link("ixx='-1e-3' ixz='0' " + zero_but, "0 0 1")),
                  ModelError);
  const ChainX<double> arm = urdf::parse_any(
      one_link("ixx='1e-3' ixz='0' ixy='0' iyy='1e-3' iyz='0' izz='1e-3'", "1e300 1e300 0"));
  CHECK(arm.joint_count() == 1);  // before: the axis normalised to zero, refused as "moves no inertia"
}

// --- whole trees (urdf::load_tree) ----------------------------------------------------------

namespace {

/// Identities on a loaded tree at seeded random states: aba inverts rnea, forward dynamics by
/// the sparse factorization equals aba, M's columns from rnea, 1/2 qd^T M qd = T, M's zero
/// pattern (M_ij = 0 exactly when neither of i, j supports the other).
void expect_tree_identities(const TreeX<double>& tree, std::uint32_t seed) {
  const Eigen::Index n = Eigen::Index(tree.joint_count());
  std::mt19937 gen(seed);
  for (int s = 0; s < 3; ++s) {
    const Eigen::VectorXd q = test::random_state<Eigen::VectorXd>(gen, 2.5, n),
                          qd = test::random_state<Eigen::VectorXd>(gen, 1.5, n),
                          qdd = test::random_state<Eigen::VectorXd>(gen, 3.0, n);
    const Eigen::VectorXd tau = rnea(tree, q, qd, qdd);
    const Eigen::MatrixXd M = crba(tree, q);
    const Eigen::VectorXd h = rnea(tree, q, qd, Eigen::VectorXd::Zero(n));
    const double scale = std::max(1.0, qdd.cwiseAbs().maxCoeff());
    CHECK((aba(tree, q, qd, tau) - qdd).cwiseAbs().maxCoeff() / scale < 1e-9);
    CHECK((forward_dynamics_crba(tree, q, qd, tau) - qdd).cwiseAbs().maxCoeff() / scale < 1e-9);
    CHECK(relative_error(Eigen::VectorXd(M * qdd + h), tau) < 1e-12);
    CHECK(std::abs(0.5 * qd.dot(M * qd) - kinetic_energy(tree, q, qd)) <
          1e-12 * std::max(1.0, kinetic_energy(tree, q, qd)));
    for (std::size_t i = 0; i < std::size_t(n); ++i) {
      for (std::size_t j = 0; j < std::size_t(n); ++j) {
        const bool related = tree.supports(i, j) || tree.supports(j, i);
        INFO("M(" << i << ", " << j << ")");
        if (!related) CHECK(M(Eigen::Index(i), Eigen::Index(j)) == 0.0);
        if (i == j) CHECK(M(Eigen::Index(i), Eigen::Index(j)) > 0.0);
      }
    }
  }
}

/// The tree's poses and world Jacobians of `frames` against the chain `chain` (loaded to one
/// leaf), whose joint k is the tree's joint `index[k]`: the tree's other columns are zero.
void expect_tree_kinematics_of_chain(const TreeX<double>& tree, const ChainX<double>& chain,
                                     const std::vector<std::size_t>& index,
                                     const std::vector<std::string>& frames, std::uint32_t seed) {
  REQUIRE(chain.joint_count() == index.size());
  std::mt19937 gen(seed);
  const Eigen::Index n = Eigen::Index(tree.joint_count());
  for (int s = 0; s < 3; ++s) {
    const Eigen::VectorXd q = test::random_state<Eigen::VectorXd>(gen, 2.5, n);
    Eigen::VectorXd qc(Eigen::Index(index.size()));
    for (std::size_t k = 0; k < index.size(); ++k) qc[Eigen::Index(k)] = q[Eigen::Index(index[k])];
    for (const std::string& f : frames) {
      INFO("frame " << f);
      const Transform<double> a = frame_pose(tree, q, f), b = frame_pose(chain, qc, f);
      CHECK(relative_error(a.translation, b.translation) < 1e-14);
      CHECK(relative_error(a.rotation, b.rotation) < 1e-14);
      const Eigen::MatrixXd J = jacobian(tree, q, f), Jc = jacobian(chain, qc, f);
      Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(6, n);
      for (std::size_t k = 0; k < index.size(); ++k) {
        expected.col(Eigen::Index(index[k])) = Jc.col(Eigen::Index(k));
      }
      CHECK(relative_error(J, expected) < 1e-14);
    }
  }
}

const char* const tree_arms = R"(<robot name="arms">
  <link name="base"/>
  <link name="torso"><inertial><mass value="5"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="left"><inertial><origin xyz="0.1 0 0"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="right"><inertial><origin xyz="0.1 0 0"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="torso_joint" type="continuous"><parent link="base"/><child link="torso"/><axis xyz="0 0 1"/></joint>
  <joint name="left_joint" type="revolute"><parent link="torso"/><child link="left"/>
    <origin xyz="0 0.2 0.5"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="right_joint" type="revolute"><parent link="torso"/><child link="right"/>
    <origin xyz="0 -0.2 0.5"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>)";

}  // namespace

TEST_CASE("urdf::load_tree: the Panda loads whole (arm and both fingers), with name maps, "
          "frames, the mimic reported, and the chains' kinematics",
          "[urdf][trees]") {
  const std::string path = data_dir + "/panda.urdf";
  urdf::Report report;
  const TreeX<double> tree = urdf::load_tree(path, {}, &report);
  REQUIRE(tree.joint_count() == 9);
  CHECK(tree.parents() == std::vector<std::size_t>{no_parent, 0, 1, 2, 3, 4, 5, 6, 6});
  CHECK(tree.joint_index("panda_finger_joint1") == 7);
  CHECK(tree.joint_index("panda_finger_joint2") == 8);
  CHECK(tree.link_index("panda_rightfinger") == 8);
  CHECK(tree.joint(7).kind() == JointKind::prismatic);
  CHECK(tree.has_dynamics());
  CHECK(tree.frame("panda_hand").link() == 6);
  CHECK(tree.frame("panda_link0").on_base());
  CHECK_THROWS_AS(tree.frame("no_such_link"), IndexError);
  expect_finding(report, Kind::mimic, warning, "joint 'panda_finger_joint2'", 348,
                 {"<mimic joint='panda_finger_joint1'>", "independent joint"});
  CHECK(report.file == path);
  CHECK(report.warnings() == 1);
  expect_tree_identities(tree, test::kSeed + 1901);
  // each finger's chain (the chain loader) gives the tree's poses and Jacobians
  expect_tree_kinematics_of_chain(tree, urdf::load_any(path, "panda_leftfinger"),
                                  {0, 1, 2, 3, 4, 5, 6, 7},
                                  {"panda_leftfinger", "panda_hand", "panda_link3"},
                                  test::kSeed + 1902);
  expect_tree_kinematics_of_chain(tree, urdf::load_any(path, "panda_rightfinger"),
                                  {0, 1, 2, 3, 4, 5, 6, 8}, {"panda_rightfinger", "panda_hand_tcp"},
                                  test::kSeed + 1903);
  // a file that is a chain loads as the chain it is
  const TreeX<double> iiwa = urdf::load_tree(data_dir + "/iiwa14_no_collision.urdf");
  const ChainX<double> iiwa_chain = urdf::load_any(data_dir + "/iiwa14_no_collision.urdf");
  CHECK(iiwa.parents() == std::vector<std::size_t>{no_parent, 0, 1, 2, 3, 4, 5});
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(7, -1.0, 1.2);
  CHECK(relative_error(rnea(iiwa, q, q, q), rnea(iiwa_chain, q, q, q)) < 1e-14);
  CHECK(relative_error(crba(iiwa, q), crba(iiwa_chain, q)) < 1e-14);
}

TEST_CASE("urdf::load_tree: Baxter (two arms and grippers on a torso) and the Allegro hand "
          "(four fingers on a palm) load whole, and each arm and finger is its chain",
          "[urdf][trees]") {
  const std::string baxter_path = data_dir + "/baxter.urdf";
  urdf::Report report;
  const TreeX<double> baxter = urdf::load_tree(baxter_path, {}, &report);
  REQUIRE(baxter.joint_count() == 19);
  CHECK(baxter.parent(baxter.joint_index("left_s0")) == no_parent);
  CHECK(baxter.parent(baxter.joint_index("l_gripper_r_finger_joint")) ==
        baxter.joint_index("left_w2"));
  CHECK(report.count(Kind::mimic) == 2);
  CHECK(report.warnings() == 2);
  expect_tree_identities(baxter, test::kSeed + 1911);
  std::vector<std::size_t> left;
  for (const char* j : {"left_s0", "left_s1", "left_e0", "left_e1", "left_w0", "left_w1",
                        "left_w2", "l_gripper_l_finger_joint"}) {
    left.push_back(baxter.joint_index(j));
  }
  expect_tree_kinematics_of_chain(baxter, urdf::load_any(baxter_path, "l_gripper_l_finger_tip"),
                                  left, {"l_gripper_l_finger_tip", "left_gripper", "left_hand_camera_link"},
                                  test::kSeed + 1912);

  // the published Allegro hand's inertias break the triangle inequality: strict refuses the
  // file by name, accept keeps them (reported)
  const std::string hand_path = data_dir + "/allegro_right_hand.urdf";
  expect_parse_error([&] { urdf::load_tree(hand_path); }, 71,
                     {"link 'link_1.0'", "triangle inequality", "The link is in the tree"});
  urdf::TreeLoadOptions accept;
  accept.inertia = urdf::InertiaPolicy::accept;
  const TreeX<double> hand = urdf::load_tree(hand_path, accept, &report);
  REQUIRE(hand.joint_count() == 16);
  CHECK(hand.parents() == std::vector<std::size_t>{no_parent, 0, 1, 2, no_parent, 4, 5, 6,
                                                   no_parent, 8, 9, 10, no_parent, 12, 13, 14});
  CHECK(report.count(Kind::inertia_accepted) == 9);  // and 4 merged with their fingertips
  CHECK(report.count(Kind::welded_inertia) == 4);
  expect_tree_identities(hand, test::kSeed + 1913);
  urdf::LoadOptions chain_accept;
  chain_accept.inertia = urdf::InertiaPolicy::accept;
  chain_accept.tip = "link_15.0_tip";
  expect_tree_kinematics_of_chain(hand, urdf::load_any(hand_path, chain_accept), {12, 13, 14, 15},
                                  {"link_15.0_tip", "link_13.0"}, test::kSeed + 1914);
}

TEST_CASE("urdf::load_tree: fingers without <inertial> load under each MasslessPolicy",
          "[urdf][trees]") {
  const std::string path = data_dir + "/fixtures/arm_massless_fingers.urdf";
  // kinematics (default): kept, reported, has_dynamics() false; rnea and crba are exact
  urdf::Report report;
  const TreeX<double> kin = urdf::load_tree(path, {}, &report);
  REQUIRE(kin.joint_count() == 4);
  CHECK_FALSE(kin.has_dynamics());
  expect_finding(report, Kind::massless_joint, warning, "joint 'finger_left_joint'", 32,
                 {"moves no mass along its axis", "MasslessPolicy::kinematics", "has_dynamics()"});
  expect_finding(report, Kind::massless_joint, warning, "joint 'finger_right_joint'", 36,
                 {"moves no mass along its axis"});
  // armature: regular, every algorithm runs; tau gains armature * qdd on the fingers
  urdf::TreeLoadOptions with_armature;
  with_armature.massless = urdf::MasslessPolicy::armature;
  with_armature.armature = 0.01;
  const TreeX<double> arm = urdf::load_tree(path, with_armature, &report);
  CHECK(arm.has_dynamics());
  CHECK(arm.armature() == Eigen::Vector4d(0, 0, 0.01, 0.01));
  expect_finding(report, Kind::massless_joint, warning, "joint 'finger_left_joint'", 32,
                 {"given the armature 0.01 kg", "MasslessPolicy::armature"});
  expect_tree_identities(arm, test::kSeed + 1921);
  const Eigen::Vector4d q(0.3, -0.4, 0.01, 0.02), qd(0.5, 0.2, -0.1, 0.1), qdd(1, -2, 3, -4);
  CHECK(relative_error(rnea(arm, q, qd, qdd),
                       Eigen::Vector4d(rnea(kin, q, qd, qdd) + 0.01 * Eigen::Vector4d(0, 0, 3, -4))) < 1e-14);
  CHECK(relative_error(crba(kin, q), crba(arm, q) - Eigen::Vector4d(0, 0, 0.01, 0.01).asDiagonal().toDenseMatrix()) < 1e-14);
  // refuse: the first such joint, by name
  urdf::TreeLoadOptions refuse;
  refuse.massless = urdf::MasslessPolicy::refuse;
  expect_parse_error([&] { urdf::load_tree(path, refuse); }, 32,
                     {"joint 'finger_left_joint'", "moves no mass", "MasslessPolicy::armature"});
  urdf::TreeLoadOptions no_armature = with_armature;
  no_armature.armature = 0.0;
  expect_parse_error([&] { urdf::load_tree(path, no_armature); }, 5,
                     {"robot 'arm_massless_fingers'", "armature > 0"});
  // the whole robot without any <inertial>: kinematics, each joint reported
  const TreeX<double> ur5 = urdf::load_tree(data_dir + "/fixtures/ur5_no_inertials.urdf", {}, &report);
  CHECK_FALSE(ur5.has_dynamics());
  CHECK(report.count(Kind::massless_joint) == 6);
}

TEST_CASE("urdf::load_tree: bad trees are refused by name, floating and planar joints are left "
          "out and reported",
          "[urdf][trees][errors]") {
  expect_parse_error([] { urdf::parse_tree(edited("<parent link=\"l1\"/>", "<parent link=\"l9\"/>")); },
                     19, {"joint 'j2'", "parent link 'l9' is not defined"});
  expect_parse_error([] { urdf::parse_tree(edited("<child link=\"l3\"/>", "<child link=\"l1\"/>")); },
                     33, {"link 'l1' has two parent joints"});
  expect_parse_error([] { urdf::parse_tree(edited("<parent link=\"l1\"/>", "<parent link=\"l2\"/>")); },
                     19, {"joints form a cycle"});
  expect_parse_error(
      [] {
        urdf::parse_tree(edited("<link name=\"base\"/>", "<link name=\"base\"/>\n  <link name=\"stray\"/>"));
      },
      2, {"robot 'three'", "no single root"});
  expect_parse_error([] { urdf::parse_tree("<robot name='a'><link name='b'/></robot>"); }, 1,
                     {"robot 'a'", "has no revolute, continuous or prismatic joint"});
  expect_parse_error([] { urdf::load_tree(data_dir + "/no_such_file.urdf"); }, 0,
                     {"no_such_file.urdf: cannot open the file"});
  urdf::Report report;
  const std::string path = data_dir + "/fixtures/iiwa_floating_off_path.urdf";
  const TreeX<double> iiwa = urdf::load_tree(path, {}, &report);
  CHECK(iiwa.joint_count() == 7);
  CHECK(report.count(Kind::off_chain) == 2);
  CHECK(report.warnings() == 0);
  // the three-joint file: a chain, whichever loader
  const TreeX<double> three = urdf::parse_tree(three_joints);
  CHECK(three.parents() == std::vector<std::size_t>{no_parent, 0, 1});
}

TEST_CASE("urdf::load_tree<Tree<...>>: a compile-time tree of the file's parents and kinds has "
          "the TreeX's links, another shape is refused by name",
          "[urdf][trees]") {
  using Arms = Tree<double, Parents<-1, 0, 0>, RevoluteZ, RevoluteZ, RevoluteZ>;
  const Arms fixed = urdf::parse_tree<Arms>(tree_arms);
  const TreeX<double> any = urdf::parse_tree(tree_arms);
  const urdf::TreeDescription d = urdf::describe_tree(tree_arms);
  CHECK(urdf::tree_type_name(d) ==
        "chaindyn::Tree<double, chaindyn::Parents<-1, 0, 0>, chaindyn::RevoluteZ, "
        "chaindyn::RevoluteZ, chaindyn::RevoluteZ>");
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(fixed.link(i).placement.rotation == any.link(i).placement.rotation);
    CHECK(fixed.link(i).placement.translation == any.link(i).placement.translation);
    CHECK(fixed.link(i).com == any.link(i).com);
    CHECK(fixed.link(i).inertia == any.link(i).inertia);
  }
  // (its algorithms: tests/urdf2cpp, on the Panda's generated Tree type)
  CHECK(fixed.frame("left").link() == 1);
  CHECK(fixed.parent(2) == 0);
  expect_parse_error(
      [] { urdf::parse_tree<Tree<double, Parents<-1, 0, 1>, RevoluteZ, RevoluteZ, RevoluteZ>>(tree_arms); },
      9, {"joint 'right_joint'", "joint 2's parent in the file is joint 0 ('torso_joint'), in the model type joint 1"});
  expect_parse_error([] { urdf::parse_tree<ChainN<double, 2, RevoluteZ>>(tree_arms); }, 1,
                     {"robot 'arms'", "has 3 moving joints but the model type has 2"});
  expect_parse_error(
      [] { urdf::parse_tree<Tree<double, Parents<-1, 0, 0>, RevoluteZ, PrismaticZ, RevoluteZ>>(tree_arms); },
      7, {"joint 'left_joint'", "a revolute joint given for joint 1"});
}

namespace {

// A body on a free-flying base (world -floating-> body, a plate fixed 0.5 m above it), one arm
// on the body and one on the plate.
const char* const floating_arms = R"(<robot name="floating_arms">
  <link name="world"><inertial><mass value="7"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="free" type="floating"><parent link="world"/><child link="body"/><origin xyz="0 0 1"/></joint>
  <link name="body"><inertial><mass value="4"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.3"/></inertial></link>
  <link name="plate"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="plate_joint" type="fixed"><parent link="body"/><child link="plate"/><origin xyz="0 0 0.5"/></joint>
  <link name="left"><inertial><origin xyz="0.1 0 0"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.02"/></inertial></link>
  <link name="right"><inertial><origin xyz="0 0.1 0"/><mass value="2"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.02"/></inertial></link>
  <joint name="left_joint" type="revolute"><parent link="body"/><child link="left"/>
    <origin xyz="0 0.2 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="right_joint" type="continuous"><parent link="plate"/><child link="right"/>
    <origin xyz="0 -0.2 0" rpy="0.3 0 0"/><axis xyz="1 0 0"/></joint>
</robot>)";

/// floating_arms with its first `skip` lines after <robot> (the world and the floating joint)
/// left out: the same robot with `body` as the root link.
std::string without_lines(const std::string& xml, int from, int count) {
  std::istringstream in(xml);
  std::string line, out;
  for (int k = 1; std::getline(in, line); ++k) {
    if (k < from || k >= from + count) out += line + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("urdf::load_floating: a floating joint at the root, or the root link made the base, "
          "with a base body that merges the links fixed to it",
          "[urdf][floating]") {
  using Robot = FloatingBase<TreeX<double>>;
  urdf::Report report;
  const Robot robot = urdf::parse_floating(floating_arms, {}, &report);
  const urdf::FloatingDescription d = urdf::describe_floating(floating_arms);
  CHECK(d.base_link == "body");
  CHECK(d.base_joint == "free");
  CHECK(d.tree.root_link == "body");
  REQUIRE(robot.joint_count() == 2);
  CHECK(robot.tree().joint_index("right_joint") == 0);  // depth-first: the plate comes first
  CHECK(robot.tree().joint_index("left_joint") == 1);
  CHECK(robot.tree().frame("plate").on_base());
  // the base body by hand: 4 kg at the origin + 1 kg at z = 0.5 -> 5 kg at z = 0.1; about that
  // centre, the parallel-axis terms m d^2 on x and y: 4 (0.1)^2 and 1 (0.4)^2
  const Eigen::Vector3d com(0.0, 0.0, 0.1);
  const Eigen::Matrix3d inertia =
      Eigen::Vector3d(0.1 + 0.04 + 0.01 + 0.16, 0.2 + 0.04 + 0.01 + 0.16, 0.3 + 0.01).asDiagonal();
  CHECK(d.base_body.mass == 5.0);
  CHECK((d.base_body.com - com).norm() < 1e-15);
  CHECK((d.base_body.inertia - inertia).norm() < 1e-15);
  // the world's inertia and the floating joint's origin are reported, not used
  expect_finding(report, Kind::floating_base, note, "link 'world'", 2,
                 {"is the world", "7 kg", "not part of the model"});
  expect_finding(report, Kind::floating_base, note, "joint 'free'", 3,
                 {"<origin> is not used", "pose of link 'body' in the world frame"});

  // the same robot by hand: the base body above, the tree of the file rooted at `body`
  Link<double> body;
  body.name = "body";
  body.mass = 5.0;
  body.com = com;
  body.inertia = inertia;
  const std::string rooted = without_lines(floating_arms, 2, 2);
  const Robot by_hand(body, urdf::parse_tree(rooted));
  std::mt19937 gen(test::kSeed + 2101);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 3; ++trial) {
    const Robot::ConfigVector q = random_configuration(robot, gen);
    Robot::TangentVector v(8), a(8);
    for (int k = 0; k < 8; ++k) v[k] = normal(gen), a[k] = normal(gen);
    CHECK(relative_error(crba(robot, q), crba(by_hand, q)) < 1e-15);
    CHECK(relative_error(rnea(robot, q, v, a), rnea(by_hand, q, v, a)) < 1e-15);
  }

  // a file without a floating joint: its root link is the base (Baxter: 'base' and the links
  // fixed to it); every mass of the file is on the base body or on a link of the tree
  const std::string baxter = data_dir + "/baxter.urdf";
  const Robot floating_baxter = urdf::load_floating(baxter);
  const urdf::FloatingDescription bd = urdf::describe_floating(
      urdf::detail::read_file(baxter));
  CHECK(bd.base_link == "base");
  CHECK(bd.base_joint.empty());
  const TreeX<double> fixed_baxter = urdf::load_tree(baxter);
  REQUIRE(floating_baxter.joint_count() == fixed_baxter.joint_count());
  double file_mass = 0.0, model_mass = bd.base_body.mass;
  for (const urdf::LinkRecord& r : urdf::detail::read_document(urdf::detail::read_file(baxter)).links) {
    file_mass += r.mass;
  }
  for (std::size_t i = 0; i < floating_baxter.joint_count(); ++i) {
    model_mass += floating_baxter.tree().link(i).mass;
  }
  CHECK(std::abs(model_mass - file_mass) < 1e-12 * file_mass);
  // held still, the base is the fixed-base tree: the joint torques are load_tree's
  const Eigen::VectorXd qj = Eigen::VectorXd::LinSpaced(fixed_baxter.joint_count(), -0.8, 0.9);
  Robot::ConfigVector q = floating_baxter.neutral();
  q.tail(qj.size()) = qj;
  Robot::TangentVector v = Robot::TangentVector::Zero(floating_baxter.nv_size());
  Robot::TangentVector a = v;
  v.tail(qj.size()) = 0.5 * qj;
  a.tail(qj.size()) = -qj;
  const Eigen::VectorXd tau = rnea(floating_baxter, q, v, a);
  const Eigen::VectorXd tau_fixed =
      rnea(fixed_baxter, qj, Eigen::VectorXd(0.5 * qj), Eigen::VectorXd(-qj));
  CHECK(relative_error(Eigen::VectorXd(tau.tail(qj.size())), tau_fixed) < 1e-13);
}

TEST_CASE("urdf::load_floating: bad bases are refused by name, and load_tree points a floating "
          "file to it",
          "[urdf][floating]") {
  const std::string xml = floating_arms;
  const auto replaced = [](std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  // the root link holds another joint besides the floating one (line 3)
  const std::string two = replaced(
      xml, "<joint name=\"free\"",
      "<link name=\"pole\"/><joint name=\"pole_joint\" type=\"fixed\"><parent link=\"world\"/>"
      "<child link=\"pole\"/></joint>\n  <joint name=\"free\"");
  expect_parse_error([&] { urdf::parse_floating(two); }, 3,
                     {"joint 'pole_joint'", "holds the floating joint 'free' and this joint too"});
  // a base without mass: neither the body nor the plate fixed to it has an <inertial>
  std::string massless = without_lines(without_lines(xml, 5, 1), 4, 1);
  massless = replaced(massless, "<joint name=\"plate_joint\"",
                      "<link name=\"body\"/><link name=\"plate\"/>\n  <joint name=\"plate_joint\"");
  expect_parse_error([&] { urdf::parse_floating(massless); }, -1,
                     {"link 'body'", "the base link has no <inertial>"});
  // a base body whose inertia is not physical, refused unless the policy says otherwise
  const std::string bad = replaced(xml, "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.2\"",
                                   "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.9\"");
  expect_parse_error([&] { urdf::parse_floating(bad); }, 4,
                     {"link 'body'", "the floating base body", "triangle"});
  urdf::TreeLoadOptions repair;
  repair.inertia = urdf::InertiaPolicy::repair;
  urdf::Report report;
  const FloatingBase<TreeX<double>> repaired = urdf::parse_floating(bad, repair, &report);
  expect_finding(report, Kind::inertia_repaired, warning, "link 'body'", 4,
                 {"the floating base body", "repaired"});
  CHECK(repaired.joint_count() == 2);
  // an inertia kept as written (InertiaPolicy::accept) that is not positive definite: a free
  // body cannot move under it (ixx of the body and the plate together: -0.5 + 0.01 + 0.2 < 0)
  urdf::TreeLoadOptions accept;
  accept.inertia = urdf::InertiaPolicy::accept;
  const std::string negative = replaced(xml, "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.2\"",
                                        "ixx=\"-0.5\" ixy=\"0\" ixz=\"0\" iyy=\"0.2\"");
  expect_parse_error([&] { urdf::parse_floating(negative, accept); }, 4,
                     {"link 'body'", "the floating base body", "is not positive definite"});
  // a positive diagonal with a product of inertia too large for it (the 2 x 2 minor:
  // 0.31 * 0.41 - 0.5^2 < 0)
  const std::string sheared = replaced(xml, "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.2\"",
                                       "ixx=\"0.1\" ixy=\"0.5\" ixz=\"0\" iyy=\"0.2\"");
  expect_parse_error([&] { urdf::parse_floating(sheared, accept); }, 4,
                     {"link 'body'", "the floating base body", "is not positive definite"});
  // a planar joint at the root: load_planar's
  expect_parse_error(
      [&] { urdf::parse_floating(replaced(xml, "type=\"floating\"", "type=\"planar\"")); }, 3,
      {"joint 'free'", "a planar joint at the root", "urdf::load_planar"});
  expect_parse_error([&] { urdf::parse_planar(xml); }, 3,
                     {"joint 'free'", "a floating joint at the root", "urdf::load_floating"});
  // the fixed-base tree loader refuses the file and names load_floating
  expect_parse_error([&] { urdf::parse_tree(xml); }, 1,
                     {"has no revolute, continuous or prismatic joint", "joint 'free' is floating",
                      "urdf::load_floating"});
}

namespace {

/// The iiwa's file with a <chaindyn:elastic> element in each revolute joint (joint i:
/// stiffness 1000 (i + 1), damping 2, rotor inertia 0.1 (i + 1)), `skip` leaving one out.
std::string elastic_iiwa(int skip = -1, const std::string& stiffness_of_3 = "") {
  std::string xml = read_text(data_dir + "/iiwa14_no_collision.urdf");
  std::size_t at = 0;
  for (int i = 0;; ++i) {
    at = xml.find("type=\"revolute\">", at);
    if (at == std::string::npos) break;
    at = xml.find("</joint>", at);
    const std::string k = i == 3 && !stiffness_of_3.empty() ? stiffness_of_3
                                                             : std::to_string(1000 * (i + 1));
    const std::string element = "<chaindyn:elastic stiffness=\"" + k +
                                "\" damping=\"2\" rotor_inertia=\"" +
                                std::to_string(0.1 * (i + 1)) + "\"/>";
    if (i != skip) xml.insert(at, element);
    at += element.size() + 8;
  }
  return xml;
}

}  // namespace

TEST_CASE("urdf::load_elastic: <chaindyn:elastic> gives each joint's spring by joint name, a "
          "joint without one is rigid, a bad value and a model of another file are refused by name",
          "[urdf][elastic]") {
  const std::string xml = elastic_iiwa();
  const ChainX<double> any = urdf::parse_any(xml);
  const ElasticJoints<ChainX<double>> e = urdf::parse_elastic(xml, any);
  using Arm = ChainN<double, 7, RevoluteZ>;
  const Arm arm = urdf::parse<Arm>(xml);
  const ElasticJoints<Arm> ea = urdf::parse_elastic(xml, arm);
  for (Eigen::Index i = 0; i < 7; ++i) {
    CHECK(e.stiffness[i] == 1000.0 * double(i + 1));
    CHECK(e.damping[i] == 2.0);
    CHECK(std::abs(e.rotor_inertia[i] - 0.1 * double(i + 1)) < 1e-12);
    CHECK(ea.stiffness[i] == e.stiffness[i]);
  }
  // the chain loaders read the file as before (the element is chaindyn's, ignored by them)
  CHECK(relative_error(rnea(any, Eigen::VectorXd::Constant(7, 0.2), Eigen::VectorXd::Zero(7),
                            Eigen::VectorXd::Zero(7)),
                       rnea(urdf::parse_any(read_text(data_dir + "/iiwa14_no_collision.urdf")),
                            Eigen::VectorXd::Constant(7, 0.2), Eigen::VectorXd::Zero(7),
                            Eigen::VectorXd::Zero(7))) == 0.0);
  // a joint without the element is rigid
  const ElasticJoints<ChainX<double>> mixed = urdf::parse_elastic(elastic_iiwa(2), any);
  CHECK(mixed.rigid(2));
  CHECK(!mixed.rigid(1));
  CHECK(mixed.damping[2] == 0.0);
  CHECK(mixed.rotor_inertia[2] == 0.0);
  CHECK(mixed.stiffness[3] == 4000.0);
  const std::string bad = elastic_iiwa(-1, "-5");
  expect_parse_error([&] { urdf::parse_elastic(bad, any); },
                     line_of(bad, "<chaindyn:elastic stiffness=\"-5\""),
                     {"joint 'iiwa_joint_4'", "stiffness -5 is not positive"});
  const ChainX<double> ur5 = urdf::load_any(data_dir + "/ur5_robot.urdf");
  expect_parse_error([&] { urdf::parse_elastic(xml, ur5); }, -1,
                     {"the model's joint 0 'shoulder_pan_joint' is not in the file"});
}

TEST_CASE("urdf::load_planar: a planar joint at the root, or the root link made the base, gives "
          "a planar base with the same body and tree as by hand",
          "[urdf][floating]") {
  using Robot = PlanarBaseRobot<TreeX<double>>;
  std::string xml = floating_arms;
  xml.replace(xml.find("type=\"floating\""), std::string("type=\"floating\"").size(), "type=\"planar\"");
  urdf::Report report;
  const Robot robot = urdf::parse_planar(xml, {}, &report);
  const urdf::FloatingDescription d = urdf::describe_planar(xml);
  CHECK(d.base_link == "body");
  CHECK(d.base_joint == "free");
  REQUIRE(robot.joint_count() == 2);
  CHECK(robot.nv_size() == 5);
  expect_finding(report, Kind::floating_base, note, "joint 'free'", 3,
                 {"not used", "world's x-y plane"});
  // by hand: floating_arms' base body, the tree of the file rooted at `body`
  const Robot by_hand(urdf::describe_floating(floating_arms).base_body,
                      urdf::parse_tree(without_lines(floating_arms, 2, 2)));
  std::mt19937 gen(test::kSeed + 2102);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 3; ++trial) {
    const Robot::ConfigVector q = random_configuration(robot, gen);
    Robot::TangentVector v(5), a(5);
    for (int k = 0; k < 5; ++k) v[k] = normal(gen), a[k] = normal(gen);
    CHECK(relative_error(crba(robot, q), crba(by_hand, q)) < 1e-15);
    CHECK(relative_error(rnea(robot, q, v, a), rnea(by_hand, q, v, a)) < 1e-15);
  }
  // a file without a planar joint: its root link is the base
  const Robot baxter = urdf::load_planar(data_dir + "/baxter.urdf");
  CHECK(baxter.joint_count() == urdf::load_tree(data_dir + "/baxter.urdf").joint_count());
}
