// Cross-algorithm identities on seeded random chains of 1..12 mixed joints: each algorithm is
// checked against another path (RNEA columns, CRBA + Cholesky, energies, power balance).
#include "support/chains.hpp"
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>

#include <memory>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

constexpr int kModels = 8;   // random models per chain type
constexpr int kStates = 10;  // random states per model

/// Runs f(model, q, qd, qdd) on kModels random models x kStates random states, seeded.
template <typename Model, typename F>
void for_random_cases(bool joint_dynamics, F&& f) {
  using Vector = typename Model::Vector;
  std::mt19937 gen(test::kSeed + std::uint32_t(Model::nq));
  for (int m = 0; m < kModels; ++m) {
    const Model model(test::random_links<Model>(gen, joint_dynamics));
    for (int s = 0; s < kStates; ++s) {
      const Vector q = test::random_state<Vector>(gen, 3.0);
      const Vector qd = test::random_state<Vector>(gen, 2.0);
      const Vector qdd = test::random_state<Vector>(gen, 2.0);
      INFO("model " << m << ", state " << s << ", q = " << q.transpose());
      f(model, q, qd, qdd);
    }
  }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("M column i equals rnea(q, 0, e_i) - rnea(q, 0, 0), CRBA in link and in base coordinates",
                        "[identities]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  double worst = 0;
  auto data = std::make_unique<Data<TestType>>();
  for_random_cases<TestType>(true, [&](const TestType& model, const Vector& q, const Vector&,
                                       const Vector&) {
    const auto m = crba(model, q);
    const Vector zero = Vector::Zero();
    const Vector bias = rnea(model, q, zero, zero);
    typename TestType::Matrix from_rnea;
    for (int i = 0; i < TestType::nq; ++i) {
      from_rnea.col(i) = rnea(model, q, zero, Vector(Vector::Unit(i))) - bias;
    }
    const double err = relative_error(m, from_rnea);
    worst = std::max(worst, err);
    REQUIRE(err < 1e-12);
    // crba picks its coordinates by the chain length (config.hpp): both forms, on every chain
    detail::crba_link_coordinates(model, *data, q);
    REQUIRE(relative_error(data->M, from_rnea) < 1e-12);
    detail::crba_base_coordinates(model, *data, q);
    REQUIRE(relative_error(data->M, from_rnea) < 1e-12);
  });
  WARN("n = " << TestType::nq << ": worst |M - M_rnea| = " << worst);
}

TEMPLATE_LIST_TEST_CASE("M is symmetric positive definite", "[identities]",
                        test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  for_random_cases<TestType>(true, [&](const TestType& model, const Vector& q, const Vector&,
                                       const Vector&) {
    const typename TestType::Matrix m = crba(model, q);
    REQUIRE((m - m.transpose()).cwiseAbs().maxCoeff() == 0.0);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(m);
    REQUIRE(eig.eigenvalues().minCoeff() > 0.0);
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
  WARN("n = " << TestType::nq << ": worst |aba(rnea(qdd)) - qdd| = " << worst);
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
    REQUIRE(relative_error(reference, Eigen::LLT<typename TestType::Matrix>(m).solve(rhs)) <
            1e-10);
    const double err = relative_error(aba(model, q, qd, tau), reference);
    worst = std::max(worst, err);
    REQUIRE(err < 1e-10);
  });
  WARN("n = " << TestType::nq << ": worst |aba - crba/cholesky| = " << worst);
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
  WARN("n = " << TestType::nq << ": worst |T - qd'Mqd/2| = " << worst);
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
    WARN("n = " << TestType::nq << (joint_dynamics ? " with" : " without")
                << " friction: worst power-balance error (finite differences) = " << worst);
  }
}

TEMPLATE_LIST_TEST_CASE("gravity_torques is the gradient of the potential energy",
                        "[identities]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  for_random_cases<TestType>(false, [&](const TestType& model, const Vector& q, const Vector&,
                                        const Vector&) {
    const Vector g = gravity_torques(model, q);
    Vector grad;
    const double h = 1e-6;
    for (int i = 0; i < TestType::nq; ++i) {
      const Vector e = h * Vector::Unit(i);
      grad[i] = (potential_energy(model, q + e) - potential_energy(model, q - e)) / (2 * h);
    }
    REQUIRE(relative_error(g, grad) < 1e-7);
  });
}

TEMPLATE_LIST_TEST_CASE("nonlinear_effects, gravity_torques and friction are RNEA's parts",
                        "[identities]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  for_random_cases<TestType>(true, [&](const TestType& model, const Vector& q, const Vector& qd,
                                       const Vector& qdd) {
    const Vector zero = Vector::Zero();
    const Vector m_qdd = crba(model, q) * qdd;
    const Vector sum = m_qdd + nonlinear_effects(model, q, qd) + friction_torques(model, qd);
    REQUIRE(relative_error(rnea(model, q, qd, qdd), sum) < 1e-12);
    REQUIRE(relative_error(gravity_torques(model, q), rnea(model, q, zero, zero)) < 1e-14);
    Vector expected_friction;
    for (int i = 0; i < TestType::nq; ++i) {
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
    LinkForces<TestType> f_ext;
    for (auto& f : f_ext) {
      f = Force<double>(test::random_vector(wrench_gen, -5, 5),
                        test::random_vector(wrench_gen, -20, 20));
    }
    const Vector tau_ext = rnea(model, q, qd, qdd, f_ext);
    const Vector tau_free = rnea(model, q, qd, qdd);
    // tau_ext = tau_free - sum_i J_i^T f_i, so (tau_free - tau_ext) . w = sum_i v_i(w) . f_i
    // for any joint velocity w; v_i(w) from the kinetic-energy pass (link frames).
    Data<TestType> data;
    for (int trial = 0; trial < 3; ++trial) {
      const Vector w = test::random_state<Vector>(wrench_gen, 1.0);
      kinetic_energy(model, data, q, w);
      double power = 0;
      for (std::size_t i = 0; i < std::size_t(TestType::nq); ++i) power += dot(data.v[i], f_ext[i]);
      REQUIRE(std::abs((tau_free - tau_ext).dot(w) - power) < 1e-10 * std::max(1.0, std::abs(power)));
    }
    // and aba with the same wrenches inverts it
    REQUIRE(relative_error(aba(model, q, qd, tau_ext, f_ext), qdd) < 1e-10);
  });
}

TEMPLATE_LIST_TEST_CASE("in-place and returning forms agree, and reusing Data changes nothing",
                        "[identities]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  Data<TestType> data;
  for_random_cases<TestType>(true, [&](const TestType& model, const Vector& q, const Vector& qd,
                                       const Vector& qdd) {
    static_assert(noexcept(rnea(model, data, q, qd, qdd)));
    static_assert(noexcept(crba(model, data, q)));
    static_assert(noexcept(aba(model, data, q, qd, qdd)));
    static_assert(noexcept(forward_dynamics_crba(model, data, q, qd, qdd)));
    rnea(model, data, q, qd, qdd);
    REQUIRE(data.tau == rnea(model, q, qd, qdd));
    crba(model, data, q);
    REQUIRE(data.M == crba(model, q));
    aba(model, data, q, qd, qdd);
    REQUIRE(data.qdd == aba(model, q, qd, qdd));
  });
}
