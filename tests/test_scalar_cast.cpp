// chain.cast<NewScalar>(): a model converts between scalar types with every member carried
// (links, gravity, payloads), round trips through long double exactly, and the cast models'
// rnea / crba / aba agree with double for float, long double and an AutoDiffScalar
// (test_scalar_types.cpp covers float and AutoDiff on models built from links by hand).
// AutoDiffScalar<VectorXd> (dynamic size) is tested with rnea only: the model's constants carry
// empty derivative vectors, and crba / aba still sum unevaluated products of mismatched sizes
// (Eigen asserts; docs/identification.md).
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

#include <unsupported/Eigen/AutoDiff>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

using Long = ChainN<double, 7, Revolute>;
using CastMixed = Chain<double, RevoluteZ, PrismaticX, Revolute>;

template <typename A, typename B>
bool links_identical(const A& a, const B& b) {
  for (std::size_t i = 0; i < std::size_t(A::nq); ++i) {
    const auto& x = a.link(i);
    const auto& y = b.link(i);
    if (x.name != y.name || x.joint_name != y.joint_name) return false;
    if (x.placement.rotation != y.placement.rotation) return false;
    if (x.placement.translation != y.placement.translation) return false;
    if (x.axis.has_value() != y.axis.has_value() || (x.axis && *x.axis != *y.axis)) return false;
    if (x.mass != y.mass || x.com != y.com || x.inertia != y.inertia) return false;
    if (x.dynamics.damping != y.dynamics.damping || x.dynamics.friction != y.dynamics.friction ||
        x.dynamics.armature != y.dynamics.armature) {
      return false;
    }
    if (x.limits.has_value() != y.limits.has_value()) return false;
    if (x.limits && (x.limits->lower != y.limits->lower || x.limits->upper != y.limits->upper ||
                     x.limits->velocity != y.limits->velocity ||
                     x.limits->effort != y.limits->effort)) {
      return false;
    }
    if (a.payload(i).has_value() != b.payload(i).has_value()) return false;
    if (a.payload(i) && (a.payload(i)->mass != b.payload(i)->mass ||
                         a.payload(i)->com != b.payload(i)->com ||
                         a.payload(i)->inertia != b.payload(i)->inertia)) {
      return false;
    }
  }
  return a.gravity() == b.gravity();
}

template <typename Model>
Model decorated(std::mt19937& gen) {
  auto links = test::random_links<Model>(gen, true);
  links[0].name = "shoulder";
  links[1].joint_name = "j1";
  JointLimits<double> lim;
  lim.lower = -1.25;
  lim.upper = 2.5;
  lim.velocity = 3.1;
  lim.effort = 40;
  links[1].limits = lim;
  Model m(links, Eigen::Vector3d(0.3, -0.1, -9.7));
  Payload<double> p;
  p.mass = 0.851;
  p.com = Eigen::Vector3d(0.01, 0.02, 0.1);
  p.inertia = Eigen::Vector3d(0.001, 0.002, 0.0025).asDiagonal();
  m.set_payload(std::size_t(Model::nq - 1), p);
  return m;
}

/// rnea, crba and aba of `model` cast to S, against double; the worst relative error.
template <typename S, typename Model>
double agreement(const Model& model, std::mt19937& gen) {
  using V = typename Model::Vector;
  const auto cm = model.template cast<S>();
  using CV = typename decltype(cm)::Vector;
  const V q = test::random_state<V>(gen, 3.0), qd = test::random_state<V>(gen, 2.0),
          qdd = test::random_state<V>(gen, 2.0);
  const V tau = rnea(model, q, qd, qdd);
  const CV cq = q.template cast<S>(), cqd = qd.template cast<S>(), cqdd = qdd.template cast<S>(),
           ctau = tau.template cast<S>();
  const double e[] = {relative_error(rnea(cm, cq, cqd, cqdd), tau),
                      relative_error(crba(cm, cq), crba(model, q)),
                      relative_error(aba(cm, cq, cqd, ctau), aba(model, q, qd, tau))};
  return std::max({e[0], e[1], e[2]});
}

}  // namespace

TEST_CASE("cast to long double and back reproduces every link member, gravity and payload exactly",
          "[scalar][cast]") {
  std::mt19937 gen(test::kSeed + 701);
  const Long lm = decorated<Long>(gen);
  const auto ll = lm.cast<long double>();
  static_assert(std::is_same_v<std::decay_t<decltype(ll)>, ChainN<long double, 7, Revolute>>);
  const Long back = ll.cast<double>();
  REQUIRE(links_identical(lm, back));
  REQUIRE(back.link(1).limits.has_value());
  REQUIRE(back.payload(6).has_value());
  for (std::size_t i = 0; i < 7; ++i) {
    REQUIRE(back.inertia(i).matrix() == lm.inertia(i).matrix());
  }
  REQUIRE(back.damping() == lm.damping());
  REQUIRE(back.armature() == lm.armature());

  const CastMixed mm = decorated<CastMixed>(gen);
  const auto ml = mm.cast<long double>();
  static_assert(
      std::is_same_v<std::decay_t<decltype(ml)>, Chain<long double, RevoluteZ, PrismaticX, Revolute>>);
  REQUIRE(links_identical(mm, ml.cast<double>()));
  // the payload is really in the cast model's dynamics, not only stored
  CastMixed bare = mm;
  bare.clear_payload(2);
  const CastMixed::Vector q(0.3, 0.1, -0.7), z = CastMixed::Vector::Zero();
  const Eigen::Matrix<long double, 3, 1> lq = q.cast<long double>(), lz = z.cast<long double>();
  REQUIRE(relative_error(rnea(ml, lq, lz, lz), rnea(mm, q, z, z)) < 1e-14);
  REQUIRE(relative_error(rnea(ml, lq, lz, lz), rnea(bare, q, z, z)) > 1e-3);
}

TEST_CASE("rnea crba and aba of a cast chain agree with double for float and long double",
          "[scalar][cast]") {
  std::mt19937 gen(test::kSeed + 702);
  double worst_f = 0, worst_l = 0;
  for (int trial = 0; trial < 20; ++trial) {
    INFO("trial " << trial);
    const Long lm = decorated<Long>(gen);
    const CastMixed mm = decorated<CastMixed>(gen);
    const double ef = std::max(agreement<float>(lm, gen), agreement<float>(mm, gen));
    const double el = std::max(agreement<long double>(lm, gen), agreement<long double>(mm, gen));
    CHECK(ef < 1e-4);
    CHECK(el < 1e-12);
    worst_f = std::max(worst_f, ef);
    worst_l = std::max(worst_l, el);
  }
  // long double is more accurate than double: the difference is double's own rounding, so it
  // must be far below float's
  REQUIRE(worst_l < 1e-3 * worst_f);
  WARN("cast: worst relative error vs double: float " << worst_f << ", long double " << worst_l);
}

TEST_CASE("a chain cast to AutoDiffScalar gives rnea's value and d rnea / d qdd equal to crba",
          "[scalar][cast][autodiff]") {
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 7, 1>>;
  using V = Long::Vector;
  std::mt19937 gen(test::kSeed + 703);
  for (int trial = 0; trial < 5; ++trial) {
    const Long lm = decorated<Long>(gen);
    const auto am = lm.cast<AD>();
    using AV = decltype(am)::Vector;
    const V q = test::random_state<V>(gen, 3.0), qd = test::random_state<V>(gen, 2.0),
            qdd = test::random_state<V>(gen, 2.0);
    AV aq, aqd, aqdd;
    for (int i = 0; i < 7; ++i) {
      aq[i] = AD(q[i], Eigen::Matrix<double, 7, 1>::Zero());
      aqd[i] = AD(qd[i], Eigen::Matrix<double, 7, 1>::Zero());
      aqdd[i] = AD(qdd[i], 7, i);
    }
    const AV tau = rnea(am, aq, aqd, aqdd);
    V value;
    Long::Matrix jac;
    for (int i = 0; i < 7; ++i) {
      value[i] = tau[i].value();
      jac.row(i) = tau[i].derivatives().transpose();
    }
    CHECK(relative_error(value, rnea(lm, q, qd, qdd)) < 1e-14);
    CHECK(relative_error(jac, crba(lm, q)) < 1e-13);
    // and back: the values survive, the derivatives are dropped
    REQUIRE(links_identical(am.cast<double>(), lm));
  }
}

TEST_CASE("rnea of a chain cast to AutoDiffScalar with a dynamic derivative vector gives d tau / d "
          "qdd equal to crba and d tau / d q equal to finite differences",
          "[scalar][cast][autodiff]") {
  // Model constants carry empty derivative vectors; rnea's expressions keep them coherent
  // (crba and aba do not yet: docs/identification.md).
  using AD = Eigen::AutoDiffScalar<Eigen::VectorXd>;
  using V = Long::Vector;
  std::mt19937 gen(test::kSeed + 704);
  for (int trial = 0; trial < 3; ++trial) {
    const Long lm = decorated<Long>(gen);  // joint dynamics and a payload
    const auto am = lm.cast<AD>();
    using AV = decltype(am)::Vector;
    const V q = test::random_state<V>(gen, 3.0), qd = test::random_state<V>(gen, 2.0),
            qdd = test::random_state<V>(gen, 2.0);
    AV aq, aqd, aqdd;
    for (int i = 0; i < 7; ++i) {  // derivatives: 0..6 with respect to q, 7..13 to qdd
      aq[i] = AD(q[i], 14, i);
      aqd[i] = AD(qd[i], Eigen::VectorXd::Zero(14));
      aqdd[i] = AD(qdd[i], 14, 7 + i);
    }
    const AV tau = rnea(am, aq, aqd, aqdd);
    V value;
    Long::Matrix dq, dqdd, fd;
    for (int i = 0; i < 7; ++i) {
      value[i] = tau[i].value();
      REQUIRE(tau[i].derivatives().size() == 14);
      dq.row(i) = tau[i].derivatives().head<7>().transpose();
      dqdd.row(i) = tau[i].derivatives().tail<7>().transpose();
    }
    const double h = 1e-6;
    for (int j = 0; j < 7; ++j) {
      V qp = q, qm = q;
      qp[j] += h;
      qm[j] -= h;
      fd.col(j) = (rnea(lm, qp, qd, qdd) - rnea(lm, qm, qd, qdd)) / (2 * h);
    }
    CHECK(relative_error(value, rnea(lm, q, qd, qdd)) < 1e-14);
    CHECK(relative_error(dqdd, crba(lm, q)) < 1e-13);
    CHECK(relative_error(dq, fd) < 1e-6);
  }
}
