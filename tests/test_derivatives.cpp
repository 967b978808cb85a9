// Analytical derivatives of inverse and forward dynamics (algorithms/rnea_derivatives.hpp,
// aba_derivatives.hpp) against two independent paths: central finite differences of rnea/aba
// and forward-mode automatic differentiation (Eigen::AutoDiffScalar) through rnea/aba.
// Two models: a random 4-joint chain mixing revolute and prismatic joints with damping,
// Coulomb friction and armature, and the built-in iiwa.
#include "support/chains.hpp"
#include "support/test_support.hpp"

#include <chaindyn/algorithms/aba_derivatives.hpp>
#include <chaindyn/algorithms/rnea_derivatives.hpp>

#include <Eigen/Cholesky>
#include <unsupported/Eigen/AutoDiff>

#include <catch2/catch.hpp>

#include <memory>

using namespace chaindyn;
using test::relative_error;

namespace {

using MixedFour = Chain<double, Revolute, PrismaticY, RevoluteX, Prismatic>;

struct DerivativesWorst {
  double fd_rnea = 0, fd_aba = 0, ad_rnea = 0, ad_aba = 0;
};

/// Jacobian columns [d/dq, d/dqd, d/dthird] of y(q, qd, third) by automatic differentiation.
template <typename ADModel, typename F, typename DV>
Eigen::Matrix<double, DV::RowsAtCompileTime, 3 * DV::RowsAtCompileTime> ad_jacobian(
    const F& f, const DV& q, const DV& qd, const DV& third) {
  constexpr int n = DV::RowsAtCompileTime;
  using AD = typename ADModel::Scalar;
  typename ADModel::Vector aq, aqd, a3;
  for (int i = 0; i < n; ++i) {
    aq[i] = AD(q[i], 3 * n, i);
    aqd[i] = AD(qd[i], 3 * n, n + i);
    a3[i] = AD(third[i], 3 * n, 2 * n + i);
  }
  const typename ADModel::Vector y = f(aq, aqd, a3);
  Eigen::Matrix<double, n, 3 * n> jac;
  for (int i = 0; i < n; ++i) jac.row(i) = y[i].derivatives().transpose();
  return jac;
}

/// Central differences of y(q, qd, third) w.r.t. its argument `which` (0: q, 1: qd, 2: third).
template <typename F, typename DV>
Eigen::Matrix<double, DV::RowsAtCompileTime, DV::RowsAtCompileTime> central_difference(
    const F& f, const DV& q, const DV& qd, const DV& third, int which) {
  constexpr int n = DV::RowsAtCompileTime;
  const double h = 1e-6;
  Eigen::Matrix<double, n, n> out;
  for (int j = 0; j < n; ++j) {
    DV x[3] = {q, qd, third}, y[3] = {q, qd, third};
    x[which][j] += h;
    y[which][j] -= h;
    out.col(j) = (f(x[0], x[1], x[2]) - f(y[0], y[1], y[2])) / (2 * h);
  }
  return out;
}

template <typename DModel, typename ADModel>
void check_derivatives(const DModel& dm, const ADModel& am, std::mt19937& gen, DerivativesWorst& worst) {
  using DV = typename DModel::Vector;
  constexpr int n = DModel::nq;
  auto data = std::make_unique<DerivativesData<DModel>>();
  for (int trial = 0; trial < 5; ++trial) {
    const DV q = test::random_state<DV>(gen, 3.0), qd = test::random_state<DV>(gen, 2.0),
             qdd = test::random_state<DV>(gen, 2.0), tau = test::random_state<DV>(gen, 20.0);

    // inverse dynamics
    rnea_derivatives(dm, *data, q, qd, qdd);
    REQUIRE(relative_error(data->data.tau, rnea(dm, q, qd, qdd)) < 1e-13);
    const auto id = [&](const DV& a, const DV& b, const DV& c) -> DV { return rnea(dm, a, b, c); };
    const double fd_q = relative_error(data->dtau_dq, central_difference(id, q, qd, qdd, 0));
    const double fd_qd = relative_error(data->dtau_dqd, central_difference(id, q, qd, qdd, 1));
    const auto ad_id = [&](const auto& a, const auto& b, const auto& c) { return rnea(am, a, b, c); };
    const auto jid = ad_jacobian<ADModel>(ad_id, q, qd, qdd);
    const double ad_q = relative_error(data->dtau_dq, jid.template leftCols<n>());
    const double ad_qd = relative_error(data->dtau_dqd, jid.template middleCols<n>(n));
    REQUIRE(relative_error(jid.template rightCols<n>(), crba(dm, q)) < 1e-12);  // the seeding
    CHECK(fd_q < 1e-6);
    CHECK(fd_qd < 1e-6);
    CHECK(ad_q < 1e-12);
    CHECK(ad_qd < 1e-12);
    worst.fd_rnea = std::max({worst.fd_rnea, fd_q, fd_qd});
    worst.ad_rnea = std::max({worst.ad_rnea, ad_q, ad_qd});

    // the returning form agrees with the in-place one
    const auto r = rnea_derivatives(dm, q, qd, qdd);
    REQUIRE(r.dtau_dq == data->dtau_dq);
    REQUIRE(r.dtau_dqd == data->dtau_dqd);

    // forward dynamics
    aba_derivatives(dm, *data, q, qd, tau);
    REQUIRE(relative_error(data->data.qdd, aba(dm, q, qd, tau)) < 1e-13);
    const auto fdyn = [&](const DV& a, const DV& b, const DV& c) -> DV { return aba(dm, a, b, c); };
    const double fa_q = relative_error(data->dqdd_dq, central_difference(fdyn, q, qd, tau, 0));
    const double fa_qd = relative_error(data->dqdd_dqd, central_difference(fdyn, q, qd, tau, 1));
    const double fa_tau = relative_error(data->dqdd_dtau, central_difference(fdyn, q, qd, tau, 2));
    const auto ad_fd = [&](const auto& a, const auto& b, const auto& c) { return aba(am, a, b, c); };
    const auto jfd = ad_jacobian<ADModel>(ad_fd, q, qd, tau);
    const double aa_q = relative_error(data->dqdd_dq, jfd.template leftCols<n>());
    const double aa_qd = relative_error(data->dqdd_dqd, jfd.template middleCols<n>(n));
    const double aa_tau = relative_error(data->dqdd_dtau, jfd.template rightCols<n>());
    // qdd = M^-1 (...) carries cond(M) (~1e3 on the iiwa, whose wrist is light) into the
    // round-off of the differences (eps |qdd| / h): a looser bound than for rnea.
    CHECK(fa_q < 1e-5);
    CHECK(fa_qd < 1e-5);
    CHECK(fa_tau < 1e-5);
    CHECK(aa_q < 1e-11);
    CHECK(aa_qd < 1e-11);
    CHECK(aa_tau < 1e-11);
    worst.fd_aba = std::max({worst.fd_aba, fa_q, fa_qd, fa_tau});
    worst.ad_aba = std::max({worst.ad_aba, aa_q, aa_qd, aa_tau});
    REQUIRE(relative_error(DV(data->dqdd_dtau * crba(dm, q) * qdd), qdd) < 1e-11);

    const auto f = aba_derivatives(dm, q, qd, tau);
    REQUIRE(f.dqdd_dq == data->dqdd_dq);
    REQUIRE(f.dqdd_dqd == data->dqdd_dqd);
    REQUIRE(f.dqdd_dtau == data->dqdd_dtau);
  }
}

void report(const char* what, const DerivativesWorst& w) {
  WARN(what << ": worst relative error vs central differences: rnea " << w.fd_rnea << ", aba "
            << w.fd_aba << "; vs AutoDiff: rnea " << w.ad_rnea << ", aba " << w.ad_aba);
}

}  // namespace

TEST_CASE("rnea and aba derivatives match finite differences and AutoDiff on a random chain "
          "with friction and armature",
          "[derivatives]") {
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 3 * MixedFour::nq, 1>>;
  using ADMixed = Chain<AD, Revolute, PrismaticY, RevoluteX, Prismatic>;
  std::mt19937 gen(test::kSeed + 60);
  DerivativesWorst worst;
  for (int model = 0; model < 4; ++model) {
    const auto links = test::random_links<MixedFour>(gen, true);
    const MixedFour dm(links);
    const ADMixed am(test::cast_links<AD>(links));
    REQUIRE(dm.damping().cwiseAbs().maxCoeff() > 0);  // the friction terms are exercised
    check_derivatives(dm, am, gen, worst);
  }
  report("random 4-joint chain", worst);
}

TEST_CASE("rnea and aba derivatives match finite differences and AutoDiff on the iiwa",
          "[derivatives]") {
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 21, 1>>;
  std::mt19937 gen(test::kSeed + 61);
  DerivativesWorst worst;
  check_derivatives(robots::kuka_iiwa(), robots::kuka_iiwa<AD>(), gen, worst);
  report("iiwa", worst);
}

TEST_CASE("rnea derivatives at rest are the gravity-torque Jacobian and zero in qd",
          "[derivatives]") {
  // At qd = qdd = 0 tau = g(q): d tau / d qd = 0 without damping (the iiwa has none), and
  // d tau / d q is the Jacobian of gravity_torques (by differences).
  const auto arm = robots::kuka_iiwa();
  using V = Eigen::Matrix<double, 7, 1>;
  std::mt19937 gen(test::kSeed + 62);
  const V q = test::random_state<V>(gen, 2.0);
  const auto r = rnea_derivatives(arm, q, V::Zero(), V::Zero());
  REQUIRE(r.dtau_dqd.cwiseAbs().maxCoeff() < 1e-14);
  Eigen::Matrix<double, 7, 7> fd;
  for (int j = 0; j < 7; ++j) {
    const V e = 1e-6 * V::Unit(j);
    fd.col(j) = (gravity_torques(arm, V(q + e)) - gravity_torques(arm, V(q - e))) / 2e-6;
  }
  REQUIRE(relative_error(r.dtau_dq, fd) < 1e-6);
}

namespace {

/// aba_derivatives of `model` at three random states against the reference: dense products
/// with M^-1 from crba and a Cholesky factorization.
template <typename Model>
void check_aba_derivatives_by_cholesky(const Model& model, std::mt19937& gen) {
  using Vector = typename Model::Vector;
  using Matrix = typename Model::Matrix;
  const auto n = Eigen::Index(model.joint_count());
  auto dd = std::make_unique<DerivativesData<Model>>(model);
  for (int s = 0; s < 3; ++s) {
    const Vector q = test::random_state<Vector>(gen, 3.0, n);
    const Vector qd = test::random_state<Vector>(gen, 2.0, n);
    const Vector tau = test::random_state<Vector>(gen, 5.0, n);
    aba_derivatives(model, *dd, q, qd, tau);
    const Matrix fd_q = dd->dqdd_dq, fd_qd = dd->dqdd_dqd, minv = dd->dqdd_dtau;
    rnea_derivatives(model, *dd, q, qd, Vector(aba(model, q, qd, tau)));
    const Eigen::LLT<Eigen::MatrixXd> llt(crba(model, q));  // dynamic size: cheaper to compile
    REQUIRE(llt.info() == Eigen::Success);
    INFO("n = " << n << ", state " << s);
    CHECK(relative_error(minv, llt.solve(Eigen::MatrixXd::Identity(n, n))) < 1e-10);
    CHECK(relative_error(fd_q, llt.solve(Eigen::MatrixXd(-dd->dtau_dq))) < 1e-10);
    CHECK(relative_error(fd_qd, llt.solve(Eigen::MatrixXd(-dd->dtau_dqd))) < 1e-10);
  }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("aba derivatives equal -M^-1 times the rnea derivatives, M^-1 by Cholesky",
                        "[derivatives]", test::MixedChains<double>) {
  // aba_derivatives solves with the factorization aba leaves (O(n^2)), with the right-hand sides
  // padded to SIMD packets or not depending on n and the target: these chain lengths (1, 6, 7,
  // 8, and ChainX's 9) take both paths with SSE2, AVX and AVX-512.
  using Model = TestType;
  std::mt19937 gen(test::kSeed + 63 + std::uint32_t(test::joints_of<Model>));
  for (int m = 0; m < 2; ++m) {
    check_aba_derivatives_by_cholesky(test::random_model<Model>(gen, true), gen);
  }
}

TEST_CASE("aba derivatives equal -M^-1 times the rnea derivatives on long chains and ChainX",
          "[derivatives]") {
  // From detail::kJointSpaceSolveBelow joints on, the solve runs ABA's passes as loops over the
  // rows: a compile-time chain of 18 joints (padded to SIMD packets with AVX2 and AVX-512) and
  // ChainX of 16, 18 and 33 joints; a ChainX of 1 to 15 joints solves in joint space, its size
  // at run time, and copies its matrices with loops of its own size up to 8 joints
  // (detail::with_small_size: each of 1 .. 8 here, and 9 and 15 past them).
  static_assert(detail::kJointSpaceSolveBelow == 16, "update the chain lengths below");
  std::mt19937 gen(test::kSeed + 64);
  using Long = ChainN<double, 18, Revolute>;
  check_aba_derivatives_by_cholesky(Long(test::random_links<Long>(gen, true)), gen);
  for (const int n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 18, 33}) {
    std::vector<Link<double>> links;
    for (int i = 0; i < n; ++i) links.push_back(test::random_link(gen, true));
    check_aba_derivatives_by_cholesky(ChainX<double>(links), gen);
  }
}

TEST_CASE("ChainX's derivatives equal those of the compile-time chain of the same links",
          "[derivatives]") {
  // A ChainX of fewer than detail::kJointSpaceSolveBelow joints solves in joint space with its
  // size at run time (blocks of right-hand sides in registers): the same numbers as the
  // compile-time chains, which solve with fixed sizes. Its joints: AnyJoint with the axis z
  // (RevoluteZ's code) and with the random axes of Revolute.
  std::mt19937 gen(test::kSeed + 65);
  const auto compare = [&gen](const auto& fixed) {
    using Fixed = std::decay_t<decltype(fixed)>;
    using V = typename Fixed::Vector;
    const ChainX<double> x = ChainX<double>::from(fixed);
    auto dd = std::make_unique<DerivativesData<Fixed>>();
    auto ddx = std::make_unique<DerivativesData<ChainX<double>>>(x);
    for (int s = 0; s < 3; ++s) {
      const V q = test::random_state<V>(gen, 3.0), qd = test::random_state<V>(gen, 2.0);
      const V tau = test::random_state<V>(gen, 5.0);
      const Eigen::VectorXd qx = q, qdx = qd, taux = tau;
      aba_derivatives(fixed, *dd, q, qd, tau);
      aba_derivatives(x, *ddx, qx, qdx, taux);
      INFO("n = " << Fixed::nq << ", state " << s);
      CHECK(relative_error(ddx->dqdd_dq, Eigen::MatrixXd(dd->dqdd_dq)) < 1e-12);
      CHECK(relative_error(ddx->dqdd_dqd, Eigen::MatrixXd(dd->dqdd_dqd)) < 1e-12);
      CHECK(relative_error(ddx->dqdd_dtau, Eigen::MatrixXd(dd->dqdd_dtau)) < 1e-12);
      CHECK(relative_error(ddx->dtau_dq, Eigen::MatrixXd(dd->dtau_dq)) < 1e-12);
    }
  };
  using Z6 = ChainN<double, 6, RevoluteZ>;
  using A7 = ChainN<double, 7, Revolute>;
  compare(Z6(test::random_links<Z6>(gen, true)));
  compare(A7(test::random_links<A7>(gen, true)));
}
