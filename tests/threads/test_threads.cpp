// Thread safety (docs/conventions.md, "Threads"): 4 threads share one const model and call the
// in-place algorithms, each on its own Data, and the returning forms, many times at once; every
// result must equal, bit for bit, the one computed single-threaded before the threads start.
// Built with -fsanitize=thread (tests/CMakeLists.txt, the clang preset): ThreadSanitizer also
// fails the test (exit code 66) on any data race, e.g. if an algorithm wrote to the model or
// to shared state of its own. Models: the built-in iiwa (ChainN<7, RevoluteZ>, axes in the type)
// and, when the URDF parser is built, the Panda loaded from tests/data/urdf as
// ChainN<7, Revolute> (run-time axes).
//
// A plain main, not Catch: the whole program is compiled with ThreadSanitizer, and it is kept
// small to keep the CI stage short.
#include <chaindyn/algorithms/aba.hpp>
#include <chaindyn/algorithms/crba.hpp>
#include <chaindyn/algorithms/forward_dynamics_crba.hpp>
#include <chaindyn/algorithms/jacobian.hpp>
#include <chaindyn/algorithms/rnea.hpp>
#include <chaindyn/batch.hpp>
#include <chaindyn/robots/kuka_iiwa.hpp>
#ifdef CHAINDYN_URDF_DATA_DIR
#include <chaindyn/urdf.hpp>
#endif

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace chaindyn;

constexpr int kThreads = 4;
constexpr int kStates = 8;
constexpr int kRounds = 200;  // each thread computes kRounds * kStates results

/// Everything one state gives: the in-place forms' outputs and the returning forms'.
template <typename Model>
struct Results {
  typename Model::Vector tau, qdd_aba, qdd_crba, tau_r, qdd_aba_r, qdd_crba_r;
  typename Model::Matrix m, m_r;
  FrameJacobian<Model> j, j_r;

  bool operator==(const Results& o) const {
    return tau == o.tau && qdd_aba == o.qdd_aba && qdd_crba == o.qdd_crba && tau_r == o.tau_r &&
           qdd_aba_r == o.qdd_aba_r && qdd_crba_r == o.qdd_crba_r && m == o.m && m_r == o.m_r &&
           j == o.j && j_r == o.j_r;
  }
};

template <typename Model>
struct State {
  typename Model::Vector q, qd, qdd, tau;
};

/// The calls under test: in place on `data`, and the returning forms (their own workspaces).
template <typename Model>
void compute(const Model& model, Data<Model>& data, const State<Model>& s, Results<Model>& r) {
  const std::size_t tip = std::size_t(Model::nq) - 1;
  rnea(model, data, s.q, s.qd, s.qdd);
  r.tau = data.tau;
  crba(model, data, s.q);
  r.m = data.M;
  aba(model, data, s.q, s.qd, s.tau);
  r.qdd_aba = data.qdd;
  forward_dynamics_crba(model, data, s.q, s.qd, s.tau);
  r.qdd_crba = data.qdd;
  jacobian(model, data, s.q, tip, ReferenceFrame::world, r.j);
  r.tau_r = rnea(model, s.q, s.qd, s.qdd);
  r.m_r = crba(model, s.q);
  r.qdd_aba_r = aba(model, s.q, s.qd, s.tau);
  r.qdd_crba_r = forward_dynamics_crba(model, s.q, s.qd, s.tau);
  r.j_r = jacobian(model, s.q, tip, ReferenceFrame::local);
}

/// Seeded states (splitmix64: the same on every compiler).
template <typename Model>
std::vector<State<Model>> states(std::uint64_t seed) {
  const auto next = [&seed] {
    std::uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return -1.0 + 2.0 * double(z >> 11) * 0x1.0p-53;
  };
  std::vector<State<Model>> out(kStates);
  for (State<Model>& s : out) {
    for (Eigen::Index i = 0; i < Model::nq; ++i) {
      s.q[i] = 3.0 * next();
      s.qd[i] = 2.0 * next();
      s.qdd[i] = 2.0 * next();
      s.tau[i] = 20.0 * next();
    }
  }
  return out;
}

/// Runs the calls on `model` from kThreads threads at once, each with its own Data; returns
/// the number of results that differ from the single-threaded reference.
template <typename Model>
int check(const char* name, const Model& model, std::uint64_t seed) {
  const std::vector<State<Model>> input = states<Model>(seed);
  std::vector<Results<Model>> reference(kStates);
  {
    const auto data = std::make_unique<Data<Model>>();
    for (std::size_t k = 0; k < std::size_t(kStates); ++k) {
      compute(model, *data, input[k], reference[k]);
    }
  }
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const auto data = std::make_unique<Data<Model>>();  // one Data per thread
      Results<Model> r;
      for (int round = 0; round < kRounds; ++round) {
        for (int k = 0; k < kStates; ++k) {
          // the threads start at different states, so different calls overlap
          const std::size_t s = std::size_t((k + t) % kStates);
          compute(model, *data, input[s], r);
          if (!(r == reference[s])) ++mismatches[std::size_t(t)];
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  int total = 0;
  for (int m : mismatches) total += m;
  std::printf("%-32s %d threads x %d calls of each algorithm: %d results differ from the "
              "single-threaded ones\n",
              name, kThreads, kRounds * kStates, total);
  return total;
}

/// batch::Workspace with 2 threads (the calling one and a worker of the pool): 50 calls of
/// batch::rnea and batch::aba in a row over 37 states (packs and a tail) must equal the
/// one-state results to the pack's rounding (1e-12 relative; aba against the qdd it inverts,
/// 1e-8); ThreadSanitizer watches the pool's hand-over of the job (to a spinning and to a
/// sleeping worker), of the chunks and of the results.
int check_batch() {
  using Model = robots::KukaIiwa<double>;
  const Model model = robots::kuka_iiwa();
  const std::vector<State<Model>> input = states<Model>(3);
  const int n = 37;
  batch::States<Model> q(7, n), qd(7, n), qdd(7, n), tau(7, n), acc(7, n);
  for (int s = 0; s < n; ++s) {
    q.col(s) = input[std::size_t(s % kStates)].q;
    qd.col(s) = input[std::size_t(s % kStates)].qd;
    qdd.col(s) = input[std::size_t(s % kStates)].qdd;
  }
  batch::Options options;
  options.threads = 2;
  batch::Workspace<Model> ws(model, options);
  const auto data = std::make_unique<Data<Model>>();
  int mismatches = 0;
  for (int round = 0; round < 50; ++round) {
    // Every tenth call finds the worker asleep (it spins at most 50 us after a job): the
    // wake-up through the condition variable is checked too, not only the spinning hand-over.
    if (round % 10 == 9) std::this_thread::sleep_for(std::chrono::milliseconds(3));
    batch::rnea(ws, q, qd, qdd, tau);
    batch::aba(ws, q, qd, tau, acc);
    for (int s = 0; s < n; ++s) {
      rnea(model, *data, q.col(s), qd.col(s), qdd.col(s));
      if (!((tau.col(s) - data->tau).cwiseAbs().maxCoeff() <= 1e-12 * (1 + data->tau.norm()))) {
        ++mismatches;
      }
      if (!((acc.col(s) - qdd.col(s)).cwiseAbs().maxCoeff() <= 1e-8)) ++mismatches;
    }
  }
  std::printf("batch::Workspace, 2 threads, 50 x rnea and aba over %d states: %d results differ\n",
              n, mismatches);
  return mismatches;
}

/// The pool's hand-out of the columns (batch::Workspace::for_each_range), 3 threads on this
/// 2-core machine (so a worker is often descheduled mid-job): 3,000 calls over 1 .. 300
/// columns, some after a pause long enough for the workers to fall asleep; every column must be
/// taken exactly once, by ranges that start on a block boundary (bytes_per_column 56: blocks
/// of 2 packs). Prints how many columns the workers took (they must take some).
int check_pool() {
  using Model = robots::KukaIiwa<double>;
  batch::Options options;
  options.threads = 3;
  batch::Workspace<Model> ws(robots::kuka_iiwa(), options);
  constexpr int kWidth = batch::Workspace<Model>::width;
  std::vector<int> taken(300);
  std::int64_t by_thread[3] = {0, 0, 0};
  int errors = 0;
  std::uint32_t seed = 7;
  for (int call = 0; call < 3000; ++call) {
    seed = seed * 1664525u + 1013904223u;
    const Eigen::Index n = 1 + Eigen::Index(seed >> 8) % 300;
    if (call % 500 == 499) std::this_thread::sleep_for(std::chrono::milliseconds(3));
    std::fill(taken.begin(), taken.end(), 0);
    ws.for_each_range(n, sizeof(double) * 7, [&](int t, Eigen::Index first, Eigen::Index count) {
      if (first % (2 * kWidth) != 0 || count <= 0 || first + count > n) ++taken[0];  // a bad range
      for (Eigen::Index c = first; c < first + count; ++c) ++taken[std::size_t(c)];
      by_thread[t] += count;
    });
    for (Eigen::Index c = 0; c < n; ++c) errors += taken[std::size_t(c)] != 1;
  }
  std::printf("batch::Workspace, 3 threads, 3000 calls over 1..300 columns: %d columns taken "
              "other than once; columns per thread %lld, %lld, %lld\n",
              errors, static_cast<long long>(by_thread[0]), static_cast<long long>(by_thread[1]),
              static_cast<long long>(by_thread[2]));
  return errors + (by_thread[1] + by_thread[2] == 0);
}

}  // namespace

int main() {
  int failures = 0;
  try {
    failures += check("iiwa (ChainN<7, RevoluteZ>)", robots::kuka_iiwa(), 1);
    failures += check_batch();
    failures += check_pool();
#ifdef CHAINDYN_URDF_DATA_DIR
    using Panda = ChainN<double, 7, Revolute>;
    failures += check("Panda URDF (ChainN<7, Revolute>)",
                      urdf::load<Panda>(std::string(CHAINDYN_URDF_DATA_DIR) + "/panda.urdf",
                                        "panda_hand"),
                      2);
#else
    std::printf("Panda URDF: skipped (the URDF parser is not built)\n");
#endif
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
