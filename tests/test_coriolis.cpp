// The Coriolis matrix and the Christoffel symbols: the two-link closed form's C exactly, and on
// the iiwa and seeded random mixed chains C qd = nonlinear_effects - gravity, Mdot - 2C skew
// (Mdot by finite differences of crba) and Gamma against finite differences of crba.
#include "support/test_support.hpp"

#include <chaindyn/algorithms/coriolis.hpp>
#include <chaindyn/closed_form.hpp>

#include <catch2/catch.hpp>

#include <unsupported/Eigen/AutoDiff>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

using Mixed = Chain<double, PrismaticZ, Revolute, RevoluteX, PrismaticY, RevoluteZ, Prismatic>;

constexpr int kCoriolisModels = 4;  // random mixed chains
constexpr int kCoriolisStates = 8;  // random states per model

/// Calls f(model, q, qd) on the iiwa and on random mixed chains with joint dynamics (seeded).
template <typename F>
void for_coriolis_cases(F&& f) {
  std::mt19937 gen(test::kSeed + 202u);
  const auto iiwa = robots::kuka_iiwa();
  using VI = robots::KukaIiwa<double>::Vector;
  for (int s = 0; s < kCoriolisStates; ++s) {
    INFO("iiwa, state " << s);
    f(iiwa, test::random_state<VI>(gen, 2.5), test::random_state<VI>(gen, 2.0));
  }
  using VM = Mixed::Vector;
  for (int m = 0; m < kCoriolisModels; ++m) {
    const Mixed model(test::random_links<Mixed>(gen, true));
    for (int s = 0; s < kCoriolisStates; ++s) {
      INFO("mixed chain " << m << ", state " << s);
      f(model, test::random_state<VM>(gen, 2.5), test::random_state<VM>(gen, 2.0));
    }
  }
}

/// dM/dq_k by central differences of crba.
template <typename Model>
typename Model::Matrix dM_dq(const Model& model, const typename Model::Vector& q, int k,
                             double h) {
  using V = typename Model::Vector;
  const V dq = h * V::Unit(k);
  return (crba(model, V(q + dq)) - crba(model, V(q - dq))) / (2 * h);
}

}  // namespace

TEST_CASE("coriolis_matrix of the two-link arm equals the closed form's Christoffel C",
          "[coriolis]") {
  std::mt19937 gen(test::kSeed + 2u);
  double worst = 0;
  for (int m = 0; m < 10; ++m) {
    const closed_form::TwoLinkArm<double> arm(
        test::uniform(gen, 0.5, 3), test::uniform(gen, 0.5, 3), test::uniform(gen, 0.3, 1.5),
        test::uniform(gen, 0.3, 1.5), test::uniform(gen, 0.1, 1), test::uniform(gen, 0.1, 1),
        test::uniform(gen, 0.01, 0.5), test::uniform(gen, 0.01, 0.5));
    const auto chain = arm.to_chain();
    for (int s = 0; s < 10; ++s) {
      const Eigen::Vector2d q = test::random_state<Eigen::Vector2d>(gen, 3.0);
      const Eigen::Vector2d qd = test::random_state<Eigen::Vector2d>(gen, 3.0);
      const double err = relative_error(coriolis_matrix(chain, q, qd), arm.coriolis_matrix(q, qd));
      worst = std::max(worst, err);
      REQUIRE(err < 1e-12);
    }
  }
  WARN("worst |C - C_closed_form| = " << worst);
}

TEST_CASE("C(q, qd) qd equals nonlinear_effects - gravity_torques", "[coriolis]") {
  double worst = 0;
  for_coriolis_cases([&](const auto& model, const auto& q, const auto& qd) {
    using V = typename std::decay_t<decltype(model)>::Vector;
    const V cqd = coriolis_matrix(model, q, qd) * qd;
    const double err =
        relative_error(cqd, V(nonlinear_effects(model, q, qd) - gravity_torques(model, q)));
    worst = std::max(worst, err);
    REQUIRE(err < 1e-12);
  });
  WARN("worst |C qd - (h - g)| = " << worst);
}

TEST_CASE("Mdot - 2C is skew-symmetric, Mdot by finite differences of crba along qd",
          "[coriolis]") {
  double worst_skew = 0, worst_sym = 0;
  for_coriolis_cases([&](const auto& model, const auto& q, const auto& qd) {
    using Model = std::decay_t<decltype(model)>;
    using V = typename Model::Vector;
    constexpr double h = 1e-6;
    const typename Model::Matrix mdot =
        (crba(model, V(q + h * qd)) - crba(model, V(q - h * qd))) / (2 * h);
    const typename Model::Matrix c = coriolis_matrix(model, q, qd);
    const typename Model::Matrix n = mdot - 2 * c;
    // skew: N + N^T = 0, i.e. Mdot = C + C^T; errors relative to the size of Mdot
    const double scale = std::max(1.0, mdot.cwiseAbs().maxCoeff());
    const double skew = (n + n.transpose()).cwiseAbs().maxCoeff() / scale;
    const double sym = relative_error(typename Model::Matrix(c + c.transpose()), mdot);
    worst_skew = std::max(worst_skew, skew);
    worst_sym = std::max(worst_sym, sym);
    REQUIRE(skew < 1e-8);
    // and it is not trivially so: C itself is far from skew or symmetric
    REQUIRE(relative_error(c, typename Model::Matrix(-c.transpose())) > 1e-3);
  });
  WARN("worst |(Mdot - 2C) + (Mdot - 2C)^T| = " << worst_skew
                                               << ", |C + C^T - Mdot| = " << worst_sym);
}

TEST_CASE("christoffel_symbols equal 1/2 (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) by finite "
          "differences of crba",
          "[coriolis]") {
  double worst = 0;
  for_coriolis_cases([&](const auto& model, const auto& q, const auto& qd) {
    using Model = std::decay_t<decltype(model)>;
    constexpr int n = Model::nq;
    std::array<typename Model::Matrix, std::size_t(n)> dm;  // dm[k] = dM/dq_k
    for (int k = 0; k < n; ++k) dm[std::size_t(k)] = dM_dq(model, q, k, 1e-6);
    const auto gamma = christoffel_symbols(model, q);
    typename Model::Matrix c_from_gamma = Model::Matrix::Zero();
    for (int i = 0; i < n; ++i) {
      const auto& g = gamma[std::size_t(i)];
      REQUIRE((g - g.transpose()).cwiseAbs().maxCoeff() < 1e-12);  // Gamma_ijk = Gamma_ikj
      for (int j = 0; j < n; ++j) {
        for (int k = 0; k < n; ++k) {
          const double fd = 0.5 * (dm[std::size_t(k)](i, j) + dm[std::size_t(j)](i, k) -
                                   dm[std::size_t(i)](j, k));
          const double err = relative_error(g(j, k), fd);
          worst = std::max(worst, err);
          REQUIRE(err < 1e-7);
          c_from_gamma(i, j) += g(j, k) * qd[k];
        }
      }
    }
    REQUIRE(relative_error(c_from_gamma, coriolis_matrix(model, q, qd)) < 1e-12);
  });
  WARN("worst |Gamma - finite differences| = " << worst);
}

TEST_CASE("iiwa christoffel_symbols equal the formula with dM/dq from automatic differentiation",
          "[coriolis][autodiff]") {
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 7, 1>>;
  using V = robots::KukaIiwa<double>::Vector;
  const auto arm = robots::kuka_iiwa();
  const auto arm_ad = robots::kuka_iiwa<AD>();
  std::mt19937 gen(test::kSeed + 12u);
  double worst = 0;
  for (int s = 0; s < 5; ++s) {
    const V q = test::random_state<V>(gen, 2.5);
    robots::KukaIiwa<AD>::Vector q_ad;
    for (int i = 0; i < 7; ++i) q_ad[i] = AD(q[i], 7, i);
    const robots::KukaIiwa<AD>::Matrix m = crba(arm_ad, q_ad);
    const auto dm = [&](int a, int b, int k) { return m(a, b).derivatives()[k]; };
    const auto gamma = christoffel_symbols(arm, q);
    for (int i = 0; i < 7; ++i) {
      for (int j = 0; j < 7; ++j) {
        for (int k = 0; k < 7; ++k) {
          const double exact = 0.5 * (dm(i, j, k) + dm(i, k, j) - dm(j, k, i));
          const double err = relative_error(gamma[std::size_t(i)](j, k), exact);
          worst = std::max(worst, err);
          REQUIRE(err < 1e-13);
        }
      }
    }
  }
  WARN("worst |Gamma - automatic differentiation| = " << worst);
}

TEST_CASE("coriolis_matrix in-place form equals the returning form with a reused Data",
          "[coriolis]") {
  std::mt19937 gen(test::kSeed + 5u);
  const Mixed model(test::random_links<Mixed>(gen, true));
  Data<Mixed> data;
  for (int s = 0; s < 3; ++s) {
    const Mixed::Vector q = test::random_state<Mixed::Vector>(gen, 2.0);
    const Mixed::Vector qd = test::random_state<Mixed::Vector>(gen, 2.0);
    coriolis_matrix(model, data, q, qd);
    REQUIRE(data.C == coriolis_matrix(model, q, qd));
    std::array<Mixed::Matrix, Mixed::nq> gamma;
    christoffel_symbols(model, data, q, gamma);
    const auto fresh = christoffel_symbols(model, q);
    for (std::size_t i = 0; i < gamma.size(); ++i) REQUIRE(gamma[i] == fresh[i]);
  }
}
