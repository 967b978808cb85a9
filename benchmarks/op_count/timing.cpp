// Wall-clock timings of the O(n) algorithms against the O(n^3) and O(n^4) ones over the chain
// length, in double (see op_count.hpp). A plain std::chrono loop: each cell (algorithm, n) is
// timed in `repetitions` batches, the batches of all cells interleaved, and the median batch's
// time per call reported. Each call reads the next of 16 precomputed random states and writes
// into a Data whose address has escaped (an empty asm with a memory clobber), so no call can be
// hoisted or dropped.
#include "op_count/op_count.hpp"

#include "support/test_support.hpp"

#include "baselines/lagrange_euler.hpp"
#include <chaindyn/chaindyn.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <random>
#include <utility>

namespace chaindyn::op_count {

namespace {

/// Keeps `p`'s pointee alive and written (the compiler must assume the asm reads and writes
/// all memory).
inline void escape(void* p) { asm volatile("" : : "g"(p) : "memory"); }

constexpr std::size_t kStates = 16;

struct Cell {
  Cell(std::string algorithm_, int n_, std::function<void(std::size_t)> call_)
      : algorithm(std::move(algorithm_)), n(n_), call(std::move(call_)) {}
  std::string algorithm;
  int n;
  std::function<void(std::size_t)> call;  ///< one call on state k
  long calls = 1;
  std::vector<double> ns_per_call;
};

template <int N>
struct Bench {
  using Model = ChainN<double, N, RevoluteZ>;
  using Vector = typename Model::Vector;
  std::unique_ptr<Model> model;
  std::unique_ptr<Data<Model>> data;
  std::unique_ptr<baselines::LagrangeEulerData<Model>> le;
  std::vector<Vector> q, qd, qdd, tau;

  explicit Bench(bool with_baseline) {
    std::mt19937 gen(test::kSeed + N);
    model = std::make_unique<Model>(test::random_links<Model>(gen));
    data = std::make_unique<Data<Model>>();
    if (with_baseline) le = std::make_unique<baselines::LagrangeEulerData<Model>>(*model);
    for (std::size_t k = 0; k < kStates; ++k) {
      q.push_back(test::random_state<Vector>(gen, 3.1));
      qd.push_back(test::random_state<Vector>(gen, 2.0));
      qdd.push_back(test::random_state<Vector>(gen, 5.0));
      tau.push_back(test::random_state<Vector>(gen, 20.0));
    }
  }
};

template <int N>
void add_cells(std::vector<Cell>& cells, std::vector<std::shared_ptr<void>>& keep,
               bool with_baseline) {
  auto b = std::make_shared<Bench<N>>(with_baseline);
  keep.push_back(b);
  Bench<N>* p = b.get();
  cells.emplace_back("rnea", N, [p](std::size_t k) {
                     rnea(*p->model, *p->data, p->q[k], p->qd[k], p->qdd[k]);
                     escape(p->data.get());
                   });
  cells.emplace_back("crba", N, [p](std::size_t k) {
                     crba(*p->model, *p->data, p->q[k]);
                     escape(p->data.get());
                   });
  cells.emplace_back("aba", N, [p](std::size_t k) {
                     aba(*p->model, *p->data, p->q[k], p->qd[k], p->tau[k]);
                     escape(p->data.get());
                   });
  cells.emplace_back("forward_dynamics_crba", N, [p](std::size_t k) {
                     forward_dynamics_crba(*p->model, *p->data, p->q[k], p->qd[k], p->tau[k]);
                     escape(p->data.get());
                   });
  if (with_baseline) {
    cells.emplace_back("lagrange_euler", N, [p](std::size_t k) {
                       baselines::lagrange_euler(*p->model, *p->le, p->q[k], p->qd[k], p->qdd[k]);
                       escape(p->le.get());
                     });
  }
}

double seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

/// Runs `calls` calls, cycling the states; returns the seconds taken.
double run_batch(const Cell& cell, long calls) {
  const auto start = std::chrono::steady_clock::now();
  std::size_t k = 0;
  for (long c = 0; c < calls; ++c) {
    cell.call(k);
    k = (k + 1) & (kStates - 1);
  }
  return seconds(std::chrono::steady_clock::now() - start);
}

}  // namespace

std::vector<TimingRow> time_sweep(bool quick, int repetitions, double seconds_per_cell) {
  std::vector<Cell> cells;
  std::vector<std::shared_ptr<void>> keep;
  add_cells<1>(cells, keep, true);
  add_cells<2>(cells, keep, true);
  add_cells<4>(cells, keep, true);
  add_cells<8>(cells, keep, true);
  if (!quick) {
    add_cells<16>(cells, keep, true);
    add_cells<32>(cells, keep, true);
    add_cells<64>(cells, keep, true);
    add_cells<128>(cells, keep, false);  // the O(n^4) baseline: ~1 s per call at n = 128
  }
  // Calibrate: enough calls for seconds_per_cell (at least one), after a warm-up call.
  for (Cell& c : cells) {
    run_batch(c, 1);
    long calls = 1;
    double t = run_batch(c, calls);
    while (t < seconds_per_cell / 4 && calls < (1L << 30)) {
      calls *= 4;
      t = run_batch(c, calls);
    }
    c.calls = std::max(1L, long(double(calls) * seconds_per_cell / std::max(t, 1e-9)));
  }
  for (int r = 0; r < repetitions; ++r) {
    for (Cell& c : cells) c.ns_per_call.push_back(run_batch(c, c.calls) * 1e9 / double(c.calls));
  }
  std::vector<TimingRow> rows;
  for (Cell& c : cells) {
    std::vector<double>& v = c.ns_per_call;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    const double median = v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
    rows.push_back({c.algorithm, c.n, median, v.front(), repetitions, c.calls});
  }
  return rows;
}

}  // namespace chaindyn::op_count
