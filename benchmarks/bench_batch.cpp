// Many states per call (chaindyn/batch.hpp) on the KUKA iiwa: ns per state over 1,024 states
// for rnea, aba, crba, rnea_derivatives and aba_derivatives at W = 1, 4, 8 states per pack
// and 1 or 2 threads, beside the one-state in-place call looped over the same states; and the
// memory floor, a loop that only reads Q, Qd, Qdd and writes Tau (what batch::rnea must move),
// over the same 1,024 states (in cache) and over 2^19 states (from memory); batch::rnea and aba
// of the iiwa on a free-flying base at W = 1 and 4 beside its one-state calls. See
// docs/benchmarks.md, "Many states per call".
#include "support/test_support.hpp"

#include <benchmark/benchmark.h>

#include <chaindyn/batch.hpp>
#include <chaindyn/robots/kuka_iiwa.hpp>

#include <memory>
#include <random>

namespace {

using namespace chaindyn;
using Model = robots::KukaIiwa<double>;
constexpr int N = Model::nq;
using Mat = batch::States<Model>;
constexpr Eigen::Index kStates = 1024;

// W = 8 is a third of this file's compile time; -DCHAINDYN_BENCH_BATCH_W8=0 leaves it out (for
// quick A/B builds on a machine whose native width is 4 or less).
#ifndef CHAINDYN_BENCH_BATCH_W8
#define CHAINDYN_BENCH_BATCH_W8 1
#endif

enum class Algorithm { rnea, aba, crba, rnea_derivatives, aba_derivatives };

/// The inputs and outputs of every algorithm over n seeded random states.
struct Batch {
  Mat q, qd, qdd, tau, out;
  Eigen::Matrix<double, N, Eigen::Dynamic> m1, m2, m3;  // N x N n: per-state matrices
  explicit Batch(Eigen::Index n)
      : q(N, n), qd(N, n), qdd(N, n), tau(N, n), out(N, n), m1(N, N * n), m2(N, N * n),
        m3(N, N * n) {
    std::mt19937 gen(test::kSeed);
    for (Eigen::Index s = 0; s < n; ++s) {
      q.col(s) = test::random_state<Model::Vector>(gen, 3.1);
      qd.col(s) = test::random_state<Model::Vector>(gen, 2.0);
      qdd.col(s) = test::random_state<Model::Vector>(gen, 5.0);
      tau.col(s) = test::random_state<Model::Vector>(gen, 20.0);
    }
  }
};

const Model& iiwa() {
  static const Model m = robots::kuka_iiwa();
  return m;
}
Batch& states() {
  static Batch b(kStates);
  return b;
}

/// ns per state: the time of one iteration divided by the states it covers.
void per_state(benchmark::State& state, Eigen::Index n) {
  using benchmark::Counter;
  state.counters["ns_per_state"] =
      Counter(double(n) * 1e-9, Counter::kIsIterationInvariantRate | Counter::kInvert);
}

template <int W>
void bm_batch(benchmark::State& state, Algorithm algorithm, int threads) {
  batch::Workspace<Model, W> ws(iiwa(), {threads});
  Batch& b = states();
  for (auto _ : state) {
    switch (algorithm) {
      case Algorithm::rnea: batch::rnea(ws, b.q, b.qd, b.qdd, b.out); break;
      case Algorithm::aba: batch::aba(ws, b.q, b.qd, b.tau, b.out); break;
      case Algorithm::crba: batch::crba(ws, b.q, b.m1); break;
      case Algorithm::rnea_derivatives:
        batch::rnea_derivatives(ws, b.q, b.qd, b.qdd, b.m1, b.m2);
        break;
      case Algorithm::aba_derivatives:
        batch::aba_derivatives(ws, b.q, b.qd, b.tau, b.m1, b.m2, b.m3);
        break;
    }
    benchmark::ClobberMemory();
  }
  per_state(state, kStates);
}

/// The one-state in-place call in a loop over the same states, one reused workspace.
void bm_one_state(benchmark::State& state, Algorithm algorithm) {
  const Model& model = iiwa();
  auto dd = std::make_unique<DerivativesData<Model>>();
  Data<Model>& data = dd->data;
  Batch& b = states();
  benchmark::DoNotOptimize(dd.get());
  for (auto _ : state) {
    for (Eigen::Index s = 0; s < kStates; ++s) {
      switch (algorithm) {
        case Algorithm::rnea: rnea(model, data, b.q.col(s), b.qd.col(s), b.qdd.col(s)); break;
        case Algorithm::aba: aba(model, data, b.q.col(s), b.qd.col(s), b.tau.col(s)); break;
        case Algorithm::crba: crba(model, data, b.q.col(s)); break;
        case Algorithm::rnea_derivatives:
          rnea_derivatives(model, *dd, b.q.col(s), b.qd.col(s), b.qdd.col(s));
          break;
        case Algorithm::aba_derivatives:
          aba_derivatives(model, *dd, b.q.col(s), b.qd.col(s), b.tau.col(s));
          break;
      }
      benchmark::ClobberMemory();
    }
  }
  per_state(state, kStates);
}

/// The memory floor of batch::rnea: read Q, Qd, Qdd and write Tau = Q + Qd + Qdd, nothing
/// else, over n states (1,024: from cache; 2^19, 117 MB: from memory).
void bm_memory_floor(benchmark::State& state) {
  const Eigen::Index n = state.range(0);
  Mat q = Mat::Ones(N, n), qd = Mat::Ones(N, n), qdd = Mat::Ones(N, n), tau(N, n);
  for (auto _ : state) {
    tau.noalias() = q + qd + qdd;
    benchmark::ClobberMemory();
  }
  per_state(state, n);
  state.counters["GB_per_s"] = benchmark::Counter(
      double(n) * 4 * N * sizeof(double) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

// The iiwa on a free-flying base (13 velocities): batch::rnea and aba against the one-state
// in-place calls looped over the same 1,024 states.
using Flying = FloatingBase<Model>;

struct FlyingBatch {
  batch::ConfigStates<Flying> q;
  batch::TangentStates<Flying> v, a, tau, out;
  explicit FlyingBatch(Eigen::Index n) : q(14, n), v(13, n), a(13, n), tau(13, n), out(13, n) {
    std::mt19937 gen(test::kSeed);
    const Flying& model = flying();
    for (Eigen::Index s = 0; s < n; ++s) {
      q.col(s) = random_configuration(model, gen, 2.0);
      for (Eigen::Index k = 0; k < 13; ++k) {
        v(k, s) = test::uniform(gen, -2.0, 2.0);
        a(k, s) = test::uniform(gen, -5.0, 5.0);
        tau(k, s) = test::uniform(gen, -20.0, 20.0);
      }
    }
  }
  static const Flying& flying() {
    static const Flying m = [] {
      Link<double> body;
      body.mass = 150.0;
      body.inertia = Eigen::Vector3d(20.0, 25.0, 30.0).asDiagonal();
      return Flying(body, iiwa());
    }();
    return m;
  }
};
FlyingBatch& flying_states() {
  static FlyingBatch b(kStates);
  return b;
}

template <int W>
void bm_flying_batch(benchmark::State& state, Algorithm algorithm) {
  batch::Workspace<Flying, W> ws(FlyingBatch::flying());
  FlyingBatch& b = flying_states();
  for (auto _ : state) {
    if (algorithm == Algorithm::rnea) {
      batch::rnea(ws, b.q, b.v, b.a, b.out);
    } else {
      batch::aba(ws, b.q, b.v, b.tau, b.out);
    }
    benchmark::ClobberMemory();
  }
  per_state(state, kStates);
}

void bm_flying_one_state(benchmark::State& state, Algorithm algorithm) {
  const Flying& model = FlyingBatch::flying();
  auto data = std::make_unique<Data<Flying>>();
  FlyingBatch& b = flying_states();
  benchmark::DoNotOptimize(data.get());
  for (auto _ : state) {
    for (Eigen::Index s = 0; s < kStates; ++s) {
      if (algorithm == Algorithm::rnea) {
        rnea(model, *data, b.q.col(s), b.v.col(s), b.a.col(s));
      } else {
        aba(model, *data, b.q.col(s), b.v.col(s), b.tau.col(s));
      }
      benchmark::ClobberMemory();
    }
  }
  per_state(state, kStates);
}

[[maybe_unused]] const bool registered = [] {
  for (const auto& [algorithm, name] : {std::pair{Algorithm::rnea, "rnea"}, std::pair{Algorithm::aba, "aba"}}) {
    const std::string prefix = std::string("floating_iiwa_1024/") + name;
    benchmark::RegisterBenchmark((prefix + "/one_state").c_str(), &bm_flying_one_state, algorithm)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((prefix + "/W:1").c_str(), &bm_flying_batch<1>, algorithm)
        ->Unit(benchmark::kMicrosecond)->UseRealTime();
    benchmark::RegisterBenchmark((prefix + "/W:4").c_str(), &bm_flying_batch<4>, algorithm)
        ->Unit(benchmark::kMicrosecond)->UseRealTime();
#if CHAINDYN_BENCH_BATCH_W8
    benchmark::RegisterBenchmark((prefix + "/W:8").c_str(), &bm_flying_batch<8>, algorithm)
        ->Unit(benchmark::kMicrosecond)->UseRealTime();
#endif
  }
  const std::pair<Algorithm, const char*> algorithms[] = {
      {Algorithm::rnea, "rnea"},
      {Algorithm::aba, "aba"},
      {Algorithm::crba, "crba"},
      {Algorithm::rnea_derivatives, "rnea_derivatives"},
      {Algorithm::aba_derivatives, "aba_derivatives"}};
  for (const auto& [algorithm, name] : algorithms) {
    const std::string prefix = std::string("iiwa_1024/") + name;
    benchmark::RegisterBenchmark((prefix + "/one_state").c_str(), &bm_one_state, algorithm)
        ->Unit(benchmark::kMicrosecond);
    for (const int threads : {1, 2}) {
      const std::string t = "/threads:" + std::to_string(threads);
      benchmark::RegisterBenchmark((prefix + "/W:1" + t).c_str(), &bm_batch<1>, algorithm, threads)
          ->Unit(benchmark::kMicrosecond)->UseRealTime();
      benchmark::RegisterBenchmark((prefix + "/W:4" + t).c_str(), &bm_batch<4>, algorithm, threads)
          ->Unit(benchmark::kMicrosecond)->UseRealTime();
#if CHAINDYN_BENCH_BATCH_W8
      benchmark::RegisterBenchmark((prefix + "/W:8" + t).c_str(), &bm_batch<8>, algorithm, threads)
          ->Unit(benchmark::kMicrosecond)->UseRealTime();
#endif
    }
  }
  benchmark::RegisterBenchmark("memory_floor/read_q_qd_qdd_write_tau", &bm_memory_floor)
      ->Arg(kStates)->Arg(1 << 19)->Unit(benchmark::kMicrosecond)->UseRealTime();
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
