/// @file
/// batch::Workspace: the model cast once to the pack scalar, one derivatives workspace per
/// thread and the worker threads, reused by every batch call so that none allocates; and the
/// driver that splits a batch's columns into packs of W states and the packs over the threads.
#pragma once

#include "chaindyn/algorithms/rnea_derivatives.hpp"
#include "chaindyn/batch/pack.hpp"
#include "chaindyn/error.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace chaindyn::batch {

/// How a batch call runs.
struct Options {
  /// Threads that share the columns: 1 (the default) runs on the calling thread only; 0 means
  /// every hardware thread (std::thread::hardware_concurrency()).
  int threads = 1;
};

/// States, one per column: Eigen::Matrix<Scalar, N, Eigen::Dynamic>.
template <typename Model>
using States = Eigen::Matrix<typename Model::Scalar, Model::nq, Eigen::Dynamic>;

namespace detail {

/// A fixed set of worker threads that run one job at a time: run(parts, job) calls
/// job(part) for part = 0 .. parts-1, part 0 on the calling thread and part p on worker p-1,
/// and returns when all are done. No allocation per job (the job is passed by pointer). Idle
/// workers spin for a few microseconds (a batch call right after the last one starts at
/// once), then sleep on a condition variable.
class WorkerPool {
 public:
  explicit WorkerPool(int workers) {
    threads_.reserve(std::size_t(workers));
    for (int w = 0; w < workers; ++w) threads_.emplace_back([this, w] { work(w + 1); });
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  int workers() const noexcept { return int(threads_.size()); }

  /// Runs job(0) .. job(parts-1), parts <= workers() + 1. The job must not throw.
  template <typename Job>
  void run(int parts, Job& job) noexcept {
    if (parts <= 1) {
      job(0);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &call<Job>;
      context_ = &job;
      parts_ = parts;
      pending_.store(parts - 1, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    job(0);
    // Wait for the workers: spin first, then sleep.
    for (int spin = 0; spin < kSpins; ++spin) {
      if (pending_.load(std::memory_order_acquire) == 0) return;
      pause();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
  }

 private:
  static constexpr int kSpins = 256;  // ~10 us of pause on current x86 cores

  template <typename Job>
  static void call(void* context, int part) noexcept {
    (*static_cast<Job*>(context))(part);
  }

  static void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
  }

  void work(int part) {
    unsigned seen = 0;
    for (;;) {
      // Wait for a new generation: spin first, then sleep.
      unsigned now = generation_.load(std::memory_order_acquire);
      for (int spin = 0; now == seen && spin < kSpins; ++spin) {
        pause();
        now = generation_.load(std::memory_order_acquire);
      }
      void (*job)(void*, int) = nullptr;
      void* context = nullptr;
      int parts = 0;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
        seen = generation_.load(std::memory_order_acquire);
        if (stop_) return;
        job = job_;
        context = context_;
        parts = parts_;
      }
      if (part < parts) {
        job(context, part);
        if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          std::lock_guard<std::mutex> lock(mutex_);
          done_.notify_one();
        }
      }
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  void (*job_)(void*, int) = nullptr;
  void* context_ = nullptr;
  int parts_ = 0;
  bool stop_ = false;
  alignas(64) std::atomic<unsigned> generation_{0};
  alignas(64) std::atomic<int> pending_{0};
};

/// The chain type of Model with scalar S (what Model::cast<S>() returns).
template <typename Model, typename S>
using CastModel = std::decay_t<decltype(std::declval<const Model&>().template cast<S>())>;

/// One thread's part of a Workspace: the derivatives workspace of the pack model (its `.data`
/// serves rnea, aba and crba) and the pack inputs of a call (three joint vectors, a Jacobian).
/// Sized to the model here, once: a ChainX's vectors are dynamic, and made in a call they would
/// allocate in every call.
template <typename PackModel>
struct ThreadWorkspace {
  using Vector = typename PackModel::Vector;
  using Jacobian = Eigen::Matrix<typename PackModel::Scalar, 6, PackModel::nq>;  // FrameJacobian

  explicit ThreadWorkspace(const PackModel& model)
      : derivatives(model),
        inputs{zero_vector(model), zero_vector(model), zero_vector(model)},
        jacobian(Jacobian::Zero(6, Eigen::Index(chaindyn::detail::joint_count(model)))) {}

  DerivativesData<PackModel> derivatives;
  std::array<Vector, 3> inputs;  ///< q, qd and qdd (or tau) of the pack in hand
  Jacobian jacobian;

 private:
  static Vector zero_vector(const PackModel& model) {
    return Vector::Zero(Eigen::Index(chaindyn::detail::joint_count(model)));
  }
};

/// The thread count options.threads asks for (0: every hardware thread).
inline int thread_count(const Options& options) {
  if (options.threads < 0) {
    chaindyn::detail::throw_error<ArgumentError>(
        "batch::Workspace: options.threads is ", options.threads,
        "; give 1 or more threads, or 0 for every hardware thread");
  }
  if (options.threads > 0) return options.threads;
  return std::max(1, int(std::thread::hardware_concurrency()));
}

}  // namespace detail

/// What a batch call needs besides its arguments: the model in the pack scalar PackOf<W> (cast
/// once here: Model::cast), one DerivativesData of that model per thread (the Data of rnea, aba
/// and crba is its `.data`; each on its own cache lines) with the pack inputs of a call, and the
/// worker threads. Make it once, reuse it for every call: calls with it allocate nothing. A
/// Workspace is used by one calling thread at a time. After changing the model (set_payload,
/// set_gravity...), call set_model(model) to cast it again. Model: a Chain, a ChainN or a
/// ChainX<double> (sized here to its joint count).
///
/// W: the states per pack, native_width by default (8 with AVX-512, 4 with AVX, 2 with SSE2 or
/// NEON, 1 without vector extensions); any of 1, 2, 4, 8 compiles with g++ and clang++ on any
/// target (a pack wider than the registers is split by the compiler).
template <typename Model_, int W = native_width>
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
  }

  /// Casts the model again (after set_payload, clear_payload, set_gravity on it). Allocates.
  /// Throws ArgumentError if a ChainX's joint count differs from the workspace's.
  void set_model(const Model& model) {
    if (chaindyn::detail::joint_count(model) != chaindyn::detail::joint_count(model_)) {
      chaindyn::detail::throw_error<ArgumentError>(
          "batch::Workspace::set_model: the model has ", chaindyn::detail::joint_count(model),
          " joints; the workspace was made for ", chaindyn::detail::joint_count(model_));
    }
    model_ = model.template cast<PackScalar>();
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
  std::array<typename PackModel::Vector, 3>& inputs(int t) noexcept {
    return per_thread_[std::size_t(t)]->inputs;
  }
  /// Thread t's pack Jacobian (6 x joint count).
  typename detail::ThreadWorkspace<PackModel>::Jacobian& jacobian(int t) noexcept {
    return per_thread_[std::size_t(t)]->jacobian;
  }

  /// Calls kernel(t, first, count) for consecutive ranges of the n columns, each a whole number
  /// of packs (the last may be short), one range per thread, in parallel. bytes_per_column: the
  /// size of one column of the largest output, so that the ranges' boundaries fall on
  /// 64-byte cache-line boundaries of the outputs (no two threads write one line when the
  /// output is 64-byte aligned, as Eigen aligns it with AVX-512; otherwise at most one line per
  /// boundary, once per call).
  template <typename Kernel>
  void for_each_range(Eigen::Index n, std::size_t bytes_per_column, Kernel&& kernel) noexcept {
    if (n <= 0) return;
    // Packs per block: the smallest whole number of packs whose output bytes are a multiple of 64.
    Eigen::Index block = 1;
    while ((std::size_t(block) * std::size_t(W) * bytes_per_column) % 64 != 0 && block < 64) {
      ++block;
    }
    const Eigen::Index columns_per_block = block * W;
    const Eigen::Index blocks = (n + columns_per_block - 1) / columns_per_block;
    const int parts = int(std::min<Eigen::Index>(threads_, blocks));
    auto job = [&](int part) {
      const Eigen::Index b0 = blocks * part / parts, b1 = blocks * (part + 1) / parts;
      const Eigen::Index first = b0 * columns_per_block;
      const Eigen::Index last = std::min(n, b1 * columns_per_block);
      if (last > first) kernel(part, first, last - first);
    };
    pool_.run(parts, job);
  }

 private:
  PackModel model_;
  int threads_;
  detail::WorkerPool pool_;
  std::vector<std::unique_ptr<detail::ThreadWorkspace<PackModel>>> per_thread_;
};

namespace detail {

/// Loads columns first .. first+count-1 (count <= W) of X into the lanes of a pack vector; the
/// lanes past count repeat the last column (valid numbers, results ignored). Each pack is
/// filled from an array of W doubles by one memcpy: inserting lane by lane into a 64-byte
/// vector in memory made clang++ 14 write the whole vector back per lane (gather and scatter
/// took 110 ns per state for W = 8 instead of 7).
template <typename P, int R, typename Derived>
inline void gather(const Eigen::MatrixBase<Derived>& x, Eigen::Index first, int count,
                   Eigen::Matrix<P, R, 1>& out) noexcept {
  constexpr int W = lanes_of<P>;
  Eigen::Index cols[W];
  for (int l = 0; l < W; ++l) cols[l] = first + std::min(l, count - 1);
  for (Eigen::Index k = 0; k < out.rows(); ++k) {
    double lanes[W];
    for (int l = 0; l < W; ++l) lanes[l] = x.derived().coeff(k, cols[l]);
    static_assert(sizeof(P) == sizeof lanes, "a pack is W doubles");
    std::memcpy(static_cast<void*>(&out[k]), lanes, sizeof lanes);
  }
}

/// Stores the first count lanes of a pack vector into columns first .. first+count-1 of X.
template <typename P, int R, typename Derived>
inline void scatter(const Eigen::Matrix<P, R, 1>& in, Eigen::Index first, int count,
                    Eigen::MatrixBase<Derived>& x) noexcept {
  constexpr int W = lanes_of<P>;
  for (Eigen::Index k = 0; k < in.rows(); ++k) {
    double lanes[W];
    std::memcpy(lanes, static_cast<const void*>(&in[k]), sizeof lanes);
    for (int l = 0; l < count; ++l) x.derived().coeffRef(k, first + l) = lanes[l];
  }
}

/// Stores lane l of each of count states' R x C pack matrix into X's columns, state s's
/// matrix at columns (first + s) * C .. (first + s) * C + C - 1 (the batch layout of matrices).
template <typename P, int R, int C, typename Derived>
inline void scatter_matrices(const Eigen::Matrix<P, R, C>& in, Eigen::Index first, int count,
                             Eigen::MatrixBase<Derived>& x) noexcept {
  constexpr int W = lanes_of<P>;
  const Eigen::Index cols = in.cols();
  for (Eigen::Index j = 0; j < cols; ++j) {
    for (Eigen::Index k = 0; k < in.rows(); ++k) {
      double lanes[W];
      std::memcpy(lanes, static_cast<const void*>(&in(k, j)), sizeof lanes);
      for (int l = 0; l < count; ++l) x.derived().coeffRef(k, (first + l) * cols + j) = lanes[l];
    }
  }
}

/// Checks a batch argument's size: rows x cols (throws ArgumentError naming both).
template <typename Derived>
void check_batch_size(const Eigen::MatrixBase<Derived>& x, Eigen::Index rows, Eigen::Index cols,
                      const char* function, const char* name) {
  if (x.rows() != rows || x.cols() != cols) {
    chaindyn::detail::throw_error<ArgumentError>(
        "batch::", function, ": ", name, " is ", x.rows(), " x ", x.cols(), "; expected ", rows,
        " x ", cols, " (one column per state", rows == x.rows() ? "" : ", one row per joint", ")");
  }
}

}  // namespace detail
}  // namespace chaindyn::batch
