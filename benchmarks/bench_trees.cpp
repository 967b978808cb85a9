// Kinematic trees against chains of the same length (docs/trees.md): rnea, crba, aba and
// forward_dynamics_crba (a tree's sparse L^T L factorization against a chain's dense Cholesky),
// ns per call and per joint.
//   hand12/...   Tree<double, Parents<...>, RevoluteZ x 12>: wrist, palm, three fingers of three
//                joints and a thumb joint, all on the palm
//   serial12/... the same joint types as a Tree whose parents are i - 1 (a chain: the chain's code)
//   treeX32/...  TreeX<double>: a root joint and four branches of 7 revolute joints from it
//   chainX32/... ChainX<double> of 32 revolute joints
#include "bench_common.hpp"

#include <chaindyn/model/tree.hpp>

#include <type_traits>
#include <vector>

namespace {

using namespace chaindyn;
using namespace chaindyn::bench;

template <int... P>
using TreeZ = Tree<double, Parents<P...>, std::enable_if_t<(P >= -1), RevoluteZ>...>;
using Hand12 = TreeZ<-1, 0, 1, 2, 3, 1, 5, 6, 1, 8, 9, 1>;
using Serial12 = TreeZ<-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10>;
static_assert(Serial12::serial && !Hand12::serial);

template <typename Model>
Model random_tree() {
  std::mt19937 gen(test::kSeed);
  return Model(test::random_links<Model>(gen));
}

/// 32 revolute joints at run time: a root and four branches of 7 from it (tree) or in a row.
template <typename Model>
Model random_runtime(bool branched) {
  std::mt19937 gen(test::kSeed);
  std::vector<Link<double>> links;
  std::vector<std::size_t> parents;
  for (std::size_t i = 0; i < 32; ++i) {
    links.push_back(test::random_link(gen));
    parents.push_back(i == 0 ? no_parent : (branched && (i - 1) % 7 == 0) ? 0 : i - 1);
  }
  const std::vector<JointKind> kinds(32, JointKind::revolute);
  if constexpr (std::is_same_v<Model, TreeX<double>>) {
    return Model(links, kinds, parents);
  } else {
    (void)branched;
    return Model(links, kinds);
  }
}

template <typename Algorithm, typename Model>
void bm(benchmark::State& state, const Fixture<Model>* f) {
  time_calls<Algorithm>(state, *f);
  state.counters["per_joint"] = benchmark::Counter(
      double(f->model->joint_count()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

template <typename Model>
void register_model(const std::string& prefix, const Fixture<Model>* f) {
  const auto add = [&](auto algorithm, const char* name) {
    benchmark::RegisterBenchmark((prefix + "/" + name).c_str(), &bm<decltype(algorithm), Model>,
                                 f);
  };
  add(Rnea{}, "rnea");
  add(Crba{}, "crba");
  add(Aba{}, "aba");
  add(ForwardDynamicsCrba{}, "forward_dynamics_crba");
}

const bool registered = [] {
  static const Fixture<Hand12> hand(random_tree<Hand12>());
  static const Fixture<Serial12> serial(random_tree<Serial12>());
  static const Fixture<TreeX<double>> tree_x(random_runtime<TreeX<double>>(true));
  static const Fixture<ChainX<double>> chain_x(random_runtime<ChainX<double>>(false));
  register_model("hand12", &hand);
  register_model("serial12", &serial);
  register_model("treeX32", &tree_x);
  register_model("chainX32", &chain_x);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
