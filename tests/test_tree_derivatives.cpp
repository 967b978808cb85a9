// rnea_derivatives and aba_derivatives on kinematic trees (Tree, TreeX) against independent
// paths: central finite differences of rnea and aba, forward-mode AutoDiff through them, the branch-induced zeros of d tau / d q
// and d tau / d qd, M^-1 from crba, a tree whose branches are independent chains giving each
// chain's derivatives, the run-time TreeX giving the compile-time Tree's numbers, and a TreeX
// whose parents are i - 1 (the tree's code) giving the chain's (the chain's code).
#include "support/test_support.hpp"

#include <chaindyn/algorithms/aba_derivatives.hpp>
#include <chaindyn/algorithms/crba.hpp>
#include <chaindyn/algorithms/rnea_derivatives.hpp>
#include <chaindyn/model/tree.hpp>

#include <catch2/catch.hpp>
#include <unsupported/Eigen/AutoDiff>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

// Branches at depths 0, 1 and 2 and a second root: joint 0 carries 1 and 7, joint 1 carries 2
// and 5, joint 2 carries 3 and 4; joint 8 is on the base.
using DerivTree = Tree<double, Parents<-1, 0, 1, 2, 2, 1, 5, 0, -1>, RevoluteZ, Revolute,
                       PrismaticY, Revolute, RevoluteX, Prismatic, Revolute, RevoluteY, Revolute>;
// 12 joints at run time, numbered breadth first (no subtree is a contiguous range of indices),
// two roots.
const std::vector<std::size_t> kDerivTreeXParents = {no_parent, 0, 0, 1, 2, 1, 3, no_parent,
                                                     7, 4, 5, 2};

// the in-place forms are noexcept on a compile-time tree
static_assert(noexcept(rnea_derivatives(std::declval<const DerivTree&>(),
                                        std::declval<DerivativesData<DerivTree>&>(),
                                        std::declval<const DerivTree::Vector&>(),
                                        std::declval<const DerivTree::Vector&>(),
                                        std::declval<const DerivTree::Vector&>())));
static_assert(noexcept(aba_derivatives(std::declval<const DerivTree&>(),
                                       std::declval<DerivativesData<DerivTree>&>(),
                                       std::declval<const DerivTree::Vector&>(),
                                       std::declval<const DerivTree::Vector&>(),
                                       std::declval<const DerivTree::Vector&>())));

TreeX<double> random_deriv_treex(std::mt19937& gen) {
  std::vector<Link<double>> links;
  std::vector<JointKind> kinds;
  for (std::size_t i = 0; i < kDerivTreeXParents.size(); ++i) {
    links.push_back(test::random_link(gen, true));
    kinds.push_back(i % 3 == 2 ? JointKind::prismatic : JointKind::revolute);
  }
  return TreeX<double>(links, kinds, kDerivTreeXParents);
}

template <typename Model>
typename Model::Vector random_joint_vector(const Model& model, std::mt19937& gen, double range) {
  return test::random_state<typename Model::Vector>(gen, range,
                                                    Eigen::Index(model.joint_count()));
}

/// Central differences of f(x[0], x[1], x[2]) with respect to x[which].
template <typename Vector, typename F>
Eigen::MatrixXd central_difference(const F& f, const Vector (&x)[3], int which) {
  const double h = 1e-6;
  const Eigen::Index n = x[0].size();
  Eigen::MatrixXd out(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    Vector plus[3] = {x[0], x[1], x[2]}, minus[3] = {x[0], x[1], x[2]};
    plus[which][j] += h;
    minus[which][j] -= h;
    out.col(j) = (f(plus[0], plus[1], plus[2]) - f(minus[0], minus[1], minus[2])) / (2 * h);
  }
  return out;
}

template <typename Model>
bool on_one_root_path(const Model& model, Eigen::Index i, Eigen::Index j) {
  return model.supports(std::size_t(i), std::size_t(j)) ||
         model.supports(std::size_t(j), std::size_t(i));
}

template <typename Model>
void check_against_differences(const Model& model, std::mt19937& gen) {
  using Vector = typename Model::Vector;
  auto dd = std::make_unique<DerivativesData<Model>>(model);
  const Vector q = random_joint_vector(model, gen, 3.0), qd = random_joint_vector(model, gen, 2.0),
               qdd = random_joint_vector(model, gen, 2.0),
               tau = random_joint_vector(model, gen, 20.0);
  rnea_derivatives(model, *dd, q, qd, qdd);
  CHECK(relative_error(dd->data.tau, rnea(model, q, qd, qdd)) < 1e-13);
  const auto id = [&](const Vector& a, const Vector& b, const Vector& c) -> Vector {
    return rnea(model, a, b, c);
  };
  const Vector id_at[3] = {q, qd, qdd};
  CHECK(relative_error(dd->dtau_dq, central_difference(id, id_at, 0)) < 1e-6);
  CHECK(relative_error(dd->dtau_dqd, central_difference(id, id_at, 1)) < 1e-6);
  const Eigen::Index n = q.size();
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      if (!on_one_root_path(model, i, j)) {
        CHECK(dd->dtau_dq(i, j) == 0.0);
        CHECK(dd->dtau_dqd(i, j) == 0.0);
      }
    }
  }
  aba_derivatives(model, *dd, q, qd, tau);
  CHECK(relative_error(dd->data.qdd, aba(model, q, qd, tau)) < 1e-12);
  const auto fd = [&](const Vector& a, const Vector& b, const Vector& c) -> Vector {
    return aba(model, a, b, c);
  };
  const Vector fd_at[3] = {q, qd, tau};
  CHECK(relative_error(dd->dqdd_dq, central_difference(fd, fd_at, 0)) < 1e-6);
  CHECK(relative_error(dd->dqdd_dqd, central_difference(fd, fd_at, 1)) < 1e-6);
  const Eigen::MatrixXd m = crba(model, q);
  CHECK(relative_error((dd->dqdd_dtau * m).eval(), Eigen::MatrixXd::Identity(n, n)) < 1e-10);
}

}  // namespace

TEST_CASE("tree derivatives: central differences of rnea and aba; d tau / d q, d qd are zero "
          "across branches; d qdd / d tau = M^-1",
          "[trees][derivatives]") {
  std::mt19937 gen(test::kSeed + 20);
  for (int trial = 0; trial < 3; ++trial) {
    check_against_differences(DerivTree(test::random_links<DerivTree>(gen, true)), gen);
    check_against_differences(random_deriv_treex(gen), gen);
  }
}

TEST_CASE("tree derivatives: a TreeX gives the Tree's numbers; a TreeX of parents i - 1 the "
          "ChainX's",
          "[trees][derivatives]") {
  std::mt19937 gen(test::kSeed + 21);
  const auto same = [&gen](const auto& fixed, const auto& dynamic) {
    const auto q = random_joint_vector(fixed, gen, 3.0);
    const auto qd = random_joint_vector(fixed, gen, 2.0);
    const auto x = random_joint_vector(fixed, gen, 5.0);
    const auto r = rnea_derivatives(fixed, q, qd, x);
    const auto rx = rnea_derivatives(dynamic, q, qd, x);
    CHECK(relative_error(rx.dtau_dq, r.dtau_dq) < 1e-12);
    CHECK(relative_error(rx.dtau_dqd, r.dtau_dqd) < 1e-12);
    const auto a = aba_derivatives(fixed, q, qd, x);
    const auto ax = aba_derivatives(dynamic, q, qd, x);
    CHECK(relative_error(ax.dqdd_dq, a.dqdd_dq) < 1e-12);
    CHECK(relative_error(ax.dqdd_dqd, a.dqdd_dqd) < 1e-12);
    CHECK(relative_error(ax.dqdd_dtau, a.dqdd_dtau) < 1e-12);
  };
  const DerivTree tree(test::random_links<DerivTree>(gen, true));
  same(tree, TreeX<double>::from(tree));
  // 17 joints: the chain solves with M^-1 by ABA's passes, the tree in joint space
  std::vector<Link<double>> links;
  std::vector<std::size_t> parents;
  for (std::size_t i = 0; i < 17; ++i) {
    links.push_back(test::random_link(gen, true));
    parents.push_back(i == 0 ? no_parent : i - 1);
  }
  const std::vector<JointKind> kinds(17, JointKind::revolute);
  same(ChainX<double>(links, kinds), TreeX<double>(links, kinds, parents));
}

TEST_CASE("tree derivatives: branches that are independent chains on the base give each "
          "chain's derivatives, zero across",
          "[trees][derivatives]") {
  // joints 0 -> 1 -> 2 and 3 -> 4, both on the base; run-time models (the compile-time tree's
  // code is checked against them above)
  std::mt19937 gen(test::kSeed + 22);
  std::vector<Link<double>> links;
  for (int i = 0; i < 5; ++i) links.push_back(test::random_link(gen, true));
  const std::vector<JointKind> kinds = {JointKind::revolute, JointKind::revolute,
                                        JointKind::prismatic, JointKind::revolute,
                                        JointKind::revolute};
  const TreeX<double> tree(links, kinds, {no_parent, 0, 1, no_parent, 3});
  const ChainX<double> a({links[0], links[1], links[2]}, {kinds[0], kinds[1], kinds[2]});
  const ChainX<double> b({links[3], links[4]}, {kinds[3], kinds[4]});
  const Eigen::VectorXd q = random_joint_vector(tree, gen, 3.0);
  const Eigen::VectorXd qd = random_joint_vector(tree, gen, 2.0);
  const Eigen::VectorXd x = random_joint_vector(tree, gen, 5.0);
  const auto blocks = [](const Eigen::MatrixXd& t, const Eigen::MatrixXd& ma,
                         const Eigen::MatrixXd& mb) {
    CHECK(relative_error(t.topLeftCorner(3, 3), ma) < 1e-13);
    CHECK(relative_error(t.bottomRightCorner(2, 2), mb) < 1e-13);
    CHECK(t.topRightCorner(3, 2).isZero(0.0));
    CHECK(t.bottomLeftCorner(2, 3).isZero(0.0));
  };
  const auto r = rnea_derivatives(tree, q, qd, x);
  const auto ra = rnea_derivatives(a, q.head(3), qd.head(3), x.head(3));
  const auto rb = rnea_derivatives(b, q.tail(2), qd.tail(2), x.tail(2));
  blocks(r.dtau_dq, ra.dtau_dq, rb.dtau_dq);
  blocks(r.dtau_dqd, ra.dtau_dqd, rb.dtau_dqd);
  const auto f = aba_derivatives(tree, q, qd, x);
  const auto fa = aba_derivatives(a, q.head(3), qd.head(3), x.head(3));
  const auto fb = aba_derivatives(b, q.tail(2), qd.tail(2), x.tail(2));
  blocks(f.dqdd_dq, fa.dqdd_dq, fb.dqdd_dq);
  blocks(f.dqdd_dqd, fa.dqdd_dqd, fb.dqdd_dqd);
  blocks(f.dqdd_dtau, fa.dqdd_dtau, fb.dqdd_dtau);
}

TEST_CASE("tree derivatives: forward-mode AutoDiff through rnea and aba on a small tree with "
          "friction and armature",
          "[derivatives][trees]") {
  // 4 joints: two branches on joint 0 (every joint kind of the run-time and fixed axes)
  using Small = Tree<double, Parents<-1, 0, 0, 2>, RevoluteZ, Revolute, PrismaticY, RevoluteX>;
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 12, 1>>;
  using SmallAD = Tree<AD, Parents<-1, 0, 0, 2>, RevoluteZ, Revolute, PrismaticY, RevoluteX>;
  using V = Small::Vector;
  using ADV = SmallAD::Vector;
  std::mt19937 gen(test::kSeed + 4200);
  double worst = 0;
  for (int trial = 0; trial < 3; ++trial) {
    const auto links = test::random_links<Small>(gen, true);
    const Small tree(links);
    const SmallAD ad_tree(test::cast_links<AD>(links));
    const V q = test::random_state<V>(gen, 3.0), qd = test::random_state<V>(gen, 2.0),
            x = test::random_state<V>(gen, 2.0);
    // seed q, qd and the third argument: 12 directions
    ADV aq, aqd, ax;
    for (int i = 0; i < 4; ++i) {
      aq[i] = AD(q[i], 12, i);
      aqd[i] = AD(qd[i], 12, 4 + i);
      ax[i] = AD(x[i], 12, 8 + i);
    }
    const ADV tau = rnea(ad_tree, aq, aqd, ax);
    const ADV qdd = aba(ad_tree, aq, aqd, ax);
    Eigen::Matrix<double, 4, 12> jr, ja;
    for (int i = 0; i < 4; ++i) {
      jr.row(i) = tau[i].derivatives().transpose();
      ja.row(i) = qdd[i].derivatives().transpose();
    }
    const auto r = rnea_derivatives(tree, q, qd, x);
    const auto a = aba_derivatives(tree, q, qd, x);
    const double errors[] = {
        relative_error(r.dtau_dq, Eigen::Matrix4d(jr.leftCols<4>())),
        relative_error(r.dtau_dqd, Eigen::Matrix4d(jr.middleCols<4>(4))),
        relative_error(a.dqdd_dq, Eigen::Matrix4d(ja.leftCols<4>())),
        relative_error(a.dqdd_dqd, Eigen::Matrix4d(ja.middleCols<4>(4))),
        relative_error(a.dqdd_dtau, Eigen::Matrix4d(ja.rightCols<4>()))};
    for (const double e : errors) {
      CHECK(e < 1e-11);
      worst = std::max(worst, e);
    }
    // joints 1 and 3 are on different branches: no coupling
    CHECK(r.dtau_dq(1, 3) == 0.0);
    CHECK(r.dtau_dq(3, 1) == 0.0);
  }
  WARN("tree derivatives against AutoDiff: worst relative difference " << worst);
}
