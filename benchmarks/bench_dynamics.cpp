// chaindyn's algorithms (in-place forms, one reused Data) on the two-link arm and the KUKA iiwa;
// the chain-length sweeps are registered by bench_sweep_*.cpp. ns per call; see
// docs/benchmarks.md for how to run and read them.
#include "bench_common.hpp"

namespace chaindyn::bench {
namespace {

const Fixture<closed_form::TwoLinkArm<double>::ChainType>& two_link() {
  static const Fixture<closed_form::TwoLinkArm<double>::ChainType> f(
      closed_form::TwoLinkArm<double>::uniform_rods(3, 1, 2, 1, 9.81).to_chain());
  return f;
}

const Fixture<robots::KukaIiwa<double>>& iiwa() {
  static const Fixture<robots::KukaIiwa<double>> f(robots::kuka_iiwa());
  return f;
}

template <typename Algorithm>
void bm_two_link(benchmark::State& state) {
  time_calls<Algorithm>(state, two_link());
}

template <typename Algorithm>
void bm_iiwa(benchmark::State& state) {
  time_calls<Algorithm>(state, iiwa());
}

[[maybe_unused]] const bool registered = [] {
  for_each_algorithm([](auto algorithm, const char* name) {
    using Algorithm = decltype(algorithm);
    benchmark::RegisterBenchmark((std::string("two_link/") + name).c_str(),
                                 &bm_two_link<Algorithm>);
  });
  for_each_algorithm([](auto algorithm, const char* name) {
    using Algorithm = decltype(algorithm);
    benchmark::RegisterBenchmark((std::string("iiwa/") + name).c_str(), &bm_iiwa<Algorithm>);
  });
  return true;
}();

}  // namespace
}  // namespace chaindyn::bench

BENCHMARK_MAIN();
