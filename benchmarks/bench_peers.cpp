// chaindyn next to Orocos KDL (Debian liborocos-kdl-dev 1.5) in one process, on the KUKA iiwa
// built from the same robots::kuka_iiwa_links() data:
//   rnea  vs KDL::ChainIdSolver_RNE::CartToJnt
//   crba  vs KDL::ChainDynParam::JntToMass
//   aba   vs KDL::ChainFdSolver_RNE::CartToJnt (RNEA + mass matrix + LDL^T solve)
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

#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainfdsolver_recursive_newton_euler.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
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

KDL::Chain to_kdl_chain(const std::array<Link<double>, 7>& links) {
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

/// chaindyn's fixture and KDL's chain, solvers, inputs and outputs. Built once; never moved
/// (ChainDynParam keeps a reference to the chain).
struct Peers {
  Peers()
      : ours(robots::kuka_iiwa()), chain(to_kdl_chain(robots::kuka_iiwa_links())),
        id(chain, kGravity), dyn(chain, kGravity), fd(chain, kGravity),
        f_ext(chain.getNrOfSegments(), KDL::Wrench::Zero()), out(7), mass(7) {
    for (std::size_t k = 0; k < kStates; ++k) {
      q.push_back(jnt(ours.q[k]));
      qd.push_back(jnt(ours.qd[k]));
      qdd.push_back(jnt(ours.qdd[k]));
      tau.push_back(jnt(ours.tau[k]));
    }
  }
  Peers(const Peers&) = delete;
  Peers& operator=(const Peers&) = delete;

  static KDL::JntArray jnt(const Iiwa::Vector& v) {
    KDL::JntArray a(7);
    for (unsigned i = 0; i < 7; ++i) a(i) = v[Eigen::Index(i)];
    return a;
  }

  Fixture<Iiwa> ours;
  KDL::Chain chain;
  KDL::ChainIdSolver_RNE id;
  KDL::ChainDynParam dyn;
  KDL::ChainFdSolver_RNE fd;
  KDL::Wrenches f_ext;
  std::vector<KDL::JntArray> q, qd, qdd, tau;
  KDL::JntArray out;
  KDL::JntSpaceInertiaMatrix mass;
};

Peers& peers() {
  static Peers p;
  return p;
}

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

/// Compares rnea, crba and aba with KDL on every state; exits with a message if they disagree.
void check_agreement() {
  Peers& p = peers();
  const Iiwa& model = *p.ours.model;
  Data<Iiwa>& data = *p.ours.data;
  double worst[3] = {0, 0, 0};
  const char* names[3] = {"rnea vs ChainIdSolver_RNE", "crba vs ChainDynParam::JntToMass",
                          "aba vs ChainFdSolver_RNE"};
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
    if (!solved) {
      std::fprintf(stderr, "bench_peers: a KDL solver failed at state %zu\n", k);
      std::exit(1);
    }
  }
  bool agree = true;
  std::printf("Agreement with KDL over %zu states (max |ours - KDL| / max(1, max |KDL|)):\n",
              kStates);
  for (int i = 0; i < 3; ++i) {
    const bool ok = worst[i] < 1e-9;
    agree = agree && ok;
    std::printf("  %-34s %.2e %s\n", names[i], worst[i], ok ? "ok" : "DISAGREES (limit 1e-9)");
  }
  if (!agree) {
    std::fprintf(stderr, "bench_peers: chaindyn and KDL disagree; not timing them\n");
    std::exit(1);
  }
}

// --- the timed calls -------------------------------------------------------------------------

void chaindyn_rnea(benchmark::State& state) { time_calls<Rnea>(state, peers().ours); }
void chaindyn_crba(benchmark::State& state) { time_calls<Crba>(state, peers().ours); }
void chaindyn_aba(benchmark::State& state) { time_calls<Aba>(state, peers().ours); }

/// KDL's loop: same state cycling, outputs in solver-owned or preallocated arrays.
template <typename Call>
void time_kdl(benchmark::State& state, Call call) {
  Peers* p = &peers();
  benchmark::DoNotOptimize(p);
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(call(*p, k));
    benchmark::ClobberMemory();
    k = (k + 1) & (kStates - 1);
  }
}

void kdl_rnea(benchmark::State& state) {
  time_kdl(state, [](Peers& p, std::size_t k) {
    return p.id.CartToJnt(p.q[k], p.qd[k], p.qdd[k], p.f_ext, p.out);
  });
}
void kdl_crba(benchmark::State& state) {
  time_kdl(state, [](Peers& p, std::size_t k) { return p.dyn.JntToMass(p.q[k], p.mass); });
}
void kdl_aba(benchmark::State& state) {
  time_kdl(state, [](Peers& p, std::size_t k) {
    return p.fd.CartToJnt(p.q[k], p.qd[k], p.tau[k], p.f_ext, p.out);
  });
}

BENCHMARK(chaindyn_rnea)->Name("iiwa/rnea/chaindyn");
BENCHMARK(kdl_rnea)->Name("iiwa/rnea/KDL_ChainIdSolver_RNE");
BENCHMARK(chaindyn_crba)->Name("iiwa/crba/chaindyn");
BENCHMARK(kdl_crba)->Name("iiwa/crba/KDL_ChainDynParam_JntToMass");
BENCHMARK(chaindyn_aba)->Name("iiwa/aba/chaindyn");
BENCHMARK(kdl_aba)->Name("iiwa/aba/KDL_ChainFdSolver_RNE");

/// The console reporter, also keeping each benchmark's median (or, without repetitions, its
/// single run) for the ratio table.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  RatioReporter() : ConsoleReporter(OO_Tabular) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Aggregate ? run.aggregate_name == "median"
                                            : run.repetitions <= 1) {
        median_ns_[run.run_name.function_name] = run.GetAdjustedRealTime();
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }

  void print_ratios() const {
    std::fflush(stdout);
    std::printf("\nKDL / chaindyn (ratio of median real times, same process):\n");
    for (const char* algorithm : {"rnea", "crba", "aba"}) {
      const std::string prefix = std::string("iiwa/") + algorithm + "/";
      double ours = 0, theirs = 0;
      std::string theirs_name;
      for (const auto& [name, ns] : median_ns_) {
        if (name.rfind(prefix, 0) != 0) continue;
        if (name == prefix + "chaindyn") {
          ours = ns;
        } else {
          theirs = ns;
          theirs_name = name.substr(prefix.size());
        }
      }
      if (ours > 0 && theirs > 0) {
        std::printf("  %-5s chaindyn %8.1f ns  %-30s %8.1f ns  ratio %5.1fx\n", algorithm, ours,
                    theirs_name.c_str(), theirs, theirs / ours);
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

  chaindyn::bench::check_agreement();
  chaindyn::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_ratios();
  benchmark::Shutdown();
  return 0;
}
