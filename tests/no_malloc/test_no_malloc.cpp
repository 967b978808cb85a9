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

#include "support/test_support.hpp"

#include <chaindyn/algorithms/coriolis.hpp>
#include <chaindyn/algorithms/inverse_mass_matrix.hpp>
#include <chaindyn/algorithms/jacobian.hpp>
#include <chaindyn/identification/regressor.hpp>

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

// The chain types of this file: every joint kind with fixed and run-time axes, both walks (fold
// over Chain's types and ChainN's loop) and a long chain. Allocation does not depend on the
// chain's length or order of joints, so test::MixedChains' ten types would only cost compile
// time (this file is the test build's slowest after test_identities).
using NoMallocChains = std::tuple<Chain<double, RevoluteZ, RevoluteY, PrismaticX>,
                                  Chain<double, Revolute, PrismaticY, RevoluteX, Prismatic>,
                                  ChainN<double, 7, Revolute>, ChainN<double, 12, RevoluteZ>>;

TEMPLATE_LIST_TEST_CASE("in-place algorithms make no heap allocation", "[no_malloc]",
                        NoMallocChains) {
  using Vector = typename TestType::Vector;
  std::mt19937 gen(test::kSeed);
  const TestType model(test::random_links<TestType>(gen, true));
  auto data = std::make_unique<Data<TestType>>();  // allocated before the check starts
  auto y = std::make_unique<RegressorMatrix<TestType>>();
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
  inverse_mass_matrix(model, *data, q);
  regressor(model, *data, q, qd, qdd, *y);
  REQUIRE(data->Minv.allFinite());
  REQUIRE(y->allFinite());
}

// Kinematics, the Coriolis matrix and payloads (algorithms/jacobian.hpp, coriolis.hpp,
// model/chain.hpp).
TEMPLATE_LIST_TEST_CASE("kinematics, Coriolis and payload updates make no heap allocation",
                        "[no_malloc]", NoMallocChains) {
  using Vector = typename TestType::Vector;
  std::mt19937 gen(test::kSeed);
  TestType model(test::random_links<TestType>(gen, true));
  auto data = std::make_unique<Data<TestType>>();
  auto gamma = std::make_unique<std::array<typename TestType::Matrix, std::size_t(TestType::nq)>>();
  const Vector q = test::random_state<Vector>(gen, 3.0), qd = test::random_state<Vector>(gen, 2.0);
  const Transform<double> frame(test::random_rotation(gen), Eigen::Vector3d(0.1, 0.2, 0.3));
  const Force<double> wrench(Eigen::Vector3d(1, 2, 3), Eigen::Vector3d(4, 5, 6));
  const Payload<double> payload = Payload<double>::point_mass(0.851, Eigen::Vector3d(0, 0, 0.1));
  const std::size_t last = std::size_t(TestType::nq) - 1;
  FrameJacobian<TestType> J;
  FrameVector<TestType> a;

  NoMalloc guard;
  frame_pose(model, *data, q, last, frame);
  jacobian(model, *data, q, last, frame, ReferenceFrame::world, J);
  jacobian(model, *data, q, 0, ReferenceFrame::local, J);
  jdot_qd(model, *data, q, qd, last, frame, ReferenceFrame::world, a);
  jdot_qd(model, *data, q, qd, 0, ReferenceFrame::local, a);
  joint_torques_from_wrench(model, *data, q, last, wrench, frame, ReferenceFrame::local);
  joint_torques_from_wrench(model, *data, q, 0, wrench, ReferenceFrame::world);
  coriolis_matrix(model, *data, q, qd);
  christoffel_symbols(model, *data, q, *gamma);
  model.set_payload(last, payload);
  model.clear_payload(last);
  REQUIRE(J.allFinite());
  REQUIRE(a.allFinite());
  REQUIRE(data->C.allFinite());
}

// --- Simulation (issue 4): streaming simulate() allocates nothing per step ----------------
#include <chaindyn/simulation.hpp>

TEST_CASE("streaming simulate makes no heap allocation per step with any integrator",
          "[no_malloc]") {
  // A three-joint chain with damping and armature, under a PD controller that tracks a
  // quintic; every sample is streamed. Data is allocated once before the steps, by operator new
  // (not Eigen's allocator), so the check below sees only per-step work. No Coulomb friction:
  // its jump at qd = 0 makes RK45 chatter with tiny steps on some of these random models
  // (1.5 million steps for 0.5 s with clang's draw; see docs/simulation.md).
  using Model = Chain<double, RevoluteZ, RevoluteY, PrismaticX>;
  using Vector = Model::Vector;
  std::mt19937 gen(test::kSeed);
  auto links = test::random_links<Model>(gen, true);
  for (auto& l : links) l.dynamics.friction = 0.0;
  const Model model(links);
  const QuinticTrajectory<Vector> reference(Vector::Zero(), Vector(0.5, -0.3, 0.1), 0.5);
  const auto pd = [&](double t, const Vector& q, const Vector& qd) -> Vector {
    const auto r = reference(t);
    return 50.0 * (r.q - q) + 5.0 * (r.qd - qd);
  };
  for (Integrator method : {Integrator::semi_implicit_euler, Integrator::rk4, Integrator::rk45}) {
    for (double interval : {0.0, 0.01}) {
      SimulationOptions<double> options;
      options.integrator = method;
      options.output_interval = interval;
      std::size_t samples = 0;
      double checksum = 0;
      IntegrationStats stats;
      {
        NoMalloc guard;
        stats = simulate(model, Vector::Zero(), Vector::Zero(), pd, 0.5, options,
                         [&](const SimulationSample<Model>& s) {
                           ++samples;
                           checksum += s.q.sum() + s.tau.sum();
                         });
      }
      CHECK(samples > 10);
      CHECK(stats.steps > 10);
      CHECK(std::isfinite(checksum));
    }
  }
}

// --- Analytical derivatives (issue 6): rnea_derivatives and aba_derivatives in place ------
#include <chaindyn/algorithms/aba_derivatives.hpp>
#include <chaindyn/algorithms/rnea_derivatives.hpp>

TEMPLATE_TEST_CASE("rnea_derivatives and aba_derivatives make no heap allocation",
                   "[no_malloc][derivatives]", (Chain<double, RevoluteZ, RevoluteY, PrismaticX>),
                   (ChainN<double, 7, Revolute>)) {
  using Vector = typename TestType::Vector;
  std::mt19937 gen(test::kSeed);
  const TestType model(test::random_links<TestType>(gen, true));
  auto data = std::make_unique<DerivativesData<TestType>>();
  const Vector q = test::random_state<Vector>(gen, 3.0), qd = test::random_state<Vector>(gen, 2.0),
               qdd = test::random_state<Vector>(gen, 2.0);
  const Vector tau = rnea(model, q, qd, qdd);

  NoMalloc guard;
  rnea_derivatives(model, *data, q, qd, qdd);
  aba_derivatives(model, *data, q, qd, tau);
  REQUIRE(data->dtau_dq.allFinite());
  REQUIRE(data->dqdd_dq.allFinite());
  REQUIRE((data->data.qdd - qdd).cwiseAbs().maxCoeff() < 1e-8);
}
