/// @file
/// A heap-allocation counter for the no-allocation tests: counts every allocation the calling
/// thread makes while an AllocationScope is alive, whoever makes it (chaindyn, Eigen, the
/// standard library, libc).
///
/// How it counts depends on the build (allocation_counter.cpp; allocation_hook() says which):
///
/// - operator_new_and_malloc (glibc, no sanitizer: the release and clang presets): the program
///   replaces the global operator new/new[]/delete/delete[] (every C++17 form: plain, nothrow,
///   sized, aligned) and interposes malloc, calloc, realloc, reallocarray, aligned_alloc,
///   posix_memalign, memalign, valloc, pvalloc and free, forwarding to glibc's __libc_malloc
///   family. glibc routes its own internal allocations (strdup, stdio buffers, ...) through
///   the interposed malloc too. Eigen 3.4 allocates with malloc (and realloc), so its dynamic
///   matrices are counted.
/// - sanitizer_allocator (AddressSanitizer and the other sanitizers with their own allocator:
///   the asan preset): ASan intercepts the malloc family and operator new itself, and defining
///   them here would bypass its checks (or clash at link time). Nothing is replaced; instead a
///   hook is installed with __sanitizer_install_malloc_and_free_hooks, which the sanitizer's
///   allocator calls on every allocation it serves: operator new, malloc, calloc, realloc,
///   posix_memalign, ... So this build counts the same allocations as the first, and ASan
///   keeps its new/delete mismatch and leak checks.
/// - operator_new_only (any other platform): operator new/delete are replaced as above, the C
///   allocation functions are not interposed, so malloc (and Eigen's dynamic matrices) are not
///   counted.
///
/// The counter is thread_local: allocations of other threads are never counted. An
/// allocation is counted when it is made, whatever its size, and whether or not it is freed
/// before the scope ends; a realloc counts as one allocation, a free as nothing. An allocation
/// the compiler elides (new/delete pairs may be removed since C++14) is not made and so not
/// counted.
#pragma once

#include <cstddef>
#include <utility>

namespace chaindyn::test {

/// What the counter sees in this build (see the file comment).
enum class AllocationHook { operator_new_and_malloc, sanitizer_allocator, operator_new_only };

AllocationHook allocation_hook() noexcept;
/// One line naming the hook of this build and what it counts, for the test output.
const char* allocation_hook_description() noexcept;
/// Whether malloc and its relatives (so also Eigen's dynamic allocations) are counted.
bool counts_malloc() noexcept;
/// Whether the hook is in place (false only if the sanitizer refused to install it).
bool allocation_hook_active() noexcept;

/// Counts the calling thread's allocations from construction on. Scopes nest (an outer scope
/// counts its inner scopes' allocations too). Neither member allocates.
class AllocationScope {
 public:
  AllocationScope() noexcept;
  ~AllocationScope();
  AllocationScope(const AllocationScope&) = delete;
  AllocationScope& operator=(const AllocationScope&) = delete;

  /// The calling thread's allocations since this scope was constructed.
  std::size_t count() const noexcept;

 private:
  std::size_t start_;
};

/// The number of heap allocations the calling thread makes in f().
template <typename F>
std::size_t count_allocations(F&& f) {
  const AllocationScope scope;
  std::forward<F>(f)();
  return scope.count();
}

/// Makes `p` observable (a store through a volatile pointer in another translation unit), so
/// that the compiler cannot elide the allocation that produced it.
void escape(const void* p) noexcept;

}  // namespace chaindyn::test
