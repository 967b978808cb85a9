// Cross-algorithm identities on seeded random chains of test::MixedChains (1 to 9 joints, Placed
// joints and ChainX among them): each algorithm is checked against another path (RNEA columns,
// CRBA + Cholesky, energies, power balance).
#include "support/chains.hpp"
#include "support/test_support.hpp"

#include <chaindyn/identification/regressor.hpp>
#include <chaindyn/robots/kuka_iiwa.hpp>
#include <chaindyn/robots/ur5.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <utility>
#include <vector>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

constexpr int kModelsPerType = 8;   // random models per chain type
constexpr int kStatesPerModel = 10;  // random states per model

/// Runs f(model, q, qd, qdd) on kModelsPerType random models x kStatesPerModel random states, seeded.
template <typename Model, typename F>
void for_random_cases(bool joint_dynamics, F&& f) {
  using Vector = typename Model::Vector;
  constexpr int n = test::joints_of<Model>;
  std::mt19937 gen(test::kSeed + std::uint32_t(n));
  for (int m = 0; m < kModelsPerType; ++m) {
    const Model model = test::random_model<Model>(gen, joint_dynamics);
    for (int s = 0; s < kStatesPerModel; ++s) {
      const Vector q = test::random_state<Vector>(gen, 3.0, n);
      const Vector qd = test::random_state<Vector>(gen, 2.0, n);
      const Vector qdd = test::random_state<Vector>(gen, 2.0, n);
      INFO("model " << m << ", state " << s << ", q = " << q.transpose());
      f(model, q, qd, qdd);
    }
  }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("M column i equals rnea(q, 0, e_i) - rnea(q, 0, 0), CRBA in link and in base coordinates",
                        "[identities]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  constexpr int n = test::joints_of<TestType>;
  double worst = 0;
  std::unique_ptr<Data<TestType>> data;
  for_random_cases<TestType>(true, [&](const TestType& model, const Vector& q, const Vector&,
                                       const Vector&) {
    if (!data) data = std::make_unique<Data<TestType>>(model);
    const auto m = crba(model, q);
    const Vector zero = Vector::Zero(n);
    const Vector bias = rnea(model, q, zero, zero);
    typename TestType::Matrix from_rnea(n, n);
    for (int i = 0; i < n; ++i) {
      from_rnea.col(i) = rnea(model, q, zero, Vector(Vector::Unit(n, i))) - bias;
    }
    const double err = relative_error(m, from_rnea);
    worst = std::max(worst, err);
    REQUIRE(err < 1e-12);
    // crba picks its coordinates by the chain length (config.hpp): both forms, on every chain.
    // Each writes every entry of M (the returning form computes into an uninitialised matrix):
    // M is filled with NaN first.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    data->M.setConstant(nan);
    detail::crba_link_coordinates(model, *data, q, data->M);
    REQUIRE(data->M.allFinite());
    REQUIRE(relative_error(data->M, from_rnea) < 1e-12);
    // the link form with its loops interchanged (clang++'s on a compile-time chain), which
    // carries out the same operations per entry
    if constexpr (TestType::nq != Eigen::Dynamic && TestType::serial) {
      const typename TestType::Matrix per_pair = data->M;
      data->M.setConstant(nan);
      detail::crba_link_coordinates_by_rows(model, *data, q, data->M);
      REQUIRE(data->M.allFinite());
      REQUIRE(relative_error(data->M, per_pair) < 1e-15);
    }
    data->M.setConstant(nan);
    detail::crba_base_coordinates(model, *data, q, data->M);
    REQUIRE(data->M.allFinite());
    REQUIRE(relative_error(data->M, from_rnea) < 1e-12);
    // and on the same chain as a ChainX (which chooses by its joint count at run time)
    if constexpr (TestType::nq != Eigen::Dynamic) {
      const auto x = ChainX<double>::from(model);
      Data<ChainX<double>> xdata(x);
      const Eigen::VectorXd xq = q;
      xdata.M.setConstant(nan);
      detail::crba_link_coordinates(x, xdata, xq, xdata.M);
      REQUIRE(xdata.M.allFinite());
      REQUIRE(relative_error(xdata.M, from_rnea) < 1e-12);
      xdata.M.setConstant(nan);
      detail::crba_base_coordinates(x, xdata, xq, xdata.M);
      REQUIRE(xdata.M.allFinite());
      REQUIRE(relative_error(xdata.M, from_rnea) < 1e-12);
    }
  });
  WARN("n = " << n << ": worst |M - M_rnea| = " << worst);
}

namespace {
/// crba of a random n-joint chain of RevoluteZ joints (armature included) against the pair-by-pair
/// base-coordinate form and against RNEA's columns, as a ChainN and as a ChainX.
template <int N>
void check_crba_by_columns() {
  using Model = ChainN<double, N, RevoluteZ>;
  using Vector = typename Model::Vector;
  std::mt19937 gen(test::kSeed + std::uint32_t(N));
  const Model model(test::random_links<Model>(gen, true));
  const auto x = ChainX<double>::from(model);
  auto data = std::make_unique<Data<Model>>();
  Data<ChainX<double>> xdata(x);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int s = 0; s < 4; ++s) {
    const Vector q = test::random_state<Vector>(gen, 3.0);
    const Vector zero = Vector::Zero();
    const Vector bias = rnea(model, q, zero, zero);
    typename Model::Matrix from_rnea;
    for (int i = 0; i < N; ++i) {
      from_rnea.col(i) = rnea(model, q, zero, Vector(Vector::Unit(i))) - bias;
    }
    data->M.setConstant(nan);  // every entry must be written
    crba(model, *data, q);
    const typename Model::Matrix by_columns = data->M;
    INFO("n = " << N << ", state " << s);
    REQUIRE(by_columns.allFinite());
    REQUIRE(by_columns == by_columns.transpose());
    REQUIRE(relative_error(by_columns, from_rnea) < 1e-12);
    detail::crba_base_coordinates_by_pairs(model, *data, q, data->M);
    REQUIRE(relative_error(by_columns, data->M) < 1e-13);
    // the ChainX: crba (by columns from kCrbaColumnsFromAtRunTime joints) and the columns form
    const Eigen::VectorXd xq = q;
    xdata.M.setConstant(nan);
    crba(x, xdata, xq);
    REQUIRE(xdata.M.allFinite());
    REQUIRE(xdata.M == xdata.M.transpose());
    REQUIRE(relative_error(xdata.M, by_columns) < 1e-13);
    xdata.M.setConstant(nan);
    detail::crba_chain_base_coordinates(x, xdata, xq, xdata.M);
    REQUIRE(xdata.M.allFinite());
    REQUIRE(xdata.M == xdata.M.transpose());
    REQUIRE(relative_error(xdata.M, by_columns) < 1e-13);
  }
}
}  // namespace

TEST_CASE("crba on long chains (M by columns) equals RNEA's columns and the pair-by-pair form, exactly symmetric",
          "[identities][crba]") {
  // 17 and 67: partial strips of 8 rows and blocks of 4 columns; 33: one row past the strips
  check_crba_by_columns<17>();
  check_crba_by_columns<33>();
  check_crba_by_columns<64>();
  check_crba_by_columns<67>();
}

namespace {
/// A ChainX of N joints (N = 6 or 7: link coordinates by rows, the joint count a compile-time
/// constant, where detail::kCrbaRowsAtRunTime and every joint is revolute about z) against
/// RNEA's columns: crba in place and returning, forward_dynamics_crba against aba, and the
/// by-rows forms called for N with either compiler. M is filled with NaN first (every entry
/// written) and must come out exactly symmetric.
template <std::size_t N>
void check_crba_rows_at_run_time(const ChainX<double>& x, std::mt19937& gen) {
  REQUIRE(x.joint_count() == N);
  bool all_revolute_z = true;
  for (std::size_t i = 0; i < N; ++i) {
    all_revolute_z = all_revolute_z && x.joint(i).revolute_about_z();
  }
  Data<ChainX<double>> data(x);
  for (int s = 0; s < 4; ++s) {
    const Eigen::VectorXd q = test::random_state<Eigen::VectorXd>(gen, 3.0, int(N));
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(Eigen::Index(N));
    const Eigen::VectorXd bias = rnea(x, q, zero, zero);
    Eigen::MatrixXd from_rnea(N, N);
    for (Eigen::Index i = 0; i < Eigen::Index(N); ++i) {
      const Eigen::VectorXd unit = Eigen::VectorXd::Unit(Eigen::Index(N), i);
      from_rnea.col(i) = rnea(x, q, zero, unit) - bias;
    }
    INFO("n = " << N << ", state " << s);
    // data.M through `fill`, from NaN
    const auto check = [&](const auto& fill) {
      data.M.setConstant(std::numeric_limits<double>::quiet_NaN());
      fill();
      REQUIRE(data.M.allFinite());
      REQUIRE(data.M == data.M.transpose());
      REQUIRE(relative_error(data.M, from_rnea) < 1e-12);
    };
    check([&] { crba(x, data, q); });
    REQUIRE(crba(x, q) == data.M);
    // the form for any joints, and for revolute joints about z only where every joint is one
    check([&] { detail::crba_link_coordinates_by_rows<N, false>(x, data, q, data.M); });
    if (all_revolute_z) {
      check([&] { detail::crba_link_coordinates_by_rows<N, true>(x, data, q, data.M); });
    }
    // forward_dynamics_crba reuses crba's joint poses (data.liMi) in its RNEA pass
    const Eigen::VectorXd qd = test::random_state<Eigen::VectorXd>(gen, 2.0, int(N));
    const Eigen::VectorXd tau = test::random_state<Eigen::VectorXd>(gen, 5.0, int(N));
    forward_dynamics_crba(x, data, q, qd, tau);
    REQUIRE(relative_error(data.qdd, aba(x, q, qd, tau)) < 1e-10);
    REQUIRE(relative_error(forward_dynamics_crba(x, q, qd, tau), data.qdd) < 1e-13);
  }
}
}  // namespace

TEST_CASE("crba on a ChainX of 6 or 7 joints (by rows for its count) equals RNEA's columns and the ChainN's M",
          "[identities][crba]") {
  std::mt19937 gen(test::kSeed);
  // both kinds, about z and about other axes; random placements (dense link transforms)
  check_crba_rows_at_run_time<6>(test::random_mixed_chain_x(gen, true, 6), gen);
  check_crba_rows_at_run_time<7>(test::random_mixed_chain_x(gen, true, 7), gen);
  // the iiwa and the UR5 as urdf::parse_any gives them: RevoluteZ joints whose placements map z
  // to an axis of the parent (the link transforms' axis-row patterns), against the ChainN
  const auto kuka = robots::kuka_iiwa_links();
  const ChainN<double, 7, RevoluteZ> iiwa(std::vector<Link<double>>(kuka.begin(), kuka.end()));
  const auto ur5_links = robots::ur5().links();
  const ChainN<double, 6, RevoluteZ> ur5(
      std::vector<Link<double>>(ur5_links.begin(), ur5_links.end()));
  const auto iiwa_x = ChainX<double>::from(iiwa);
  const auto ur5_x = ChainX<double>::from(ur5);
  check_crba_rows_at_run_time<7>(iiwa_x, gen);
  check_crba_rows_at_run_time<6>(ur5_x, gen);
  for (int s = 0; s < 4; ++s) {
    const auto q7 = test::random_state<Eigen::Matrix<double, 7, 1>>(gen, 3.0);
    const auto q6 = test::random_state<Eigen::Matrix<double, 6, 1>>(gen, 3.0);
    REQUIRE(relative_error(crba(iiwa_x, Eigen::VectorXd(q7)), crba(iiwa, q7)) < 1e-13);
    REQUIRE(relative_error(crba(ur5_x, Eigen::VectorXd(q6)), crba(ur5, q6)) < 1e-13);
  }
}

TEMPLATE_LIST_TEST_CASE("M is symmetric positive definite", "[identities]",
                        test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  for_random_cases<TestType>(true, [&](const TestType& model, const Vector& q, const Vector&,
                                       const Vector&) {
    const typename TestType::Matrix m = crba(model, q);
    REQUIRE((m - m.transpose()).cwiseAbs().maxCoeff() == 0.0);
    REQUIRE(test::symmetric_eigenvalues(m).minCoeff() > 0.0);
  });
}

TEMPLATE_LIST_TEST_CASE("aba inverts rnea: aba(q, qd, rnea(q, qd, qdd)) = qdd", "[identities]",
                        test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  double worst = 0;
  for_random_cases<TestType>(true, [&](const TestType& model, const Vector& q, const Vector& qd,
                                       const Vector& qdd) {
    const Vector tau = rnea(model, q, qd, qdd);
    const double err = relative_error(aba(model, q, qd, tau), qdd);
    worst = std::max(worst, err);
    REQUIRE(err < 1e-10);
  });
  WARN("n = " << test::joints_of<TestType> << ": worst |aba(rnea(qdd)) - qdd| = " << worst);
}

TEMPLATE_LIST_TEST_CASE("aba equals the CRBA-Cholesky route M^-1 (tau - h - friction)",
                        "[identities]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  double worst = 0;
  for_random_cases<TestType>(true, [&](const TestType& model, const Vector& q, const Vector& qd,
                                       const Vector& tau) {
    const Vector reference = forward_dynamics_crba(model, q, qd, tau);
    // and the reference itself solves M qdd = tau - h - friction, checked with Eigen's LLT
    const typename TestType::Matrix m = crba(model, q);
    const Vector rhs = tau - nonlinear_effects(model, q, qd) - friction_torques(model, qd);
    // (a dynamic-size LLT: Eigen unrolls a fixed-size one's triangular solves, costly to compile)
    REQUIRE(relative_error(reference, Eigen::LLT<Eigen::MatrixXd>(m).solve(Eigen::VectorXd(rhs))) <
            1e-10);
    const double err = relative_error(aba(model, q, qd, tau), reference);
    worst = std::max(worst, err);
    REQUIRE(err < 1e-10);
  });
  WARN("n = " << test::joints_of<TestType> << ": worst |aba - crba/cholesky| = " << worst);
}

TEMPLATE_LIST_TEST_CASE("1/2 qd^T M qd equals the kinetic energy summed over links",
                        "[identities]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  double worst = 0;
  for_random_cases<TestType>(true, [&](const TestType& model, const Vector& q, const Vector& qd,
                                       const Vector&) {
    const double from_m = 0.5 * qd.dot(crba(model, q) * qd);
    const double err = relative_error(kinetic_energy(model, q, qd), from_m);
    worst = std::max(worst, err);
    REQUIRE(err < 1e-12);
  });
  WARN("n = " << test::joints_of<TestType> << ": worst |T - qd'Mqd/2| = " << worst);
}

TEMPLATE_LIST_TEST_CASE("power balance: d/dt (T + V) = (tau - friction) . qd", "[identities]",
                        test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  for (const bool joint_dynamics : {false, true}) {
    double worst = 0;
    for_random_cases<TestType>(joint_dynamics, [&](const TestType& model, const Vector& q,
                                                   const Vector& qd, const Vector& qdd) {
      const Vector tau = rnea(model, q, qd, qdd);
      // E(t) along q(t) = q + t qd + t^2/2 qdd; central difference, O(h^2)
      const double h = 1e-5;
      auto energy = [&](double t) {
        const Vector qt = q + t * qd + 0.5 * t * t * qdd;
        const Vector qdt = qd + t * qdd;
        return kinetic_energy(model, qt, qdt) + potential_energy(model, qt);
      };
      const double de_dt = (energy(h) - energy(-h)) / (2 * h);
      const double power = (tau - friction_torques(model, qd)).dot(qd);
      INFO("dE/dt = " << de_dt << ", power = " << power);
      REQUIRE(std::abs(de_dt - power) < 1e-6 * std::max(1.0, std::abs(power)));
      worst = std::max(worst, std::abs(de_dt - power) / std::max(1.0, std::abs(power)));
    });
    WARN("n = " << test::joints_of<TestType> << (joint_dynamics ? " with" : " without")
                << " friction: worst power-balance error (finite differences) = " << worst);
  }
}

TEMPLATE_LIST_TEST_CASE("gravity_torques is the gradient of the potential energy",
                        "[identities]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  constexpr int n = test::joints_of<TestType>;
  for_random_cases<TestType>(false, [&](const TestType& model, const Vector& q, const Vector&,
                                        const Vector&) {
    const Vector g = gravity_torques(model, q);
    Vector grad(n);
    const double h = 1e-6;
    for (int i = 0; i < n; ++i) {
      const Vector e = h * Vector::Unit(n, i);
      grad[i] = (potential_energy(model, q + e) - potential_energy(model, q - e)) / (2 * h);
    }
    REQUIRE(relative_error(g, grad) < 1e-7);
  });
}

TEMPLATE_LIST_TEST_CASE("nonlinear_effects, gravity_torques and friction are RNEA's parts",
                        "[identities]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  constexpr int n = test::joints_of<TestType>;
  for_random_cases<TestType>(true, [&](const TestType& model, const Vector& q, const Vector& qd,
                                       const Vector& qdd) {
    const Vector zero = Vector::Zero(n);
    const Vector m_qdd = crba(model, q) * qdd;
    const Vector sum = m_qdd + nonlinear_effects(model, q, qd) + friction_torques(model, qd);
    REQUIRE(relative_error(rnea(model, q, qd, qdd), sum) < 1e-12);
    REQUIRE(relative_error(gravity_torques(model, q), rnea(model, q, zero, zero)) < 1e-14);
    Vector expected_friction(n);
    for (int i = 0; i < n; ++i) {
      const auto& d = model.link(std::size_t(i)).dynamics;
      expected_friction[i] =
          d.damping * qd[i] + d.friction * (qd[i] > 0 ? 1.0 : (qd[i] < 0 ? -1.0 : 0.0));
    }
    REQUIRE(relative_error(friction_torques(model, qd), expected_friction) < 1e-15);
  });
}

TEMPLATE_LIST_TEST_CASE("external wrenches: their power equals (tau_free - tau_ext) . qd",
                        "[identities]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  std::mt19937 wrench_gen(test::kSeed);
  for_random_cases<TestType>(true, [&](const TestType& model, const Vector& q, const Vector& qd,
                                       const Vector& qdd) {
    LinkForces<TestType> f_ext = link_forces(model);
    for (auto& f : f_ext) {
      f = Force<double>(test::random_vector(wrench_gen, -5, 5),
                        test::random_vector(wrench_gen, -20, 20));
    }
    const Vector tau_ext = rnea(model, q, qd, qdd, f_ext);
    const Vector tau_free = rnea(model, q, qd, qdd);
    // tau_ext = tau_free - sum_i J_i^T f_i, so (tau_free - tau_ext) . w = sum_i v_i(w) . f_i
    // for any joint velocity w; v_i(w) from the kinetic-energy pass (link frames).
    Data<TestType> data(model);
    for (int trial = 0; trial < 3; ++trial) {
      const Vector w = test::random_state<Vector>(wrench_gen, 1.0, q.size());
      kinetic_energy(model, data, q, w);
      double power = 0;
      for (std::size_t i = 0; i < model.joint_count(); ++i) power += dot(data.v[i], f_ext[i]);
      REQUIRE(std::abs((tau_free - tau_ext).dot(w) - power) < 1e-10 * std::max(1.0, std::abs(power)));
    }
    // and aba with the same wrenches inverts it
    REQUIRE(relative_error(aba(model, q, qd, tau_ext, f_ext), qdd) < 1e-10);
  });
}

TEMPLATE_LIST_TEST_CASE("in-place and returning forms agree, and reusing Data changes nothing",
                        "[identities]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  std::unique_ptr<Data<TestType>> made;
  for_random_cases<TestType>(true, [&](const TestType& model, const Vector& q, const Vector& qd,
                                       const Vector& qdd) {
    if (!made) made = std::make_unique<Data<TestType>>(model);
    Data<TestType>& data = *made;
    // noexcept on a compile-time chain; a ChainX's forms check its arguments' sizes and throw
    constexpr bool fixed = !detail::checks_sizes<TestType>;
    static_assert(noexcept(rnea(model, data, q, qd, qdd)) == fixed);
    static_assert(noexcept(crba(model, data, q)) == fixed);
    static_assert(noexcept(aba(model, data, q, qd, qdd)) == fixed);
    static_assert(noexcept(forward_dynamics_crba(model, data, q, qd, qdd)) == fixed);
    rnea(model, data, q, qd, qdd);
    REQUIRE(data.tau == rnea(model, q, qd, qdd));
    crba(model, data, q);
    REQUIRE(data.M == crba(model, q));
    aba(model, data, q, qd, qdd);
    REQUIRE(data.qdd == aba(model, q, qd, qdd));
  });
}

// Data and models are aligned (checked at compile time: the compiler and C++17's aligned new
// place every object at its type's alignment, on the stack, on the heap and per thread). A
// Data's members' places in cache lines are the type's, not the allocator's (data.hpp); longer
// chains hold Eigen matrices that need more (64 with AVX-512): the alignment is the larger.
static_assert(alignof(Data<robots::KukaIiwa<double>>) >= 32 &&
              alignof(Data<robots::KukaIiwa<double>>) % 32 == 0);
static_assert(alignof(Data<const robots::KukaIiwa<double>>) ==
              alignof(Data<robots::KukaIiwa<double>>));
static_assert(alignof(Data<ChainN<double, 16, Revolute>>) >=
              alignof(ChainN<double, 16, Revolute>::Matrix));
static_assert(alignof(Data<ChainN<float, 8, RevoluteZ>>) >= 32);
static_assert(alignof(Data<ChainX<double>>) >= 32);
// a model's per-link numbers start at cache lines (chain.hpp)
static_assert(alignof(robots::KukaIiwa<double>) == 64 &&
              alignof(ChainN<double, 7, Revolute>) == 64);

TEST_CASE("forward_dynamics_crba solves M qdd = tau - h - friction and equals aba on long chains",
          "[identities]") {
  // Long chains (ChainX, n = 9, 24, 64) run the Cholesky factorisation's column updates over
  // many rows (the loops the compiler vectorises) and crba in base coordinates.
  std::mt19937 gen(test::kSeed);
  for (const Eigen::Index n : {Eigen::Index(9), Eigen::Index(24), Eigen::Index(64)}) {
    std::vector<Link<double>> links;
    for (Eigen::Index i = 0; i < n; ++i) links.push_back(test::random_link(gen, true));
    const ChainX<double> model(links);
    Data<ChainX<double>> data(model);
    for (int c = 0; c < 4; ++c) {
      const Eigen::VectorXd q = test::random_state<Eigen::VectorXd>(gen, 3.1, n);
      const Eigen::VectorXd qd = test::random_state<Eigen::VectorXd>(gen, 2.0, n);
      const Eigen::VectorXd tau = test::random_state<Eigen::VectorXd>(gen, 20.0, n);
      forward_dynamics_crba(model, data, q, qd, tau);
      const Eigen::VectorXd qdd = data.qdd;
      // the residual of the solve, relative to |M| |qdd| (Cholesky is backward stable: small
      // whatever M's conditioning)
      const Eigen::VectorXd residual = data.M * qdd + data.nle + friction_torques(model, qd) - tau;
      const double scale = data.M.cwiseAbs().maxCoeff() * qdd.cwiseAbs().maxCoeff() +
                           tau.cwiseAbs().maxCoeff();
      INFO("n = " << n << ", case " << c << ", residual " << residual.cwiseAbs().maxCoeff()
                  << ", |M| |qdd| + |tau| " << scale);
      CHECK(residual.cwiseAbs().maxCoeff() < 1e-13 * scale);
      const Eigen::MatrixXd l = data.L.triangularView<Eigen::Lower>();
      CHECK(relative_error(Eigen::MatrixXd(l * l.transpose()), data.M) < 1e-13);
      const double cond = test::condition_number(data.M);
      CHECK(relative_error(aba(model, q, qd, tau), qdd) < 1e-14 * cond);
    }
  }
}

// --- ChainX (issue 17): the runtime-sized chain gives the compile-time chain's numbers -------

namespace {

Eigen::Matrix<double, 3, 4> pose_matrix(const Transform<double>& t) {
  Eigen::Matrix<double, 3, 4> m;
  m << t.rotation, t.translation;
  return m;
}

/// Runs every algorithm on `fixed` and on ChainX::from(fixed) at one state and requires the
/// same numbers to 1e-14 (relative to the reference's size): in-place forms on the ChainX (its
/// Data made from the model), returning forms on the fixed chain.
///
/// A ChainX joint about z runs the code of RevoluteZ / PrismaticZ, about any other axis that of
/// Revolute / Prismatic: where the fixed chain's joint runs the same code, every result agrees
/// to 1e-14. Elsewhere (RevoluteX against a ChainX joint about x, Revolute about z against
/// one about z), the sparse and the general arithmetic round differently, and the quantities
/// that solve with M (aba, forward_dynamics_crba, inverse_mass_matrix, aba_derivatives) carry
/// that rounding times M's condition number: there the tolerance is 1e-14 cond(M) (two
/// compile-time chains, the iiwa as RevoluteZ and as Revolute, differ by as much).
template <typename Model>
void require_chainx_matches(const Model& fixed, const typename Model::Vector& q_fixed,
                            const typename Model::Vector& qd_fixed,
                            const typename Model::Vector& qdd_fixed) {
  using X = ChainX<double>;
  using VX = Eigen::VectorXd;
  constexpr double tol = 1e-14;
  const X x = X::from(fixed);
  REQUIRE(x.joint_count() == std::size_t(Model::nq));
  const VX q = q_fixed, qd = qd_fixed, qdd = qdd_fixed;
  bool same_joint_code = true;
  const auto slots = Model::joint_slots();
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const bool x_about_z = x.joint(i).axis() == Eigen::Vector3d::UnitZ();
    same_joint_code &= slots[i].axis == 2 ? x_about_z : (slots[i].axis < 0 && !x_about_z);
  }
  // A ChainX's crba works in base coordinates, a compile-time chain's may work in link
  // coordinates (crba.hpp): M agrees to rounding, what solves with M (forward_dynamics_crba)
  // to that rounding times cond(M) whatever the joint code.
  const double cond_tol = tol * test::condition_number(crba(x, q));
  const double solve_tol = same_joint_code ? tol : cond_tol;
  INFO("same joint code: " << same_joint_code << ", tolerance of the solves: " << solve_tol
                           << ", of the crba solves: " << cond_tol);
  const std::size_t last = x.joint_count() - 1;
  Data<X> data(x);
  LinkForces<Model> f_fixed;
  LinkForces<X> f_x = link_forces(x);
  for (std::size_t i = 0; i < f_x.size(); ++i) {
    f_fixed[i] = f_x[i] = Force<double>(Eigen::Vector3d(0.1, -0.2, 0.3) * double(i + 1),
                                        Eigen::Vector3d(1.0, 2.0, -3.0));
  }

  static_assert(!noexcept(rnea(x, data, q, qd, qdd)));  // a ChainX checks its arguments
  rnea(x, data, q, qd, qdd);
  CHECK(relative_error(data.tau, rnea(fixed, q_fixed, qd_fixed, qdd_fixed)) < tol);
  rnea(x, data, q, qd, qdd, f_x);
  CHECK(relative_error(data.tau, rnea(fixed, q_fixed, qd_fixed, qdd_fixed, f_fixed)) < tol);
  crba(x, data, q);
  CHECK(relative_error(data.M, crba(fixed, q_fixed)) < tol);
  aba(x, data, q, qd, qdd);
  CHECK(relative_error(data.qdd, aba(fixed, q_fixed, qd_fixed, qdd_fixed)) < solve_tol);
  aba(x, data, q, qd, qdd, f_x);
  CHECK(relative_error(data.qdd, aba(fixed, q_fixed, qd_fixed, qdd_fixed, f_fixed)) < solve_tol);
  forward_dynamics_crba(x, data, q, qd, qdd);
  CHECK(relative_error(data.qdd, forward_dynamics_crba(fixed, q_fixed, qd_fixed, qdd_fixed)) <
        cond_tol);
  nonlinear_effects(x, data, q, qd);
  CHECK(relative_error(data.tau, nonlinear_effects(fixed, q_fixed, qd_fixed)) < tol);
  gravity_torques(x, data, q);
  CHECK(relative_error(data.tau, gravity_torques(fixed, q_fixed)) < tol);
  coriolis_matrix(x, data, q, qd);
  CHECK(relative_error(data.C, coriolis_matrix(fixed, q_fixed, qd_fixed)) < tol);
  const auto gamma_x = christoffel_symbols(x, q);
  const auto gamma_fixed = christoffel_symbols(fixed, q_fixed);
  CHECK(relative_error(gamma_x[last], gamma_fixed[last]) < tol);
  inverse_mass_matrix(x, data, q);
  CHECK(relative_error(data.Minv, inverse_mass_matrix(fixed, q_fixed)) < solve_tol);
  CHECK(relative_error(kinetic_energy(x, data, q, qd), kinetic_energy(fixed, q_fixed, qd_fixed)) <
        tol);
  CHECK(relative_error(potential_energy(x, data, q), potential_energy(fixed, q_fixed)) < tol);
  CHECK(relative_error(friction_torques(x, qd), friction_torques(fixed, qd_fixed)) < tol);
  // frames: a handle of the ChainX, and the fixed chain's handle by link and offset
  const Transform<double> offset(test::rot_x(0.3), Eigen::Vector3d(0.1, 0.2, 0.3));
  const auto tcp = x.frame(last, offset);
  CHECK(relative_error(pose_matrix(frame_pose(x, data, q, tcp)),
                       pose_matrix(frame_pose(fixed, q_fixed, last, offset))) < tol);
  FrameJacobian<X> J(6, q.size());
  for (const ReferenceFrame rf : {ReferenceFrame::world, ReferenceFrame::local}) {
    jacobian(x, data, q, tcp, rf, J);
    CHECK(relative_error(J, jacobian(fixed, q_fixed, last, offset, rf)) < tol);
    FrameVector<X> a;
    jdot_qd(x, data, q, qd, tcp, rf, a);
    CHECK(relative_error(a, jdot_qd(fixed, q_fixed, qd_fixed, last, offset, rf)) < tol);
    const Force<double> w(Eigen::Vector3d(1, 2, 3), Eigen::Vector3d(-4, 5, 6));
    joint_torques_from_wrench(x, data, q, tcp, w, rf);
    CHECK(relative_error(data.tau, joint_torques_from_wrench(fixed, q_fixed, last, w, offset,
                                                             rf)) < tol);
  }
  // derivatives
  DerivativesData<X> dd(x);
  rnea_derivatives(x, dd, q, qd, qdd);
  const auto rd = rnea_derivatives(fixed, q_fixed, qd_fixed, qdd_fixed);
  CHECK(relative_error(dd.dtau_dq, rd.dtau_dq) < tol);
  CHECK(relative_error(dd.dtau_dqd, rd.dtau_dqd) < tol);
  aba_derivatives(x, dd, q, qd, qdd);
  const auto ad = aba_derivatives(fixed, q_fixed, qd_fixed, qdd_fixed);
  CHECK(relative_error(dd.dqdd_dq, ad.dqdd_dq) < solve_tol);
  CHECK(relative_error(dd.dqdd_dqd, ad.dqdd_dqd) < solve_tol);
  CHECK(relative_error(dd.dqdd_dtau, ad.dqdd_dtau) < solve_tol);
  // identification: the regressors and the parameters
  CHECK(relative_error(inertial_parameters(x), inertial_parameters(fixed)) < tol);
  CHECK(relative_error(regressor(x, q, qd, qdd), regressor(fixed, q_fixed, qd_fixed, qdd_fixed)) <
        tol);
  CHECK(relative_error(regressor_with_joint_dynamics(x, q, qd, qdd),
                       regressor_with_joint_dynamics(fixed, q_fixed, qd_fixed, qdd_fixed)) < tol);
}

}  // namespace

// The random chain of every joint type (MixedChains' eight-joint Chain: RevoluteX/Y/Z,
// PrismaticX/Y/Z, Revolute, Prismatic, half of them Placed); the iiwa below adds ChainN's walks. (One chain type
// here, not the five of MixedChains: each costs ~3 s of compile time in this TU.)
TEST_CASE("ChainX gives the numbers of the compile-time chain for every algorithm",
          "[identities][chainx]") {
  using Model = std::tuple_element_t<1, test::MixedChains<double>>;
  using Vector = typename Model::Vector;
  std::mt19937 gen(test::kSeed + 17u);
  for (int m = 0; m < 3; ++m) {
    Model model(test::random_links<Model>(gen, true));
    if (m == 1) {
      model.set_payload(std::size_t(Model::nq) - 1,
                        Payload<double>::point_mass(0.851, Eigen::Vector3d(0, 0.05, 0.1)));
    }
    for (int s = 0; s < 2; ++s) {
      const Vector q = test::random_state<Vector>(gen, 3.0);
      const Vector qd = test::random_state<Vector>(gen, 2.0);
      const Vector qdd = test::random_state<Vector>(gen, 2.0);
      INFO("model " << m << ", state " << s);
      require_chainx_matches(model, q, qd, qdd);
    }
  }
}

TEST_CASE("ChainX of the iiwa gives the numbers of ChainN<double, 7, Revolute> and RevoluteZ",
          "[identities][chainx]") {
  const auto iiwa = robots::kuka_iiwa();  // ChainN<double, 7, RevoluteZ>
  // the same links as ChainN<double, 7, Revolute>, the axes as ChainX::from makes them (z)
  const auto links = ChainX<double>::from(iiwa).links();
  const ChainN<double, 7, Revolute> iiwa_revolute(links);
  using Vector = std::decay_t<decltype(iiwa)>::Vector;
  std::mt19937 gen(test::kSeed + 1717u);
  for (int s = 0; s < 3; ++s) {
    const Vector q = test::random_state<Vector>(gen, 3.0), qd = test::random_state<Vector>(gen, 2.0),
                 qdd = test::random_state<Vector>(gen, 2.0);
    require_chainx_matches(iiwa_revolute, q, qd, qdd);
    require_chainx_matches(iiwa, q, qd, qdd);
  }
}

// A revolute joint about z whose placement maps z to +-e_r of the parent (most joints of a URDF
// arm) has link transforms with structural zeros: ChainX finds them when it is made (the
// placement's entries within kPatternTolerance set exactly) and its transforms skip them
// (AnyJointModel::conform, AxisRowPattern). Every row r, both signs, the other two columns at a
// random angle, entries off by up to 1e-16 as a URDF's rpy gives them; the ChainN of run-time
// axes computes the same chain with dense transforms.
TEST_CASE("ChainX finds the placements that map the joint axis to a coordinate axis and gives "
          "the numbers of the dense transforms",
          "[identities][chainx]") {
  using Fixed = ChainN<double, 7, Revolute>;
  using Vector = Fixed::Vector;
  std::mt19937 gen(test::kSeed + 1719u);
  for (int m = 0; m < 2; ++m) {
    std::vector<Link<double>> links = test::random_links<Fixed>(gen, true);
    for (std::size_t i = 0; i < links.size(); ++i) {
      const int r = int(i % 3);
      const double sign = (i / 3 + std::size_t(m)) % 2 == 0 ? 1.0 : -1.0;
      const Eigen::Vector3d z = sign * Eigen::Vector3d::Unit(r);
      const double angle = test::uniform(gen, -3.0, 3.0);
      const Eigen::Vector3d x = std::cos(angle) * Eigen::Vector3d::Unit((r + 1) % 3) +
                                std::sin(angle) * Eigen::Vector3d::Unit((r + 2) % 3);
      Eigen::Matrix3d rotation;
      rotation << x, z.cross(x), z;
      for (int e = 0; e < 9; ++e) {
        double& entry = rotation(e / 3, e % 3);
        if (entry == 0.0) entry = test::uniform(gen, -1e-16, 1e-16);
      }
      links[i].placement.rotation = rotation;
      links[i].axis = Eigen::Vector3d::UnitZ();
    }
    const Fixed fixed(links);
    const ChainX<double> x = ChainX<double>::from(fixed);
    for (std::size_t i = 0; i < links.size(); ++i) {
      INFO("model " << m << ", joint " << i);
      CHECK(x.joint(i).axis_row() == int(i % 3));
      CHECK(x.placement(i).rotation.col(2).cwiseAbs() == Eigen::Vector3d::Unit(int(i % 3)));
    }
    // a placement whose z column is off by more than the tolerance keeps the dense kernels
    std::vector<Link<double>> tilted = links;
    tilted[0].placement.rotation = test::rot_z(1e-9) * tilted[0].placement.rotation;  // moves e_x
    CHECK(ChainX<double>::from(Fixed(tilted)).joint(0).axis_row() == -1);
    for (int s = 0; s < 2; ++s) {
      const Vector q = test::random_state<Vector>(gen, 3.0);
      const Vector qd = test::random_state<Vector>(gen, 2.0);
      const Vector qdd = test::random_state<Vector>(gen, 2.0);
      INFO("model " << m << ", state " << s);
      require_chainx_matches(fixed, q, qd, qdd);
    }
  }
}

TEST_CASE("ChainX: joint kinds from data, sizes checked, a Data per model size",
          "[identities][chainx]") {
  std::mt19937 gen(test::kSeed + 170u);
  std::vector<Link<double>> links;
  for (int i = 0; i < 4; ++i) links.push_back(test::random_link(gen, true));
  const std::vector<JointKind> kinds = {JointKind::revolute, JointKind::prismatic,
                                        JointKind::prismatic, JointKind::revolute};
  const ChainX<double> x(links, kinds);
  REQUIRE(x.joint_count() == 4);
  REQUIRE(x.joint(1).kind() == JointKind::prismatic);
  REQUIRE(x.joint_slots()[3].kind == JointKind::revolute);
  // identities on it (the equality with compile-time chains is the test above)
  const Eigen::VectorXd q = test::random_state<Eigen::VectorXd>(gen, 3.0, 4),
                        qd = test::random_state<Eigen::VectorXd>(gen, 2.0, 4),
                        qdd = test::random_state<Eigen::VectorXd>(gen, 2.0, 4);
  const Eigen::VectorXd tau = rnea(x, q, qd, qdd);
  CHECK(relative_error(aba(x, q, qd, tau), qdd) < 1e-12);
  const Eigen::MatrixXd m = crba(x, q);
  CHECK(relative_error(Eigen::MatrixXd(m * inverse_mass_matrix(x, q)),
                       Eigen::MatrixXd(Eigen::MatrixXd::Identity(4, 4))) < 1e-12);
  CHECK(relative_error(0.5 * qd.dot(m * qd), kinetic_energy(x, q, qd)) < 1e-12);  // armature in both
  // wrong sizes: ArgumentError from the returning forms, with the counts
  const Eigen::VectorXd q3 = Eigen::VectorXd::Zero(3), q4 = Eigen::VectorXd::Zero(4);
  REQUIRE_THROWS_WITH(rnea(x, q3, q4, q4), "chaindyn: rnea: q has 3 entries; the model has 4 joints");
  REQUIRE_THROWS_AS(crba(x, q3), ArgumentError);
  REQUIRE_THROWS_AS(ChainX<double>(links, {JointKind::revolute}), ModelError);
  REQUIRE_THROWS_AS(ChainX<double>(std::vector<Link<double>>{}), ModelError);
  // the returning forms' workspace follows the model's size: a 4-joint then a 7-joint model
  const auto iiwa = ChainX<double>::from(robots::kuka_iiwa());
  const Eigen::VectorXd q7 = Eigen::VectorXd::Constant(7, 0.2);
  REQUIRE(rnea(x, q4, q4, q4).size() == 4);
  REQUIRE(rnea(iiwa, q7, q7, q7).size() == 7);
}
