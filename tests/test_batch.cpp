// Many states per call (chaindyn/batch.hpp): every batch function equals the one-state
// function column by column, for every joint kind, batch sizes around the pack width (tails)
// and 37, one and two threads, on chains and trees; and the pack scalar's own pieces (sincos,
// sign, select).
#include "support/chains.hpp"
#include "support/test_support.hpp"

#include <chaindyn/batch.hpp>
#include <chaindyn/robots/kuka_iiwa.hpp>
#include <chaindyn/robots/ur5.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

/// Worst relative error of any batch output against the one-state algorithms (per state,
/// relative to that state's largest entry). The forward dynamics solve M qdd = b: a rounding
/// difference of one ulp anywhere (Eigen sums a 3-vector's dot product as (a0 + a1) + a2 for
/// double, vectorised, and a0 + (a1 + a2) for other scalars) moves qdd by up to cond(M) ulp,
/// so aba's and aba_derivatives' errors are divided by cond(M) (the perturbation bound of a
/// linear solve, e.g. Higham, Accuracy and Stability of Numerical Algorithms, sec. 7.1).
struct Worst {
  double value = 0;
  const char* where = "";
  /// scale: 1, or cond(M) for the forward dynamics (below).
  template <typename A, typename B>
  void add(const char* what, const Eigen::MatrixBase<A>& batch,
           const Eigen::MatrixBase<B>& one_state, double scale = 1) {
    const double e = relative_error(batch, one_state) / scale;
    if (e > value) {
      value = e;
      where = what;
    }
  }
};

/// A random chain of type Model (joint dynamics on: Coulomb friction's sign is taken lane by
/// lane); a ChainX is made from a random chain of type Source.
template <typename Model, typename Source>
Model random_model(std::mt19937& gen) {
  if constexpr (Model::nq == Eigen::Dynamic) {
    return Model::from(Source(test::random_links<Source>(gen, true)));
  } else {
    return Model(test::random_links<Model>(gen, true));
  }
}

/// Runs every batch function over random states of a random Model and compares each column
/// with the one-state call. Column 0 has qd = 0 (sign 0 in every lane where it is repeated).
/// Model may be a ChainX<double> (made from a random Source chain).
template <typename Model, int W, bool kDerivatives, typename Source = Model>
double batch_against_one_state(std::mt19937& gen, int threads) {
  using Vector = typename Model::Vector;
  using Mat = Eigen::Matrix<double, Model::nq, Eigen::Dynamic>;
  const Model model = random_model<Model, Source>(gen);
  const int N = int(chaindyn::detail::joint_count(model));
  batch::Workspace<Model, W> ws(model, {threads});
  REQUIRE(ws.threads() == threads);
  const auto frame = model.frame(std::size_t(N - 1), Transform<double>(
      test::random_rotation(gen), test::random_vector(gen, -0.2, 0.2)));
  DerivativesData<Model> dd(model);
  Data<Model>& data = dd.data;
  Worst worst;
  // 37: several packs and a tail for each of two threads (the one-state oracles at -O0 with
  // the sanitizers are most of this file's run time: 37 columns, not 100)
  for (const int n : {1, W - 1, W, W + 1, 37}) {
    if (n < 1) continue;
    Mat q(N, n), qd(N, n), qdd(N, n);
    for (int s = 0; s < n; ++s) {
      q.col(s) = test::random_state<Vector>(gen, 3.0, N);
      qd.col(s) = s == 0 ? Vector(Vector::Zero(N)) : test::random_state<Vector>(gen, 2.0, N);
      qdd.col(s) = test::random_state<Vector>(gen, 2.0, N);
    }
    Mat tau(N, n), acc(N, n), ms(N, N * n), d1(N, N * n), d2(N, N * n), d3(N, N * n);
    Eigen::Matrix<double, 3, Eigen::Dynamic> poses(3, 4 * n);
    Eigen::Matrix<double, 6, Eigen::Dynamic> js(6, N * n), js_local(6, N * n);
    batch::rnea(ws, q, qd, qdd, tau);
    batch::aba(ws, q, qd, tau, acc);
    batch::crba(ws, q, ms);
    batch::frame_pose(ws, q, frame, poses);
    batch::jacobian(ws, q, frame, ReferenceFrame::world, js);
    batch::jacobian(ws, q, frame, ReferenceFrame::local, js_local);
    Eigen::Matrix<double, 6, Eigen::Dynamic> vs(6, n), as(6, n);
    batch::frame_velocity(ws, q, qd, frame, ReferenceFrame::world, vs);
    batch::frame_acceleration(ws, q, qd, qdd, frame, ReferenceFrame::local, as);
    for (int s = 0; s < n; ++s) {
      const auto cols = [&](const auto& m, int k) { return m.middleCols(s * k, k); };
      // the in-place forms take Model::Vector (for a ChainX exactly that type): copies
      const Vector qs = q.col(s), qds = qd.col(s), qdds = qdd.col(s), taus = tau.col(s);
      rnea(model, data, qs, qds, qdds);
      worst.add("rnea", tau.col(s), data.tau);
      crba(model, data, qs);
      const double cond = test::condition_number(data.M);
      aba(model, data, qs, qds, taus);
      worst.add("aba", acc.col(s), data.qdd, cond);
      worst.add("crba", cols(ms, N), data.M);
      const Transform<double>& x = frame_pose(model, data, qs, frame);
      worst.add("frame_pose", cols(poses, 4).template leftCols<3>(), x.rotation);
      worst.add("frame_pose", cols(poses, 4).col(3), x.translation);
      FrameJacobian<Model> j(6, N);
      jacobian(model, data, qs, frame, ReferenceFrame::world, j);
      worst.add("jacobian world", cols(js, N), j);
      jacobian(model, data, qs, frame, ReferenceFrame::local, j);
      worst.add("jacobian local", cols(js_local, N), j);
      Motion<double> m;
      frame_velocity(model, data, qs, qds, frame, ReferenceFrame::world, m);
      worst.add("frame_velocity", vs.col(s), m.vector());
      frame_acceleration(model, data, qs, qds, qdds, frame, ReferenceFrame::local, m);
      worst.add("frame_acceleration", as.col(s), m.vector());
    }
    // The derivatives on the short batches of the chain with every joint kind only: with the
    // pack scalars they are most of this file's compile time (g++ -O1: 124 s with them on every
    // chain type) and, with ASan at -O0, of its run time.
    if constexpr (kDerivatives) {
      if (n == 37) continue;
      batch::rnea_derivatives(ws, q, qd, qdd, d1, d2);
      for (int s = 0; s < n; ++s) {
        const Vector qs = q.col(s), qds = qd.col(s), qdds = qdd.col(s);
        rnea_derivatives(model, dd, qs, qds, qdds);
        worst.add("rnea_derivatives", d1.middleCols(s * N, N), dd.dtau_dq);
        worst.add("rnea_derivatives", d2.middleCols(s * N, N), dd.dtau_dqd);
      }
      batch::aba_derivatives(ws, q, qd, tau, d1, d2, d3);
      for (int s = 0; s < n; ++s) {
        const Vector qs = q.col(s), qds = qd.col(s), taus = tau.col(s);
        crba(model, data, qs);
        const double cond = test::condition_number(data.M);
        aba_derivatives(model, dd, qs, qds, taus);
        worst.add("aba_derivatives", d1.middleCols(s * N, N), dd.dqdd_dq, cond);
        worst.add("aba_derivatives", d2.middleCols(s * N, N), dd.dqdd_dqd, cond);
        worst.add("aba_derivatives", d3.middleCols(s * N, N), dd.dqdd_dtau, cond);
      }
    }
  }
  if (worst.value > 0) WARN("worst in " << worst.where << ": " << worst.value);
  return worst.value;
}

// The two sides compute the same operations in the same order in each lane; what may differ
// is the rounding of Eigen's vectorised double reductions (dot products of the one-state path)
// and fused multiply-adds contracted differently: a few ulp.
constexpr double kBatchTolerance = 1e-14;

}  // namespace

// Two chain types, not test::MixedChains' five (compile time: the pack scalar instantiates
// every algorithm again): the one with every joint kind (Chain's fold) and the 7-joint ChainN
// of run-time axes (its loop, which aba walks); the pack width 1 (double) on the first too,
// the derivatives at width 4 (their kernels are the width's template as the others'). The
// default width of the build (2 without -march, 8 with AVX-512) runs in the next test case;
// tests/compile_only/pack_layouts.cpp checks the workspaces' layouts with 8-lane packs.
TEST_CASE("batch functions equal the one-state functions column by column", "[batch]") {
  using Mixed = std::tuple_element_t<1, test::MixedChains<double>>;  // every joint kind
  using Long = std::tuple_element_t<3, test::MixedChains<double>>;   // ChainN's loop
  static_assert(Long::nq > Long::unroll_limit, "the looped walk");
  std::mt19937 gen(test::kSeed + 1500);
  for (const int threads : {1, 2}) {
    INFO("threads " << threads);
    CHECK(batch_against_one_state<Mixed, 4, true>(gen, threads) <= kBatchTolerance);
    CHECK(batch_against_one_state<Long, 4, false>(gen, threads) <= kBatchTolerance);
  }
  CHECK(batch_against_one_state<Mixed, 1, false>(gen, 1) <= kBatchTolerance);
}

// The runtime-sized chain (the Python module's robot): its joints of every kind and axis, one
// pack width (the build's default, as the Python module's), with the derivatives, whose
// workspace a ChainX sizes at run time.
TEST_CASE("batch functions on a ChainX equal the one-state functions column by column",
          "[batch][chainx]") {
  using Mixed = std::tuple_element_t<1, test::MixedChains<double>>;  // every joint kind
  std::mt19937 gen(test::kSeed + 1504);
  for (const int threads : {1, 2}) {
    INFO("threads " << threads);
    CHECK(batch_against_one_state<ChainX<double>, batch::native_width, true, Mixed>(
              gen, threads) <= kBatchTolerance);
  }
  // 7 and 6 joints: the counts whose derivatives' solve the packs run unrolled
  using Seven = std::tuple_element_t<3, test::MixedChains<double>>;
  using Six = std::tuple_element_t<2, test::MixedChains<double>>;
  static_assert(Seven::nq == 7 && Six::nq == 6, "the unrolled counts");
  CHECK(batch_against_one_state<ChainX<double>, batch::native_width, true, Seven>(gen, 1) <=
        kBatchTolerance);
  CHECK(batch_against_one_state<ChainX<double>, batch::native_width, true, Six>(gen, 2) <=
        kBatchTolerance);
  // The workspace keeps its joint count: set_model with another ChainX size is refused.
  const auto iiwa = ChainX<double>::from(robots::kuka_iiwa());
  batch::Workspace<ChainX<double>> ws(iiwa);
  CHECK(ws.joint_count() == 7);
  CHECK_THROWS_WITH(ws.set_model(ChainX<double>::from(robots::two_link_arm())),
                    Catch::Contains("the model has 2 joints; the workspace was made for 7"));
  const batch::States<ChainX<double>> q = batch::States<ChainX<double>>::Random(7, 3);
  const batch::States<ChainX<double>> tau = batch::rnea(iiwa, q, q, q);
  CHECK(relative_error(tau.col(2), rnea(iiwa, q.col(2), q.col(2), q.col(2))) <= kBatchTolerance);
}

// A ChainX of 7 or 6 joints about z (an arm from a URDF) runs the batch derivatives on the same
// robot as a ChainN<RevoluteZ> (Workspace::revolute_z_workspace): the results are the one-state
// ChainX's, with its payload and joint dynamics, and set_model keeps the view in step.
TEST_CASE("batch derivatives of a 7- or 6-joint ChainX about z run on its ChainN and equal the "
          "one-state ChainX's",
          "[batch][chainx]") {
  std::mt19937 gen(test::kSeed + 1506);
  const auto compare = [&](const ChainX<double>& model, int threads) {
    const Eigen::Index N = Eigen::Index(model.joint_count()), n = 11;
    batch::Workspace<ChainX<double>> ws(model, {threads});
    const bool view = N == 7 ? ws.revolute_z_workspace<7>() != nullptr
                             : ws.revolute_z_workspace<6>() != nullptr;
    Eigen::MatrixXd q(N, n), qd(N, n), tau(N, n);
    for (Eigen::Index s = 0; s < n; ++s) {
      q.col(s) = test::random_state<Eigen::VectorXd>(gen, 3.0, int(N));
      qd.col(s) = test::random_state<Eigen::VectorXd>(gen, 2.0, int(N));
      tau.col(s) = test::random_state<Eigen::VectorXd>(gen, 20.0, int(N));
    }
    Eigen::MatrixXd d1(N, N * n), d2(N, N * n), d3(N, N * n), r1(N, N * n), r2(N, N * n);
    batch::rnea_derivatives(ws, q, qd, tau, r1, r2);
    batch::aba_derivatives(ws, q, qd, tau, d1, d2, d3);
    DerivativesData<ChainX<double>> dd(model);
    Data<ChainX<double>> data(model);
    double worst = 0.0;
    for (Eigen::Index s = 0; s < n; ++s) {
      const Eigen::VectorXd qs = q.col(s), qds = qd.col(s), taus = tau.col(s);
      rnea_derivatives(model, dd, qs, qds, taus);
      worst = std::max({worst, relative_error(r1.middleCols(s * N, N), dd.dtau_dq),
                        relative_error(r2.middleCols(s * N, N), dd.dtau_dqd)});
      crba(model, data, qs);
      const double cond = test::condition_number(data.M);
      aba_derivatives(model, dd, qs, qds, taus);
      worst = std::max({worst, relative_error(d1.middleCols(s * N, N), dd.dqdd_dq) / cond,
                        relative_error(d2.middleCols(s * N, N), dd.dqdd_dqd) / cond,
                        relative_error(d3.middleCols(s * N, N), dd.dqdd_dtau) / cond});
    }
    return std::pair<bool, double>(view, worst);
  };
  auto iiwa = ChainX<double>::from(robots::kuka_iiwa());
  iiwa.set_payload(6, Payload<double>{0.851, {0.0, 0.0, 0.05}, Eigen::Matrix3d::Identity() * 1e-4});
  const auto ur5 = ChainX<double>::from(robots::ur5());
  for (const auto& [model, threads] : {std::pair<const ChainX<double>*, int>{&iiwa, 1},
                                       std::pair<const ChainX<double>*, int>{&ur5, 2}}) {
    const auto [view, worst] = compare(*model, threads);
    CHECK(view);
    CHECK(worst <= kBatchTolerance);
  }
  // Not all about z: no view, the ChainX's own path
  std::vector<Link<double>> links(iiwa.links().begin(), iiwa.links().end());
  links[3].axis = Eigen::Vector3d(0.0, 0.6, 0.8);
  const ChainX<double> tilted(links);
  CHECK_FALSE(tilted.revolute_about_z());
  const auto [view, worst] = compare(tilted, 1);
  CHECK_FALSE(view);
  CHECK(worst <= kBatchTolerance);
  // set_model follows the model: the view goes and comes back
  batch::Workspace<ChainX<double>> ws(iiwa);
  ws.set_model(tilted);
  CHECK(ws.revolute_z_workspace<7>() == nullptr);
  ws.set_model(iiwa);
  CHECK(ws.revolute_z_workspace<7>() != nullptr);
  CHECK_THROWS_AS(iiwa.as_revolute_z_chain<6>(), ArgumentError);
  CHECK_THROWS_AS(tilted.as_revolute_z_chain<7>(), ArgumentError);
}

// The workspace of a runtime-sized model of packs puts every per-link spatial vector, transform
// and inertia that fills whole cache lines on cache lines, whatever the pack's alignment (16
// under EIGEN_MAX_ALIGN_BYTES=16; Pack<4>'s 32 by default on AVX-512).
#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
TEST_CASE("a ChainX's and a TreeX's pack workspaces put their per-link arrays on cache lines",
          "[batch][chainx]") {
  int checked = 0;
  const auto on_lines = [&](const auto& array) {
    using T = typename std::decay_t<decltype(array)>::value_type;
    if constexpr (sizeof(T) % 64 == 0) {
      ++checked;
      return reinterpret_cast<std::uintptr_t>(array.data()) % 64 == 0;
    } else {
      return true;
    }
  };
  const auto check_data = [&](const auto& data) {
    CHECK(on_lines(data.liMi));
    CHECK(on_lines(data.oMi));
    CHECK(on_lines(data.v));
    CHECK(on_lines(data.a));
    CHECK(on_lines(data.f));
    CHECK(on_lines(data.Ic));
    CHECK(on_lines(data.IA));
    CHECK(on_lines(data.ov));
  };
  const auto iiwa = ChainX<double>::from(robots::kuka_iiwa());
  std::mt19937 gen(test::kSeed + 1512);
  using Source = Tree<double, Parents<-1, 0, 1, 0>, RevoluteZ, Revolute, Prismatic, RevoluteY>;
  const TreeX<double> tree = TreeX<double>::from(Source(test::random_links<Source>(gen)));
  const auto check_packs = [&](auto pack) {
    using Pack = decltype(pack);
    check_data(Data<ChainX<Pack>>(iiwa.cast<Pack>()));
    const DerivativesData<ChainX<Pack>> derivatives(iiwa.cast<Pack>());
    check_data(derivatives.data);
    CHECK(on_lines(derivatives.psi));
    CHECK(on_lines(derivatives.col_qd));
    const Data<TreeX<Pack>> tree_data(tree.cast<Pack>());
    check_data(tree_data);
    CHECK(on_lines(tree_data.oBc));
  };
  check_packs(batch::Pack<4>{});
  check_packs(batch::Pack<8>{});
  CHECK(checked >= 2 * 8 * 3);  // Pack<8>: every array; Pack<4>: liMi, oMi, v, a, f, ov at least
}
#endif

// A compile-time tree (two branches from joint 1, one from the base; every walk of a Tree) and
// the same shape at run time: rnea, aba, crba and the kinematics, and on the TreeX the
// derivatives. Width 1 runs the one-state code in double: equal to the last bit; the pack
// widths to rounding.
TEST_CASE("batch functions on a Tree and a TreeX equal the one-state functions column by column",
          "[batch][trees]") {
  using BatchTree = Tree<double, Parents<-1, 0, 1, 1, 3, 0, 5>, RevoluteZ, Revolute, RevoluteY,
                         Prismatic, Revolute, RevoluteX, Revolute>;
  std::mt19937 gen(test::kSeed + 1508);
  CHECK(batch_against_one_state<BatchTree, 1, false>(gen, 1) == 0.0);
  for (const int threads : {1, 2}) {
    INFO("threads " << threads);
    CHECK(batch_against_one_state<BatchTree, 4, false>(gen, threads) <= kBatchTolerance);
    CHECK(batch_against_one_state<TreeX<double>, batch::native_width, true, BatchTree>(
              gen, threads) <= kBatchTolerance);
  }
}

// A moving base (free-flyer and planar) on a run-time tree (the Python module's models): rnea,
// aba, crba and the Jacobians, q of nq rows, v, a, tau of nv; width 1 to the last bit, the
// build's pack width to rounding; the returning forms; sizes refused with typed errors.
template <typename Model, int W>
double floating_batch_against_one_state(const Model& model, std::mt19937& gen, int threads) {
  const Eigen::Index nq = model.nq_size(), nv = model.nv_size();
  batch::Workspace<Model, W> ws(model, {threads});
  const auto frame = model.tree().frame(model.joint_count() - 1, Transform<double>(
      test::random_rotation(gen), test::random_vector(gen, -0.2, 0.2)));
  Data<Model> data(model);
  Worst worst;
  for (const int n : {1, W + 1, 37}) {
    Eigen::MatrixXd q(nq, n), v(nv, n), a(nv, n);
    for (int s = 0; s < n; ++s) {
      q.col(s) = random_configuration(model, gen, 2.0);
      v.col(s) = test::random_state<Eigen::VectorXd>(gen, 2.0, int(nv));
      a.col(s) = test::random_state<Eigen::VectorXd>(gen, 2.0, int(nv));
    }
    Eigen::MatrixXd tau(nv, n), acc(nv, n), ms(nv, nv * n), js(6, nv * n);
    batch::rnea(ws, q, v, a, tau);
    batch::aba(ws, q, v, tau, acc);
    batch::crba(ws, q, ms);
    batch::jacobian(ws, q, frame, ReferenceFrame::world, js);
    for (int s = 0; s < n; ++s) {
      const Eigen::VectorXd qs = q.col(s), vs = v.col(s), as = a.col(s), taus = tau.col(s);
      rnea(model, data, qs, vs, as);
      worst.add("rnea", tau.col(s), data.tau);
      crba(model, data, qs);
      worst.add("crba", ms.middleCols(s * nv, nv), data.M);
      const double cond = test::condition_number(data.M);
      aba(model, data, qs, vs, taus);
      worst.add("aba", acc.col(s), data.a, cond);
      FloatingJacobian<typename Model::Tree, typename Model::Base> j(6, nv);
      jacobian(model, data, qs, frame, ReferenceFrame::world, j);
      worst.add("jacobian", js.middleCols(s * nv, nv), j);
    }
    if (n == 37) {  // the returning forms (the build's width)
      CHECK(relative_error(batch::rnea(model, q, v, a), tau) <= kBatchTolerance);
      CHECK(relative_error(batch::aba(model, q, v, tau, {threads}), acc) <= 1e-12);
      CHECK(relative_error(batch::crba(model, q), ms) <= kBatchTolerance);
    }
  }
  if (worst.value > 0) WARN("worst in " << worst.where << ": " << worst.value);
  return worst.value;
}

TEST_CASE("batch functions on a moving base equal the one-state functions column by column",
          "[batch][floating]") {
  using BatchTree = Tree<double, Parents<-1, 0, 1, 1, 3, 0, 5>, RevoluteZ, Revolute, RevoluteY,
                         Prismatic, Revolute, RevoluteX, Revolute>;
  std::mt19937 gen(test::kSeed + 1512);
  Link<double> body;
  body.mass = 6.0;
  body.com = Eigen::Vector3d(0.05, -0.02, 0.1);
  body.inertia = Eigen::Vector3d(0.3, 0.4, 0.5).asDiagonal();
  const TreeX<double> tree = TreeX<double>::from(BatchTree(test::random_links<BatchTree>(gen, true)));
  const FloatingBase<TreeX<double>> flyer(body, tree);
  const PlanarBaseRobot<TreeX<double>> planar(body, tree);
  CHECK(floating_batch_against_one_state<FloatingBase<TreeX<double>>, 1>(flyer, gen, 1) == 0.0);
  CHECK(floating_batch_against_one_state<PlanarBaseRobot<TreeX<double>>, 1>(planar, gen, 1) == 0.0);
  for (const int threads : {1, 2}) {
    INFO("threads " << threads);
    CHECK(floating_batch_against_one_state<FloatingBase<TreeX<double>>, batch::native_width>(
              flyer, gen, threads) <= kBatchTolerance);
    CHECK(floating_batch_against_one_state<PlanarBaseRobot<TreeX<double>>, batch::native_width>(
              planar, gen, threads) <= kBatchTolerance);
  }
  batch::Workspace<FloatingBase<TreeX<double>>> ws(flyer);
  const Eigen::MatrixXd q = Eigen::MatrixXd::Zero(flyer.nq_size(), 3);
  const Eigen::MatrixXd v = Eigen::MatrixXd::Zero(flyer.nv_size(), 3);
  Eigen::MatrixXd out(flyer.nv_size(), 3), wrong(flyer.nq_size(), 3);
  CHECK_THROWS_WITH(batch::rnea(ws, v, v, v, out),
                    Catch::Contains("batch::rnea: Q is 13 x 3; expected 14 x 3") &&
                        Catch::Contains("nq rows"));
  CHECK_THROWS_AS(batch::aba(ws, q, v, v, wrong), ArgumentError);
  CHECK_THROWS_AS(batch::crba(ws, q, out), ArgumentError);
}

TEST_CASE("batch: the returning forms equal the in-place forms, and sizes and threads are checked",
          "[batch]") {
  const auto iiwa = robots::kuka_iiwa();
  using Model = std::decay_t<decltype(iiwa)>;
  using Mat = batch::States<Model>;
  std::mt19937 gen(test::kSeed + 1502);
  Mat q(7, 5), qd(7, 5), qdd(7, 5);
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    q.data()[i] = test::uniform(gen, -3, 3);
    qd.data()[i] = test::uniform(gen, -2, 2);
    qdd.data()[i] = test::uniform(gen, -2, 2);
  }
  batch::Workspace<Model> ws(iiwa);
  Mat tau(7, 5), acc(7, 5);
  Eigen::Matrix<double, 7, Eigen::Dynamic> ms(7, 35);
  batch::rnea(ws, q, qd, qdd, tau);
  batch::aba(ws, q, qd, tau, acc);
  batch::crba(ws, q, ms);
  CHECK(batch::rnea(iiwa, q, qd, qdd, {2}) == tau);
  CHECK(batch::aba(iiwa, q, qd, tau) == acc);
  CHECK(batch::crba(iiwa, q) == ms);
  const auto flange = iiwa.frame(6);
  Eigen::Matrix<double, 6, Eigen::Dynamic> vs(6, 5), as(6, 5);
  batch::frame_velocity(ws, q, qd, flange, ReferenceFrame::local, vs);
  batch::frame_acceleration(ws, q, qd, qdd, flange, ReferenceFrame::world, as);
  CHECK(batch::frame_velocity(iiwa, q, qd, flange, ReferenceFrame::local) == vs);
  CHECK(batch::frame_acceleration(iiwa, q, qd, qdd, flange, ReferenceFrame::world) == as);
  CHECK_THROWS_AS(batch::frame_velocity(ws, q, qd.leftCols(4), flange, ReferenceFrame::local, vs),
                  ArgumentError);
  // Output blocks of a larger matrix: the columns 2..4 of a 7 x 10 matrix.
  Mat wide = Mat::Zero(7, 10);
  batch::rnea(ws, q.leftCols(3), qd.leftCols(3), qdd.leftCols(3), wide.middleCols(2, 3));
  CHECK(wide.middleCols(2, 3) == tau.leftCols(3));
  CHECK(wide.leftCols(2).isZero(0));
  // Any memory layout (full packs load and store through the strides, tails and expressions
  // without direct access lane by lane), each equal to the column-major call bit for bit:
  // row-major inputs and outputs, a Map with inner and outer strides (numpy's views, as the
  // Python module passes them), an expression (q + 0) and a row-major matrix of matrices.
  using RowMajor = Eigen::Matrix<double, 7, Eigen::Dynamic, Eigen::RowMajor>;
  const RowMajor q_rows = q, qd_rows = qd, qdd_rows = qdd;
  RowMajor tau_rows(7, 5);
  batch::rnea(ws, q_rows, qd_rows, qdd_rows, tau_rows);
  CHECK(Mat(tau_rows) == tau);
  Eigen::MatrixXd holder = Eigen::MatrixXd::Zero(2 * 7, 3 * 5);  // q at every 2nd row, 3rd col
  using Strided = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
  for (Eigen::Index s = 0; s < 5; ++s) {
    for (Eigen::Index k = 0; k < 7; ++k) holder(2 * k, 3 * s) = q(k, s);
  }
  const Strided q_strided(holder.data(), 7, 5, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(
                                                   3 * holder.outerStride(), 2));
  Mat tau_strided(7, 5), tau_expression(7, 5);
  batch::rnea(ws, q_strided, qd, qdd, tau_strided);
  CHECK(tau_strided == tau);
  batch::rnea(ws, q + Mat::Zero(7, 5), qd, qdd, tau_expression);
  CHECK(tau_expression == tau);
  Eigen::Matrix<double, 7, Eigen::Dynamic, Eigen::RowMajor> ms_rows(7, 35);
  batch::crba(ws, q_rows, ms_rows);
  CHECK(Eigen::Matrix<double, 7, Eigen::Dynamic>(ms_rows) == ms);
  // A workspace follows a changed model after set_model.
  Model loaded = iiwa;
  loaded.set_payload(6, Payload<double>{2.0, {0, 0, 0.1}, Eigen::Matrix3d::Identity() * 1e-3});
  ws.set_model(loaded);
  batch::rnea(ws, q, qd, qdd, tau);
  CHECK(relative_error(tau.col(4), rnea(loaded, q.col(4), qd.col(4), qdd.col(4))) <= kBatchTolerance);

  Mat short_tau(7, 4);
  CHECK_THROWS_WITH(batch::rnea(ws, q, qd, qdd, short_tau),
                    Catch::Contains("batch::rnea: Tau is 7 x 4; expected 7 x 5"));
  Eigen::Matrix<double, 7, Eigen::Dynamic> short_ms(7, 7);
  CHECK_THROWS_AS(batch::crba(ws, q, short_ms), ArgumentError);
  CHECK_THROWS_WITH((batch::Workspace<Model>(iiwa, {-1})),
                    Catch::Contains("options.threads is -1"));
  // Above the documented maximum: a named error before any thread starts (100000 threads hung
  // the process: std::thread failed part-way and the half-built pool deadlocked).
  CHECK_THROWS_WITH((batch::Workspace<Model>(iiwa, {100000})),
                    Catch::Contains("options.threads is 100000; give 1 to 256"));
  CHECK_THROWS_AS((batch::Workspace<Model>(iiwa, {batch::kMaxThreads + 1})), ArgumentError);
  CHECK(batch::Workspace<Model>(iiwa, {0}).threads() >= 1);
  CHECK(batch::Workspace<Model>(iiwa, {0}).threads() <= batch::kMaxThreads);
}

TEST_CASE("batch kinematics on a ChainX refuse a frame handle made by another ChainX",
          "[batch][arguments]") {
  const auto iiwa = ChainX<double>::from(robots::kuka_iiwa());
  const auto two = ChainX<double>::from(robots::two_link_arm());
  batch::Workspace<ChainX<double>> ws(two);
  const Eigen::MatrixXd q = Eigen::MatrixXd::Zero(2, 3);
  Eigen::MatrixXd poses(3, 12), js(6, 6);
  const FrameFor<ChainX<double>> tip_of_iiwa = iiwa.frame(6);
  CHECK_THROWS_WITH(batch::frame_pose(ws, q, tip_of_iiwa, poses),
                    Catch::Contains("made by a chain of 7 joints; the model has 2"));
  CHECK_THROWS_AS(batch::jacobian(ws, q, tip_of_iiwa, ReferenceFrame::world, js), ArgumentError);
  CHECK_NOTHROW(batch::frame_pose(ws, q, two.frame(1), poses));
}

#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
TEST_CASE("pack scalar: sincos is the one-state kernel in every lane (to an ulp), sign and "
          "select per lane",
          "[batch][scalar]") {
  using P = batch::Pack<4>;
  constexpr double kOneUlpOfOne = std::numeric_limits<double>::epsilon();  // |sin|, |cos| <= 1
  std::mt19937 gen(test::kSeed + 1503);
  for (int trial = 0; trial < 200; ++trial) {
    P x;
    for (int l = 0; l < 4; ++l) x.set(l, test::uniform(gen, -50, 50));
    // Beyond |x| = 1e5 that lane takes the C library and the others keep the kernel: each lane
    // the one-state numbers (test_boundary.cpp: a state's joints together).
    const bool far = trial % 50 == 0;
    if (far) x.set(trial / 50, 3e5);
    P s, c;
    std::array<P, 1> xs{x}, ss, cs;
    detail::sincos(xs.data(), ss.data(), cs.data(), 1);
    for (int l = 0; l < 4; ++l) {
      const double xl = x[l];
      double s1, c1;
      detail::sincos(&xl, &s1, &c1, 1);  // the one-state path
      // The same operations; a compiler may fuse a multiply and an add in one path and not in
      // the other (clang++ contracts a pack's operators: batch/pack.hpp): one ulp apart at most.
      CHECK(std::abs(ss[0][l] - s1) <= kOneUlpOfOne);
      CHECK(std::abs(cs[0][l] - c1) <= kOneUlpOfOne);
      CHECK(std::abs(ss[0][l] - std::sin(x[l])) <= 4e-16);
      CHECK(std::abs(cs[0][l] - std::cos(x[l])) <= 4e-16);
    }
    batch::sincos(x, s, c);
    CHECK(batch::all(s == ss[0]));
  }
  P v;
  v.set(0, -2.5);
  v.set(1, 0.0);
  v.set(2, 1e-300);
  v.set(3, -0.0);
  const P sg = detail::sign(v);
  CHECK((sg[0] == -1 && sg[1] == 0 && sg[2] == 1 && sg[3] == 0));
  const P sel = batch::select(v < P(0.0), P(7.0), v);
  CHECK((sel[0] == 7 && sel[1] == 0 && sel[2] == 1e-300 && sel[3] == 0));
  CHECK(batch::lanes_of<P> == 4);
  CHECK(batch::lanes_of<double> == 1);
}
#endif
