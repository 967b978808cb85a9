// Exact operation counts: chaindyn's algorithms and the Lagrange-Euler baseline run once with
// the counting scalar (see op_count.hpp).
#include "op_count/op_count.hpp"

#include "support/test_support.hpp"

#include "baselines/lagrange_euler.hpp"
#include <chaindyn/chaindyn.hpp>

#include <memory>
#include <random>
#include <utility>

namespace chaindyn::op_count {

namespace {

template <typename Model>
struct Inputs {
  typename Model::Vector q, qd, qdd, tau;
};

/// A Counted model from seeded random double links (test::random_links) and a random state.
template <typename Model, typename DoubleModel>
std::pair<Model, Inputs<Model>> random_counted(std::uint32_t seed) {
  std::mt19937 gen(seed);
  const std::vector<Link<double>> links = test::random_links<DoubleModel>(gen);
  Inputs<Model> in;
  const auto fill = [&](typename Model::Vector& v, double range) {
    const auto d = test::random_state<typename DoubleModel::Vector>(gen, range);
    for (Eigen::Index i = 0; i < d.size(); ++i) v[i] = Counted(d[i]);
  };
  fill(in.q, 3.1);
  fill(in.qd, 2.0);
  fill(in.qdd, 5.0);
  fill(in.tau, 20.0);
  return {Model(test::cast_links<Counted>(links)), in};
}

template <typename Model>
void count_algorithms(const std::string& joint, const Model& model, const Inputs<Model>& in,
                      std::vector<CountRow>& rows) {
  const auto data = std::make_unique<Data<Model>>();
  Data<Model>& d = *data;
  const int n = Model::nq;
  rows.push_back({joint, n, "rnea", count_ops([&] { rnea(model, d, in.q, in.qd, in.qdd); })});
  rows.push_back({joint, n, "crba", count_ops([&] { crba(model, d, in.q); })});
  rows.push_back({joint, n, "aba", count_ops([&] { aba(model, d, in.q, in.qd, in.tau); })});
  rows.push_back({joint, n, "forward_dynamics_crba",
                  count_ops([&] { forward_dynamics_crba(model, d, in.q, in.qd, in.tau); })});
  rows.push_back({joint, n, "nonlinear_effects",
                  count_ops([&] { nonlinear_effects(model, d, in.q, in.qd); })});
  rows.push_back(
      {joint, n, "gravity_torques", count_ops([&] { gravity_torques(model, d, in.q); })});
}

template <typename Model>
void count_baseline(const std::string& joint, const Model& model, const Inputs<Model>& in,
                    std::vector<CountRow>& rows) {
  baselines::LagrangeEulerData<Model> d(model);
  const int n = Model::nq;
  rows.push_back({joint, n, "lagrange_euler",
                  count_ops([&] { baselines::lagrange_euler(model, d, in.q, in.qd, in.qdd); })});
  rows.push_back({joint, n, "lagrange_euler_mass_matrix",
                  count_ops([&] { baselines::lagrange_euler_mass_matrix(model, d, in.q); })});
}

template <int N, typename Joint>
void chaindyn_row(const std::string& joint, std::vector<CountRow>& rows) {
  using Model = ChainN<Counted, N, Joint>;
  const auto [model, in] = random_counted<Model, ChainN<double, N, Joint>>(test::kSeed + N);
  count_algorithms(joint, model, in, rows);
}

template <int N>
void baseline_row(std::vector<CountRow>& rows) {
  using Model = ChainN<Counted, N, RevoluteZ>;
  const auto [model, in] = random_counted<Model, ChainN<double, N, RevoluteZ>>(test::kSeed + N);
  count_baseline("RevoluteZ", model, in, rows);
}

template <int... N>
void chaindyn_rows(std::integer_sequence<int, N...>, std::vector<CountRow>& rows) {
  (chaindyn_row<N, RevoluteZ>("RevoluteZ", rows), ...);
  (chaindyn_row<N, Revolute>("Revolute", rows), ...);
}

/// The iiwa in Counted: its own links, a random state.
std::pair<robots::KukaIiwa<Counted>, Inputs<robots::KukaIiwa<Counted>>> iiwa() {
  // the random state of a chain of seven RevoluteZ joints (random links: the iiwa's own type
  // states its placements' structure and refuses them); the same numbers as before
  using Plain = ChainN<Counted, 7, RevoluteZ>;
  auto [unused, plain_in] = random_counted<Plain, ChainN<double, 7, RevoluteZ>>(test::kSeed + 7);
  (void)unused;
  Inputs<robots::KukaIiwa<Counted>> in{plain_in.q, plain_in.qd, plain_in.qdd, plain_in.tau};
  return {robots::kuka_iiwa<Counted>(), in};
}

}  // namespace

std::vector<CountRow> count_chaindyn(bool quick) {
  std::vector<CountRow> rows;
  chaindyn_rows(std::integer_sequence<int, 1, 2, 3, 4, 5, 6, 7, 8>{}, rows);
  if (!quick) {
    chaindyn_rows(std::integer_sequence<int, 16, 32, 64, 128>{}, rows);
  }
  const auto [model, in] = iiwa();
  count_algorithms("iiwa", model, in, rows);
  return rows;
}

std::vector<CountRow> count_lagrange_euler(bool quick) {
  std::vector<CountRow> rows;
  baseline_row<1>(rows);
  baseline_row<2>(rows);
  baseline_row<3>(rows);
  baseline_row<4>(rows);
  baseline_row<5>(rows);
  baseline_row<6>(rows);
  baseline_row<7>(rows);
  if (!quick) {
    baseline_row<8>(rows);
    baseline_row<12>(rows);
    baseline_row<16>(rows);
    baseline_row<24>(rows);
    baseline_row<32>(rows);
  }
  const auto [model, in] = iiwa();
  count_baseline("iiwa", model, in, rows);
  return rows;
}

}  // namespace chaindyn::op_count
