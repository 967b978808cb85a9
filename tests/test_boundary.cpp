// The runtime-sized entry points refuse bad input with a named error where it enters: option
// counts that become sizes, the size of what a user's callable returns, samples and priors of
// another joint count, excitation options, non-finite joint vectors of the returning forms,
// axes whose squared norm overflows, rounding noise in an inertia; an outlier torque neither
// moves the online payload estimate nor passes least squares; a NaN in one state of a pack does
// not change its neighbours' sine and cosine.
#include "support/test_support.hpp"

#include <chaindyn/batch.hpp>
#include <chaindyn/identification.hpp>
#include <chaindyn/simulation.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <vector>

using namespace chaindyn;
using Catch::Matchers::Contains;

namespace {

using BoundaryArm = ChainX<double>;

BoundaryArm boundary_iiwa() { return BoundaryArm::from(robots::kuka_iiwa()); }

/// A link of mass 0.5 kg whose inertia is `inertia`, on a revolute joint about z.
Link<double> boundary_link(const Eigen::Matrix3d& inertia) {
  Link<double> l;
  l.placement = Transform<double>(Eigen::Matrix3d::Identity(), Eigen::Vector3d(0, 0, 0.1));
  l.axis = Eigen::Vector3d::UnitZ();
  l.mass = 0.5;
  l.com = Eigen::Vector3d(0.05, 0, 0);
  l.inertia = inertia;
  return l;
}

}  // namespace

TEST_CASE("fixed-step integration refuses an output interval of more steps than max_steps",
          "[boundary][simulation]") {
  // output_interval / dt = 1e20 > 2^64: the count was cast to std::size_t (UB) before
  using V = Eigen::Matrix<double, 1, 1>;
  IntegrationOptions<double> o;
  o.integrator = Integrator::rk4;
  o.dt = 1e-20;
  o.output_interval = 1.0;
  const auto f = [](double, const V& q, const V&) { return V(-q); };
  CHECK_THROWS_AS(integrate(f, V(1.0), V(0.0), 1.0, o, [](const auto&) {}), ArgumentError);
  CHECK_THROWS_WITH(integrate(f, V(1.0), V(0.0), 1.0, o, [](const auto&) {}),
                    Contains("output_interval / dt") && Contains("max_steps"));
  const BoundaryArm arm = boundary_iiwa();
  const Eigen::VectorXd z = Eigen::VectorXd::Zero(7);
  CHECK_THROWS_AS(simulate(arm, z, z, ZeroTorque{}, 1.0, o), ArgumentError);
}

TEST_CASE("integrate refuses an acceleration of another size than the state",
          "[boundary][simulation]") {
  using V = Eigen::VectorXd;
  IntegrationOptions<double> o;
  const V q0 = V::Zero(3), qd0 = V::Zero(3);
  const auto short_f = [](double, const V&, const V&) { return V(V::Zero(2)); };
  const auto long_f = [](double, const V&, const V&) { return V(V::Zero(9)); };
  for (const Integrator method :
       {Integrator::rk45, Integrator::rk4, Integrator::semi_implicit_euler}) {
    o.integrator = method;
    CHECK_THROWS_WITH(integrate(short_f, q0, qd0, 0.1, o, [](const auto&) {}),
                      Contains("integrate: acceleration(t, q, qd) returned 2 entries; the state "
                               "has 3"));
    CHECK_THROWS_AS(integrate(long_f, q0, qd0, 0.1, o, [](const auto&) {}), ArgumentError);
  }
  V q = q0, qd = qd0;
  CHECK_THROWS_AS(rk4_step(short_f, 0.0, 0.01, q, qd), ArgumentError);
  CHECK_THROWS_AS(semi_implicit_euler_step(long_f, 0.0, 0.01, q, qd), ArgumentError);
}

TEST_CASE("RobotIdentification on a ChainX refuses samples and priors of another joint count",
          "[boundary][identification]") {
  const BoundaryArm arm = boundary_iiwa();
  RobotIdentification<BoundaryArm> id(arm, base_parameters(arm, true, 60));
  const Eigen::VectorXd z7 = Eigen::VectorXd::Zero(7), z6 = Eigen::VectorXd::Zero(6),
                        z9 = Eigen::VectorXd::Zero(9);
  CHECK_THROWS_WITH(id.add_sample(z7, z6, z7, z7),
                    Contains("RobotIdentification::add_sample: qd has 6 entries; the model has "
                             "7 joints"));
  CHECK_THROWS_AS(id.add_sample(z7, z7, z7, z9), ArgumentError);
  CHECK_THROWS_AS(id.add_sample(z9, z9, z9, z9), ArgumentError);
  CHECK_THROWS_AS(id.base_regressor(z7, z7, z6), ArgumentError);
  CHECK(id.samples() == 0);
  // a prior of 2 joints (the heap overflow before: it was read as 7)
  const BoundaryArm two = BoundaryArm::from(robots::two_link_arm());
  CHECK_THROWS_WITH(id.physically_consistent(two),
                    Contains("the prior has 2 joints; the identified model has 7"));
}

TEST_CASE("least squares says when one outlier sample makes its residual not credible",
          "[boundary][identification]") {
  const BoundaryArm arm = boundary_iiwa();
  RobotIdentification<BoundaryArm> id(arm, base_parameters(arm, true, 60));
  std::mt19937 gen(test::kSeed + 35);
  for (int k = 0; k < 60; ++k) {
    const Eigen::VectorXd q = test::random_state<Eigen::VectorXd>(gen, 2.0, 7),
                          qd = test::random_state<Eigen::VectorXd>(gen, 2.0, 7),
                          qdd = test::random_state<Eigen::VectorXd>(gen, 2.0, 7);
    id.add_sample(q, qd, qdd, rnea(arm, q, qd, qdd));
  }
  REQUIRE(id.least_squares().ok);
  Eigen::VectorXd tau = rnea(arm, Eigen::VectorXd::Zero(7), Eigen::VectorXd::Zero(7),
                             Eigen::VectorXd::Zero(7));
  tau[2] = 1e6;  // one wild torque among 420 good equations
  id.add_sample(Eigen::VectorXd::Zero(7), Eigen::VectorXd::Zero(7), Eigen::VectorXd::Zero(7), tau);
  const BaseEstimate e = id.least_squares();
  CHECK_FALSE(e.ok);
  CHECK_THAT(e.message, Contains("not credible"));
  tau[2] = 1e300;  // its square overflows
  id.add_sample(Eigen::VectorXd::Zero(7), Eigen::VectorXd::Zero(7), Eigen::VectorXd::Zero(7), tau);
  CHECK_FALSE(id.least_squares().ok);
  CHECK_THAT(id.least_squares().message, Contains("not finite"));
}

TEST_CASE("fit_to_limits refuses options and limits it cannot use", "[boundary][identification]") {
  FourierTrajectory<2> t;
  t.base_frequency = 1.0;
  t.a = Eigen::Matrix<double, 2, Eigen::Dynamic>::Constant(2, 3, 0.5);
  t.b = Eigen::Matrix<double, 2, Eigen::Dynamic>::Constant(2, 3, -0.2);
  ExcitationLimits<2> limits;
  limits.lower = Eigen::Vector2d(-1, -1);
  limits.upper = Eigen::Vector2d(1, 1);
  limits.velocity = Eigen::Vector2d(2, 2);
  limits.acceleration = Eigen::Vector2d(5, 5);
  CHECK_NOTHROW(fit_to_limits(t, limits));
  CHECK_THROWS_WITH(fit_to_limits(t, limits, 0.95, 0), Contains("check_samples must be >= 1"));
  CHECK_THROWS_AS(fit_to_limits(t, limits, 0.0), ArgumentError);
  CHECK_THROWS_AS(fit_to_limits(t, limits, std::nan("")), ArgumentError);
  ExcitationLimits<2> nan_limits = limits;
  nan_limits.upper[1] = std::nan("");
  CHECK_THROWS_WITH(fit_to_limits(t, nan_limits), Contains("fit_to_limits: joint 1's limits"));
  nan_limits = limits;
  nan_limits.velocity[0] = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(fit_to_limits(t, nan_limits), ArgumentError);
  FourierTrajectory<2> still = t;
  still.base_frequency = 0.0;
  CHECK_THROWS_WITH(fit_to_limits(still, limits), Contains("base_frequency"));
  FourierTrajectory<2> ragged = t;
  ragged.b = Eigen::Matrix<double, 2, Eigen::Dynamic>::Zero(2, 2);
  CHECK_THROWS_AS(fit_to_limits(ragged, limits), ArgumentError);
}

TEST_CASE("the returning forms refuse a joint vector that is not finite (ArgumentError)",
          "[boundary][arguments]") {
  const auto arm = robots::kuka_iiwa();
  using V = decltype(arm)::Vector;
  const V z = V::Zero();
  V bad = z;
  bad[4] = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(rnea(arm, bad, z, z), Contains("rnea: q[4] is not finite"));
  CHECK_THROWS_AS(aba(arm, z, bad, z), ArgumentError);
  CHECK_THROWS_AS(crba(arm, bad), ArgumentError);
  CHECK_THROWS_AS(joint_vector(arm, bad), ArgumentError);
  const BoundaryArm x = boundary_iiwa();
  Eigen::VectorXd xq = Eigen::VectorXd::Zero(7);
  xq[0] = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(rnea(x, xq, Eigen::VectorXd::Zero(7), Eigen::VectorXd::Zero(7)), ArgumentError);
  // the in-place forms stay noexcept and propagate it
  static_assert(noexcept(rnea(arm, std::declval<Data<std::remove_const_t<decltype(arm)>>&>(),
                              z, z, z)));
  Data<std::remove_const_t<decltype(arm)>> data(arm);
  rnea(arm, data, bad, z, z);
  CHECK(std::isnan(data.tau[0]));
}

TEST_CASE("an axis whose squared norm overflows is normalised, not taken as zero",
          "[boundary][validation]") {
  std::vector<Link<double>> links(2, boundary_link(Eigen::Vector3d(1e-3, 2e-3, 2e-3).asDiagonal()));
  links[1].axis = Eigen::Vector3d(1e300, 1e300, 0);
  const BoundaryArm arm(links, {JointKind::revolute, JointKind::revolute},
                        Eigen::Vector3d(0, 0, -9.81));
  const double h = std::sqrt(0.5);
  CHECK(arm.links()[1].axis.has_value());
  CHECK((arm.joint(1).axis() - Eigen::Vector3d(h, h, 0)).norm() < 1e-15);
  links[1].axis = Eigen::Vector3d(1e-300, 0, 0);
  CHECK_THROWS_WITH(BoundaryArm(links, {JointKind::revolute, JointKind::revolute},
                                Eigen::Vector3d(0, 0, -9.81)),
                    Contains("joint axis") && Contains("is zero"));
}

TEST_CASE("an inertia's rounding noise passes the physical check; a real violation does not",
          "[boundary][validation]") {
  // ixx = -5.4e-20 on a 0.5 kg link, the rest zero: a point mass written by a CAD export
  Eigen::Matrix3d noise = Eigen::Matrix3d::Zero();
  noise(0, 0) = -5.4e-20;
  CHECK_NOTHROW(BoundaryArm({boundary_link(noise)}, {JointKind::revolute},
                            Eigen::Vector3d(0, 0, -9.81)));
  Eigen::Matrix3d off = Eigen::Matrix3d::Zero();
  off(0, 2) = off(2, 0) = 2.4e-35;
  CHECK_NOTHROW(BoundaryArm({boundary_link(off)}, {JointKind::revolute},
                            Eigen::Vector3d(0, 0, -9.81)));
  // relative to the tensor's scale: -5.4e-20 beside moments of 1e-3 passes too, -1e-6 does not
  Eigen::Matrix3d small = Eigen::Vector3d(-5.4e-20, 1e-3, 1e-3).asDiagonal();
  CHECK_NOTHROW(BoundaryArm({boundary_link(small)}, {JointKind::revolute},
                            Eigen::Vector3d(0, 0, -9.81)));
  Eigen::Matrix3d negative = Eigen::Vector3d(-1e-6, 1e-3, 1e-3).asDiagonal();
  CHECK_THROWS_WITH(BoundaryArm({boundary_link(negative)}, {JointKind::revolute},
                                Eigen::Vector3d(0, 0, -9.81)),
                    Contains("not positive semi-definite"));
  Eigen::Matrix3d tiny_negative = Eigen::Matrix3d::Zero();
  tiny_negative(0, 0) = -1e-15;  // above the floor's tolerance (1e-18 kg m^2)
  CHECK_THROWS_AS(BoundaryArm({boundary_link(tiny_negative)}, {JointKind::revolute},
                              Eigen::Vector3d(0, 0, -9.81)),
                  ModelError);
}

TEST_CASE("the online payload estimator's innovation gate rejects an outlier torque",
          "[boundary][identification][online]") {
  const BoundaryArm arm = boundary_iiwa();
  OnlinePayloadEstimator<BoundaryArm> est(arm);
  REQUIRE(std::isfinite(est.gate()));
  std::mt19937 gen(test::kSeed + 36);
  BoundaryArm loaded = arm;
  Payload<double> object;
  object.mass = 0.851;
  object.com = Eigen::Vector3d(0.01, -0.02, 0.05);
  object.inertia = Eigen::Vector3d(2e-3, 3e-3, 1e-3).asDiagonal();
  loaded.set_payload(6, object);
  const auto sample = [&] {
    std::array<Eigen::VectorXd, 4> s;
    for (int k = 0; k < 3; ++k) s[std::size_t(k)] = test::random_state<Eigen::VectorXd>(gen, 2.0, 7);
    s[3] = rnea(loaded, s[0], s[1], s[2]);
    return s;
  };
  for (int k = 0; k < 40; ++k) {
    const auto s = sample();
    CHECK(est.update(s[0], s[1], s[2], s[3]).accepted);
  }
  const double mass = est.parameters()[0];
  REQUIRE(std::abs(mass - 0.851) < 0.01);
  auto s = sample();
  s[3][3] = 1e300;  // finite, wild
  const auto u = est.update(s[0], s[1], s[2], s[3]);
  CHECK_FALSE(u.accepted);
  CHECK(u.outlier);
  CHECK_FALSE(u.change_detected);
  CHECK(est.rejected() == 1);
  CHECK(est.parameters()[0] == mass);
  CHECK(est.ticks() == 40);
  // a lasting change (the object released) still fires, within a few ticks
  int fired = -1;
  for (int k = 0; k < 10 && fired < 0; ++k) {
    auto r = sample();
    r[3] = rnea(arm, r[0], r[1], r[2]);
    if (est.update(r[0], r[1], r[2], r[3]).change_detected) fired = k;
  }
  CHECK(fired >= 0);
  CHECK(fired <= 3);
  OnlinePayloadOptions<BoundaryArm> bad;
  bad.innovation_gate = -1.0;
  CHECK_THROWS_AS(OnlinePayloadEstimator<BoundaryArm>(arm, 6, bad), ArgumentError);
}

#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
TEST_CASE("pack sincos: a NaN or huge angle in one state leaves its neighbours' numbers the "
          "one-state ones", "[boundary][batch]") {
  using P = batch::Pack<4>;
  constexpr int n = 7;
  std::mt19937 gen(test::kSeed + 37);
  for (const double odd : {std::numeric_limits<double>::quiet_NaN(), 3e5,
                           std::numeric_limits<double>::infinity()}) {
    std::array<P, n> x, s, c;
    for (int i = 0; i < n; ++i) {
      for (int l = 0; l < 4; ++l) x[std::size_t(i)].set(l, test::uniform(gen, -50, 50));
    }
    x[2].set(1, odd);  // state 1's third joint
    chaindyn::detail::sincos(x.data(), s.data(), c.data(), n);
    for (int l = 0; l < 4; ++l) {
      std::array<double, n> xl, sl, cl;
      for (int i = 0; i < n; ++i) xl[std::size_t(i)] = x[std::size_t(i)][l];
      chaindyn::detail::sincos(xl.data(), sl.data(), cl.data(), n);  // the one-state path
      for (int i = 0; i < n; ++i) {
        const double bs = s[std::size_t(i)][l], bc = c[std::size_t(i)][l];
        const bool same = (bs == sl[std::size_t(i)] || (std::isnan(bs) && std::isnan(sl[std::size_t(i)]))) &&
                          (bc == cl[std::size_t(i)] || (std::isnan(bc) && std::isnan(cl[std::size_t(i)])));
        INFO("lane " << l << ", joint " << i << ", odd angle " << odd);
        CHECK(same);
      }
    }
  }
}
#endif

namespace {

/// Runs `call`, which must throw E with a message naming `function`; INFO names the case.
template <typename E, typename Call>
void boundary_expect(const char* function, Call&& call) {
  CHECK_THROWS_AS(call(), E);
  CHECK_THROWS_WITH(call(), Contains(function));
}

/// A vector of `n` entries with one bad number (NaN, +-inf) at a random index, or finite noise.
Eigen::VectorXd boundary_vector(std::mt19937& gen, Eigen::Index n, bool bad) {
  Eigen::VectorXd v = Eigen::VectorXd::Zero(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = test::uniform(gen, -2, 2);
  if (bad && n > 0) {
    const double odd[] = {std::numeric_limits<double>::quiet_NaN(),
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity()};
    v[std::uniform_int_distribution<Eigen::Index>(0, n - 1)(gen)] = odd[gen() % 3];
  }
  return v;
}

/// A joint count other than 7, from 0 to 12.
Eigen::Index boundary_other_size(std::mt19937& gen) {
  const Eigen::Index n = std::uniform_int_distribution<Eigen::Index>(0, 11)(gen);
  return n >= 7 ? n + 1 : n;
}

}  // namespace

TEST_CASE("property: random bad input to every runtime-sized entry gives a named chaindyn error",
          "[boundary][property]") {
  // Seeded: a failure prints the draw (INFO) and reruns identically.
  std::mt19937 gen(test::kSeed + 38);
  const BoundaryArm arm = boundary_iiwa();
  const BoundaryArm two = BoundaryArm::from(robots::two_link_arm());
  Data<BoundaryArm> data(arm), other_data(two);
  RobotIdentification<BoundaryArm> id(arm, base_parameters(arm, true, 30));
  PayloadIdentification<BoundaryArm> payload(arm);
  OnlinePayloadEstimator<BoundaryArm> online(arm);
  const double nan = std::numeric_limits<double>::quiet_NaN(),
               inf = std::numeric_limits<double>::infinity();
  const auto good = [&] { return boundary_vector(gen, 7, false); };
  constexpr int kCases = 15;
  for (int draw = 0; draw < 240; ++draw) {
    const int c = int(gen() % kCases);
    INFO("draw " << draw << ", case " << c);
    const Eigen::Index m = boundary_other_size(gen);
    const Eigen::VectorXd q = good(), wrong = boundary_vector(gen, m, false),
                          bad = boundary_vector(gen, 7, true);
    switch (c) {
      case 0:  // in place, a Data made for another ChainX
        boundary_expect<ArgumentError>("rnea", [&] { rnea(arm, other_data, q, q, q); });
        boundary_expect<ArgumentError>("aba", [&] { aba(arm, other_data, q, q, q); });
        break;
      case 1:  // in place, a vector of another size
        boundary_expect<ArgumentError>("rnea", [&] { rnea(arm, data, q, wrong, q); });
        boundary_expect<ArgumentError>("aba", [&] { aba(arm, data, wrong, q, q); });
        boundary_expect<ArgumentError>("crba", [&] { crba(arm, data, wrong); });
        break;
      case 2:  // returning, another size or a non-finite entry
        boundary_expect<ArgumentError>("rnea", [&] { (void)rnea(arm, q, q, wrong); });
        boundary_expect<ArgumentError>("aba", [&] { (void)aba(arm, q, bad, q); });
        boundary_expect<ArgumentError>("crba", [&] { (void)crba(arm, bad); });
        break;
      case 3: {  // huge but finite: a result (maybe not finite) or a named error, no crash
        Eigen::VectorXd huge = q;
        huge[Eigen::Index(gen() % 7)] = (gen() % 2 ? 1e300 : -1e300);
        try {
          (void)rnea(arm, huge, huge, q);
          (void)aba(arm, q, huge, huge);
          rnea(arm, data, huge, q, huge);
        } catch (const ArgumentError&) {
        }
        break;
      }
      case 4:  // a frame handle of another ChainX
        boundary_expect<ArgumentError>("frame_pose",
                                       [&] { (void)frame_pose(arm, q, two.frame(1)); });
        boundary_expect<ArgumentError>("jacobian", [&] { (void)jacobian(arm, q, two.frame(0)); });
        break;
      case 5: {  // a link index out of range
        const std::size_t k = 7 + gen() % 1000;
        CHECK_THROWS_AS(arm.frame(k), IndexError);
        CHECK_THROWS_AS((void)jacobian(arm, q, k), IndexError);
        CHECK_THROWS_AS(arm.frame(std::size_t(-1)), IndexError);
        break;
      }
      case 6: {  // batch: columns that differ, rows of another joint count
        const Eigen::Index n = 1 + Eigen::Index(gen() % 9);
        const Eigen::MatrixXd Q = Eigen::MatrixXd::Zero(7, n),
                              short_cols = Eigen::MatrixXd::Zero(7, n + 1),
                              rows = Eigen::MatrixXd::Zero(m, n);
        boundary_expect<ArgumentError>("rnea", [&] { (void)batch::rnea(arm, Q, short_cols, Q); });
        boundary_expect<ArgumentError>("aba", [&] { (void)batch::aba(arm, rows, Q, Q); });
        break;
      }
      case 7: {  // batch: threads out of range
        batch::Options o;
        o.threads = gen() % 2 ? -1 - int(gen() % 1000) : batch::kMaxThreads + 1 + int(gen() % 100000);
        const Eigen::MatrixXd Q = Eigen::MatrixXd::Zero(7, 3);
        boundary_expect<ArgumentError>("threads", [&] { (void)batch::rnea(arm, Q, Q, Q, o); });
        break;
      }
      case 8: {  // integration options: NaN, zero, negative, huge
        IntegrationOptions<double> o;
        o.integrator = gen() % 2 ? Integrator::rk4 : Integrator::semi_implicit_euler;
        const double dts[] = {nan, 0.0, -1e-3, inf, -inf};
        const double intervals[] = {nan, -1.0, inf};
        switch (gen() % 4) {
          case 0: o.dt = dts[gen() % 5]; break;
          case 1: o.output_interval = intervals[gen() % 3]; break;
          case 2: o.max_steps = 0; break;
          default: o.dt = 1e-20; o.output_interval = 1.0 + double(gen() % 100); break;
        }
        const Eigen::VectorXd z = Eigen::VectorXd::Zero(7);
        boundary_expect<ArgumentError>("integrate",
                                       [&] { (void)simulate(arm, z, z, ZeroTorque{}, 0.01, o); });
        break;
      }
      case 9:  // a whole-robot identification sample of another size
        boundary_expect<ArgumentError>("RobotIdentification::add_sample",
                                       [&] { id.add_sample(q, q, wrong, q); });
        boundary_expect<ArgumentError>("RobotIdentification::add_sample",
                                       [&] { id.add_sample(q, bad, q, q); });
        break;
      case 10:  // a payload identification sample of another size
        boundary_expect<ArgumentError>("PayloadIdentification::add_sample",
                                       [&] { payload.add_sample(q, q, q, wrong); });
        break;
      case 11:  // a physically consistent prior of another joint count
        boundary_expect<ArgumentError>("prior", [&] { (void)id.physically_consistent(two); });
        break;
      case 12:  // the online estimator: another size throws, a non-finite sample is refused
        boundary_expect<ArgumentError>("OnlinePayloadEstimator::update",
                                       [&] { (void)online.update(wrong, q, q, q); });
        CHECK_FALSE(online.update(q, q, bad, q).accepted);
        break;
      case 13: {  // trajectories: a non-finite or non-positive duration, values of two sizes
        const double durations[] = {nan, 0.0, -1.0, inf};
        const double d = durations[gen() % 4];
        boundary_expect<ArgumentError>("duration",
                                       [&] { (void)QuinticTrajectory<Eigen::VectorXd>(q, q, d); });
        boundary_expect<ArgumentError>("differ in size",
                                       [&] { (void)QuinticTrajectory<Eigen::VectorXd>(q, wrong, 1.0); });
        boundary_expect<ArgumentError>("not finite",
                                       [&] { (void)QuinticTrajectory<Eigen::VectorXd>(bad, q, 1.0); });
        break;
      }
      default:  // simulate's state: qd0 of another size, q0 not finite
        boundary_expect<ArgumentError>("simulate", [&] {
          (void)simulate(arm, q, wrong, ZeroTorque{}, 0.01, IntegrationOptions<double>{});
        });
        boundary_expect<ArgumentError>("q0", [&] {
          (void)simulate(arm, bad, q, ZeroTorque{}, 0.01, IntegrationOptions<double>{});
        });
        break;
    }
  }
  CHECK(id.samples() == 0);
  CHECK(payload.samples() == 0);
  CHECK(online.ticks() == 0);
}
