// Elastic joints (Spong's reduced model): the exact time derivatives of rnea against central
// differences, the flatness inverse against the closed form of one elastic link and against a
// forward simulation it drives, the free oscillation of one elastic link in closed form,
// K -> infinity converging to the rigid model with the rotors as armature, energy balance with
// the springs' potential, rigid joints (stiffness +inf) among elastic ones, and the boundary
// errors. Two chain types: the built-in iiwa and the one-link arm.
#include "support/test_support.hpp"

#include <chaindyn/closed_form/one_link_arm.hpp>
#include <chaindyn/identification/friction_identification.hpp>
#include <chaindyn/simulation.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <random>
#include <vector>

using namespace chaindyn;

namespace {

using ElasticArm = robots::KukaIiwa<double>;
using ElasticVec = ElasticArm::Vector;

/// q_j(t) = c_j + a_j sin(w_j t + p_j): every derivative in closed form.
struct ElasticSines {
  ElasticVec c, a, w, p;
  /// The k-th time derivative at t, k = 0..4.
  ElasticVec d(int k, double t) const {
    ElasticVec out;
    for (int j = 0; j < 7; ++j) {
      const double ph = w[j] * t + p[j] + k * (test::kPi / 2);
      out[j] = (k == 0 ? c[j] : 0.0) + a[j] * std::pow(w[j], k) * std::sin(ph);
    }
    return out;
  }
};

ElasticSines elastic_sines() {
  ElasticSines s;
  s.c << 0.1, 0.6, -0.2, -1.2, 0.3, 0.8, -0.4;
  s.a << 0.4, 0.3, 0.5, 0.4, 0.6, 0.5, 0.7;
  s.w << 1.1, 1.7, 2.3, 1.3, 2.9, 3.1, 2.0;
  s.p << 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0;
  return s;
}

/// Harmonic-drive-like numbers for the iiwa: K in N m/rad, B in kg m^2 (reflected).
ElasticJoints<ElasticArm> elastic_iiwa(const ElasticArm& arm, double scale_k, double d) {
  ElasticVec k, b;
  k << 8000, 8000, 6000, 6000, 3000, 2000, 2000;
  b << 0.6, 0.6, 0.4, 0.4, 0.15, 0.1, 0.1;
  return ElasticJoints<ElasticArm>(arm, scale_k * k, ElasticVec::Constant(d), b);
}

}  // namespace

TEST_CASE("link_torque_derivatives: tau_L is rnea, its derivatives match central differences",
          "[elastic]") {
  ElasticArm arm = robots::kuka_iiwa();
  const ElasticSines s = elastic_sines();
  ElasticData<ElasticArm> data(arm);
  auto tau = [&](double t) -> ElasticVec { return rnea(arm, s.d(0, t), s.d(1, t), s.d(2, t)); };
  double worst1 = 0, worst2 = 0;
  for (double t : {0.0, 0.37, 1.2, 2.9}) {
    link_torque_derivatives(arm, data, s.d(0, t), s.d(1, t), s.d(2, t), s.d(3, t), s.d(4, t));
    const ElasticVec r = tau(t);
    CHECK((data.tau_link - r).lpNorm<Eigen::Infinity>() < 1e-11 * (1 + r.norm()));
    // 4th-order central differences: h = 1e-3 leaves ~1e-10 truncation, ~1e-11 rounding
    const double h = 1e-3;
    const ElasticVec m2 = tau(t - 2 * h), m1 = tau(t - h), p1 = tau(t + h), p2 = tau(t + 2 * h);
    const ElasticVec d1 = (m2 - 8 * m1 + 8 * p1 - p2) / (12 * h);
    const ElasticVec d2 = (-m2 + 16 * m1 - 30 * r + 16 * p1 - p2) / (12 * h * h);
    worst1 = std::max(worst1, (data.tau_link_d - d1).lpNorm<Eigen::Infinity>() / (1 + d1.norm()));
    worst2 = std::max(worst2, (data.tau_link_dd - d2).lpNorm<Eigen::Infinity>() / (1 + d2.norm()));
  }
  std::printf("link_torque_derivatives vs central differences: relative error %.2e (d/dt), "
              "%.2e (d2/dt2)\n", worst1, worst2);
  CHECK(worst1 < 1e-8);
  CHECK(worst2 < 1e-5);
}

TEST_CASE("elastic_inverse_dynamics: one elastic link in closed form", "[elastic]") {
  // J qdd + m g d sin q = K (theta - q);  B thetadd + K (theta - q) = tau_m  (D = 0) gives
  // tau_m = (B / K) (J q'''' + m g d (cos q qdd - sin q qd^2)) + (J + B) qdd + m g d sin q
  const auto rod = closed_form::OneLinkArm<double>::uniform_rod(2.0, 0.8);
  const auto link = rod.to_chain();
  using Link = std::remove_const_t<decltype(link)>;
  using V1 = Link::Vector;
  const double k = 350.0, b = 0.07, J = rod.I_c + rod.m * rod.d * rod.d, mgd = rod.m * rod.g * rod.d;
  const ElasticJoints<Link> elastic(link, V1(k), V1(0.0), V1(b));
  ElasticData<Link> data(link);
  for (const double q : {-1.0, 0.2, 2.5}) {
    const double qd = 0.7, qdd = -1.3, qddd = 2.1, qdddd = -4.0;
    elastic_inverse_dynamics(link, elastic, data, V1(q), V1(qd), V1(qdd), V1(qddd), V1(qdddd),
                             V1(0.0));
    const double tau_l = J * qdd + mgd * std::sin(q);
    const double tau_l_dd =
        J * qdddd + mgd * (std::cos(q) * qdd - std::sin(q) * qd * qd);
    const double tau_m = b / k * tau_l_dd + (J + b) * qdd + mgd * std::sin(q);
    CHECK(data.tau_m[0] == Approx(tau_m).epsilon(1e-12));
    CHECK(data.theta[0] == Approx(q + tau_l / k).epsilon(1e-12));
    CHECK(data.thetad[0] ==
          Approx(qd + (J * qddd + mgd * std::cos(q) * qd) / k).epsilon(1e-12));
  }
}

TEST_CASE("simulate_elastic: the free oscillation of one elastic link in closed form",
          "[elastic]") {
  // Without gravity: J q + B theta is constant and r = theta - q obeys r'' = -K (1/J + 1/B) r.
  auto rod = closed_form::OneLinkArm<double>::uniform_rod(2.0, 0.8);
  rod.g = 0;
  const auto link = rod.to_chain();
  using Link = std::remove_const_t<decltype(link)>;
  using V1 = Link::Vector;
  const double k = 350.0, b = 0.07, J = rod.I_c + rod.m * rod.d * rod.d, delta = 0.05;
  const ElasticJoints<Link> elastic(link, V1(k), V1(0.0), V1(b));
  const double w = std::sqrt(k * (1 / J + 1 / b));
  IntegrationOptions<double> options;
  options.rtol = options.atol = 1e-11;
  options.output_interval = 0.01;
  // 0.3 s: about four periods of the relative motion (2 pi / w = 0.08 s)
  const auto r = simulate_elastic(link, elastic, V1(0.0), V1(0.0), V1(delta), V1(0.0),
                                  ZeroMotorTorque{}, 0.3, options);
  double worst = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    const double rel = delta * std::cos(w * r.t[i]), mean = b * delta / (J + b);
    worst = std::max(worst, std::abs(r.q[i][0] - (mean - b * rel / (J + b))));
    worst = std::max(worst, std::abs(r.theta[i][0] - (mean + J * rel / (J + b))));
  }
  std::printf("free oscillation of one elastic link: max error %.2e rad over %zu samples, "
              "%zu steps\n", worst, r.size(), r.stats.steps);
  CHECK(worst < 1e-9);
}

TEST_CASE("elastic_inverse_dynamics: the flatness torque drives a forward simulation along "
          "the link trajectory", "[elastic]") {
  ElasticArm arm = robots::kuka_iiwa();
  const ElasticSines s = elastic_sines();
  IntegrationOptions<double> options;
  // shorter and coarser in unoptimised builds (CI time under the sanitizers): 0.01 s is still
  // three periods of the wrist's spring, whose modes limit RK45's step (~0.1 ms with D > 0)
  options.rtol = options.atol = test::kUnoptimised ? 1e-10 : 1e-11;
  const double t_end = test::kUnoptimised ? 0.01 : 0.3;
  options.output_interval = t_end / 5;
  {
    // D = 0: the motor torque is a function of t alone (open loop)
    const auto elastic = elastic_iiwa(arm, 1.0, 0.0);
    ElasticData<ElasticArm> data(arm);
    const auto flat = [&](double t, const ElasticVec& e) {
      elastic_inverse_dynamics(arm, elastic, data, s.d(0, t), s.d(1, t), s.d(2, t), s.d(3, t),
                               s.d(4, t), e);
    };
    flat(0, ElasticVec::Zero());
    const ElasticVec theta0 = data.theta, thetad0 = data.thetad;
    const auto r = simulate_elastic(
        arm, elastic, s.d(0, 0), s.d(1, 0), theta0, thetad0,
        [&](double t, const ElasticVec&, const ElasticVec&, const ElasticVec&, const ElasticVec&) {
          flat(t, ElasticVec::Zero());
          return data.tau_m;
        },
        t_end, options);
    double worst_q = 0, worst_theta = 0;
    for (std::size_t i = 0; i < r.size(); ++i) {
      flat(r.t[i], ElasticVec::Zero());
      worst_q = std::max(worst_q, (r.q[i] - s.d(0, r.t[i])).lpNorm<Eigen::Infinity>());
      worst_theta = std::max(worst_theta, (r.theta[i] - data.theta).lpNorm<Eigen::Infinity>());
    }
    std::printf("flatness round trip (D = 0): |q - q_ref| %.2e rad, |theta - theta_ref| %.2e "
                "rad over %zu samples, %zu steps\n", worst_q, worst_theta, r.size(),
                r.stats.steps);
    CHECK(worst_q < 1e-8);
    CHECK(worst_theta < 1e-8);
  }
  {
    // D > 0: the reference deflection e obeys K e + D edot = tau_L(t); integrated with the
    // robot, as a third block of coordinates (E, with E' = e), by integrate()
    const auto elastic = elastic_iiwa(arm, 1.0, 15.0);
    ElasticData<ElasticArm> data(arm);
    using X = Eigen::Matrix<double, 21, 1>;
    X x0 = X::Zero(), xd0 = X::Zero();
    x0.head<7>() = s.d(0, 0);
    xd0.head<7>() = s.d(1, 0);
    elastic_inverse_dynamics(arm, elastic, data, s.d(0, 0), s.d(1, 0), s.d(2, 0), s.d(3, 0),
                             s.d(4, 0), ElasticVec::Zero());
    x0.segment<7>(7) = data.theta;
    xd0.segment<7>(7) = data.thetad;
    ElasticVec tau_used;
    auto f = [&](double t, const X& x, const X& xd) -> X {
      const ElasticVec e = xd.tail<7>();
      elastic_inverse_dynamics(arm, elastic, data, s.d(0, t), s.d(1, t), s.d(2, t), s.d(3, t),
                               s.d(4, t), e);
      tau_used = data.tau_m;
      const ElasticVec edot = data.thetad - s.d(1, t);
      elastic_forward_dynamics(arm, elastic, data, ElasticVec(x.head<7>()),
                               ElasticVec(xd.head<7>()), ElasticVec(x.segment<7>(7)),
                               ElasticVec(xd.segment<7>(7)), tau_used);
      X out;
      out << data.qdd, data.thetadd, edot;
      return out;
    };
    double worst_q = 0, worst_theta = 0;
    const IntegrationStats stats = integrate(f, x0, xd0, t_end, options, [&](const IntegrationSample<X>& smp) {
      worst_q = std::max(worst_q, (smp.q.head<7>() - s.d(0, smp.t)).lpNorm<Eigen::Infinity>());
      const ElasticVec theta_ref = s.d(0, smp.t) + smp.qd.tail<7>();
      worst_theta = std::max(worst_theta, (smp.q.segment<7>(7) - theta_ref).lpNorm<Eigen::Infinity>());
    });
    std::printf("flatness round trip (D = 15): |q - q_ref| %.2e rad, |theta - theta_ref| %.2e "
                "rad, %zu steps\n", worst_q, worst_theta, stats.steps);
    CHECK(worst_q < 1e-8);
    CHECK(worst_theta < 1e-8);
  }
}

TEST_CASE("simulate_elastic: K -> infinity converges to the rigid model with B as armature",
          "[elastic]") {
  const ElasticArm arm = robots::kuka_iiwa();
  // the rigid limit: the same links with each rotor's B added as armature
  std::array<Link<double>, 7> links = arm.links();
  const auto unit = elastic_iiwa(arm, 1.0, 0.0);
  for (std::size_t i = 0; i < 7; ++i) links[i].dynamics.armature += unit.rotor_inertia[Eigen::Index(i)];
  const ElasticArm rigid(links);
  const ElasticVec q0 = elastic_sines().c;
  const ElasticVec g0 = gravity_torques(rigid, q0);
  // open-loop motor torque: gravity at q0 plus a smooth excitation
  auto tau_m = [&](double t) -> ElasticVec {
    ElasticVec out = g0;
    for (int j = 0; j < 7; ++j) out[j] += 4.0 * std::sin((1.0 + 0.3 * j) * t);
    return out;
  };
  IntegrationOptions<double> options;
  options.rtol = options.atol = 1e-10;
  // CI time under the sanitizers: the O(1/K) rate shows from the first periods of the springs
  const double t_end = test::kUnoptimised ? 0.01 : 0.5;
  options.output_interval = t_end / 5;
  const auto rr = simulate(rigid, q0, ElasticVec::Zero(), [&](double t, const ElasticVec&,
                                                              const ElasticVec&) { return tau_m(t); },
                           t_end, options);
  double previous = 0;
  for (const double scale : {1.0, 10.0, 100.0}) {
    const auto elastic = elastic_iiwa(arm, scale, 0.0);
    // start on the slow manifold: theta0 = q0 + K^-1 tau_L(0), tau_L(0) = tau_m(0) - B qdd(0)
    const ElasticVec qdd0 = aba(rigid, q0, ElasticVec::Zero(), tau_m(0));
    const ElasticVec theta0 =
        q0 + (tau_m(0) - unit.rotor_inertia.cwiseProduct(qdd0)).cwiseQuotient(elastic.stiffness);
    const auto re = simulate_elastic(
        arm, elastic, q0, ElasticVec::Zero(), theta0, ElasticVec::Zero(),
        [&](double t, const ElasticVec&, const ElasticVec&, const ElasticVec&, const ElasticVec&) {
          return tau_m(t);
        },
        t_end, options);
    REQUIRE(re.size() == rr.size());
    double worst = 0;
    for (std::size_t i = 0; i < re.size(); ++i) {
      worst = std::max(worst, (re.q[i] - rr.q[i]).lpNorm<Eigen::Infinity>());
    }
    std::printf("K x %6g: max |q_elastic - q_rigid| over %g s = %.3e rad (%llu steps)", scale,
                t_end, worst, static_cast<unsigned long long>(re.stats.steps));
    if (previous > 0) std::printf(", rate log10(e_prev / e) = %.2f", std::log10(previous / worst));
    std::printf("\n");
    if (previous > 0) CHECK(std::log10(previous / worst) > 0.8);  // O(1/K)
    previous = worst;
  }
  CHECK(previous < 1e-5);
}

TEST_CASE("elastic_energy: conserved without damping, dissipated by the spring damping",
          "[elastic]") {
  const ElasticArm arm = robots::kuka_iiwa();
  const ElasticSines s = elastic_sines();
  IntegrationOptions<double> options;
  // shorter and coarser in unoptimised builds (CI time under the sanitizers): RK45's energy
  // error follows its tolerance, ~4e-8 J at 1e-8 against the 8e-6 J checked
  options.rtol = options.atol = test::kUnoptimised ? 1e-8 : 1e-11;
  const double t_end = test::kUnoptimised ? 0.02 : 0.3;
  for (const double d : {0.0, 5.0}) {
    // fine samples for the trapezoid rule over the springs' oscillations (the wrist's period
    // is ~3 ms)
    options.output_interval = d == 0 ? 0.002 : 2.5e-5;
    const auto elastic = elastic_iiwa(arm, 1.0, d);
    ElasticData<ElasticArm> data(arm);
    const ElasticVec theta0 = s.d(0, 0) + ElasticVec::Constant(0.01);
    const auto r = simulate_elastic(arm, elastic, s.d(0, 0), s.d(1, 0), theta0,
                                    ElasticVec::Zero(), ZeroMotorTorque{},
                                    t_end, options);
    const double e0 = elastic_energy(arm, elastic, data, r.q[0], r.qd[0], r.theta[0], r.thetad[0]);
    double worst = 0, previous = e0, rise = 0, dissipated = 0;
    for (std::size_t i = 1; i < r.size(); ++i) {
      const double e = elastic_energy(arm, elastic, data, r.q[i], r.qd[i], r.theta[i], r.thetad[i]);
      worst = std::max(worst, std::abs(e - e0));
      rise = std::max(rise, e - previous);
      previous = e;
      // dE/dt = -(thetad - qd)^T D (thetad - qd), trapezoid rule
      const ElasticVec a = r.thetad[i - 1] - r.qd[i - 1], b = r.thetad[i] - r.qd[i];
      dissipated += 0.5 * (r.t[i] - r.t[i - 1]) * d * (a.squaredNorm() + b.squaredNorm());
    }
    std::printf("elastic energy, D = %g: E0 = %.4f J, max |E - E0| = %.2e J, E(t_end) - E0 + "
                "dissipated = %.2e J (dissipated %.3e J), %zu steps\n", d, e0, worst,
                previous - e0 + dissipated, dissipated, r.stats.steps);
    if (d == 0) {
      CHECK(worst < 1e-7 * std::abs(e0));
    } else {
      CHECK(rise <= 1e-9);
      CHECK(std::abs(previous - e0 + dissipated) < 5e-4 * dissipated);
    }
  }
}

TEST_CASE("ElasticJoints: a rigid joint (stiffness +inf) takes its motor torque; the flatness "
          "inverse drives the forward dynamics of a mixed arm; its energy is conserved",
          "[elastic]") {
  const ElasticArm arm = robots::kuka_iiwa();
  const ElasticSines s = elastic_sines();
  const double inf = std::numeric_limits<double>::infinity();
  ElasticData<ElasticArm> data(arm);
  // every joint rigid: the rigid robot
  const ElasticJoints<ElasticArm> rigid(arm, ElasticVec::Constant(inf), ElasticVec::Zero(),
                                        ElasticVec::Zero());
  const ElasticVec q = s.d(0, 0.2), qd = s.d(1, 0.2), tau = s.d(2, 0.2) * 10.0;
  elastic_forward_dynamics(arm, rigid, data, q, qd, q, qd, tau);
  CHECK(data.qdd == aba(arm, q, qd, tau));
  CHECK(data.thetadd == data.qdd);
  // joints 1 and 4 rigid, the others elastic with D = 0: the motor torque of the flatness
  // inverse, fed to the forward dynamics at the motor state it gives, yields the link
  // acceleration back
  ElasticJoints<ElasticArm> mixed = elastic_iiwa(arm, 1.0, 0.0);
  for (const Eigen::Index j : {1, 4}) {
    mixed.stiffness[j] = inf;
    mixed.rotor_inertia[j] = 0.0;
  }
  REQUIRE(mixed.rigid(1));
  REQUIRE(!mixed.rigid(0));
  const double t = 0.35;
  elastic_inverse_dynamics(arm, mixed, data, s.d(0, t), s.d(1, t), s.d(2, t), s.d(3, t),
                           s.d(4, t), ElasticVec::Zero());
  const ElasticVec theta = data.theta, thetad = data.thetad, thetadd = data.thetadd,
                   tau_m = data.tau_m;
  CHECK(theta[1] == s.d(0, t)[1]);
  CHECK(std::abs(tau_m[4] - rnea(arm, s.d(0, t), s.d(1, t), s.d(2, t))[4]) < 1e-11);
  elastic_forward_dynamics(arm, mixed, data, s.d(0, t), s.d(1, t), theta, thetad, tau_m);
  CHECK(test::relative_error(data.qdd, s.d(2, t)) < 1e-9);
  CHECK(test::relative_error(data.thetadd, thetadd) < 1e-9);
  // the mixed arm's energy (springs and rotors of the elastic joints only) under no torque
  IntegrationOptions<double> options;
  // RK45's energy error follows its tolerance: ~4e-8 J at 1e-8, against the 8e-5 J checked;
  // 0.02 s: six periods of the wrist's spring
  options.rtol = options.atol = 1e-8;
  options.output_interval = 0.004;
  const ElasticVec theta0 = s.d(0, 0) + ElasticVec::Constant(0.01);
  const auto r = simulate_elastic(arm, mixed, s.d(0, 0), s.d(1, 0), theta0, ElasticVec::Zero(),
                                  ZeroMotorTorque{}, 0.02, options);
  const double e0 = elastic_energy(arm, mixed, data, r.q[0], r.qd[0], r.theta[0], r.thetad[0]);
  double worst = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    worst = std::max(worst, std::abs(elastic_energy(arm, mixed, data, r.q[i], r.qd[i],
                                                    r.theta[i], r.thetad[i]) - e0));
    CHECK(r.theta[i][1] == r.q[i][1]);  // the rigid joints' motors move with their links
  }
  std::printf("mixed arm, no torque: max |E - E0| = %.2e J of E0 = %.4f J, %zu steps\n", worst,
              e0, r.stats.steps);
  CHECK(worst < 1e-6 * std::abs(e0));
  // a rigid joint carries no spring damping or rotor of its own
  CHECK_THROWS_AS(ElasticJoints<ElasticArm>(arm, ElasticVec::Constant(inf), ElasticVec::Zero(),
                                            ElasticVec::Constant(0.1)),
                  ModelError);
}

TEST_CASE("ElasticJoints: bad parameters and arguments are refused", "[elastic]") {
  const ElasticArm arm = robots::kuka_iiwa();
  const ElasticVec one = ElasticVec::Ones();
  CHECK_THROWS_AS(ElasticJoints<ElasticArm>(arm, -one, one, one), ModelError);
  CHECK_THROWS_AS(ElasticJoints<ElasticArm>(arm, one, -one, one), ModelError);
  CHECK_THROWS_AS(ElasticJoints<ElasticArm>(arm, one, one, 0 * one), ModelError);
  const auto damped = ElasticJoints<ElasticArm>::uniform(arm, 1000, 1, 0.1);
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(7);
  CHECK_THROWS_AS(elastic_inverse_dynamics(arm, damped, q, q, q, q, q), ArgumentError);
  CHECK_THROWS_AS(elastic_inverse_dynamics(arm, damped, q, q, q, q, Eigen::VectorXd::Zero(6), q),
                  ArgumentError);
  const auto undamped = ElasticJoints<ElasticArm>::uniform(arm, 1000, 0, 0.1);
  const auto result = elastic_inverse_dynamics(arm, undamped, q, q, q, q, q);
  CHECK((result.tau_m - gravity_torques(arm, ElasticVec::Zero())).norm() < 1e-9);
}

// --- Friction models (algorithms/friction_models.hpp, identification/friction_identification.hpp)

namespace {

LuGreParameters<double> lugre_example() {
  // Canudas de Wit et al. 1995, sec. IV's numbers
  LuGreParameters<double> p;
  p.sigma0 = 1e5;
  p.sigma1 = std::sqrt(1e5);
  p.sigma2 = 0.4;
  p.curve.coulomb = 1.0;
  p.curve.static_friction = 1.5;
  p.curve.stribeck_velocity = 0.001;
  return p;
}

/// The bristle state z at time t_end under a prescribed velocity v(t), from z0 (RK45 on the
/// auxiliary coordinate Z with Z' = z); on_sample(t, v, z) at every output time.
template <typename Velocity, typename OnSample>
double lugre_state_under(const LuGreParameters<double>& p, Velocity&& v, double z0, double t_end,
                         double interval, OnSample&& on_sample) {
  using V1 = Eigen::Matrix<double, 1, 1>;
  IntegrationOptions<double> options;
  options.rtol = options.atol = 1e-12;
  options.output_interval = interval;
  double z_end = z0;
  integrate([&](double t, const V1&, const V1& z) { return V1(lugre_state_rate(p, v(t), z[0])); },
            V1(0.0), V1(z0), t_end, options, [&](const IntegrationSample<V1>& s) {
              z_end = s.qd[0];
              on_sample(s.t, v(s.t), s.qd[0]);
            });
  return z_end;
}

}  // namespace

TEST_CASE("LuGre: the steady state at constant velocity is the Stribeck static map",
          "[friction]") {
  const auto p = lugre_example();
  const auto map = p.static_map();
  double worst = 0;
  for (const double v : {-0.5, -0.01, -0.002, -1e-4, 1e-4, 5e-4, 0.001, 0.003, 0.05, 2.0}) {
    // from rest with relaxed bristles, long enough for ~50 time constants g(v) / (sigma0 |v|)
    const double tau = stribeck_curve(p.curve, v) / (p.sigma0 * std::abs(v));
    const double z = lugre_state_under(p, [v](double) { return v; }, 0.0, 50 * tau, 0.0,
                                       [](double, double, double) {});
    const double f = lugre_friction(p, v, z), expected = stribeck_static_map(map, v);
    worst = std::max(worst, std::abs(f - expected) / std::abs(expected));
  }
  // (RK45's 1e-12 on z is amplified by sigma1 sigma0 |v| / g(v) in F: 6e7 at v = 2 rad/s)
  std::printf("LuGre steady state against the static map: relative error %.2e\n", worst);
  CHECK(worst < 1e-5);
}

TEST_CASE("LuGre: pre-sliding is a spring, break-away at Fs, frictional lag (Canudas de Wit "
          "1995)", "[friction]") {
  const auto p = lugre_example();
  // 1. a mass under a slowly rising force: below Fs it moves by micrometres (a spring), past Fs
  // it slides (sec. III of the paper: "presliding displacement", "break-away force")
  auto rod = closed_form::OneLinkArm<double>::uniform_rod(1.0, 1.0);
  rod.g = 0;
  const auto link = rod.to_chain();
  using Link = std::remove_const_t<decltype(link)>;
  using V1 = Link::Vector;
  const LuGreJoints<Link> lugre(link, p);
  IntegrationOptions<double> options;
  options.rtol = options.atol = 1e-10;
  options.output_interval = 0.01;
  const double rate = 1.0;  // N m/s
  double x_at_half = 0, x_at_1_2 = 0, x_at_1_6 = 0;
  simulate_lugre(link, lugre, V1(0.0), V1(0.0), V1(0.0),
                 [&](double t, const V1&, const V1&) { return V1(rate * t); }, 1.7, options,
                 [&](const LuGreSample<V1>& s) {
                   if (std::abs(s.t - 0.5) < 1e-9) x_at_half = s.q[0];
                   if (std::abs(s.t - 1.2) < 1e-9) x_at_1_2 = s.q[0];
                   if (std::abs(s.t - 1.6) < 1e-9) x_at_1_6 = s.q[0];
                 });
  // quasi-static loading at v ~ 0: F = sigma0 z and dz/dx = 1 - sigma0 z / Fs, so
  // x(F) = -(Fs / sigma0) ln(1 - F / Fs): a softening spring of initial stiffness sigma0
  const auto presliding = [&](double force) {
    return -p.curve.static_friction / p.sigma0 * std::log(1 - force / p.curve.static_friction);
  };
  std::printf("LuGre under a force ramp: x(F = 0.5) = %.4e (closed form %.4e), x(1.2) = %.4e "
              "(%.4e), x(F = 1.6 > Fs) = %.3e\n", x_at_half, presliding(0.5), x_at_1_2,
              presliding(1.2), x_at_1_6);
  CHECK(x_at_half == Approx(presliding(0.5)).epsilon(0.01));
  CHECK(x_at_1_2 == Approx(presliding(1.2)).epsilon(0.01));
  CHECK(x_at_1_6 > 1000 * p.curve.static_friction / p.sigma0);

  // 2. frictional lag: under v(t) = v0 + a sin(w t) the friction traces a loop in (v, F), higher
  // while the velocity rises than while it falls; the loop widens with w and closes onto the
  // static map as w -> 0 (the paper's Fig. 4)
  const double v0 = 0.002, a = 0.0015;
  double previous_width = -1;
  for (const double w : {0.05, 1.0, 10.0, 25.0}) {
    const double period = 2 * test::kPi / w;
    const auto v = [&](double t) { return v0 + a * std::sin(w * t); };
    double f_rise = 0, f_fall = 0;
    // start on the static map at t = 0 (z at its steady state for v0), measure the third cycle
    const double z0 = stribeck_curve(p.curve, v0) / p.sigma0;
    lugre_state_under(p, v, z0, 3 * period, period / 4, [&](double t, double vel, double z) {
      const double phase = std::fmod(t / period, 1.0);
      if (t > 2 * period - 1e-9 && std::abs(phase) < 1e-6) f_rise = lugre_friction(p, vel, z);
      if (t > 2 * period && std::abs(phase - 0.5) < 1e-6) f_fall = lugre_friction(p, vel, z);
    });
    const double width = f_rise - f_fall;  // both at v = v0
    std::printf("frictional lag at w = %5.2f rad/s: F(v0, rising) - F(v0, falling) = %.4e N m\n",
                w, width);
    CHECK(width > previous_width);
    if (w < 0.1) CHECK(std::abs(width) < 1e-3 * (p.curve.static_friction - p.curve.coulomb));
    previous_width = width;
  }
  CHECK(previous_width > 0.01 * (p.curve.static_friction - p.curve.coulomb));
}

TEST_CASE("Stribeck: the regularised map, and bad parameters", "[friction]") {
  StribeckParameters<double> p;
  p.coulomb = 2;
  p.static_friction = 3;
  p.viscous = 0.5;
  p.stribeck_velocity = 0.02;
  p.regularization = 1e-4;
  for (const double v : {-1.0, -0.01, -1e-3, 1e-3, 0.05}) {
    const double bound = 2 * stribeck_curve(p, v) * std::exp(-2 * std::abs(v) / p.regularization);
    CHECK(std::abs(stribeck_friction(p, v) - stribeck_static_map(p, v)) <= bound + 1e-15);
  }
  CHECK(stribeck_friction(p, 0.0) == 0.0);
  CHECK(stribeck_static_map(p, 0.0) == 0.0);
  CHECK(stribeck_static_map(p, 1e-9) == Approx(3.0).epsilon(1e-9));
  validate(p);
  p.static_friction = 1;  // below Fc
  CHECK_THROWS_AS(validate(p), ModelError);
  auto l = lugre_example();
  l.sigma0 = 0;
  const auto rod = closed_form::OneLinkArm<double>::uniform_rod(1.0, 1.0).to_chain();
  CHECK_THROWS_AS(LuGreJoints<std::remove_const_t<decltype(rod)>>(rod, l), ModelError);
  CHECK_THROWS_AS(identify_stribeck({0.1, 0.2}, {1.0, 1.0}), ArgumentError);
  CHECK_THROWS_AS(identify_stribeck({0.1, 0.0, 0.3, 0.4}, {1, 1, 1, 1}), ArgumentError);
}

TEST_CASE("identify_stribeck and identify_lugre_presliding recover simulated parameters under "
          "noise", "[friction]") {
  StribeckParameters<double> truth;
  truth.coulomb = 2.0;
  truth.static_friction = 3.2;
  truth.viscous = 0.8;
  truth.stribeck_velocity = 0.03;
  // 60 constant-velocity runs, |v| log-spaced over 1e-3 .. 2 rad/s, both directions; torque
  // noise 0.02 N m (1 % of Fc), 20 seeds
  double worst_fc = 0, worst_fs = 0, worst_fv = 0, worst_vs = 0;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 gen(seed);
    std::normal_distribution<double> noise(0.0, 0.02);
    std::vector<double> v, tau;
    for (int k = 0; k < 60; ++k) {
      const double speed = 1e-3 * std::pow(2000.0, (k / 2) / 29.0);
      const double vk = k % 2 ? speed : -speed;
      v.push_back(vk);
      tau.push_back(stribeck_static_map(truth, vk) + noise(gen));
    }
    const StribeckFit fit = identify_stribeck(v, tau);
    const auto& e = fit.parameters;
    worst_fc = std::max(worst_fc, std::abs(e.coulomb / truth.coulomb - 1));
    worst_fs = std::max(worst_fs, std::abs(e.static_friction / truth.static_friction - 1));
    worst_fv = std::max(worst_fv, std::abs(e.viscous / truth.viscous - 1));
    worst_vs = std::max(worst_vs, std::abs(e.stribeck_velocity / truth.stribeck_velocity - 1));
    CHECK(fit.rms_residual < 0.03);
  }
  std::printf("identify_stribeck, 20 seeds, noise 1 %% of Fc: worst relative error Fc %.2e, Fs "
              "%.2e, Fv %.2e, vs %.2e\n", worst_fc, worst_fs, worst_fv, worst_vs);
  CHECK(worst_fc < 0.01);
  CHECK(worst_fs < 0.02);
  CHECK(worst_fv < 0.02);
  CHECK(worst_vs < 0.05);

  // pre-sliding: x(t) = A sin(w t), A = 1 % of Fc / sigma0, friction with 0.2 % noise
  const auto p = lugre_example();
  const double amplitude = 0.01 * p.curve.coulomb / p.sigma0, w = 20.0;
  std::vector<double> xs, vs, fs;
  std::mt19937 gen(7);
  std::normal_distribution<double> noise(0.0, 2e-3 * 0.01 * p.curve.coulomb);
  lugre_state_under(
      p, [&](double t) { return amplitude * w * std::cos(w * t); }, 0.0, 2 * test::kPi / w * 3,
      1e-3, [&](double t, double vel, double z) {
        xs.push_back(amplitude * std::sin(w * t));
        vs.push_back(vel);
        fs.push_back(lugre_friction(p, vel, z) + noise(gen));
      });
  const LuGrePreslidingFit fit = identify_lugre_presliding(xs, vs, fs);
  const double e0 = std::abs(fit.sigma0 / p.sigma0 - 1);
  const double e1 = std::abs((fit.damping - p.sigma2) / p.sigma1 - 1);
  std::printf("identify_lugre_presliding: relative error sigma0 %.2e, sigma1 %.2e\n", e0, e1);
  CHECK(e0 < 0.02);
  CHECK(e1 < 0.05);
}
