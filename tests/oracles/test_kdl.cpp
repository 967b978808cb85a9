// Oracle: chaindyn against Orocos KDL (Debian liborocos-kdl-dev 1.5) on the built-in iiwa and
// on random 7-joint revolute chains with arbitrary axes: forward kinematics, inverse dynamics
// (with and without external wrenches), the mass matrix, gravity and Coriolis torques, forward
// dynamics.
//
// KDL's conventions, and how our links map onto them:
// - A KDL::Segment is a joint at the segment's root followed by f_tip; the segment's frame is
//   its tip. The Segment constructor takes f_tip as the tip's pose in the root frame at q = 0
//   and stores joint.pose(0)^-1 f_tip, so that pose(q) = joint.pose(q) joint.pose(0)^-1 f_tip.
// - A KDL::Joint(name, origin, axis, RotAxis) turns about the line through `origin` along
//   `axis`, both in the segment's root frame; pose(q) = (Rot(axis, q), origin).
//   Our link i is one segment whose root is link i-1's frame: the joint's origin is the
//   placement's translation p, its axis the placement rotation R times our axis a, and f_tip is
//   the placement. Then pose(q) = (Rot(R a, q), p) (1, -p) (R, p) = (R Rot(a, q), p), our
//   placement * J(q); the tip is our link frame.
// - A segment's RigidBodyInertia is expressed in the tip frame about the tip origin (KDL's
//   solvers multiply it with tip-frame twists). RigidBodyInertia(m, c, Ic) takes the centre of
//   mass c from the reference point and the rotational inertia Ic about the centre of mass, in
//   the frame's axes: exactly our Link's (mass, com, inertia) in the link frame.
// - RotationalInertia's constructor order is (Ixx, Iyy, Izz, Ixy, Ixz, Iyz) and its entries
//   are the tensor's entries (no sign flip on the products).
// - Gravity: the solvers take the gravity vector and use -g as the base acceleration, as we do.
// - External wrenches: per segment, in the tip frame about the tip origin, subtracted from the
//   link's force in the RNEA: our LinkForces convention. KDL::Wrench is (force, torque), ours
//   [moment; force].
// - Joint dynamics: KDL 1.5's RNEA and ChainDynParam add the joint's `inertia` (our armature)
//   times qdd and ignore its `damping` (checked: a damping of 2 changes no result), so the random
//   chains carry armature but no damping or Coulomb friction.
// A second encoding of the iiwa uses KDL's RotZ joints, which have no origin: a fixed first
// segment holds joint 1's placement, segment i turns about z at its root and its tip is joint
// i+1's frame, so link i's inertia moves into that frame with KDL's own Frame * RigidBodyInertia.

// KDL's solvers own Eigen dynamic vectors that are allocated inside the prebuilt library and
// freed by inline destructors compiled here (and the other way round). g++ defines
// __SANITIZE_ADDRESS__ under -fsanitize=address, and Eigen then stops trusting glibc's malloc
// alignment and switches to its hand-made aligned allocation, which does not match the
// library's plain malloc/free: ASan reports a heap-buffer-overflow in ~ChainFdSolver_RNE. Keep
// this translation unit on the library's allocation scheme (glibc on LP64 aligns malloc to 16
// bytes, Eigen's default alignment without AVX).
#include <climits>
#if defined(__SANITIZE_ADDRESS__) && defined(__GLIBC__) && defined(__LP64__) && \
    !defined(EIGEN_MALLOC_ALREADY_ALIGNED)
#define EIGEN_MALLOC_ALREADY_ALIGNED 1
#endif

#include "support/test_support.hpp"

#include <chaindyn/robots/kuka_iiwa.hpp>

#include <catch2/catch.hpp>

#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainfdsolver_recursive_newton_euler.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

// --- conversions -----------------------------------------------------------------------------

KDL::Vector to_kdl(const Eigen::Vector3d& v) { return KDL::Vector(v.x(), v.y(), v.z()); }

KDL::Rotation to_kdl(const Eigen::Matrix3d& r) {
  // KDL::Rotation's nine-number constructor is row-major
  return KDL::Rotation(r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0), r(2, 1),
                       r(2, 2));
}

KDL::Frame to_kdl(const Transform<double>& x) {
  return KDL::Frame(to_kdl(x.rotation), to_kdl(x.translation));
}

Transform<double> from_kdl(const KDL::Frame& f) {
  Transform<double> x;
  for (int r = 0; r < 3; ++r) {
    x.translation[r] = f.p(r);
    for (int c = 0; c < 3; ++c) x.rotation(r, c) = f.M(r, c);
  }
  return x;
}

/// A link's inertia in KDL's terms: about the link-frame origin, in link-frame axes, built from
/// the centre of mass and the rotational inertia about it.
KDL::RigidBodyInertia to_kdl_inertia(const Link<double>& l) {
  const Eigen::Matrix3d& i = l.inertia;
  return KDL::RigidBodyInertia(
      l.mass, to_kdl(l.com),
      KDL::RotationalInertia(i(0, 0), i(1, 1), i(2, 2), i(0, 1), i(0, 2), i(1, 2)));
}

/// Our link i (joint about unit axis `axis` of its joint frame) as one KDL segment whose root
/// is link i-1's frame and whose tip is link i's frame (see the file comment).
KDL::Segment to_kdl_segment(const Link<double>& l, const Eigen::Vector3d& axis) {
  const KDL::Frame placement = to_kdl(l.placement);
  const KDL::Joint joint(l.name + "_joint", placement.p, placement.M * to_kdl(axis),
                         KDL::Joint::RotAxis, 1.0, 0.0, l.dynamics.armature);
  return KDL::Segment(l.name, joint, placement, to_kdl_inertia(l));
}

template <typename Model>
KDL::Chain to_kdl_chain(const Model& model) {
  KDL::Chain chain;
  model.joints_forward([&](const std::size_t i, const auto& joint) {
    chain.addSegment(to_kdl_segment(model.link(i), joint.axis()));
  });
  return chain;
}

/// The iiwa with KDL's RotZ joints: a fixed segment carries joint 1's placement; segment i
/// turns about z at link i's joint frame and its tip is joint i+1's frame, in which link i's
/// inertia is expressed by KDL's T_tip_link * I (T_tip_link = placement_{i+1}^-1).
KDL::Chain to_kdl_chain_rotz(const robots::KukaIiwa<double>& arm) {
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("base_to_joint_1", KDL::Joint(KDL::Joint::Fixed),
                                to_kdl(arm.link(0).placement)));
  for (std::size_t i = 0; i < 7; ++i) {
    const KDL::Frame tip_in_link =
        i + 1 < 7 ? to_kdl(arm.link(i + 1).placement) : KDL::Frame::Identity();
    chain.addSegment(KDL::Segment(arm.link(i).name, KDL::Joint(KDL::Joint::RotZ), tip_in_link,
                                  tip_in_link.Inverse() * to_kdl_inertia(arm.link(i))));
  }
  return chain;
}

// --- KDL solvers -----------------------------------------------------------------------------

/// A KDL chain and its solvers (ChainDynParam keeps a reference to the chain: the chain lives
/// here, and this object does not move).
struct Kdl {
  explicit Kdl(KDL::Chain c)
      : chain(std::move(c)), id(chain, gravity), dyn(chain, gravity), fd(chain, gravity),
        fk(chain) {}
  Kdl(const Kdl&) = delete;
  Kdl& operator=(const Kdl&) = delete;

  static inline const KDL::Vector gravity{0.0, 0.0, -9.81};
  KDL::Chain chain;
  KDL::ChainIdSolver_RNE id;
  KDL::ChainDynParam dyn;
  KDL::ChainFdSolver_RNE fd;
  KDL::ChainFkSolverPos_recursive fk;
};

KDL::JntArray jnt(const Eigen::VectorXd& v) {
  KDL::JntArray a(unsigned(v.size()));
  a.data = v;
  return a;
}

/// The largest errors seen per quantity, printed at the end of each test case: test_support's
/// relative_error (max |a - b| / max(1, max |b|), which the checks use) and, for the report,
/// the plain relative error max |a - b| / max |b|.
struct Worst {
  struct Errors {
    double floored = 0, plain = 0;
  };
  std::map<std::string, Errors> error;
  template <typename A, typename B>
  void add(const std::string& what, const Eigen::MatrixBase<A>& ours,
           const Eigen::MatrixBase<B>& theirs) {
    const double e = relative_error(ours, theirs);
    const double scale = theirs.cwiseAbs().maxCoeff();
    const double plain = scale > 0 ? (ours - theirs).cwiseAbs().maxCoeff() / scale : e;
    Errors& w = error[what];
    w.floored = std::max(w.floored, e);
    w.plain = std::max(w.plain, plain);
    INFO(what);
    CHECK(e < 1e-9);
  }
  std::string report() const {
    std::ostringstream os;
    os << std::scientific << std::setprecision(2);
    for (const auto& [what, e] : error) os << "\n  " << what << ": " << e.floored << " (" << e.plain << ")";
    return os.str();
  }
};

/// Compares every algorithm with KDL at one state. `links_are_segments`: KDL segment i is our
/// link i (not true of the RotZ encoding, whose segments end at the next joint's frame).
template <typename Model>
void compare(const Model& model, Kdl& kdl, std::mt19937& gen, Worst& worst,
             bool links_are_segments) {
  using V = typename Model::Vector;
  constexpr unsigned n = unsigned(Model::nq);
  const V q = test::random_state<V>(gen, 3.1), qd = test::random_state<V>(gen, 2.0),
          qdd = test::random_state<V>(gen, 5.0), tau = test::random_state<V>(gen, 20.0);
  LinkForces<Model> f_ext;
  KDL::Wrenches kdl_f_ext(kdl.chain.getNrOfSegments(), KDL::Wrench::Zero());
  KDL::Wrenches kdl_no_f_ext(kdl.chain.getNrOfSegments(), KDL::Wrench::Zero());
  for (std::size_t i = 0; i < n; ++i) {
    f_ext[i] = Force<double>(test::random_vector(gen, -5, 5), test::random_vector(gen, -20, 20));
    if (links_are_segments) {
      kdl_f_ext[i] = KDL::Wrench(to_kdl(f_ext[i].linear), to_kdl(f_ext[i].angular));
    }
  }
  const KDL::JntArray kq = jnt(q), kqd = jnt(qd), kqdd = jnt(qdd), ktau = jnt(tau);
  KDL::JntArray out(n);

  // forward kinematics: every link frame (or, for the RotZ encoding, the last)
  std::vector<KDL::Frame> frames(kdl.chain.getNrOfSegments());
  REQUIRE(kdl.fk.JntToCart(kq, frames) >= 0);
  const auto ours = forward_kinematics(model, q);
  for (std::size_t i = links_are_segments ? 0 : n - 1; i < n; ++i) {
    const Transform<double> theirs = from_kdl(links_are_segments ? frames[i] : frames.back());
    worst.add("FK rotation", ours[i].rotation, theirs.rotation);
    worst.add("FK position", ours[i].translation, theirs.translation);
  }

  REQUIRE(kdl.id.CartToJnt(kq, kqd, kqdd, kdl_no_f_ext, out) >= 0);
  worst.add("rnea vs ChainIdSolver_RNE", rnea(model, q, qd, qdd), out.data);

  if (links_are_segments) {
    REQUIRE(kdl.id.CartToJnt(kq, kqd, kqdd, kdl_f_ext, out) >= 0);
    worst.add("rnea + f_ext vs ChainIdSolver_RNE", rnea(model, q, qd, qdd, f_ext), out.data);
  }

  KDL::JntSpaceInertiaMatrix h(n);
  REQUIRE(kdl.dyn.JntToMass(kq, h) >= 0);
  worst.add("crba vs JntToMass", crba(model, q), h.data);

  REQUIRE(kdl.dyn.JntToGravity(kq, out) >= 0);
  const V g = gravity_torques(model, q);
  worst.add("gravity_torques vs JntToGravity", g, out.data);

  REQUIRE(kdl.dyn.JntToCoriolis(kq, kqd, out) >= 0);
  worst.add("nle - gravity vs JntToCoriolis", V(nonlinear_effects(model, q, qd) - g), out.data);

  REQUIRE(kdl.fd.CartToJnt(kq, kqd, ktau, kdl_no_f_ext, out) >= 0);
  worst.add("aba vs ChainFdSolver_RNE", aba(model, q, qd, tau), out.data);

  if (links_are_segments) {
    REQUIRE(kdl.fd.CartToJnt(kq, kqd, ktau, kdl_f_ext, out) >= 0);
    worst.add("aba + f_ext vs ChainFdSolver_RNE", aba(model, q, qd, tau, f_ext), out.data);
  }
}

}  // namespace

TEST_CASE("KDL oracle: the iiwa's RotAxis and RotZ encodings agree with chaindyn",
          "[oracle][kdl][robots]") {
  const robots::KukaIiwa<double> arm = robots::kuka_iiwa();
  Kdl axis_chain(to_kdl_chain(arm));
  Kdl rotz_chain(to_kdl_chain_rotz(arm));
  REQUIRE(axis_chain.chain.getNrOfJoints() == 7);
  REQUIRE(rotz_chain.chain.getNrOfJoints() == 7);
  std::mt19937 gen(test::kSeed + 401);
  Worst axis_worst, rotz_worst;
  for (int trial = 0; trial < 200; ++trial) {
    INFO("trial " << trial);
    compare(arm, axis_chain, gen, axis_worst, true);
    compare(arm, rotz_chain, gen, rotz_worst, false);
  }
  WARN("iiwa vs KDL (RotAxis segments), worst relative errors:" << axis_worst.report());
  WARN("iiwa vs KDL (RotZ segments), worst relative errors:" << rotz_worst.report());
}

TEST_CASE("KDL oracle: random 7-joint revolute chains with arbitrary axes and armature",
          "[oracle][kdl]") {
  using Model = ChainN<double, 7, Revolute>;
  std::mt19937 gen(test::kSeed + 402);
  Worst worst;
  for (int chain = 0; chain < 20; ++chain) {
    std::vector<Link<double>> links = test::random_links<Model>(gen, true);
    for (Link<double>& l : links) {
      // KDL 1.5 models the rotor inertia but not viscous or Coulomb friction
      l.dynamics.damping = 0;
      l.dynamics.friction = 0;
    }
    const Model model(links);
    Kdl kdl(to_kdl_chain(model));
    for (int trial = 0; trial < 20; ++trial) {
      INFO("chain " << chain << ", trial " << trial);
      compare(model, kdl, gen, worst, true);
    }
  }
  WARN("random chains vs KDL, worst relative errors:" << worst.report());
}

// --- built-in DH robots (Panda: modified DH; UR5, PUMA 560 with armature: standard DH) -------

#include <chaindyn/robots/panda.hpp>
#include <chaindyn/robots/puma560.hpp>
#include <chaindyn/robots/ur5.hpp>

TEST_CASE("KDL oracle: the built-in Panda, UR5 and PUMA 560 agree with chaindyn",
          "[oracle][kdl][robots]") {
  std::mt19937 gen(test::kSeed + 403);
  const auto run = [&gen](const auto& arm, const char* name) {
    Kdl kdl(to_kdl_chain(arm));
    REQUIRE(kdl.chain.getNrOfJoints() == unsigned(std::decay_t<decltype(arm)>::nq));
    Worst worst;
    for (int trial = 0; trial < 100; ++trial) {
      INFO(name << ", trial " << trial);
      compare(arm, kdl, gen, worst, true);
    }
    WARN(name << " vs KDL, worst relative errors:" << worst.report());
  };
  run(robots::panda(), "Panda");
  run(robots::ur5(), "UR5");
  run(robots::puma560(), "PUMA 560");
}
