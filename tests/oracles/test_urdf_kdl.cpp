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
    CHECK(e < 1e-9);
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
