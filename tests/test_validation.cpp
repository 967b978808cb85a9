// Model construction refuses bad input with a ModelError that names the link and the value.
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

#include <limits>

using namespace chaindyn;
using Catch::Matchers::Contains;

namespace {

using Arm = Chain<double, RevoluteZ, Revolute, PrismaticX>;

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
    Arm arm(links);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("valid links build a chain without error", "[validation]") {
  REQUIRE_NOTHROW(Arm(good_links()));
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
  const Arm arm(links);
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
  Arm arm(good_links());
  CHECK_THROWS_WITH(arm.set_gravity(Eigen::Vector3d(0, kNaN, 0)), Contains("gravity"));
  CHECK_THROWS_AS(Arm(good_links(), Eigen::Vector3d(kInf, 0, 0)), ModelError);
  arm.set_gravity(Eigen::Vector3d(0, -1.62, 0));
  CHECK(arm.base_acceleration().linear == Eigen::Vector3d(0, 1.62, 0));
}

TEST_CASE("JointDynamics::with_rotor adds G^2 I_rotor to the joint's diagonal of M",
          "[model]") {
  const double rotor = 2e-4, ratio = 100;
  auto links = good_links();
  const Arm bare(links);
  links[1].dynamics = JointDynamics<double>::with_rotor(rotor, ratio, 0.3, 0.1);
  CHECK(links[1].dynamics.armature == Approx(ratio * ratio * rotor));
  CHECK(links[1].dynamics.damping == 0.3);
  CHECK(links[1].dynamics.friction == 0.1);
  const Arm geared(links);
  const Arm::Vector q(0.3, -0.7, 0.2);
  Arm::Matrix expected = crba(bare, q);
  expected(1, 1) += 2.0;  // 100^2 * 2e-4 kg m^2
  CHECK(test::relative_error(crba(geared, q), expected) < 1e-15);
}
