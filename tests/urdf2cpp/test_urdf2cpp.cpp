/// @file
/// chaindyn-urdf2cpp's headers build the chain urdf::parse builds, bit for bit. The headers are
/// generated at build time from tests/data/urdf (tests/CMakeLists.txt): iiwa14 with axes
/// turned onto z (ChainN<RevoluteZ>), Panda to its hand (the fingers are
/// off the path) with run-time axes (ChainN<Revolute>), UR5 with its y axes turned onto z (the
/// link frames the frame API converts from) -- with the file's named frames.
#include "generated_iiwa14.hpp"
#include "generated_panda.hpp"
#include "generated_ur5.hpp"

#include "chaindyn/algorithms/rnea.hpp"
#include "chaindyn/urdf.hpp"
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace {

template <typename Chain>
void require_same_links(const Chain& generated, const Chain& parsed) {
  for (std::size_t i = 0; i < std::size_t(Chain::nq); ++i) {
    INFO("link " << i << " '" << parsed.link(i).name << "'");
    const auto& g = generated.link(i);
    const auto& p = parsed.link(i);
    CHECK(g.name == p.name);
    CHECK(g.joint_name == p.joint_name);
    CHECK(g.placement.rotation == p.placement.rotation);
    CHECK(g.placement.translation == p.placement.translation);
    CHECK(g.axis.has_value() == p.axis.has_value());
    if (g.axis && p.axis) CHECK(*g.axis == *p.axis);
    CHECK(g.mass == p.mass);
    CHECK(g.com == p.com);
    CHECK(g.inertia == p.inertia);
    CHECK(g.dynamics.damping == p.dynamics.damping);
    CHECK(g.dynamics.friction == p.dynamics.friction);
    CHECK(g.dynamics.armature == p.dynamics.armature);
    REQUIRE(g.limits.has_value() == p.limits.has_value());
    if (g.limits && p.limits) {
      CHECK(g.limits->lower == p.limits->lower);
      CHECK(g.limits->upper == p.limits->upper);
      CHECK(g.limits->velocity == p.limits->velocity);
      CHECK(g.limits->effort == p.limits->effort);
    }
  }
}

/// The link frames and named frames (names, links, placements) are the same, bit for bit.
template <typename Chain>
void require_same_frames(const Chain& generated, const Chain& parsed) {
  for (std::size_t i = 0; i < std::size_t(Chain::nq); ++i) {
    INFO("link " << i);
    CHECK(generated.link_frame(i).rotation == parsed.link_frame(i).rotation);
    CHECK(generated.link_frame(i).translation == parsed.link_frame(i).translation);
  }
  REQUIRE(generated.frames().size() == parsed.frames().size());
  for (std::size_t k = 0; k < parsed.frames().size(); ++k) {
    const auto& g = generated.frames()[k];
    const auto& p = parsed.frames()[k];
    INFO("frame '" << p.name << "'");
    CHECK(g.name == p.name);
    CHECK(g.frame.link() == p.frame.link());
    CHECK(g.frame.placement().rotation == p.frame.placement().rotation);
    CHECK(g.frame.placement().translation == p.frame.placement().translation);
  }
}

template <typename Chain>
void require_same_dynamics(const Chain& generated, const Chain& parsed) {
  std::mt19937 rng(chaindyn::test::kSeed);
  for (int k = 0; k < 5; ++k) {
    using Vector = typename Chain::Vector;
    const Vector q = chaindyn::test::random_state<Vector>(rng, 3.0);
    const Vector qd = chaindyn::test::random_state<Vector>(rng, 3.0);
    const Vector qdd = chaindyn::test::random_state<Vector>(rng, 3.0);
    const Vector a = chaindyn::rnea(generated, q, qd, qdd);
    const Vector b = chaindyn::rnea(parsed, q, qd, qdd);
    CHECK(a == b);
  }
}

}  // namespace

TEST_CASE("urdf2cpp header equals urdf parse bit for bit - iiwa14 with axes turned onto z",
          "[urdf2cpp]") {
  const auto generated = generated::iiwa14();
  const auto parsed = chaindyn::urdf::load<generated::iiwa14_chain<double>>(
      std::string(CHAINDYN_TEST_DATA_DIR) + "/urdf/iiwa14_no_collision.urdf");
  require_same_links(generated, parsed);
  require_same_frames(generated, parsed);
  require_same_dynamics(generated, parsed);
}

TEST_CASE("urdf2cpp header equals urdf parse bit for bit - panda with run-time axes",
          "[urdf2cpp]") {
  const auto generated = generated::panda();
  const auto parsed = chaindyn::urdf::load<generated::panda_chain<double>>(
      std::string(CHAINDYN_TEST_DATA_DIR) + "/urdf/panda.urdf", "panda_hand");
  require_same_links(generated, parsed);
  require_same_frames(generated, parsed);
  require_same_dynamics(generated, parsed);
}

TEST_CASE("urdf2cpp header equals urdf parse bit for bit - UR5 with axes turned onto z, link frames and tool0",
          "[urdf2cpp]") {
  const auto generated = generated::ur5();
  const auto parsed = chaindyn::urdf::load<generated::ur5_chain<double>>(
      std::string(CHAINDYN_TEST_DATA_DIR) + "/urdf/ur5_robot.urdf");
  require_same_links(generated, parsed);
  require_same_frames(generated, parsed);
  require_same_dynamics(generated, parsed);
  CHECK(generated.has_frame("tool0"));
  CHECK(generated.frame("tool0").link() == 5);
}
