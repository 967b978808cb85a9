// No in-place algorithm allocates. Built with EIGEN_RUNTIME_NO_MALLOC and NDEBUG undefined
// (tests/CMakeLists.txt), so Eigen checks every heap allocation it makes; eigen_assert is made
// to throw so that the test can first prove the check is live.
#include <memory>
#include <stdexcept>

struct EigenAssertion : std::runtime_error {
  using std::runtime_error::runtime_error;
};
#define eigen_assert(x) \
  do {                  \
    if (!(x)) throw EigenAssertion(#x); \
  } while (false)

#ifndef EIGEN_RUNTIME_NO_MALLOC
#error "build this test with EIGEN_RUNTIME_NO_MALLOC defined"
#endif
#ifdef NDEBUG
#error "build this test with NDEBUG undefined: Eigen's malloc check is an assertion"
#endif

#include "support/chains.hpp"
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

using namespace chaindyn;

namespace {

struct NoMalloc {
  NoMalloc() { Eigen::internal::set_is_malloc_allowed(false); }
  ~NoMalloc() { Eigen::internal::set_is_malloc_allowed(true); }
};

}  // namespace

TEST_CASE("the allocation check is live in this build", "[no_malloc]") {
  NoMalloc guard;
  REQUIRE_THROWS_AS(Eigen::VectorXd(100), EigenAssertion);
}

TEMPLATE_LIST_TEST_CASE("in-place algorithms make no heap allocation", "[no_malloc]",
                        test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  std::mt19937 gen(test::kSeed);
  const TestType model(test::random_links<TestType>(gen, true));
  auto data = std::make_unique<Data<TestType>>();  // allocated before the check starts
  const Vector q = test::random_state<Vector>(gen, 3.0), qd = test::random_state<Vector>(gen, 2.0),
               qdd = test::random_state<Vector>(gen, 2.0);
  LinkForces<TestType> f_ext;
  for (auto& f : f_ext) f.linear = Eigen::Vector3d(1, 2, 3);

  NoMalloc guard;
  forward_kinematics(model, *data, q);
  rnea(model, *data, q, qd, qdd);
  rnea(model, *data, q, qd, qdd, f_ext);
  gravity_torques(model, *data, q);
  nonlinear_effects(model, *data, q, qd);
  crba(model, *data, q);
  aba(model, *data, q, qd, qdd);
  aba(model, *data, q, qd, qdd, f_ext);
  forward_dynamics_crba(model, *data, q, qd, qdd);
  kinetic_energy(model, *data, q, qd);
  potential_energy(model, *data, q);
  REQUIRE(data->qdd.allFinite());
}
