// DH builders against independent paths: the classic 4x4 DH matrices written out entry by
// entry (Spong/Siciliano's A_i for the standard form, Craig's eq. (3.6) for the modified one),
// hand-computed poses of a planar 3R arm and a SCARA-like RRP arm, the two-link arm's Lagrangian
// closed form, and the same random arm described in both conventions with its bodies placed in
// the base frame (never through the builder's frame conversion).
#include "support/test_support.hpp"
#include "support/two_link.hpp"

#include <chaindyn/builders/dh.hpp>
#include <chaindyn/closed_form.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <string>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

using Row = DHRow<double>;
using Matrix4 = Eigen::Matrix4d;
using chaindyn::test::kPi;

/// Standard DH, written out: Rz(theta) Tz(d) Tx(a) Rx(alpha).
Matrix4 standard_matrix(double a, double alpha, double d, double theta) {
  const double ct = std::cos(theta), st = std::sin(theta), ca = std::cos(alpha),
               sa = std::sin(alpha);
  Matrix4 m;
  m << ct, -st * ca, st * sa, a * ct,  //
      st, ct * ca, -ct * sa, a * st,   //
      0, sa, ca, d,                    //
      0, 0, 0, 1;
  return m;
}

/// Modified DH (Craig eq. 3.6), written out: Rx(alpha) Tx(a) Rz(theta) Tz(d).
Matrix4 modified_matrix(double a, double alpha, double d, double theta) {
  const double ct = std::cos(theta), st = std::sin(theta), ca = std::cos(alpha),
               sa = std::sin(alpha);
  Matrix4 m;
  m << ct, -st, 0, a,                  //
      st * ca, ct * ca, -sa, -sa * d,  //
      st * sa, ct * sa, ca, ca * d,    //
      0, 0, 0, 1;
  return m;
}

Matrix4 homogeneous(const Transform<double>& x) {
  Matrix4 m = Matrix4::Identity();
  m.topLeftCorner<3, 3>() = x.rotation;
  m.topRightCorner<3, 1>() = x.translation;
  return m;
}

/// Frame i of a table at q (0-based i; i = -1 is the base), by the written-out matrices.
template <std::size_t N, typename V>
std::array<Matrix4, N> frames(const std::array<Row, N>& rows, const V& q, bool standard) {
  std::array<Matrix4, N> out;
  Matrix4 x = Matrix4::Identity();
  for (std::size_t i = 0; i < N; ++i) {
    const Row& r = rows[i];
    const bool rev = r.kind == JointKind::revolute;
    const double theta = rev ? r.theta + q[Eigen::Index(i)] : r.theta;
    const double d = rev ? r.d : r.d + q[Eigen::Index(i)];
    x = x * (standard ? standard_matrix(r.a, r.alpha, d, theta)
                      : modified_matrix(r.a, r.alpha, d, theta));
    out[i] = x;
  }
  return out;
}

/// The same mechanism in Craig's form: row i takes a_{i-1}, alpha_{i-1} of the standard
/// table (zero for the first), d_i and theta_i; the last a_n, alpha_n become the tool.
template <std::size_t N>
std::array<Row, N> to_modified(const std::array<Row, N>& standard_rows) {
  std::array<Row, N> out = standard_rows;
  for (std::size_t i = 0; i < N; ++i) {
    out[i].a = i == 0 ? 0.0 : standard_rows[i - 1].a;
    out[i].alpha = i == 0 ? 0.0 : standard_rows[i - 1].alpha;
  }
  return out;
}

Transform<double> tool_of(const Row& last_standard_row) {
  return Transform<double>(dh::rot_x(last_standard_row.alpha),
                           Eigen::Vector3d(last_standard_row.a, 0, 0));
}

/// A random physical body (mass, centre of mass and inertia about it, in some frame).
struct Body {
  double mass;
  Eigen::Vector3d com;
  Eigen::Matrix3d inertia;
};
Body random_body(std::mt19937& gen) {
  const Link<double> l = test::random_link(gen);
  return {l.mass, l.com, l.inertia};
}

/// A body given in the base frame at q = 0, expressed in a frame whose pose at q = 0 is f.
Body in_frame(const Body& b, const Matrix4& f) {
  const Eigen::Matrix3d r = f.topLeftCorner<3, 3>();
  const Eigen::Vector3d p = f.topRightCorner<3, 1>();
  return {b.mass, r.transpose() * (b.com - p), r.transpose() * b.inertia * r};
}

template <typename Model, typename V>
Matrix4 chain_tool(const DHChain<Model>& arm, const V& q) {
  return homogeneous(arm.tool_pose(forward_kinematics(arm.chain, q).back()));
}

double pose_error(const Matrix4& a, const Matrix4& b) { return (a - b).cwiseAbs().maxCoeff(); }

}  // namespace

TEST_CASE("DH: a planar 3R arm's tool pose equals the hand-computed one in both conventions",
          "[dh]") {
  using Arm = ChainN<double, 3, RevoluteZ>;
  const double a1 = 0.7, a2 = 0.5, a3 = 0.3;
  const Eigen::Matrix3d rod = Eigen::Vector3d(1e-4, 0.01, 0.01).asDiagonal();
  const std::array<Row, 3> rows = {
      Row::revolute(a1, 0, 0).with_inertia(2.0, Eigen::Vector3d(-a1 / 2, 0, 0), rod),
      Row::revolute(a2, 0, 0).with_inertia(1.5, Eigen::Vector3d(-a2 / 2, 0, 0), rod),
      Row::revolute(a3, 0, 0).with_inertia(1.0, Eigen::Vector3d(-a3 / 2, 0, 0), rod)};
  const auto standard = dh::standard<Arm>(rows);
  const auto modified = dh::modified<Arm>(to_modified(rows), tool_of(rows[2]));
  std::mt19937 gen(test::kSeed + 701);
  double worst = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const Arm::Vector q = test::random_state<Arm::Vector>(gen, kPi);
    const double t1 = q[0], t12 = q[0] + q[1], t123 = q[0] + q[1] + q[2];
    Matrix4 hand = Matrix4::Identity();
    hand.topLeftCorner<3, 3>() = dh::rot_z(t123);
    hand(0, 3) = a1 * std::cos(t1) + a2 * std::cos(t12) + a3 * std::cos(t123);
    hand(1, 3) = a1 * std::sin(t1) + a2 * std::sin(t12) + a3 * std::sin(t123);
    worst = std::max({worst, pose_error(chain_tool(standard, q), hand),
                      pose_error(chain_tool(modified, q), hand),
                      pose_error(homogeneous(dh::standard_pose(rows, q)), hand),
                      pose_error(homogeneous(dh::modified_pose(to_modified(rows), q,
                                                               tool_of(rows[2]))),
                                 hand)});
  }
  WARN("planar 3R, worst tool pose error vs hand: " << worst);
  CHECK(worst < 1e-12);
}

TEST_CASE("DH: a SCARA-like RRP arm's tool pose equals the hand-computed one", "[dh]") {
  using Arm = Chain<double, RevoluteZ, RevoluteZ, PrismaticZ>;
  // base column d1 high, arms a1 and a2, the second joint's frame flipped (alpha = pi) so the
  // quill slides down; tool pose: x, y of the planar 2R, z = d1 - (d3 + q3), orientation
  // Rz(q1 + q2) Rx(pi).
  const double a1 = 0.4, a2 = 0.3, d1 = 0.5, d3 = 0.1;
  const Eigen::Matrix3d box = Eigen::Vector3d(0.01, 0.02, 0.02).asDiagonal();
  const std::array<Row, 3> rows = {
      Row::revolute(a1, 0, d1).with_inertia(3.0, Eigen::Vector3d(-0.2, 0, 0), box),
      Row::revolute(a2, kPi, 0).with_inertia(2.0, Eigen::Vector3d(-0.15, 0, 0), box),
      Row::prismatic(0, 0, d3).with_inertia(0.5, Eigen::Vector3d(0, 0, -0.05), box)};
  const auto standard = dh::standard<Arm>(rows);
  const auto modified = dh::modified<Arm>(to_modified(rows), tool_of(rows[2]));
  std::mt19937 gen(test::kSeed + 702);
  double worst = 0;
  for (int trial = 0; trial < 50; ++trial) {
    Arm::Vector q = test::random_state<Arm::Vector>(gen, kPi);
    q[2] = test::uniform(gen, 0.0, 0.3);
    Matrix4 hand = Matrix4::Identity();
    hand.topLeftCorner<3, 3>() = dh::rot_z(q[0] + q[1]) * dh::rot_x(kPi);
    hand(0, 3) = a1 * std::cos(q[0]) + a2 * std::cos(q[0] + q[1]);
    hand(1, 3) = a1 * std::sin(q[0]) + a2 * std::sin(q[0] + q[1]);
    hand(2, 3) = d1 - (d3 + q[2]);
    worst = std::max({worst, pose_error(chain_tool(standard, q), hand),
                      pose_error(chain_tool(modified, q), hand),
                      pose_error(homogeneous(dh::standard_pose(rows, q)), hand)});
  }
  WARN("SCARA RRP, worst tool pose error vs hand: " << worst);
  CHECK(worst < 1e-12);
}

TEST_CASE("DH: a standard-DH two-link arm with rods matches the Lagrangian closed form",
          "[dh]") {
  // The rods' centres of mass are at -a_i/2 on x of DH frame i (the frame at the rod's far
  // end): the builder must move them into chaindyn's link frames.
  using Lagrange = closed_form::TwoLinkArm<double>;
  const Lagrange lagrange = test::two_link_rods();
  const auto rod = [](double m, double a) {
    return Row::revolute(a, 0, 0).with_inertia(
        m, Eigen::Vector3d(-a / 2, 0, 0),
        Eigen::Vector3d(0, m * a * a / 12, m * a * a / 12).asDiagonal());
  };
  const auto arm = dh::standard<Lagrange::ChainType>({{rod(3, 2), rod(1, 1)}},
                                                     Transform<double>::Identity(),
                                                     Eigen::Vector3d(0, -9.81, 0));
  std::mt19937 gen(test::kSeed + 703);
  double worst_m = 0, worst_tau = 0;
  for (int trial = 0; trial < 50; ++trial) {
    using V = Lagrange::Vector;
    const V q = test::random_state<V>(gen, kPi), qd = test::random_state<V>(gen, 2),
            qdd = test::random_state<V>(gen, 5);
    worst_m = std::max(worst_m, relative_error(crba(arm.chain, q), lagrange.mass_matrix(q)));
    worst_tau = std::max(worst_tau, relative_error(rnea(arm.chain, q, qd, qdd),
                                                   lagrange.inverse_dynamics(q, qd, qdd)));
  }
  WARN("DH two-link vs closed form: M " << worst_m << ", tau " << worst_tau);
  CHECK(worst_m < 1e-12);
  CHECK(worst_tau < 1e-12);
}

TEST_CASE("DH: one random arm in both conventions has equal tool poses, rnea and crba",
          "[dh]") {
  // Random 6R tables (and random RRP tables below); the bodies are drawn in the base frame at
  // q = 0 and expressed in each convention's frame i by the written-out matrices, so both
  // chains describe the same bodies without the builder's own conversion.
  std::mt19937 gen(test::kSeed + 704);
  double worst_pose = 0, worst_tau = 0, worst_m = 0;
  const auto run = [&](auto model_tag, std::array<Row, decltype(model_tag)::type::nq> rows) {
    using Arm = typename decltype(model_tag)::type;
    using V = typename Arm::Vector;
    constexpr std::size_t n = std::size_t(Arm::nq);
    std::array<Row, n> mod = to_modified(rows);
    const auto std_frames = frames(rows, V::Zero().eval(), true);
    const auto mod_frames = frames(mod, V::Zero().eval(), false);
    for (std::size_t i = 0; i < n; ++i) {
      const Body b = random_body(gen);
      const Body s = in_frame(b, std_frames[i]), m = in_frame(b, mod_frames[i]);
      rows[i] = rows[i].with_inertia(s.mass, s.com, s.inertia);
      mod[i] = mod[i].with_inertia(m.mass, m.com, m.inertia);
      const JointDynamics<double> dyn{0.1 * double(i), 0.05, 0.01 * double(i + 1)};
      rows[i] = rows[i].with_dynamics(dyn);
      mod[i] = mod[i].with_dynamics(dyn);
    }
    const auto a = dh::standard<Arm>(rows);
    const auto b = dh::modified<Arm>(mod, tool_of(rows[n - 1]));
    for (int trial = 0; trial < 20; ++trial) {
      const V q = test::random_state<V>(gen, kPi), qd = test::random_state<V>(gen, 2),
              qdd = test::random_state<V>(gen, 5);
      const Matrix4 expected = frames(rows, q, true)[n - 1];
      worst_pose = std::max({worst_pose, pose_error(chain_tool(a, q), expected),
                             pose_error(chain_tool(b, q), expected),
                             pose_error(frames(mod, q, false)[n - 1] *
                                            homogeneous(tool_of(rows[n - 1])),
                                        expected)});
      worst_tau = std::max(worst_tau, relative_error(rnea(a.chain, q, qd, qdd),
                                                     rnea(b.chain, q, qd, qdd)));
      worst_m = std::max(worst_m, relative_error(crba(a.chain, q), crba(b.chain, q)));
    }
  };
  struct Six {
    using type = ChainN<double, 6, RevoluteZ>;
  };
  struct Rrp {
    using type = Chain<double, RevoluteZ, RevoluteZ, PrismaticZ>;
  };
  for (int table = 0; table < 10; ++table) {
    std::array<Row, 6> six;
    for (Row& r : six) {
      r = Row::revolute(test::uniform(gen, -0.5, 0.5), test::uniform(gen, -kPi, kPi),
                        test::uniform(gen, -0.5, 0.5), test::uniform(gen, -kPi, kPi));
    }
    run(Six{}, six);
    std::array<Row, 3> rrp = {
        Row::revolute(test::uniform(gen, -0.5, 0.5), test::uniform(gen, -kPi, kPi),
                      test::uniform(gen, -0.5, 0.5), test::uniform(gen, -kPi, kPi)),
        Row::revolute(test::uniform(gen, -0.5, 0.5), test::uniform(gen, -kPi, kPi),
                      test::uniform(gen, -0.5, 0.5), test::uniform(gen, -kPi, kPi)),
        Row::prismatic(test::uniform(gen, -0.5, 0.5), test::uniform(gen, -kPi, kPi),
                       test::uniform(gen, -0.5, 0.5), test::uniform(gen, -kPi, kPi))};
    run(Rrp{}, rrp);
  }
  WARN("standard vs modified: tool pose " << worst_pose << ", rnea " << worst_tau << ", crba "
                                          << worst_m);
  CHECK(worst_pose < 1e-12);
  CHECK(worst_tau < 1e-12);
  CHECK(worst_m < 1e-12);
}

TEST_CASE("DH: bad tables throw ModelError naming the row", "[dh][validation]") {
  using Arm = ChainN<double, 2, RevoluteZ>;
  const Eigen::Matrix3d box = Eigen::Vector3d(0.01, 0.02, 0.02).asDiagonal();
  const Row good = Row::revolute(0.3, 0, 0).with_inertia(1, Eigen::Vector3d::Zero(), box);
  const auto message = [](auto&& f) {
    try {
      f();
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  Row bad = good.named("elbow");
  bad.alpha = std::nan("");
  CHECK_THAT(message([&] { dh::standard<Arm>({{good, bad}}); }),
             Catch::Contains("DH row 1 ('elbow')") && Catch::Contains("alpha is not finite"));
  bad = good.named("elbow");
  bad.com.x() = INFINITY;
  CHECK_THAT(message([&] { dh::modified<Arm>({{good, bad}}); }),
             Catch::Contains("DH row 1 ('elbow')") && Catch::Contains("centre of mass"));
  const Row slide = Row::prismatic(0, 0, 0.1).with_inertia(1, Eigen::Vector3d::Zero(), box);
  CHECK_THAT(message([&] { dh::standard<Arm>({{slide.named("quill"), good}}); }),
             Catch::Contains("DH row 0 ('quill')") && Catch::Contains("PrismaticZ"));
  CHECK_THAT(message([&] { dh::modified<Chain<double, RevoluteZ, RevoluteX>>({{good, good}}); }),
             Catch::Contains("DH row 1") && Catch::Contains("fixed x or y axis"));
  // the physics of the resulting link is the chain's check, naming the link
  const Row flat = good.with_inertia(1, Eigen::Vector3d::Zero(),
                                     Eigen::Vector3d(0, 0.35, 0).asDiagonal());
  CHECK_THAT(message([&] { dh::standard<Arm>({{good, flat.named("forearm")}}); }),
             Catch::Contains("link 1 ('forearm')") && Catch::Contains("triangle"));
  // run-time axis joints take the z axis
  CHECK_NOTHROW(dh::standard<ChainN<double, 2, Revolute>>({{good, good}}));
}

TEST_CASE("DH: dh::standard_any and modified_any build the ChainX of the table, equal to the "
          "compile-time chain",
          "[dh][chainx]") {
  using Arm = Chain<double, RevoluteZ, RevoluteZ, PrismaticZ>;
  const Eigen::Matrix3d box = Eigen::Vector3d(0.01, 0.02, 0.02).asDiagonal();
  const std::array<Row, 3> rows = {
      Row::revolute(0.4, 0, 0.5).with_inertia(3.0, Eigen::Vector3d(-0.2, 0, 0), box),
      Row::revolute(0.3, kPi, 0).with_inertia(2.0, Eigen::Vector3d(-0.15, 0, 0), box),
      Row::prismatic(0, 0, 0.1).with_inertia(0.5, Eigen::Vector3d(0, 0, -0.05), box)};
  const std::vector<Row> table(rows.begin(), rows.end());
  const auto fixed = dh::standard<Arm>(rows);
  const auto any = dh::standard_any(table);
  const auto fixed_m = dh::modified<Arm>(rows);
  const auto any_m = dh::modified_any(table);
  REQUIRE(any.chain.joint_count() == 3);
  REQUIRE(any.chain.joint(2).kind() == JointKind::prismatic);
  std::mt19937 gen(test::kSeed + 1703);
  for (int s = 0; s < 3; ++s) {
    const Arm::Vector q = test::random_state<Arm::Vector>(gen, 1.0),
                      qd = test::random_state<Arm::Vector>(gen, 1.0);
    const Eigen::VectorXd qx = q, qdx = qd;
    CHECK(relative_error(rnea(any.chain, qx, qdx, qdx), rnea(fixed.chain, q, qd, qd)) < 1e-14);
    CHECK(relative_error(rnea(any_m.chain, qx, qdx, qdx), rnea(fixed_m.chain, q, qd, qd)) < 1e-14);
    CHECK(pose_error(homogeneous(any.tool_pose(forward_kinematics(any.chain, qx).back())),
                     homogeneous(fixed.tool_pose(forward_kinematics(fixed.chain, q).back()))) <
          1e-14);
  }
  REQUIRE_THROWS_AS(dh::standard_any(std::vector<Row>{}), ModelError);
}
