// chaindyn's algorithms (in-place forms, one reused Data) on the two-link arm and the built-in
// KUKA iiwa, UR5 and Franka Panda: the six dynamics algorithms and the world-frame Jacobian of
// the flange. The chain-length sweeps are registered by bench_sweep_*.cpp. ns per call; see
// docs/benchmarks.md for how to run and read them.
#include "bench_common.hpp"

#include <chaindyn/closed_form.hpp>

namespace chaindyn::bench {
namespace {

using TwoLink = closed_form::TwoLinkArm<double>;

// Each fixture is built on first use. Its flange: the two-link arm's tip (a2 along link 2's x),
// the iiwa's link 7 frame (its model's flange), robots::ur5_flange(), robots::panda_flange().
const Fixture<TwoLink::ChainType>& two_link() {
  static const TwoLink arm = TwoLink::uniform_rods(3, 1, 2, 1, 9.81);
  static const Fixture<TwoLink::ChainType> f(
      arm.to_chain(), Transform<double>::Translation(Vector3<double>(arm.a2, 0, 0)));
  return f;
}

const Fixture<robots::KukaIiwa<double>>& iiwa() {
  static const Fixture<robots::KukaIiwa<double>> f(robots::kuka_iiwa());
  return f;
}

const Fixture<robots::Ur5<double>>& ur5() {
  static const Fixture<robots::Ur5<double>> f(robots::ur5(), robots::ur5_flange());
  return f;
}

// robots::Panda<double> is the iiwa's type, ChainN<double, 7, RevoluteZ>: its benchmarks reuse
// the iiwa's instantiations (the fixture is a run-time argument), so the Panda adds no code.
const Fixture<robots::Panda<double>>& panda() {
  static const Fixture<robots::Panda<double>> f(robots::panda(), robots::panda_flange());
  return f;
}

// The iiwa as ChainN<double, 7, Revolute> (axes at run time, the compile-time chain ChainX is
// held to) and as ChainX<double> (issue 17), same links and states.
const Fixture<ChainN<double, 7, Revolute>>& iiwa_revolute() {
  static const Fixture<ChainN<double, 7, Revolute>> f(
      ChainN<double, 7, Revolute>(std::array<Link<double>, 7>(robots::kuka_iiwa_links<double>())));
  return f;
}
const Fixture<ChainX<double>>& iiwa_chainx() {
  static const Fixture<ChainX<double>> f(ChainX<double>::from(robots::kuka_iiwa()));
  return f;
}

template <typename Model>
using FixtureGetter = const Fixture<Model>& (*)();

template <typename Algorithm, typename Model>
void bm_model(benchmark::State& state, FixtureGetter<Model> fixture) {
  time_calls<Algorithm>(state, fixture());
}

/// Registers "<prefix>/<algorithm>" for the six dynamics algorithms and "<prefix>/jacobian".
template <typename Model>
void register_model(const std::string& prefix, FixtureGetter<Model> fixture) {
  const auto add = [&](auto algorithm, const char* name) {
    using Algorithm = decltype(algorithm);
    benchmark::RegisterBenchmark((prefix + "/" + name).c_str(), &bm_model<Algorithm, Model>,
                                 fixture);
  };
  for_each_algorithm(add);
  add(FlangeJacobian{}, "jacobian");
}

[[maybe_unused]] const bool registered = [] {
  register_model("two_link", &two_link);
  register_model("iiwa", &iiwa);
  // The returning forms against the in-place ones (issue 12, item 7), on the iiwa.
  using Iiwa = robots::KukaIiwa<double>;
  benchmark::RegisterBenchmark("iiwa/rnea_returning", &bm_model<RneaReturning, Iiwa>, &iiwa);
  benchmark::RegisterBenchmark("iiwa/crba_returning", &bm_model<CrbaReturning, Iiwa>, &iiwa);
  benchmark::RegisterBenchmark("iiwa/aba_returning", &bm_model<AbaReturning, Iiwa>, &iiwa);
  register_model("iiwa_revolute", &iiwa_revolute);
  register_model("iiwa_chainx", &iiwa_chainx);
  register_model("ur5", &ur5);
  register_model("panda", &panda);
  return true;
}();

}  // namespace
}  // namespace chaindyn::bench

BENCHMARK_MAIN();
