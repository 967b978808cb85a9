// Oracle: URDFs that were not written for this project (tests/data/urdf: Drake's iiwa14,
// example-robot-data's Panda and UR5) parsed by chaindyn::urdf, against Orocos KDL (Debian
// liborocos-kdl-dev 1.5) fed from the same files by this file's own tinyxml2 reader.
//
// The KDL side shares nothing with chaindyn's parser: it reads the XML itself and builds a
// KDL::Tree the way URDF describes it, one KDL::Segment per URDF joint (KDL needs no merging):
// - segment = child link; its joint: Joint::Fixed for `fixed`, RotAxis (revolute, continuous)
//   or TransAxis (prismatic) through the joint origin's position along origin.M * axis, with
//   the axis as written (normalized), all in the parent link's frame; f_tip = the joint origin
//   (xyz, KDL::Rotation::RPY(roll, pitch, yaw), which is URDF's Rz Ry Rx); the segment's
//   inertia = KDL's own Frame(inertial origin) * RigidBodyInertia(mass, 0, I about the COM).
// - the chain is KDL::Tree::getChain(root, tip); the root link's inertia is not in it.
// Compared at seeded random states, for the chain parsed both as RevoluteZ (every axis turned
// onto z) and as run-time-axis Revolute: ChainIdSolver_RNE vs rnea, ChainDynParam's JntToMass,
// JntToGravity, JntToCoriolis vs crba, gravity_torques, nonlinear_effects - gravity,
// ChainFdSolver_RNE vs aba, ChainFkSolverPos_recursive vs forward_kinematics (full pose of
// the run-time-axis chain's link frames; link origins of the RevoluteZ chain, whose internal
// frames are turned about their origins), and, for both chains, ChainFkSolverPos_recursive and
// ChainJntToJacSolver vs frame_pose and jacobian of the file's named frames (link frames and
// the links fixed to them: tool0, iiwa_link_ee, panda_hand, ...), which speak the file's frames.
// KDL 1.5's solvers ignore joint damping and friction, which the URDFs give (iiwa 0.5, Panda
// 0.003): our side adds friction_torques to KDL's tau and to the tau given to KDL's ABA.
// Whole trees (urdf::load_tree: the Panda with its fingers, Baxter's two arms and grippers, the
// Allegro hand, the chains as degenerate trees) against KDL's tree solvers on the same
// KDL::Tree: TreeIdSolver_RNE (with a wrench on every moving link) vs rnea, the mass matrix
// from TreeIdSolver_RNE's columns (no gravity, qd = 0, qdd = e_j) vs crba,
// TreeFkSolverPos_recursive and TreeJntToJacSolver vs frame_pose and jacobian of every link of
// the file (moving, welded and base links), to 1e-12.

// KDL allocates Eigen dynamic vectors in the prebuilt library and frees them in inline code
// compiled here: keep Eigen on the library's (glibc malloc) allocation scheme under ASan, as
// tests/oracles/test_kdl.cpp explains.
#include <climits>
#if defined(__SANITIZE_ADDRESS__) && defined(__GLIBC__) && defined(__LP64__) && \
    !defined(EIGEN_MALLOC_ALREADY_ALIGNED)
#define EIGEN_MALLOC_ALREADY_ALIGNED 1
#endif

#include "support/test_support.hpp"

#include <chaindyn/urdf.hpp>

#include <catch2/catch.hpp>

#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainfdsolver_recursive_newton_euler.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#include <kdl/chainjnttojacsolver.hpp>
#include <kdl/tree.hpp>
#include <kdl/treefksolverpos_recursive.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>
#include <kdl/treejnttojacsolver.hpp>
#include <tinyxml2.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>

#ifndef CHAINDYN_URDF_DATA_DIR
#error "CHAINDYN_URDF_DATA_DIR (tests/data/urdf) must be defined"
#endif

using namespace chaindyn;

namespace {

// --- the KDL tree from a URDF file -----------------------------------------------------------

KDL::Vector vec3(const tinyxml2::XMLElement* e, const char* attr, const KDL::Vector& fallback) {
  const char* text = e ? e->Attribute(attr) : nullptr;
  if (!text) return fallback;
  double v[3];
  REQUIRE(std::sscanf(text, "%lf %lf %lf", &v[0], &v[1], &v[2]) == 3);
  return KDL::Vector(v[0], v[1], v[2]);
}

KDL::Frame origin_of(const tinyxml2::XMLElement* parent) {
  const tinyxml2::XMLElement* o = parent->FirstChildElement("origin");
  const KDL::Vector xyz = vec3(o, "xyz", KDL::Vector::Zero());
  const KDL::Vector rpy = vec3(o, "rpy", KDL::Vector::Zero());
  return KDL::Frame(KDL::Rotation::RPY(rpy.x(), rpy.y(), rpy.z()), xyz);
}

KDL::RigidBodyInertia inertia_of(const tinyxml2::XMLElement* link) {
  const tinyxml2::XMLElement* in = link->FirstChildElement("inertial");
  if (!in) return KDL::RigidBodyInertia::Zero();
  const tinyxml2::XMLElement* i = in->FirstChildElement("inertia");
  const double m = in->FirstChildElement("mass")->DoubleAttribute("value");
  const KDL::RotationalInertia about_com(
      i->DoubleAttribute("ixx"), i->DoubleAttribute("iyy"), i->DoubleAttribute("izz"),
      i->DoubleAttribute("ixy"), i->DoubleAttribute("ixz"), i->DoubleAttribute("iyz"));
  return origin_of(in) * KDL::RigidBodyInertia(m, KDL::Vector::Zero(), about_com);
}

struct KdlModel {
  KDL::Tree tree;
  std::string root;
};

KdlModel kdl_tree(const std::string& path) {
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.LoadFile(path.c_str()) == tinyxml2::XML_SUCCESS);
  const tinyxml2::XMLElement* robot = doc.RootElement();
  std::map<std::string, const tinyxml2::XMLElement*> links;
  std::map<std::string, std::vector<const tinyxml2::XMLElement*>> joints_from;
  std::map<std::string, bool> has_parent;
  for (auto* l = robot->FirstChildElement("link"); l; l = l->NextSiblingElement("link")) {
    links[l->Attribute("name")] = l;
  }
  for (auto* j = robot->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
    joints_from[j->FirstChildElement("parent")->Attribute("link")].push_back(j);
    has_parent[j->FirstChildElement("child")->Attribute("link")] = true;
  }
  KdlModel out;
  for (const auto& [name, e] : links) {
    if (!has_parent.count(name)) out.root = name;
  }
  out.tree = KDL::Tree(out.root);
  std::deque<std::string> todo{out.root};
  while (!todo.empty()) {
    const std::string parent = todo.front();
    todo.pop_front();
    for (const tinyxml2::XMLElement* j : joints_from[parent]) {
      const std::string child = j->FirstChildElement("child")->Attribute("link");
      const std::string type = j->Attribute("type");
      const KDL::Frame origin = origin_of(j);
      KDL::Vector axis = vec3(j->FirstChildElement("axis"), "xyz", KDL::Vector(1, 0, 0));
      axis.Normalize();
      KDL::Joint joint(j->Attribute("name"), KDL::Joint::Fixed);
      if (type == "revolute" || type == "continuous") {
        joint = KDL::Joint(j->Attribute("name"), origin.p, origin.M * axis, KDL::Joint::RotAxis);
      } else if (type == "prismatic") {
        joint = KDL::Joint(j->Attribute("name"), origin.p, origin.M * axis, KDL::Joint::TransAxis);
      } else {
        REQUIRE(type == "fixed");
      }
      REQUIRE(out.tree.addSegment(KDL::Segment(child, joint, origin, inertia_of(links.at(child))),
                                  parent));
      todo.push_back(child);
    }
  }
  return out;
}

// --- comparison --------------------------------------------------------------------------------

struct Kdl {
  Kdl(const KdlModel& m, const std::string& tip) {
    REQUIRE(m.tree.getChain(m.root, tip, chain));
    id = std::make_unique<KDL::ChainIdSolver_RNE>(chain, gravity);
    dyn = std::make_unique<KDL::ChainDynParam>(chain, gravity);
    fd = std::make_unique<KDL::ChainFdSolver_RNE>(chain, gravity);
    fk = std::make_unique<KDL::ChainFkSolverPos_recursive>(chain);
    jac = std::make_unique<KDL::ChainJntToJacSolver>(chain);
  }
  static inline const KDL::Vector gravity{0.0, 0.0, -9.81};
  KDL::Chain chain;
  std::unique_ptr<KDL::ChainIdSolver_RNE> id;
  std::unique_ptr<KDL::ChainDynParam> dyn;
  std::unique_ptr<KDL::ChainFdSolver_RNE> fd;
  std::unique_ptr<KDL::ChainFkSolverPos_recursive> fk;
  std::unique_ptr<KDL::ChainJntToJacSolver> jac;
};

/// Worst relative errors per quantity: max |a - b| / max(1, max |b|) (checked against 1e-9),
/// and max |a - b| / max |b| for the report.
struct Worst {
  std::map<std::string, std::pair<double, double>> error;
  double bound = 1e-9;
  template <typename A, typename B>
  void add(const std::string& what, const Eigen::MatrixBase<A>& ours,
           const Eigen::MatrixBase<B>& theirs) {
    const double e = test::relative_error(ours, theirs);
    const double scale = theirs.cwiseAbs().maxCoeff();
    const double plain = scale > 0 ? (ours - theirs).cwiseAbs().maxCoeff() / scale : e;
    auto& w = error[what];
    w.first = std::max(w.first, e);
    w.second = std::max(w.second, plain);
    INFO(what);
    CHECK(e < bound);
  }
  std::string report() const {
    std::ostringstream os;
    os << std::scientific << std::setprecision(2);
    for (const auto& [what, e] : error) os << "\n  " << what << ": " << e.first << " (" << e.second << ")";
    return os.str();
  }
};

KDL::JntArray jnt(const Eigen::VectorXd& v) {
  KDL::JntArray a(unsigned(v.size()));
  a.data = v;
  return a;
}

template <typename Model>
void compare(const Model& model, Kdl& kdl, std::uint32_t seed, Worst& worst) {
  using V = typename Model::Vector;
  constexpr unsigned n = unsigned(Model::nq);
  REQUIRE(kdl.chain.getNrOfJoints() == n);
  // the KDL segment of each of our links (the URDF child link of each moving joint)
  std::vector<int> segment(n, -1);
  for (unsigned s = 0; s < kdl.chain.getNrOfSegments(); ++s) {
    for (unsigned i = 0; i < n; ++i) {
      if (kdl.chain.getSegment(s).getName() == model.link(i).name) segment[i] = int(s);
    }
  }
  for (unsigned i = 0; i < n; ++i) REQUIRE(segment[i] >= 0);
  std::mt19937 gen(seed);
  for (int trial = 0; trial < 100; ++trial) {
    INFO("trial " << trial);
    const V q = test::random_state<V>(gen, 3.1), qd = test::random_state<V>(gen, 2.0),
            qdd = test::random_state<V>(gen, 5.0), tau = test::random_state<V>(gen, 20.0);
    const V eps = friction_torques(model, qd);
    const KDL::JntArray kq = jnt(q), kqd = jnt(qd), kqdd = jnt(qdd), ktau = jnt(tau);
    const KDL::Wrenches no_f(kdl.chain.getNrOfSegments(), KDL::Wrench::Zero());
    KDL::JntArray out(n);

    REQUIRE(kdl.id->CartToJnt(kq, kqd, kqdd, no_f, out) >= 0);
    worst.add("rnea vs ChainIdSolver_RNE (+ friction)", rnea(model, q, qd, qdd), V(out.data + eps));

    KDL::JntSpaceInertiaMatrix h(n);
    REQUIRE(kdl.dyn->JntToMass(kq, h) >= 0);
    worst.add("crba vs JntToMass", crba(model, q), h.data);

    REQUIRE(kdl.dyn->JntToGravity(kq, out) >= 0);
    const V g = gravity_torques(model, q);
    worst.add("gravity_torques vs JntToGravity", g, out.data);

    REQUIRE(kdl.dyn->JntToCoriolis(kq, kqd, out) >= 0);
    worst.add("nle - gravity vs JntToCoriolis", V(nonlinear_effects(model, q, qd) - g), out.data);

    REQUIRE(kdl.fd->CartToJnt(kq, kqd, ktau, no_f, out) >= 0);
    worst.add("aba vs ChainFdSolver_RNE (tau + friction)", aba(model, q, qd, V(tau + eps)), out.data);

    const auto poses = forward_kinematics(model, q);
    for (unsigned i = 0; i < n; ++i) {
      KDL::Frame f;
      REQUIRE(kdl.fk->JntToCart(kq, f, segment[i] + 1) >= 0);
      const Eigen::Vector3d p(f.p.x(), f.p.y(), f.p.z());
      worst.add("FK link origins", poses[i].translation, p);
      if constexpr (Model::JointModel::has_runtime_axis) {
        Eigen::Matrix3d r;
        for (int a = 0; a < 3; ++a) {
          for (int b = 0; b < 3; ++b) r(a, b) = f.M(a, b);
        }
        worst.add("FK link rotations", poses[i].rotation, r);
      }
    }
    // the file's named frames on KDL's chain (fixed segments included): full pose and the
    // world Jacobian (KDL: rows [linear; angular], reference point the frame's origin, base
    // axes), whatever the joint type (the RevoluteZ chain turns its internal link frames)
    std::size_t named = 0;
    for (const auto& nf : model.frames()) {
      int seg = -1;
      for (unsigned s = 0; s < kdl.chain.getNrOfSegments(); ++s) {
        if (kdl.chain.getSegment(s).getName() == nf.name) seg = int(s);
      }
      if (seg < 0) continue;  // the root, or a link off KDL's root-to-tip chain
      ++named;
      INFO("frame " << nf.name);
      KDL::Frame f;
      REQUIRE(kdl.fk->JntToCart(kq, f, seg + 1) >= 0);
      const Transform<double> x = frame_pose(model, q, nf.name);
      Eigen::Matrix3d r;
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) r(a, b) = f.M(a, b);
      }
      worst.add("named frame positions", x.translation, Eigen::Vector3d(f.p.x(), f.p.y(), f.p.z()));
      worst.add("named frame rotations", x.rotation, r);
      KDL::Jacobian kj(n);
      REQUIRE(kdl.jac->JntToJac(kq, kj, seg + 1) >= 0);
      Eigen::Matrix<double, 6, Eigen::Dynamic> swapped(6, n);
      swapped.topRows<3>() = kj.data.bottomRows<3>();
      swapped.bottomRows<3>() = kj.data.topRows<3>();
      worst.add("named frame world Jacobians", jacobian(model, q, nf.name), swapped);
    }
    REQUIRE(named >= std::size_t(n));
  }
}

/// Parses `file` as ChainN<double, N, RevoluteZ> and ChainN<double, N, Revolute> (to `tip`, or
/// the default leaf) and compares both with KDL's chain from the root to `kdl_tip`.
template <int N>
void check_robot(const std::string& file, const std::string& tip, const std::string& kdl_tip,
                 std::uint32_t seed) {
  const std::string path = std::string(CHAINDYN_URDF_DATA_DIR) + "/" + file;
  const auto z = urdf::load<ChainN<double, N, RevoluteZ>>(path, tip);
  const auto r = urdf::load<ChainN<double, N, Revolute>>(path, tip);
  const KdlModel m = kdl_tree(path);
  Kdl kdl(m, kdl_tip);
  Worst wz, wr;
  compare(z, kdl, seed, wz);
  compare(r, kdl, seed + 1, wr);
  WARN(file << " as ChainN<double, " << N << ", RevoluteZ> vs KDL, worst relative errors "
            << "(floored at 1; plain):" << wz.report());
  WARN(file << " as ChainN<double, " << N << ", Revolute> vs KDL, worst relative errors "
            << "(floored at 1; plain):" << wr.report());
}

/// load_tree(file) against KDL's tree solvers on the KDL::Tree of the same file; returns the
/// worst errors. Our joint i is KDL's joint q_nr of the segment named as link i.
Worst check_tree_file(const std::string& file, const urdf::TreeLoadOptions& options,
                      std::uint32_t seed, std::size_t joints) {
  const std::string path = std::string(CHAINDYN_URDF_DATA_DIR) + "/" + file;
  const TreeX<double> tree = urdf::load_tree(path, options);
  const std::size_t n = tree.joint_count();
  REQUIRE(n == joints);
  const KdlModel read = kdl_tree(path);
  // KDL's TreeFkSolverPos_recursive and TreeJntToJacSolver keep a copy of the tree, and
  // KDL::Tree's copy numbers the joints depth-first (TreeIdSolver_RNE keeps a reference): a
  // copy of a copy keeps its numbering, so every solver is given the copy `m.tree`.
  KdlModel m;
  m.root = read.root;
  m.tree = KDL::Tree(read.tree);
  REQUIRE(m.tree.getNrOfJoints() == n);
  std::vector<unsigned> kdl_index(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto it = m.tree.getSegment(tree.link(i).name);
    REQUIRE(it != m.tree.getSegments().end());
    kdl_index[i] = GetTreeElementQNr(it->second);
  }
  KDL::TreeIdSolver_RNE id(m.tree, Kdl::gravity);
  KDL::TreeIdSolver_RNE id0(m.tree, KDL::Vector::Zero());
  KDL::TreeFkSolverPos_recursive fk(m.tree);
  KDL::TreeJntToJacSolver jac(m.tree);
  const unsigned nj = unsigned(n);
  const auto to_kdl = [&](const Eigen::VectorXd& v) {
    KDL::JntArray a(nj);
    for (std::size_t i = 0; i < n; ++i) a(kdl_index[i]) = v[Eigen::Index(i)];
    return a;
  };
  const auto from_kdl = [&](const KDL::JntArray& a) {
    Eigen::VectorXd v(static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i) v[Eigen::Index(i)] = a(kdl_index[i]);
    return v;
  };
  Worst worst;
  worst.bound = 1e-12;
  std::mt19937 gen(seed);
  for (int trial = 0; trial < 10; ++trial) {
    INFO(file << " trial " << trial);
    const Eigen::VectorXd q = test::random_state<Eigen::VectorXd>(gen, 3.1, Eigen::Index(n));
    const Eigen::VectorXd qd = test::random_state<Eigen::VectorXd>(gen, 2.0, Eigen::Index(n));
    const Eigen::VectorXd qdd = test::random_state<Eigen::VectorXd>(gen, 5.0, Eigen::Index(n));
    const KDL::JntArray kq = to_kdl(q), kqd = to_kdl(qd), kqdd = to_kdl(qdd);
    // a wrench on every moving link: KDL takes it in the segment's (the URDF link's) frame,
    // chaindyn in the link's internal frame, turned by link_frame(i) = (R_a^T, 0)
    LinkForces<TreeX<double>> f_ext = link_forces(tree);
    KDL::WrenchMap kdl_f;
    for (std::size_t i = 0; i < n; ++i) {
      const Eigen::Vector3d mu = test::random_vector(gen, -1, 1), fu = test::random_vector(gen, -3, 3);
      const Eigen::Matrix3d r = tree.link_frame(i).rotation;
      f_ext[i] = Force<double>(r * mu, r * fu);
      kdl_f[tree.link(i).name] = KDL::Wrench(KDL::Vector(fu.x(), fu.y(), fu.z()),
                                             KDL::Vector(mu.x(), mu.y(), mu.z()));
    }
    KDL::JntArray ktau(nj);
    REQUIRE(id.CartToJnt(kq, kqd, kqdd, kdl_f, ktau) >= 0);
    worst.add("rnea (link wrenches) vs TreeIdSolver_RNE (+ friction)",
              rnea(tree, q, qd, qdd, f_ext), Eigen::VectorXd(from_kdl(ktau) + friction_torques(tree, qd)));
    Eigen::MatrixXd mk(n, n);
    const KDL::JntArray zero(nj);
    for (std::size_t j = 0; j < n; ++j) {
      Eigen::VectorXd e = Eigen::VectorXd::Zero(Eigen::Index(n));
      e[Eigen::Index(j)] = 1.0;
      REQUIRE(id0.CartToJnt(kq, zero, to_kdl(e), KDL::WrenchMap(), ktau) >= 0);
      mk.col(Eigen::Index(j)) = from_kdl(ktau);
    }
    worst.add("crba vs TreeIdSolver_RNE's columns", crba(tree, q), mk);
    std::size_t frames = 0;
    for (const auto& nf : tree.frames()) {
      if (nf.name == m.root) continue;  // KDL's root segment has no pose of its own
      INFO("frame " << nf.name);
      ++frames;
      KDL::Frame f;
      REQUIRE(fk.JntToCart(kq, f, nf.name) >= 0);
      const Transform<double> x = frame_pose(tree, q, nf.name);
      Eigen::Matrix3d r;
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) r(a, b) = f.M(a, b);
      }
      worst.add("frame_pose positions", x.translation, Eigen::Vector3d(f.p.x(), f.p.y(), f.p.z()));
      worst.add("frame_pose rotations", x.rotation, r);
      KDL::Jacobian kj(nj);
      REQUIRE(jac.JntToJac(kq, kj, nf.name) >= 0);
      Eigen::MatrixXd theirs(6, Eigen::Index(n));
      for (std::size_t i = 0; i < n; ++i) {
        theirs.col(Eigen::Index(i)) << kj.data.col(kdl_index[i]).tail<3>(),
            kj.data.col(kdl_index[i]).head<3>();
      }
      worst.add("world Jacobians", jacobian(tree, q, nf.name), theirs);
    }
    REQUIRE(frames == m.tree.getNrOfSegments());  // every link of the file but the root
  }
  return worst;
}

}  // namespace

TEST_CASE("URDF vs KDL: Drake's iiwa14 agrees with KDL's tree of the same file to 1e-9",
          "[oracle][kdl][urdf]") {
  check_robot<7>("iiwa14_no_collision.urdf", "", "iiwa_link_ee", test::kSeed + 601);
}

TEST_CASE("URDF vs KDL: the Panda to its hand (hand merged into link 7) agrees with KDL to 1e-9",
          "[oracle][kdl][urdf]") {
  check_robot<7>("panda.urdf", "panda_hand", "panda_hand", test::kSeed + 603);
}

TEST_CASE("URDF vs KDL: the UR5 (y axes turned onto z) agrees with KDL to 1e-9",
          "[oracle][kdl][urdf]") {
  check_robot<6>("ur5_robot.urdf", "", "tool0", test::kSeed + 605);
}

TEST_CASE("URDF vs KDL tree solvers: whole trees (Panda with fingers, Baxter, Allegro hand, "
          "chains as degenerate trees) agree to 1e-12", "[oracle][kdl][urdf][trees]") {
  struct File {
    const char* name;
    urdf::InertiaPolicy inertia;
    std::size_t joints;
  };
  // the Allegro hand's published inertias break the triangle inequality: kept as KDL keeps them
  const File files[] = {{"panda.urdf", urdf::InertiaPolicy::strict, 9},
                        {"baxter.urdf", urdf::InertiaPolicy::strict, 19},
                        {"allegro_right_hand.urdf", urdf::InertiaPolicy::accept, 16},
                        {"fixtures/arm_massless_fingers.urdf", urdf::InertiaPolicy::strict, 4},
                        {"iiwa14_no_collision.urdf", urdf::InertiaPolicy::strict, 7},
                        {"ur5_robot.urdf", urdf::InertiaPolicy::strict, 6}};
  std::uint32_t seed = test::kSeed + 611;
  for (const File& f : files) {
    urdf::TreeLoadOptions options;
    options.inertia = f.inertia;
    const Worst w = check_tree_file(f.name, options, seed++, f.joints);
    WARN(f.name << " as TreeX vs KDL's tree solvers, worst relative errors (floored at 1; plain):"
                << w.report());
  }
}
