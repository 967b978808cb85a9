// The Euler-Lagrange engine (chaindyn::lagrange), which differentiates a Lagrangian by nested
// AutoDiff, against independent paths: the hand-derived closed forms (their M, C, g and
// inverse dynamics, with L built from their own kinetic and potential energies), rnea / crba /
// coriolis_matrix on a chain whose L is chaindyn's energy functions, and a cart-pole and an
// elastic joint derived by hand here.
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

#include <chaindyn/closed_form.hpp>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

/// L = T - V of a closed-form system, evaluated on the AutoDiff scalar S.
template <template <typename> class System>
auto closed_form_lagrangian(const System<double>& system) {
  return [system](const auto& q, const auto& qd) {
    using S = lagrange::scalar_t<decltype(q)>;
    const System<S> s = system.template cast<S>();
    return S(s.kinetic_energy(q, qd) - s.potential_energy(q));
  };
}

/// Worst relative error of M, bias, g, tau, C and Gamma (via C) against the closed form.
template <template <typename> class System>
double worst_closed_form_error(const System<double>& system, std::mt19937& gen, double q_lo,
                               double q_hi) {
  using V = typename System<double>::Vector;
  const auto lagrangian = closed_form_lagrangian(system);
  double worst = 0;
  for (int s = 0; s < 10; ++s) {
    V q;
    for (Eigen::Index i = 0; i < q.size(); ++i) q[i] = test::uniform(gen, q_lo, q_hi);
    const V qd = test::random_state<V>(gen, 2.0), qdd = test::random_state<V>(gen, 2.0);
    const auto gamma = lagrange::christoffel_symbols(lagrangian, q);
    const double errors[] = {
        relative_error(lagrange::mass_matrix(lagrangian, q, qd), system.mass_matrix(q)),
        relative_error(lagrange::bias(lagrangian, q, qd),
                       V(system.coriolis_matrix(q, qd) * qd + system.gravity(q))),
        relative_error(lagrange::gravity(lagrangian, q), system.gravity(q)),
        relative_error(lagrange::coriolis_centrifugal(lagrangian, q, qd),
                       V(system.coriolis_matrix(q, qd) * qd)),
        relative_error(lagrange::equations_of_motion(lagrangian, q, qd, qdd),
                       system.inverse_dynamics(q, qd, qdd)),
        relative_error(gamma.coriolis_matrix(qd), system.coriolis_matrix(q, qd)),
        relative_error(lagrange::forward_dynamics(lagrangian, q, qd,
                                                  V(system.inverse_dynamics(q, qd, qdd))),
                       qdd),
    };
    for (const double e : errors) worst = std::max(worst, e);
  }
  return worst;
}

/// A cart (mass mc, position x) carrying a pole (point mass mp at distance l from the pivot,
/// angle th from the downward vertical), gravity g along -y. Derived by hand from
///   bob = (x + l sin th, -l cos th),
///   T = 1/2 (mc + mp) xd^2 + mp l cos th xd thd + 1/2 mp l^2 thd^2,   V = -mp g l cos th:
///   M = [mc + mp, mp l cos th; mp l cos th, mp l^2],
///   C = [0, -mp l sin th thd; 0, 0]   (the only non-zero symbol: Gamma_011 = -mp l sin th),
///   g = (0, mp g l sin th).
struct CartPole {
  double mc = 1.3, mp = 0.4, l = 0.7, g = 9.81;

  template <typename S>
  S kinetic_energy(const Eigen::Matrix<S, 2, 1>& q, const Eigen::Matrix<S, 2, 1>& qd) const {
    using std::cos;
    return S(0.5 * (mc + mp) * qd[0] * qd[0] + mp * l * cos(q[1]) * qd[0] * qd[1] +
             0.5 * mp * l * l * qd[1] * qd[1]);
  }
  template <typename S>
  S potential_energy(const Eigen::Matrix<S, 2, 1>& q) const {
    using std::cos;
    return S(-mp * g * l * cos(q[1]));
  }
  Eigen::Matrix2d mass_matrix(const Eigen::Vector2d& q) const {
    const double c = mp * l * std::cos(q[1]);
    return (Eigen::Matrix2d() << mc + mp, c, c, mp * l * l).finished();
  }
  Eigen::Matrix2d coriolis_matrix(const Eigen::Vector2d& q, const Eigen::Vector2d& qd) const {
    return (Eigen::Matrix2d() << 0, -mp * l * std::sin(q[1]) * qd[1], 0, 0).finished();
  }
  Eigen::Vector2d gravity(const Eigen::Vector2d& q) const {
    return Eigen::Vector2d(0, mp * g * l * std::sin(q[1]));
  }
};

}  // namespace

TEST_CASE("Lagrange engine reproduces every closed form: M, C qd + g, g, tau, Christoffel C",
          "[lagrange][closed_form]") {
  std::mt19937 gen(test::kSeed + 61);
  const double worst[] = {
      worst_closed_form_error(closed_form::SimplePendulum<double>(0.8, 1.3, 9.81), gen, -3, 3),
      worst_closed_form_error(closed_form::OneLinkArm<double>(1.7, 0.9, 0.35, 0.05, 9.81), gen,
                              -3, 3),
      worst_closed_form_error(
          closed_form::TwoLinkArm<double>(1.2, 0.8, 0.9, 0.7, 0.4, 0.3, 0.07, 0.04, 9.81), gen,
          -3, 3),
      // theta away from the coordinate singularity sin theta = 0
      worst_closed_form_error(closed_form::SphericalPendulum<double>(0.851, 1.1, 9.81), gen,
                              0.3, 2.8),
  };
  for (const double e : worst) {
    WARN("worst relative error vs closed form: " << e);
    REQUIRE(e < 1e-12);
  }
}

TEST_CASE("Christoffel symbols of the spherical pendulum equal the hand-derived ones and are "
          "symmetric in j and k",
          "[lagrange][christoffel]") {
  const closed_form::SphericalPendulum<double> p(0.851, 1.1, 9.81);
  const auto lagrangian = closed_form_lagrangian(p);
  const Eigen::Vector2d q(0.9, -0.4);
  const auto gamma = lagrange::christoffel_symbols(lagrangian, q);
  // c_122 = -m l^2 sin th cos th, c_212 = c_221 = m l^2 sin th cos th (1-based), else 0
  const double k = p.m * p.l * p.l * std::sin(q[0]) * std::cos(q[0]);
  Eigen::Matrix2d expected0, expected1;
  expected0 << 0, 0, 0, -k;
  expected1 << 0, k, k, 0;
  CHECK(relative_error(gamma[0], expected0) < 1e-13);
  CHECK(relative_error(gamma[1], expected1) < 1e-13);
  CHECK(gamma(1, 0, 1) == Approx(k).epsilon(1e-13));
  for (int i = 0; i < 2; ++i) CHECK(relative_error(gamma[i], gamma[i].transpose()) < 1e-15);
}

TEST_CASE("Lagrange engine on a chain's own energies equals crba, nonlinear_effects, "
          "gravity_torques, rnea and coriolis_matrix",
          "[lagrange][chain]") {
  constexpr int n = 3;
  using DModel = ChainN<double, n, Revolute>;
  using S = lagrange::SecondOrderScalar<n>;
  using SModel = ChainN<S, n, Revolute>;
  using V = DModel::Vector;
  std::mt19937 gen(test::kSeed + 62);
  double worst = 0;
  for (int trial = 0; trial < 3; ++trial) {
    const auto links = test::random_links<DModel>(gen, false);
    const DModel dm(links);
    const SModel sm(test::cast_links<S>(links));
    // L written once, for the one scalar the engine uses; chaindyn's energies of the chain
    const auto lagrangian = [&sm](const auto& q, const auto& qd) {
      using T = lagrange::scalar_t<decltype(q)>;
      return T(kinetic_energy(sm, q, qd) - potential_energy(sm, q));
    };
    for (int s = 0; s < 3; ++s) {
      const V q = test::random_state<V>(gen, 3.0), qd = test::random_state<V>(gen, 2.0),
              qdd = test::random_state<V>(gen, 2.0);
      const double errors[] = {
          relative_error(lagrange::mass_matrix(lagrangian, q, qd), crba(dm, q)),
          relative_error(lagrange::bias(lagrangian, q, qd), nonlinear_effects(dm, q, qd)),
          relative_error(lagrange::gravity(lagrangian, q), gravity_torques(dm, q)),
          relative_error(lagrange::equations_of_motion(lagrangian, q, qd, qdd),
                         rnea(dm, q, qd, qdd)),
          relative_error(lagrange::coriolis_matrix(lagrangian, q, qd), coriolis_matrix(dm, q, qd)),
      };
      for (const double e : errors) worst = std::max(worst, e);
    }
  }
  WARN("worst relative error of the Lagrange engine vs the recursive algorithms: " << worst);
  REQUIRE(worst < 1e-12);
}

TEST_CASE("cart-pole from its energies alone equals its hand-derived equations, fixed and "
          "dynamic size",
          "[lagrange][cart_pole]") {
  const CartPole cp;
  const auto lagrangian = lagrange::from_energies(
      [cp](const auto& q, const auto& qd) { return cp.kinetic_energy(q, qd); },
      [cp](const auto& q) { return cp.potential_energy(q); });
  std::mt19937 gen(test::kSeed + 63);
  double worst = 0;
  for (int s = 0; s < 10; ++s) {
    const Eigen::Vector2d q = test::random_state<Eigen::Vector2d>(gen, 3.0),
                          qd = test::random_state<Eigen::Vector2d>(gen, 2.0),
                          qdd = test::random_state<Eigen::Vector2d>(gen, 2.0);
    const Eigen::Matrix2d m = cp.mass_matrix(q), c = cp.coriolis_matrix(q, qd);
    const Eigen::Vector2d g = cp.gravity(q);
    const double errors[] = {
        relative_error(lagrange::mass_matrix(lagrangian, q), m),
        relative_error(lagrange::bias(lagrangian, q, qd), Eigen::Vector2d(c * qd + g)),
        relative_error(lagrange::gravity(lagrangian, q), g),
        relative_error(lagrange::equations_of_motion(lagrangian, q, qd, qdd),
                       Eigen::Vector2d(m * qdd + c * qd + g)),
        relative_error(lagrange::coriolis_matrix(lagrangian, q, qd), c),
    };
    for (const double e : errors) worst = std::max(worst, e);
  }
  WARN("worst cart-pole relative error: " << worst);
  REQUIRE(worst < 1e-12);

  // Dynamic size: the same Lagrangian written for any n (here 2) on Eigen::VectorXd.
  const auto dynamic_lagrangian = [cp](const auto& q, const auto& qd) {
    using S = lagrange::scalar_t<decltype(q)>;
    using std::cos;
    return S(0.5 * (cp.mc + cp.mp) * qd[0] * qd[0] + cp.mp * cp.l * cos(q[1]) * qd[0] * qd[1] +
             0.5 * cp.mp * cp.l * cp.l * qd[1] * qd[1] + cp.mp * cp.g * cp.l * cos(q[1]));
  };
  const Eigen::Vector2d q(0.4, 2.1), qd(-0.7, 1.5), qdd(0.3, -1.1);
  const Eigen::VectorXd dq = q, dqd = qd, dqdd = qdd;
  const Eigen::VectorXd tau = lagrange::equations_of_motion(dynamic_lagrangian, dq, dqd, dqdd);
  const Eigen::MatrixXd c = lagrange::coriolis_matrix(dynamic_lagrangian, dq, dqd);
  CHECK(relative_error(tau, Eigen::Vector2d(cp.mass_matrix(q) * qdd +
                                            cp.coriolis_matrix(q, qd) * qd + cp.gravity(q))) <
        1e-13);
  CHECK(relative_error(c, cp.coriolis_matrix(q, qd)) < 1e-13);
}

TEST_CASE("elastic joint (Spong) from its energies alone equals its hand-derived equations",
          "[lagrange][elastic_joint]") {
  // Link angle q1 (inertia I, mass m, centre of mass at d, gravity along -y), motor angle q2
  // (rotor inertia J), joined by a torsion spring k:
  //   L = 1/2 I q1d^2 + 1/2 J q2d^2 + m g d cos q1 - 1/2 k (q1 - q2)^2,
  //   tau = (I q1dd + m g d sin q1 + k (q1 - q2), J q2dd - k (q1 - q2))   (Spong 1987).
  const double inertia = 0.35, rotor = 0.02, m = 1.1, d = 0.3, k = 40.0, g = 9.81;
  const auto lagrangian = [=](const auto& q, const auto& qd) {
    using S = lagrange::scalar_t<decltype(q)>;
    using std::cos;
    const S spring = q[0] - q[1];
    return S(0.5 * inertia * qd[0] * qd[0] + 0.5 * rotor * qd[1] * qd[1] +
             m * g * d * cos(q[0]) - 0.5 * k * spring * spring);
  };
  const Eigen::Vector2d q(0.8, 0.5), qd(1.2, -3.0), qdd(-0.4, 7.0);
  const Eigen::Vector2d expected(inertia * qdd[0] + m * g * d * std::sin(q[0]) + k * (q[0] - q[1]),
                                 rotor * qdd[1] - k * (q[0] - q[1]));
  const double e = relative_error(lagrange::equations_of_motion(lagrangian, q, qd, qdd), expected);
  WARN("elastic joint relative error: " << e);
  CHECK(e < 1e-13);
  CHECK(relative_error(lagrange::mass_matrix(lagrangian, q),
                       Eigen::Vector2d(inertia, rotor).asDiagonal().toDenseMatrix()) < 1e-15);
  // constant M: every Christoffel symbol vanishes
  const auto gamma = lagrange::christoffel_symbols(lagrangian, q);
  CHECK(gamma[0].cwiseAbs().maxCoeff() == 0);
  CHECK(gamma[1].cwiseAbs().maxCoeff() == 0);
}
