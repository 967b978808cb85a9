// Kinematic trees (Tree, TreeX) against independent paths: the mass matrix from RNEA columns
// and its branch-induced zero pattern, ABA inverting RNEA, the CRBA-Cholesky route, the kinetic
// energy as 1/2 qd^T M qd, the inverse mass matrix, the Coriolis matrix (C qd, Mdot - 2C
// skew), the regressor, the frame Jacobian against finite
// differences of frame_pose (zero columns off the link's path to the base), Jdot qd and J^T f
// from it, frame velocities and accelerations from J and Jdot (and Jdot against differences of
// J), gravity torques as the potential energy's gradient, and a tree whose
// branches are independent chains on the base giving each chain's numbers. The topology's
// checks refuse a parent that does not come before its child. (Orocos KDL's tree solvers:
// tests/oracles/test_kdl_tree.cpp.)
#include "support/test_support.hpp"

#include <chaindyn/algorithms/aba.hpp>
#include <chaindyn/algorithms/coriolis.hpp>
#include <chaindyn/algorithms/crba.hpp>
#include <chaindyn/algorithms/energy.hpp>
#include <chaindyn/algorithms/forward_dynamics_crba.hpp>
#include <chaindyn/algorithms/frame_motion.hpp>
#include <chaindyn/algorithms/inverse_mass_matrix.hpp>
#include <chaindyn/algorithms/jacobian.hpp>
#include <chaindyn/algorithms/nonlinear_effects.hpp>
#include <chaindyn/algorithms/rnea.hpp>
#include <chaindyn/identification/regressor.hpp>
#include <chaindyn/model/tree.hpp>

#include <catch2/catch.hpp>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

// Two branches from joint 1 (2 and 3 -> 4) and a second branch from the root (5 -> 6): every
// joint kind and walk of a compile-time tree; 7 joints, so crba works in link coordinates.
using TreeT = Tree<double, Parents<-1, 0, 1, 1, 3, 0, 5>, RevoluteZ, Revolute, RevoluteY,
                   Prismatic, Revolute, RevoluteX, Revolute>;
// 12 joints at run time (crba in base coordinates), two of them on the base.
const std::vector<std::size_t> kTreeXParents = {no_parent, 0, 1, 2, 1, 4, 0, 6, 7, no_parent, 9, 9};

TreeT random_tree(std::mt19937& gen) {
  return TreeT(test::random_links<TreeT>(gen, true));
}

TreeX<double> random_treex(std::mt19937& gen) {
  std::vector<Link<double>> links;
  std::vector<JointKind> kinds;
  for (std::size_t i = 0; i < kTreeXParents.size(); ++i) {
    links.push_back(test::random_link(gen, true));
    kinds.push_back(i % 4 == 3 ? JointKind::prismatic : JointKind::revolute);
  }
  return TreeX<double>(links, kinds, kTreeXParents);
}

/// f(model) on a random Tree and a random TreeX (seeded).
template <typename F>
void for_trees(const F& f) {
  std::mt19937 gen(test::kSeed);
  for (int m = 0; m < 3; ++m) {
    f(random_tree(gen));
    f(random_treex(gen));
  }
}

template <typename Model>
typename Model::Vector random_vector_of(const Model& model, std::mt19937& gen, double scale) {
  const auto n = Eigen::Index(model.joint_count());
  typename Model::Vector v(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = test::uniform(gen, -scale, scale);
  return v;
}

}  // namespace

TEST_CASE("tree: M column i equals rnea(q, 0, e_i) - rnea(q, 0, 0); M_ij = 0 off a root path",
          "[trees]") {
  std::mt19937 gen(test::kSeed + 1);
  for_trees([&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    const auto n = Eigen::Index(model.joint_count());
    const typename Model::Vector q = random_vector_of(model, gen, 2.0);
    const typename Model::Vector zero = Model::Vector::Zero(n);
    const typename Model::Matrix m = crba(model, q);
    const typename Model::Vector bias = rnea(model, q, zero, zero);
    for (Eigen::Index i = 0; i < n; ++i) {
      const typename Model::Vector col = rnea(model, q, zero, Model::Vector::Unit(n, i)) - bias;
      CHECK(relative_error(m.col(i), col) < 1e-12);
      for (Eigen::Index j = 0; j < n; ++j) {
        const bool related = model.supports(std::size_t(i), std::size_t(j)) ||
                             model.supports(std::size_t(j), std::size_t(i));
        if (!related) CHECK(m(i, j) == 0.0);
        if (!related) CHECK(col[j] == 0.0);  // rnea itself: no coupling across branches
      }
    }
    CHECK(relative_error(m, m.transpose()) == 0.0);
  });
}

TEST_CASE("tree: aba(q, qd, rnea(q, qd, qdd)) = qdd, = forward_dynamics_crba, with wrenches",
          "[trees]") {
  std::mt19937 gen(test::kSeed + 2);
  for_trees([&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    const typename Model::Vector q = random_vector_of(model, gen, 2.0);
    const typename Model::Vector qd = random_vector_of(model, gen, 1.5);
    const typename Model::Vector qdd = random_vector_of(model, gen, 3.0);
    LinkForces<Model> f_ext = link_forces(model);
    for (auto& f : f_ext) {
      f = Force<double>(test::random_vector(gen, -2, 2), test::random_vector(gen, -5, 5));
    }
    const typename Model::Vector tau = rnea(model, q, qd, qdd);
    CHECK(relative_error(aba(model, q, qd, tau), qdd) < 1e-10);
    CHECK(relative_error(forward_dynamics_crba(model, q, qd, tau), qdd) < 1e-10);
    const typename Model::Vector tau_ext = rnea(model, q, qd, qdd, f_ext);
    CHECK(relative_error(aba(model, q, qd, tau_ext, f_ext), qdd) < 1e-10);
    // nonlinear_effects and gravity_torques are rnea's passes with terms off
    const typename Model::Vector zero = Model::Vector::Zero(q.size());
    const typename Model::Vector friction = friction_torques(model, qd);
    CHECK(relative_error(nonlinear_effects(model, q, qd) + crba(model, q) * qdd + friction, tau) <
          1e-11);
    CHECK(relative_error(gravity_torques(model, q), rnea(model, q, zero, zero)) < 1e-12);
  });
}

TEST_CASE("tree: forward_dynamics_crba's factor is sparse, L^T L = M, L(k, i) = 0 off k's root path",
          "[trees]") {
  std::mt19937 gen(test::kSeed + 8);
  for_trees([&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    Data<Model> data(model);
    const typename Model::Vector q = random_vector_of(model, gen, 2.0);
    const typename Model::Vector qd = random_vector_of(model, gen, 1.5);
    const typename Model::Vector tau = random_vector_of(model, gen, 10.0);
    forward_dynamics_crba(model, data, q, qd, tau);
    const typename Model::Matrix l = data.L.template triangularView<Eigen::Lower>();
    CHECK(relative_error((l.transpose() * l).eval(), data.M) < 1e-12);
    for (Eigen::Index k = 0; k < l.rows(); ++k) {
      for (Eigen::Index i = 0; i < k; ++i) {
        if (!model.supports(std::size_t(i), std::size_t(k))) CHECK(l(k, i) == 0.0);
      }
    }
    CHECK(relative_error(data.qdd, aba(model, q, qd, tau)) < 1e-10);
  });
}

TEST_CASE("tree: 1/2 qd^T M qd is the kinetic energy; inverse_mass_matrix is M^-1", "[trees]") {
  std::mt19937 gen(test::kSeed + 3);
  for_trees([&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    const typename Model::Vector q = random_vector_of(model, gen, 2.0);
    const typename Model::Vector qd = random_vector_of(model, gen, 1.5);
    const typename Model::Matrix m = crba(model, q);
    CHECK(relative_error(kinetic_energy(model, q, qd), 0.5 * qd.dot(m * qd)) < 1e-12);
    const auto n = m.rows();
    CHECK(relative_error(inverse_mass_matrix(model, q) * m, Model::Matrix::Identity(n, n)) <
          1e-10);
  });
}

TEST_CASE("tree: C qd = h - g, Mdot - 2C skew-symmetric, C_ij = 0 across branches", "[trees]") {
  std::mt19937 gen(test::kSeed + 10);
  for_trees([&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    const typename Model::Vector q = random_vector_of(model, gen, 2.0);
    const typename Model::Vector qd = random_vector_of(model, gen, 1.5);
    const typename Model::Matrix c = coriolis_matrix(model, q, qd);
    CHECK(relative_error((c * qd).eval(),
                         (nonlinear_effects(model, q, qd) - gravity_torques(model, q)).eval()) <
          1e-12);
    const double h = 1e-6;
    const typename Model::Matrix mdot =
        (crba(model, (q + h * qd).eval()) - crba(model, (q - h * qd).eval())) / (2 * h);
    const typename Model::Matrix skew = mdot - 2 * c;
    CHECK(relative_error(skew, (-skew.transpose()).eval()) < 1e-7);
    for (Eigen::Index i = 0; i < c.rows(); ++i) {
      for (Eigen::Index j = 0; j < c.rows(); ++j) {
        if (!model.supports(std::size_t(i), std::size_t(j)) &&
            !model.supports(std::size_t(j), std::size_t(i))) {
          CHECK(c(i, j) == 0.0);
        }
      }
    }
  });
}

TEST_CASE("tree: the regressor times the parameters is rnea", "[trees]") {
  std::mt19937 gen(test::kSeed + 9);
  for_trees([&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    const typename Model::Vector q = random_vector_of(model, gen, 2.0);
    const typename Model::Vector qd = random_vector_of(model, gen, 1.5);
    const typename Model::Vector qdd = random_vector_of(model, gen, 3.0);
    const auto y = regressor_with_joint_dynamics(model, q, qd, qdd);
    CHECK(relative_error((y * parameters_with_joint_dynamics(model)).eval(),
                         rnea(model, q, qd, qdd)) < 1e-11);
  });
}

TEST_CASE("tree: J is frame_pose's derivative, zero off the root path; Jdot qd, J^T f, dV/dq = g",
          "[trees]") {
  std::mt19937 gen(test::kSeed + 4);
  for_trees([&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    const typename Model::Vector q = random_vector_of(model, gen, 2.0);
    const typename Model::Vector qd = random_vector_of(model, gen, 1.0);
    for (std::size_t link = 0; link < model.joint_count(); ++link) {
      const auto J = jacobian(model, q, link);
      for (std::size_t j = 0; j < model.joint_count(); ++j) {
        if (!model.supports(j, link)) CHECK(J.col(Eigen::Index(j)).isZero(0.0));
      }
      // central differences of the link origin along qd: J_linear qd
      const double h = 1e-6;
      const Eigen::Vector3d p1 = frame_pose(model, (q + h * qd).eval(), link).translation;
      const Eigen::Vector3d p0 = frame_pose(model, (q - h * qd).eval(), link).translation;
      const Eigen::Vector3d v = J.template bottomRows<3>() * qd;
      CHECK(relative_error(v, ((p1 - p0) / (2 * h)).eval()) < 1e-7);
      // Jdot qd (world) is d/dt (J qd) at qdd = 0; J^T f is joint_torques_from_wrench
      const Eigen::Matrix<double, 6, 1> jdot =
          ((jacobian(model, (q + h * qd).eval(), link) - jacobian(model, (q - h * qd).eval(), link)) *
           qd / (2 * h));
      CHECK(relative_error(jdot_qd(model, q, qd, link), jdot) < 1e-6);
      const Force<double> wrench(test::random_vector(gen, -2, 2), test::random_vector(gen, -5, 5));
      Eigen::Matrix<double, 6, 1> f6;
      f6 << wrench.angular, wrench.linear;
      CHECK(relative_error(joint_torques_from_wrench(model, q, link, wrench, ReferenceFrame::world),
                           (J.transpose() * f6).eval()) < 1e-12);
    }
    // gravity torques are the gradient of the potential energy
    const double h = 1e-6;
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      const typename Model::Vector e = Model::Vector::Unit(q.size(), i);
      const double dv = (potential_energy(model, (q + h * e).eval()) -
                         potential_energy(model, (q - h * e).eval())) / (2 * h);
      CHECK(std::abs(dv - gravity_torques(model, q)[i]) < 1e-6 * std::max(1.0, std::abs(dv)));
    }
  });
}

TEST_CASE("tree: frame_velocity = J qd, frame accelerations = J qdd + Jdot qd, Jdot = dJ/dt "
          "(zero off the root path)",
          "[trees]") {
  std::mt19937 gen(test::kSeed + 11);
  for_trees([&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    using Vec6 = Eigen::Matrix<double, 6, 1>;
    const typename Model::Vector q = random_vector_of(model, gen, 2.0);
    const typename Model::Vector qd = random_vector_of(model, gen, 1.0);
    const typename Model::Vector qdd = random_vector_of(model, gen, 2.0);
    const double h = 1e-6;
    for (std::size_t link = 0; link < model.joint_count(); ++link) {
      const auto frame = model.frame(link, Transform<double>::Translation({0.1, -0.2, 0.05}));
      for (const ReferenceFrame rf : {ReferenceFrame::world, ReferenceFrame::local}) {
        const auto J = jacobian(model, q, frame, rf);
        const auto jdot = jacobian_time_derivative(model, q, qd, frame, rf);
        const auto jdot_fd = ((jacobian(model, (q + h * qd).eval(), frame, rf) -
                               jacobian(model, (q - h * qd).eval(), frame, rf)) /
                              (2 * h))
                                 .eval();
        CHECK(relative_error(jdot, jdot_fd) < 1e-6);
        for (std::size_t j = 0; j < model.joint_count(); ++j) {
          if (!model.supports(j, link)) CHECK(jdot.col(Eigen::Index(j)).isZero(0.0));
        }
        const Vec6 v = frame_velocity(model, q, qd, frame, rf).vector();
        CHECK(relative_error(v, (J * qd).eval()) < 1e-12);
        const Vec6 a = (J * qdd + jdot * qd).eval();
        if (rf == ReferenceFrame::local) {
          CHECK(relative_error(frame_acceleration(model, q, qd, qdd, frame, rf).vector(), a) <
                1e-12);
        } else {
          CHECK(relative_error(
                    frame_classical_acceleration(model, q, qd, qdd, frame, rf).vector(), a) <
                1e-12);
        }
      }
    }
  });
}

TEST_CASE("tree: branches that are independent chains on the base give each chain's numbers",
          "[trees]") {
  using Branches = Tree<double, Parents<-1, 0, 1, -1, 3>, Revolute, Revolute, Prismatic,
                        Revolute, Revolute>;
  using A = Chain<double, Revolute, Revolute, Prismatic>;
  using B = ChainN<double, 2, Revolute>;
  std::mt19937 gen(test::kSeed + 5);
  const std::vector<Link<double>> links = test::random_links<Branches>(gen, true);
  const Branches tree(links);
  const A a({links[0], links[1], links[2]});
  const B b({links[3], links[4]});
  const Branches::Vector q = random_vector_of(tree, gen, 2.0);
  const Branches::Vector qd = random_vector_of(tree, gen, 1.5);
  const Branches::Vector qdd = random_vector_of(tree, gen, 3.0);
  const auto check = [](const auto& tree_part, const auto& chain) {
    CHECK(relative_error(tree_part, chain) < 1e-14);
  };
  const Branches::Vector tau = rnea(tree, q, qd, qdd);
  check(tau.head<3>(), rnea(a, q.head<3>(), qd.head<3>(), qdd.head<3>()));
  check(tau.tail<2>(), rnea(b, q.tail<2>(), qd.tail<2>(), qdd.tail<2>()));
  const Branches::Matrix m = crba(tree, q);
  check(m.topLeftCorner<3, 3>(), crba(a, q.head<3>()));
  check(m.bottomRightCorner<2, 2>(), crba(b, q.tail<2>()));
  CHECK(m.topRightCorner<3, 2>().isZero(0.0));
  const Branches::Vector acc = aba(tree, q, qd, tau);
  check(acc.head<3>(), aba(a, q.head<3>(), qd.head<3>(), tau.head<3>()));
  check(acc.tail<2>(), aba(b, q.tail<2>(), qd.tail<2>(), tau.tail<2>()));
  const Transform<double> pose = frame_pose(tree, q, 4);
  const Transform<double> pose_b = frame_pose(b, q.tail<2>(), 1);
  check(pose.rotation, pose_b.rotation);
  check(pose.translation, pose_b.translation);
  // the same tree at run time
  const TreeX<double> x = TreeX<double>::from(tree);
  CHECK(relative_error(rnea(x, q, qd, qdd), tau) < 1e-14);
  CHECK(relative_error(aba(x, q, qd, tau), acc) < 1e-14);
  CHECK(relative_error(crba(x, q), m) < 1e-14);
}

TEST_CASE("tree: a Tree whose parents are i - 1 is a chain; names map to indices", "[trees]") {
  using AsChain = Tree<double, Parents<-1, 0, 1>, Revolute, RevoluteZ, Prismatic>;
  static_assert(AsChain::serial);
  static_assert(!TreeT::serial);
  static_assert(TreeT::parent(4) == 3 && TreeT::parent(5) == 0 && TreeT::parent(0) == no_parent);
  std::mt19937 gen(test::kSeed + 6);
  std::vector<Link<double>> links = test::random_links<TreeT>(gen);
  for (std::size_t i = 0; i < links.size(); ++i) {
    links[i].name = "link" + std::to_string(i);
    links[i].joint_name = "joint" + std::to_string(i);
  }
  const TreeT tree(links);
  CHECK(tree.link_index("link5") == 5);
  CHECK(tree.joint_index("joint3") == 3);
  CHECK_THROWS_AS(tree.link_index("hand"), IndexError);
  CHECK(tree.supports(1, 4));
  CHECK(!tree.supports(2, 4));
  CHECK(!tree.supports(5, 4));
  CHECK(TreeT::parents() == std::vector<std::size_t>{no_parent, 0, 1, 1, 3, 0, 5});
}

TEST_CASE("tree: TreeX refuses a parent after its child and a parent count that differs",
          "[trees]") {
  std::mt19937 gen(test::kSeed + 7);
  const std::vector<Link<double>> links = {test::random_link(gen), test::random_link(gen),
                                           test::random_link(gen)};
  const std::vector<JointKind> kinds(3, JointKind::revolute);
  CHECK_THROWS_WITH(TreeX<double>(links, kinds, {no_parent, 2, 0}),
                    Catch::Contains("joint 1's parent is joint 2"));
  CHECK_THROWS_AS(TreeX<double>(links, kinds, {no_parent, 1, 0}), ModelError);
  CHECK_THROWS_AS(TreeX<double>(links, kinds, {no_parent, 0}), ModelError);
  CHECK_NOTHROW(TreeX<double>(links, kinds, {no_parent, no_parent, 0}));
}
