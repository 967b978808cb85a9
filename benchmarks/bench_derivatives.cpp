// Derivatives of the dynamics on the KUKA iiwa, ns per call: the analytical rnea_derivatives /
// aba_derivatives (in place, one reused workspace) against the two other routes to the same
// matrices: forward-mode AutoDiff through rnea / aba (Eigen::AutoDiffScalar with 2n resp. 3n
// fixed-size derivative slots) and central finite differences (4n rnea calls for d tau / d q
// and d tau / d qd; 6n aba calls for d qdd / d q, d qd, d tau). See docs/derivatives.md.
// Then the analytical ones on random revolute chains of n = 8, 16, 32, 64, 128 joints (the
// per-joint-pair cost, "per_pair", should stay flat: both are O(n^2)). Then the elastic-joint
// iiwa (docs/elastic_joints.md): its forward dynamics, the exact first and second time
// derivatives of rnea, and the flatness inverse dynamics.
#include "bench_common.hpp"

#include <benchmark/benchmark.h>

#include <chaindyn/algorithms/aba_derivatives.hpp>
#include <chaindyn/algorithms/elastic_joints.hpp>
#include <chaindyn/algorithms/rnea_derivatives.hpp>
#include <chaindyn/robots/kuka_iiwa.hpp>

#include <unsupported/Eigen/AutoDiff>

#include <memory>
#include <random>
#include <vector>

namespace {

using namespace chaindyn;
using Model = robots::KukaIiwa<double>;
using Vector = Model::Vector;
using Matrix = Model::Matrix;
constexpr int n = Model::nq;
using AD2 = Eigen::AutoDiffScalar<Eigen::Matrix<double, 2 * n, 1>>;
using AD3 = Eigen::AutoDiffScalar<Eigen::Matrix<double, 3 * n, 1>>;

struct States {
  std::vector<Vector> q, qd, qdd, tau;
  States() {
    std::mt19937 gen(test::kSeed);
    for (int k = 0; k < 64; ++k) {
      q.push_back(test::random_state<Vector>(gen, 3.1));
      qd.push_back(test::random_state<Vector>(gen, 2.0));
      qdd.push_back(test::random_state<Vector>(gen, 5.0));
      tau.push_back(test::random_state<Vector>(gen, 20.0));
    }
  }
};

const Model& iiwa() {
  static const Model m = robots::kuka_iiwa();
  return m;
}
const States& states() {
  static const States s;
  return s;
}

void bm_rnea_analytical(benchmark::State& state) {
  auto data = std::make_unique<DerivativesData<Model>>();
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k++ & 63;
    rnea_derivatives(iiwa(), *data, states().q[i], states().qd[i], states().qdd[i]);
    benchmark::DoNotOptimize(data->dtau_dq.data());
    benchmark::ClobberMemory();
  }
}

const ElasticJoints<Model>& elastic_iiwa() {
  static const ElasticJoints<Model> e = ElasticJoints<Model>::uniform(iiwa(), 5000, 0, 0.3);
  return e;
}

void bm_elastic_forward_dynamics(benchmark::State& state) {
  auto data = std::make_unique<ElasticData<Model>>(iiwa());
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k++ & 63, j = (i + 1) & 63;
    elastic_forward_dynamics(iiwa(), elastic_iiwa(), *data, states().q[i], states().qd[i],
                             states().q[j], states().qd[j], states().tau[i]);
    benchmark::DoNotOptimize(data->thetadd.data());
    benchmark::ClobberMemory();
  }
}

void bm_link_torque_derivatives(benchmark::State& state) {
  auto data = std::make_unique<ElasticData<Model>>(iiwa());
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k++ & 63, j = (i + 1) & 63;
    link_torque_derivatives(iiwa(), *data, states().q[i], states().qd[i], states().qdd[i],
                            states().qd[j], states().qdd[j]);
    benchmark::DoNotOptimize(data->tau_link_dd.data());
    benchmark::ClobberMemory();
  }
}

void bm_elastic_inverse_dynamics(benchmark::State& state) {
  auto data = std::make_unique<ElasticData<Model>>(iiwa());
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k++ & 63, j = (i + 1) & 63;
    elastic_inverse_dynamics(iiwa(), elastic_iiwa(), *data, states().q[i], states().qd[i],
                             states().qdd[i], states().qd[j], states().qdd[j], states().q[j]);
    benchmark::DoNotOptimize(data->tau_m.data());
    benchmark::ClobberMemory();
  }
}

void bm_rnea_autodiff(benchmark::State& state) {
  static const robots::KukaIiwa<AD2> am = robots::kuka_iiwa<AD2>();
  auto data = std::make_unique<Data<robots::KukaIiwa<AD2>>>();
  auto jac = std::make_unique<Eigen::Matrix<double, n, 2 * n>>();
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k++ & 63;
    robots::KukaIiwa<AD2>::Vector q, qd, qdd;
    for (int j = 0; j < n; ++j) {
      q[j] = AD2(states().q[i][j], 2 * n, j);
      qd[j] = AD2(states().qd[i][j], 2 * n, n + j);
      qdd[j] = AD2(states().qdd[i][j]);
      qdd[j].derivatives().setZero();
    }
    rnea(am, *data, q, qd, qdd);
    for (int j = 0; j < n; ++j) jac->row(j) = data->tau[j].derivatives().transpose();
    benchmark::DoNotOptimize(jac->data());
    benchmark::ClobberMemory();
  }
}

void bm_rnea_finite_differences(benchmark::State& state) {
  auto data = std::make_unique<Data<Model>>();
  auto dq = std::make_unique<Matrix>(), dqd = std::make_unique<Matrix>();
  const double h = 1e-6;
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k++ & 63;
    const Vector& q = states().q[i];
    const Vector& qd = states().qd[i];
    const Vector& qdd = states().qdd[i];
    for (int j = 0; j < n; ++j) {
      Vector x = q;
      x[j] += h;
      rnea(iiwa(), *data, x, qd, qdd);
      dq->col(j) = data->tau;
      x[j] -= 2 * h;
      rnea(iiwa(), *data, x, qd, qdd);
      dq->col(j) = (dq->col(j) - data->tau) / (2 * h);
      x = qd;
      x[j] += h;
      rnea(iiwa(), *data, q, x, qdd);
      dqd->col(j) = data->tau;
      x[j] -= 2 * h;
      rnea(iiwa(), *data, q, x, qdd);
      dqd->col(j) = (dqd->col(j) - data->tau) / (2 * h);
    }
    benchmark::DoNotOptimize(dq->data());
    benchmark::DoNotOptimize(dqd->data());
    benchmark::ClobberMemory();
  }
}

void bm_aba_analytical(benchmark::State& state) {
  auto data = std::make_unique<DerivativesData<Model>>();
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k++ & 63;
    aba_derivatives(iiwa(), *data, states().q[i], states().qd[i], states().tau[i]);
    benchmark::DoNotOptimize(data->dqdd_dq.data());
    benchmark::ClobberMemory();
  }
}

void bm_aba_autodiff(benchmark::State& state) {
  static const robots::KukaIiwa<AD3> am = robots::kuka_iiwa<AD3>();
  auto data = std::make_unique<Data<robots::KukaIiwa<AD3>>>();
  auto jac = std::make_unique<Eigen::Matrix<double, n, 3 * n>>();
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k++ & 63;
    robots::KukaIiwa<AD3>::Vector q, qd, tau;
    for (int j = 0; j < n; ++j) {
      q[j] = AD3(states().q[i][j], 3 * n, j);
      qd[j] = AD3(states().qd[i][j], 3 * n, n + j);
      tau[j] = AD3(states().tau[i][j], 3 * n, 2 * n + j);
    }
    aba(am, *data, q, qd, tau);
    for (int j = 0; j < n; ++j) jac->row(j) = data->qdd[j].derivatives().transpose();
    benchmark::DoNotOptimize(jac->data());
    benchmark::ClobberMemory();
  }
}

void bm_aba_finite_differences(benchmark::State& state) {
  auto data = std::make_unique<Data<Model>>();
  auto jac = std::make_unique<Eigen::Matrix<double, n, 3 * n>>();
  const double h = 1e-6;
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k++ & 63;
    Vector x[3] = {states().q[i], states().qd[i], states().tau[i]};
    for (int w = 0; w < 3; ++w) {
      for (int j = 0; j < n; ++j) {
        const double x0 = x[w][j];
        x[w][j] = x0 + h;
        aba(iiwa(), *data, x[0], x[1], x[2]);
        jac->col(w * n + j) = data->qdd;
        x[w][j] = x0 - h;
        aba(iiwa(), *data, x[0], x[1], x[2]);
        jac->col(w * n + j) = (jac->col(w * n + j) - data->qdd) / (2 * h);
        x[w][j] = x0;
      }
    }
    benchmark::DoNotOptimize(jac->data());
    benchmark::ClobberMemory();
  }
}

/// Random revolute chain of N joints: rnea_derivatives (Aba = false) or aba_derivatives.
template <int N, bool Aba>
void bm_chain(benchmark::State& state) {
  using Chain = ChainN<double, N, Revolute>;
  const auto& f = bench::random_chain_fixture<Chain>();
  auto data = std::make_unique<DerivativesData<Chain>>();
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k++ & (bench::kStates - 1);
    if constexpr (Aba) {
      aba_derivatives(*f.model, *data, f.q[i], f.qd[i], f.tau[i]);
      benchmark::DoNotOptimize(data->dqdd_dq.data());
    } else {
      rnea_derivatives(*f.model, *data, f.q[i], f.qd[i], f.qdd[i]);
      benchmark::DoNotOptimize(data->dtau_dq.data());
    }
    benchmark::ClobberMemory();
  }
  state.counters["per_pair"] = benchmark::Counter(
      double(N) * N, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(bm_elastic_forward_dynamics)->Name("iiwa/elastic_forward_dynamics");
BENCHMARK(bm_link_torque_derivatives)->Name("iiwa/link_torque_derivatives");
BENCHMARK(bm_elastic_inverse_dynamics)->Name("iiwa/elastic_inverse_dynamics");
BENCHMARK(bm_chain<8, false>)->Name("chain/rnea_derivatives/n:8");
BENCHMARK(bm_chain<16, false>)->Name("chain/rnea_derivatives/n:16");
BENCHMARK(bm_chain<32, false>)->Name("chain/rnea_derivatives/n:32");
BENCHMARK(bm_chain<64, false>)->Name("chain/rnea_derivatives/n:64");
BENCHMARK(bm_chain<128, false>)->Name("chain/rnea_derivatives/n:128");
BENCHMARK(bm_chain<8, true>)->Name("chain/aba_derivatives/n:8");
BENCHMARK(bm_chain<16, true>)->Name("chain/aba_derivatives/n:16");
BENCHMARK(bm_chain<32, true>)->Name("chain/aba_derivatives/n:32");
BENCHMARK(bm_chain<64, true>)->Name("chain/aba_derivatives/n:64");
BENCHMARK(bm_chain<128, true>)->Name("chain/aba_derivatives/n:128");
BENCHMARK(bm_rnea_analytical)->Name("iiwa/rnea_derivatives/analytical");
BENCHMARK(bm_rnea_autodiff)->Name("iiwa/rnea_derivatives/autodiff");
BENCHMARK(bm_rnea_finite_differences)->Name("iiwa/rnea_derivatives/central_differences");
BENCHMARK(bm_aba_analytical)->Name("iiwa/aba_derivatives/analytical");
BENCHMARK(bm_aba_autodiff)->Name("iiwa/aba_derivatives/autodiff");
BENCHMARK(bm_aba_finite_differences)->Name("iiwa/aba_derivatives/central_differences");

BENCHMARK_MAIN();
