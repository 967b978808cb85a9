// A floating base's rnea_derivatives and aba_derivatives (free-flyer and planar base, on a
// compile-time chain: the chain's pass, and on a TreeX with a branch: the tree's pass) against
// independent paths: central finite differences of rnea and aba on the configuration manifold
// (q moved through integrate, the tangent-space convention) and in v and a; M against crba;
// the base held still: the tree's block of the derivatives equals the fixed-base tree's
// derivatives; dqdd_dtau M = 1; aba's derivatives = -M^-1 rnea's at a = aba(q, v, tau);
// typed errors for bad sizes.
#include "support/test_support.hpp"

#include <chaindyn/algorithms/aba_derivatives.hpp>
#include <chaindyn/algorithms/floating_base_derivatives.hpp>
#include <chaindyn/model/tree.hpp>

#include <Eigen/LU>
#include <catch2/catch.hpp>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

using SmallChain = Chain<double, RevoluteZ, Revolute, PrismaticX>;

Link<double> fdd_base_body(std::mt19937& gen) {
  Link<double> body;
  body.mass = test::uniform(gen, 2.0, 5.0);
  body.com = test::random_vector(gen, -0.2, 0.2);
  body.inertia = Eigen::Vector3d(test::uniform(gen, 0.2, 0.4), test::uniform(gen, 0.2, 0.4),
                                 test::uniform(gen, 0.2, 0.4))
                     .asDiagonal();
  return body;
}

// Two branches from the base and one from joint 1 (joint dynamics on: damping, Coulomb
// friction, armature).
TreeX<double> fdd_branched_tree(std::mt19937& gen) {
  const std::vector<std::size_t> parents = {no_parent, 0, 1, 1, no_parent};
  std::vector<Link<double>> links;
  for (std::size_t i = 0; i < parents.size(); ++i) links.push_back(test::random_link(gen, true));
  return TreeX<double>(links,
                       {JointKind::revolute, JointKind::revolute, JointKind::prismatic,
                        JointKind::revolute, JointKind::revolute},
                       parents);
}

// Random v, a: every entry's magnitude in [0.2, 1] (the joints' Coulomb friction is smooth
// away from qd = 0, and the finite differences' steps stay far from it).
template <typename Model>
typename Model::TangentVector fdd_random_tangent(const Model& model, std::mt19937& gen) {
  typename Model::TangentVector v(model.nv_size());
  for (Eigen::Index k = 0; k < v.size(); ++k) {
    v[k] = test::uniform(gen, 0.2, 1.0) * (test::uniform(gen, -1.0, 1.0) < 0 ? -1.0 : 1.0);
  }
  return v;
}

// Central differences of f(q (+) eps e_i, v + eps e_j, ...) in q's tangent (through
// integrate) and in the second argument, one column per tangent direction.
template <typename Model, typename F>
Eigen::MatrixXd fdd_fd_tangent(const Model& model, const typename Model::ConfigVector& q, F f, double h) {
  const Eigen::Index nv = model.nv_size();
  Eigen::MatrixXd out(nv, nv);
  for (Eigen::Index i = 0; i < nv; ++i) {
    typename Model::TangentVector e = Model::TangentVector::Zero(nv);
    e[i] = h;
    out.col(i) = (f(integrate(model, q, e, 1.0)) - f(integrate(model, q, -e, 1.0))) / (2 * h);
  }
  return out;
}
template <typename Model, typename F>
Eigen::MatrixXd fdd_fd_vector(const Model& model, const typename Model::TangentVector& x, F f, double h) {
  const Eigen::Index nv = model.nv_size();
  Eigen::MatrixXd out(nv, nv);
  for (Eigen::Index i = 0; i < nv; ++i) {
    typename Model::TangentVector xp = x, xm = x;
    xp[i] += h;
    xm[i] -= h;
    out.col(i) = (f(xp) - f(xm)) / (2 * h);
  }
  return out;
}

// Every property on one model, at a few random states.
template <typename Model>
void fdd_check_model(const Model& model, std::mt19937& gen) {
  using Config = typename Model::ConfigVector;
  using Tangent = typename Model::TangentVector;
  // Central differences with step h: truncation ~h^2 / 6 |f'''| ~ 1e-11 and rounding
  // ~eps |f| / h ~ 1e-10 for |f| ~ 10 (dynamics of O(1) masses and speeds; the differences
  // come out within 5e-10 here): 1e-8 relative to the derivative's size.
  const double h = 1e-5, tol_fd = 1e-8;
  auto dd = std::make_unique<DerivativesData<Model>>(model);
  for (int trial = 0; trial < 3; ++trial) {
    const Config q = random_configuration(model, gen);
    const Tangent v = fdd_random_tangent(model, gen), a = fdd_random_tangent(model, gen);
    rnea_derivatives(model, *dd, q, v, a);
    CHECK(relative_error(dd->data.tau, rnea(model, q, v, a)) < 1e-12);
    const Eigen::MatrixXd dq = fdd_fd_tangent(model, q, [&](const Config& qe) { return Tangent(rnea(model, qe, v, a)); }, h);
    const Eigen::MatrixXd dv = fdd_fd_vector(model, v, [&](const Tangent& ve) { return Tangent(rnea(model, q, ve, a)); }, h);
    CHECK(relative_error(dd->dtau_dq, dq) < tol_fd);
    CHECK(relative_error(dd->dtau_dv, dv) < tol_fd);
    CHECK(relative_error(dd->data.M, crba(model, q)) < 1e-12);  // M = d tau / d a (exact: rnea is linear in a)

    // aba_derivatives at tau = rnea(q, v, a): a back, the derivatives against aba's finite
    // differences and against -M^-1 rnea_derivatives (LU, an independent inverse)
    const Tangent tau = rnea(model, q, v, a);
    aba_derivatives(model, *dd, q, v, tau);
    CHECK(relative_error(dd->data.a, a) < 1e-10);
    const Eigen::MatrixXd m = crba(model, q);
    const Eigen::MatrixXd id = Eigen::MatrixXd::Identity(m.rows(), m.cols());
    CHECK(relative_error(Eigen::MatrixXd(dd->dqdd_dtau * m), id) < 1e-11);
    const auto rd = rnea_derivatives(model, q, v, dd->data.a);
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(m);
    CHECK(relative_error(dd->dqdd_dq, Eigen::MatrixXd(-lu.solve(rd.dtau_dq))) < 1e-10);
    CHECK(relative_error(dd->dqdd_dv, Eigen::MatrixXd(-lu.solve(rd.dtau_dv))) < 1e-10);
    const Eigen::MatrixXd aq = fdd_fd_tangent(model, q, [&](const Config& qe) { return Tangent(aba(model, qe, v, tau)); }, h);
    const Eigen::MatrixXd av = fdd_fd_vector(model, v, [&](const Tangent& ve) { return Tangent(aba(model, q, ve, tau)); }, h);
    CHECK(relative_error(dd->dqdd_dq, aq) < tol_fd);
    CHECK(relative_error(dd->dqdd_dv, av) < tol_fd);
    // the returning forms give the in-place numbers
    const auto ad = aba_derivatives(model, q, v, tau);
    CHECK(relative_error(ad.dqdd_dq, dd->dqdd_dq) < 1e-14);
    CHECK(relative_error(ad.dqdd_dtau, dd->dqdd_dtau) < 1e-14);
  }
  // The base held still (base frame = world frame, v and a's base parts zero): the tree's block
  // of rnea's derivatives is the fixed-base tree's (its rows and columns do not see the base).
  using Tree = typename Model::Tree;
  const Eigen::Index n = Eigen::Index(model.joint_count()), nb = model.nv_size() - n;
  Config q = random_configuration(model, gen);
  q.head(q.size() - n) = Model::Base::neutral();
  Tangent v = fdd_random_tangent(model, gen), a = fdd_random_tangent(model, gen);
  v.head(nb).setZero();
  a.head(nb).setZero();
  rnea_derivatives(model, *dd, q, v, a);
  const typename Tree::Vector qt = q.tail(n), qdt = v.tail(n), qddt = a.tail(n);
  const auto fixed = rnea_derivatives(model.tree(), qt, qdt, qddt);
  CHECK(relative_error(dd->dtau_dq.bottomRightCorner(n, n), fixed.dtau_dq) < 1e-12);
  CHECK(relative_error(dd->dtau_dv.bottomRightCorner(n, n), fixed.dtau_dqd) < 1e-12);
  CHECK(relative_error(dd->data.M.bottomRightCorner(n, n), crba(model.tree(), qt)) < 1e-12);
}

}  // namespace

TEST_CASE("floating-base rnea_derivatives and aba_derivatives: finite differences on the manifold, M^-1, the base held still",
          "[floating_base][derivatives]") {
  std::mt19937 gen(test::kSeed + 40);
  SECTION("free-flyer, chain") {
    fdd_check_model(FloatingBase<SmallChain>(fdd_base_body(gen), SmallChain(test::random_links<SmallChain>(gen, true))), gen);
  }
  SECTION("free-flyer, tree with a branch") {
    fdd_check_model(FloatingBase<TreeX<double>>(fdd_base_body(gen), fdd_branched_tree(gen)), gen);
  }
  SECTION("planar base, chain") {
    fdd_check_model(PlanarBaseRobot<SmallChain>(fdd_base_body(gen), SmallChain(test::random_links<SmallChain>(gen, true))), gen);
  }
  SECTION("planar base, tree with a branch") {
    fdd_check_model(PlanarBaseRobot<TreeX<double>>(fdd_base_body(gen), fdd_branched_tree(gen)), gen);
  }
}

TEST_CASE("floating-base derivatives: wrong sizes are typed errors", "[floating_base][derivatives]") {
  std::mt19937 gen(test::kSeed + 41);
  const FloatingBase<TreeX<double>> model(fdd_base_body(gen), fdd_branched_tree(gen));
  const Eigen::VectorXd q = model.neutral(), v = Eigen::VectorXd::Zero(model.nv_size());
  const Eigen::VectorXd short_v = Eigen::VectorXd::Zero(model.nv_size() - 1);
  CHECK_THROWS_AS(rnea_derivatives(model, q, short_v, v), ArgumentError);
  CHECK_THROWS_AS(aba_derivatives(model, q, v, short_v), ArgumentError);
  Eigen::VectorXd bad_q = q;
  bad_q[6] = 2.0;  // not a unit quaternion
  CHECK_THROWS_AS(rnea_derivatives(model, bad_q, v, v), ArgumentError);
  // an in-place workspace made for another tree
  const FloatingBase<TreeX<double>> other(fdd_base_body(gen), TreeX<double>::from(SmallChain(test::random_links<SmallChain>(gen))));
  DerivativesData<FloatingBase<TreeX<double>>> dd(other);
  CHECK_THROWS_AS(rnea_derivatives(model, dd, q, v, v), ArgumentError);
  CHECK_THROWS_AS(aba_derivatives(model, dd, q, v, v), ArgumentError);
}
