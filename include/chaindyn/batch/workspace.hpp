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
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
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

/// A fixed set of worker threads that share one job at a time with the calling thread.
///
/// run(units, threads_wanted, job) hands out the units 0 .. units-1 in chunks: every
/// participant (the calling thread as participant 0, worker w as participant w) takes the next
/// chunk from one atomic counter until none is left, and calls job(participant, first, count)
/// for it. A chunk is at most 1/8 of a participant's share, and shrinks as the work runs out
/// (guided self-scheduling: the remaining units over twice the participants, at least one
/// unit), so a worker that starts late simply takes fewer chunks, the last chunks are short,
/// and a worker that the OS deschedules mid-chunk holds back little.
///
/// The calling thread never waits for a worker to start: a worker joins a job only while it is
/// open (one compare-and-swap on the word that holds the job's generation, an open flag and the
/// count of joined workers); when the calling thread finds no chunk left it closes the job and
/// waits only for the workers that joined, i.e. for their last chunk. A worker that arrives
/// after the close skips that job and never reads its (by then destroyed) context.
///
/// Idle workers spin (`pause`), then sleep on a condition variable. The spin is adaptive and
/// bounded: after a job a worker spins for twice the time it spent in that job, clamped to
/// [kMinSpin, kMaxSpin] (5 us .. 50 us), so back-to-back calls (a batch::rnea followed by a
/// batch::aba, an optimiser's iterations) find the workers awake, while an idle pool costs at
/// most that much CPU per call before its workers sleep. A call that finds workers asleep
/// wakes them with one notify_all and starts on its own meanwhile. Why not longer: on a core
/// shared with another busy process the scheduler charges a spinning worker for its spin, so it
/// is preempted more often, and a worker preempted mid-chunk stalls the call for the other
/// process's time slice: with 500 us (the first version) two threads ran batch::rnea over
/// 1,024 iiwa states at 214 ns per state, with 50 us at 159, on a 2-vCPU machine whose second
/// vCPU another build held (one thread: 131-139 ns per state).
///
/// No allocation per job (the job is passed by pointer); noexcept; the shared counters and the
/// job word sit on cache lines of their own.
class WorkerPool {
 public:
  explicit WorkerPool(int workers) {
    threads_.reserve(std::size_t(workers));
    for (int w = 0; w < workers; ++w) threads_.emplace_back([this, w] { work(w + 1); });
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool() {
    stop_.store(true, std::memory_order_relaxed);
    publish(nullptr, nullptr, 0, 0);  // a new generation the workers see, then stop_
    for (std::thread& t : threads_) t.join();
  }

  int workers() const noexcept { return int(threads_.size()); }

  /// Calls job(participant, first, count) over chunks that cover units 0 .. units-1, on the
  /// calling thread (participant 0) and on up to participants - 1 workers (participants <=
  /// workers() + 1). Returns when every chunk is done. The job must not throw.
  template <typename Job>
  void run(std::int64_t units, int participants, Job& job) noexcept {
    if (units <= 0) return;
    if (participants <= 1 || units == 1) {
      job(0, std::int64_t(0), units);
      return;
    }
    next_.store(0, std::memory_order_relaxed);
    publish(&call<Job>, &job, units, participants);
    take_chunks(0, &job, &call<Job>, units, participants);
    // No chunk is left: close the job (no worker joins it any more) and wait for those that
    // joined to finish their last chunk.
    std::uint64_t s = state_.fetch_and(~kOpen, std::memory_order_acq_rel) & ~kOpen;
    for (int spin = 0; (s & kActive) != 0; ++spin) {
      if (spin < kWaitSpins) {
        pause();
      } else {
        std::this_thread::yield();  // a joined worker was descheduled mid-chunk
      }
      s = state_.load(std::memory_order_acquire);
    }
  }

 private:
  using Call = void (*)(void*, int, std::int64_t, std::int64_t);
  // The job word: joined workers in bits 0..15, the open flag in bit 16, the generation above.
  static constexpr std::uint64_t kActive = 0xffff;
  static constexpr std::uint64_t kOpen = std::uint64_t(1) << 16;
  static constexpr std::uint64_t kGeneration = std::uint64_t(1) << 17;
  static constexpr std::chrono::microseconds kMinSpin{5}, kMaxSpin{50};
  static constexpr int kWaitSpins = 4096;  // the calling thread's pause loop before it yields

  template <typename Job>
  static void call(void* context, int participant, std::int64_t first, std::int64_t count) noexcept {
    (*static_cast<Job*>(context))(participant, first, count);
  }

  static void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#else
    std::this_thread::yield();
#endif
  }

  /// Writes the job (read by a worker only after it joins it) and opens a new generation;
  /// wakes the sleeping workers. Called with no worker joined (the previous job was drained).
  void publish(Call call, void* context, std::int64_t units, int participants) noexcept {
    call_ = call;
    context_ = context;
    units_ = units;
    participants_ = participants;
    const std::uint64_t generation = state_.load(std::memory_order_relaxed) & ~(kOpen | kActive);
    // seq_cst store then seq_cst load of sleepers_, against the worker's seq_cst increment of
    // sleepers_ then seq_cst load of state_: one of the two sees the other (no lost wake-up).
    state_.store(generation + kGeneration + kOpen, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      { std::lock_guard<std::mutex> lock(mutex_); }  // a sleeper is in wait() or not yet asleep
      wake_.notify_all();
    }
  }

  /// Takes chunks until none is left: the remaining units over 2 x participants, at most
  /// units / (8 x participants) (rounded up) and at least one.
  static void take_chunks(int participant, void* context, Call call, std::int64_t units,
                          int participants, std::atomic<std::int64_t>& next) noexcept {
    const std::int64_t largest = (units + 8 * participants - 1) / (8 * participants);
    std::int64_t first = next.load(std::memory_order_relaxed);
    for (;;) {
      if (first >= units) return;
      const std::int64_t count =
          std::clamp<std::int64_t>((units - first) / (2 * participants), 1, largest);
      if (next.compare_exchange_weak(first, first + count, std::memory_order_relaxed)) {
        call(context, participant, first, count);
        first = next.load(std::memory_order_relaxed);
      }
    }
  }
  void take_chunks(int participant, void* context, Call call, std::int64_t units,
                   int participants) noexcept {
    take_chunks(participant, context, call, units, participants, next_);
  }

  void work(int participant) noexcept {
    std::uint64_t seen = 0;  // the generation of the last job this worker saw
    std::chrono::nanoseconds spin = kMinSpin;
    for (;;) {
      std::uint64_t s = state_.load(std::memory_order_acquire);
      if ((s & ~(kOpen | kActive)) == seen) {
        // Spin for `spin`, reading the clock every 64 pauses.
        const auto deadline = std::chrono::steady_clock::now() + spin;
        while ((s & ~(kOpen | kActive)) == seen) {
          for (int i = 0; i < 64 && (s & ~(kOpen | kActive)) == seen; ++i) {
            pause();
            s = state_.load(std::memory_order_acquire);
          }
          if (std::chrono::steady_clock::now() > deadline) break;
        }
        if ((s & ~(kOpen | kActive)) == seen) {
          std::unique_lock<std::mutex> lock(mutex_);
          sleepers_.fetch_add(1, std::memory_order_seq_cst);
          wake_.wait(lock, [&] {
            s = state_.load(std::memory_order_seq_cst);
            return (s & ~(kOpen | kActive)) != seen;
          });
          sleepers_.fetch_sub(1, std::memory_order_relaxed);
        }
      }
      seen = s & ~(kOpen | kActive);
      if (stop_.load(std::memory_order_relaxed)) return;  // published with this generation
      // Join the job while it is open (and still this generation).
      bool joined = false;
      while ((s & kOpen) != 0 && (s & ~(kOpen | kActive)) == seen) {
        if (state_.compare_exchange_weak(s, s + 1, std::memory_order_acquire,
                                         std::memory_order_acquire)) {
          joined = true;
          break;
        }
      }
      if (!joined) continue;
      if (participant < participants_) {
        const auto start = std::chrono::steady_clock::now();
        take_chunks(participant, context_, call_, units_, participants_);
        spin = std::clamp<std::chrono::nanoseconds>(2 * (std::chrono::steady_clock::now() - start),
                                                    kMinSpin, kMaxSpin);
      }
      state_.fetch_sub(1, std::memory_order_release);
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_;
  // The job: written by the calling thread before it opens a generation, read by the workers
  // that join it.
  Call call_ = nullptr;
  void* context_ = nullptr;
  std::int64_t units_ = 0;
  int participants_ = 0;
  std::atomic<bool> stop_{false};
  alignas(64) std::atomic<std::uint64_t> state_{0};   // the job word (see kActive...)
  alignas(64) std::atomic<std::int64_t> next_{0};     // the next unit to hand out
  alignas(64) std::atomic<int> sleepers_{0};          // workers in (or entering) wake_.wait
};

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

 private:
  PackModel model_;
  int threads_;
  detail::WorkerPool pool_;
  std::vector<std::unique_ptr<detail::ThreadWorkspace<PackModel>>> per_thread_;
};

namespace detail {

/// True if X's coefficients are in memory at X.data() + row * rowStride() + col * colStride()
/// (a Matrix, a Map, a Block of either: Eigen's DirectAccessBit).
template <typename Derived>
inline constexpr bool has_direct_access = (int(Derived::Flags) & Eigen::DirectAccessBit) != 0;

#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
/// The pack {p[0], p[stride], ..., p[(W-1) stride]}, built in a register (one load and W-1
/// inserts or shuffles, no trip through memory).
template <int W, std::size_t... L>
inline CHAINDYN_ALWAYS_INLINE Pack<W> load_strided(const double* p, Eigen::Index stride,
                                            std::index_sequence<L...>) noexcept {
  return Pack<W>(typename Pack<W>::Native{p[Eigen::Index(L) * stride]...});
}
/// Stores the W lanes of v at p[0], p[stride], ..., p[(W-1) stride].
template <int W>
inline CHAINDYN_ALWAYS_INLINE void store_strided(const Pack<W>& v, double* p,
                                          Eigen::Index stride) noexcept {
  for (int l = 0; l < W; ++l) p[l * stride] = v.v[l];
}
#endif

/// Loads columns first .. first+count-1 (count <= W) of X into the lanes of a pack vector; the
/// lanes past count repeat the last column (valid numbers, results ignored).
///
/// A full pack (count == W) of an X with direct access (a Matrix, a Map, a Block) builds each
/// pack in a register from W strided loads (load_strided): the generic path, which a short
/// pack and any other Eigen expression take, fills an array of W doubles and copies it into
/// the pack with one memcpy (inserting lane by lane into a 64-byte vector in memory made
/// clang++ 14 write the whole vector back per lane); the memcpy's char-typed stores may alias
/// anything, so the matrix's data pointer was reloaded for every lane. The register path took
/// batch::rnea's own code (the loads and stores around the algorithm) from 21 % to 11 % of its
/// time (perf, clang++ 14, W = 4, AMD EPYC), and crba from 105 to 82 ns per state.
template <typename P, int R, typename Derived>
inline void gather(const Eigen::MatrixBase<Derived>& x, Eigen::Index first, int count,
                   Eigen::Matrix<P, R, 1>& out) noexcept {
  constexpr int W = lanes_of<P>;
#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
  if constexpr (W > 1 && has_direct_access<Derived>) {
    if (count == W) {
      const Eigen::Index rs = x.derived().rowStride(), cs = x.derived().colStride();
      const double* base = x.derived().data() + first * cs;
      for (Eigen::Index k = 0; k < out.rows(); ++k) {
        out[k] = load_strided<W>(base + k * rs, cs, std::make_index_sequence<std::size_t(W)>());
      }
      return;
    }
  }
#endif
  Eigen::Index cols[W];
  for (int l = 0; l < W; ++l) cols[l] = first + std::min(l, count - 1);
  for (Eigen::Index k = 0; k < out.rows(); ++k) {
    double lanes[W];
    for (int l = 0; l < W; ++l) lanes[l] = x.derived().coeff(k, cols[l]);
    static_assert(sizeof(P) == sizeof lanes, "a pack is W doubles");
    std::memcpy(static_cast<void*>(&out[k]), lanes, sizeof lanes);
  }
}

/// Stores the first count lanes of a pack vector into columns first .. first+count-1 of X (a
/// full pack into an X with direct access: store_strided, as gather).
template <typename P, int R, typename Derived>
inline void scatter(const Eigen::Matrix<P, R, 1>& in, Eigen::Index first, int count,
                    Eigen::MatrixBase<Derived>& x) noexcept {
  constexpr int W = lanes_of<P>;
#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
  if constexpr (W > 1 && has_direct_access<Derived>) {
    if (count == W) {
      const Eigen::Index rs = x.derived().rowStride(), cs = x.derived().colStride();
      double* base = x.derived().data() + first * cs;
      for (Eigen::Index k = 0; k < in.rows(); ++k) store_strided(in[k], base + k * rs, cs);
      return;
    }
  }
#endif
  for (Eigen::Index k = 0; k < in.rows(); ++k) {
    double lanes[W];
    std::memcpy(lanes, static_cast<const void*>(&in[k]), sizeof lanes);
    for (int l = 0; l < count; ++l) x.derived().coeffRef(k, first + l) = lanes[l];
  }
}

/// Stores lane l of each of count states' R x C pack matrix into X's columns, state s's
/// matrix at columns (first + s) * C .. (first + s) * C + C - 1 (the batch layout of matrices;
/// a full pack into an X with direct access: store_strided, as gather).
template <typename P, int R, int C, typename Derived>
inline void scatter_matrices(const Eigen::Matrix<P, R, C>& in, Eigen::Index first, int count,
                             Eigen::MatrixBase<Derived>& x) noexcept {
  constexpr int W = lanes_of<P>;
  const Eigen::Index cols = in.cols();
#ifdef CHAINDYN_BATCH_VECTOR_EXTENSIONS
  if constexpr (W > 1 && has_direct_access<Derived>) {
    if (count == W) {
      const Eigen::Index rs = x.derived().rowStride(), cs = x.derived().colStride();
      double* base = x.derived().data() + first * cols * cs;
      for (Eigen::Index j = 0; j < cols; ++j) {
        for (Eigen::Index k = 0; k < in.rows(); ++k) {
          store_strided(in(k, j), base + k * rs + j * cs, cols * cs);
        }
      }
      return;
    }
  }
#endif
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
