// The allocation counter of allocation_counter.hpp: replacement operator new/delete, the
// interposed C allocation functions (glibc) or the sanitizer allocator's hook (ASan).
// Nothing here may allocate: these functions *are* the allocator.
#include "no_malloc/allocation_counter.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <new>

// --- Which hook this build uses ----------------------------------------------------------------
// A sanitizer with its own allocator intercepts malloc and operator new itself: detected from
// the compiler (g++ defines __SANITIZE_ADDRESS__/__SANITIZE_THREAD__, clang has __has_feature).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || \
    defined(__SANITIZE_HWADDRESS__)
#define CHAINDYN_COUNTER_SANITIZER 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer) || __has_feature(hwaddress_sanitizer)
#define CHAINDYN_COUNTER_SANITIZER 1
#endif
#endif

#if defined(CHAINDYN_COUNTER_SANITIZER)
#define CHAINDYN_COUNTER_HOOK_SANITIZER 1
#elif defined(__GLIBC__)
#define CHAINDYN_COUNTER_HOOK_GLIBC 1
#else
#define CHAINDYN_COUNTER_HOOK_NEW_ONLY 1
#endif

namespace {

// Plain thread_local integers: constant-initialized, so reading them needs no TLS init call
// and never allocates (they sit in the executable's static TLS block).
thread_local std::size_t t_allocations = 0;  // allocations made while armed
thread_local unsigned t_armed = 0;           // live AllocationScopes of this thread

inline void note_allocation() noexcept {
  if (t_armed != 0) ++t_allocations;
}

}  // namespace

namespace chaindyn::test {

AllocationScope::AllocationScope() noexcept : start_(t_allocations) { ++t_armed; }
AllocationScope::~AllocationScope() { --t_armed; }
std::size_t AllocationScope::count() const noexcept { return t_allocations - start_; }

namespace {
const void* volatile g_escaped = nullptr;
}  // namespace
void escape(const void* p) noexcept { g_escaped = p; }

}  // namespace chaindyn::test

// === Sanitizer builds: the sanitizer allocator's hook ===========================================
#if defined(CHAINDYN_COUNTER_HOOK_SANITIZER)

// <sanitizer/allocator_interface.h> (clang ships it, g++ 12 does not); the function is in the
// runtime of both. The hook is called after every allocation the sanitizer's allocator serves,
// operator new included, in the allocating thread.
extern "C" int __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void*, std::size_t),
    void (*free_hook)(const volatile void*));

namespace {
void on_malloc(const volatile void*, std::size_t) { note_allocation(); }
void on_free(const volatile void*) {}
// Installed during static initialization, before main() and so before any test.
const bool g_hook_installed = __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) != 0;
}  // namespace

namespace chaindyn::test {
AllocationHook allocation_hook() noexcept { return AllocationHook::sanitizer_allocator; }
const char* allocation_hook_description() noexcept {
  return "sanitizer build: counting with the sanitizer allocator's malloc hook "
         "(__sanitizer_install_malloc_and_free_hooks): operator new and the malloc family are "
         "both counted; operator new and malloc are not replaced (the sanitizer intercepts "
         "them)";
}
bool counts_malloc() noexcept { return true; }
bool allocation_hook_active() noexcept { return g_hook_installed; }
}  // namespace chaindyn::test

#else  // replacement operator new (and, with glibc, the interposed C allocation functions)

// === glibc: the C allocation functions, forwarded to glibc's own allocator ======================
#if defined(CHAINDYN_COUNTER_HOOK_GLIBC)
#include <malloc.h>

// glibc's allocator under its internal names (exported, GLIBC_2.2.5). The program's malloc
// below takes precedence over libc's for every caller (libc itself included), and forwards
// here. Memory from either side can be freed by the other: it is one allocator.
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void* __libc_valloc(std::size_t size);
void* __libc_pvalloc(std::size_t size);
void __libc_free(void* p);
}

namespace {
void* raw_malloc(std::size_t size) noexcept { return __libc_malloc(size); }
void* raw_aligned(std::size_t alignment, std::size_t size) noexcept {
  return __libc_memalign(alignment, size);
}
void raw_free(void* p) noexcept { __libc_free(p); }
void raw_aligned_free(void* p) noexcept { __libc_free(p); }
bool is_power_of_two(std::size_t x) noexcept { return x != 0 && (x & (x - 1)) == 0; }
}  // namespace

extern "C" {

void* malloc(std::size_t size) noexcept {
  note_allocation();
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) noexcept {
  note_allocation();
  return __libc_calloc(count, size);
}
// A realloc counts as an allocation (it may move the block), even one that shrinks in place.
void* realloc(void* p, std::size_t size) noexcept {
  note_allocation();
  return __libc_realloc(p, size);
}
// glibc's reallocarray calls its internal realloc, not this one: interposed as well.
void* reallocarray(void* p, std::size_t count, std::size_t size) noexcept {
  if (size != 0 && count > SIZE_MAX / size) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc(p, count * size);
}
void* memalign(std::size_t alignment, std::size_t size) noexcept {
  note_allocation();
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
  note_allocation();
  if (!is_power_of_two(alignment)) {
    errno = EINVAL;
    return nullptr;
  }
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) noexcept {
  note_allocation();
  if (!is_power_of_two(alignment) || alignment % sizeof(void*) != 0) return EINVAL;
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}
void* valloc(std::size_t size) noexcept {
  note_allocation();
  return __libc_valloc(size);
}
void* pvalloc(std::size_t size) noexcept {
  note_allocation();
  return __libc_pvalloc(size);
}
void free(void* p) noexcept { __libc_free(p); }

}  // extern "C"

namespace chaindyn::test {
AllocationHook allocation_hook() noexcept { return AllocationHook::operator_new_and_malloc; }
const char* allocation_hook_description() noexcept {
  return "glibc build: counting in the replaced global operator new/new[] (all forms) and in "
         "the interposed malloc, calloc, realloc, reallocarray, aligned_alloc, posix_memalign, "
         "memalign, valloc and pvalloc (forwarded to __libc_malloc and relatives)";
}
bool counts_malloc() noexcept { return true; }
bool allocation_hook_active() noexcept { return true; }
}  // namespace chaindyn::test

// === Elsewhere: operator new only ================================================================
#else

namespace {
void* raw_malloc(std::size_t size) noexcept { return std::malloc(size); }
void raw_free(void* p) noexcept { std::free(p); }
// Aligned blocks by hand (no posix_memalign everywhere): over-allocate with malloc and keep
// malloc's pointer in the word before the aligned block.
void* raw_aligned(std::size_t alignment, std::size_t size) noexcept {
  if (size > SIZE_MAX - alignment - sizeof(void*)) return nullptr;
  void* base = std::malloc(size + alignment + sizeof(void*));
  if (base == nullptr) return nullptr;
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(base) + sizeof(void*);
  void** aligned = reinterpret_cast<void**>((first + alignment - 1) &
                                            ~(static_cast<std::uintptr_t>(alignment) - 1));
  aligned[-1] = base;
  return aligned;
}
void raw_aligned_free(void* p) noexcept {
  if (p != nullptr) std::free(static_cast<void**>(p)[-1]);
}
}  // namespace

namespace chaindyn::test {
AllocationHook allocation_hook() noexcept { return AllocationHook::operator_new_only; }
const char* allocation_hook_description() noexcept {
  return "not glibc: counting in the replaced global operator new/new[] only; malloc (and "
         "with it Eigen's dynamic allocations) is NOT counted";
}
bool counts_malloc() noexcept { return false; }
bool allocation_hook_active() noexcept { return true; }
}  // namespace chaindyn::test

#endif

// === The replaceable global allocation functions (C++17 [new.delete]) ===========================
// Each counted allocation is counted once: operator new calls the uncounted raw_* functions.
namespace {

void* new_or_throw(std::size_t size) {
  note_allocation();
  if (size == 0) size = 1;
  for (;;) {
    if (void* p = raw_malloc(size)) return p;
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* aligned_new_or_throw(std::size_t size, std::align_val_t alignment) {
  note_allocation();
  if (size == 0) size = 1;
  std::size_t a = static_cast<std::size_t>(alignment);
  if (a < sizeof(void*)) a = sizeof(void*);
  for (;;) {
    if (void* p = raw_aligned(a, size)) return p;
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

void* operator new(std::size_t size) { return new_or_throw(size); }
void* operator new[](std::size_t size) { return new_or_throw(size); }
void* operator new(std::size_t size, std::align_val_t alignment) {
  return aligned_new_or_throw(size, alignment);
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
  return aligned_new_or_throw(size, alignment);
}
// The nothrow forms call the throwing ones ([new.delete.single]/6).
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return ::operator new(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return ::operator new[](size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  try {
    return ::operator new(size, alignment);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, std::align_val_t alignment,
                     const std::nothrow_t&) noexcept {
  try {
    return ::operator new[](size, alignment);
  } catch (...) {
    return nullptr;
  }
}

void operator delete(void* p) noexcept { raw_free(p); }
void operator delete[](void* p) noexcept { raw_free(p); }
void operator delete(void* p, std::size_t) noexcept { raw_free(p); }
void operator delete[](void* p, std::size_t) noexcept { raw_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { raw_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { raw_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { raw_aligned_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { raw_aligned_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { raw_aligned_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { raw_aligned_free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  raw_aligned_free(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  raw_aligned_free(p);
}

#endif  // !CHAINDYN_COUNTER_HOOK_SANITIZER
