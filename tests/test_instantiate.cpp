// chaindyn/instantiate.hpp: the explicit instantiation declarations and definitions match the
// algorithms' signatures (this file fails to compile otherwise), and the algorithms called
// through them give what the equation of motion says: tau = M qdd + h + friction.
#include "support/test_support.hpp"

#include <chaindyn/instantiate.hpp>

#include <catch2/catch.hpp>

namespace {
using Instantiated = chaindyn::Chain<double, chaindyn::RevoluteY, chaindyn::PrismaticZ,
                                     chaindyn::Revolute>;
}  // namespace

CHAINDYN_EXTERN_ALGORITHMS(Instantiated);

TEST_CASE("explicitly instantiated rnea equals crba qdd + nonlinear_effects + friction",
          "[instantiate]") {
  using namespace chaindyn;
  using Vector = Instantiated::Vector;
  std::mt19937 gen(test::kSeed + 77);
  const Instantiated model(test::random_links<Instantiated>(gen, true));
  Data<Instantiated> data;
  for (int trial = 0; trial < 10; ++trial) {
    const Vector q = test::random_state<Vector>(gen, 3.0), qd = test::random_state<Vector>(gen, 2.0),
                 qdd = test::random_state<Vector>(gen, 2.0);
    crba(model, data, q);
    const Instantiated::Matrix m = data.M;
    nonlinear_effects(model, data, q, qd);
    const Vector expected = m * qdd + data.nle + friction_torques(model, qd);
    rnea(model, data, q, qd, qdd);
    REQUIRE(test::relative_error(data.tau, expected) < 1e-12);
    aba(model, data, q, qd, data.tau);
    REQUIRE(test::relative_error(data.qdd, qdd) < 1e-10);
  }
}

CHAINDYN_INSTANTIATE_ALGORITHMS(Instantiated);
