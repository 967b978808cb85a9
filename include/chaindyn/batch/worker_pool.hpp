/// @file
/// batch::detail::WorkerPool: the worker threads a batch::Workspace shares its columns with.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace chaindyn::batch::detail {

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
/// process's time slice.
///
/// No allocation per job (the job is passed by pointer); noexcept; the shared counters and the
/// job word sit on cache lines of their own.
class WorkerPool {
 public:
  /// Starts `workers` threads. If the system refuses one (std::system_error), the threads
  /// already started are stopped and joined before the error propagates.
  explicit WorkerPool(int workers) {
    threads_.reserve(std::size_t(workers));
    try {
      for (int w = 0; w < workers; ++w) threads_.emplace_back([this, w] { work(w + 1); });
    } catch (...) {
      stop_and_join();
      throw;
    }
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool() { stop_and_join(); }

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

  void stop_and_join() noexcept {
    stop_.store(true, std::memory_order_relaxed);
    publish(nullptr, nullptr, 0, 0);  // a new generation the workers see, then stop_
    for (std::thread& t : threads_) t.join();
  }
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

}  // namespace chaindyn::batch::detail
