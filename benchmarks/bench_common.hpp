// What every chaindyn benchmark shares: a model with a reused heap-allocated Data (and Jacobian)
// and 256 precomputed random states, the six dynamics algorithms and the flange Jacobian as call
// wrappers, and the benchmark loop.
//
// Each timed call reads the next precomputed state (so nothing can be hoisted out of the loop)
// and writes into a Data (or Jacobian) whose address has escaped to the compiler
// (benchmark::DoNotOptimize); benchmark::ClobberMemory after each call forces its results to be
// stored.
#pragma once

#include "support/test_support.hpp"

#include <benchmark/benchmark.h>

#include <chaindyn/chaindyn.hpp>

#include <cstddef>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#ifdef CHAINDYN_BENCH_COMPILE_CHECK
// CI's build of the benchmarks (CHAINDYN_BENCH_COMPILE_CHECK in benchmarks/CMakeLists.txt: -O0,
// no forced inlining) checks that they compile and run; its figures mean nothing. Say so once.
namespace chaindyn::bench::detail {
inline const bool compile_check_warning =
    (std::fputs("chaindyn: benchmarks built with CHAINDYN_BENCH_COMPILE_CHECK (-O0, no forced "
                "inlining): a compile and smoke check; these figures mean nothing\n",
                stderr),
     true);
}  // namespace chaindyn::bench::detail
#endif

namespace chaindyn::bench {

/// States per model, cycled through by the benchmark loop (a power of two).
inline constexpr std::size_t kStates = 256;

/// A model, its workspace, a Jacobian to write into, the flange (a frame fixed on the last link,
/// whose Jacobian FlangeJacobian computes) and kStates random states.
/// Data<ChainN<double, 128, ...>> holds 128 x 128 matrices: it lives on the heap.
template <typename Model>
struct Fixture {
  using Vector = typename Model::Vector;
  using Pose = Transform<typename Model::Scalar>;

  /// The flange is the last link's frame.
  explicit Fixture(Model m, std::uint32_t seed = test::kSeed)
      : Fixture(std::move(m), Pose::Identity(), seed) {}

  /// flange_in_last_link: the flange's pose in the last link's frame (e.g. robots::panda_flange()).
  Fixture(Model m, const Pose& flange_in_last_link, std::uint32_t seed = test::kSeed)
      : model(std::make_unique<const Model>(std::move(m))),
        data(std::make_unique<Data<Model>>(*model)),
        jacobian(std::make_unique<FrameJacobian<Model>>(
            FrameJacobian<Model>::Zero(6, Eigen::Index(model->joint_count())))),
        flange(flange_in_last_link) {
    std::mt19937 gen(seed);
    const auto n = Eigen::Index(model->joint_count());
    for (std::size_t k = 0; k < kStates; ++k) {
      q.push_back(test::random_state<Vector>(gen, 3.1, n));
      qd.push_back(test::random_state<Vector>(gen, 2.0, n));
      qdd.push_back(test::random_state<Vector>(gen, 5.0, n));
      tau.push_back(test::random_state<Vector>(gen, 20.0, n));
    }
  }

  std::unique_ptr<const Model> model;
  std::unique_ptr<Data<Model>> data;
  std::unique_ptr<FrameJacobian<Model>> jacobian;
  Pose flange;
  std::vector<Vector> q, qd, qdd, tau;
};

/// A chain of N joints of type Joint from seeded random links (test::random_links: random
/// placements, axes, masses and inertias).
template <typename Model>
Model random_chain(std::uint32_t seed = test::kSeed) {
  std::mt19937 gen(seed);
  return Model(test::random_links<Model>(gen));
}

// --- the algorithms, in-place forms ----------------------------------------------------------

struct Rnea {
  template <typename Model>
  static void run(const Fixture<Model>& f, std::size_t k) {
    rnea(*f.model, *f.data, f.q[k], f.qd[k], f.qdd[k]);
  }
};
struct Crba {
  template <typename Model>
  static void run(const Fixture<Model>& f, std::size_t k) {
    crba(*f.model, *f.data, f.q[k]);
  }
};
struct Aba {
  template <typename Model>
  static void run(const Fixture<Model>& f, std::size_t k) {
    aba(*f.model, *f.data, f.q[k], f.qd[k], f.tau[k]);
  }
};
struct ForwardDynamicsCrba {
  template <typename Model>
  static void run(const Fixture<Model>& f, std::size_t k) {
    forward_dynamics_crba(*f.model, *f.data, f.q[k], f.qd[k], f.tau[k]);
  }
};
struct NonlinearEffects {
  template <typename Model>
  static void run(const Fixture<Model>& f, std::size_t k) {
    nonlinear_effects(*f.model, *f.data, f.q[k], f.qd[k]);
  }
};
struct GravityTorques {
  template <typename Model>
  static void run(const Fixture<Model>& f, std::size_t k) {
    gravity_torques(*f.model, *f.data, f.q[k]);
  }
};

// --- returning forms (a per-thread workspace, model/data.hpp), result into the fixture's Data --

struct RneaReturning {
  template <typename Model>
  static void run(const Fixture<Model>& f, std::size_t k) {
    f.data->tau = rnea(*f.model, f.q[k], f.qd[k], f.qdd[k]);
  }
};
struct CrbaReturning {
  template <typename Model>
  static void run(const Fixture<Model>& f, std::size_t k) {
    f.data->M = crba(*f.model, f.q[k]);
  }
};
struct AbaReturning {
  template <typename Model>
  static void run(const Fixture<Model>& f, std::size_t k) {
    f.data->qdd = aba(*f.model, f.q[k], f.qd[k], f.tau[k]);
  }
};

/// The world-frame geometric Jacobian of the flange (6 x n, rows [angular; linear]), in place
/// (jacobian.hpp: forward kinematics of every link, then one column per joint).
struct FlangeJacobian {
  template <typename Model>
  static void run(const Fixture<Model>& f, std::size_t k) {
    jacobian(*f.model, *f.data, f.q[k], f.model->joint_count() - 1, f.flange,
             ReferenceFrame::world, *f.jacobian);
  }
};

/// The timed loop: one call per iteration on the next state, results forced to memory.
template <typename Algorithm, typename Model>
void time_calls(benchmark::State& state, const Fixture<Model>& f) {
  Data<Model>* data = f.data.get();
  FrameJacobian<Model>* J = f.jacobian.get();
  benchmark::DoNotOptimize(data);
  benchmark::DoNotOptimize(J);
  std::size_t k = 0;
  for (auto _ : state) {
    Algorithm::run(f, k);
    benchmark::ClobberMemory();
    k = (k + 1) & (kStates - 1);
  }
}

}  // namespace chaindyn::bench

namespace chaindyn::bench {

/// The six dynamics algorithms by name, in the order they are reported (the sweeps time these;
/// bench_dynamics.cpp adds FlangeJacobian, "jacobian", for the fixed models).
template <typename F>
void for_each_algorithm(F&& f) {
  f(Rnea{}, "rnea");
  f(Crba{}, "crba");
  f(Aba{}, "aba");
  f(ForwardDynamicsCrba{}, "forward_dynamics_crba");
  f(NonlinearEffects{}, "nonlinear_effects");
  f(GravityTorques{}, "gravity_torques");
}

/// One fixture per random chain type, built on first use and shared by its algorithms.
template <typename Model>
const Fixture<Model>& random_chain_fixture() {
  static const Fixture<Model> f(random_chain<Model>());
  return f;
}

/// One cell of a sweep: ChainN<double, N, Joint>, reported with n = N for the complexity fit and
/// a per-joint time counter (seconds per call / N).
template <typename Joint, typename Algorithm, int N>
void sweep_cell(benchmark::State& state) {
  time_calls<Algorithm>(state, random_chain_fixture<ChainN<double, N, Joint>>());
  state.SetComplexityN(N);
  state.counters["per_joint"] = benchmark::Counter(
      double(N), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// Runs the cell of n = state.range(0) among N, 2N, 4N, ... MaxN (only those are compiled).
template <typename Joint, typename Algorithm, int N, int MaxN>
void sweep_dispatch(benchmark::State& state) {
  if (state.range(0) == N) {
    sweep_cell<Joint, Algorithm, N>(state);
  } else if constexpr (N < MaxN) {
    sweep_dispatch<Joint, Algorithm, 2 * N, MaxN>(state);
  } else {
    state.SkipWithError("this chain length is not compiled into the benchmark");
  }
}

/// Registers "<prefix>/<algorithm>/n:1 .. n:MaxN" (powers of two) for ChainN<double, n, Joint>,
/// with a complexity fit per algorithm.
template <typename Joint, int MaxN>
bool register_sweep(const std::string& prefix) {
  for_each_algorithm([&](auto algorithm, const char* name) {
    using Algorithm = decltype(algorithm);
    benchmark::RegisterBenchmark((prefix + "/" + name).c_str(),
                                 &sweep_dispatch<Joint, Algorithm, 1, MaxN>)
        ->RangeMultiplier(2)
        ->Range(1, MaxN)
        ->ArgName("n")
        ->Complexity();
  });
  return true;
}

}  // namespace chaindyn::bench
