// Task-space dynamics (chaindyn/algorithms/operational_space.hpp), in-place forms, one reused
// Data: the operational-space inertia of the flange by the O(n) recursion against the dense
// route (crba, Cholesky of M, J M^-1 J^T), for the pose and the position task, on the iiwa and
// on random ChainN<double, n, RevoluteZ> chains of n = 16, 32 and 64 joints; on the iiwa also
// Lambda with mu and p, Jbar, and the null-space projector, and the pieces every O(n) route
// needs (the world kinematics, the articulated inertias after them, the 6 x 6 inverse both
// routes end in). ns per call; docs/benchmarks.md, "Task-space dynamics".
#include "bench_common.hpp"

#include <chaindyn/algorithms/operational_space.hpp>

namespace chaindyn::bench {
namespace {

/// A fixture and the task-space outputs the in-place forms write into (on the heap, escaped).
template <typename Model>
struct TaskFixture {
  explicit TaskFixture(Model m)
      : f(std::move(m)),
        flange(f.model->frame(f.model->joint_count() - 1)),
        jbar(std::make_unique<TaskInverse<Model>>()),
        N(std::make_unique<typename Model::Matrix>()) {}
  Fixture<Model> f;
  FrameFor<Model> flange;
  OperationalSpaceDynamics<double, pose_task> os6;
  OperationalSpaceInertia<double, position_task> os3;
  std::unique_ptr<TaskInverse<Model>> jbar;
  std::unique_ptr<typename Model::Matrix> N;
};

using Iiwa = robots::KukaIiwa<double>;

template <typename Model>
const TaskFixture<Model>& fixture() {
  if constexpr (std::is_same_v<Model, Iiwa>) {
    static const TaskFixture<Model> t(robots::kuka_iiwa());
    return t;
  } else {
    static const TaskFixture<Model> t(random_chain<Model>());
    return t;
  }
}

enum class Kind {
  recursive,
  dense,
  recursive_position,
  dense_position,
  dynamics,
  jbar,
  null_space,
  kinematics,
  articulated,
  inverse
};

template <typename Model, Kind kind>
void bm_task(benchmark::State& state) {
  auto& t = const_cast<TaskFixture<Model>&>(fixture<Model>());
  Data<Model>& data = *t.f.data;
  benchmark::DoNotOptimize(&data);
  benchmark::DoNotOptimize(&t);
  const Model& model = *t.f.model;
  std::size_t k = 0;
  for (auto _ : state) {
    const auto& q = t.f.q[k];
    if constexpr (kind == Kind::recursive) {
      operational_space_inertia(model, data, q, t.flange, ReferenceFrame::world, t.os6);
    } else if constexpr (kind == Kind::dense) {
      operational_space_inertia_dense(model, data, q, t.flange, ReferenceFrame::world, t.os6);
    } else if constexpr (kind == Kind::recursive_position) {
      operational_space_inertia(model, data, q, t.flange, ReferenceFrame::world, t.os3);
    } else if constexpr (kind == Kind::dense_position) {
      operational_space_inertia_dense(model, data, q, t.flange, ReferenceFrame::world, t.os3);
    } else if constexpr (kind == Kind::dynamics) {
      operational_space_dynamics(model, data, q, t.f.qd[k], t.flange, ReferenceFrame::world,
                                 t.os6);
    } else if constexpr (kind == Kind::jbar) {
      dynamically_consistent_inverse(model, data, q, t.flange, ReferenceFrame::world, t.os6,
                                     *t.jbar);
    } else if constexpr (kind == Kind::null_space) {
      null_space_projector(model, data, q, t.flange, ReferenceFrame::world, t.os6, *t.jbar,
                           *t.N);
    } else if constexpr (kind == Kind::kinematics) {
      ::chaindyn::detail::world_kinematics(model, data, q);
    } else if constexpr (kind == Kind::articulated) {
      ::chaindyn::detail::world_kinematics(model, data, q);
      ::chaindyn::detail::articulated_inertias(
          model, data, [](std::size_t, const auto&, const auto&, const auto&) {});
    } else {
      t.os6.Lambda_inv(0, 0) += 1e-12;  // a new matrix each call, the same conditioning
      ::chaindyn::detail::invert_task_inertia(t.os6);
    }
    benchmark::ClobberMemory();
    k = (k + 1) & (kStates - 1);
  }
}

template <typename Model>
void register_lambda(const std::string& prefix) {
  benchmark::RegisterBenchmark((prefix + "/lambda_recursive").c_str(),
                               &bm_task<Model, Kind::recursive>);
  benchmark::RegisterBenchmark((prefix + "/lambda_dense").c_str(), &bm_task<Model, Kind::dense>);
}

[[maybe_unused]] const bool registered = [] {
  register_lambda<Iiwa>("iiwa");
  benchmark::RegisterBenchmark("iiwa/lambda_position_recursive",
                               &bm_task<Iiwa, Kind::recursive_position>);
  benchmark::RegisterBenchmark("iiwa/lambda_position_dense", &bm_task<Iiwa, Kind::dense_position>);
  benchmark::RegisterBenchmark("iiwa/lambda_mu_p", &bm_task<Iiwa, Kind::dynamics>);
  benchmark::RegisterBenchmark("iiwa/jbar", &bm_task<Iiwa, Kind::jbar>);
  benchmark::RegisterBenchmark("iiwa/null_space_projector", &bm_task<Iiwa, Kind::null_space>);
  benchmark::RegisterBenchmark("iiwa/piece/world_kinematics", &bm_task<Iiwa, Kind::kinematics>);
  benchmark::RegisterBenchmark("iiwa/piece/world_kinematics+articulated_inertias",
                               &bm_task<Iiwa, Kind::articulated>);
  benchmark::RegisterBenchmark("iiwa/piece/invert_task_inertia", &bm_task<Iiwa, Kind::inverse>);
  register_lambda<ChainN<double, 16, RevoluteZ>>("n16");
  register_lambda<ChainN<double, 32, RevoluteZ>>("n32");
  register_lambda<ChainN<double, 64, RevoluteZ>>("n64");
  return true;
}();

}  // namespace
}  // namespace chaindyn::bench

BENCHMARK_MAIN();
