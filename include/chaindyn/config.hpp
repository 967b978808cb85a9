/// @file
/// Build-time switches every chaindyn header sees. Floor 0: includes nothing of chaindyn.
#pragma once

/// Forces inlining of the small spatial-algebra kernels and of the per-joint loop bodies:
/// g++ 12 otherwise leaves some of them out of line in the algorithms' hot loops (measured:
/// ~2x slower RNEA, docs/benchmarks.md). Define it empty before including chaindyn (or with
/// -DCHAINDYN_ALWAYS_INLINE=) to let the compiler choose: the tests do, which halves their
/// compile time, and a debug or sanitizer build of a user program compiles much faster.
#ifndef CHAINDYN_ALWAYS_INLINE
#if defined(__GNUC__) || defined(__clang__)
#define CHAINDYN_ALWAYS_INLINE __attribute__((always_inline))
#else
#define CHAINDYN_ALWAYS_INLINE
#endif
#endif
