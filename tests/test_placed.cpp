/// @file
/// Placed joints (joints/placed.hpp, spatial/pattern.hpp): a chain whose joint types state the
/// structure of their placements computes what the same chain without that structure computes,
/// on the iiwa and on a chain with every pattern and joint kind; the placement checks and
/// their messages; the pattern names chaindyn-urdf2cpp emits.
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

#include <chaindyn/all.hpp>

#include <random>
#include <string>

namespace {

using namespace chaindyn;
using test::relative_error;

using OffZ = Offset<false, false, true>;
using OffY = Offset<false, true, false>;
/// The iiwa without placement types: the reference.
using PlainIiwa = ChainN<double, 7, RevoluteZ>;

/// Every pattern kind on every joint kind: signed axis permutations, rotations about one axis
/// by any angle (a DH table's Rx(alpha)), no structure; offsets along one or two axes, none,
/// any; revolute and prismatic joints with the axis in the type and given at run time.
template <typename S>
using MixedPlaced = Chain<S, Placed<RevoluteX, SignedAxes<2, 3, 1>, Offset<true, false, false>>,
                          Placed<RevoluteY, AboutAxis<0>, Offset<true, false, true>>,
                          Placed<PrismaticZ, SignedAxes<1, -3, 2>, NoOffset>,
                          Placed<Revolute, SignedAxes<-2, 1, 3>, OffY>,
                          Placed<PrismaticX, AboutAxis<2>, AnyOffset>,
                          Placed<Prismatic, AnyRotation, OffZ>,
                          Placed<RevoluteZ, AboutAxis<1>, Offset<false, true, true>>>;
/// The same joints without placement structure: the reference.
template <typename S>
using MixedPlain =
    Chain<S, RevoluteX, RevoluteY, PrismaticZ, Revolute, PrismaticX, Prismatic, RevoluteZ>;

/// Random links whose placements have MixedPlaced's patterns (exact zeros and ones).
std::vector<Link<double>> mixed_links(std::mt19937& gen) {
  const auto placement = [&](const Eigen::Matrix3d& r, const Eigen::Vector3d& mask) {
    const Eigen::Vector3d p = test::random_vector(gen, -0.4, 0.4);
    return Transform<double>(r, p.cwiseProduct(mask));
  };
  const auto signed_axes = [](std::initializer_list<int> axes) {
    Eigen::Matrix3d r = Eigen::Matrix3d::Zero();
    int c = 0;
    for (int a : axes) r((a > 0 ? a : -a) - 1, c++) = a > 0 ? 1.0 : -1.0;
    return r;
  };
  const double a1 = test::uniform(gen, -3.0, 3.0), a4 = test::uniform(gen, -3.0, 3.0),
               a6 = test::uniform(gen, -3.0, 3.0);
  std::vector<Link<double>> links = test::random_links<MixedPlain<double>>(gen, true);
  links[0].placement = placement(signed_axes({2, 3, 1}), {1, 0, 0});
  links[1].placement = placement(test::rot_x(a1), {1, 0, 1});
  links[2].placement = placement(signed_axes({1, -3, 2}), {0, 0, 0});
  links[3].placement = placement(signed_axes({-2, 1, 3}), {0, 1, 0});
  links[4].placement = placement(test::rot_z(a4), {1, 1, 1});
  links[5].placement = placement(test::random_rotation(gen), {0, 0, 1});
  links[6].placement = placement(test::rot_y(a6), {0, 1, 1});
  return links;
}

/// Every algorithm on `a` and `b` (chains of the same links), at random states.
template <typename A, typename B>
void require_same_dynamics(const A& a, const B& b, std::mt19937& gen, double tolerance) {
  using Vector = typename A::Vector;
  Data<A> da;
  Data<B> db;
  DerivativesData<A> dda;
  DerivativesData<B> ddb;
  for (int k = 0; k < 4; ++k) {
    const Vector q = test::random_state<Vector>(gen, 2.5);
    const Vector qd = test::random_state<Vector>(gen, 2.0);
    const Vector qdd = test::random_state<Vector>(gen, 4.0);
    const Vector tau = test::random_state<Vector>(gen, 10.0);
    LinkForces<A> fa;
    LinkForces<B> fb;
    for (std::size_t i = 0; i < std::size_t(A::nq); ++i) {
      fb[i] = fa[i] = Force<double>(test::random_vector(gen, -2, 2), test::random_vector(gen, -5, 5));
    }
    // forward dynamics divide by M: their rounding grows with its condition number
    const double solve_tolerance = tolerance * test::condition_number(crba(b, q));
    CHECK(relative_error(rnea(a, q, qd, qdd), rnea(b, q, qd, qdd)) < tolerance);
    CHECK(relative_error(rnea(a, q, qd, qdd, fa), rnea(b, q, qd, qdd, fb)) < tolerance);
    CHECK(relative_error(gravity_torques(a, q), gravity_torques(b, q)) < tolerance);
    CHECK(relative_error(crba(a, q), crba(b, q)) < tolerance);
    CHECK(relative_error(aba(a, q, qd, tau), aba(b, q, qd, tau)) < solve_tolerance);
    CHECK(relative_error(aba(a, q, qd, tau, fa), aba(b, q, qd, tau, fb)) < solve_tolerance);
    CHECK(relative_error(coriolis_matrix(a, q, qd), coriolis_matrix(b, q, qd)) < tolerance);
    CHECK(relative_error(kinetic_energy(a, q, qd), kinetic_energy(b, q, qd)) < tolerance);
    CHECK(relative_error(potential_energy(a, q), potential_energy(b, q)) < tolerance);
    forward_kinematics(a, da, q);
    forward_kinematics(b, db, q);
    for (std::size_t i = 0; i < std::size_t(A::nq); ++i) {
      CHECK(relative_error(da.oMi[i].rotation, db.oMi[i].rotation) < tolerance);
      CHECK(relative_error(da.oMi[i].translation, db.oMi[i].translation) < tolerance);
    }
    const auto tip_a = a.frame(std::size_t(A::nq - 1));
    const auto tip_b = b.frame(std::size_t(B::nq - 1));
    CHECK(relative_error(jacobian(a, q, tip_a), jacobian(b, q, tip_b)) < tolerance);
    rnea_derivatives(a, dda, q, qd, qdd);
    rnea_derivatives(b, ddb, q, qd, qdd);
    CHECK(relative_error(dda.dtau_dq, ddb.dtau_dq) < tolerance);
    CHECK(relative_error(dda.dtau_dqd, ddb.dtau_dqd) < tolerance);
    aba_derivatives(a, dda, q, qd, tau);
    aba_derivatives(b, ddb, q, qd, tau);
    CHECK(relative_error(dda.dqdd_dq, ddb.dqdd_dq) < solve_tolerance);
    CHECK(relative_error(dda.dqdd_dqd, ddb.dqdd_dqd) < solve_tolerance);
  }
}

}  // namespace

TEST_CASE("a chain of placed joints computes what the chain without placement types computes",
          "[placed]") {
  std::mt19937 gen(test::kSeed + 61);
  SECTION("the iiwa, every placement a signed axis permutation") {
    const robots::KukaIiwa<double> placed = robots::kuka_iiwa();  // a chain of Placed joints
    const PlainIiwa plain(placed.links());
    // The built-in placements have entries of 1e-16 where a right angle has a zero; the placed
    // chain sets them to zero: the reference gets the same exact zeros.
    std::array<Link<double>, 7> snapped_links = placed.links();
    for (Link<double>& l : snapped_links) {
      l.placement.rotation = l.placement.rotation.unaryExpr(
          [](double x) { return std::abs(x) < 1e-12 ? 0.0 : x; });
    }
    const PlainIiwa snapped(snapped_links);
    require_same_dynamics(placed, snapped, gen, 1e-14);
    // against the chain with its 1e-16 entries: M changes by ~1e-16 relative
    const Eigen::Matrix<double, 7, 1> q = test::random_state<Eigen::Matrix<double, 7, 1>>(gen, 2.5);
    CHECK(relative_error(crba(placed, q), crba(plain, q)) < 1e-14);
  }
  SECTION("every pattern on every joint kind") {
    const std::vector<Link<double>> links = mixed_links(gen);
    const MixedPlaced<double> placed(links);
    const MixedPlain<double> plain(links);
    require_same_dynamics(placed, plain, gen, 1e-13);
    SECTION("in float") {
      const auto placed_f = placed.cast<float>();
      const auto plain_f = plain.cast<float>();
      const Eigen::Matrix<float, 7, 1> q = Eigen::Matrix<float, 7, 1>::Constant(0.3f);
      CHECK(relative_error(rnea(placed_f, q, q, q), rnea(plain_f, q, q, q)) < 1e-5);
      CHECK(relative_error(crba(placed_f, q), crba(plain_f, q)) < 1e-5);
    }
  }
}

/// The iiwa's joints as RevoluteZ in the folded walk (ChainN<7, RevoluteZ> loops).
using FoldedIiwa = Chain<double, RevoluteZ, RevoluteZ, RevoluteZ, RevoluteZ, RevoluteZ,
                         RevoluteZ, RevoluteZ>;
static_assert(PlainIiwa::nq > PlainIiwa::unroll_limit, "ChainN<7, RevoluteZ> loops");
// a model-level axis row on the compile-time chains only: a ChainX's joints carry their own
static_assert(detail::has_axis_rows<PlainIiwa>::value && detail::has_axis_rows<FoldedIiwa>::value &&
                  !detail::has_axis_rows<ChainX<double>>::value,
              "axis_row(i): compile-time chains only");

TEMPLATE_TEST_CASE("a RevoluteZ chain finds the axis-row pattern of its placements, and computes "
                   "what a chain that has none computes",
                   "[placed]", PlainIiwa, FoldedIiwa) {
  // A RevoluteZ joint whose placement maps z to +-e_r (column z of the rotation) runs its link
  // transforms with the kernels of AxisRowPattern<r> (joints/placed.hpp), in a loop (ChainN) or
  // in a fold (Chain); a Revolute joint (run-time axis) never does: the reference, on the same
  // links.
  using Patterned = TestType;
  std::mt19937 gen(test::kSeed + 62);
  const std::array<Link<double>, 7> iiwa = robots::kuka_iiwa_links();
  std::array<Link<double>, 7> links = iiwa;
  std::array<int, 7> expected{};
  for (std::size_t i = 0; i < links.size(); ++i) {
    const Eigen::Vector3d z = iiwa[i].placement.rotation.col(2);
    Eigen::Index r = 0;
    z.cwiseAbs().maxCoeff(&r);
    expected[i] = int(r);
  }
  // link 3 turned by a generic rotation: no pattern there
  links[3].placement.rotation = test::random_rotation(gen) * links[3].placement.rotation;
  expected[3] = -1;
  // link 5 with its pattern's zeros and one 1e-13 off: set exactly
  links[5].placement.rotation(expected[5] == 0 ? 1 : 0, 2) += 1e-13;
  const Patterned patterned(links);
  for (std::size_t i = 0; i < links.size(); ++i) {
    INFO("link " << i);
    CHECK(patterned.axis_row(i) == expected[i]);
  }
  const Eigen::Vector3d z5 = patterned.placement(5).rotation.col(2);
  CHECK(z5.cwiseAbs().maxCoeff() == 1.0);
  CHECK(z5.cwiseAbs().sum() == 1.0);
  std::array<Link<double>, 7> axis_links = patterned.links();
  for (std::size_t i = 0; i < links.size(); ++i) {
    axis_links[i].axis = Eigen::Vector3d::UnitZ();
    axis_links[i].placement = patterned.placement(i);  // the same exact entries
  }
  const ChainN<double, 7, Revolute> dense(axis_links);
  for (std::size_t i = 0; i < links.size(); ++i) CHECK(dense.axis_row(i) == -1);
  require_same_dynamics(patterned, dense, gen, 1e-14);
  using Vector = typename Patterned::Vector;
  Data<Patterned> data;
  Data<ChainN<double, 7, Revolute>> dense_data;
  for (int k = 0; k < 8; ++k) {
    const Vector q = test::random_state<Vector>(gen, 3.0);
    const typename Patterned::Matrix reference = crba(dense, q);
    CHECK(relative_error(crba(patterned, q), reference) < 1e-14);
    // both link-coordinate forms, whichever crba picks with this compiler
    detail::crba_link_coordinates(patterned, data, q, data.M);
    CHECK(relative_error(data.M, reference) < 1e-14);
    detail::crba_link_coordinates_by_rows(patterned, data, q, data.M);
    CHECK(relative_error(data.M, reference) < 1e-14);
    // and what the composite inertias are: the same in both chains
    detail::crba_link_coordinates(dense, dense_data, q, dense_data.M);
    for (std::size_t i = 0; i < links.size(); ++i) {
      CHECK(relative_error(data.Ic[i].matrix(), dense_data.Ic[i].matrix()) < 1e-14);
    }
  }
}

TEST_CASE("a placement must fit its joint type's pattern: 1e-12 off is set exactly, more is refused",
          "[placed][validation]") {
  std::mt19937 gen(test::kSeed + 62);
  std::vector<Link<double>> links = mixed_links(gen);
  links[3].name = "elbow";
  SECTION("entries within 1e-12 of the pattern are set to it in the placement the algorithms read") {
    links[3].placement.rotation(2, 2) = 1.0 - 4e-13;
    links[3].placement.rotation(0, 2) = 3e-13;
    links[3].placement.translation.x() = -2e-13;
    const MixedPlaced<double> placed(links);
    CHECK(placed.placement(3).rotation(2, 2) == 1.0);
    CHECK(placed.placement(3).rotation(0, 2) == 0.0);
    CHECK(placed.placement(3).translation.x() == 0.0);
    CHECK(placed.link(3).placement.rotation(0, 2) == 3e-13);  // the link as given
  }
  SECTION("a rotation entry off its pattern") {
    // a proper rotation 1e-6 rad away from the pattern's: entry (0, 2) is sin(1e-6)
    links[3].placement.rotation = test::rot_y(1e-6) * links[3].placement.rotation;
    CHECK_THROWS_WITH(MixedPlaced<double>(links),
                         Catch::Matchers::Contains("'elbow'") &&
                             Catch::Matchers::Contains("placement rotation entry (0, 2) is 1e-06") &&
                             Catch::Matchers::Contains("states 0"));
  }
  SECTION("a unit entry off its pattern") {
    links[0].placement.rotation = test::rot_z(1e-5) * links[0].placement.rotation;
    CHECK_THROWS_WITH(MixedPlaced<double>(links),
                         Catch::Matchers::Contains("placement rotation entry"));
  }
  SECTION("an offset component the pattern says is zero") {
    links[2].placement.translation.y() = 0.05;
    CHECK_THROWS_WITH(MixedPlaced<double>(links),
                         Catch::Matchers::Contains("placement translation y is 0.05") &&
                             Catch::Matchers::Contains("Offset states 0"));
  }
}

TEST_CASE("the pattern names of placements, as chaindyn-urdf2cpp emits them", "[placed]") {
  const double half_pi = 1.570796326794897;
  CHECK(chaindyn::detail::rotation_pattern_name(Eigen::Matrix3d::Identity()) == "chaindyn::SignedAxes<1, 2, 3>");
  CHECK(chaindyn::detail::rotation_pattern_name(test::rpy(half_pi, 0, 3.141592653589793)) ==
        "chaindyn::SignedAxes<-1, 3, 2>");
  CHECK(chaindyn::detail::rotation_pattern_name(test::rot_x(half_pi)) == "chaindyn::SignedAxes<1, 3, -2>");
  CHECK(chaindyn::detail::rotation_pattern_name(test::rot_x(0.3)) == "chaindyn::AboutAxis<0>");
  CHECK(chaindyn::detail::rotation_pattern_name(test::rot_y(-2.0)) == "chaindyn::AboutAxis<1>");
  // 1.5708 is 3.7e-6 from a right angle: a rotation about x, not a permutation
  CHECK(chaindyn::detail::rotation_pattern_name(test::rot_x(1.5708)) == "chaindyn::AboutAxis<0>");
  CHECK(chaindyn::detail::rotation_pattern_name(test::rpy(1.5708, 0.1, 0)) == "chaindyn::AnyRotation");
  CHECK(chaindyn::detail::offset_pattern_name(Eigen::Vector3d(0, 0, 0.2)) ==
        "chaindyn::Offset<false, false, true>");
  CHECK(chaindyn::detail::offset_pattern_name(Eigen::Vector3d(1e-13, -0.1, 0)) ==
        "chaindyn::Offset<false, true, false>");
  // The names are the types: the iiwa's placements named and built
  const robots::KukaIiwa<double> iiwa = robots::kuka_iiwa();
  const std::string expected[7] = {"chaindyn::SignedAxes<1, 2, 3>", "chaindyn::SignedAxes<-1, 3, 2>",
                                   "chaindyn::SignedAxes<-1, 3, 2>", "chaindyn::SignedAxes<1, 3, -2>",
                                   "chaindyn::SignedAxes<-1, 3, 2>", "chaindyn::SignedAxes<1, 3, -2>",
                                   "chaindyn::SignedAxes<-1, 3, 2>"};
  for (std::size_t i = 0; i < 7; ++i) {
    CHECK(chaindyn::detail::rotation_pattern_name(iiwa.placement(i).rotation) == expected[i]);
  }
  CHECK_NOTHROW(robots::KukaIiwa<double>(iiwa.links()));
  // the other built-in robots' types fit their placements (their constructors check them)
  CHECK_NOTHROW(robots::panda());
  CHECK_NOTHROW(robots::ur5());
  CHECK_NOTHROW(robots::puma560());
}
