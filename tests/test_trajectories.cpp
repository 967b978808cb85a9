// Trajectories: the seeds' cycloid, quintic polynomials, synchronized trapezoidal velocity
// profiles. Checked against the seeds' MATLAB formulas, a direct solve of the quintic's
// boundary conditions, central finite differences and the velocity/acceleration limits.
#include "support/test_support.hpp"

#include <chaindyn/simulation/trajectories.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace chaindyn;

namespace {

constexpr std::uint32_t kTrajectorySeed = 20261122u;  // tests/support/test_support.hpp's kSeed
using chaindyn::test::kPi;

using Vec3 = Eigen::Vector3d;

double max_abs(double x) { return std::abs(x); }
double max_abs(const Vec3& x) { return x.cwiseAbs().maxCoeff(); }

/// max over interior times t of |qd - (q(t+h) - q(t-h)) / 2h| and the same for qdd from qd,
/// relative to the largest qd (qdd). Times closer than 2h to a breakpoint are skipped.
template <typename Trajectory>
std::pair<double, double> finite_difference_errors(const Trajectory& traj,
                                                   const std::vector<double>& breakpoints) {
  const double T = traj.duration(), h = 1e-6 * T;
  double err_v = 0, err_a = 0, scale_v = 0, scale_a = 0;
  for (int i = 1; i < 400; ++i) {
    const double t = T * i / 400.0;
    bool near_break = false;
    for (double b : breakpoints) near_break = near_break || std::abs(t - b) < 2 * h;
    if (near_break) continue;
    const auto s = traj(t), plus = traj(t + h), minus = traj(t - h);
    err_v = std::max(err_v, max_abs((plus.q - minus.q) / (2 * h) - s.qd));
    err_a = std::max(err_a, max_abs((plus.qd - minus.qd) / (2 * h) - s.qdd));
    scale_v = std::max(scale_v, max_abs(s.qd));
    scale_a = std::max(scale_a, max_abs(s.qdd));
  }
  return {err_v / std::max(1.0, scale_v), err_a / std::max(1.0, scale_a)};
}

}  // namespace

TEST_CASE("the cycloidal trajectory equals the seeds' MATLAB formulas at the seeds' 51 times",
          "[trajectories]") {
  // Saha, "Inverse Dynamics of One-link Planar Arm Using MATLAB": T = 10; th0 = 0; thT = pi;
  // con = 2*pi/T; ti = (i-1)*T/50; th = th0 + (delth/T)*(ti - sin(ang)/con);
  // thd = delth*(1 - cos(ang))/T; thdd = delth*con*sin(ang)/T, ang = con*ti.
  const double T = 10, th0 = 0, thT = kPi, con = 2 * kPi / T, delth = thT - th0;
  const CycloidalTrajectory<double> traj(th0, thT, T);
  double worst = 0;
  for (int i = 1; i <= 51; ++i) {
    const double ti = (i - 1) * T / 50, ang = con * ti;
    const double th = th0 + (delth / T) * (ti - std::sin(ang) / con);
    const double thd = delth * (1 - std::cos(ang)) / T;
    const double thdd = delth * con * std::sin(ang) / T;
    const auto s = traj(ti);
    worst = std::max({worst, std::abs(s.q - th), std::abs(s.qd - thd), std::abs(s.qdd - thdd)});
  }
  INFO("worst difference to the seeds' formulas: " << worst);
  CHECK(worst < 1e-14);
  CHECK(traj.duration() == T);
}

TEST_CASE("trajectory velocities and accelerations equal central finite differences",
          "[trajectories]") {
  std::mt19937 gen(kTrajectorySeed);
  std::uniform_real_distribution<double> u(-2, 2), pos(0.2, 2);
  const Vec3 q0(u(gen), u(gen), u(gen)), qf(u(gen), u(gen), u(gen));
  const double T = 1.7;

  const CycloidalTrajectory<Vec3> cyc(q0, qf, T);
  const QuinticTrajectory<Vec3> rest(q0, qf, T);
  const QuinticTrajectory<Vec3> moving({q0, Vec3(u(gen), u(gen), u(gen)),
                                           Vec3(u(gen), u(gen), u(gen))},
                                          {qf, Vec3(u(gen), u(gen), u(gen)),
                                           Vec3(u(gen), u(gen), u(gen))},
                                          T);
  const TrapezoidalTrajectory<Vec3> trap(q0, qf, Vec3(pos(gen), pos(gen), pos(gen)),
                                            Vec3(pos(gen), pos(gen), pos(gen)));
  const double ta = trap.acceleration_time(), tt = trap.duration();
  const CycloidalTrajectory<double> cyc1(0.3, -1.1, T);
  const TrapezoidalTrajectory<double> tri(0.0, 0.1, 5.0, 1.0);  // triangular

  const auto check = [](const char* name, std::pair<double, double> e) {
    INFO(name << ": velocity error " << e.first << ", acceleration error " << e.second);
    CHECK(e.first < 1e-8);
    CHECK(e.second < 1e-7);
  };
  check("cycloidal", finite_difference_errors(cyc, {}));
  check("cycloidal scalar", finite_difference_errors(cyc1, {}));
  check("quintic rest to rest", finite_difference_errors(rest, {}));
  check("quintic with boundary velocities", finite_difference_errors(moving, {}));
  // qdd jumps at the phase boundaries; q and qd are continuous.
  check("trapezoidal", finite_difference_errors(trap, {ta, tt - ta}));
  check("triangular", finite_difference_errors(tri, {tri.acceleration_time()}));
}

TEST_CASE("trajectories hit their boundary conditions and hold the end points outside [0, T]",
          "[trajectories]") {
  const Vec3 q0(0.1, -0.4, 2.0), qf(-1.3, 0.6, 2.0);
  const Vec3 v0(0.5, -1, 0.25), v1(-0.3, 0.2, 1), a0(2, -1, 0.5), a1(-4, 0.3, 1);
  const double T = 2.5;
  const QuinticTrajectory<Vec3> quintic({q0, v0, a0}, {qf, v1, a1}, T);
  const CycloidalTrajectory<Vec3> cyc(q0, qf, T);
  const QuinticTrajectory<Vec3> rest(q0, qf, T);
  const TrapezoidalTrajectory<Vec3> trap(q0, qf, Vec3(1, 2, 1), Vec3(3, 1, 2));

  // At the ends exactly, and the polynomial itself just inside them.
  const double eps = 1e-9 * T;
  for (double t : {0.0, -1.0}) {
    CHECK(quintic(t).q == q0);
    CHECK(quintic(t).qd == v0);
    CHECK(quintic(t).qdd == a0);
  }
  for (double t : {T, T + 1}) {
    CHECK(quintic(t).q == qf);
    CHECK(quintic(t).qd == v1);
    CHECK(quintic(t).qdd == a1);
  }
  CHECK((quintic(eps).q - q0).norm() < 1e-8);
  CHECK((quintic(eps).qd - v0).norm() < 1e-7);
  CHECK((quintic(eps).qdd - a0).norm() < 1e-6);
  CHECK((quintic(T - eps).q - qf).norm() < 1e-8);
  CHECK((quintic(T - eps).qd - v1).norm() < 1e-7);
  CHECK((quintic(T - eps).qdd - a1).norm() < 1e-6);

  for (const auto& [name, at0, atT, inside0, insideT] :
       {std::make_tuple("cycloidal", cyc(-1), cyc(T + 1), cyc(eps), cyc(T - eps)),
        std::make_tuple("quintic rest", rest(-1), rest(T + 1), rest(eps), rest(T - eps)),
        std::make_tuple("trapezoidal", trap(-1), trap(trap.duration() + 1), trap(eps),
                        trap(trap.duration() - eps))}) {
    INFO(name);
    CHECK(at0.q == q0);
    CHECK(atT.q == qf);
    CHECK(at0.qd.isZero(0));
    CHECK(atT.qd.isZero(0));
    CHECK(at0.qdd.isZero(0));
    CHECK(atT.qdd.isZero(0));
    CHECK((inside0.q - q0).norm() < 1e-8);
    CHECK((insideT.q - qf).norm() < 1e-8);
    CHECK(inside0.qd.norm() < 1e-6);
    CHECK(insideT.qd.norm() < 1e-6);
  }
}

TEST_CASE("the quintic's coefficients solve the six boundary conditions", "[trajectories]") {
  // Independent path: q(t) = sum_k c_k t^k with [q, qd, qdd](0) and [q, qd, qdd](T) given is a
  // 6x6 linear system, solved by LU with partial pivoting (test::solve).
  const double T = 1.3, q0 = 0.2, v0 = -0.7, a0 = 1.5, q1 = 1.1, v1 = 0.4, a1 = -2.0;
  Eigen::Matrix<double, 6, 6> A = Eigen::Matrix<double, 6, 6>::Zero();
  for (int k = 0; k < 6; ++k) {
    A(3, k) = std::pow(T, k);
    if (k >= 1) A(4, k) = k * std::pow(T, k - 1);
    if (k >= 2) A(5, k) = k * (k - 1) * std::pow(T, k - 2);
  }
  A(0, 0) = 1;
  A(1, 1) = 1;
  A(2, 2) = 2;
  Eigen::Matrix<double, 6, 1> rhs;
  rhs << q0, v0, a0, q1, v1, a1;
  const Eigen::Matrix<double, 6, 1> c = test::solve(A, rhs);
  const QuinticTrajectory<double> traj({q0, v0, a0}, {q1, v1, a1}, T);
  double worst = 0;
  for (int i = 0; i <= 50; ++i) {
    const double t = T * i / 50.0 * 0.999999;
    double q = 0, qd = 0, qdd = 0;
    for (int k = 0; k < 6; ++k) {
      q += c[k] * std::pow(t, k);
      if (k >= 1) qd += k * c[k] * std::pow(t, k - 1);
      if (k >= 2) qdd += k * (k - 1) * c[k] * std::pow(t, k - 2);
    }
    const auto s = traj(t);
    worst = std::max({worst, std::abs(s.q - q), std::abs(s.qd - qd), std::abs(s.qdd - qdd)});
  }
  INFO("worst difference to the 6x6 solve: " << worst);
  CHECK(worst < 1e-12);
  // Rest to rest: the textbook q0 + h (10 s^3 - 15 s^4 + 6 s^5).
  const QuinticTrajectory<double> rest(q0, q1, T);
  for (double s : {0.1, 0.37, 0.5, 0.81}) {
    CHECK(rest(s * T).q ==
          Approx(q0 + (q1 - q0) * (10 * std::pow(s, 3) - 15 * std::pow(s, 4) + 6 * std::pow(s, 5)))
              .epsilon(1e-14));
  }
}

TEST_CASE("a vector quintic is the scalar quintic of each joint, bit for bit", "[trajectories]") {
  // The vector and the scalar Value share one entry-by-entry code path; general boundary
  // samples (non-zero velocities and accelerations), times inside and outside [0, T].
  using V3 = Eigen::Vector3d;
  const V3 q0(0.2, -1.0, 3.0), v0(-0.7, 0.0, 2.5), a0(1.5, -3.0, 0.25);
  const V3 q1(1.1, 0.5, -2.0), v1(0.4, -1.5, 0.0), a1(-2.0, 0.75, 4.0);
  const double T = 1.3;
  const QuinticTrajectory<V3> vector_traj({q0, v0, a0}, {q1, v1, a1}, T);
  for (int j = 0; j < 3; ++j) {
    INFO("joint " << j);
    const QuinticTrajectory<double> scalar_traj({q0[j], v0[j], a0[j]}, {q1[j], v1[j], a1[j]}, T);
    for (int i = -2; i <= 52; ++i) {
      const double t = T * i / 50.0;
      const auto sv = vector_traj(t);
      const auto ss = scalar_traj(t);
      CHECK(sv.q[j] == ss.q);
      CHECK(sv.qd[j] == ss.qd);
      CHECK(sv.qdd[j] == ss.qdd);
    }
  }
}

TEST_CASE("the trapezoidal profile respects v_max and a_max and is synchronized and time optimal",
          "[trajectories]") {
  std::mt19937 gen(kTrajectorySeed + 1);
  std::uniform_real_distribution<double> u(-3, 3), pos(0.2, 3);
  int trapezoids = 0, triangles = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const Vec3 q0(u(gen), u(gen), u(gen)), qf(u(gen), u(gen), u(gen));
    const Vec3 v_max(pos(gen), pos(gen), pos(gen)), a_max(pos(gen), pos(gen), pos(gen));
    const TrapezoidalTrajectory<Vec3> traj(q0, qf, v_max, a_max);
    const double T = traj.duration(), ta = traj.acceleration_time();
    (ta < T / 2 - 1e-12 ? trapezoids : triangles)++;
    const Vec3 h = qf - q0;
    double v_ratio = 0, a_ratio = 0, sync = 0;
    for (int i = 0; i <= 1000; ++i) {
      const auto s = traj(T * i / 1000.0);
      v_ratio = std::max(v_ratio, s.qd.cwiseAbs().cwiseQuotient(v_max).maxCoeff());
      a_ratio = std::max(a_ratio, s.qdd.cwiseAbs().cwiseQuotient(a_max).maxCoeff());
      // synchronized: every joint is at the same fraction of its way
      const Vec3 fraction = (s.q - q0).cwiseQuotient(h);
      sync = std::max(sync, fraction.maxCoeff() - fraction.minCoeff());
    }
    INFO("trial " << trial << ": max |qd|/v_max " << v_ratio << ", max |qdd|/a_max " << a_ratio);
    CHECK(v_ratio <= 1 + 1e-12);
    CHECK(a_ratio <= 1 + 1e-12);
    CHECK(sync < 1e-12);
    // Time optimal among synchronized profiles: a limit is reached. A trapezoid cruises at
    // some joint's v_max and accelerates at some joint's a_max; a triangle reaches a_max.
    CHECK(a_ratio == Approx(1).epsilon(1e-12));
    if (ta < T / 2 - 1e-12) CHECK(v_ratio == Approx(1).epsilon(1e-12));
  }
  CHECK(trapezoids > 5);
  CHECK(triangles > 5);
}

TEST_CASE("a one-joint trapezoidal profile has the textbook phase times", "[trajectories]") {
  // Trapezoid: |h| > v^2 / a: Ta = v / a, T = |h| / v + v / a.
  const TrapezoidalTrajectory<double> trap(1.0, -3.0, 2.0, 4.0);
  CHECK(trap.acceleration_time() == Approx(0.5).epsilon(1e-15));
  CHECK(trap.duration() == Approx(4.0 / 2.0 + 2.0 / 4.0).epsilon(1e-15));
  CHECK(trap(1.0).qd == Approx(-2.0).epsilon(1e-15));
  CHECK(trap(0.25).qdd == Approx(-4.0).epsilon(1e-15));
  // Triangle: |h| < v^2 / a: Ta = sqrt(|h| / a), peak velocity sqrt(|h| a) < v.
  const TrapezoidalTrajectory<float> tri(0.0f, 0.5f, 10.0f, 2.0f);
  CHECK(tri.acceleration_time() == Approx(0.5).epsilon(1e-6));
  CHECK(tri.duration() == Approx(1.0).epsilon(1e-6));
  CHECK(tri(0.5f).qd == Approx(1.0).epsilon(1e-6));
  CHECK(tri(0.5f).q == Approx(0.25).epsilon(1e-6));
  // No motion: duration 0, the point is held.
  const TrapezoidalTrajectory<double> still(0.7, 0.7, 1.0, 1.0);
  CHECK(still.duration() == 0);
  CHECK(still(0.3).q == 0.7);
  CHECK(still(0.3).qd == 0);
}

TEST_CASE("trajectories reject a non-positive or non-finite duration, non-finite points and "
          "non-positive limits", "[trajectories]") {
  using Catch::Matchers::Contains;
  const double nan = std::nan("");
  CHECK_THROWS_WITH(CycloidalTrajectory<double>(0, 1, 0), Contains("duration"));
  CHECK_THROWS_WITH(CycloidalTrajectory<double>(0, 1, -1), Contains("duration"));
  CHECK_THROWS_WITH(CycloidalTrajectory<double>(0, nan, 1), Contains("qf"));
  CHECK_THROWS_WITH(QuinticTrajectory<double>(0, 1, nan), Contains("duration"));
  CHECK_THROWS_WITH(QuinticTrajectory<double>({0, nan, 0}, {1, 0, 0}, 1),
                    Contains("start velocity"));
  CHECK_THROWS_AS(QuinticTrajectory<Eigen::VectorXd>(Eigen::VectorXd::Zero(2),
                                                     Eigen::VectorXd::Zero(3), 1.0),
                  ArgumentError);
  CHECK_THROWS_WITH(TrapezoidalTrajectory<double>(0, 1, 0, 1), Contains("v_max"));
  CHECK_THROWS_WITH(TrapezoidalTrajectory<Vec3>(Vec3::Zero(), Vec3::Ones(),
                                                   Vec3(1, -1, 1), Vec3::Ones()),
                    Contains("v_max"));
  CHECK_THROWS_WITH(TrapezoidalTrajectory<double>(0, 1, 1, std::numeric_limits<double>::infinity()), Contains("a_max"));
}
