/// @file
/// batch::Workspace: the model cast once to the pack scalar, one derivatives workspace per
/// thread and the worker threads (batch/worker_pool.hpp), reused by every batch call so that
/// none allocates; and map_columns, the driver every batch kernel runs on: a batch's columns
/// split into packs of W states and the packs over the threads. (Columns in and out of packs:
/// batch/columns.hpp.)
#pragma once

#include "chaindyn/batch/columns.hpp"
#include "chaindyn/batch/pack.hpp"
#include "chaindyn/batch/worker_pool.hpp"
#include "chaindyn/error.hpp"
#include "chaindyn/model/chain.hpp"
#include "chaindyn/model/derivatives_data.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace chaindyn::batch {

/// The most threads a Workspace runs (Options::threads above it is an ArgumentError).
inline constexpr int kMaxThreads = 256;

/// How a batch call runs.
struct Options {
  /// Threads that share the columns: 1 (the default) runs on the calling thread only; 0 means
  /// every hardware thread (std::thread::hardware_concurrency()); at most kMaxThreads.
  int threads = 1;
};

/// States, one per column: Eigen::Matrix<Scalar, N, Eigen::Dynamic>.
template <typename Model>
using States = Eigen::Matrix<typename Model::Scalar, Model::nq, Eigen::Dynamic>;

template <typename Model_, int W = native_width>
class Workspace;

namespace detail {

/// The chain type of Model with scalar S (what Model::cast<S>() returns).
template <typename Model, typename S>
using CastModel = std::decay_t<decltype(std::declval<const Model&>().template cast<S>())>;

/// One thread's part of a Workspace: the derivatives workspace of the pack model (its `.data`
/// serves rnea, aba and crba) and the pack inputs of a call (three joint vectors, a Jacobian).
/// Sized to the model here, once: a ChainX's vectors are dynamic, and made in a call they would
/// allocate in every call.
/// alignas(64): each on cache lines of its own (its size is a multiple of 64 too).
template <typename PackModel>
struct alignas(64) ThreadWorkspace {
  using Vector = typename PackModel::Vector;
  using Jacobian = Eigen::Matrix<typename PackModel::Scalar, 6, PackModel::nq>;  // FrameJacobian

  explicit ThreadWorkspace(const PackModel& model)
      : derivatives(model),
        inputs{zero_vector(model), zero_vector(model), zero_vector(model)},
        jacobian(Jacobian::Zero(6, Eigen::Index(chaindyn::detail::joint_count(model)))) {}

  DerivativesData<PackModel> derivatives;
  std::array<Vector, 3> inputs;  ///< q, qd and qdd (or tau) of the pack in hand
  Jacobian jacobian;

  /// The Data of rnea, aba, crba and the kinematics (the derivatives workspace's).
  Data<PackModel>& data() noexcept { return derivatives.data; }

 private:
  static Vector zero_vector(const PackModel& model) {
    return Vector::Zero(Eigen::Index(chaindyn::detail::joint_count(model)));
  }
};

template <typename Model, int W>
struct RevoluteZViews {  // none but for a ChainX<double>
  void reset(const Model&, const Options&) {}
  template <int N>
  std::nullptr_t get() const noexcept { return nullptr; }
};

/// For a ChainX<double> of 7 or 6 joints, each revolute about z (most arms from a URDF), a
/// Workspace of the same robot as ChainN<double, N, RevoluteZ>
/// (ChainX::as_revolute_z_chain), on which batch::rnea_derivatives and batch::aba_derivatives
/// run: with packs the compile-time chain runs them as fast as a generated header, the
/// run-time one (its loops, run-time joints and storage) a third slower (docs/benchmarks.md,
/// "Measurements behind the code"). The view has a worker pool of its own.
template <int W>
struct RevoluteZViews<ChainX<double>, W> {
  std::unique_ptr<Workspace<ChainN<double, 7, RevoluteZ>, W>> seven;
  std::unique_ptr<Workspace<ChainN<double, 6, RevoluteZ>, W>> six;
  void reset(const ChainX<double>& model, const Options& options) {
    seven.reset();
    six.reset();
    if (!model.revolute_about_z()) return;
    if (model.joint_count() == 7) {
      seven = std::make_unique<Workspace<ChainN<double, 7, RevoluteZ>, W>>(
          model.as_revolute_z_chain<7>(), options);
    } else if (model.joint_count() == 6) {
      six = std::make_unique<Workspace<ChainN<double, 6, RevoluteZ>, W>>(
          model.as_revolute_z_chain<6>(), options);
    }
  }
  template <int N>
  auto* get() const noexcept {
    if constexpr (N == 7) {
      return seven.get();
    } else {
      return six.get();
    }
  }
};

/// The thread count options.threads asks for (0: every hardware thread).
inline int thread_count(const Options& options) {
  if (options.threads < 0 || options.threads > kMaxThreads) {
    chaindyn::detail::throw_error<ArgumentError>(
        "batch::Workspace: options.threads is ", options.threads, "; give 1 to ", kMaxThreads,
        " threads, or 0 for every hardware thread");
  }
  if (options.threads > 0) return options.threads;
  return std::clamp(int(std::thread::hardware_concurrency()), 1, kMaxThreads);
}

}  // namespace detail

/// What a batch call needs besides its arguments: the model in the pack scalar PackOf<W> (cast
/// once here: Model::cast), one DerivativesData of that model per thread (the Data of rnea, aba
/// and crba is its `.data`; each on its own cache lines) with the pack inputs of a call, and the
/// worker threads. Make it once, reuse it for every call: calls with it allocate nothing. A
/// Workspace is used by one calling thread at a time. After changing the model (set_payload,
/// set_gravity...), call set_model(model) to cast it again. Model: a Chain, a ChainN, a Tree,
/// a ChainX<double> or a TreeX<double> (the run-time ones sized here to their joint count).
///
/// W: the states per pack, native_width by default (8 with AVX-512, 4 with AVX, 2 with SSE2 or
/// NEON, 1 without vector extensions); any of 1, 2, 4, 8 compiles with g++ and clang++ on any
/// target (a pack wider than the registers is split by the compiler).
template <typename Model_, int W>
class Workspace {
 public:
  using Model = std::remove_const_t<Model_>;
  static constexpr int width = W;
  static constexpr int nq = Model::nq;
  using Scalar = typename Model::Scalar;
  using PackScalar = PackOf<W>;
  using PackModel = detail::CastModel<Model, PackScalar>;
  static_assert(std::is_same_v<Scalar, double>, "batch computes models in double");

  explicit Workspace(const Model& model, const Options& options = {})
      : model_(model.template cast<PackScalar>()),
        threads_(detail::thread_count(options)),
        pool_(threads_ - 1) {
    per_thread_.reserve(std::size_t(threads_));
    for (int t = 0; t < threads_; ++t) {
      per_thread_.push_back(std::make_unique<detail::ThreadWorkspace<PackModel>>(model_));
    }
    views_.reset(model, options);
  }

  /// Casts the model again (after set_payload, clear_payload, set_gravity on it). Allocates.
  /// Throws ArgumentError if a ChainX's or TreeX's joint count differs from the workspace's.
  void set_model(const Model& model) {
    if (chaindyn::detail::joint_count(model) != chaindyn::detail::joint_count(model_)) {
      chaindyn::detail::throw_error<ArgumentError>(
          "batch::Workspace::set_model: the model has ", chaindyn::detail::joint_count(model),
          " joints; the workspace was made for ", chaindyn::detail::joint_count(model_));
    }
    model_ = model.template cast<PackScalar>();
    views_.reset(model, Options{threads_});
  }

  /// For a ChainX<double> of N = 7 or 6 joints, each revolute about z: the workspace of the
  /// same robot as ChainN<double, N, RevoluteZ> that batch::rnea_derivatives and
  /// batch::aba_derivatives run on; nullptr otherwise.
  template <int N>
  auto* revolute_z_workspace() const noexcept {
    return views_.template get<N>();
  }

  /// The model in the pack scalar.
  const PackModel& model() const noexcept { return model_; }
  /// The threads a call uses (the calling one included).
  int threads() const noexcept { return threads_; }
  /// The model's joint count (Model::nq, or a ChainX's run-time count).
  Eigen::Index joint_count() const noexcept {
    return Eigen::Index(chaindyn::detail::joint_count(model_));
  }

  /// Thread t's workspace (t < threads()).
  DerivativesData<PackModel>& derivatives_data(int t) noexcept {
    return per_thread_[std::size_t(t)]->derivatives;
  }
  Data<PackModel>& data(int t) noexcept { return per_thread_[std::size_t(t)]->derivatives.data; }
  /// Thread t's pack inputs: q, qd, and qdd or tau (sized to the model).
  auto& inputs(int t) noexcept {
    return per_thread_[std::size_t(t)]->inputs;
  }
  /// Thread t's pack Jacobian (6 x joint count).
  typename detail::ThreadWorkspace<PackModel>::Jacobian& jacobian(int t) noexcept {
    return per_thread_[std::size_t(t)]->jacobian;
  }

  /// Calls kernel(t, first, count) for ranges of consecutive columns that together cover the
  /// n columns once, each a whole number of packs (the last may be short), t the thread (0: the
  /// calling one) whose workspace the kernel uses. The threads take the ranges dynamically
  /// (WorkerPool::run: shrinking chunks from one counter), so a thread that starts late or is
  /// slowed by another process takes fewer. bytes_per_column: the size of one column of the
  /// largest output, so that the ranges' boundaries fall on 64-byte cache-line boundaries of
  /// the outputs (no two threads write one line when the output is 64-byte aligned; otherwise
  /// at most one line per boundary).
  template <typename Kernel>
  void for_each_range(Eigen::Index n, std::size_t bytes_per_column, Kernel&& kernel) noexcept {
    if (n <= 0) return;
    if (threads_ == 1) {
      kernel(0, Eigen::Index(0), n);
      return;
    }
    // Packs per block: the smallest whole number of packs whose output bytes are a multiple of 64.
    Eigen::Index block = 1;
    while ((std::size_t(block) * std::size_t(W) * bytes_per_column) % 64 != 0 && block < 64) {
      ++block;
    }
    const Eigen::Index columns_per_block = block * W;
    const Eigen::Index blocks = (n + columns_per_block - 1) / columns_per_block;
    auto job = [&](int t, std::int64_t first_block, std::int64_t count) {
      const Eigen::Index first = Eigen::Index(first_block) * columns_per_block;
      const Eigen::Index last = std::min(n, Eigen::Index(first_block + count) * columns_per_block);
      kernel(t, first, last - first);
    };
    pool_.run(std::int64_t(blocks), threads_, job);
  }

  /// The shape of every batch kernel: calls pack(w, c, m) for the packs of the n columns, c the
  /// first column of a pack and m <= W its columns (the last pack may be short), w the
  /// ThreadWorkspace of the thread that runs it (its data, inputs and jacobian), the ranges
  /// shared over the threads as for_each_range shares them (bytes_per_column likewise).
  template <typename PackStep>
  void map_columns(Eigen::Index n, std::size_t bytes_per_column, PackStep&& pack) noexcept {
    const auto kernel = [&](int t, Eigen::Index first, Eigen::Index count) CHAINDYN_FLATTEN {
      detail::ThreadWorkspace<PackModel>& w = *per_thread_[std::size_t(t)];
      for (Eigen::Index c = first; c < first + count; c += W) {
        const int m = int(std::min<Eigen::Index>(W, first + count - c));
        pack(w, c, m);
      }
    };
    for_each_range(n, bytes_per_column, kernel);
  }

 private:
  PackModel model_;
  int threads_;
  detail::WorkerPool pool_;
  std::vector<std::unique_ptr<detail::ThreadWorkspace<PackModel>>> per_thread_;
  detail::RevoluteZViews<Model, W> views_;
};

}  // namespace chaindyn::batch
