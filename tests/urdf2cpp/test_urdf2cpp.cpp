/// @file
/// chaindyn-urdf2cpp's headers build the chain urdf::parse builds, bit for bit. The headers are
/// generated at build time from tests/data/urdf (tests/CMakeLists.txt): iiwa14 with axes
/// turned onto z (a Chain of Placed<RevoluteZ, ...>), Panda to its hand (the fingers are
/// off the path) with run-time axes (Placed<Revolute, ...>), UR5 with its y axes turned onto z (the
/// link frames the frame API converts from) -- with the file's named frames; and two fixtures
/// (tests/data/urdf/fixtures) built with relaxed checks: the UR5 without inertials
/// (kinematics only) and the iiwa with a placeholder inertia on link 7 kept (--inertia accept),
/// with the parser's report as comments. With --tree: the Panda's whole tree (a Tree of Placed
/// joints, fingers included) and the massless-finger fixture with --massless armature.
#include "generated_fingers_tree.hpp"
#include "generated_iiwa14.hpp"
#include "generated_iiwa_accept.hpp"
#include "generated_panda.hpp"
#include "generated_panda_tree.hpp"
#include "generated_ur5.hpp"
#include "generated_ur5_kinematics.hpp"

#include "chaindyn/algorithms/rnea.hpp"
#include "chaindyn/urdf.hpp"
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string generated_text(const std::string& name) {
  std::ifstream in(std::string(CHAINDYN_GENERATED_DIR) + "/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

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
  // Each joint placed with its placement's structure (joint 2: rpy = (pi/2, 0, pi), z offset),
  // which changes no result beyond rounding: the same file as a chain of plain RevoluteZ joints
  const std::string text = generated_text("generated_iiwa14.hpp");
  CHECK(text.find("chaindyn::Placed<chaindyn::RevoluteZ, chaindyn::SignedAxes<-1, 3, 2>, "
                  "chaindyn::Offset<false, false, true>>") != std::string::npos);
  using Plain = chaindyn::ChainN<double, 7, chaindyn::RevoluteZ>;
  const Plain plain = chaindyn::urdf::load<Plain>(std::string(CHAINDYN_TEST_DATA_DIR) +
                                                  "/urdf/iiwa14_no_collision.urdf");
  std::mt19937 rng(chaindyn::test::kSeed + 1);
  for (int k = 0; k < 5; ++k) {
    const Plain::Vector q = chaindyn::test::random_state<Plain::Vector>(rng, 3.0);
    const Plain::Vector qd = chaindyn::test::random_state<Plain::Vector>(rng, 3.0);
    CHECK(chaindyn::test::relative_error(chaindyn::rnea(generated, q, qd, qd),
                                         chaindyn::rnea(plain, q, qd, qd)) < 1e-14);
  }
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


TEST_CASE("urdf2cpp: a kinematics-only file gives a header that builds the same kinematics-only chain, its report as comments",
          "[urdf2cpp]") {
  const auto generated = generated::ur5_kinematics();
  const auto parsed = chaindyn::urdf::load<generated::ur5_kinematics_chain<double>>(
      std::string(CHAINDYN_TEST_DATA_DIR) + "/urdf/fixtures/ur5_no_inertials.urdf");
  require_same_links(generated, parsed);
  require_same_frames(generated, parsed);
  CHECK_FALSE(generated.has_dynamics());
  CHECK_FALSE(parsed.has_dynamics());
  const std::string text = generated_text("generated_ur5_kinematics.hpp");
  CHECK(text.find("// chaindyn::urdf report (--inertia strict): 1 warning, 0 notes\n") != std::string::npos);
  CHECK(text.find("ur5_no_inertials.urdf:3: warning: robot 'ur5': no link of the chain") != std::string::npos);
  CHECK(text.find("checks.regular = false;") != std::string::npos);
}

TEST_CASE("urdf2cpp: --inertia accept gives a header that keeps the inertia as written, as urdf parse does",
          "[urdf2cpp]") {
  const auto generated = generated::iiwa_accept();
  chaindyn::urdf::LoadOptions options;
  options.inertia = chaindyn::urdf::InertiaPolicy::accept;
  const auto parsed = chaindyn::urdf::load<generated::iiwa_accept_chain<double>>(
      std::string(CHAINDYN_TEST_DATA_DIR) + "/urdf/fixtures/iiwa_chain_placeholder.urdf", options);
  require_same_links(generated, parsed);
  require_same_frames(generated, parsed);
  require_same_dynamics(generated, parsed);
  CHECK_FALSE(generated.checks().physical_inertia);
  const std::string text = generated_text("generated_iiwa_accept.hpp");
  CHECK(text.find("// chaindyn::urdf report (--inertia accept): 1 warning, 1 note\n") != std::string::npos);
  CHECK(text.find("warning: link 'iiwa_link_7': <inertial>: inertia [0.0001") != std::string::npos);
  CHECK(text.find("checks.physical_inertia = false;") != std::string::npos);
}

TEST_CASE("urdf2cpp --tree: the Panda's whole tree equals urdf::load_tree of that type bit for bit, "
          "and the TreeX's numbers",
          "[urdf2cpp][trees]") {
  const std::string path = std::string(CHAINDYN_TEST_DATA_DIR) + "/urdf/panda.urdf";
  const auto generated = generated::panda_whole();
  const auto parsed = chaindyn::urdf::load_tree<generated::panda_whole_tree<double>>(path);
  require_same_links(generated, parsed);
  require_same_frames(generated, parsed);
  require_same_dynamics(generated, parsed);
  CHECK(generated.parent(8) == 6);
  const chaindyn::TreeX<double> any = chaindyn::urdf::load_tree(path);
  std::mt19937 rng(chaindyn::test::kSeed + 2);
  for (int k = 0; k < 5; ++k) {
    using V = generated::panda_whole_tree<double>::Vector;
    const V q = chaindyn::test::random_state<V>(rng, 3.0), qd = chaindyn::test::random_state<V>(rng, 3.0);
    const Eigen::VectorXd qx = q, qdx = qd;
    CHECK(chaindyn::test::relative_error(chaindyn::rnea(generated, q, qd, qd),
                                         chaindyn::rnea(any, qx, qdx, qdx)) < 1e-13);
  }
  const std::string text = generated_text("generated_panda_tree.hpp");
  CHECK(text.find("using panda_whole_tree = chaindyn::Tree<Scalar, chaindyn::Parents<-1, 0, 1, 2, "
                  "3, 4, 5, 6, 6>,") != std::string::npos);
  CHECK(text.find("warning: joint 'panda_finger_joint2': <mimic") != std::string::npos);
}

TEST_CASE("urdf2cpp --tree --massless armature: the fingers' armature and the file's frames, as "
          "urdf::load_tree gives them",
          "[urdf2cpp][trees]") {
  chaindyn::urdf::TreeLoadOptions options;
  options.massless = chaindyn::urdf::MasslessPolicy::armature;
  const auto generated = generated::fingers();
  const auto parsed = chaindyn::urdf::load_tree<generated::fingers_tree<double>>(
      std::string(CHAINDYN_TEST_DATA_DIR) + "/urdf/fixtures/arm_massless_fingers.urdf", options);
  require_same_links(generated, parsed);
  require_same_frames(generated, parsed);
  CHECK(generated.armature()[2] == 1e-3);
  CHECK(generated.has_dynamics());
  const std::string text = generated_text("generated_fingers_tree.hpp");
  CHECK(text.find("(--inertia strict, --massless armature): 2 warnings, 0 notes") != std::string::npos);
}
