// The algorithms are generic in the scalar: float agrees with double to float precision, and
// Eigen's AutoDiffScalar differentiates them (d tau / d qdd = M, d tau / d q by differences).
#include "support/chains.hpp"
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

#include <unsupported/Eigen/AutoDiff>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

/// Every joint kind, Placed joints among them (three rotation patterns).
template <typename S>
using MixedArm =
    Chain<S, Placed<RevoluteZ, SignedAxes<1, 2, 3>, Offset<false, false, true>>, RevoluteY,
          Placed<Revolute, AboutAxis<0>, AnyOffset>, PrismaticX,
          Placed<RevoluteZ, SignedAxes<-1, 3, 2>, Offset<false, true, false>>, Prismatic,
          Placed<RevoluteX, AnyRotation, Offset<true, false, false>>>;

/// The same model type in scalar S.
template <typename Model, typename S>
struct WithScalar;
template <typename S0, typename S>
struct WithScalar<MixedArm<S0>, S> {
  using type = MixedArm<S>;
};
template <typename S0, typename S>
struct WithScalar<ChainX<S0>, S> {
  using type = ChainX<S>;
};

}  // namespace

// MixedArm: a fold over Placed and plain joints; ChainX (test::random_model's nine joints, both
// kinds, about z and about random axes): the run-time joints and the loops.
TEMPLATE_TEST_CASE("float algorithms agree with double to float precision", "[scalar]",
                   (MixedArm<double>), (ChainX<double>)) {
  using DModel = TestType;
  using FModel = typename WithScalar<DModel, float>::type;
  using DV = typename DModel::Vector;
  using FV = typename FModel::Vector;
  constexpr int n = test::joints_of<DModel>;
  std::mt19937 gen(test::kSeed + 11);
  double worst = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const DModel dm = test::random_model<DModel>(gen, true);
    const FModel fm = dm.template cast<float>();
    const DV q = test::random_state<DV>(gen, 3.0, n), qd = test::random_state<DV>(gen, 2.0, n),
             qdd = test::random_state<DV>(gen, 2.0, n);
    const FV fq = q.template cast<float>(), fqd = qd.template cast<float>(),
             fqdd = qdd.template cast<float>();
    const DV tau = rnea(dm, q, qd, qdd);
    const double errors[] = {
        relative_error(rnea(fm, fq, fqd, fqdd), tau),
        relative_error(crba(fm, fq), crba(dm, q)),
        relative_error(aba(fm, fq, fqd, FV(tau.template cast<float>())), qdd),
        relative_error(forward_dynamics_crba(fm, fq, fqd, FV(tau.template cast<float>())), qdd),
        relative_error(kinetic_energy(fm, fq, fqd), kinetic_energy(dm, q, qd)),
        relative_error(potential_energy(fm, fq), potential_energy(dm, q)),
    };
    for (const double e : errors) {
      worst = std::max(worst, e);
      // 7 or 9 joints of float arithmetic; the forward dynamics also carry cond(M)
      REQUIRE(e < 2e-4);
    }
  }
  WARN("worst float-vs-double relative error: " << worst);
}

TEMPLATE_TEST_CASE("automatic differentiation: d rnea / d qdd equals crba, d rnea / d q matches "
                   "differences",
                   "[scalar][autodiff]", (MixedArm<double>), (ChainX<double>)) {
  using DModel = TestType;
  constexpr int n = test::joints_of<DModel>;
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, n, 1>>;
  using ADModel = typename WithScalar<DModel, AD>::type;
  using DV = typename DModel::Vector;
  using ADV = typename ADModel::Vector;
  std::mt19937 gen(test::kSeed + 12);
  for (int trial = 0; trial < 10; ++trial) {
    const DModel dm = test::random_model<DModel>(gen, false);
    const ADModel am = dm.template cast<AD>();
    const DV q = test::random_state<DV>(gen, 3.0, n), qd = test::random_state<DV>(gen, 2.0, n),
             qdd = test::random_state<DV>(gen, 2.0, n);

    // seed qdd: the Jacobian of tau w.r.t. qdd is M
    ADV aq(n), aqd(n), aqdd(n);
    for (int i = 0; i < n; ++i) {
      aq[i] = AD(q[i]);
      aqd[i] = AD(qd[i]);
      aqdd[i] = AD(qdd[i], n, i);
      aq[i].derivatives().setZero();
      aqd[i].derivatives().setZero();
    }
    const ADV tau = rnea(am, aq, aqd, aqdd);
    Eigen::Matrix<double, n, n> jac;
    DV value(n);
    for (int i = 0; i < n; ++i) {
      value[i] = tau[i].value();
      jac.row(i) = tau[i].derivatives().transpose();
    }
    REQUIRE(relative_error(value, rnea(dm, q, qd, qdd)) < 1e-14);
    REQUIRE(relative_error(jac, crba(dm, q)) < 1e-12);

    // seed q: compare d tau / d q with central differences
    for (int i = 0; i < n; ++i) {
      aq[i] = AD(q[i], n, i);
      aqdd[i] = AD(qdd[i]);
      aqdd[i].derivatives().setZero();
    }
    const ADV tau_q = rnea(am, aq, aqd, aqdd);
    const double h = 1e-6;
    for (int j = 0; j < n; ++j) {
      const DV e = h * DV::Unit(n, j);
      const DV fd = (rnea(dm, DV(q + e), qd, qdd) - rnea(dm, DV(q - e), qd, qdd)) / (2 * h);
      for (int i = 0; i < n; ++i) {
        REQUIRE(std::abs(tau_q[i].derivatives()[j] - fd[i]) < 1e-6 * std::max(1.0, std::abs(fd[i])));
      }
    }
    // the other algorithms compile and agree in value for the AD scalar too
    const DV tau_d = rnea(dm, q, qd, qdd);
    ADV atau(n);
    for (int i = 0; i < n; ++i) atau[i] = AD(tau_d[i]);
    const ADV aqdd_out = aba(am, aq, aqd, atau);
    DV out(n);
    for (int i = 0; i < n; ++i) out[i] = aqdd_out[i].value();
    REQUIRE(relative_error(out, qdd) < 1e-10);
    // the O(n^3) route too, and its derivatives equal ABA's
    const ADV aqdd_crba = forward_dynamics_crba(am, aq, aqd, atau);
    for (int i = 0; i < n; ++i) {
      out[i] = aqdd_crba[i].value();
      REQUIRE((aqdd_crba[i].derivatives() - aqdd_out[i].derivatives()).norm() <
              1e-8 * std::max(1.0, aqdd_out[i].derivatives().norm()));
    }
    REQUIRE(relative_error(out, qdd) < 1e-10);
    REQUIRE(std::abs(kinetic_energy(am, aq, aqd).value() - kinetic_energy(dm, q, qd)) < 1e-12);
  }
}
