// The runtime-sized ChainX against the compile-time chains of the same robot, in one process:
// the KUKA iiwa as its generated type (robots::KukaIiwa, Placed joints), as
// ChainN<double, 7, RevoluteZ> from the same links (what urdf::parse<ChainN<7, RevoluteZ>>
// gives) and as ChainX (what urdf::parse_any gives: ChainX::from the ChainN, placements as
// given), and a random 64-joint chain as ChainN<double, 64, RevoluteZ> and as ChainX. The six
// dynamics algorithms and both derivatives, in-place forms with reused workspaces.
//
// Not Google Benchmark's loop: the machine is shared, so each round times every (algorithm,
// model) cell once, in turn, a batch of calls each; a cell's figure is its minimum over the
// rounds, and the ratios (ChainX / ChainN, ChainN / generated) compare cells of one process.
//
//   bench_runtime [rounds]     (default 15)
#include "bench_common.hpp"

#include <chaindyn/algorithms/aba_derivatives.hpp>
#include <chaindyn/algorithms/rnea_derivatives.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace chaindyn::bench {
namespace {

/// A fixture with a derivatives workspace beside its Data.
template <typename Model>
struct Case {
  Fixture<Model> f;
  std::unique_ptr<DerivativesData<Model>> dd;
  explicit Case(Model m) : f(std::move(m)), dd(std::make_unique<DerivativesData<Model>>(*f.model)) {}
};

struct RneaDerivativesCall {
  template <typename Model>
  static void run(Case<Model>& c, std::size_t k) {
    rnea_derivatives(*c.f.model, *c.dd, c.f.q[k], c.f.qd[k], c.f.qdd[k]);
  }
};
struct AbaDerivativesCall {
  template <typename Model>
  static void run(Case<Model>& c, std::size_t k) {
    aba_derivatives(*c.f.model, *c.dd, c.f.q[k], c.f.qd[k], c.f.tau[k]);
  }
};
template <typename Algorithm>
struct Plain {
  template <typename Model>
  static void run(Case<Model>& c, std::size_t k) {
    Algorithm::run(c.f, k);
  }
};

/// ns per call of `calls` calls on consecutive states.
template <typename Algorithm, typename Model>
double time_batch(Case<Model>& c, int calls) {
  auto* data = c.f.data.get();
  auto* dd = c.dd.get();
  benchmark::DoNotOptimize(data);
  benchmark::DoNotOptimize(dd);
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t k = 0;
  for (int i = 0; i < calls; ++i) {
    Algorithm::run(c, k);
    benchmark::ClobberMemory();
    k = (k + 1) & (kStates - 1);
  }
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / calls;
}

struct Cell {
  std::string row;  // "iiwa/rnea"
  std::string column;
  std::function<double()> time;
  double best = std::numeric_limits<double>::infinity();
};

/// A case that lives to the end of the program (one per model and robot).
template <typename Model>
Case<Model>& keep(Model m) {
  static std::vector<std::unique_ptr<Case<Model>>> cases;
  cases.push_back(std::make_unique<Case<Model>>(std::move(m)));
  return *cases.back();
}

template <typename Model>
void add_model(std::vector<Cell>& cells, const std::string& robot, const std::string& column,
               Case<Model>& c, int calls) {
  const auto add = [&](auto algorithm, const char* name, int scale) {
    using A = decltype(algorithm);
    cells.push_back(Cell{robot + "/" + name, column,
                         [&c, n = std::max(1, calls / scale)] { return time_batch<A>(c, n); }});
  };
  add(Plain<Rnea>{}, "rnea", 1);
  add(Plain<Crba>{}, "crba", 1);
  add(Plain<Aba>{}, "aba", 1);
  add(Plain<ForwardDynamicsCrba>{}, "forward_dynamics_crba", 1);
  add(RneaDerivativesCall{}, "rnea_derivatives", 4);
  add(AbaDerivativesCall{}, "aba_derivatives", 4);
}

}  // namespace
}  // namespace chaindyn::bench

int main(int argc, char** argv) {
  using namespace chaindyn;
  using namespace chaindyn::bench;
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 15;
  using Iiwa7 = ChainN<double, 7, RevoluteZ>;
  using Chain64 = ChainN<double, 64, RevoluteZ>;
  std::vector<Cell> cells;
  add_model(cells, "iiwa", "generated", keep(robots::kuka_iiwa()), 2000);
  add_model(cells, "iiwa", "ChainN", keep(Iiwa7(robots::kuka_iiwa_links())), 2000);
  add_model(cells, "iiwa", "ChainX", keep(ChainX<double>::from(Iiwa7(robots::kuka_iiwa_links()))),
            2000);
  const Chain64 c64 = random_chain<Chain64>();
  add_model(cells, "n64", "ChainN", keep(c64), 100);
  add_model(cells, "n64", "ChainX", keep(ChainX<double>::from(c64)), 100);
  for (int r = 0; r < rounds; ++r) {
    for (Cell& c : cells) c.best = std::min(c.best, c.time());
  }
  const auto find = [&](const std::string& row, const std::string& column) {
    for (const Cell& c : cells) {
      if (c.row == row && c.column == column) return c.best;
    }
    return std::numeric_limits<double>::quiet_NaN();
  };
  std::printf("min over %d interleaved rounds, ns per call\n", rounds);
  std::printf("%-30s %10s %10s %10s %12s %12s\n", "model/algorithm", "generated", "ChainN",
              "ChainX", "ChainX/N", "N/generated");
  std::vector<std::string> rows;
  for (const Cell& c : cells) {
    if (std::find(rows.begin(), rows.end(), c.row) == rows.end()) rows.push_back(c.row);
  }
  for (const std::string& row : rows) {
    const double g = find(row, "generated"), n = find(row, "ChainN"), x = find(row, "ChainX");
    std::printf("%-30s %10.1f %10.1f %10.1f %12.2f %12.2f\n", row.c_str(), g, n, x, x / n, n / g);
  }
  return 0;
}
