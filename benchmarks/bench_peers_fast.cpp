// bench_fast_peers: chaindyn next to the fastest published peers, Pinocchio 3 and RBDL 3, in one
// process (built only when CMake finds one of them, CHAINDYN_BENCH_PINOCCHIO /
// CHAINDYN_BENCH_RBDL), with Eigen's default alignment, as each library's users build it (KDL,
// whose Debian build aligns to 16 bytes, is bench_peers'). Neither is a dependency of chaindyn:
// docs/benchmarks.md, "Pinocchio and RBDL", builds them into a local prefix (RBDL with this
// program's compiler, flags and C++17: its Model's layout and Eigen's aligned new must match)
// and points the benchmark at it.
// `bench_fast_peers [--rounds=N]` (default 30).
//
// Robots: the KUKA iiwa, the UR5 and a seeded random 64-joint chain of RevoluteZ joints. Each is
// built from the same links in every library, so the numbers compared are the same:
//   chaindyn   the generated type (robots::KukaIiwa, robots::Ur5: Placed joints; none for n = 64),
//              ChainN<double, n, RevoluteZ> from the links (what urdf::parse<ChainN<n, RevoluteZ>>
//              gives) and ChainX::from that ChainN (what urdf::parse_any gives)
//   Pinocchio  Model::addJoint(parent, JointModelRZ (the axis is z in every joint frame here;
//              JointModelRevoluteUnaligned otherwise), link placement) + appendBodyToJoint(link
//              inertia), used header-only (no explicit template instantiation library)
//   RBDL       Model::AddBody(parent, SpatialTransform(placement rotation^T, placement
//              translation), Joint(JointTypeRevoluteZ), Body(mass, com, inertia about the com)),
//              gravity (0, 0, -9.81)
// Before timing, every state is run through all of them and compared (max |ours - peer| /
// max(1, max |peer|)): rnea, crba (Pinocchio fills the upper triangle of M: compared there),
// aba, crba + Cholesky forward dynamics, and Pinocchio's computeRNEADerivatives (dtau_dq,
// dtau_dv) and computeABADerivatives (ddq_dq, ddq_dv, Minv's upper triangle); on disagreement
// the program exits with status 1.
//
// Timed, in place with reused workspaces (each library's fastest use):
//   rnea        pinocchio::rnea                              RBDL InverseDynamics
//   crba        pinocchio::crba (LOCAL and WORLD conventions) RBDL CompositeRigidBodyAlgorithm
//   aba         pinocchio::aba (LOCAL and WORLD)             RBDL ForwardDynamics
//   fd_crba     nonLinearEffects + crba + cholesky::decompose + cholesky::solve (Pinocchio's
//               sparse Cholesky of M); RBDL ForwardDynamicsLagrangian (LinearSolverLLT, reused
//               H and C)
//   rnea_deriv  computeRNEADerivatives                       (RBDL has none)
//   aba_deriv   computeABADerivatives                        (RBDL has none)
// And chaindyn's batch:: forms of rnea, aba and both derivatives on one core (columns "batch" for
// the generated type and "batch ChainX"; iiwa and UR5), kBatchBlock states per call at the native
// pack width, reported per state, against the same peers' one-state calls.
// As bench_runtime: rounds of every (robot, algorithm, library) cell in turn, a batch of calls on
// consecutive precomputed states each; a cell's figure is its minimum over the rounds, and the
// speed-ups (fastest peer / chaindyn) compare cells of this one process.
#include "bench_common.hpp"

#include <chaindyn/algorithms/aba_derivatives.hpp>
#include <chaindyn/algorithms/rnea_derivatives.hpp>
#include <chaindyn/batch.hpp>

#ifdef CHAINDYN_BENCH_PINOCCHIO
#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/cholesky.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/rnea-derivatives.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/multibody/data.hpp>
#include <pinocchio/multibody/model.hpp>
#endif
#ifdef CHAINDYN_BENCH_RBDL
#include <rbdl/rbdl.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace chaindyn::bench {

int run_fast_peers(int rounds);

namespace {

using Links = std::vector<Link<double>>;
using VectorXd = Eigen::VectorXd;
using MatrixXd = Eigen::MatrixXd;

const Eigen::Vector3d& axis_of(const Link<double>& l) {
  static const Eigen::Vector3d z = Eigen::Vector3d::UnitZ();
  return l.axis ? *l.axis : z;
}

/// ns per call of `calls` calls of call(k) on consecutive states k.
template <typename Call>
double time_batch(const Call& call, int calls) {
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t k = 0;
  for (int i = 0; i < calls; ++i) {
    call(k);
    benchmark::ClobberMemory();
    k = (k + 1) & (kStates - 1);
  }
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / calls;
}

const char* const kAlgorithms[] = {"rnea", "crba", "aba", "fd_crba", "rnea_deriv", "aba_deriv"};
constexpr int kAlgorithmCount = 6;

struct Cell {
  std::string robot;
  int algorithm;
  std::string column;
  bool peer;
  std::function<double()> time;
  double best = std::numeric_limits<double>::infinity();
};

/// States per batch:: call in the batch cells (a multiple of every pack width).
constexpr Eigen::Index kBatchBlock = 64;

/// The states every library of one robot is run on (copied from chaindyn's ChainN fixture).
struct States {
  std::vector<VectorXd> q, qd, qdd, tau;
  template <typename Model>
  explicit States(const Fixture<Model>& f) {
    for (std::size_t k = 0; k < kStates; ++k) {
      q.push_back(f.q[k]);
      qd.push_back(f.qd[k]);
      qdd.push_back(f.qdd[k]);
      tau.push_back(f.tau[k]);
    }
  }
};

/// A chaindyn model with its fixture and a derivatives workspace.
template <typename Model>
struct Ours {
  Fixture<Model> f;
  std::unique_ptr<DerivativesData<Model>> dd;
  explicit Ours(Model m)
      : f(std::move(m)), dd(std::make_unique<DerivativesData<Model>>(*f.model)) {}

  template <int A>
  void call(std::size_t k) {
    if constexpr (A == 0) Rnea::run(f, k);
    if constexpr (A == 1) Crba::run(f, k);
    if constexpr (A == 2) Aba::run(f, k);
    if constexpr (A == 3) ForwardDynamicsCrba::run(f, k);
    if constexpr (A == 4) rnea_derivatives(*f.model, *dd, f.q[k], f.qd[k], f.qdd[k]);
    if constexpr (A == 5) aba_derivatives(*f.model, *dd, f.q[k], f.qd[k], f.tau[k]);
  }
};

/// The batch size of algorithm code A: a quarter for the derivatives.
constexpr int batch(int code, int calls) { return code == 4 || code == 5 ? std::max(1, calls / 4) : calls; }

/// A cell timing p->call<Code>() as algorithm `algorithm` (Code: the peer's own code for it).
template <int Code, typename Subject>
Cell cell(const std::string& robot, int algorithm, const std::string& column, bool peer,
          Subject& subject, int calls) {
  return Cell{robot, algorithm, column, peer, [&subject, calls] {
                Subject* p = &subject;
                benchmark::DoNotOptimize(p);
                return time_batch([p](std::size_t k) { p->template call<Code>(k); },
                                  batch(Code, calls));
              }};
}

template <typename Model>
void add_ours(std::vector<Cell>& cells, const std::string& robot, const std::string& column,
              Ours<Model>& o, int calls) {
  cells.push_back(cell<0>(robot, 0, column, false, o, calls));
  cells.push_back(cell<1>(robot, 1, column, false, o, calls));
  cells.push_back(cell<2>(robot, 2, column, false, o, calls));
  cells.push_back(cell<3>(robot, 3, column, false, o, calls));
  cells.push_back(cell<4>(robot, 4, column, false, o, calls));
  cells.push_back(cell<5>(robot, 5, column, false, o, calls));
}

/// max |ours - theirs| / max(1, max |theirs|) over the entries (upper triangle only with
/// `upper`). Plain loops (see bench_peers.cpp's relative_error).
template <typename A, typename B>
double relative_error(const A& ours, const B& theirs, bool upper = false) {
  double diff = 0, scale = 1;
  for (Eigen::Index c = 0; c < theirs.cols(); ++c) {
    for (Eigen::Index r = 0; r < (upper ? c + 1 : theirs.rows()); ++r) {
      diff = std::max(diff, std::abs(ours(r, c) - theirs(r, c)));
      scale = std::max(scale, std::abs(theirs(r, c)));
    }
  }
  return diff / scale;
}

/// The reference results of chaindyn's ChainN on state k, for the agreement checks.
struct Reference {
  VectorXd tau, qdd;
  MatrixXd M, dtau_dq, dtau_dqd, dqdd_dq, dqdd_dqd, minv;
};

template <typename Model>
Reference reference(Ours<Model>& o, std::size_t k) {
  Reference r;
  o.template call<0>(k);
  r.tau = o.f.data->tau;
  o.template call<1>(k);
  r.M = o.f.data->M;
  o.template call<2>(k);
  r.qdd = o.f.data->qdd;
  o.template call<4>(k);
  r.dtau_dq = o.dd->dtau_dq;
  r.dtau_dqd = o.dd->dtau_dqd;
  o.template call<5>(k);
  r.dqdd_dq = o.dd->dqdd_dq;
  r.dqdd_dqd = o.dd->dqdd_dqd;
  r.minv = o.dd->dqdd_dtau;
  return r;
}

/// Worst disagreement per named comparison, printed and checked at the end.
struct Agreement {
  std::vector<std::pair<std::string, double>> worst;
  void note(const std::string& name, double e) {
    for (auto& [n, w] : worst) {
      if (n == name) {
        w = std::max(w, e);
        return;
      }
    }
    worst.emplace_back(name, e);
  }
  bool report(const std::string& robot, double limit) const {
    bool ok = true;
    std::printf("%s: agreement with the fastest peers over %zu states "
                "(max |ours - peer| / max(1, max |peer|)):\n",
                robot.c_str(), kStates);
    for (const auto& [n, w] : worst) {
      const bool good = w < limit;
      ok = ok && good;
      std::printf("  %-44s %.2e %s\n", n.c_str(), w, good ? "ok" : "DISAGREES");
    }
    return ok;
  }
};

/// chaindyn's batch:: calls on one core: call<A>(k) runs algorithm A on the kBatchBlock states of
/// block k (the fixture's states as columns, in place into preallocated outputs).
template <typename Model>
struct OursBatch {
  static constexpr Eigen::Index kBlocks = Eigen::Index(kStates) / kBatchBlock;
  batch::Workspace<Model> ws;
  MatrixXd q, qd, qdd, tau, out, d1, d2, d3;
  OursBatch(const Model& model, const States& s)
      : ws(model, batch::Options{1}) {
    const Eigen::Index n = s.q[0].size();
    q.resize(n, Eigen::Index(kStates));
    qd.resizeLike(q);
    qdd.resizeLike(q);
    tau.resizeLike(q);
    for (Eigen::Index k = 0; k < Eigen::Index(kStates); ++k) {
      q.col(k) = s.q[std::size_t(k)];
      qd.col(k) = s.qd[std::size_t(k)];
      qdd.col(k) = s.qdd[std::size_t(k)];
      tau.col(k) = s.tau[std::size_t(k)];
    }
    out.resize(n, kBatchBlock);
    d1.resize(n, n * kBatchBlock);
    d2.resizeLike(d1);
    d3.resizeLike(d1);
  }
  template <int A>
  void call(std::size_t k) {
    const Eigen::Index c = (Eigen::Index(k) % kBlocks) * kBatchBlock;
    const auto Q = q.middleCols(c, kBatchBlock);
    const auto Qd = qd.middleCols(c, kBatchBlock);
    if constexpr (A == 0) batch::rnea(ws, Q, Qd, qdd.middleCols(c, kBatchBlock), out);
    if constexpr (A == 2) batch::aba(ws, Q, Qd, tau.middleCols(c, kBatchBlock), out);
    if constexpr (A == 4) {
      batch::rnea_derivatives(ws, Q, Qd, qdd.middleCols(c, kBatchBlock), d1, d2);
    }
    if constexpr (A == 5) {
      batch::aba_derivatives(ws, Q, Qd, tau.middleCols(c, kBatchBlock), d1, d2, d3);
    }
  }
  /// The batch results of block 0 against the one-state reference r of state k < kBatchBlock.
  void check(const Reference& r, std::size_t k, const std::string& column, Agreement& agreement) {
    const Eigen::Index n = q.rows();
    const Eigen::Index s = Eigen::Index(k);
    call<0>(0);
    agreement.note("batch rnea (" + column + ")", relative_error(out.col(s), r.tau));
    call<2>(0);
    agreement.note("batch aba (" + column + ")", relative_error(out.col(s), r.qdd));
    call<4>(0);
    agreement.note("batch rnea_derivatives (" + column + ")",
                   std::max(relative_error(d1.middleCols(s * n, n), r.dtau_dq),
                            relative_error(d2.middleCols(s * n, n), r.dtau_dqd)));
    call<5>(0);
    agreement.note("batch aba_derivatives (" + column + ")",
                   std::max(relative_error(d1.middleCols(s * n, n), r.dqdd_dq),
                            relative_error(d2.middleCols(s * n, n), r.dqdd_dqd)));
  }
};

/// A cell timing s->call<Code>() on kBatchBlock states, reported per state.
template <int Code, typename Subject>
Cell batch_cell(const std::string& robot, int algorithm, const std::string& column,
                Subject& subject, int calls) {
  return Cell{robot, algorithm, column, false, [&subject, calls] {
                Subject* p = &subject;
                benchmark::DoNotOptimize(p);
                const int n = std::max(1, batch(Code, calls) / int(kBatchBlock));
                return time_batch([p](std::size_t k) { p->template call<Code>(k); }, n) /
                       double(kBatchBlock);
              }};
}

template <typename Model>
void add_batch(std::vector<Cell>& cells, const std::string& robot, const std::string& column,
               OursBatch<Model>& o, int calls) {
  cells.push_back(batch_cell<0>(robot, 0, column, o, calls));
  cells.push_back(batch_cell<2>(robot, 2, column, o, calls));
  cells.push_back(batch_cell<4>(robot, 4, column, o, calls));
  cells.push_back(batch_cell<5>(robot, 5, column, o, calls));
}

#ifdef CHAINDYN_BENCH_PINOCCHIO
// --- Pinocchio 3 -----------------------------------------------------------------------------

struct PinocchioPeer {
  pinocchio::Model model;
  std::unique_ptr<pinocchio::Data> data;
  const States* s;
  VectorXd x;  ///< tau - nle, solved in place by cholesky::solve

  PinocchioPeer(const Links& links, const States& states) : s(&states) {
    pinocchio::JointIndex parent = 0;
    for (const Link<double>& l : links) {
      const pinocchio::SE3 placement(l.placement.rotation, l.placement.translation);
      const Eigen::Vector3d& axis = axis_of(l);
      const pinocchio::JointIndex j =
          axis == Eigen::Vector3d::UnitZ()
              ? model.addJoint(parent, pinocchio::JointModelRZ(), placement, l.name + "_joint")
              : model.addJoint(parent, pinocchio::JointModelRevoluteUnaligned(axis), placement,
                               l.name + "_joint");
      model.appendBodyToJoint(j, pinocchio::Inertia(l.mass, l.com, l.inertia),
                              pinocchio::SE3::Identity());
      parent = j;
    }
    model.gravity.linear(Eigen::Vector3d(0, 0, -9.81));
    data = std::make_unique<pinocchio::Data>(model);
    x = VectorXd::Zero(model.nv);
  }

  // 0 rnea, 1 crba, 2 aba, 3 fd_crba, 4 rnea_deriv, 5 aba_deriv; 11 crba WORLD, 12 aba WORLD
  template <int A>
  void call(std::size_t k) {
    pinocchio::Data& d = *data;
    if constexpr (A == 0) pinocchio::rnea(model, d, s->q[k], s->qd[k], s->qdd[k]);
    if constexpr (A == 1) pinocchio::crba(model, d, s->q[k], pinocchio::Convention::LOCAL);
    if constexpr (A == 11) pinocchio::crba(model, d, s->q[k], pinocchio::Convention::WORLD);
    if constexpr (A == 2) {
      pinocchio::aba(model, d, s->q[k], s->qd[k], s->tau[k], pinocchio::Convention::LOCAL);
    }
    if constexpr (A == 12) {
      pinocchio::aba(model, d, s->q[k], s->qd[k], s->tau[k], pinocchio::Convention::WORLD);
    }
    if constexpr (A == 3) {
      pinocchio::nonLinearEffects(model, d, s->q[k], s->qd[k]);
      pinocchio::crba(model, d, s->q[k], pinocchio::Convention::WORLD);
      pinocchio::cholesky::decompose(model, d);
      x = s->tau[k] - d.nle;
      pinocchio::cholesky::solve(model, d, x);
    }
    if constexpr (A == 4) pinocchio::computeRNEADerivatives(model, d, s->q[k], s->qd[k], s->qdd[k]);
    if constexpr (A == 5) pinocchio::computeABADerivatives(model, d, s->q[k], s->qd[k], s->tau[k]);
  }

  void check(const Reference& r, std::size_t k, Agreement& a) {
    call<0>(k);
    a.note("rnea vs pinocchio::rnea", relative_error(r.tau, data->tau));
    call<1>(k);
    a.note("crba vs pinocchio::crba LOCAL (upper)", relative_error(r.M, data->M, true));
    data->M.setZero();
    call<11>(k);
    a.note("crba vs pinocchio::crba WORLD (upper)", relative_error(r.M, data->M, true));
    call<2>(k);
    a.note("aba vs pinocchio::aba LOCAL", relative_error(r.qdd, data->ddq));
    call<12>(k);
    a.note("aba vs pinocchio::aba WORLD", relative_error(r.qdd, data->ddq));
    call<3>(k);
    a.note("fd_crba vs pinocchio nle+crba+cholesky", relative_error(r.qdd, x));
    call<4>(k);
    a.note("rnea_derivatives dq vs computeRNEADerivatives", relative_error(r.dtau_dq, data->dtau_dq));
    a.note("rnea_derivatives dqd vs computeRNEADerivatives", relative_error(r.dtau_dqd, data->dtau_dv));
    call<5>(k);
    a.note("aba_derivatives dq vs computeABADerivatives", relative_error(r.dqdd_dq, data->ddq_dq));
    a.note("aba_derivatives dqd vs computeABADerivatives", relative_error(r.dqdd_dqd, data->ddq_dv));
    a.note("aba_derivatives M^-1 vs computeABADerivatives", relative_error(r.minv, data->Minv, true));
  }
};
#endif

#ifdef CHAINDYN_BENCH_RBDL
// --- RBDL 3 ----------------------------------------------------------------------------------

struct RbdlPeer {
  RigidBodyDynamics::Model model;
  const States* s;
  RigidBodyDynamics::Math::VectorNd out, C;
  RigidBodyDynamics::Math::MatrixNd H;

  RbdlPeer(const Links& links, const States& states) : s(&states) {
    using namespace RigidBodyDynamics;
    model.gravity = Math::Vector3d(0, 0, -9.81);
    unsigned parent = 0;
    for (const Link<double>& l : links) {
      const Math::SpatialTransform placement(l.placement.rotation.transpose(),
                                             l.placement.translation);
      const Eigen::Vector3d& axis = axis_of(l);
      const Joint joint = axis == Eigen::Vector3d::UnitZ()
                              ? Joint(JointTypeRevoluteZ)
                              : Joint(JointTypeRevolute, Math::Vector3d(axis));
      parent = model.AddBody(parent, placement, joint,
                             Body(l.mass, Math::Vector3d(l.com), Math::Matrix3d(l.inertia)),
                             l.name);
    }
    const auto n = Eigen::Index(model.dof_count);
    out = Math::VectorNd::Zero(n);
    C = Math::VectorNd::Zero(n);
    H = Math::MatrixNd::Zero(n, n);
  }

  // 0 rnea, 1 crba, 2 aba, 3 fd_crba
  template <int A>
  void call(std::size_t k) {
    using namespace RigidBodyDynamics;
    if constexpr (A == 0) InverseDynamics(model, s->q[k], s->qd[k], s->qdd[k], out);
    if constexpr (A == 1) CompositeRigidBodyAlgorithm(model, s->q[k], H, true);
    if constexpr (A == 2) ForwardDynamics(model, s->q[k], s->qd[k], s->tau[k], out);
    if constexpr (A == 3) {
      ForwardDynamicsLagrangian(model, s->q[k], s->qd[k], s->tau[k], out, Math::LinearSolverLLT,
                                nullptr, &H, &C);
    }
  }

  void check(const Reference& r, std::size_t k, Agreement& a) {
    call<0>(k);
    a.note("rnea vs RBDL InverseDynamics", relative_error(r.tau, out));
    call<1>(k);
    a.note("crba vs RBDL CompositeRigidBodyAlgorithm", relative_error(r.M, H));
    call<2>(k);
    a.note("aba vs RBDL ForwardDynamics", relative_error(r.qdd, out));
    call<3>(k);
    a.note("fd_crba vs RBDL ForwardDynamicsLagrangian", relative_error(r.qdd, out));
  }
};
#endif

/// A robot: chaindyn's variants and the peers, checked against each other, then its cells.
struct Robot {
  std::string name;
  Links links;
  std::unique_ptr<States> states;
#ifdef CHAINDYN_BENCH_PINOCCHIO
  std::unique_ptr<PinocchioPeer> pinocchio;
#endif
#ifdef CHAINDYN_BENCH_RBDL
  std::unique_ptr<RbdlPeer> rbdl;
#endif
};

template <typename Model>
Ours<Model>& keep(Model m) {
  static std::vector<std::unique_ptr<Ours<Model>>> kept;
  kept.push_back(std::make_unique<Ours<Model>>(std::move(m)));
  return *kept.back();
}

template <typename Model>
OursBatch<Model>& keep_batch(Model m, const States& s) {
  static std::vector<std::unique_ptr<OursBatch<Model>>> kept;
  kept.push_back(std::make_unique<OursBatch<Model>>(m, s));
  return *kept.back();
}

/// Builds one robot's chaindyn variants (Generated: the generated type, or void) and peers,
/// checks them, and adds their cells.
template <int N, typename Generated>
bool add_robot(std::vector<Cell>& cells, std::vector<std::unique_ptr<Robot>>& robots,
               const std::string& name, const Links& links, Generated* generated, int calls) {
  using ChainNz = ChainN<double, N, RevoluteZ>;
  Ours<ChainNz>& chain_n = keep(ChainNz(links));
  Ours<ChainX<double>>& chain_x = keep(ChainX<double>::from(ChainNz(links)));
  auto robot = std::make_unique<Robot>();
  robot->name = name;
  robot->links = links;
  robot->states = std::make_unique<States>(chain_n.f);
#ifdef CHAINDYN_BENCH_PINOCCHIO
  robot->pinocchio = std::make_unique<PinocchioPeer>(links, *robot->states);
#endif
#ifdef CHAINDYN_BENCH_RBDL
  robot->rbdl = std::make_unique<RbdlPeer>(links, *robot->states);
#endif
  Agreement agreement;
  for (std::size_t k = 0; k < kStates; ++k) {
    const Reference r = reference(chain_n, k);
#ifdef CHAINDYN_BENCH_PINOCCHIO
    robot->pinocchio->check(r, k, agreement);
#endif
#ifdef CHAINDYN_BENCH_RBDL
    robot->rbdl->check(r, k, agreement);
#endif
    // chaindyn's crba + Cholesky route against its own aba (the peers' fd_crba are checked
    // against r.qdd, aba's result)
    chain_n.template call<3>(k);
    agreement.note("fd_crba vs aba (chaindyn)", relative_error(chain_n.f.data->qdd, r.qdd));
  }
  // batch:: on the generated type and on ChainX (the derivatives' outputs at n = 64 would be
  // 64 x 4,096 per call: iiwa and UR5 only)
  OursBatch<ChainX<double>>* batch_x = nullptr;
  void* batch_generated = nullptr;
  if constexpr (N <= 7) {
    batch_x = &keep_batch(ChainX<double>::from(ChainNz(links)), *robot->states);
    for (std::size_t k = 0; k < std::size_t(kBatchBlock); k += 9) {
      batch_x->check(reference(chain_n, k), k, "ChainX", agreement);
    }
    if constexpr (!std::is_void_v<Generated>) {
      auto& g = keep_batch(Generated(*generated), *robot->states);
      batch_generated = &g;
      for (std::size_t k = 0; k < std::size_t(kBatchBlock); k += 9) {
        g.check(reference(chain_n, k), k, "generated", agreement);
      }
    }
  }
  if (!agreement.report(name, 1e-10)) return false;

  if constexpr (!std::is_void_v<Generated>) {
    add_ours(cells, name, "generated", keep(Generated(*generated)), calls);
  }
  add_ours(cells, name, "ChainN", chain_n, calls);
  add_ours(cells, name, "ChainX", chain_x, calls);
  if constexpr (!std::is_void_v<Generated>) {
    if (batch_generated) {
      add_batch(cells, name, "batch", *static_cast<OursBatch<Generated>*>(batch_generated), calls);
    }
  }
  if (batch_x) add_batch(cells, name, "batch ChainX", *batch_x, calls);
#ifdef CHAINDYN_BENCH_PINOCCHIO
  PinocchioPeer& pin = *robot->pinocchio;
  cells.push_back(cell<0>(name, 0, "Pinocchio", true, pin, calls));
  cells.push_back(cell<1>(name, 1, "Pinocchio", true, pin, calls));
  cells.push_back(cell<11>(name, 1, "Pinocchio_WORLD", true, pin, calls));
  cells.push_back(cell<2>(name, 2, "Pinocchio", true, pin, calls));
  cells.push_back(cell<12>(name, 2, "Pinocchio_WORLD", true, pin, calls));
  cells.push_back(cell<3>(name, 3, "Pinocchio", true, pin, calls));
  cells.push_back(cell<4>(name, 4, "Pinocchio", true, pin, calls));
  cells.push_back(cell<5>(name, 5, "Pinocchio", true, pin, calls));
#endif
#ifdef CHAINDYN_BENCH_RBDL
  RbdlPeer& rbdl = *robot->rbdl;
  cells.push_back(cell<0>(name, 0, "RBDL", true, rbdl, calls));
  cells.push_back(cell<1>(name, 1, "RBDL", true, rbdl, calls));
  cells.push_back(cell<2>(name, 2, "RBDL", true, rbdl, calls));
  cells.push_back(cell<3>(name, 3, "RBDL", true, rbdl, calls));
#endif
  robots.push_back(std::move(robot));
  return true;
}

}  // namespace

/// Checks chaindyn against the peers on the iiwa, the UR5 and n = 64, then times every cell
/// `rounds` times, interleaved, and prints the minima and the speed-ups over the fastest peer.
/// Returns 1 if a peer disagrees.
int run_fast_peers(int rounds) {
  std::vector<Cell> cells;
  std::vector<std::unique_ptr<Robot>> robots;
  using Chain64 = ChainN<double, 64, RevoluteZ>;
  const auto kuka = robots::kuka_iiwa_links();
  const auto ur5 = robots::ur5();
  const Chain64 c64 = random_chain<Chain64>();
  const bool agree =
      add_robot<7>(cells, robots, "iiwa", Links(kuka.begin(), kuka.end()),
                   std::make_unique<robots::KukaIiwa<double>>(robots::kuka_iiwa()).get(), 2000) &&
      add_robot<6>(cells, robots, "UR5", Links(ur5.links().begin(), ur5.links().end()),
                   std::make_unique<robots::Ur5<double>>(ur5).get(), 2000) &&
      add_robot<64>(cells, robots, "n64", Links(c64.links().begin(), c64.links().end()),
                    static_cast<void*>(nullptr), 100);
  if (!agree) {
    std::fprintf(stderr, "bench_peers: chaindyn and Pinocchio/RBDL disagree; not timing them\n");
    return 1;
  }
  for (int r = 0; r < rounds; ++r) {
    for (Cell& c : cells) c.best = std::min(c.best, c.time());
  }

  std::printf("\nchaindyn and the fastest peers: min over %d interleaved rounds, ns per call\n",
              rounds);
  std::vector<std::string> columns, robot_names;
  for (const Cell& c : cells) {
    if (std::find(columns.begin(), columns.end(), c.column) == columns.end()) {
      columns.push_back(c.column);
    }
    if (std::find(robot_names.begin(), robot_names.end(), c.robot) == robot_names.end()) {
      robot_names.push_back(c.robot);
    }
  }
  const auto find = [&](const std::string& robot, int algorithm, const std::string& column) {
    for (const Cell& c : cells) {
      if (c.robot == robot && c.algorithm == algorithm && c.column == column) return &c;
    }
    return static_cast<const Cell*>(nullptr);
  };
  std::printf("%-16s", "robot/algorithm");
  for (const std::string& c : columns) std::printf(" %15s", c.c_str());
  std::printf("\n");
  for (const std::string& robot : robot_names) {
    for (int a = 0; a < kAlgorithmCount; ++a) {
      std::printf("%-16s", (robot + "/" + kAlgorithms[a]).c_str());
      for (const std::string& column : columns) {
        const Cell* c = find(robot, a, column);
        if (c) {
          std::printf(" %15.1f", c->best);
        } else {
          std::printf(" %15s", "-");
        }
      }
      std::printf("\n");
    }
  }

  std::printf("\nspeed-up of chaindyn over the fastest peer (fastest peer ns / chaindyn ns; "
              "the fastest peer per column below)\n");
  for (const std::string& robot : robot_names) {
    std::printf("%-16s", robot.c_str());
    for (int a = 0; a < kAlgorithmCount; ++a) std::printf(" %11s", kAlgorithms[a]);
    std::printf("\n");
    const Cell* fastest[kAlgorithmCount] = {};
    for (const Cell& c : cells) {
      if (c.robot == robot && c.peer && (!fastest[c.algorithm] || c.best < fastest[c.algorithm]->best)) {
        fastest[c.algorithm] = &c;
      }
    }
    for (const char* variant : {"generated", "ChainN", "ChainX", "batch", "batch ChainX"}) {
      if (!find(robot, 0, variant)) continue;
      std::printf("  %-14s", variant);
      for (int a = 0; a < kAlgorithmCount; ++a) {
        const Cell* ours = find(robot, a, variant);
        if (ours && fastest[a]) {
          std::printf(" %10.2fx", fastest[a]->best / ours->best);
        } else {
          std::printf(" %11s", "-");
        }
      }
      std::printf("\n");
    }
    std::printf("  %-14s", "fastest peer");
    for (int a = 0; a < kAlgorithmCount; ++a) {
      std::printf(" %11s", fastest[a] ? fastest[a]->column.c_str() : "-");
    }
    std::printf("\n");
  }
  return 0;
}

}  // namespace chaindyn::bench

int main(int argc, char** argv) {
  int rounds = 30;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--rounds=", 0) == 0) {
      char* end = nullptr;
      const long r = std::strtol(arg.c_str() + 9, &end, 10);
      if (*end == '\0' && r >= 1 && r <= 100000) {
        rounds = int(r);
        continue;
      }
    }
    std::fprintf(stderr, "bench_fast_peers: unknown argument '%s' (usage: bench_fast_peers "
                         "[--rounds=N], 1 <= N <= 100000)\n", argv[i]);
    return 2;
  }
  return chaindyn::bench::run_fast_peers(rounds);
}
