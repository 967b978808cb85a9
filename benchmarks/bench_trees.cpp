// Kinematic trees against chains of the same length (docs/trees.md): rnea, crba, aba and
// forward_dynamics_crba (a tree's sparse L^T L factorization against a chain's dense Cholesky),
// ns per call and per joint.
//   hand12/...   Tree<double, Parents<...>, RevoluteZ x 12>: wrist, palm, three fingers of three
//                joints and a thumb joint, all on the palm
//   serial12/... the same joint types as a Tree whose parents are i - 1 (a chain: the chain's code)
//   treeX32/...  TreeX<double>: a root joint and four branches of 7 revolute joints from it
//   chainX32/... ChainX<double> of 32 revolute joints
//   tree32/...   Tree<double, Parents<...>, RevoluteZ x 32>: a root joint, two branches of 8 on
//                it, and branches of 8 and 7 from their fourth joints (4 and 12)
//   serial32/... the same joint types as a Tree whose parents are i - 1 (the chain's code)
//   treeX64/...  TreeX<double>: a root joint and nine branches of 7 from it; chainX64/... its chain
//   (rnea_derivatives and aba_derivatives in place on tree32, serial32, treeX32, chainX32,
//   treeX64 and chainX64: docs/derivatives.md)
//   floating_iiwa/...  FloatingBase<KukaIiwa>: the iiwa on a free-flying base (docs/floating_base.md)
//   six_more_iiwa/...  the same robot on a fixed base with six more joints (prismatic x, y, z,
//                revolute z, y, x, then the iiwa's seven): what a floating base replaces
//   planar_iiwa/...  PlanarBaseRobot<KukaIiwa>: the iiwa on a planar base (x, y, yaw)
//   three_more_iiwa/...  the same robot on a fixed base with three more joints (prismatic x,
//                y, revolute z): what a planar base replaces
//   (rnea_derivatives and aba_derivatives in place on floating_iiwa, six_more_iiwa,
//   planar_iiwa and three_more_iiwa)
#include "bench_common.hpp"

#include <chaindyn/algorithms/aba_derivatives.hpp>
#include <chaindyn/algorithms/floating_base.hpp>
#include <chaindyn/algorithms/floating_base_derivatives.hpp>
#include <chaindyn/algorithms/rnea_derivatives.hpp>
#include <chaindyn/model/tree.hpp>

#include <memory>
#include <string>
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
using Tree32 = TreeZ<-1, 0, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 4, 17, 18, 19, 20,
                     21, 22, 23, 12, 25, 26, 27, 28, 29, 30>;
using Serial32 = TreeZ<-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                       20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30>;
static_assert(Serial32::serial && !Tree32::serial);

template <typename Model>
Model random_tree() {
  std::mt19937 gen(test::kSeed);
  return Model(test::random_links<Model>(gen));
}

/// n revolute joints at run time: a root and branches of 7 from it (tree) or in a row.
template <typename Model>
Model random_runtime(bool branched, std::size_t n = 32) {
  std::mt19937 gen(test::kSeed);
  std::vector<Link<double>> links;
  std::vector<std::size_t> parents;
  for (std::size_t i = 0; i < n; ++i) {
    links.push_back(test::random_link(gen));
    parents.push_back(i == 0 ? no_parent : (branched && (i - 1) % 7 == 0) ? 0 : i - 1);
  }
  const std::vector<JointKind> kinds(n, JointKind::revolute);
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

/// A Fixture with the derivatives' workspace.
template <typename Model>
struct DerivativesFixture : Fixture<Model> {
  explicit DerivativesFixture(Model m)
      : Fixture<Model>(std::move(m)),
        derivatives(std::make_unique<DerivativesData<Model>>(*this->model)) {}
  std::unique_ptr<DerivativesData<Model>> derivatives;
};

/// rnea_derivatives (kAba false) or aba_derivatives in place, ns per call and per joint.
template <bool kAba, typename Model>
void bm_derivatives(benchmark::State& state, const DerivativesFixture<Model>* f) {
  DerivativesData<Model>* dd = f->derivatives.get();
  benchmark::DoNotOptimize(dd);
  std::size_t k = 0;
  for (auto _ : state) {
    if constexpr (kAba) {
      aba_derivatives(*f->model, *dd, f->q[k], f->qd[k], f->tau[k]);
    } else {
      rnea_derivatives(*f->model, *dd, f->q[k], f->qd[k], f->qdd[k]);
    }
    benchmark::ClobberMemory();
    k = (k + 1) & (kStates - 1);
  }
  state.counters["per_joint"] = benchmark::Counter(
      double(f->model->joint_count()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

template <typename Model>
void register_derivatives(const std::string& prefix, const DerivativesFixture<Model>* f) {
  benchmark::RegisterBenchmark((prefix + "/rnea_derivatives").c_str(), &bm_derivatives<false, Model>,
                               f);
  benchmark::RegisterBenchmark((prefix + "/aba_derivatives").c_str(), &bm_derivatives<true, Model>,
                               f);
}

// The iiwa with six more joints in front of its seven (the chain a floating base replaces).
template <typename Arm>
struct SixMore;
template <typename... J>
struct SixMore<Chain<double, J...>> {
  using type = Chain<double, PrismaticX, PrismaticY, PrismaticZ, RevoluteZ, RevoluteY, RevoluteX, J...>;
};
template <typename Arm>
struct ThreeMore;
template <typename... J>
struct ThreeMore<Chain<double, J...>> {
  using type = Chain<double, PrismaticX, PrismaticY, RevoluteZ, J...>;
};
using Iiwa = robots::KukaIiwa<double>;
using Floating = FloatingBase<Iiwa>;
using Planar = PlanarBaseRobot<Iiwa>;

/// rnea, crba, aba, rnea_derivatives, aba_derivatives of the iiwa on a moving base (Floating,
/// Planar) over kStates random states.
template <typename Model>
struct FloatingFixture {
  FloatingFixture(const Link<double>& body)
      : model(std::make_unique<const Model>(body, robots::kuka_iiwa())),
        data(std::make_unique<Data<Model>>()),
        derivatives(std::make_unique<DerivativesData<Model>>()) {
    std::mt19937 gen(test::kSeed);
    for (std::size_t k = 0; k < kStates; ++k) {
      q.push_back(random_configuration(*model, gen));
      v.push_back(test::random_state<typename Model::TangentVector>(gen, 2.0, Model::nv));
      x.push_back(test::random_state<typename Model::TangentVector>(gen, 5.0, Model::nv));
    }
  }
  std::unique_ptr<const Model> model;
  std::unique_ptr<Data<Model>> data;
  std::unique_ptr<DerivativesData<Model>> derivatives;
  std::vector<typename Model::ConfigVector> q;
  std::vector<typename Model::TangentVector> v, x;
};

template <int kAlgorithm, typename Model>
void bm_floating(benchmark::State& state, const FloatingFixture<Model>* f) {
  Data<Model>* data = f->data.get();
  DerivativesData<Model>* dd = f->derivatives.get();
  benchmark::DoNotOptimize(data);
  benchmark::DoNotOptimize(dd);
  std::size_t k = 0;
  for (auto _ : state) {
    if constexpr (kAlgorithm == 0) rnea(*f->model, *data, f->q[k], f->v[k], f->x[k]);
    if constexpr (kAlgorithm == 1) crba(*f->model, *data, f->q[k]);
    if constexpr (kAlgorithm == 2) aba(*f->model, *data, f->q[k], f->v[k], f->x[k]);
    if constexpr (kAlgorithm == 3) rnea_derivatives(*f->model, *dd, f->q[k], f->v[k], f->x[k]);
    if constexpr (kAlgorithm == 4) aba_derivatives(*f->model, *dd, f->q[k], f->v[k], f->x[k]);
    benchmark::ClobberMemory();
    k = (k + 1) & (kStates - 1);
  }
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
  static const DerivativesFixture<Tree32> tree32(random_tree<Tree32>());
  static const DerivativesFixture<Serial32> serial32(random_tree<Serial32>());
  static const DerivativesFixture<TreeX<double>> tree_x32(random_runtime<TreeX<double>>(true));
  static const DerivativesFixture<ChainX<double>> chain_x32(random_runtime<ChainX<double>>(false));
  static const DerivativesFixture<TreeX<double>> tree_x64(random_runtime<TreeX<double>>(true, 64));
  static const DerivativesFixture<ChainX<double>> chain_x64(
      random_runtime<ChainX<double>>(false, 64));
  register_derivatives("tree32", &tree32);
  register_derivatives("serial32", &serial32);
  register_derivatives("treeX32", &tree_x32);
  register_derivatives("chainX32", &chain_x32);
  register_derivatives("treeX64", &tree_x64);
  register_derivatives("chainX64", &chain_x64);
  Link<double> body;  // a 150 kg satellite
  body.mass = 150.0;
  body.inertia = Eigen::Vector3d(30.0, 30.0, 36.0).asDiagonal();
  static const FloatingFixture<Floating> floating(body);
  benchmark::RegisterBenchmark("floating_iiwa/rnea", &bm_floating<0, Floating>, &floating);
  benchmark::RegisterBenchmark("floating_iiwa/crba", &bm_floating<1, Floating>, &floating);
  benchmark::RegisterBenchmark("floating_iiwa/aba", &bm_floating<2, Floating>, &floating);
  benchmark::RegisterBenchmark("floating_iiwa/rnea_derivatives", &bm_floating<3, Floating>, &floating);
  benchmark::RegisterBenchmark("floating_iiwa/aba_derivatives", &bm_floating<4, Floating>, &floating);
  using SixMoreIiwa = SixMore<Iiwa>::type;
  std::vector<Link<double>> links(6);
  links[5].mass = body.mass;
  links[5].inertia = body.inertia;
  const Iiwa arm = robots::kuka_iiwa();
  links.insert(links.end(), arm.links().begin(), arm.links().end());
  static const Fixture<SixMoreIiwa> six_more{SixMoreIiwa(links)};
  const auto add = [&](auto algorithm, const char* name) {
    benchmark::RegisterBenchmark((std::string("six_more_iiwa/") + name).c_str(),
                                 &bm<decltype(algorithm), SixMoreIiwa>, &six_more);
  };
  add(Rnea{}, "rnea");
  add(Crba{}, "crba");
  add(Aba{}, "aba");
  static const DerivativesFixture<SixMoreIiwa> six_more_d{SixMoreIiwa(links)};
  register_derivatives("six_more_iiwa", &six_more_d);
  // the iiwa on a 40 kg wheeled base, and on three more joints instead
  Link<double> cart;
  cart.mass = 40.0;
  cart.inertia = Eigen::Vector3d(1.4, 2.2, 2.5).asDiagonal();
  static const FloatingFixture<Planar> planar(cart);
  benchmark::RegisterBenchmark("planar_iiwa/rnea", &bm_floating<0, Planar>, &planar);
  benchmark::RegisterBenchmark("planar_iiwa/crba", &bm_floating<1, Planar>, &planar);
  benchmark::RegisterBenchmark("planar_iiwa/aba", &bm_floating<2, Planar>, &planar);
  benchmark::RegisterBenchmark("planar_iiwa/rnea_derivatives", &bm_floating<3, Planar>, &planar);
  benchmark::RegisterBenchmark("planar_iiwa/aba_derivatives", &bm_floating<4, Planar>, &planar);
  using ThreeMoreIiwa = ThreeMore<Iiwa>::type;
  std::vector<Link<double>> three(3);
  three[2].mass = cart.mass;
  three[2].inertia = cart.inertia;
  three.insert(three.end(), arm.links().begin(), arm.links().end());
  static const Fixture<ThreeMoreIiwa> three_more{ThreeMoreIiwa(three)};
  const auto add3 = [&](auto algorithm, const char* name) {
    benchmark::RegisterBenchmark((std::string("three_more_iiwa/") + name).c_str(),
                                 &bm<decltype(algorithm), ThreeMoreIiwa>, &three_more);
  };
  add3(Rnea{}, "rnea");
  add3(Crba{}, "crba");
  add3(Aba{}, "aba");
  static const DerivativesFixture<ThreeMoreIiwa> three_more_d{ThreeMoreIiwa(three)};
  register_derivatives("three_more_iiwa", &three_more_d);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
