// No in-place algorithm allocates, second part (test_no_malloc.cpp says how it is checked):
// ChainX, trees, floating bases, the online payload estimator, the returning forms, the
// simulation steps, task-space dynamics, elastic joints and friction.
#include "no_malloc/no_malloc_test.hpp"

// --- ChainX (issue 17): the runtime-sized chain allocates when it and its Data are made -----

TEST_CASE("ChainX: in-place algorithms make no heap allocation once model and Data are made",
          "[no_malloc][chainx]") {
  using Fixed = Chain<double, PrismaticZ, Revolute, RevoluteX, PrismaticY, RevoluteZ, Prismatic,
                      PrismaticX, RevoluteY>;
  using X = ChainX<double>;
  using V = Eigen::VectorXd;
  std::mt19937 gen(test::kSeed);
  X model = X::from(Fixed(test::random_links<Fixed>(gen, true)));
  const auto n = Eigen::Index(model.joint_count());
  const std::size_t last = model.joint_count() - 1;
  // the workspaces and outputs are allocated before the counted calls
  auto data = std::make_unique<Data<X>>(model);
  auto dd = std::make_unique<DerivativesData<X>>(model);
  auto y = std::make_unique<RegressorMatrix<X>>(n, 10 * n);
  auto yk = std::make_unique<Eigen::Matrix<double, Eigen::Dynamic, kInertialParametersPerLink>>(
      n, kInertialParametersPerLink);
  auto yj = std::make_unique<RegressorWithJointDynamicsMatrix<X>>(n, 13 * n);
  auto gamma = std::make_unique<PerLinkArray<Eigen::MatrixXd, Eigen::Dynamic>>(
      std::size_t(n), Eigen::MatrixXd(n, n));
  auto J = std::make_unique<FrameJacobian<X>>(6, n);
  FrameVector<X> a;
  const V q = test::random_state<Eigen::Matrix<double, 8, 1>>(gen, 3.0);
  const V qd = test::random_state<Eigen::Matrix<double, 8, 1>>(gen, 2.0);
  const V qdd = test::random_state<Eigen::Matrix<double, 8, 1>>(gen, 2.0);
  const V tau = rnea(model, q, qd, qdd);
  LinkForces<X> f_ext = link_forces(model);
  for (auto& f : f_ext) f.linear = Eigen::Vector3d(1, 2, 3);
  const Transform<double> offset(test::random_rotation(gen), Eigen::Vector3d(0.1, 0.2, 0.3));
  const auto tcp = model.frame(last, offset);
  const Force<double> wrench(Eigen::Vector3d(1, 2, 3), Eigen::Vector3d(4, 5, 6));
  const Payload<double> payload = Payload<double>::point_mass(0.851, Eigen::Vector3d(0, 0, 0.1));
  double kinetic = 0, potential = 0;

  REQUIRE_NO_ALLOCATION(forward_kinematics(model, *data, q));
  REQUIRE_NO_ALLOCATION(rnea(model, *data, q, qd, qdd));
  REQUIRE_NO_ALLOCATION(rnea(model, *data, q, qd, qdd, f_ext));
  REQUIRE_NO_ALLOCATION(gravity_torques(model, *data, q));
  REQUIRE_NO_ALLOCATION(nonlinear_effects(model, *data, q, qd));
  REQUIRE_NO_ALLOCATION(crba(model, *data, q));
  REQUIRE_NO_ALLOCATION(aba(model, *data, q, qd, tau));
  REQUIRE((data->qdd - qdd).cwiseAbs().maxCoeff() < 1e-8);
  REQUIRE_NO_ALLOCATION(aba(model, *data, q, qd, qdd, f_ext));
  REQUIRE_NO_ALLOCATION(forward_dynamics_crba(model, *data, q, qd, tau));
  REQUIRE((data->qdd - qdd).cwiseAbs().maxCoeff() < 1e-8);
  REQUIRE_NO_ALLOCATION(kinetic = kinetic_energy(model, *data, q, qd));
  REQUIRE_NO_ALLOCATION(potential = potential_energy(model, *data, q));
  REQUIRE(std::isfinite(kinetic + potential));
  REQUIRE_NO_ALLOCATION(inverse_mass_matrix(model, *data, q));
  REQUIRE_NO_ALLOCATION(coriolis_matrix(model, *data, q, qd));
  REQUIRE_NO_ALLOCATION(christoffel_symbols(model, *data, q, *gamma));
  REQUIRE_NO_ALLOCATION(frame_pose(model, *data, q, tcp));
  REQUIRE_NO_ALLOCATION(jacobian(model, *data, q, tcp, ReferenceFrame::world, *J));
  REQUIRE_NO_ALLOCATION(jdot_qd(model, *data, q, qd, tcp, ReferenceFrame::local, a));
  REQUIRE_NO_ALLOCATION(joint_torques_from_wrench(model, *data, q, tcp, wrench,
                                                  ReferenceFrame::world));
  REQUIRE_NO_ALLOCATION(regressor(model, *data, q, qd, qdd, *y));
  REQUIRE_NO_ALLOCATION(link_regressor(model, *data, q, qd, qdd, last, *yk));
  REQUIRE_NO_ALLOCATION(regressor_with_joint_dynamics(model, *data, q, qd, qdd, *yj));
  REQUIRE_NO_ALLOCATION(rnea_derivatives(model, *dd, q, qd, qdd));
  REQUIRE_NO_ALLOCATION(aba_derivatives(model, *dd, q, qd, tau));
  REQUIRE((dd->data.qdd - qdd).cwiseAbs().maxCoeff() < 1e-8);
  REQUIRE_NO_ALLOCATION(model.set_payload(last, payload));
  REQUIRE_NO_ALLOCATION(model.clear_payload(last));
  {  // 19 joints: the blocked Cholesky (a first panel of 3, two of 8) on its stack alone
    std::vector<Link<double>> long_links;
    for (int i = 0; i < 19; ++i) long_links.push_back(test::random_link(gen, true));
    const X long_model(long_links);
    auto long_data = std::make_unique<Data<X>>(long_model);
    const V lq = V::Constant(19, 0.3), lqd = V::Constant(19, -0.2), ltau = V::Constant(19, 1.0);
    REQUIRE_NO_ALLOCATION(forward_dynamics_crba(long_model, *long_data, lq, lqd, ltau));
    REQUIRE(long_data->qdd.allFinite());
  }
  {  // 33 joints: crba takes M by columns (crba_chain_base_coordinates, rows in Data::oSF)
    std::vector<Link<double>> long_links;
    for (int i = 0; i < 33; ++i) long_links.push_back(test::random_link(gen, true));
    const X long_model(long_links);
    auto long_data = std::make_unique<Data<X>>(long_model);
    const V lq = V::Constant(33, 0.3);
    REQUIRE_NO_ALLOCATION(crba(long_model, *long_data, lq));
    REQUIRE(long_data->M.allFinite());
  }
  REQUIRE(J->allFinite());
  REQUIRE(a.allFinite());
  REQUIRE(y->allFinite());
  REQUIRE((*gamma)[0].allFinite());
  auto identification = std::make_unique<PayloadIdentification<X>>(model);
  REQUIRE_NO_ALLOCATION(identification->add_sample(q, qd, qdd, tau));
  auto estimator = std::make_unique<OnlinePayloadEstimator<X>>(model);
  OnlinePayloadUpdate<double> u;
  REQUIRE_NO_ALLOCATION(u = estimator->update(q, qd, qdd, tau));
  REQUIRE(u.accepted);
}

// --- Online payload estimation (issue 16): one tick -----------------------------------------

// Trees (model/tree.hpp): the tree paths of the algorithms (accumulation into the parents' slots
// of Data, the sparse L^T L factorization, the derivatives' ancestor walks, the task-space
// recursions on a frame's support), on a compile-time Tree and a TreeX.
TEST_CASE("trees: in-place algorithms make no heap allocation once model and Data are made",
          "[no_malloc][trees]") {
  using T = Tree<double, Parents<-1, 0, 1, 1, 0>, RevoluteZ, Revolute, PrismaticX, RevoluteY,
                 Revolute>;
  std::mt19937 gen(test::kSeed);
  const T fixed(test::random_links<T>(gen, true));
  const auto check = [&gen](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    using V = typename Model::Vector;
    const auto n = Eigen::Index(model.joint_count());
    auto data = std::make_unique<Data<Model>>(model);
    auto y = std::make_unique<RegressorMatrix<Model>>(n, 10 * n);
    auto J = std::make_unique<FrameJacobian<Model>>(6, n);
    V q = V::Zero(n), qd = V::Zero(n), qdd = V::Zero(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      q[i] = test::uniform(gen, -3, 3);
      qd[i] = test::uniform(gen, -2, 2);
      qdd[i] = test::uniform(gen, -2, 2);
    }
    LinkForces<Model> f_ext = link_forces(model);
    for (auto& f : f_ext) f.linear = Eigen::Vector3d(1, 2, 3);
    const auto frame = model.frame(2);
    double kinetic = 0, potential = 0;
    REQUIRE_NO_ALLOCATION(forward_kinematics(model, *data, q));
    REQUIRE_NO_ALLOCATION(rnea(model, *data, q, qd, qdd, f_ext));
    const V tau = data->tau;
    REQUIRE_NO_ALLOCATION(rnea(model, *data, q, qd, qdd));
    REQUIRE_NO_ALLOCATION(gravity_torques(model, *data, q));
    REQUIRE_NO_ALLOCATION(nonlinear_effects(model, *data, q, qd));
    REQUIRE_NO_ALLOCATION(crba(model, *data, q));
    REQUIRE_NO_ALLOCATION(aba(model, *data, q, qd, tau, f_ext));
    REQUIRE((data->qdd - qdd).cwiseAbs().maxCoeff() < 1e-8);
    REQUIRE_NO_ALLOCATION(forward_dynamics_crba(model, *data, q, qd, tau));
    REQUIRE(data->qdd.allFinite());
    REQUIRE_NO_ALLOCATION(kinetic = kinetic_energy(model, *data, q, qd));
    REQUIRE_NO_ALLOCATION(potential = potential_energy(model, *data, q));
    REQUIRE(std::isfinite(kinetic + potential));
    REQUIRE_NO_ALLOCATION(inverse_mass_matrix(model, *data, q));
    REQUIRE(data->Minv.allFinite());
    REQUIRE_NO_ALLOCATION(regressor(model, *data, q, qd, qdd, *y));
    REQUIRE_NO_ALLOCATION(jacobian(model, *data, q, frame, ReferenceFrame::world, *J));
    REQUIRE(J->allFinite());
    REQUIRE_NO_ALLOCATION(coriolis_matrix(model, *data, q, qd));
    REQUIRE(data->C.allFinite());
    auto dd = std::make_unique<DerivativesData<Model>>(model);
    REQUIRE_NO_ALLOCATION(rnea_derivatives(model, *dd, q, qd, qdd));
    REQUIRE(dd->dtau_dq.allFinite());
    REQUIRE_NO_ALLOCATION(aba_derivatives(model, *dd, q, qd, tau));
    REQUIRE(dd->dqdd_dq.allFinite());
    REQUIRE(dd->dqdd_dtau.allFinite());
    // task space of a frame on link 2 (support 0, 1, 2): the position task
    OperationalSpaceDynamics<double, position_task> os;
    auto jbar = std::make_unique<TaskInverse<Model, position_task>>(n, position_task);
    auto N = std::make_unique<typename Model::Matrix>(n, n);
    REQUIRE_NO_ALLOCATION(operational_space_inertia(model, *data, q, frame, ReferenceFrame::world, os));
    REQUIRE_NO_ALLOCATION(
        operational_space_dynamics(model, *data, q, qd, frame, ReferenceFrame::local, os, *jbar));
    REQUIRE_NO_ALLOCATION(
        dynamically_consistent_inverse(model, *data, q, frame, ReferenceFrame::world, os, *jbar));
    REQUIRE_NO_ALLOCATION(
        null_space_projector(model, *data, q, frame, ReferenceFrame::world, os, *jbar, *N));
    REQUIRE(N->allFinite());
    // two frames on different branches (links 2 and 4) at once
    const std::array<FrameFor<Model>, 2> hands{model.frame(2), model.frame(4)};
    OperationalSpaceInertia<double, 12> os12;
    REQUIRE_NO_ALLOCATION(
        operational_space_inertia(model, *data, q, hands, ReferenceFrame::world, os12));
    REQUIRE(os12.Lambda_inv.allFinite());
  };
  check(fixed);
  check(TreeX<double>::from(fixed));
}

TEST_CASE("floating and planar bases: in-place algorithms make no heap allocation once model and Data are made",
          "[no_malloc][floating_base]") {
  using T = Tree<double, Parents<-1, 0, 1, 1, 0>, RevoluteZ, Revolute, PrismaticX, RevoluteY,
                 Revolute>;
  std::mt19937 gen(test::kSeed);
  Link<double> body;
  body.mass = 3.0;
  body.inertia = Eigen::Vector3d(0.3, 0.2, 0.25).asDiagonal();
  const T fixed(test::random_links<T>(gen, true));
  const auto check = [&gen](const auto& model, bool fixed_size) {
    using Model = std::decay_t<decltype(model)>;
    using Tree = typename Model::Tree;
    auto data = std::make_unique<Data<Model>>(model);
    auto J = std::make_unique<FloatingJacobian<Tree, typename Model::Base>>(6, model.nv_size());
    auto Y = std::make_unique<FloatingRegressorMatrix<Tree, typename Model::Base>>(
        model.nv_size(), 10 * (Eigen::Index(model.joint_count()) + 1));
    typename Model::ConfigVector q = random_configuration(model, gen);
    typename Model::TangentVector v(model.nv_size()), a(model.nv_size());
    for (Eigen::Index i = 0; i < v.size(); ++i) {
      v[i] = test::uniform(gen, -1, 1);
      a[i] = test::uniform(gen, -1, 1);
    }
    const typename Tree::Vector qdd = a.tail(model.joint_count());
    const auto frame = model.tree().frame(2);
    double energy = 0;
    REQUIRE_NO_ALLOCATION(rnea(model, *data, q, v, a));
    const typename Model::TangentVector tau = data->tau;
    REQUIRE_NO_ALLOCATION(aba(model, *data, q, v, tau));
    REQUIRE((data->a - a).cwiseAbs().maxCoeff() < 1e-8);
    REQUIRE_NO_ALLOCATION(rnea_free_base(model, *data, q, v, qdd));
    REQUIRE_NO_ALLOCATION(crba(model, *data, q));
    REQUIRE_NO_ALLOCATION(forward_dynamics_crba(model, *data, q, v, tau));
    REQUIRE((data->a - a).cwiseAbs().maxCoeff() < 1e-8);
    REQUIRE_NO_ALLOCATION(nonlinear_effects(model, *data, q, v));
    REQUIRE_NO_ALLOCATION(gravity_torques(model, *data, q));
    REQUIRE_NO_ALLOCATION(energy = kinetic_energy(model, *data, q, v) + potential_energy(model, *data, q));
    REQUIRE(std::isfinite(energy));
    REQUIRE_NO_ALLOCATION(centroidal_momentum(model, *data, q, v));
    REQUIRE_NO_ALLOCATION(centroidal_momentum_matrix(model, *data, q));
    REQUIRE_NO_ALLOCATION(jacobian(model, *data, q, frame, ReferenceFrame::world, *J));
    REQUIRE(J->allFinite());
    REQUIRE_NO_ALLOCATION(regressor(model, *data, q, v, a, *Y));
    REQUIRE(Y->allFinite());
    auto dd = std::make_unique<DerivativesData<Model>>(model);
    REQUIRE_NO_ALLOCATION(rnea_derivatives(model, *dd, q, v, a));
    REQUIRE_NO_ALLOCATION(aba_derivatives(model, *dd, q, v, tau));
    REQUIRE(dd->dqdd_dq.allFinite());
    if (fixed_size) {
      if constexpr (Model::nq != Eigen::Dynamic) {
        REQUIRE_NO_ALLOCATION(rk4_step(model, *data, q, v, tau, 1e-3));
      }
    }
  };
  check(FloatingBase<T>(body, fixed), true);
  check(FloatingBase<TreeX<double>>(body, TreeX<double>::from(fixed)), false);
  check(PlanarBaseRobot<T>(body, fixed), true);  // a planar base (x, y, yaw)
}

TEMPLATE_TEST_CASE("OnlinePayloadEstimator::update makes no heap allocation",
                   "[no_malloc][identification]", (Chain<double, RevoluteZ, RevoluteY, PrismaticX>),
                   (ChainN<double, 7, Revolute>)) {
  using Vector = typename TestType::Vector;
  std::mt19937 gen(test::kSeed);
  const TestType model(test::random_links<TestType>(gen, true));
  // The gate off: the 0.5 N m offset below is far outside the default gate, and a gated sample
  // skips the update this test counts.
  typename OnlinePayloadEstimator<TestType>::Options options;
  options.innovation_gate = 0;
  auto estimator = std::make_unique<OnlinePayloadEstimator<TestType>>(
      model, OnlinePayloadEstimator<TestType>::last_link, options);
  const Vector q = test::random_state<Vector>(gen, 3.0), qd = test::random_state<Vector>(gen, 2.0),
               qdd = test::random_state<Vector>(gen, 2.0);
  const Vector tau = rnea(model, q, qd, qdd) + Vector::Constant(0.5);
  OnlinePayloadUpdate<double> u;
  REQUIRE_NO_ALLOCATION(u = estimator->update(q, qd, qdd, tau));
  REQUIRE(u.accepted);
  OnlinePayloadEstimate<double> e;
  REQUIRE_NO_ALLOCATION(e = estimator->estimate());
  REQUIRE_NO_ALLOCATION(estimator->reset());
  REQUIRE(std::isfinite(e.parameters[0]));
}

// --- The returning forms (issue 12): a workspace per thread, made on the first call ---------

TEMPLATE_TEST_CASE("returning forms make no heap allocation after their first call in a thread",
                   "[no_malloc][returning]", (Chain<double, RevoluteZ, RevoluteY, PrismaticX>),
                   (ChainN<double, 7, Revolute>), (ChainN<double, 32, RevoluteZ>)) {
  using Vector = typename TestType::Vector;
  std::mt19937 gen(test::kSeed);
  const TestType model(test::random_links<TestType>(gen, true));
  const Vector q = test::random_state<Vector>(gen, 3.0), qd = test::random_state<Vector>(gen, 2.0),
               qdd = test::random_state<Vector>(gen, 2.0);
  // A dynamic-size vector too: checked and copied into a fixed-size one, on the stack.
  const Eigen::VectorXd q_dynamic = q;
  // In a thread of its own, so that its first calls are the thread's first. (Counted there,
  // checked here: Catch's assertions belong to the main thread.)
  std::size_t first = 0, first_derivatives = 0;
  std::array<std::size_t, 11> later{};
  auto big = std::make_unique<typename TestType::Matrix>();  // matrix results off the stack
  Vector out;
  double e = 0;
  std::thread([&] {
    first = test::count_allocations([&] { out = rnea(model, q, qd, qdd); });
    first_derivatives =
        test::count_allocations([&] { *big = rnea_derivatives(model, q, qd, qdd).dtau_dq; });
    const EigenNoMalloc eigen_net;
    std::size_t k = 0;
    later[k++] = test::count_allocations([&] { out = rnea(model, q, qd, qdd); });
    later[k++] = test::count_allocations([&] { out = rnea(model, q_dynamic, qd, qdd); });
    later[k++] = test::count_allocations([&] { out = aba(model, q, qd, out); });
    later[k++] = test::count_allocations([&] { out = nonlinear_effects(model, q, qd); });
    later[k++] = test::count_allocations([&] { out = gravity_torques(model, q_dynamic); });
    later[k++] = test::count_allocations([&] { out = forward_dynamics_crba(model, q, qd, qdd); });
    later[k++] = test::count_allocations([&] { *big = crba(model, q); });
    later[k++] = test::count_allocations([&] { *big = inverse_mass_matrix(model, q); });
    later[k++] = test::count_allocations([&] { *big = coriolis_matrix(model, q, qd); });
    later[k++] = test::count_allocations(
        [&] { e = kinetic_energy(model, q, qd) + potential_energy(model, q); });
    later[k++] =
        test::count_allocations([&] { *big = rnea_derivatives(model, q, qd, qdd).dtau_dq; });
  }).join();
  // The first calls allocate the thread's Data, then its DerivativesData (model/data.hpp), and
  // the C++ runtime records their destructors for the thread's exit (one more allocation with
  // glibc's __cxa_thread_atexit_impl).
  CHECK(first >= 1);
  CHECK(first <= 2);
  CHECK(first_derivatives >= 1);
  CHECK(first_derivatives <= 2);
  const char* names[] = {"rnea",      "rnea (VectorXd q)", "aba",
                         "nonlinear_effects", "gravity_torques (VectorXd q)",
                         "forward_dynamics_crba", "crba", "inverse_mass_matrix",
                         "coriolis_matrix", "kinetic_energy + potential_energy",
                         "rnea_derivatives"};
  for (std::size_t k = 0; k < later.size(); ++k) {
    INFO("returning " << names[k] << ", after the thread's first call");
    CHECK(later[k] == 0);
  }
  REQUIRE(std::isfinite(e));
  REQUIRE(big->allFinite());
  REQUIRE(out.allFinite());
}

// --- Simulation (issue 4): the steps, integrate() and streaming simulate() ----------------

namespace {

// A three-joint chain with damping and armature. No Coulomb friction: its jump at qd = 0 makes
// RK45 chatter with tiny steps on some of these random models (1.5 million steps for 0.5 s
// with clang's draw; see docs/simulation.md).
using SimModel = Chain<double, RevoluteZ, RevoluteY, PrismaticX>;
using SimVector = SimModel::Vector;

SimModel simulation_model() {
  std::mt19937 gen(test::kSeed);
  auto links = test::random_links<SimModel>(gen, true);
  for (auto& l : links) l.dynamics.friction = 0.0;
  return SimModel(links);
}

}  // namespace

TEST_CASE("semi_implicit_euler_step, rk4_step and streaming integrate make no heap allocation",
          "[no_malloc]") {
  const SimModel model = simulation_model();
  auto data = std::make_unique<Data<SimModel>>();  // the acceleration's workspace
  const QuinticTrajectory<SimVector> reference(SimVector::Zero(), SimVector(0.5, -0.3, 0.1), 0.5);
  const auto acceleration = [&](double t, const SimVector& q, const SimVector& qd) -> SimVector {
    const auto r = reference(t);
    aba(model, *data, q, qd, SimVector(50.0 * (r.q - q) + 5.0 * (r.qd - qd)));
    return data->qdd;
  };
  SimVector q = SimVector::Zero(), qd = SimVector::Zero();
  REQUIRE_NO_ALLOCATION(semi_implicit_euler_step(acceleration, 0.0, 1e-3, q, qd));
  REQUIRE_NO_ALLOCATION(rk4_step(acceleration, 1e-3, 1e-3, q, qd));
  REQUIRE(q.allFinite());
  REQUIRE(qd.allFinite());

  for (Integrator method : {Integrator::semi_implicit_euler, Integrator::rk4, Integrator::rk45}) {
    IntegrationOptions<double> options;
    options.integrator = method;
    options.output_interval = 0.01;
    std::size_t samples = 0;
    double checksum = 0;
    IntegrationStats stats;
    REQUIRE_NO_ALLOCATION(
        stats = integrate(acceleration, SimVector::Zero().eval(), SimVector::Zero().eval(), 0.2,
                          options, [&](const IntegrationSample<SimVector>& s) {
                            ++samples;
                            checksum += s.q.sum() + s.qdd.sum();
                          }));
    CHECK(samples > 10);
    CHECK(stats.steps > 10);
    CHECK(std::isfinite(checksum));
  }
}

TEST_CASE("streaming simulate makes no heap allocation per step with any integrator",
          "[no_malloc]") {
  // Under a PD controller that tracks a quintic; every sample is streamed. simulate()
  // allocates its Data workspace once, up front (documented); the count is read in the
  // callback at every sample, so the test sees that nothing is allocated after that, per step.
  const SimModel model = simulation_model();
  const QuinticTrajectory<SimVector> reference(SimVector::Zero(), SimVector(0.5, -0.3, 0.1), 0.5);
  const auto pd = [&](double t, const SimVector& q, const SimVector& qd) -> SimVector {
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
      constexpr std::size_t unset = std::numeric_limits<std::size_t>::max();
      std::size_t at_first_sample = unset, at_last_sample = unset, total = unset;
      {
        const EigenNoMalloc eigen_net;
        const test::AllocationScope scope;
        stats = simulate(model, SimVector::Zero(), SimVector::Zero(), pd, 0.5, options,
                         [&](const SimulationSample<SimModel>& s) {
                           if (samples == 0) at_first_sample = scope.count();
                           at_last_sample = scope.count();
                           ++samples;
                           checksum += s.q.sum() + s.tau.sum();
                         });
        total = scope.count();
      }
      INFO("integrator " << int(method) << ", output_interval " << interval);
      REQUIRE(at_first_sample == 1);  // the Data workspace
      REQUIRE(at_last_sample == at_first_sample);
      REQUIRE(total == 1);
      CHECK(samples > 10);
      CHECK(stats.steps > 10);
      CHECK(std::isfinite(checksum));
    }
  }
}

TEST_CASE("streaming simulate on a compile-time tree makes no heap allocation per step",
          "[no_malloc][trees]") {
  // The tree of the trees case above, frictionless (as SimModel), passive; every integrator.
  // Only the Data workspace is allocated, once, before the first sample.
  using T = Tree<double, Parents<-1, 0, 1, 1, 0>, RevoluteZ, Revolute, PrismaticX, RevoluteY,
                 Revolute>;
  std::mt19937 gen(test::kSeed);
  auto links = test::random_links<T>(gen, true);
  for (auto& l : links) l.dynamics.friction = 0.0;
  const T model(links);
  const T::Vector q0 = test::random_state<T::Vector>(gen, 1.0);
  for (Integrator method : {Integrator::semi_implicit_euler, Integrator::rk4, Integrator::rk45}) {
    SimulationOptions<double> options;
    options.integrator = method;
    options.output_interval = method == Integrator::rk45 ? 0.01 : 0.0;  // RK45: dense output
    std::size_t samples = 0;
    double checksum = 0;
    IntegrationStats stats;
    constexpr std::size_t unset = std::numeric_limits<std::size_t>::max();
    std::size_t at_first_sample = unset, at_last_sample = unset, total = unset;
    {
      const EigenNoMalloc eigen_net;
      const test::AllocationScope scope;
      stats = simulate(model, q0, T::Vector::Zero(), ZeroTorque{}, 0.2, options,
               [&](const SimulationSample<T>& s) {
                 if (samples == 0) at_first_sample = scope.count();
                 at_last_sample = scope.count();
                 ++samples;
                 checksum += s.q.sum() + s.qdd.sum();
               });
      total = scope.count();
    }
    INFO("integrator " << int(method));
    REQUIRE(at_first_sample == 1);  // the Data workspace
    REQUIRE(at_last_sample == at_first_sample);
    REQUIRE(total == 1);
    CHECK(samples > 10);
    CHECK(stats.steps > 5);
    CHECK(std::isfinite(checksum));
  }
}

TEST_CASE("streaming simulate on a moving base (free-flyer, planar) makes no heap allocation "
          "beyond its workspace", "[no_malloc][simulation][floating]") {
  using T = Tree<double, Parents<-1, 0, 0>, RevoluteZ, Revolute, PrismaticX>;
  std::mt19937 gen(test::kSeed + 1);
  const T tree(test::random_links<T>(gen, true));
  Link<double> body;
  body.mass = 4.0;
  body.inertia = Eigen::Vector3d(0.3, 0.4, 0.5).asDiagonal();
  const auto check = [&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    typename Model::ConfigVector q0 = random_configuration(model, gen, 1.0);
    typename Model::TangentVector v0 = Model::TangentVector::Constant(0.3);
    for (Integrator method : {Integrator::semi_implicit_euler, Integrator::rk4, Integrator::rk45}) {
      SimulationOptions<double> options;
      options.integrator = method;
      options.output_interval = method == Integrator::rk45 ? 0.01 : 0.0;  // RK45: dense output
      std::size_t samples = 0;
      double checksum = 0;
      std::size_t total = 0, at_last_sample = 0;
      {
        const EigenNoMalloc eigen_net;
        const test::AllocationScope scope;
        simulate(model, q0, v0, ZeroTorque{}, 0.1, options, [&](const SimulationSample<Model>& s) {
          at_last_sample = scope.count();
          ++samples;
          checksum += s.q.sum() + s.qdd.sum();
        });
        total = scope.count();
      }
      INFO("integrator " << int(method));
      REQUIRE(at_last_sample == 1);  // the Data workspace
      REQUIRE(total == 1);
      CHECK(samples > 5);
      CHECK(std::isfinite(checksum));
    }
  };
  check(FloatingBase<T>(body, tree));
  check(PlanarBaseRobot<T>(body, tree));
}

// Task-space dynamics and frame motion (algorithms/operational_space.hpp, frame_motion.hpp): a
// compile-time chain and a ChainX, every in-place form (the dense reference route allocates for
// a ChainX and is left out there).
TEST_CASE("task-space dynamics and frame motion make no heap allocation", "[no_malloc]") {
  using Arm = robots::KukaIiwa<double>;
  using X = ChainX<double>;
  std::mt19937 gen(test::kSeed);
  const Arm arm = robots::kuka_iiwa();
  const X xarm = X::from(arm);
  auto data = std::make_unique<Data<Arm>>();
  auto xdata = std::make_unique<Data<X>>(xarm);
  const Arm::Vector q = test::random_state<Arm::Vector>(gen, 2.0);
  const Arm::Vector qd = test::random_state<Arm::Vector>(gen, 2.0);
  const Arm::Vector qdd = test::random_state<Arm::Vector>(gen, 2.0);
  const X::Vector xq = q, xqd = qd, xqdd = qdd;
  const auto tcp = arm.frame(6, Transform<double>::Translation(Eigen::Vector3d(0, 0, 0.1)));
  const auto xtcp = xarm.frame(6, Transform<double>::Translation(Eigen::Vector3d(0, 0, 0.1)));
  OperationalSpaceDynamics<double, pose_task> os6;
  OperationalSpaceInertia<double, position_task> os3;
  auto jbar = std::make_unique<TaskInverse<Arm>>();
  auto jbar3 = std::make_unique<TaskInverse<Arm, position_task>>();
  auto N = std::make_unique<Arm::Matrix>();
  auto xjbar = std::make_unique<TaskInverse<X>>(7, 6);
  auto xN = std::make_unique<X::Matrix>(7, 7);
  auto jdot = std::make_unique<FrameJacobian<Arm>>();
  auto xjdot = std::make_unique<FrameJacobian<X>>(6, 7);
  Motion<double> m;
  const ReferenceFrame world = ReferenceFrame::world, local = ReferenceFrame::local;

  REQUIRE_NO_ALLOCATION(operational_space_inertia(arm, *data, q, tcp, world, os6));
  REQUIRE_NO_ALLOCATION(operational_space_inertia(arm, *data, q, tcp, local, os3));
  REQUIRE_NO_ALLOCATION(operational_space_inertia_dense(arm, *data, q, tcp, world, os6));
  REQUIRE_NO_ALLOCATION(operational_space_dynamics(arm, *data, q, qd, tcp, world, os6));
  REQUIRE_NO_ALLOCATION(operational_space_dynamics(arm, *data, q, qd, tcp, local, os6, *jbar));
  REQUIRE_NO_ALLOCATION(dynamically_consistent_inverse(arm, *data, q, tcp, world, os3, *jbar3));
  REQUIRE_NO_ALLOCATION(null_space_projector(arm, *data, q, tcp, world, os6, *jbar, *N));
  REQUIRE(N->allFinite());
  REQUIRE_NO_ALLOCATION(frame_velocity(arm, *data, q, qd, tcp, world, m));
  REQUIRE_NO_ALLOCATION(frame_acceleration(arm, *data, q, qd, qdd, tcp, local, m));
  REQUIRE_NO_ALLOCATION(frame_classical_acceleration(arm, *data, q, qd, qdd, tcp, world, m));
  REQUIRE_NO_ALLOCATION(jacobian_time_derivative(arm, *data, q, qd, tcp, local, *jdot));
  const std::array<FrameFor<Arm>, 2> two{tcp, arm.frame(3)};
  OperationalSpaceInertia<double, 12> os12;
  REQUIRE_NO_ALLOCATION(operational_space_inertia(arm, *data, q, two, world, os12));
  REQUIRE(os12.Lambda_inv.allFinite());

  REQUIRE_NO_ALLOCATION(operational_space_inertia(xarm, *xdata, xq, xtcp, world, os6));
  REQUIRE_NO_ALLOCATION(operational_space_dynamics(xarm, *xdata, xq, xqd, xtcp, world, os6, *xjbar));
  REQUIRE_NO_ALLOCATION(dynamically_consistent_inverse(xarm, *xdata, xq, xtcp, local, os6, *xjbar));
  REQUIRE_NO_ALLOCATION(null_space_projector(xarm, *xdata, xq, xtcp, world, os6, *xjbar, *xN));
  REQUIRE((*xN - *N).cwiseAbs().maxCoeff() < 1e-9);
  REQUIRE_NO_ALLOCATION(frame_velocity(xarm, *xdata, xq, xqd, xtcp, local, m));
  REQUIRE_NO_ALLOCATION(frame_acceleration(xarm, *xdata, xq, xqd, xqdd, xtcp, world, m));
  REQUIRE_NO_ALLOCATION(jacobian_time_derivative(xarm, *xdata, xq, xqd, xtcp, world, *xjdot));
  const std::array<FrameFor<X>, 2> xtwo{xtcp, xarm.frame(3)};
  REQUIRE_NO_ALLOCATION(operational_space_inertia(xarm, *xdata, xq, xtwo, local, os12));
}

// Elastic joints (algorithms/elastic_joints.hpp, simulation/simulate_elastic.hpp): the in-place
// forms on a compile-time chain and a ChainX, and streaming simulate_elastic per step.
TEST_CASE("elastic joints and LuGre friction make no heap allocation", "[no_malloc]") {
  using Arm = ChainN<double, 7, Revolute>;
  using V = Arm::Vector;
  std::mt19937 gen(test::kSeed);
  const Arm arm(test::random_links<Arm>(gen, true));
  const auto elastic = ElasticJoints<Arm>::uniform(arm, 2000, 0.5, 0.2);
  auto data = std::make_unique<ElasticData<Arm>>(arm);
  const V q = test::random_state<V>(gen, 3.0), qd = test::random_state<V>(gen, 2.0),
          qdd = test::random_state<V>(gen, 2.0), qddd = test::random_state<V>(gen, 2.0),
          qdddd = test::random_state<V>(gen, 2.0);
  REQUIRE_NO_ALLOCATION(elastic_forward_dynamics(arm, elastic, *data, q, qd, qdd, qddd, qdddd));
  REQUIRE_NO_ALLOCATION(link_torque_derivatives(arm, *data, q, qd, qdd, qddd, qdddd));
  REQUIRE_NO_ALLOCATION(elastic_inverse_dynamics(arm, elastic, *data, q, qd, qdd, qddd, qdddd, q));
  REQUIRE(data->tau_m.allFinite());
  LuGreParameters<double> lugre_parameters;
  lugre_parameters.curve.coulomb = 1;
  lugre_parameters.curve.static_friction = 1.5;
  const LuGreJoints<Arm> lugre(arm, lugre_parameters);
  V friction = V::Zero(), zdot = V::Zero();
  REQUIRE_NO_ALLOCATION(lugre.torques(qd, qdd, friction, zdot));
  REQUIRE(friction.allFinite());

  using X = ChainX<double>;
  using XV = Eigen::VectorXd;
  const X xarm = X::from(arm);
  const auto xelastic = ElasticJoints<X>::uniform(xarm, 2000, 0.5, 0.2);
  auto xdata = std::make_unique<ElasticData<X>>(xarm);
  const XV xq = q, xqd = qd, xqdd = qdd, xqddd = qddd, xqdddd = qdddd;
  REQUIRE_NO_ALLOCATION(
      elastic_forward_dynamics(xarm, xelastic, *xdata, xq, xqd, xqdd, xqddd, xqdddd));
  REQUIRE_NO_ALLOCATION(
      elastic_inverse_dynamics(xarm, xelastic, *xdata, xq, xqd, xqdd, xqddd, xqdddd, xq));
  REQUIRE((xdata->tau_m - data->tau_m).norm() < 1e-9 * (1 + data->tau_m.norm()));
  REQUIRE((xdata->thetadd - data->thetadd).norm() < 1e-9 * (1 + data->thetadd.norm()));

  // streaming: the ElasticData workspace once, up front, nothing per step
  std::size_t samples = 0;
  constexpr std::size_t unset = std::numeric_limits<std::size_t>::max();
  std::size_t at_first_sample = unset, at_last_sample = unset, total = unset;
  IntegrationOptions<double> options;
  options.output_interval = 0.01;
  {
    const EigenNoMalloc eigen_net;
    const test::AllocationScope scope;
    simulate_elastic(arm, elastic, q, V::Zero(), q, V::Zero(), ZeroMotorTorque{}, 0.1, options,
                     [&](const ElasticSample<V>&) {
                       if (samples == 0) at_first_sample = scope.count();
                       at_last_sample = scope.count();
                       ++samples;
                     });
    total = scope.count();
  }
  REQUIRE(at_first_sample == 1);
  REQUIRE(at_last_sample == at_first_sample);
  REQUIRE(total == 1);
  CHECK(samples > 5);
}
