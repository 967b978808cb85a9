// No in-place algorithm allocates.
//
// Every in-place call runs inside REQUIRE_NO_ALLOCATION, which arms two nets:
// 1. The allocation counter (allocation_counter.hpp): every heap allocation of the calling
//    thread, through the replaced global operator new and the interposed malloc family (or,
//    under ASan, the sanitizer allocator's hook), so std::vector, std::string, new and Eigen's
//    dynamic matrices alike. The test REQUIREs the count to be 0.
// 2. Eigen's own check, EIGEN_RUNTIME_NO_MALLOC (Eigen's dynamic allocations only). It is an
//    eigen_assert, made to throw here so that the test can prove the check is live; thrown
//    inside a noexcept algorithm it terminates the test with Eigen's message. Built with
//    EIGEN_RUNTIME_NO_MALLOC and NDEBUG undefined (tests/CMakeLists.txt).
//
// The first test cases show that the counter does fail: new, std::vector, a std::string
// longer than the small-string buffer, malloc and Eigen::VectorXd inside a counted scope all
// give a count > 0. Checked once by hand as well, on a copy of the tree (not committed):
// - `std::vector<int> v(3);` (unused) inserted at the top of detail::rnea_pass
//   (algorithms/rnea.hpp): with the release (g++ -O1) and asan (-O0) presets, 8 of the 21
//   tests fail, REQUIRE(allocations_ == 0) as "1 == 0" on rnea and on
//   PayloadIdentification::add_sample. With the clang preset (-O2) all pass: clang removes the
//   unused vector's new/delete pair (allocation elision, allowed since C++14), so nothing is
//   allocated at run time.
// - A vector the code uses (push_back of every q[i], its size written to data.tau[0]) at the
//   same place: 8 of 21 fail with all three presets; with CHECK instead of REQUIRE, every call
//   that runs rnea_pass is flagged (rnea with and without f_ext, gravity_torques,
//   nonlinear_effects, forward_dynamics_crba, regressor, link_regressor,
//   regressor_with_joint_dynamics, add_sample), and no other. Eigen's net saw neither.
// (Two sources compiled in parallel: this one, the nets and the compile-time chains;
// test_no_malloc_more.cpp, ChainX, trees, floating bases and the rest.)
#include "no_malloc/no_malloc_test.hpp"

// --- The nets are live: the counter counts, Eigen's check fires ----------------------------

TEST_CASE("the allocation counter's hook in this build", "[no_malloc][counter]") {
  std::cout << "allocation counter: " << test::allocation_hook_description() << '\n';
  REQUIRE(test::allocation_hook_active());
  REQUIRE(test::count_allocations([] {}) == 0);
}

TEST_CASE("the allocation counter counts new int", "[no_malloc][counter]") {
  const std::size_t n = test::count_allocations([] {
    int* p = new int(42);
    test::escape(p);
    delete p;
  });
  REQUIRE(n > 0);
}

TEST_CASE("the allocation counter counts std::vector<double>(10)", "[no_malloc][counter]") {
  const std::size_t n = test::count_allocations([] {
    std::vector<double> v(10);
    test::escape(v.data());
  });
  REQUIRE(n > 0);
}

TEST_CASE("the allocation counter counts a std::string longer than the small-string buffer",
          "[no_malloc][counter]") {
  const std::size_t n = test::count_allocations([] {
    std::string s(100, 'x');
    test::escape(s.data());
  });
  REQUIRE(n > 0);
}

TEST_CASE("the allocation counter counts malloc(32)", "[no_malloc][counter]") {
  if (!test::counts_malloc()) {
    WARN("malloc is not counted in this build: " << test::allocation_hook_description());
    return;
  }
  const std::size_t n = test::count_allocations([] {
    void* p = std::malloc(32);
    test::escape(p);
    std::free(p);
  });
  REQUIRE(n > 0);
}

TEST_CASE("the allocation counter counts Eigen::VectorXd(100)", "[no_malloc][counter]") {
  if (!test::counts_malloc()) {
    WARN("Eigen allocates with malloc, which is not counted in this build: "
         << test::allocation_hook_description());
    return;
  }
  const std::size_t n = test::count_allocations([] {
    Eigen::VectorXd v(100);
    test::escape(v.data());
  });
  REQUIRE(n > 0);
}

TEST_CASE("the allocation counter counts every allocation function", "[no_malloc][counter]") {
  const auto counted = [](auto&& f) { return test::count_allocations(f); };
  SECTION("new[]") {
    REQUIRE(counted([] {
              double* p = new double[7];
              test::escape(p);
              delete[] p;
            }) == 1);
  }
  SECTION("aligned new") {
    struct alignas(64) Line {
      double x[8];
    };
    REQUIRE(counted([] {
              Line* p = new Line();
              test::escape(p);
              delete p;
            }) == 1);
    REQUIRE(counted([] {
              Line* p = new Line[3]();
              test::escape(p);
              delete[] p;
            }) == 1);
  }
  SECTION("nothrow new") {
    REQUIRE(counted([] {
              int* p = new (std::nothrow) int(1);
              test::escape(p);
              delete p;
            }) == 1);
  }
  SECTION("operator new called directly") {
    REQUIRE(counted([] {
              void* p = ::operator new(24);
              test::escape(p);
              ::operator delete(p);
            }) == 1);
  }
  if (test::counts_malloc()) {
    SECTION("calloc, realloc") {
      REQUIRE(counted([] {
                void* p = std::calloc(4, 8);
                test::escape(p);
                p = std::realloc(p, 4096);
                test::escape(p);
                std::free(p);
              }) == 2);
    }
    SECTION("aligned_alloc, posix_memalign") {
      REQUIRE(counted([] {
                void* p = std::aligned_alloc(64, 128);
                test::escape(p);
                std::free(p);
                void* q = nullptr;
                if (posix_memalign(&q, 64, 128) == 0) test::escape(q);
                std::free(q);
              }) == 2);
    }
    SECTION("strdup (a libc function that allocates inside libc)") {
      REQUIRE(counted([] {
                char* s = strdup("allocated by libc");
                test::escape(s);
                std::free(s);
              }) == 1);
    }
  }
}

TEST_CASE("the allocation counter: fixed-size Eigen, nested scopes, other threads",
          "[no_malloc][counter]") {
  // Fixed-size Eigen arithmetic allocates nothing.
  Eigen::Matrix<double, 6, 6> m = Eigen::Matrix<double, 6, 6>::Identity();
  REQUIRE(test::count_allocations([&] { m = (m * m + m).eval(); }) == 0);

  // Nested scopes: the outer one counts the inner one's allocations too.
  std::size_t inner = 0;
  const std::size_t outer = test::count_allocations([&] {
    inner = test::count_allocations([] {
      int* p = new int(1);
      test::escape(p);
      delete p;
    });
  });
  REQUIRE(inner == 1);
  REQUIRE(outer == 1);

  // Another thread allocating while this thread's scope is armed is not counted here.
  std::atomic<int> stage{0};
  std::thread other([&] {
    while (stage.load() != 1) std::this_thread::yield();
    std::vector<double> v(1000);
    test::escape(v.data());
    stage.store(2);
  });
  const std::size_t here = test::count_allocations([&] {
    stage.store(1);
    while (stage.load() != 2) std::this_thread::yield();
  });
  other.join();
  REQUIRE(here == 0);
}

TEST_CASE("Eigen's allocation check (EIGEN_RUNTIME_NO_MALLOC) is live in this build",
          "[no_malloc]") {
  const EigenNoMalloc guard;
  REQUIRE_THROWS_AS(Eigen::VectorXd(100), EigenAssertion);
}

// --- The algorithms ------------------------------------------------------------------------

// The chain types of this file: every joint kind with fixed and run-time axes, both walks (fold
// over Chain's types and ChainN's loop) and a long chain. Allocation does not depend on the
// chain's length or order of joints, so test::MixedChains' five types would only cost compile
// time (this file is the test build's slowest after test_identities).
using NoMallocChains = std::tuple<Chain<double, RevoluteZ, RevoluteY, PrismaticX>,
                                  Chain<double, Revolute, PrismaticY, RevoluteX, Prismatic>,
                                  ChainN<double, 7, Revolute>, ChainN<double, 12, RevoluteZ>>;

// Dynamics, energies, the inverse mass matrix and the regressors (algorithms/rnea.hpp,
// nonlinear_effects.hpp, crba.hpp, aba.hpp, forward_dynamics_crba.hpp, energy.hpp,
// inverse_mass_matrix.hpp, regressor.hpp, friction.hpp).
TEMPLATE_LIST_TEST_CASE("in-place algorithms make no heap allocation", "[no_malloc]",
                        NoMallocChains) {
  using Vector = typename TestType::Vector;
  std::mt19937 gen(test::kSeed);
  const TestType model(test::random_links<TestType>(gen, true));
  // the workspaces and outputs are allocated before the counted calls
  auto data = std::make_unique<Data<TestType>>();
  auto y = std::make_unique<RegressorMatrix<TestType>>();
  auto yk = std::make_unique<
      Eigen::Matrix<double, TestType::nq, kInertialParametersPerLink>>();
  auto yj = std::make_unique<RegressorWithJointDynamicsMatrix<TestType>>();
  const Vector q = test::random_state<Vector>(gen, 3.0), qd = test::random_state<Vector>(gen, 2.0),
               qdd = test::random_state<Vector>(gen, 2.0);
  LinkForces<TestType> f_ext;
  for (auto& f : f_ext) f.linear = Eigen::Vector3d(1, 2, 3);
  const std::size_t last = std::size_t(TestType::nq) - 1;
  double kinetic = 0, potential = 0;
  Vector friction = Vector::Zero();

  REQUIRE_NO_ALLOCATION(forward_kinematics(model, *data, q));
  REQUIRE_NO_ALLOCATION(rnea(model, *data, q, qd, qdd));
  REQUIRE_NO_ALLOCATION(rnea(model, *data, q, qd, qdd, f_ext));
  REQUIRE_NO_ALLOCATION(gravity_torques(model, *data, q));
  REQUIRE_NO_ALLOCATION(nonlinear_effects(model, *data, q, qd));
  REQUIRE_NO_ALLOCATION(crba(model, *data, q));
  REQUIRE_NO_ALLOCATION(aba(model, *data, q, qd, qdd));
  REQUIRE_NO_ALLOCATION(aba(model, *data, q, qd, qdd, f_ext));
  REQUIRE_NO_ALLOCATION(forward_dynamics_crba(model, *data, q, qd, qdd));
  REQUIRE(data->qdd.allFinite());
  REQUIRE_NO_ALLOCATION(kinetic = kinetic_energy(model, *data, q, qd));
  REQUIRE_NO_ALLOCATION(potential = potential_energy(model, *data, q));
  REQUIRE(std::isfinite(kinetic + potential));
  REQUIRE_NO_ALLOCATION(inverse_mass_matrix(model, *data, q));
  REQUIRE(data->Minv.allFinite());
  REQUIRE_NO_ALLOCATION(regressor(model, *data, q, qd, qdd, *y));
  REQUIRE_NO_ALLOCATION(link_regressor(model, *data, q, qd, qdd, last, *yk));
  REQUIRE_NO_ALLOCATION(regressor_with_joint_dynamics(model, *data, q, qd, qdd, *yj));
  REQUIRE(y->allFinite());
  REQUIRE(yk->allFinite());
  REQUIRE(yj->allFinite());
  REQUIRE_NO_ALLOCATION(friction = friction_torques(model, qd));
  REQUIRE(friction.allFinite());
}

// Kinematics, the Coriolis matrix, payloads and payload identification (algorithms/frames.hpp,
// jacobian.hpp, coriolis.hpp, payload_identification.hpp, model/chain.hpp).
TEMPLATE_LIST_TEST_CASE("kinematics, Coriolis and payload updates make no heap allocation",
                        "[no_malloc]", NoMallocChains) {
  using Vector = typename TestType::Vector;
  std::mt19937 gen(test::kSeed);
  TestType model(test::random_links<TestType>(gen, true));
  auto data = std::make_unique<Data<TestType>>();
  auto gamma = std::make_unique<std::array<typename TestType::Matrix, std::size_t(TestType::nq)>>();
  const Vector q = test::random_state<Vector>(gen, 3.0), qd = test::random_state<Vector>(gen, 2.0),
               qdd = test::random_state<Vector>(gen, 2.0);
  const Transform<double> frame(test::random_rotation(gen), Eigen::Vector3d(0.1, 0.2, 0.3));
  const Force<double> wrench(Eigen::Vector3d(1, 2, 3), Eigen::Vector3d(4, 5, 6));
  const Payload<double> payload = Payload<double>::point_mass(0.851, Eigen::Vector3d(0, 0, 0.1));
  const std::size_t last = std::size_t(TestType::nq) - 1;
  FrameJacobian<TestType> J;
  FrameVector<TestType> a;

  REQUIRE_NO_ALLOCATION(frame_pose(model, *data, q, last, frame));
  REQUIRE_NO_ALLOCATION(frame_pose(model, *data, q, 0));
  REQUIRE(data->oMf.translation.allFinite());
  REQUIRE_NO_ALLOCATION(jacobian(model, *data, q, last, frame, ReferenceFrame::world, J));
  REQUIRE_NO_ALLOCATION(jacobian(model, *data, q, 0, ReferenceFrame::local, J));
  REQUIRE_NO_ALLOCATION(jdot_qd(model, *data, q, qd, last, frame, ReferenceFrame::world, a));
  REQUIRE_NO_ALLOCATION(jdot_qd(model, *data, q, qd, 0, ReferenceFrame::local, a));
  REQUIRE_NO_ALLOCATION(
      joint_torques_from_wrench(model, *data, q, last, wrench, frame, ReferenceFrame::local));
  REQUIRE_NO_ALLOCATION(
      joint_torques_from_wrench(model, *data, q, 0, wrench, ReferenceFrame::world));
  REQUIRE_NO_ALLOCATION(coriolis_matrix(model, *data, q, qd));
  REQUIRE_NO_ALLOCATION(christoffel_symbols(model, *data, q, *gamma));
  REQUIRE_NO_ALLOCATION(model.set_payload(last, payload));
  REQUIRE(model.payload(last).has_value());
  REQUIRE_NO_ALLOCATION(model.clear_payload(last));
  REQUIRE(J.allFinite());
  REQUIRE(a.allFinite());
  REQUIRE(data->C.allFinite());
  REQUIRE((*gamma)[0].allFinite());

  // PayloadIdentification::add_sample (documented: allocates nothing; not noexcept: it throws
  // on non-finite input). The estimator itself is built before.
  auto identification = std::make_unique<PayloadIdentification<TestType>>(model, last);
  const Vector tau = rnea(model, q, qd, qdd);
  REQUIRE_NO_ALLOCATION(identification->add_sample(q, qd, qdd, tau));
  REQUIRE(identification->samples() == 1);
}

// --- Analytical derivatives (issue 6): rnea_derivatives and aba_derivatives in place ------

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

  REQUIRE_NO_ALLOCATION(rnea_derivatives(model, *data, q, qd, qdd));
  REQUIRE_NO_ALLOCATION(aba_derivatives(model, *data, q, qd, tau));
  REQUIRE(data->dtau_dq.allFinite());
  REQUIRE(data->dqdd_dq.allFinite());
  REQUIRE((data->data.qdd - qdd).cwiseAbs().maxCoeff() < 1e-8);
}

// --- Many states per call (issue 15): batch functions with a Workspace --------------------
// The calling thread allocates nothing once the workspace exists, with one thread and with two
// (the worker is one of the workspace's; Eigen's net is process-wide, so it watches the worker
// too). The pack width is the target's (native_width).
TEST_CASE("batch functions with a Workspace make no heap allocation", "[no_malloc][batch]") {
  using Model = ChainN<double, 7, Revolute>;
  using Mat = batch::States<Model>;
  std::mt19937 gen(test::kSeed);
  const Model model(test::random_links<Model>(gen, true));
  const Eigen::Index n = 2 * batch::native_width + 3;  // two packs per thread, and a tail
  Mat q(7, n), qd(7, n), qdd(7, n), tau(7, n), acc(7, n);
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    q.data()[i] = test::uniform(gen, -3, 3);
    qd.data()[i] = test::uniform(gen, -2, 2);
    qdd.data()[i] = test::uniform(gen, -2, 2);
  }
  Eigen::Matrix<double, 7, Eigen::Dynamic> m1(7, 7 * n), m2(7, 7 * n), m3(7, 7 * n);
  Eigen::Matrix<double, 6, Eigen::Dynamic> js(6, 7 * n);
  Eigen::Matrix<double, 3, Eigen::Dynamic> poses(3, 4 * n);
  const auto frame = model.frame(6);
  for (const int threads : {1, 2}) {
    batch::Workspace<Model> ws(model, {threads});
    INFO("threads " << threads);
    REQUIRE_NO_ALLOCATION(batch::rnea(ws, q, qd, qdd, tau));
    REQUIRE_NO_ALLOCATION(batch::aba(ws, q, qd, tau, acc));
    REQUIRE_NO_ALLOCATION(batch::crba(ws, q, m1));
    REQUIRE_NO_ALLOCATION(batch::rnea_derivatives(ws, q, qd, qdd, m1, m2));
    REQUIRE_NO_ALLOCATION(batch::aba_derivatives(ws, q, qd, tau, m1, m2, m3));
    REQUIRE_NO_ALLOCATION(batch::frame_pose(ws, q, frame, poses));
    REQUIRE_NO_ALLOCATION(batch::jacobian(ws, q, frame, ReferenceFrame::world, js));
    REQUIRE_NO_ALLOCATION(batch::frame_velocity(ws, q, qd, frame, ReferenceFrame::world, js.leftCols(n)));
    REQUIRE_NO_ALLOCATION(
        batch::frame_acceleration(ws, q, qd, qdd, frame, ReferenceFrame::local, js.leftCols(n)));
    REQUIRE((acc - qdd).cwiseAbs().maxCoeff() < 1e-8);
  }
}

TEST_CASE("batch functions on a moving base with a Workspace make no heap allocation",
          "[no_malloc][batch][floating]") {
  using Model = FloatingBase<ChainN<double, 7, Revolute>>;
  std::mt19937 gen(test::kSeed + 2);
  Link<double> body;
  body.mass = 20.0;
  body.inertia = Eigen::Vector3d(1.0, 1.5, 2.0).asDiagonal();
  const Model model(body, ChainN<double, 7, Revolute>(test::random_links<ChainN<double, 7, Revolute>>(gen, true)));
  const Eigen::Index n = 2 * batch::native_width + 3;
  batch::ConfigStates<Model> q(14, n);
  batch::TangentStates<Model> v(13, n), a(13, n), tau(13, n), acc(13, n), ms(13, 13 * n);
  for (Eigen::Index s = 0; s < n; ++s) {
    q.col(s) = random_configuration(model, gen);
    for (Eigen::Index k = 0; k < 13; ++k) {
      v(k, s) = test::uniform(gen, -2, 2);
      a(k, s) = test::uniform(gen, -2, 2);
    }
  }
  Eigen::Matrix<double, 6, Eigen::Dynamic> js(6, 13 * n);
  const auto frame = model.tree().frame(6);
  for (const int threads : {1, 2}) {
    batch::Workspace<Model> ws(model, {threads});
    INFO("threads " << threads);
    REQUIRE_NO_ALLOCATION(batch::rnea(ws, q, v, a, tau));
    REQUIRE_NO_ALLOCATION(batch::aba(ws, q, v, tau, acc));
    REQUIRE_NO_ALLOCATION(batch::crba(ws, q, ms));
    REQUIRE_NO_ALLOCATION(batch::jacobian(ws, q, frame, ReferenceFrame::world, js));
    REQUIRE((acc - a).cwiseAbs().maxCoeff() < 1e-8);
  }
}
