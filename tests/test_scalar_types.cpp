// The algorithms are generic in the scalar: float agrees with double to float precision, and
// Eigen's AutoDiffScalar differentiates them (d tau / d qdd = M, d tau / d q by differences).
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

#include <unsupported/Eigen/AutoDiff>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

template <typename S>
using MixedArm = Chain<S, RevoluteZ, RevoluteY, Revolute, PrismaticX, RevoluteZ, Prismatic, RevoluteX>;
template <typename S>
using LongArm = ChainN<S, 7, Revolute>;

}  // namespace

TEMPLATE_TEST_CASE("float algorithms agree with double to float precision", "[scalar]",
                   (MixedArm<double>), (LongArm<double>)) {
  using DModel = TestType;
  using FModel = std::conditional_t<std::is_same_v<DModel, MixedArm<double>>, MixedArm<float>, LongArm<float>>;
  using DV = typename DModel::Vector;
  using FV = typename FModel::Vector;
  std::mt19937 gen(test::kSeed + 11);
  double worst = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const auto links = test::random_links<DModel>(gen, true);
    const DModel dm(links);
    const FModel fm(test::cast_links<float>(links));
    const DV q = test::random_state<DV>(gen, 3.0), qd = test::random_state<DV>(gen, 2.0),
             qdd = test::random_state<DV>(gen, 2.0);
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
      // 7 joints of float arithmetic; the forward dynamics also carry cond(M)
      REQUIRE(e < 2e-4);
    }
  }
  WARN("worst float-vs-double relative error: " << worst);
}

TEST_CASE("automatic differentiation: d rnea / d qdd equals crba, d rnea / d q matches differences",
          "[scalar][autodiff]") {
  constexpr int n = 7;
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, n, 1>>;
  using ADModel = MixedArm<AD>;
  using DModel = MixedArm<double>;
  using DV = DModel::Vector;
  std::mt19937 gen(test::kSeed + 12);
  for (int trial = 0; trial < 10; ++trial) {
    const auto links = test::random_links<DModel>(gen, false);
    const DModel dm(links);
    std::vector<Link<AD>> ad_links = test::cast_links<AD>(links);
    const ADModel am(ad_links);
    const DV q = test::random_state<DV>(gen, 3.0), qd = test::random_state<DV>(gen, 2.0),
             qdd = test::random_state<DV>(gen, 2.0);

    // seed qdd: the Jacobian of tau w.r.t. qdd is M
    ADModel::Vector aq, aqd, aqdd;
    for (int i = 0; i < n; ++i) {
      aq[i] = AD(q[i]);
      aqd[i] = AD(qd[i]);
      aqdd[i] = AD(qdd[i], n, i);
      aq[i].derivatives().setZero();
      aqd[i].derivatives().setZero();
    }
    const ADModel::Vector tau = rnea(am, aq, aqd, aqdd);
    Eigen::Matrix<double, n, n> jac;
    DV value;
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
    const ADModel::Vector tau_q = rnea(am, aq, aqd, aqdd);
    const double h = 1e-6;
    for (int j = 0; j < n; ++j) {
      const DV e = h * DV::Unit(j);
      const DV fd = (rnea(dm, DV(q + e), qd, qdd) - rnea(dm, DV(q - e), qd, qdd)) / (2 * h);
      for (int i = 0; i < n; ++i) {
        REQUIRE(std::abs(tau_q[i].derivatives()[j] - fd[i]) < 1e-6 * std::max(1.0, std::abs(fd[i])));
      }
    }
    // the other algorithms compile and agree in value for the AD scalar too
    const DV tau_d = rnea(dm, q, qd, qdd);
    ADModel::Vector atau;
    for (int i = 0; i < n; ++i) atau[i] = AD(tau_d[i]);
    const ADModel::Vector aqdd_out = aba(am, aq, aqd, atau);
    DV out;
    for (int i = 0; i < n; ++i) out[i] = aqdd_out[i].value();
    REQUIRE(relative_error(out, qdd) < 1e-10);
    // the O(n^3) route too, and its derivatives equal ABA's
    const ADModel::Vector aqdd_crba = forward_dynamics_crba(am, aq, aqd, atau);
    for (int i = 0; i < n; ++i) {
      out[i] = aqdd_crba[i].value();
      REQUIRE((aqdd_crba[i].derivatives() - aqdd_out[i].derivatives()).norm() <
              1e-8 * std::max(1.0, aqdd_out[i].derivatives().norm()));
    }
    REQUIRE(relative_error(out, qdd) < 1e-10);
    REQUIRE(std::abs(kinetic_energy(am, aq, aqd).value() - kinetic_energy(dm, q, qd)) < 1e-12);
  }
}
