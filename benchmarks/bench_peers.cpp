// chaindyn next to Orocos KDL (Debian liborocos-kdl-dev 1.5) in one process, on the KUKA iiwa
// built from the same robots::kuka_iiwa_links() data, and on a seeded random revolute chain of
// 64 joints (ChainN<double, 64, Revolute>, prefix "chain64"):
//   rnea  vs KDL::ChainIdSolver_RNE::CartToJnt
//   crba  vs KDL::ChainDynParam::JntToMass
//   aba   vs KDL::ChainFdSolver_RNE::CartToJnt (RNEA + mass matrix + LDL^T solve) and
//         KDL::ChainHdSolver_Vereshchagin::CartToJnt with no constraint (O(n), as ABA)
//   forward_dynamics_crba (crba + Cholesky) vs KDL::ChainFdSolver_RNE (the same route)
// and, when CMake finds MuJoCo (CHAINDYN_BENCH_MUJOCO), rnea and crba vs MuJoCo 2.2 (see below);
// on kinematic trees, rnea vs KDL::TreeIdSolver_RNE on bench_trees' 12-joint hand (a Tree of
// RevoluteZ joints, "hand12") and 32-joint TreeX ("treeX32").
// Pinocchio 3 and RBDL 3 are compared in a program of their own, bench_fast_peers
// (bench_peers_fast.cpp), built with Eigen's default alignment: this one follows libkdl's.
// Also timed on both chains, for the ratios to KDL's rnea that issue 14's targets are stated in:
// chaindyn's rnea_derivatives and aba_derivatives (KDL has none), and the returning forms of
// rnea, crba and aba (per-thread workspace). The iiwa (robots::KukaIiwa) is a chain of Placed
// joints (joints/placed.hpp); rows "chaindyn_without_placement_types" time the same links as
// ChainN<double, 7, RevoluteZ>, so the ratio printed for them is what the placement types save.
// Before timing, every precomputed state is run through both and the results are compared
// (max |ours - theirs| / max(1, max |theirs|) < 1e-9); on disagreement the program prints the
// worst case and exits with status 1. Timing defaults: 10 repetitions, randomly interleaved,
// aggregates only; then the ratio KDL median / chaindyn median is printed per algorithm.
//
// The KDL conversion is tests/oracles/test_kdl.cpp's (see its file comment): our link i is one
// KDL segment whose joint turns about placement.R * axis through placement.p and whose tip is
// the placement, inertia from (mass, com, inertia about the com) in link axes.
//
// Alignment: the benchmark build uses -march=native, under which Eigen would align dynamic
// arrays to 32 or 64 bytes with its own allocator, while libkdl was built for 16 bytes and
// plain malloc/free; KDL's solvers and arrays own Eigen dynamic storage that is allocated on one
// side and freed on the other (a mismatch crashes in free() at exit). CMake defines, for this
// whole executable, EIGEN_MAX_ALIGN_BYTES=16 (the library's alignment) and
// EIGEN_MALLOC_ALREADY_ALIGNED=1 (plain malloc: Eigen's allocator choice follows the ideal
// alignment of the instruction set, 64 with AVX-512, not EIGEN_MAX_ALIGN_BYTES). chaindyn's
// fixed-size types are then 16-byte aligned here, as without -march=native, while the code
// still uses the native instruction set; bench_dynamics has the default alignment.
#include "bench_common.hpp"

#include <chaindyn/algorithms/aba_derivatives.hpp>
#include <chaindyn/algorithms/rnea_derivatives.hpp>

#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainfdsolver_recursive_newton_euler.hpp>
#include <kdl/chainhdsolver_vereshchagin.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#include <kdl/tree.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>

#ifdef CHAINDYN_BENCH_MUJOCO
#include <mujoco/mujoco.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#if !defined(EIGEN_MAX_ALIGN_BYTES) || EIGEN_MAX_ALIGN_BYTES != 16 || \
    !defined(EIGEN_MALLOC_ALREADY_ALIGNED) || !EIGEN_MALLOC_ALREADY_ALIGNED
#error "bench_peers must be compiled with libkdl's Eigen alignment and allocation (see above)"
#endif

namespace chaindyn::bench {
namespace {

using Iiwa = robots::KukaIiwa<double>;

// --- conversion (as tests/oracles/test_kdl.cpp) ----------------------------------------------

KDL::Vector to_kdl(const Eigen::Vector3d& v) { return KDL::Vector(v.x(), v.y(), v.z()); }

KDL::Rotation to_kdl(const Eigen::Matrix3d& r) {
  // KDL::Rotation's nine-number constructor is row-major
  return KDL::Rotation(r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0), r(2, 1),
                       r(2, 2));
}

KDL::Frame to_kdl(const Transform<double>& x) {
  return KDL::Frame(to_kdl(x.rotation), to_kdl(x.translation));
}

KDL::RigidBodyInertia to_kdl_inertia(const Link<double>& l) {
  const Eigen::Matrix3d& i = l.inertia;
  return KDL::RigidBodyInertia(
      l.mass, to_kdl(l.com),
      KDL::RotationalInertia(i(0, 0), i(1, 1), i(2, 2), i(0, 1), i(0, 2), i(1, 2)));
}

template <typename Links>
KDL::Chain to_kdl_chain(const Links& links) {
  KDL::Chain chain;
  for (const Link<double>& l : links) {
    const KDL::Frame placement = to_kdl(l.placement);
    const KDL::Joint joint(l.name + "_joint", placement.p, placement.M * to_kdl(*l.axis),
                           KDL::Joint::RotAxis, 1.0, 0.0, l.dynamics.armature);
    chain.addSegment(KDL::Segment(l.name, joint, placement, to_kdl_inertia(l)));
  }
  return chain;
}

// --- the two libraries with the same states --------------------------------------------------

const KDL::Vector kGravity(0.0, 0.0, -9.81);

using Chain64 = ChainN<double, 64, Revolute>;

/// The random 64-joint chain's links (every axis given at run time, as KDL needs it).
std::vector<Link<double>> chain64_links() {
  std::mt19937 gen(test::kSeed);
  return test::random_links<Chain64>(gen);
}

/// chaindyn's fixture and KDL's chain, solvers, inputs and outputs. Built once; never moved
/// (ChainDynParam keeps a reference to the chain).
template <typename Model>
struct Peers {
  static constexpr unsigned n = unsigned(Model::nq);
  template <typename Links>
  explicit Peers(const Links& links)
      : ours(Model(links)), ours_x(ChainX<double>::from(Model(links))),
        chain(to_kdl_chain(links)), id(chain, kGravity), dyn(chain, kGravity),
        fd(chain, kGravity), hd(chain, KDL::Twist(-kGravity, KDL::Vector::Zero()), 0),
        hd_alpha(0), hd_beta(0), hd_constraint_tau(n),
        f_ext(chain.getNrOfSegments(), KDL::Wrench::Zero()), out(n),
        mass(n), derivatives(std::make_unique<DerivativesData<Model>>()) {
    for (std::size_t k = 0; k < kStates; ++k) {
      q.push_back(jnt(ours.q[k]));
      qd.push_back(jnt(ours.qd[k]));
      qdd.push_back(jnt(ours.qdd[k]));
      tau.push_back(jnt(ours.tau[k]));
    }
  }
  Peers(const Peers&) = delete;
  Peers& operator=(const Peers&) = delete;

  static KDL::JntArray jnt(const typename Model::Vector& v) {
    KDL::JntArray a(n);
    for (unsigned i = 0; i < n; ++i) a(i) = v[Eigen::Index(i)];
    return a;
  }

  Fixture<Model> ours;
  Fixture<ChainX<double>> ours_x;  ///< the same chain as the runtime-sized ChainX, same states
  KDL::Chain chain;
  KDL::ChainIdSolver_RNE id;
  KDL::ChainDynParam dyn;
  KDL::ChainFdSolver_RNE fd;
  /// Popov-Vereshchagin hybrid dynamics with no constraint (nc = 0): an O(n) forward dynamics,
  /// KDL's ABA counterpart (issue 14's yardstick for aba). Its root acceleration is -gravity.
  KDL::ChainHdSolver_Vereshchagin hd;
  KDL::Jacobian hd_alpha;  ///< 6 x 0: no constraint
  KDL::JntArray hd_beta, hd_constraint_tau;
  KDL::Wrenches f_ext;
  std::vector<KDL::JntArray> q, qd, qdd, tau;
  KDL::JntArray out;
  KDL::JntSpaceInertiaMatrix mass;
  std::unique_ptr<DerivativesData<Model>> derivatives;
};

template <typename Model>
Peers<Model>& peers();
template <>
Peers<Iiwa>& peers<Iiwa>() {
  static Peers<Iiwa> p(robots::kuka_iiwa_links());
  return p;
}
template <>
Peers<Chain64>& peers<Chain64>() {
  static Peers<Chain64> p(chain64_links());
  return p;
}

// --- kinematic trees: KDL's TreeIdSolver_RNE -------------------------------------------------
// KDL's tree solvers have inverse dynamics only (TreeIdSolver_RNE); its forward kinematics and
// Jacobians are compared in tests/oracles. Link i is one segment hooked on its parent's segment
// (or the root), added in joint order, so KDL numbers the joints as we do.

template <int... P>
using TreeZ = Tree<double, Parents<P...>, std::enable_if_t<(P >= -1), RevoluteZ>...>;
/// bench_trees' 12-joint hand: wrist, palm, three fingers of three joints, a thumb joint.
using Hand12 = TreeZ<-1, 0, 1, 2, 3, 1, 5, 6, 1, 8, 9, 1>;

/// bench_trees' 32-joint TreeX: a root joint and four branches of 7 revolute joints from it.
TreeX<double> tree_x32() {
  std::mt19937 gen(test::kSeed);
  std::vector<Link<double>> links;
  std::vector<std::size_t> parents;
  for (std::size_t i = 0; i < 32; ++i) {
    links.push_back(test::random_link(gen));
    parents.push_back(i == 0 ? no_parent : (i - 1) % 7 == 0 ? 0 : i - 1);
  }
  return TreeX<double>(links, std::vector<JointKind>(32, JointKind::revolute), parents);
}

template <typename Model>
struct TreePeers {
  explicit TreePeers(Model m) : ours(std::move(m)), tree("root"), id(build(), kGravity) {
    const unsigned n = unsigned(ours.model->joint_count());
    for (std::size_t k = 0; k < kStates; ++k) {
      q.push_back(jnt(ours.q[k], n));
      qd.push_back(jnt(ours.qd[k], n));
      qdd.push_back(jnt(ours.qdd[k], n));
    }
    out = KDL::JntArray(n);
  }
  TreePeers(const TreePeers&) = delete;
  TreePeers& operator=(const TreePeers&) = delete;

  const KDL::Tree& build() {
    const Model& m = *ours.model;
    for (std::size_t i = 0; i < m.joint_count(); ++i) {
      const Link<double>& l = m.link(i);
      const KDL::Frame placement = to_kdl(l.placement);
      const Eigen::Vector3d axis = l.axis ? *l.axis : Eigen::Vector3d::UnitZ();
      const KDL::Joint joint("joint" + std::to_string(i), placement.p,
                             placement.M * to_kdl(axis), KDL::Joint::RotAxis);
      const std::string hook = m.is_root(i) ? "root" : "link" + std::to_string(m.parent(i));
      if (!tree.addSegment(KDL::Segment("link" + std::to_string(i), joint, placement,
                                        to_kdl_inertia(l)),
                           hook)) {
        std::fprintf(stderr, "bench_peers: KDL refused tree segment %zu\n", i);
        std::exit(1);
      }
    }
    return tree;
  }
  static KDL::JntArray jnt(const typename Model::Vector& v, unsigned n) {
    KDL::JntArray a(n);
    for (unsigned i = 0; i < n; ++i) a(i) = v[Eigen::Index(i)];
    return a;
  }

  Fixture<Model> ours;
  KDL::Tree tree;
  KDL::TreeIdSolver_RNE id;
  KDL::WrenchMap f_ext;  ///< none
  std::vector<KDL::JntArray> q, qd, qdd;
  KDL::JntArray out;
};

template <typename Model>
TreePeers<Model>& tree_peers();
template <>
TreePeers<Hand12>& tree_peers<Hand12>() {
  static TreePeers<Hand12> p([] {
    std::mt19937 gen(test::kSeed);
    return Hand12(test::random_links<Hand12>(gen));
  }());
  return p;
}
template <>
TreePeers<TreeX<double>>& tree_peers<TreeX<double>>() {
  static TreePeers<TreeX<double>> p(tree_x32());
  return p;
}

#ifdef CHAINDYN_BENCH_MUJOCO
// --- MuJoCo (Debian libmujoco-dev 2.2) ----------------------------------------------------------
// The iiwa as MJCF generated from the same links: body i's pos/quat is link i's placement in
// its parent, its joint a hinge about our axis at the body origin, its inertial the link's
// mass, com and inertia about the com (fullinertia, in body axes). mj_rne needs the positions
// and velocities of MuJoCo's pipeline, so a timed "rnea" is mj_kinematics + mj_comPos +
// mj_comVel + mj_rne(flg_acc = 1) and a timed "crba" mj_kinematics + mj_comPos + mj_crb +
// mj_fullM (dense, as ours). MuJoCo's forward dynamics (mj_forward) does more than ABA
// (constraints, sensors, actuation), so it is not timed.

std::string iiwa_mjcf(const std::array<Link<double>, 7>& links) {
  std::ostringstream os;
  os.precision(17);
  os << "<mujoco model='iiwa'><option gravity='0 0 -9.81'/><worldbody>";
  for (const Link<double>& l : links) {
    const Eigen::Quaterniond r(l.placement.rotation);
    const Eigen::Vector3d& p = l.placement.translation;
    const Eigen::Matrix3d& i = l.inertia;
    os << "<body name='" << l.name << "' pos='" << p.x() << ' ' << p.y() << ' ' << p.z()
       << "' quat='" << r.w() << ' ' << r.x() << ' ' << r.y() << ' ' << r.z() << "'>"
       << "<inertial mass='" << l.mass << "' pos='" << l.com.x() << ' ' << l.com.y() << ' '
       << l.com.z() << "' fullinertia='" << i(0, 0) << ' ' << i(1, 1) << ' ' << i(2, 2) << ' '
       << i(0, 1) << ' ' << i(0, 2) << ' ' << i(1, 2) << "'/>"
       << "<joint type='hinge' axis='" << l.axis->x() << ' ' << l.axis->y() << ' '
       << l.axis->z() << "'/>";
  }
  for (std::size_t k = 0; k < links.size(); ++k) os << "</body>";
  os << "</worldbody></mujoco>";
  return os.str();
}

struct Mujoco {
  Mujoco() {
    const std::string xml = iiwa_mjcf(robots::kuka_iiwa_links());
    auto vfs = std::make_unique<mjVFS>();  // ~2 MB: not on the stack
    mj_defaultVFS(vfs.get());
    if (mj_makeEmptyFileVFS(vfs.get(), "iiwa.xml", int(xml.size())) != 0) {
      std::fprintf(stderr, "bench_peers: MuJoCo VFS error\n");
      std::exit(1);
    }
    std::copy(xml.begin(), xml.end(), static_cast<char*>(vfs->filedata[vfs->nfile - 1]));
    char error[1000] = "";
    model = mj_loadXML("iiwa.xml", vfs.get(), error, sizeof error);
    mj_deleteVFS(vfs.get());
    if (!model || model->nv != 7) {
      std::fprintf(stderr, "bench_peers: MuJoCo cannot load the iiwa MJCF: %s\n%s\n", error,
                   xml.c_str());
      std::exit(1);
    }
    data = mj_makeData(model);
  }
  Mujoco(const Mujoco&) = delete;
  Mujoco& operator=(const Mujoco&) = delete;
  ~Mujoco() {
    mj_deleteData(data);
    mj_deleteModel(model);
  }

  void rne(const Iiwa::Vector& q, const Iiwa::Vector& qd, const Iiwa::Vector& qdd) {
    mju_copy(data->qpos, q.data(), 7);
    mju_copy(data->qvel, qd.data(), 7);
    mju_copy(data->qacc, qdd.data(), 7);
    mj_kinematics(model, data);
    mj_comPos(model, data);
    mj_comVel(model, data);
    mj_rne(model, data, 1, tau);
  }
  void mass_matrix(const Iiwa::Vector& q) {
    mju_copy(data->qpos, q.data(), 7);
    mj_kinematics(model, data);
    mj_comPos(model, data);
    mj_crb(model, data);
    mj_fullM(model, mass, data->qM);
  }

  mjModel* model = nullptr;
  mjData* data = nullptr;
  mjtNum tau[7] = {};
  mjtNum mass[49] = {};  // row-major
};

Mujoco& mujoco() {
  static Mujoco m;
  return m;
}
#endif

/// max |ours - theirs| / max(1, max |theirs|), as the tests' relative_error. Plain loops: with
/// -march=native on an AVX-512 machine, g++ 12 raises a false -Wmaybe-uninitialized inside its
/// own _mm512_max_pd for Eigen's vectorised maxCoeff of dynamic matrices.
template <typename A, typename B>
double relative_error(const A& ours, const B& theirs) {
  double diff = 0, scale = 1;
  for (Eigen::Index r = 0; r < theirs.rows(); ++r) {
    for (Eigen::Index c = 0; c < theirs.cols(); ++c) {
      diff = std::max(diff, std::abs(ours(r, c) - theirs(r, c)));
      scale = std::max(scale, std::abs(theirs(r, c)));
    }
  }
  return diff / scale;
}

/// Compares rnea, crba and aba with KDL (and MuJoCo on the iiwa) on every state; exits with a
/// message if they disagree.
template <typename Model>
void check_agreement(const char* chain_name) {
  Peers<Model>& p = peers<Model>();
  const Model& model = *p.ours.model;
  Data<Model>& data = *p.ours.data;
  double worst[6] = {0, 0, 0, 0, 0, 0};
  const char* names[6] = {"rnea vs KDL ChainIdSolver_RNE", "crba vs KDL ChainDynParam::JntToMass",
                          "aba vs KDL ChainFdSolver_RNE", "aba vs KDL ChainHdSolver_Vereshchagin",
                          "rnea vs MuJoCo mj_rne", "crba vs MuJoCo mj_crb + mj_fullM"};
#ifdef CHAINDYN_BENCH_MUJOCO
  const int compared = std::is_same_v<Model, Iiwa> ? 6 : 4;
#else
  const int compared = 4;
#endif
  for (std::size_t k = 0; k < kStates; ++k) {
    bool solved = p.id.CartToJnt(p.q[k], p.qd[k], p.qdd[k], p.f_ext, p.out) >= 0;
    rnea(model, data, p.ours.q[k], p.ours.qd[k], p.ours.qdd[k]);
    worst[0] = std::max(worst[0], relative_error(data.tau, p.out.data));

    solved = solved && p.dyn.JntToMass(p.q[k], p.mass) >= 0;
    crba(model, data, p.ours.q[k]);
    worst[1] = std::max(worst[1], relative_error(data.M, p.mass.data));

    solved = solved && p.fd.CartToJnt(p.q[k], p.qd[k], p.tau[k], p.f_ext, p.out) >= 0;
    aba(model, data, p.ours.q[k], p.ours.qd[k], p.ours.tau[k]);
    worst[2] = std::max(worst[2], relative_error(data.qdd, p.out.data));
    solved = solved && p.hd.CartToJnt(p.q[k], p.qd[k], p.out, p.hd_alpha, p.hd_beta, p.f_ext,
                                      p.tau[k], p.hd_constraint_tau) >= 0;
    worst[3] = std::max(worst[3], relative_error(data.qdd, p.out.data));
#ifdef CHAINDYN_BENCH_MUJOCO
    if constexpr (std::is_same_v<Model, Iiwa>) {
    Mujoco& mj = mujoco();
    mj.rne(p.ours.q[k], p.ours.qd[k], p.ours.qdd[k]);
    rnea(model, data, p.ours.q[k], p.ours.qd[k], p.ours.qdd[k]);
    worst[4] = std::max(worst[4], relative_error(data.tau, Eigen::Map<const Iiwa::Vector>(mj.tau)));
    mj.mass_matrix(p.ours.q[k]);
    crba(model, data, p.ours.q[k]);
    // mj.mass is row-major, Map reads it column-major: the transpose of a symmetric matrix
    worst[5] = std::max(worst[5],
                        relative_error(data.M, Eigen::Map<const Iiwa::Matrix>(mj.mass)));
    }
#endif
    if (!solved) {
      std::fprintf(stderr, "bench_peers: a KDL solver failed at state %zu\n", k);
      std::exit(1);
    }
  }
  bool agree = true;
  std::printf("%s: agreement over %zu states (max |ours - peer| / max(1, max |peer|)):\n",
              chain_name, kStates);
  for (int i = 0; i < compared; ++i) {
    const bool ok = worst[i] < 1e-9;
    agree = agree && ok;
    std::printf("  %-38s %.2e %s\n", names[i], worst[i], ok ? "ok" : "DISAGREES (limit 1e-9)");
  }
  if (!agree) {
    std::fprintf(stderr, "bench_peers: chaindyn and a peer disagree; not timing them\n");
    std::exit(1);
  }
}

/// Checks chaindyn's tree rnea against KDL's on every state; exits if they disagree.
template <typename Model>
void check_tree_agreement(const char* name) {
  TreePeers<Model>& p = tree_peers<Model>();
  double worst = 0;
  for (std::size_t k = 0; k < kStates; ++k) {
    rnea(*p.ours.model, *p.ours.data, p.ours.q[k], p.ours.qd[k], p.ours.qdd[k]);
    if (p.id.CartToJnt(p.q[k], p.qd[k], p.qdd[k], p.f_ext, p.out) < 0) {
      std::fprintf(stderr, "bench_peers: KDL's TreeIdSolver_RNE failed at state %zu\n", k);
      std::exit(1);
    }
    double diff = 0, scale = 1;
    for (Eigen::Index i = 0; i < p.ours.data->tau.size(); ++i) {
      diff = std::max(diff, std::abs(p.ours.data->tau[i] - p.out(unsigned(i))));
      scale = std::max(scale, std::abs(p.out(unsigned(i))));
    }
    worst = std::max(worst, diff / scale);
  }
  std::printf("%s: rnea against KDL's TreeIdSolver_RNE over %zu states: %.2e %s\n", name,
              kStates, worst, worst < 1e-9 ? "ok" : "DISAGREES (limit 1e-9)");
  if (!(worst < 1e-9)) std::exit(1);
}

// --- the timed calls -------------------------------------------------------------------------

template <typename Model, typename Algorithm>
void chaindyn_call(benchmark::State& state) {
  time_calls<Algorithm>(state, peers<Model>().ours);
}

/// rnea_derivatives (Aba = false) or aba_derivatives, in place, one reused workspace.
template <typename Model, bool Aba>
void chaindyn_derivatives(benchmark::State& state) {
  Peers<Model>* p = &peers<Model>();
  benchmark::DoNotOptimize(p);
  const Fixture<Model>& f = p->ours;
  std::size_t k = 0;
  for (auto _ : state) {
    if constexpr (Aba) {
      aba_derivatives(*f.model, *p->derivatives, f.q[k], f.qd[k], f.tau[k]);
    } else {
      rnea_derivatives(*f.model, *p->derivatives, f.q[k], f.qd[k], f.qdd[k]);
    }
    benchmark::ClobberMemory();
    k = (k + 1) & (kStates - 1);
  }
}

/// The same call on the chain as a ChainX (issue 17: the runtime-sized chain).
template <typename Model, typename Algorithm>
void chainx_call(benchmark::State& state) {
  time_calls<Algorithm>(state, peers<Model>().ours_x);
}

/// The iiwa without placement types (ChainN<double, 7, RevoluteZ>: the placements' zeros and
/// ones are numbers the kernels multiply), same links and states: what Placed saves (issue 14).
using UnplacedIiwa = ChainN<double, 7, RevoluteZ>;
template <typename Algorithm>
void unplaced_call(benchmark::State& state) {
  static const Fixture<UnplacedIiwa> f{UnplacedIiwa(robots::kuka_iiwa_links())};
  time_calls<Algorithm>(state, f);
}

/// KDL's loop: same state cycling, outputs in solver-owned or preallocated arrays.
template <typename Model, typename Call>
void time_kdl(benchmark::State& state, Call call) {
  Peers<Model>* p = &peers<Model>();
  benchmark::DoNotOptimize(p);
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(call(*p, k));
    benchmark::ClobberMemory();
    k = (k + 1) & (kStates - 1);
  }
}

template <typename Model>
void kdl_rnea(benchmark::State& state) {
  time_kdl<Model>(state, [](Peers<Model>& p, std::size_t k) {
    return p.id.CartToJnt(p.q[k], p.qd[k], p.qdd[k], p.f_ext, p.out);
  });
}
template <typename Model>
void kdl_crba(benchmark::State& state) {
  time_kdl<Model>(state,
                  [](Peers<Model>& p, std::size_t k) { return p.dyn.JntToMass(p.q[k], p.mass); });
}
template <typename Model>
void kdl_aba(benchmark::State& state) {
  time_kdl<Model>(state, [](Peers<Model>& p, std::size_t k) {
    return p.fd.CartToJnt(p.q[k], p.qd[k], p.tau[k], p.f_ext, p.out);
  });
}
template <typename Model>
void kdl_vereshchagin(benchmark::State& state) {
  time_kdl<Model>(state, [](Peers<Model>& p, std::size_t k) {
    return p.hd.CartToJnt(p.q[k], p.qd[k], p.out, p.hd_alpha, p.hd_beta, p.f_ext, p.tau[k],
                          p.hd_constraint_tau);
  });
}

#ifdef CHAINDYN_BENCH_MUJOCO
void mujoco_rnea(benchmark::State& state) {
  Mujoco* mj = &mujoco();
  const Fixture<Iiwa>& f = peers<Iiwa>().ours;
  benchmark::DoNotOptimize(mj);
  std::size_t k = 0;
  for (auto _ : state) {
    mj->rne(f.q[k], f.qd[k], f.qdd[k]);
    benchmark::ClobberMemory();
    k = (k + 1) & (kStates - 1);
  }
}
void mujoco_crba(benchmark::State& state) {
  Mujoco* mj = &mujoco();
  const Fixture<Iiwa>& f = peers<Iiwa>().ours;
  benchmark::DoNotOptimize(mj);
  std::size_t k = 0;
  for (auto _ : state) {
    mj->mass_matrix(f.q[k]);
    benchmark::ClobberMemory();
    k = (k + 1) & (kStates - 1);
  }
}
BENCHMARK(mujoco_rnea)->Name("iiwa/rnea/MuJoCo_kinematics_comPos_comVel_rne");
BENCHMARK(mujoco_crba)->Name("iiwa/crba/MuJoCo_kinematics_comPos_crb_fullM");
#endif

template <typename Model>
void chaindyn_tree_rnea(benchmark::State& state) {
  time_calls<Rnea>(state, tree_peers<Model>().ours);
}
template <typename Model>
void kdl_tree_rnea(benchmark::State& state) {
  TreePeers<Model>* p = &tree_peers<Model>();
  benchmark::DoNotOptimize(p);
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(p->id.CartToJnt(p->q[k], p->qd[k], p->qdd[k], p->f_ext, p->out));
    benchmark::ClobberMemory();
    k = (k + 1) & (kStates - 1);
  }
}

/// One chain's rows: "<name>/<algorithm>/<library or form>".
template <typename Model>
bool register_chain(const std::string& name) {
  const auto add = [&](const std::string& row, void (*f)(benchmark::State&)) {
    benchmark::RegisterBenchmark((name + "/" + row).c_str(), f);
  };
  add("rnea/chaindyn", &chaindyn_call<Model, Rnea>);
  add("rnea/chaindyn_ChainX", &chainx_call<Model, Rnea>);
  add("rnea/KDL_ChainIdSolver_RNE", &kdl_rnea<Model>);
  add("crba/chaindyn", &chaindyn_call<Model, Crba>);
  add("crba/chaindyn_ChainX", &chainx_call<Model, Crba>);
  add("crba/KDL_ChainDynParam_JntToMass", &kdl_crba<Model>);
  add("aba/chaindyn", &chaindyn_call<Model, Aba>);
  add("aba/chaindyn_ChainX", &chainx_call<Model, Aba>);
  add("aba/KDL_ChainFdSolver_RNE", &kdl_aba<Model>);
  add("aba/KDL_ChainHdSolver_Vereshchagin", &kdl_vereshchagin<Model>);
  add("forward_dynamics_crba/chaindyn", &chaindyn_call<Model, ForwardDynamicsCrba>);
  add("rnea_returning/chaindyn", &chaindyn_call<Model, RneaReturning>);
  add("crba_returning/chaindyn", &chaindyn_call<Model, CrbaReturning>);
  add("aba_returning/chaindyn", &chaindyn_call<Model, AbaReturning>);
  add("rnea_derivatives/chaindyn", &chaindyn_derivatives<Model, false>);
  add("aba_derivatives/chaindyn", &chaindyn_derivatives<Model, true>);
  return true;
}

[[maybe_unused]] const bool registered =
    register_chain<Iiwa>("iiwa") && register_chain<Chain64>("chain64") &&
    benchmark::RegisterBenchmark("iiwa/rnea/chaindyn_without_placement_types", &unplaced_call<Rnea>) &&
    benchmark::RegisterBenchmark("iiwa/crba/chaindyn_without_placement_types", &unplaced_call<Crba>) &&
    benchmark::RegisterBenchmark("iiwa/aba/chaindyn_without_placement_types", &unplaced_call<Aba>) &&
    benchmark::RegisterBenchmark("hand12/rnea/chaindyn", &chaindyn_tree_rnea<Hand12>) &&
    benchmark::RegisterBenchmark("hand12/rnea/KDL_TreeIdSolver_RNE", &kdl_tree_rnea<Hand12>) &&
    benchmark::RegisterBenchmark("treeX32/rnea/chaindyn", &chaindyn_tree_rnea<TreeX<double>>) &&
    benchmark::RegisterBenchmark("treeX32/rnea/KDL_TreeIdSolver_RNE",
                                 &kdl_tree_rnea<TreeX<double>>);

/// The console reporter, also keeping each benchmark's median (or, without repetitions, its
/// single run) for the ratio table.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  RatioReporter() : ConsoleReporter(OO_Tabular) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      // a single run stands in until (unless) the median of the repetitions arrives
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median") {
        median_ns_[run.run_name.function_name] = run.GetAdjustedRealTime();
      } else if (run.run_type == Run::RT_Iteration) {
        median_ns_.emplace(run.run_name.function_name, run.GetAdjustedRealTime());
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }

  void print_ratios() const {
    std::fflush(stdout);
    for (const char* chain : {"iiwa", "chain64", "hand12", "treeX32"}) {
      std::printf("\n%s: peer / chaindyn (ratio of median real times, same process):\n", chain);
      for (const char* algorithm : {"rnea", "crba", "aba"}) {
        const std::string prefix = std::string(chain) + "/" + algorithm + "/";
        const auto ours = median_ns_.find(prefix + "chaindyn");
        if (ours == median_ns_.end()) continue;
        for (const auto& [name, ns] : median_ns_) {
          if (name.rfind(prefix, 0) != 0 || name == ours->first) continue;
          std::printf("  %-5s chaindyn %9.1f ns  %-44s %9.1f ns  ratio %5.1fx\n", algorithm,
                      ours->second, name.substr(prefix.size()).c_str(), ns, ns / ours->second);
        }
      }
      // crba + Cholesky forward dynamics against KDL's (ChainFdSolver_RNE: RNEA + mass matrix +
      // LDL^T solve, the same route)
      const auto fd_ours = median_ns_.find(std::string(chain) + "/forward_dynamics_crba/chaindyn");
      const auto fd_kdl = median_ns_.find(std::string(chain) + "/aba/KDL_ChainFdSolver_RNE");
      if (fd_ours != median_ns_.end() && fd_kdl != median_ns_.end()) {
        std::printf("  %-5s chaindyn %9.1f ns  %-44s %9.1f ns  ratio %5.1fx\n", "fd",
                    fd_ours->second, "KDL_ChainFdSolver_RNE (forward_dynamics_crba)",
                    fd_kdl->second, fd_kdl->second / fd_ours->second);
      }
      // the rows without a KDL counterpart, as multiples of KDL's rnea (issue 14's yardstick)
      const auto kdl_rnea = median_ns_.find(std::string(chain) + "/rnea/KDL_ChainIdSolver_RNE");
      if (kdl_rnea == median_ns_.end()) continue;
      for (const char* row : {"rnea_returning", "crba_returning", "aba_returning",
                              "rnea_derivatives", "aba_derivatives"}) {
        const auto ours = median_ns_.find(std::string(chain) + "/" + row + "/chaindyn");
        if (ours == median_ns_.end()) continue;
        std::printf("  %-16s chaindyn %9.1f ns  = %5.2f x KDL rnea (%.1f ns)\n", row,
                    ours->second, ours->second / kdl_rnea->second, kdl_rnea->second);
      }
    }
    std::printf("\npeer / chaindyn's ChainX (the runtime-sized chain, same process):\n");
    for (const char* algorithm : {"rnea", "crba", "aba"}) {
      const std::string prefix = std::string("iiwa/") + algorithm + "/";
      const auto ours = median_ns_.find(prefix + "chaindyn_ChainX");
      if (ours == median_ns_.end()) continue;
      for (const auto& [name, ns] : median_ns_) {
        if (name.rfind(prefix, 0) != 0 || name.rfind(prefix + "chaindyn", 0) == 0) continue;
        std::printf("  %-5s ChainX   %8.1f ns  %-44s %8.1f ns  ratio %5.1fx\n", algorithm,
                    ours->second, name.substr(prefix.size()).c_str(), ns, ns / ours->second);
      }
    }
  }

 private:
  std::map<std::string, double> median_ns_;
};

}  // namespace
}  // namespace chaindyn::bench

int main(int argc, char** argv) {
  // Defaults first: the command line's own flags come later and win.
  std::vector<char*> args = {argv[0]};
  std::string defaults[] = {"--benchmark_repetitions=10",
                            "--benchmark_enable_random_interleaving=true",
                            "--benchmark_report_aggregates_only=true"};
  for (std::string& d : defaults) args.push_back(d.data());
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  int n = int(args.size());
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;

  chaindyn::bench::check_agreement<chaindyn::bench::Iiwa>("iiwa");
  chaindyn::bench::check_agreement<chaindyn::bench::Chain64>("chain64");
  chaindyn::bench::check_tree_agreement<chaindyn::bench::Hand12>("hand12");
  chaindyn::bench::check_tree_agreement<chaindyn::TreeX<double>>("treeX32");
  chaindyn::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_ratios();
  benchmark::Shutdown();
  return 0;
}
