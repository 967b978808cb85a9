// Model construction refuses bad input with a ModelError that names the link and the value.
#include "support/test_support.hpp"

#include <chaindyn/simulation.hpp>

#include <catch2/catch.hpp>

#include <limits>

using namespace chaindyn;
using Catch::Matchers::Contains;

namespace {

using ThreeJointArm = Chain<double, RevoluteZ, Revolute, PrismaticX>;

std::vector<Link<double>> good_links() {
  std::vector<Link<double>> links(3);
  const char* names[] = {"shoulder", "elbow", "slider"};
  for (std::size_t i = 0; i < 3; ++i) {
    links[i].name = names[i];
    links[i].mass = 1.0;
    links[i].com = Eigen::Vector3d(0.2, 0, 0);
    links[i].inertia = Eigen::Vector3d(0.01, 0.02, 0.02).asDiagonal();
    links[i].placement = Transform<double>::Translation(Eigen::Vector3d(0.4, 0, 0));
  }
  links[1].axis = Eigen::Vector3d(0, 1, 0);
  return links;
}

std::string message_of(const std::vector<Link<double>>& links) {
  try {
    ThreeJointArm arm(links);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("valid links build a chain without error", "[validation]") {
  REQUIRE_NOTHROW(ThreeJointArm(good_links()));
}

TEST_CASE("non-finite numbers are refused, naming the link and the quantity", "[validation]") {
  auto links = good_links();
  links[1].mass = kNaN;
  CHECK_THAT(message_of(links), Contains("link 1 ('elbow')") && Contains("mass is not finite"));

  links = good_links();
  links[2].com.y() = kInf;
  CHECK_THAT(message_of(links),
             Contains("link 2 ('slider')") && Contains("centre of mass") && Contains("inf"));

  links = good_links();
  links[0].inertia(1, 1) = kNaN;
  CHECK_THAT(message_of(links),
             Contains("link 0 ('shoulder')") && Contains("inertia") && Contains("not finite"));

  links = good_links();
  links[0].placement.translation.x() = kNaN;
  CHECK_THAT(message_of(links), Contains("link 0") && Contains("placement is not finite"));

  links = good_links();
  links[2].dynamics.damping = kInf;
  CHECK_THAT(message_of(links), Contains("link 2") && Contains("damping is not finite"));
}

TEST_CASE("a negative mass is refused with its value", "[validation]") {
  auto links = good_links();
  links[2].mass = -2.5;
  CHECK_THAT(message_of(links),
             Contains("link 2 ('slider')") && Contains("mass is negative (-2.5)"));
}

TEST_CASE("an inertia that is not symmetric positive semi-definite is refused", "[validation]") {
  auto links = good_links();
  links[1].inertia(0, 1) = 0.005;  // not symmetric
  CHECK_THAT(message_of(links), Contains("link 1 ('elbow')") && Contains("not symmetric"));

  links = good_links();
  links[1].inertia = Eigen::Vector3d(0.01, -0.02, 0.02).asDiagonal();
  CHECK_THAT(message_of(links),
             Contains("link 1") && Contains("not positive semi-definite") && Contains("-0.02"));

  links = good_links();  // positive diagonal, indefinite through the off-diagonal terms
  links[0].inertia << 0.02, 0.03, 0, 0.03, 0.02, 0, 0, 0, 0.03;
  CHECK_THAT(message_of(links), Contains("link 0") && Contains("not positive semi-definite"));
}

TEST_CASE("principal moments that break the triangle inequality are refused", "[validation]") {
  auto links = good_links();
  links[2].inertia = Eigen::Vector3d(0.01, 0.01, 0.05).asDiagonal();  // 0.01 + 0.01 < 0.05
  CHECK_THAT(message_of(links), Contains("link 2 ('slider')") && Contains("triangle inequality"));
  // rotated into a non-diagonal matrix, the same body is still refused
  const Eigen::Matrix3d r = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized())
                                .toRotationMatrix();
  links[2].inertia = r * links[2].inertia * r.transpose();
  CHECK_THAT(message_of(links), Contains("triangle inequality"));
  // a thin rod (I1 + I2 = I3 exactly in the limit) is accepted
  links[2].inertia = Eigen::Vector3d(0.0, 0.02, 0.02).asDiagonal();
  CHECK(message_of(links) == "no error");
}

TEST_CASE("axes: zero, missing, or contradicting the joint type are refused", "[validation]") {
  auto links = good_links();
  links[1].axis = Eigen::Vector3d::Zero();
  CHECK_THAT(message_of(links), Contains("link 1 ('elbow')") && Contains("axis") &&
                                    Contains("is zero"));

  links = good_links();
  links[1].axis.reset();
  CHECK_THAT(message_of(links), Contains("link 1") && Contains("needs an axis"));

  links = good_links();
  links[0].axis = Eigen::Vector3d(1, 0, 0);  // link 0 is a RevoluteZ
  CHECK_THAT(message_of(links), Contains("link 0") && Contains("RevoluteZ") &&
                                    Contains("use Revolute for an arbitrary axis"));

  links = good_links();
  links[0].axis = Eigen::Vector3d(0, 0, 2);  // same direction, any length: accepted
  CHECK(message_of(links) == "no error");

  links = good_links();
  links[1].axis = Eigen::Vector3d(0, 3, 4);  // normalized on construction
  const ThreeJointArm arm(links);
  CHECK((arm.joint<1>().axis() - Eigen::Vector3d(0, 0.6, 0.8)).norm() < 1e-15);
}

TEST_CASE("a placement rotation that is not a rotation is refused", "[validation]") {
  auto links = good_links();
  links[2].placement.rotation = Eigen::Vector3d(1, 1, -1).asDiagonal();  // a reflection
  CHECK_THAT(message_of(links), Contains("link 2") && Contains("not a rotation matrix"));
  links[2].placement.rotation = 1.1 * Eigen::Matrix3d::Identity();
  CHECK_THAT(message_of(links), Contains("not a rotation matrix"));
}

TEST_CASE("negative joint dynamics parameters are refused", "[validation]") {
  auto links = good_links();
  links[0].dynamics.friction = -0.1;
  CHECK_THAT(message_of(links), Contains("link 0") && Contains("friction is negative (-0.1)"));
  links = good_links();
  links[2].dynamics.armature = -1;
  CHECK_THAT(message_of(links), Contains("link 2") && Contains("armature is negative"));
}

TEST_CASE("a joint count that does not match the chain type is refused", "[validation]") {
  auto links = good_links();
  links.pop_back();
  CHECK_THAT(message_of(links), Contains("2 links given to a chain of 3 joints"));
}

TEST_CASE("a massless tail that makes M singular is refused, and armature rescues it",
          "[validation]") {
  auto links = good_links();
  links[2].mass = 0;
  links[2].inertia.setZero();
  CHECK_THAT(message_of(links), Contains("link 2 ('slider')") && Contains("singular"));
  links[2].dynamics.armature = 0.1;
  CHECK(message_of(links) == "no error");
  // a massless link in the middle is fine: the links after it carry mass
  links = good_links();
  links[1].mass = 0;
  links[1].inertia.setZero();
  CHECK(message_of(links) == "no error");
}

TEST_CASE("gravity must be finite", "[validation]") {
  ThreeJointArm arm(good_links());
  CHECK_THROWS_WITH(arm.set_gravity(Eigen::Vector3d(0, kNaN, 0)), Contains("gravity"));
  CHECK_THROWS_AS(ThreeJointArm(good_links(), Eigen::Vector3d(kInf, 0, 0)), ModelError);
  arm.set_gravity(Eigen::Vector3d(0, -1.62, 0));
  CHECK(arm.base_acceleration().linear == Eigen::Vector3d(0, 1.62, 0));
}

TEST_CASE("JointDynamics::with_rotor adds G^2 I_rotor to the joint's diagonal of M",
          "[model]") {
  const double rotor = 2e-4, ratio = 100;
  auto links = good_links();
  const ThreeJointArm bare(links);
  links[1].dynamics = JointDynamics<double>::with_rotor(rotor, ratio, 0.3, 0.1);
  CHECK(links[1].dynamics.armature == Approx(ratio * ratio * rotor));
  CHECK(links[1].dynamics.damping == 0.3);
  CHECK(links[1].dynamics.friction == 0.1);
  const ThreeJointArm geared(links);
  const ThreeJointArm::Vector q(0.3, -0.7, 0.2);
  ThreeJointArm::Matrix expected = crba(bare, q);
  expected(1, 1) += 2.0;  // 100^2 * 2e-4 kg m^2
  CHECK(test::relative_error(crba(geared, q), expected) < 1e-15);
}

// ---- Issue 12 item 4: a joint that moves nothing makes M singular at every q ------------------

namespace {

/// A revolute base link with mass off its axis, for the tips below to hang from.
Link<double> base_link() {
  Link<double> l;
  l.name = "upper_arm";
  l.mass = 2.0;
  l.com = Eigen::Vector3d(0.15, 0, 0);
  l.inertia = Eigen::Vector3d(0.01, 0.02, 0.02).asDiagonal();
  return l;
}

/// Issue 12's first model: a prismatic tip with rotational inertia but no mass.
Link<double> massless_slider() {
  Link<double> l;
  l.name = "slider";
  l.placement = Transform<double>::Translation(Eigen::Vector3d(0.3, 0, 0));
  l.inertia = Eigen::Vector3d(0.01, 0.01, 0.01).asDiagonal();
  return l;
}

/// Issue 12's second model: a revolute tip whose only mass is a point on its own axis (z).
Link<double> point_on_axis() {
  Link<double> l;
  l.name = "spinner";
  l.placement = Transform<double>::Translation(Eigen::Vector3d(0.3, 0, 0));
  l.mass = 1.5;
  l.com = Eigen::Vector3d(0, 0, 0.2);
  return l;
}

using SliderArm = Chain<double, RevoluteZ, PrismaticX>;
using SpinnerArm = Chain<double, RevoluteY, RevoluteZ>;

template <typename Model>
std::string construction_error(const std::vector<Link<double>>& links) {
  try {
    const Model model(links);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a prismatic tip with inertia but no mass is refused, naming joint, kind and fix",
          "[validation][singular]") {
  // Before: accepted; det M = 0, aba returned NaN and forward_dynamics_crba [NaN, inf].
  const std::string message = construction_error<SliderArm>({base_link(), massless_slider()});
  INFO(message);
  CHECK_THAT(message, Contains("chaindyn: link 1 ('slider')") && Contains("prismatic joint") &&
                          Contains("moves no mass") && Contains("singular") &&
                          Contains("Give link 1 mass, or the joint an armature"));
  // the same with the run-time-axis joint type and the slider in ChainN form
  Link<double> slider = massless_slider();
  slider.axis = Eigen::Vector3d(0, 0.6, 0.8);
  Link<double> first = base_link();
  first.axis = Eigen::Vector3d(0, 0, 1);
  CHECK_THROWS_AS((Chain<double, Revolute, Prismatic>({first, slider})), ModelError);
  Link<double> inner = massless_slider();
  inner.mass = 1.0;
  CHECK_THROWS_WITH((ChainN<double, 3, PrismaticX>({inner, inner, massless_slider()})),
                    Contains("link 2 ('slider')") && Contains("prismatic"));
}

TEST_CASE("a revolute tip whose only mass is a point on its axis is refused, naming joint and fix",
          "[validation][singular]") {
  const std::string message = construction_error<SpinnerArm>({base_link(), point_on_axis()});
  INFO(message);
  CHECK_THAT(message, Contains("chaindyn: link 1 ('spinner')") && Contains("revolute joint") &&
                          Contains("moves no inertia about its axis") &&
                          Contains("mass lies on the axis") && Contains("singular") &&
                          Contains("inertia about the axis or mass off it, or the joint an "
                                   "armature"));
  // moved off the axis by 1 mm, the same point mass is a valid tip
  std::vector<Link<double>> links{base_link(), point_on_axis()};
  links[1].com.x() = 1e-3;
  CHECK(construction_error<SpinnerArm>(links) == "no error");
}

TEST_CASE("an inner joint whose motion the joints after it take up is refused",
          "[validation][singular]") {
  // two parallel prismatic joints, the first link massless: M = m [1 1; 1 1] at every q
  Link<double> carriage = massless_slider();
  carriage.name = "carriage";
  carriage.inertia.setZero();
  Link<double> tool = base_link();
  tool.name = "tool";
  const std::string message =
      construction_error<Chain<double, PrismaticX, PrismaticX>>({carriage, tool});
  INFO(message);
  CHECK_THAT(message, Contains("link 0 ('carriage')") && Contains("prismatic joint") &&
                          Contains("the joints after it take up all its motion"));
  // a prismatic joint's pivot is at least its own link's mass: a 1 g carriage makes it regular
  carriage.mass = 1e-3;
  CHECK(construction_error<Chain<double, PrismaticX, PrismaticX>>({carriage, tool}) ==
        "no error");
}

TEST_CASE("a model singular only at q = 0 (coaxial axes) is accepted", "[validation][singular]") {
  // Z, Y, Z with massless first two links: at q = 0 the third axis is the first's (as the iiwa's
  // joints 1, 3, 5, 7), so joint 0 moves nothing there; any q_1 != 0 tilts the third axis away.
  using Wrist = Chain<double, RevoluteZ, RevoluteY, RevoluteZ>;
  Link<double> a, b, c = base_link();
  a.name = "yaw";
  b.name = "pitch";
  b.placement = Transform<double>::Translation(Eigen::Vector3d(0, 0, 0.3));
  c.name = "roll";
  c.placement = Transform<double>::Translation(Eigen::Vector3d(0, 0, 0.3));
  c.com = Eigen::Vector3d(0, 0, 0.1);
  c.inertia = Eigen::Vector3d(0.02, 0.02, 0.01).asDiagonal();
  REQUIRE(construction_error<Wrist>({a, b, c}) == "no error");
  const Wrist wrist({a, b, c});
  // M is singular at q = 0 and regular at q_1 = 0.5: the check did meet the singular
  // configuration, and looked further
  const Eigen::Matrix3d m0 = crba(wrist, Wrist::Vector::Zero());
  const Eigen::Matrix3d m1 = crba(wrist, Wrist::Vector(0, 0.5, 0));
  const Eigen::Vector3d ev0 = test::symmetric_eigenvalues(m0);
  const Eigen::Vector3d ev1 = test::symmetric_eigenvalues(m1);
  CHECK(std::abs(ev0[0]) < 1e-15 * ev0[2]);
  CHECK(ev1[0] > 1e-4 * ev1[2]);
  CHECK(aba(wrist, Wrist::Vector(0, 0.5, 0), Wrist::Vector::Zero(), Wrist::Vector::Zero())
            .allFinite());
}

TEST_CASE("armature makes a massless tip regular", "[validation][singular]") {
  std::vector<Link<double>> slider{base_link(), massless_slider()};
  std::vector<Link<double>> spinner{base_link(), point_on_axis()};
  slider[1].dynamics.armature = 0.05;   // kg (a linear actuator's reflected rotor)
  spinner[1].dynamics.armature = 2e-4;  // kg m^2
  REQUIRE(construction_error<SliderArm>(slider) == "no error");
  REQUIRE(construction_error<SpinnerArm>(spinner) == "no error");
  const SliderArm a(slider);
  const SpinnerArm b(spinner);
  const Eigen::Vector2d q(0.4, -0.3), qd(1.0, 0.5), tau(2.0, 0.1);
  CHECK(aba(a, q, qd, tau).allFinite());
  CHECK(aba(b, q, qd, tau).allFinite());
  CHECK(test::relative_error(aba(a, q, qd, tau), forward_dynamics_crba(a, q, qd, tau)) < 1e-12);
  CHECK(test::relative_error(aba(b, q, qd, tau), forward_dynamics_crba(b, q, qd, tau)) < 1e-12);
}

TEST_CASE("simulate can no longer start on a singular model: its construction refuses it",
          "[validation][singular]") {
  // Before: simulate failed with "step size underflow ... at t = 0", naming neither the model
  // nor the cause. Now the model cannot be built, and the error names the joint.
  const auto run = [] {
    const SliderArm arm({base_link(), massless_slider()});
    return simulate(arm, Eigen::Vector2d(0.1, 0.0), Eigen::Vector2d::Zero(), ZeroTorque{}, 1.0);
  };
  CHECK_THROWS_AS(run(), ModelError);
  CHECK_THROWS_WITH(run(), Contains("link 1 ('slider')") && !Contains("step size"));
}

TEST_CASE("a link whose spatial inertia overflows is refused, not called massless",
          "[validation][singular]") {
  // finite numbers, but m |c|^2 = 1e320 kg m^2 overflows double (accepted before)
  Link<double> huge = base_link();
  huge.mass = 1e300;
  huge.com = Eigen::Vector3d(1e10, 0, 0);
  CHECK_THROWS_WITH((Chain<double, RevoluteZ>({huge})),
                    Contains("link 0 ('upper_arm')") && Contains("overflows") &&
                        !Contains("moves no"));
}

TEST_CASE("the validation's articulated-body pivots are ABA's D at the same q",
          "[validation][singular]") {
  // detail::compute_pivots (model/, plain double loops) against aba's data.D on random chains
  // with every joint kind and random armature.
  using Model = Chain<double, RevoluteZ, Revolute, PrismaticX, Prismatic, RevoluteY, PrismaticZ>;
  std::mt19937 gen(test::kSeed);
  double worst = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Model model(test::random_links<Model>(gen, true));
    const Model::Vector q = test::random_state<Model::Vector>(gen, 3.0);
    std::array<chaindyn::detail::PivotJoint, 6> js;
    for (std::size_t i = 0; i < 6; ++i) {
      js[i] = chaindyn::detail::pivot_joint(Model::joint_slots()[i], model.link(i), model.inertia(i),
                                  model.armature()[Eigen::Index(i)]);
      js[i].q = q[Eigen::Index(i)];
    }
    chaindyn::detail::compute_pivots(js.data(), 6);
    Data<Model> data;
    aba(model, data, q, Model::Vector::Zero(), Model::Vector::Zero());
    for (std::size_t i = 0; i < 6; ++i) {
      INFO("trial " << trial << ", joint " << i);
      const double e = std::abs(js[i].pivot - data.D[Eigen::Index(i)]) / data.D[Eigen::Index(i)];
      worst = std::max(worst, e);
      REQUIRE(e < 1e-12);
      // and the scale is what the joint would move with the joints after it locked: >= D
      REQUIRE(js[i].scale >= js[i].pivot * (1 - 1e-12));
    }
  }
  INFO("worst relative difference " << worst);
  CHECK(worst < 1e-12);
}
