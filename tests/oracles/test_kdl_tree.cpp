// Oracle: chaindyn's trees against Orocos KDL's tree solvers (TreeIdSolver_RNE,
// TreeFkSolverPos_recursive, TreeJntToJacSolver) on random trees of revolute joints with
// arbitrary axes: inverse dynamics (with external wrenches), every link's pose and Jacobian.
// Our link i is one KDL segment hooked on the segment of its parent link (or on the root), as
// in test_kdl.cpp; segments added in joint order get KDL joint numbers in our joint order.

// (test_kdl.cpp: Eigen's allocation scheme must match the prebuilt library's under ASan.)
#include <climits>
#if defined(__SANITIZE_ADDRESS__) && defined(__GLIBC__) && defined(__LP64__) && \
    !defined(EIGEN_MALLOC_ALREADY_ALIGNED)
#define EIGEN_MALLOC_ALREADY_ALIGNED 1
#endif

#include "support/test_support.hpp"

#include <chaindyn/algorithms/jacobian.hpp>
#include <chaindyn/algorithms/rnea.hpp>
#include <chaindyn/model/tree.hpp>

#include <catch2/catch.hpp>

#include <kdl/tree.hpp>
#include <kdl/treefksolverpos_recursive.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>
#include <kdl/treejnttojacsolver.hpp>

#include <string>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

KDL::Vector tree_kdl(const Eigen::Vector3d& v) { return KDL::Vector(v.x(), v.y(), v.z()); }

KDL::Frame tree_kdl(const Transform<double>& x) {
  const Eigen::Matrix3d& r = x.rotation;
  return KDL::Frame(KDL::Rotation(r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0),
                                  r(2, 1), r(2, 2)),
                    tree_kdl(x.translation));
}

/// Link i as a KDL segment: the joint turns about the placement-rotated axis through the
/// placement's origin in the parent's frame; the tip is link i's frame (test_kdl.cpp).
KDL::Segment tree_segment(const Link<double>& l, const Eigen::Vector3d& axis) {
  const KDL::Frame placement = tree_kdl(l.placement);
  const KDL::Joint joint(l.name + "_joint", placement.p, placement.M * tree_kdl(axis),
                         KDL::Joint::RotAxis);
  const Eigen::Matrix3d& i = l.inertia;
  return KDL::Segment(l.name, joint, placement,
                      KDL::RigidBodyInertia(l.mass, tree_kdl(l.com),
                                            KDL::RotationalInertia(i(0, 0), i(1, 1), i(2, 2),
                                                                   i(0, 1), i(0, 2), i(1, 2))));
}

}  // namespace

TEST_CASE("KDL tree solvers: rnea (with wrenches), link poses and Jacobians of random trees",
          "[kdl][trees]") {
  // 9 joints: two branches from joint 1, one from the root, and a second root
  const std::vector<std::size_t> parents = {no_parent, 0, 1, 2, 1, 4, 0, no_parent, 7};
  const std::size_t n = parents.size();
  std::mt19937 gen(test::kSeed + 40);
  double worst_tau = 0, worst_pose = 0, worst_jac = 0;
  for (int model_index = 0; model_index < 4; ++model_index) {
    std::vector<Link<double>> links;
    for (std::size_t i = 0; i < n; ++i) {
      links.push_back(test::random_link(gen));
      links.back().name = "link" + std::to_string(i);
    }
    const TreeX<double> tree(links, std::vector<JointKind>(n, JointKind::revolute), parents);
    KDL::Tree kdl("base");
    for (std::size_t i = 0; i < n; ++i) {
      const std::string hook = parents[i] == no_parent ? "base" : links[parents[i]].name;
      REQUIRE(kdl.addSegment(tree_segment(links[i], tree.joint(i).axis()), hook));
    }
    REQUIRE(kdl.getNrOfJoints() == n);
    KDL::TreeIdSolver_RNE id(kdl, KDL::Vector(0, 0, -9.81));
    KDL::TreeFkSolverPos_recursive fk(kdl);
    KDL::TreeJntToJacSolver jac(kdl);
    for (int state = 0; state < 4; ++state) {
      const Eigen::VectorXd q = test::random_state<Eigen::VectorXd>(gen, 3.1, Eigen::Index(n));
      const Eigen::VectorXd qd = test::random_state<Eigen::VectorXd>(gen, 2.0, Eigen::Index(n));
      const Eigen::VectorXd qdd = test::random_state<Eigen::VectorXd>(gen, 5.0, Eigen::Index(n));
      LinkForces<TreeX<double>> f_ext = link_forces(tree);
      KDL::WrenchMap kdl_f_ext;
      for (std::size_t i = 0; i < n; ++i) {
        const Eigen::Vector3d m = test::random_vector(gen, -2, 2), f = test::random_vector(gen, -5, 5);
        f_ext[i] = Force<double>(m, f);
        kdl_f_ext[links[i].name] = KDL::Wrench(tree_kdl(f), tree_kdl(m));
      }
      const unsigned nj = unsigned(n);
      KDL::JntArray kq(nj), kqd(nj), kqdd(nj), ktau(nj);
      kq.data = q;
      kqd.data = qd;
      kqdd.data = qdd;
      REQUIRE(id.CartToJnt(kq, kqd, kqdd, kdl_f_ext, ktau) >= 0);
      const Eigen::VectorXd tau = rnea(tree, q, qd, qdd, f_ext);
      worst_tau = std::max(worst_tau, relative_error(tau, ktau.data));
      CHECK(relative_error(tau, ktau.data) < 1e-12);
      for (std::size_t i = 0; i < n; ++i) {
        KDL::Frame pose;
        REQUIRE(fk.JntToCart(kq, pose, links[i].name) >= 0);
        const Transform<double> ours = frame_pose(tree, q, i);
        Eigen::Matrix<double, 3, 4> a, b;
        a << ours.rotation, ours.translation;
        for (int r = 0; r < 3; ++r) {
          for (int c = 0; c < 3; ++c) b(r, c) = pose.M(r, c);
          b(r, 3) = pose.p(r);
        }
        worst_pose = std::max(worst_pose, relative_error(a, b));
        CHECK(relative_error(a, b) < 1e-12);
        // KDL's Jacobian: base axes, reference point the segment's tip, rows [linear; angular]
        KDL::Jacobian kj(nj);
        REQUIRE(jac.JntToJac(kq, kj, links[i].name) >= 0);
        const Eigen::MatrixXd J = jacobian(tree, q, i);
        Eigen::MatrixXd theirs(6, Eigen::Index(n));
        theirs << kj.data.bottomRows<3>(), kj.data.topRows<3>();
        worst_jac = std::max(worst_jac, relative_error(J, theirs));
        CHECK(relative_error(J, theirs) < 1e-12);
      }
    }
  }
  INFO("largest relative errors: tau " << worst_tau << ", poses " << worst_pose << ", J "
                                       << worst_jac);
  CHECK(worst_tau < 1e-12);
}
