// Operational-space dynamics (operational_space.hpp) against the dense route on three chains
// of test::MixedChains and the iiwa: Lambda^-1 = J M^-1 J^T and Lambda by CRBA + Cholesky, mu
// and p from nonlinear_effects, gravity_torques and jdot_qd, Jbar = M^-1 J^T Lambda; the
// identities of Jbar and the null-space projector; near and at singular configurations; a
// Tree and a TreeX against the same dense route, every link of the tree in turn.
#include "support/chains.hpp"
#include "support/test_support.hpp"

#include <chaindyn/algorithms/operational_space.hpp>

#include <catch2/catch.hpp>

#include <Eigen/Cholesky>

#include <limits>
#include <memory>
#include <random>
#include <vector>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

/// Three of test::MixedChains: the Chain of every joint type with Placed joints (the fold),
/// ChainN<double, 7, Revolute> (the loop) and the ChainX; the one-joint chain and the folded
/// ChainN add compile time and no code path this file's algorithms take differently.
using OsChains = std::tuple<std::tuple_element_t<1, test::MixedChains<double>>,
                            std::tuple_element_t<3, test::MixedChains<double>>,
                            std::tuple_element_t<4, test::MixedChains<double>>>;

constexpr int kOsModels = 3;   // random models per chain type
constexpr int kOsStates = 4;   // random states per model

/// Calls f(model, q, qd, frame, rf) on kOsModels random models x kOsStates states of a chain
/// type, each with a random frame on a random link, in world and local coordinates (seeded).
template <typename Model, typename F>
void for_os_cases(F&& f) {
  using Vector = typename Model::Vector;
  constexpr int n = test::joints_of<Model>;
  std::mt19937 gen(test::kSeed + 300u + std::uint32_t(n));
  for (int m = 0; m < kOsModels; ++m) {
    const Model model = test::random_model<Model>(gen, true);
    for (int s = 0; s < kOsStates; ++s) {
      const Vector q = test::random_state<Vector>(gen, 3.0, n);
      const Vector qd = test::random_state<Vector>(gen, 2.0, n);
      const std::size_t link = std::size_t(gen() % std::uint32_t(n));
      const auto frame = model.frame(link, Transform<double>(test::random_rotation(gen),
                                                              test::random_vector(gen, -0.3, 0.3)));
      for (const ReferenceFrame rf : {ReferenceFrame::world, ReferenceFrame::local}) {
        INFO("model " << m << ", state " << s << ", link " << link << ", rf "
                      << (rf == ReferenceFrame::world ? "world" : "local"));
        f(model, q, qd, frame, rf);
      }
    }
  }
}

/// The dense task-space quantities of a task of dimension Dim: J (the task's rows), M^-1 J^T by
/// Cholesky of crba's M, Lambda^-1, and mu, p by their definitions.
template <int Dim, typename Model>
struct DenseTask {
  Eigen::MatrixXd J, minv_jt, lambda_inv, jbar;
  Eigen::VectorXd mu, p;

  DenseTask(const Model& model, const typename Model::Vector& q, const typename Model::Vector& qd,
            const FrameFor<Model>& frame, ReferenceFrame rf) {
    const Eigen::MatrixXd M = crba(model, q);
    const Eigen::LLT<Eigen::MatrixXd> llt(M);
    J = Eigen::MatrixXd(jacobian(model, q, frame, rf)).bottomRows(Dim);
    minv_jt = llt.solve(J.transpose());
    lambda_inv = J * minv_jt;
    const Eigen::MatrixXd lambda = lambda_inv.inverse();
    jbar = minv_jt * lambda;
    const Eigen::VectorXd g = gravity_torques(model, q);
    const Eigen::VectorXd cqd = nonlinear_effects(model, q, qd) - g;
    const Eigen::VectorXd jdot_qd_task =
        Eigen::VectorXd(jdot_qd(model, q, qd, frame, rf)).tail(Dim);
    // Lambda xdd + mu + p = F with xdd = J M^-1 (J^T F - C qd - g) + Jdot qd
    mu = lambda * (J * llt.solve(cqd) - jdot_qd_task);
    p = jbar.transpose() * g;
  }
};

template <int Dim, typename Model>
void check_against_dense(const Model& model, const typename Model::Vector& q,
                         const typename Model::Vector& qd, const FrameFor<Model>& frame,
                         ReferenceFrame rf, double& worst_inv, double& worst_lambda,
                         double& worst_bias, double& worst_jbar, int& invertible) {
  const DenseTask<Dim, Model> dense(model, q, qd, frame, rf);
  const auto os = operational_space_dynamics<Dim>(model, q, qd, frame, rf);
  const auto inertia = operational_space_inertia<Dim>(model, q, frame, rf);
  const auto reference = operational_space_inertia_dense<Dim>(model, q, frame, rf);
  // the two recursive forms agree, and Lambda^-1 agrees with the dense route everywhere
  REQUIRE(relative_error(inertia.Lambda_inv, os.Lambda_inv) < 1e-14);
  const double e_inv = relative_error(os.Lambda_inv, dense.lambda_inv);
  CHECK(e_inv < 1e-10);
  CHECK(relative_error(reference.Lambda_inv, dense.lambda_inv) < 1e-10);
  worst_inv = std::max(worst_inv, e_inv);
  CHECK(os.Lambda_inv.isApprox(os.Lambda_inv.transpose(), 0.0));
  // where Lambda^-1 is well conditioned, Lambda, mu, p and Jbar too (errors grow as 1 / rcond)
  if (os.rcond > 1e-6) {
    ++invertible;
    const double tol = 1e-12 / os.rcond;
    const double e_lambda = relative_error(os.Lambda, reference.Lambda);
    CHECK(e_lambda < tol);
    CHECK(relative_error(os.Lambda * dense.lambda_inv,
                         Eigen::Matrix<double, Dim, Dim>::Identity()) < tol);
    const double e_bias = std::max(relative_error(os.mu, dense.mu), relative_error(os.p, dense.p));
    CHECK(e_bias < tol);
    Data<Model> data(model);
    OperationalSpaceInertia<double, Dim> lambda;
    TaskInverse<Model, Dim> jbar(q.size(), Dim);
    dynamically_consistent_inverse(model, data, q, frame, rf, lambda, jbar);
    REQUIRE(lambda.Lambda == inertia.Lambda);
    // the one-sweep form gives the same Jbar (and the returning form's numbers)
    OperationalSpaceDynamics<double, Dim> dyn;
    TaskInverse<Model, Dim> jbar_sweep(q.size(), Dim);
    operational_space_dynamics(model, data, q, qd, frame, rf, dyn, jbar_sweep);
    REQUIRE(relative_error(jbar_sweep, jbar) < 1e-12);
    REQUIRE(relative_error(dyn.mu, os.mu) < 1e-14);
    const double e_jbar = relative_error(jbar, dense.jbar);
    CHECK(e_jbar < tol);
    worst_lambda = std::max(worst_lambda, e_lambda);
    worst_bias = std::max(worst_bias, e_bias);
    worst_jbar = std::max(worst_jbar, e_jbar);
  } else {
    // near-singular or rank-deficient (fewer joints than task rows): Lambda^-1 stays defined
    CHECK(os.Lambda_inv.allFinite());
  }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("recursive Lambda^-1, Lambda, mu, p and Jbar equal the dense route (Cholesky of M)",
                        "[operational_space]", OsChains) {
  double worst_inv = 0, worst_lambda = 0, worst_bias = 0, worst_jbar = 0;
  int invertible = 0, cases = 0;
  for_os_cases<TestType>([&](const TestType& model, const typename TestType::Vector& q,
                             const typename TestType::Vector& qd,
                             const FrameFor<TestType>& frame, ReferenceFrame rf) {
    check_against_dense<pose_task>(model, q, qd, frame, rf, worst_inv, worst_lambda, worst_bias,
                                   worst_jbar, invertible);
    check_against_dense<position_task>(model, q, qd, frame, rf, worst_inv, worst_lambda,
                                       worst_bias, worst_jbar, invertible);
    cases += 2;
  });
  INFO("worst relative errors: Lambda^-1 " << worst_inv << ", Lambda " << worst_lambda
                                           << ", mu/p " << worst_bias << ", Jbar " << worst_jbar);
  CHECK(worst_inv < 1e-10);
  // every chain has well-conditioned tasks among its random cases
  CHECK(invertible > cases / 4);
}

// The tree of tests/test_trees.cpp (two branches from joint 1, one from the base) and the same
// tree at run time: a frame on each link in turn, so that every support (a root, a branch, a
// branch of a branch) and every walk of the recursions is taken. The dense route forms M of the
// whole tree; F's Jacobian has its columns on F's support only, and the recursions walk it.
using OsTree = Tree<double, Parents<-1, 0, 1, 1, 3, 0, 5>, RevoluteZ, Revolute, RevoluteY,
                    Prismatic, Revolute, RevoluteX, Revolute>;

TEST_CASE("on a tree, Lambda^-1, Lambda, mu, p, Jbar and N equal the dense route for a frame on "
          "every link",
          "[operational_space][trees]") {
  std::mt19937 gen(test::kSeed + 320u);
  double worst_inv = 0, worst_lambda = 0, worst_bias = 0, worst_jbar = 0, worst_n = 0;
  int invertible = 0, cases = 0;
  const auto check = [&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    using Vector = typename Model::Vector;
    for (int s = 0; s < 2; ++s) {
      const Vector q = test::random_state<Vector>(gen, 3.0, 7);
      const Vector qd = test::random_state<Vector>(gen, 2.0, 7);
      for (std::size_t link = 0; link < 7; ++link) {
        const auto frame = model.frame(link, Transform<double>(test::random_rotation(gen),
                                                                test::random_vector(gen, -0.3, 0.3)));
        for (const ReferenceFrame rf : {ReferenceFrame::world, ReferenceFrame::local}) {
          INFO("state " << s << ", link " << link << ", rf "
                        << (rf == ReferenceFrame::world ? "world" : "local"));
          check_against_dense<pose_task>(model, q, qd, frame, rf, worst_inv, worst_lambda,
                                         worst_bias, worst_jbar, invertible);
          check_against_dense<position_task>(model, q, qd, frame, rf, worst_inv, worst_lambda,
                                             worst_bias, worst_jbar, invertible);
          cases += 2;
          // N = 1 - Jbar J of the position task, with the dense Jbar, where it is defined
          const DenseTask<position_task, Model> dense(model, q, qd, frame, rf);
          Data<Model> data(model);
          OperationalSpaceInertia<double, position_task> lambda;
          TaskInverse<Model, position_task> jbar(7, position_task);
          typename Model::Matrix N(7, 7);
          null_space_projector(model, data, q, frame, rf, lambda, jbar, N);
          if (lambda.rcond > 1e-6) {
            const Eigen::MatrixXd n_dense =
                Eigen::MatrixXd::Identity(7, 7) - dense.jbar * dense.J;
            const double e = relative_error(Eigen::MatrixXd(N), n_dense);
            CHECK(e < 1e-12 / lambda.rcond);
            worst_n = std::max(worst_n, e);
          }
          for (std::size_t j = 0; j < 7; ++j) {  // J's columns off F's support
            if (!model.supports(j, link)) CHECK(dense.J.col(Eigen::Index(j)).isZero(0.0));
          }
        }
      }
    }
  };
  const OsTree tree(test::random_links<OsTree>(gen, true));
  check(tree);
  check(TreeX<double>::from(tree));
  WARN("tree: worst relative errors against the dense route: Lambda^-1 "
       << worst_inv << ", Lambda " << worst_lambda << ", mu/p " << worst_bias << ", Jbar "
       << worst_jbar << ", N " << worst_n << " (" << invertible << " of " << cases
       << " tasks invertible)");
  CHECK(worst_inv < 1e-10);
  CHECK(invertible > cases / 4);
}

TEST_CASE("Jbar is a right inverse of J; the null-space projector is idempotent, J N = 0 and M-orthogonal to the task",
          "[operational_space]") {
  const auto iiwa = robots::kuka_iiwa();
  using Arm = robots::KukaIiwa<double>;
  std::mt19937 gen(test::kSeed + 310u);
  Data<Arm> data;
  for (int s = 0; s < 10; ++s) {
    const Arm::Vector q = test::random_state<Arm::Vector>(gen, 2.0);
    const auto frame = iiwa.frame(6, Transform<double>(test::random_rotation(gen),
                                                        test::random_vector(gen, -0.2, 0.2)));
    const ReferenceFrame rf = s % 2 ? ReferenceFrame::world : ReferenceFrame::local;
    INFO("state " << s);
    const Arm::Matrix M = crba(iiwa, q);
    // the dense references in dynamic size (one LU, one eigen-solver for the whole source)
    const Eigen::MatrixXd Minv = Eigen::MatrixXd(M).inverse();
    {
      OperationalSpaceInertia<double, pose_task> lambda;
      TaskInverse<Arm, pose_task> jbar;
      Arm::Matrix N;
      null_space_projector(iiwa, data, q, frame, rf, lambda, jbar, N);
      const FrameJacobian<Arm> J = jacobian(iiwa, q, frame, rf);
      CHECK(relative_error(J * jbar, Eigen::Matrix<double, 6, 6>::Identity()) < 1e-10);
      CHECK(relative_error(N * N, N) < 1e-10);
      CHECK((J * N).norm() < 1e-10 * J.norm());
      const Eigen::MatrixXd Nd = N;
      CHECK(relative_error(Nd * Minv, Eigen::MatrixXd(Minv * Nd.transpose())) < 1e-10);
      CHECK((jbar.transpose() * M * N).norm() < 1e-9 * M.norm());
      // the projector does not depend on the task coordinates, and the returning form agrees
      CHECK(relative_error(null_space_projector(iiwa, q, frame), N) < 1e-10);
      // rank: 7 joints, 6 task rows, a one-dimensional null space
      CHECK(std::abs(N.trace() - 1.0) < 1e-9);
    }
    {
      OperationalSpaceInertia<double, position_task> lambda;
      TaskInverse<Arm, position_task> jbar;
      Arm::Matrix N;
      null_space_projector(iiwa, data, q, frame, rf, lambda, jbar, N);
      const Eigen::Matrix<double, 3, 7> J = jacobian(iiwa, q, frame, rf).bottomRows<3>();
      CHECK(relative_error(J * jbar, Eigen::Matrix3d::Identity()) < 1e-10);
      CHECK(relative_error(N * N, N) < 1e-10);
      CHECK((J * N).norm() < 1e-10 * J.norm());
      CHECK(std::abs(N.trace() - 4.0) < 1e-9);
      CHECK(relative_error(null_space_projector<position_task>(iiwa, q, frame), N) < 1e-10);
    }
  }
}

TEST_CASE("near a singular configuration Lambda^-1 stays defined and rcond falls; at it Lambda is NaN and rcond 0",
          "[operational_space]") {
  const auto iiwa = robots::kuka_iiwa();
  using Arm = robots::KukaIiwa<double>;
  const auto flange = iiwa.frame(6);
  // q = 0: the iiwa stretched upright, joints 1, 3, 5 and 7 on one axis (a rank-deficient J).
  // Approach it along a path q = eps * d: Lambda^-1 is continuous, its conditioning falls.
  Arm::Vector d;
  d << 0.3, 1.0, -0.2, -1.0, 0.4, 1.0, 0.1;
  double previous_rcond = 1;
  for (const double eps : {0.5, 0.1, 1e-2, 1e-3, 1e-4}) {
    INFO("eps " << eps);
    const Arm::Vector q = eps * d;
    const auto os = operational_space_inertia(iiwa, q, flange);
    const auto dense = operational_space_inertia_dense(iiwa, q, flange);
    CHECK(relative_error(os.Lambda_inv, dense.Lambda_inv) < 1e-10);
    CHECK(os.rcond < previous_rcond);
    previous_rcond = os.rcond;
    if (os.rcond > 0) CHECK(os.Lambda.allFinite());
  }
  CHECK(previous_rcond < 1e-6);
  // at q = 0 itself: Lambda^-1 is the dense one, positive semi-definite and singular
  const Arm::Vector zero = Arm::Vector::Zero();
  const auto os = operational_space_inertia(iiwa, zero, flange);
  CHECK(relative_error(os.Lambda_inv, operational_space_inertia_dense(iiwa, zero, flange).Lambda_inv) <
        1e-12);
  const Eigen::VectorXd eigenvalues = test::symmetric_eigenvalues(os.Lambda_inv);
  CHECK(eigenvalues.minCoeff() > -1e-12);
  CHECK(eigenvalues.minCoeff() < 1e-12 * eigenvalues.maxCoeff());
  CHECK((os.rcond == 0 || os.rcond < 1e-12));
  if (os.rcond == 0) CHECK(os.Lambda.hasNaN());
  // the flange's position task is singular there too: joints 2, 4 and 6 (parallel axes) all
  // move it along x, the others turn it about its own axis
  const auto pos = operational_space_inertia<position_task>(iiwa, zero, flange);
  CHECK(pos.rcond < 1e-12);
}

TEST_CASE("a frame on the base: Lambda^-1 = 0, rcond 0, Jbar = 0, N = 1", "[operational_space]") {
  const auto iiwa = robots::kuka_iiwa();
  using Arm = robots::KukaIiwa<double>;
  const auto base = iiwa.base_frame(Transform<double>::Translation(Eigen::Vector3d(0.1, 0, 0)));
  const Arm::Vector q = Arm::Vector::Constant(0.3);
  const auto os = operational_space_dynamics(iiwa, q, q, base);
  CHECK(os.Lambda_inv.isZero());
  CHECK(os.rcond == 0);
  CHECK(os.mu.isZero());
  CHECK(os.p.isZero());
  CHECK(dynamically_consistent_inverse(iiwa, q, base).isZero());
  CHECK(null_space_projector(iiwa, q, base) == Arm::Matrix::Identity());
}

TEST_CASE("operational-space forms of a ChainX check their sizes; a compile-time chain's are noexcept",
          "[operational_space]") {
  std::mt19937 gen(test::kSeed + 320u);
  using X = ChainX<double>;
  const X model = test::random_model<X>(gen);
  const auto n = Eigen::Index(model.joint_count());
  Data<X> data(model);
  const X::Vector q = X::Vector::Zero(n);
  OperationalSpaceInertia<double> lambda;
  TaskInverse<X> jbar(n - 1, 6);
  X::Matrix N(n, n);
  CHECK_THROWS_AS(dynamically_consistent_inverse(model, data, q, model.frame(2),
                                                 ReferenceFrame::world, lambda, jbar),
                  ArgumentError);
  jbar.resize(n, 6);
  CHECK_NOTHROW(null_space_projector(model, data, q, model.frame(2), ReferenceFrame::world,
                                     lambda, jbar, N));
  const X::Vector short_q = X::Vector::Zero(n - 1);
  CHECK_THROWS_AS(operational_space_inertia(model, data, short_q, model.frame(2),
                                            ReferenceFrame::world, lambda),
                  ArgumentError);
  CHECK_THROWS_AS(operational_space_inertia(model, Eigen::VectorXd::Zero(n + 1), model.frame(2)),
                  ArgumentError);

  const auto iiwa = robots::kuka_iiwa();
  using Arm = robots::KukaIiwa<double>;
  Data<Arm> arm_data;
  const Arm::Vector aq = Arm::Vector::Zero();
  OperationalSpaceDynamics<double, position_task> dyn;
  TaskInverse<Arm, position_task> ajbar;
  Arm::Matrix aN;
  const auto flange = iiwa.frame(6);
  static_assert(noexcept(operational_space_inertia(iiwa, arm_data, aq, flange,
                                                   ReferenceFrame::world, dyn)));
  static_assert(noexcept(operational_space_dynamics(iiwa, arm_data, aq, aq, flange,
                                                    ReferenceFrame::world, dyn)));
  static_assert(noexcept(null_space_projector(iiwa, arm_data, aq, flange, ReferenceFrame::world,
                                              dyn, ajbar, aN)));
}

TEST_CASE("several frames at once: the stacked Lambda^-1 equals J M^-1 J^T of the stacked Jacobian",
          "[operational_space]") {
  std::mt19937 gen(test::kSeed + 330u);
  // a ChainX of 14 joints (enough for two 6-D tasks) and the iiwa (7: the stacked task singular)
  std::vector<Link<double>> links;
  std::vector<JointKind> kinds;
  for (int i = 0; i < 14; ++i) {
    links.push_back(test::random_link(gen));
    kinds.push_back(i % 4 == 2 ? JointKind::prismatic : JointKind::revolute);
  }
  using X = ChainX<double>;
  const X chain(links, kinds);
  const X iiwa = X::from(robots::kuka_iiwa());
  for (const X* model : {&chain, &iiwa}) {
    const auto n = Eigen::Index(model->joint_count());
    for (int s = 0; s < 4; ++s) {
      const X::Vector q = test::random_state<X::Vector>(gen, 2.0, n);
      const std::size_t la = std::size_t(gen() % std::uint32_t(n)), lb = std::size_t(n - 1);
      const std::array<FrameFor<X>, 2> frames{
          model->frame(lb, Transform<double>::Translation(test::random_vector(gen, -0.2, 0.2))),
          model->frame(la, Transform<double>(test::random_rotation(gen),
                                              test::random_vector(gen, -0.2, 0.2)))};
      for (const ReferenceFrame rf : {ReferenceFrame::world, ReferenceFrame::local}) {
        INFO("n " << n << ", state " << s << ", links " << lb << ", " << la);
        const auto both = operational_space_inertia(*model, q, frames, rf);
        Eigen::MatrixXd J(12, n);
        J << jacobian(*model, q, frames[0], rf), jacobian(*model, q, frames[1], rf);
        const Eigen::MatrixXd M = crba(*model, q);
        const Eigen::MatrixXd lambda_inv = J * M.llt().solve(J.transpose());
        CHECK(relative_error(both.Lambda_inv, lambda_inv) < 1e-10);
        // the diagonal blocks are the single frames'
        CHECK(relative_error(both.Lambda_inv.topLeftCorner<6, 6>(),
                             operational_space_inertia(*model, q, frames[0], rf).Lambda_inv) <
              1e-12);
        CHECK(relative_error(both.Lambda_inv.bottomRightCorner<6, 6>(),
                             operational_space_inertia(*model, q, frames[1], rf).Lambda_inv) <
              1e-12);
        if (n < 12) {
          CHECK(both.rcond < 1e-8);  // 12 task rows, 7 joints: singular
        } else if (both.rcond > 1e-6) {
          CHECK(relative_error(both.Lambda * lambda_inv, Eigen::MatrixXd::Identity(12, 12)) <
                1e-12 / both.rcond);
        }
      }
    }
  }
}

// Two hands of a tree at once: the stacked Lambda^-1 against J M^-1 J^T of the stacked Jacobian
// (dense M of the whole tree), for frames on two branches of joint 1 (links 2 and 4), on
// branches meeting at the root (4 and 6), on one path (1 and 4), on one link, and with one frame
// on the base; the diagonal blocks are the single frames'.
TEST_CASE("on a tree, several frames at once: the stacked Lambda^-1 equals J M^-1 J^T, the cross "
          "terms through the common ancestors",
          "[operational_space][trees]") {
  std::mt19937 gen(test::kSeed + 340u);
  const OsTree tree(test::random_links<OsTree>(gen, true));
  double worst = 0;
  const auto check = [&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    using Vector = typename Model::Vector;
    const std::pair<std::size_t, std::size_t> pairs[] = {{2, 4}, {4, 6}, {1, 4}, {6, 6}};
    for (int s = 0; s < 3; ++s) {
      const Vector q = test::random_state<Vector>(gen, 3.0, 7);
      const Eigen::MatrixXd M = crba(model, q);
      for (const auto& [la, lb] : pairs) {
        const std::array<FrameFor<Model>, 2> hands{
            model.frame(la, Transform<double>(test::random_rotation(gen),
                                              test::random_vector(gen, -0.2, 0.2))),
            model.frame(lb, Transform<double>::Translation(test::random_vector(gen, -0.2, 0.2)))};
        for (const ReferenceFrame rf : {ReferenceFrame::world, ReferenceFrame::local}) {
          INFO("state " << s << ", links " << la << ", " << lb);
          const auto both = operational_space_inertia(model, q, hands, rf);
          Eigen::MatrixXd J(12, 7);
          J << jacobian(model, q, hands[0], rf), jacobian(model, q, hands[1], rf);
          const Eigen::MatrixXd dense = J * M.llt().solve(J.transpose());
          const double e = relative_error(both.Lambda_inv, dense);
          CHECK(e < 1e-10);
          worst = std::max(worst, e);
          CHECK(both.Lambda_inv == both.Lambda_inv.transpose());
          CHECK(relative_error(both.Lambda_inv.template topLeftCorner<6, 6>(),
                               operational_space_inertia(model, q, hands[0], rf).Lambda_inv) <
                1e-12);
          CHECK(relative_error(both.Lambda_inv.template bottomRightCorner<6, 6>(),
                               operational_space_inertia(model, q, hands[1], rf).Lambda_inv) <
                1e-12);
          if (la == 4 && lb == 6) {
            // the branches meet at the root: the cross block is joint 0's term alone, rank one
            const Eigen::MatrixXd cross = both.Lambda_inv.template topRightCorner<6, 6>();
            CHECK(Eigen::FullPivLU<Eigen::MatrixXd>(cross).setThreshold(1e-10).rank() == 1);
          }
          // 12 task rows, 7 joints: singular (rcond 0 or tiny)
          CHECK(both.rcond < 1e-8);
        }
      }
      // a frame on the base: its rows and columns are zero
      const std::array<FrameFor<Model>, 2> with_base{model.base_frame(), model.frame(4)};
      const auto os = operational_space_inertia(model, q, with_base);
      CHECK(os.Lambda_inv.template topRows<6>().isZero(0.0));
      CHECK(os.Lambda_inv.template leftCols<6>().isZero(0.0));
      CHECK(relative_error(os.Lambda_inv.template bottomRightCorner<6, 6>(),
                           operational_space_inertia(model, q, model.frame(4)).Lambda_inv) < 1e-12);
    }
  };
  check(tree);
  check(TreeX<double>::from(tree));
  WARN("two frames of a tree: worst relative error of Lambda^-1 against the dense route " << worst);
}

// --- The dense Cholesky kernels under operational_space and forward_dynamics_crba ----------

namespace {

/// detail::cholesky_factor and detail::cholesky_solve on the symmetric positive definite m
/// against Eigen's LLT: L's lower triangle, the solve, L's strictly upper triangle as it was.
template <typename Matrix>
void check_dense_cholesky(const Matrix& m, std::mt19937& gen, const double tolerance) {
  using Scalar = typename Matrix::Scalar;
  using Dense = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<Scalar, Matrix::RowsAtCompileTime, 1>;
  const Eigen::Index n = m.rows();
  INFO("n = " << n);
  Matrix l = Matrix::Constant(n, n, Scalar(7));
  detail::cholesky_factor(m, l);
  const Eigen::LLT<Dense> llt{Dense(m)};
  REQUIRE(llt.info() == Eigen::Success);
  CHECK(relative_error(Dense(l.template triangularView<Eigen::Lower>()), Dense(llt.matrixL())) <
        tolerance);
  bool upper_untouched = true;
  for (Eigen::Index j = 1; j < n; ++j) {
    for (Eigen::Index i = 0; i < j; ++i) upper_untouched = upper_untouched && l(i, j) == Scalar(7);
  }
  CHECK(upper_untouched);
  Vector x = test::random_state<Vector>(gen, 5.0, n).template cast<Scalar>();
  const Vector b = x;
  detail::cholesky_solve(l, x);
  CHECK(relative_error(x, llt.solve(b)) < tolerance);
}

/// A random symmetric positive definite n x n matrix, A A^T + n I (well conditioned), with
/// NaN above the diagonal (the factorization reads the lower triangle only).
template <typename Matrix>
Matrix random_spd(std::mt19937& gen, const Eigen::Index n) {
  std::normal_distribution<double> normal;
  Eigen::MatrixXd a(n, n);
  for (Eigen::Index i = 0; i < a.size(); ++i) a(i) = normal(gen);
  Eigen::MatrixXd m = a * a.transpose() + double(n) * Eigen::MatrixXd::Identity(n, n);
  m.triangularView<Eigen::StrictlyUpper>().setConstant(std::numeric_limits<double>::quiet_NaN());
  return m.cast<typename Matrix::Scalar>();
}

}  // namespace

TEST_CASE("dense Cholesky: L L^T = M and the solve equal Eigen's LLT at every size path",
          "[cholesky]") {
  std::mt19937 gen(test::kSeed + 700u);
  // run-time sizes: 1 ... 8 a single unrolled block, 9 ... 20 a first panel of n mod 8 and
  // panels of 8, 61 and 67 neither a multiple of the panel nor of a SIMD packet
  for (const Eigen::Index n :
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 61, 64, 67}) {
    check_dense_cholesky(random_spd<Eigen::MatrixXd>(gen, n), gen, 1e-12);
  }
  check_dense_cholesky(random_spd<Eigen::MatrixXf>(gen, 61), gen, 2e-5);
  // compile-time sizes: unrolled whole (7), blocked (17: a first panel of one; 64)
  check_dense_cholesky(random_spd<Eigen::Matrix<double, 7, 7>>(gen, 7), gen, 1e-12);
  check_dense_cholesky(random_spd<Eigen::Matrix<double, 17, 17>>(gen, 17), gen, 1e-12);
  auto m64 = std::make_unique<Eigen::Matrix<double, 64, 64>>(random_spd<Eigen::MatrixXd>(gen, 64));
  check_dense_cholesky(*m64, gen, 1e-12);
}

TEST_CASE("dense Cholesky: forward_dynamics_crba on ChainX of 61 and 67 joints solves M qdd = "
          "tau - h - friction",
          "[cholesky]") {
  std::mt19937 gen(test::kSeed + 701u);
  for (const Eigen::Index n : {Eigen::Index(61), Eigen::Index(67)}) {
    std::vector<Link<double>> links;
    for (Eigen::Index i = 0; i < n; ++i) links.push_back(test::random_link(gen, true));
    const ChainX<double> model(links);
    Data<ChainX<double>> data(model);
    const Eigen::VectorXd q = test::random_state<Eigen::VectorXd>(gen, 3.1, n);
    const Eigen::VectorXd qd = test::random_state<Eigen::VectorXd>(gen, 2.0, n);
    const Eigen::VectorXd tau = test::random_state<Eigen::VectorXd>(gen, 20.0, n);
    forward_dynamics_crba(model, data, q, qd, tau);
    const Eigen::VectorXd rhs = tau - data.nle - friction_torques(model, qd);
    // the residual relative to |M| |qdd| + |rhs| (backward stable whatever M's conditioning),
    // and the factor against Eigen's LLT of the same M (within its condition number)
    const Eigen::VectorXd residual = data.M * data.qdd - rhs;
    const double scale = data.M.cwiseAbs().maxCoeff() * data.qdd.cwiseAbs().maxCoeff() +
                         rhs.cwiseAbs().maxCoeff();
    INFO("n = " << n << ", residual " << residual.cwiseAbs().maxCoeff() << ", scale " << scale);
    CHECK(residual.cwiseAbs().maxCoeff() < 1e-13 * scale);
    const Eigen::MatrixXd l = data.L.triangularView<Eigen::Lower>();
    const Eigen::LLT<Eigen::MatrixXd> llt(data.M);
    CHECK(relative_error(l, Eigen::MatrixXd(llt.matrixL())) <
          1e-14 * test::condition_number(data.M));
    CHECK(relative_error(Eigen::MatrixXd(l * l.transpose()), data.M) < 1e-13);
  }
}
