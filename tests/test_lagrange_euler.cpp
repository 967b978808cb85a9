// The O(n^4) Lagrange-Euler baseline (4x4 homogeneous matrices, Uicker/Kahn) against the
// recursive algorithms: its D(q) equals crba, its c(q) gravity_torques, h + c nonlinear_effects
// and tau rnea, on seeded random chains of every joint kind (fixed and run-time axes, revolute
// and prismatic, with joint friction and armature) and on the iiwa.
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

#include "baselines/lagrange_euler.hpp"

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

template <typename Model>
double worst_lagrange_euler_error(const Model& model, std::mt19937& gen, int states) {
  using V = typename Model::Vector;
  baselines::LagrangeEulerData<Model> le(model);
  Data<Model> data;
  double worst = 0;
  for (int s = 0; s < states; ++s) {
    const V q = test::random_state<V>(gen, 3.0), qd = test::random_state<V>(gen, 2.0),
            qdd = test::random_state<V>(gen, 2.0);
    baselines::lagrange_euler(model, le, q, qd, qdd);
    const double errors[] = {
        relative_error(le.M, crba(model, q)),
        relative_error(le.g, gravity_torques(model, q)),
        relative_error(V(le.h + le.g), nonlinear_effects(model, q, qd)),
        relative_error(le.tau, rnea(model, q, qd, qdd)),
    };
    for (const double e : errors) worst = std::max(worst, e);
  }
  return worst;
}

}  // namespace

TEST_CASE("Lagrange-Euler baseline: D equals crba, c gravity_torques, h + c nonlinear_effects, tau rnea",
          "[baseline][lagrange_euler]") {
  std::mt19937 gen(test::kSeed + 41);
  double worst = 0;
  // Few chain types (compile time): one with every joint kind, seven RevoluteZ (random
  // placements: the iiwa's own type states its placements' structure).
  using Mixed = Chain<double, RevoluteZ, Prismatic, Revolute, PrismaticX, RevoluteY>;
  using Arm = ChainN<double, 7, RevoluteZ>;
  for (int trial = 0; trial < 5; ++trial) {
    const Mixed mixed(test::random_links<Mixed>(gen, true));
    const Arm chain(test::random_links<Arm>(gen, true));
    worst = std::max(worst, worst_lagrange_euler_error(mixed, gen, 5));
    worst = std::max(worst, worst_lagrange_euler_error(chain, gen, 5));
  }
  const robots::KukaIiwa<double> iiwa = robots::kuka_iiwa();
  worst = std::max(worst, worst_lagrange_euler_error(iiwa, gen, 5));
  WARN("worst Lagrange-Euler vs recursive relative error: " << worst);
  REQUIRE(worst < 1e-10);
}

TEST_CASE("Lagrange-Euler mass matrix alone equals the full call's and crba",
          "[baseline][lagrange_euler]") {
  std::mt19937 gen(test::kSeed + 42);
  using Model = ChainN<double, 7, RevoluteZ>;  // random placements: not the iiwa's Placed type
  const Model model(test::random_links<Model>(gen, true));
  const Model::Vector q = test::random_state<Model::Vector>(gen, 3.0);
  const Model::Vector zero = Model::Vector::Zero();
  REQUIRE(relative_error(baselines::lagrange_euler_mass_matrix(model, q), crba(model, q)) < 1e-12);
  // at rest without gravity tau = D qdd: the returning form agrees with M qdd
  Model no_gravity = model;
  no_gravity.set_gravity(Eigen::Vector3d::Zero());
  const Model::Vector qdd = test::random_state<Model::Vector>(gen, 2.0);
  REQUIRE(relative_error(baselines::lagrange_euler(no_gravity, q, zero, qdd),
                         Model::Vector(crba(model, q) * qdd)) < 1e-12);
}
