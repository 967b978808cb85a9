// Frame poses, Jacobians (world and local), Jdot qd and J^T f, on the built-in iiwa and seeded
// random mixed chains, each against an independent path: finite differences of frame_pose, the
// RNEA's link velocities, finite differences of J(q(t)) qd(t) along a path, rnea's external
// wrench input.
#include "support/test_support.hpp"

#include <chaindyn/algorithms/jacobian.hpp>

#include <catch2/catch.hpp>

#include <unsupported/Eigen/AutoDiff>

using namespace chaindyn;
using chaindyn::test::relative_error;
using Vec6 = Eigen::Matrix<double, 6, 1>;

namespace {

using Mixed = Chain<double, PrismaticZ, Revolute, RevoluteX, PrismaticY, RevoluteZ, Prismatic>;

constexpr int kModels = 4;   // random mixed chains
constexpr int kKinematicsStates = 6;   // random states per model

/// A random frame on a link: a tool centre point up to 0.3 m away, turned arbitrarily.
Transform<double> random_frame(std::mt19937& gen) {
  return Transform<double>(test::random_rotation(gen), test::random_vector(gen, -0.3, 0.3));
}

/// Calls f(model, q, qd, qdd, link, frame) on the iiwa and on random mixed chains, every link,
/// random states and frames (seeded).
template <typename F>
void for_cases(F&& f) {
  std::mt19937 gen(test::kSeed + 101u);
  {
    const auto iiwa = robots::kuka_iiwa();
    using V = robots::KukaIiwa<double>::Vector;
    for (int s = 0; s < kKinematicsStates; ++s) {
      const V q = test::random_state<V>(gen, 2.0), qd = test::random_state<V>(gen, 2.0),
              qdd = test::random_state<V>(gen, 2.0);
      const Transform<double> tcp = random_frame(gen);
      for (std::size_t link = 0; link < 7; ++link) {
        INFO("iiwa, state " << s << ", link " << link);
        f(iiwa, q, qd, qdd, link, s == 0 ? Transform<double>::Identity() : tcp);
      }
    }
  }
  for (int m = 0; m < kModels; ++m) {
    const Mixed model(test::random_links<Mixed>(gen));
    using V = Mixed::Vector;
    for (int s = 0; s < kKinematicsStates; ++s) {
      const V q = test::random_state<V>(gen, 2.0), qd = test::random_state<V>(gen, 2.0),
              qdd = test::random_state<V>(gen, 2.0);
      const Transform<double> frame = random_frame(gen);
      for (std::size_t link = 0; link < std::size_t(Mixed::nq); ++link) {
        INFO("mixed chain " << m << ", state " << s << ", link " << link);
        f(model, q, qd, qdd, link, frame);
      }
    }
  }
}

/// log(R) as a rotation vector (angle * axis).
Eigen::Vector3d log3(const Eigen::Matrix3d& r) {
  const Eigen::AngleAxisd aa(r);
  return aa.angle() * aa.axis();
}

Eigen::Matrix<double, 6, 6> rotate6(const Eigen::Matrix3d& r) {
  Eigen::Matrix<double, 6, 6> out = Eigen::Matrix<double, 6, 6>::Zero();
  out.topLeftCorner<3, 3>() = r;
  out.bottomRightCorner<3, 3>() = r;
  return out;
}

}  // namespace

TEST_CASE("frame_pose is the link pose composed with the frame, and the iiwa flange at q = 0",
          "[kinematics]") {
  const auto iiwa = robots::kuka_iiwa();
  const auto zero = robots::KukaIiwa<double>::Vector::Zero().eval();
  const Transform<double> tcp = Transform<double>::Translation(Eigen::Vector3d(0, 0, 0.126));
  const Transform<double> x = frame_pose(iiwa, zero, 6, tcp);
  // q = 0: the arm stands straight up, flange 1.22 m above the base (robots/kuka_iiwa.hpp)
  REQUIRE(relative_error(x.translation, Eigen::Vector3d(0, 0, 1.22 + 0.126)) < 1e-14);
  std::mt19937 gen(test::kSeed);
  const auto q = test::random_state<robots::KukaIiwa<double>::Vector>(gen, 2.0);
  const auto oMi = forward_kinematics(iiwa, q);
  for (std::size_t link = 0; link < 7; ++link) {
    const Transform<double> expected = oMi[link] * tcp;
    const Transform<double> got = frame_pose(iiwa, q, link, tcp);
    REQUIRE(relative_error(got.rotation, expected.rotation) == 0.0);
    REQUIRE(relative_error(got.translation, expected.translation) == 0.0);
    REQUIRE(frame_pose(iiwa, q, link).translation == oMi[link].translation);
  }
  REQUIRE_THROWS_AS(frame_pose(iiwa, q, 7), IndexError);
  REQUIRE_THROWS_AS(jacobian(iiwa, q, 7), IndexError);
}

TEST_CASE("world Jacobian columns equal central finite differences of frame_pose",
          "[kinematics]") {
  double worst = 0;
  for_cases([&](const auto& model, const auto& q, const auto&, const auto&, std::size_t link,
                const Transform<double>& frame) {
    using Model = std::decay_t<decltype(model)>;
    using V = typename Model::Vector;
    const FrameJacobian<Model> J = jacobian(model, q, link, frame, ReferenceFrame::world);
    constexpr double h = 1e-6;
    FrameJacobian<Model> fd;
    for (int j = 0; j < Model::nq; ++j) {
      const V dq = h * V::Unit(j);
      const Transform<double> plus = frame_pose(model, V(q + dq), link, frame);
      const Transform<double> minus = frame_pose(model, V(q - dq), link, frame);
      // omega from R(q + h) R(q - h)^T = exp(2 h [omega]x) + O(h^3)
      fd.col(j) << log3(plus.rotation * minus.rotation.transpose()) / (2 * h),
          (plus.translation - minus.translation) / (2 * h);
    }
    const double err = relative_error(J, fd);
    worst = std::max(worst, err);
    REQUIRE(err < 1e-8);
    // joints after the link do not move the frame
    for (int j = int(link) + 1; j < Model::nq; ++j) REQUIRE(J.col(j).isZero(0.0));
  });
  WARN("worst |J - finite differences| = " << worst);
}

TEST_CASE("iiwa world Jacobian equals the automatic derivative of frame_pose",
          "[kinematics][autodiff]") {
  // Exact derivatives: column j = (vee(dR/dq_j R^T); dp/dq_j) by AutoDiffScalar.
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 7, 1>>;
  using V = robots::KukaIiwa<double>::Vector;
  const auto arm = robots::kuka_iiwa();
  const auto arm_ad = robots::kuka_iiwa<AD>();
  std::mt19937 gen(test::kSeed + 11u);
  double worst = 0;
  for (int s = 0; s < 5; ++s) {
    const V q = test::random_state<V>(gen, 2.0);
    const Transform<double> tcp = random_frame(gen);
    robots::KukaIiwa<AD>::Vector q_ad;
    for (int i = 0; i < 7; ++i) q_ad[i] = AD(q[i], 7, i);
    const Transform<AD> tcp_ad(tcp.rotation.cast<AD>(), tcp.translation.cast<AD>());
    for (std::size_t link = 0; link < 7; ++link) {
      const Transform<AD> x = frame_pose(arm_ad, q_ad, link, tcp_ad);
      Eigen::Matrix3d r;
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) r(a, b) = x.rotation(a, b).value();
      }
      FrameJacobian<robots::KukaIiwa<double>> ad;
      for (int j = 0; j < 7; ++j) {
        Eigen::Matrix3d dr;
        Eigen::Vector3d dp;
        for (int a = 0; a < 3; ++a) {
          dp[a] = x.translation[a].derivatives()[j];
          for (int b = 0; b < 3; ++b) dr(a, b) = x.rotation(a, b).derivatives()[j];
        }
        const Eigen::Matrix3d w = dr * r.transpose();  // [omega_j]x
        ad.col(j) << w(2, 1), w(0, 2), w(1, 0), dp;
      }
      const double err = relative_error(jacobian(arm, q, link, tcp), ad);
      worst = std::max(worst, err);
      REQUIRE(err < 1e-14);
    }
  }
  WARN("worst |J - automatic derivative| = " << worst);
}

TEST_CASE("local Jacobian is the world Jacobian in the frame's axes", "[kinematics]") {
  double worst = 0;
  for_cases([&](const auto& model, const auto& q, const auto&, const auto&, std::size_t link,
                const Transform<double>& frame) {
    using Model = std::decay_t<decltype(model)>;
    const auto world = jacobian(model, q, link, frame, ReferenceFrame::world);
    const auto local = jacobian(model, q, link, frame, ReferenceFrame::local);
    const Eigen::Matrix3d r = frame_pose(model, q, link, frame).rotation;
    const double err = relative_error(local, FrameJacobian<Model>(rotate6(r.transpose()) * world));
    worst = std::max(worst, err);
    REQUIRE(err < 1e-13);
  });
  WARN("worst |J_local - R^T J_world| = " << worst);
}

TEST_CASE("J qd equals the frame velocity from rnea's link velocities", "[kinematics]") {
  double worst = 0;
  for_cases([&](const auto& model, const auto& q, const auto& qd, const auto& qdd,
                std::size_t link, const Transform<double>& frame) {
    using Model = std::decay_t<decltype(model)>;
    Data<Model> data;
    rnea(model, data, q, qd, qdd);
    const Motion<double> v_link = data.v[link];  // link coordinates, about the link origin
    const Motion<double> v_frame = frame.act_inv(v_link);  // frame coordinates and origin
    const Eigen::Matrix3d r = frame_pose(model, q, link, frame).rotation;
    FrameJacobian<Model> J;
    jacobian(model, data, q, link, frame, ReferenceFrame::local, J);
    double err = relative_error(Vec6(J * qd), v_frame.vector());
    jacobian(model, data, q, link, frame, ReferenceFrame::world, J);
    err = std::max(err, relative_error(Vec6(J * qd),
                                       Vec6(rotate6(r) * v_frame.vector())));
    worst = std::max(worst, err);
    REQUIRE(err < 1e-13);
  });
  WARN("worst |J qd - v from rnea| = " << worst);
}

TEST_CASE("Jdot qd equals d/dt (J qd) - J qdd by finite differences along a path",
          "[kinematics]") {
  double worst = 0;
  for_cases([&](const auto& model, const auto& q, const auto& qd, const auto& qdd,
                std::size_t link, const Transform<double>& frame) {
    using Model = std::decay_t<decltype(model)>;
    using V = typename Model::Vector;
    // q(t) = q + t qd + t^2/2 qdd, qd(t) = qd + t qdd: central difference of J(q(t)) qd(t) at 0
    constexpr double h = 1e-5;
    for (const ReferenceFrame rf : {ReferenceFrame::world, ReferenceFrame::local}) {
      const auto jv = [&](double t) {
        const V qt = q + t * qd + 0.5 * t * t * qdd;
        return Vec6(jacobian(model, qt, link, frame, rf) * V(qd + t * qdd));
      };
      const Vec6 d_dt = (jv(h) - jv(-h)) / (2 * h);
      const Vec6 expected = d_dt - jacobian(model, q, link, frame, rf) * qdd;
      const double err = relative_error(jdot_qd(model, q, qd, link, frame, rf), expected);
      worst = std::max(worst, err);
      INFO((rf == ReferenceFrame::world ? "world" : "local"));
      REQUIRE(err < 1e-7);
    }
  });
  WARN("worst |Jdot qd - finite differences| = " << worst);
}

TEST_CASE("Jdot qd in world is the classical acceleration, in local the spatial one",
          "[kinematics]") {
  // world: (omega_dot; p_ddot) = R (a_F.angular; a_F.linear + omega x v), RBDA sec. 2.11; the
  // local result is a_F itself: rotated into the frame's axes, world minus local is omega x v.
  for_cases([&](const auto& model, const auto& q, const auto& qd, const auto&, std::size_t link,
                const Transform<double>& frame) {
    const Vec6 world = jdot_qd(model, q, qd, link, frame, ReferenceFrame::world);
    const Vec6 local = jdot_qd(model, q, qd, link, frame, ReferenceFrame::local);
    const Eigen::Matrix3d r = frame_pose(model, q, link, frame).rotation;
    const Vec6 v = jacobian(model, q, link, frame, ReferenceFrame::local) * qd;
    Vec6 classical_local = local;
    classical_local.tail<3>() += v.head<3>().cross(v.tail<3>());
    REQUIRE(relative_error(Vec6(rotate6(r.transpose()) * world), classical_local) <
            1e-12);
  });
}

TEST_CASE("joint_torques_from_wrench equals J^T f and rnea's external-wrench input",
          "[kinematics]") {
  double worst_jt = 0, worst_rnea = 0;
  std::mt19937 gen(test::kSeed + 7u);
  for_cases([&](const auto& model, const auto& q, const auto&, const auto&, std::size_t link,
                const Transform<double>& frame) {
    using Model = std::decay_t<decltype(model)>;
    using V = typename Model::Vector;
    const Force<double> f(test::random_vector(gen, -5, 5), test::random_vector(gen, -50, 50));
    const Eigen::Matrix3d r = frame_pose(model, q, link, frame).rotation;
    for (const ReferenceFrame rf : {ReferenceFrame::world, ReferenceFrame::local}) {
      INFO((rf == ReferenceFrame::world ? "world" : "local"));
      const V tau = joint_torques_from_wrench(model, q, link, f, frame, rf);
      const V jtf = jacobian(model, q, link, frame, rf).transpose() * f.vector();
      const double e1 = relative_error(tau, jtf);
      // rnea: the same wrench in the link's frame about its origin as f_ext on that link;
      // rnea(q, 0, 0, f_ext) = g(q) - J^T f
      const Force<double> in_frame =
          rf == ReferenceFrame::local ? f : Force<double>(r.transpose() * f.angular,
                                                          r.transpose() * f.linear);
      LinkForces<Model> f_ext;
      f_ext[link] = frame.act(in_frame);
      const V zero = V::Zero();
      const V from_rnea = gravity_torques(model, q) - rnea(model, q, zero, zero, f_ext);
      const double e2 = relative_error(tau, from_rnea);
      worst_jt = std::max(worst_jt, e1);
      worst_rnea = std::max(worst_rnea, e2);
      REQUIRE(e1 < 1e-13);
      REQUIRE(e2 < 1e-12);
    }
    // the link-frame overload is the identity frame
    REQUIRE(joint_torques_from_wrench(model, q, link, f, ReferenceFrame::local) ==
            joint_torques_from_wrench(model, q, link, f, Transform<double>::Identity(),
                                      ReferenceFrame::local));
  });
  WARN("worst |tau - J^T f| = " << worst_jt << ", |tau - (g - rnea(f_ext))| = " << worst_rnea);
}

TEST_CASE("in-place kinematics forms equal the returning forms with a reused Data",
          "[kinematics]") {
  const auto iiwa = robots::kuka_iiwa();
  using V = robots::KukaIiwa<double>::Vector;
  std::mt19937 gen(test::kSeed + 3u);
  Data<robots::KukaIiwa<double>> data;
  for (int s = 0; s < 3; ++s) {
    const V q = test::random_state<V>(gen, 2.0), qd = test::random_state<V>(gen, 2.0);
    const Transform<double> frame = random_frame(gen);
    for (std::size_t link = 0; link < 7; ++link) {
      FrameJacobian<robots::KukaIiwa<double>> J;
      jacobian(iiwa, data, q, link, ReferenceFrame::world, J);
      REQUIRE(J == jacobian(iiwa, q, link));
      jacobian(iiwa, data, q, link, frame, ReferenceFrame::local, J);
      REQUIRE(J == jacobian(iiwa, q, link, frame, ReferenceFrame::local));
      Vec6 a;
      jdot_qd(iiwa, data, q, qd, link, ReferenceFrame::local, a);
      REQUIRE(a == jdot_qd(iiwa, q, qd, link, ReferenceFrame::local));
      jdot_qd(iiwa, data, q, qd, link, frame, ReferenceFrame::world, a);
      REQUIRE(a == jdot_qd(iiwa, q, qd, link, frame));
      const Force<double> f(Eigen::Vector3d(1, 2, 3), Eigen::Vector3d(4, 5, 6));
      joint_torques_from_wrench(iiwa, data, q, link, f, frame, ReferenceFrame::world);
      REQUIRE(data.tau == joint_torques_from_wrench(iiwa, q, link, f, frame));
      REQUIRE(frame_pose(iiwa, data, q, link, frame).translation ==
              frame_pose(iiwa, q, link, frame).translation);
    }
  }
}

// --- frame handles and the index rule (issue 12, item 2) --------------------------------------

TEST_CASE("in-place frame algorithms with an out-of-range link index throw IndexError (UB before)",
          "[kinematics][frames]") {
  const auto iiwa = robots::kuka_iiwa();
  using Iiwa = robots::KukaIiwa<double>;
  const Iiwa::Vector q = Iiwa::Vector::Constant(0.3);
  Data<Iiwa> data;
  FrameJacobian<Iiwa> J;
  Vec6 a;
  const Force<double> f(Eigen::Vector3d(1, 2, 3), Eigen::Vector3d(4, 5, 6));
  const Transform<double> tcp = Transform<double>::Translation(Eigen::Vector3d(0, 0, 0.1));
  const auto matches = Catch::Matchers::Contains("link index 9 is out of range for a chain of 7");
  REQUIRE_THROWS_MATCHES(frame_pose(iiwa, data, q, 9), IndexError, Catch::Matchers::Message(
      "chaindyn: link index 9 is out of range for a chain of 7 links"));
  REQUIRE_THROWS_WITH(frame_pose(iiwa, data, q, 9, tcp), matches);
  REQUIRE_THROWS_AS(frame_pose(iiwa, data, q, 7), IndexError);
  REQUIRE_THROWS_WITH(jacobian(iiwa, data, q, 9, ReferenceFrame::world, J), matches);
  REQUIRE_THROWS_WITH(jacobian(iiwa, data, q, 9, tcp, ReferenceFrame::local, J), matches);
  REQUIRE_THROWS_WITH(jdot_qd(iiwa, data, q, q, 9, ReferenceFrame::world, a), matches);
  REQUIRE_THROWS_WITH(jdot_qd(iiwa, data, q, q, 9, tcp, ReferenceFrame::world, a), matches);
  REQUIRE_THROWS_WITH(joint_torques_from_wrench(iiwa, data, q, 9, f, ReferenceFrame::world),
                      matches);
  REQUIRE_THROWS_WITH(joint_torques_from_wrench(iiwa, data, q, 9, f, tcp, ReferenceFrame::world),
                      matches);
  REQUIRE_THROWS_WITH(iiwa.frame(9), matches);
  REQUIRE_THROWS_WITH(iiwa.frame(9, tcp), matches);
  auto copy = iiwa;
  REQUIRE_THROWS_WITH(copy.add_frame("tcp", 9, tcp), matches);
  REQUIRE_THROWS_WITH(copy.set_link_frame(9, tcp), matches);
  // the returning forms: the same type and message
  REQUIRE_THROWS_WITH(frame_pose(iiwa, q, 9), matches);
  REQUIRE_THROWS_WITH(jacobian(iiwa, q, 9, tcp), matches);
  REQUIRE_THROWS_WITH(jdot_qd(iiwa, q, q, 9), matches);
  REQUIRE_THROWS_WITH(joint_torques_from_wrench(iiwa, q, 9, f), matches);
  // the noexcept forms take a handle, whose index was checked when it was made
  const FrameFor<Iiwa> h = iiwa.frame(6, tcp);
  static_assert(noexcept(frame_pose(iiwa, data, q, h)));
  static_assert(noexcept(jacobian(iiwa, data, q, h, ReferenceFrame::world, J)));
  static_assert(noexcept(jdot_qd(iiwa, data, q, q, h, ReferenceFrame::world, a)));
  static_assert(noexcept(joint_torques_from_wrench(iiwa, data, q, h, f, ReferenceFrame::world)));
  static_assert(!noexcept(frame_pose(iiwa, data, q, std::size_t(6))));
  static_assert(!noexcept(jacobian(iiwa, data, q, std::size_t(6), ReferenceFrame::world, J)));
  // a handle cannot be built by hand nor given to a chain of another length
  static_assert(!std::is_constructible_v<FrameFor<Iiwa>, std::size_t, Transform<double>>);
  static_assert(!std::is_convertible_v<FrameFor<Iiwa>, FrameFor<ChainN<double, 6, Revolute>>>);
}

TEST_CASE("frame handle forms equal the (link, offset) and named forms bit for bit",
          "[kinematics][frames]") {
  for_cases([](const auto& model, const auto& q, const auto& qd, const auto&, std::size_t link,
               const Transform<double>& frame) {
    using Model = std::decay_t<decltype(model)>;
    Data<Model> data;
    const FrameFor<Model> h = model.frame(link, frame);
    CHECK(h.link() == link);
    CHECK_FALSE(h.on_base());
    // no builder turned the link frames: the handle's placement is the offset as given
    CHECK(h.placement().rotation == frame.rotation);
    CHECK(h.placement().translation == frame.translation);
    const Transform<double> x = frame_pose(model, data, q, h);
    CHECK(x.rotation == frame_pose(model, q, link, frame).rotation);
    CHECK(x.translation == frame_pose(model, q, link, frame).translation);
    auto named = model;
    named.add_frame("tcp", link, frame);
    CHECK(frame_pose(named, q, "tcp").translation == x.translation);
    CHECK(jacobian(named, q, "tcp", ReferenceFrame::local) ==
          jacobian(model, q, link, frame, ReferenceFrame::local));
    CHECK(jacobian(model, q, h) == jacobian(model, q, link, frame));
    CHECK(jdot_qd(named, q, qd, "tcp") == jdot_qd(model, q, qd, link, frame));
    const Force<double> f(Eigen::Vector3d(1, -2, 3), Eigen::Vector3d(-4, 5, 6));
    CHECK(joint_torques_from_wrench(named, q, "tcp", f) ==
          joint_torques_from_wrench(model, q, link, f, frame));
    // an offset from a named frame composes with it
    const Transform<double> more = Transform<double>::Translation(Eigen::Vector3d(0.1, 0, 0));
    CHECK(relative_error(frame_pose(named, q, named.frame("tcp", more)).translation,
                         (x * more).translation) < 1e-15);
  });
}

TEST_CASE("named frames: unknown names list the frames, and empty, duplicate and improper ones are refused",
          "[kinematics][frames]") {
  auto iiwa = robots::kuka_iiwa();
  const Transform<double> tcp = Transform<double>::Translation(Eigen::Vector3d(0, 0, 0.126));
  REQUIRE_THROWS_MATCHES(iiwa.frame("tcp"), IndexError,
                         Catch::Matchers::Message("chaindyn: no frame named 'tcp' (the chain has none)"));
  iiwa.add_frame("flange", 6);
  iiwa.add_frame("tcp", 6, tcp);
  iiwa.add_base_frame("table", Transform<double>::Translation(Eigen::Vector3d(1, 0, 0)));
  CHECK(iiwa.has_frame("tcp"));
  CHECK_FALSE(iiwa.has_frame("tool0"));
  REQUIRE(iiwa.frames().size() == 3);
  CHECK(iiwa.frames()[1].name == "tcp");
  REQUIRE_THROWS_MATCHES(
      iiwa.frame("tool0"), IndexError,
      Catch::Matchers::Message("chaindyn: no frame named 'tool0' (the chain has 'flange', 'tcp', 'table')"));
  using Iiwa = robots::KukaIiwa<double>;
  REQUIRE_THROWS_AS(frame_pose(iiwa, Iiwa::Vector::Zero().eval(), "tool0"), IndexError);
  REQUIRE_THROWS_WITH(iiwa.add_frame("tcp", 3), Catch::Contains("frame 'tcp' is defined twice"));
  REQUIRE_THROWS_AS(iiwa.add_frame("", 3), ModelError);
  Transform<double> bad = tcp;
  bad.rotation(0, 0) = 2.0;
  REQUIRE_THROWS_WITH(iiwa.add_frame("bad", 3, bad),
                      Catch::Contains("frame 'bad': rotation") && Catch::Contains("not a rotation"));
  bad = tcp;
  bad.translation.x() = std::numeric_limits<double>::quiet_NaN();
  REQUIRE_THROWS_WITH(iiwa.add_base_frame("nan", bad), Catch::Contains("pose is not finite"));
  REQUIRE_THROWS_AS(iiwa.set_link_frame(2, bad), ModelError);
  REQUIRE(iiwa.frames().size() == 3);
  // the flange at q = 0, 1.22 m above the base, and the tcp 0.126 m further
  const Iiwa::Vector zero = Iiwa::Vector::Zero();
  CHECK(relative_error(frame_pose(iiwa, zero, "tcp").translation,
                       Eigen::Vector3d(0, 0, 1.22 + 0.126)) < 1e-14);
}

TEST_CASE("base frames do not move: their Jacobian, Jdot qd and J^T f are zero",
          "[kinematics][frames]") {
  using Iiwa = robots::KukaIiwa<double>;
  const auto iiwa = robots::kuka_iiwa();
  std::mt19937 gen(test::kSeed + 121u);
  const Transform<double> pose = random_frame(gen);
  const FrameFor<Iiwa> b = iiwa.base_frame(pose);
  CHECK(b.on_base());
  CHECK(b.link() == FrameFor<Iiwa>::base);
  Data<Iiwa> data;
  FrameJacobian<Iiwa> J = FrameJacobian<Iiwa>::Ones();
  Vec6 a = Vec6::Ones();
  for (int s = 0; s < 3; ++s) {
    const Iiwa::Vector q = test::random_state<Iiwa::Vector>(gen, 2.0);
    const Transform<double>& x = frame_pose(iiwa, data, q, b);
    CHECK(x.rotation == pose.rotation);
    CHECK(x.translation == pose.translation);
    jacobian(iiwa, data, q, b, ReferenceFrame::world, J);
    CHECK(J.isZero(0));
    jdot_qd(iiwa, data, q, q, b, ReferenceFrame::local, a);
    CHECK(a.isZero(0));
    joint_torques_from_wrench(iiwa, data, q, b, Force<double>(Eigen::Vector3d(1, 2, 3),
                                                              Eigen::Vector3d(4, 5, 6)),
                              ReferenceFrame::world);
    CHECK(data.tau.isZero(0));
  }
}

TEST_CASE("a turned link frame (set_link_frame) is the frame offsets and payloads are given in, and cast keeps the frames",
          "[kinematics][frames]") {
  std::mt19937 gen(test::kSeed + 131u);
  const Mixed plain(test::random_links<Mixed>(gen));
  // the user's frame of link i sits in the internal frame at u_i (a builder's turn, here random)
  Mixed turned = plain;
  std::array<Transform<double>, Mixed::nq> u;
  for (std::size_t i = 0; i < u.size(); ++i) {
    u[i] = random_frame(gen);
    turned.set_link_frame(i, u[i]);
    CHECK(turned.link_frame(i).translation == u[i].translation);
  }
  const Payload<double> p{1.5, Eigen::Vector3d(0.05, -0.02, 0.1),
                          Eigen::Vector3d(0.02, 0.03, 0.04).asDiagonal()};
  turned.set_payload(3, p);
  // the same payload given in the internal frame: its COM and inertia moved by u_3
  Mixed expected = plain;
  expected.set_payload(3, Payload<double>{p.mass, u[3].rotation * p.com + u[3].translation,
                                          u[3].rotation * p.inertia * u[3].rotation.transpose()});
  CHECK(turned.payload(3)->com == p.com);  // as given
  const Transform<double> tcp = random_frame(gen);
  turned.add_frame("tcp", 4, tcp);
  const auto f = turned.cast<float>();
  for (int s = 0; s < 3; ++s) {
    const Mixed::Vector q = test::random_state<Mixed::Vector>(gen, 2.0),
                        qd = test::random_state<Mixed::Vector>(gen, 2.0);
    CHECK(relative_error(rnea(turned, q, qd, qd), rnea(expected, q, qd, qd)) < 1e-13);
    for (std::size_t i = 0; i < u.size(); ++i) {
      const Transform<double> want = frame_pose(plain, q, i, u[i] * tcp);
      const Transform<double> got = frame_pose(turned, q, i, tcp);
      CHECK(relative_error(got.rotation, want.rotation) < 1e-14);
      CHECK(relative_error(got.translation, want.translation) < 1e-14);
    }
    const Transform<double> x = frame_pose(turned, q, "tcp");
    const Transform<float> xf = frame_pose(f, q.cast<float>().eval(), "tcp");
    CHECK(relative_error(xf.translation, x.translation) < 1e-5);
    CHECK(relative_error(xf.rotation, x.rotation) < 1e-5);
    CHECK(relative_error(rnea(f, q.cast<float>().eval(), qd.cast<float>().eval(),
                              qd.cast<float>().eval()),
                         rnea(turned, q, qd, qd)) < 1e-4);
  }
  // a payload set before the turn is re-read in the new frame
  Mixed later = plain;
  later.set_payload(3, p);
  later.set_link_frame(3, u[3]);
  CHECK(later.inertia(3).mass == turned.inertia(3).mass);
  CHECK(later.inertia(3).first_moment == turned.inertia(3).first_moment);
}
