/// @file
/// Build-time switches every chaindyn header sees. Floor 0: includes nothing of chaindyn.
#pragma once

/// Forces inlining of the small spatial-algebra kernels and of the per-joint loop bodies:
/// g++ otherwise leaves some of them out of line in the algorithms' hot loops. Every part of
/// it pays in an optimised build (1.1-3x on the iiwa; docs/benchmarks.md).
///
/// By default it is on only where it pays and compiles in reasonable time: in optimised builds
/// (__OPTIMIZE__) without a sanitizer. Unoptimised and AddressSanitizer/ThreadSanitizer builds
/// get plain `inline` choices: with it, a sanitized build of a small controller compiles
/// several times slower (benchmarks/compile_cost/run). g++ 12 defines no
/// macro for an UndefinedBehaviorSanitizer-only build: add -DCHAINDYN_ALWAYS_INLINE= there.
/// Define it yourself (empty, or as you like) before including chaindyn to override the
/// default; the tests define it empty, which halves their compile time.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define CHAINDYN_DETAIL_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CHAINDYN_DETAIL_SANITIZED 1
#endif
#ifndef CHAINDYN_ALWAYS_INLINE
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__) && \
    !defined(CHAINDYN_DETAIL_SANITIZED)
#define CHAINDYN_ALWAYS_INLINE __attribute__((always_inline))
#else
#define CHAINDYN_ALWAYS_INLINE
#endif
#endif

namespace chaindyn::detail {
/// Whether the compiler is clang++: the switch of the few code paths chosen per compiler, where
/// g++ and clang++ make code of different speed from the same source (each path's definition
/// says why; the measurements are in docs/benchmarks.md, "Measurements behind the code").
inline constexpr bool kClangCompiler =
#if defined(__clang__)
    true;
#else
    false;
#endif
}  // namespace chaindyn::detail

/// Keeps a function out of its callers: the returning forms' workspace lookup
/// (model/data.hpp), whose thread_local guard and first-call allocation, inlined, slow
/// clang++'s returning crba on the iiwa down.
#ifndef CHAINDYN_NOINLINE
#if defined(__GNUC__) || defined(__clang__)
#define CHAINDYN_NOINLINE __attribute__((noinline))
#else
#define CHAINDYN_NOINLINE
#endif
#endif

/// The chain length from which crba works in base coordinates instead of link coordinates
/// (algorithms/crba.hpp): per ancestor pair, the link-coordinate form transforms a force to the
/// parent (a rotation and a cross product, ~30 flops) where the base-coordinate form takes one
/// dot product (6 multiply-adds), at the price of the base-frame poses and inertias per link.
/// The two cross between 8 and 10 joints (beyond 8 joints ChainN's walks are loops, no longer
/// unrolled: the link form's per-pair transforms then cost most); the figures are in
/// docs/benchmarks.md ("CRBA: coordinates by chain length"); a ChainX or TreeX works in base
/// coordinates at every length. From here on a chain's base-coordinate form takes M by columns
/// (algorithms/crba.hpp) and its Data holds their rows (Data::oSF). Define it before including
/// chaindyn to override (e.g. 1: always base coordinates; a large number: never).
#ifndef CHAINDYN_CRBA_BASE_COORDINATES_FROM
#define CHAINDYN_CRBA_BASE_COORDINATES_FROM 9
#endif

/// A pointer that no other pointer in its scope aliases (the compilers' `__restrict__`), for
/// the few raw loops that must vectorise without run-time overlap checks.
#ifndef CHAINDYN_RESTRICT
#if defined(__GNUC__) || defined(__clang__)
#define CHAINDYN_RESTRICT __restrict__
#else
#define CHAINDYN_RESTRICT
#endif
#endif

/// Unrolls the loop that follows by up to 16 iterations (a whole loop of compile-time trip
/// count <= 16): the small dense kernels (the Cholesky factorisation and solves of
/// forward_dynamics_crba up to 16 joints), which clang++ unrolls by itself and g++ does not.
#ifndef CHAINDYN_UNROLL_16
#if defined(__GNUC__) || defined(__clang__)
#define CHAINDYN_UNROLL_16 _Pragma("GCC unroll 16")
#else
#define CHAINDYN_UNROLL_16
#endif
#endif

/// Inlines everything a function calls, recursively, into it: the batch functions
/// (chaindyn/batch.hpp) put it on their per-thread loop, because g++ leaves Eigen's small
/// expressions on 64-byte pack scalars out of line (2-3x per state; clang++ inlines them
/// either way). rnea_derivatives puts it on a runtime-sized model's pass for the same reason
/// (algorithms/rnea_derivatives.hpp).
/// On where CHAINDYN_ALWAYS_INLINE is on by default (optimised builds without sanitizers);
/// define it yourself (empty) to turn it off, as the tests do (compile time).
#ifndef CHAINDYN_FLATTEN
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__) && \
    !defined(CHAINDYN_DETAIL_SANITIZED)
#define CHAINDYN_FLATTEN __attribute__((flatten))
#else
#define CHAINDYN_FLATTEN
#endif
#endif

/// CHAINDYN_FLATTEN with g++, nothing with other compilers: on the in-place rnea, crba, aba,
/// rnea_derivatives and aba_derivatives (the returning forms but crba's call them). g++ inlines
/// Eigen's small functions (coefficient access, 3-vector sums) by limits that a whole unrolled
/// pass exceeds (`--param large-function-growth`) depending on what else the translation unit
/// holds, so in a program that calls one algorithm they could stay out of line
/// (docs/benchmarks.md, "Compiled the way a program is"). clang++ inlines them anyway, and its
/// flattened passes are slower.
#ifndef CHAINDYN_GNU_FLATTEN
#if defined(__GNUC__) && !defined(__clang__)
#define CHAINDYN_GNU_FLATTEN CHAINDYN_FLATTEN
#else
#define CHAINDYN_GNU_FLATTEN
#endif
#endif

/// Floating-point contraction (a * b + c as one fused multiply-add, rounded once) for chaindyn's
/// own arithmetic where it pays: g++ contracts across statements by default in its GNU modes
/// (-ffp-contract=fast), clang++ only within one expression, so a product and the sum that
/// takes it, written in two inlined functions, stay two roundings. With clang++,
/// CHAINDYN_FP_CONTRACT_BEGIN ... END around a header's code and CHAINDYN_FP_CONTRACT_HERE at
/// the start of one function body let it fuse them there, and nowhere else (the pragmas are
/// scoped: the including program's arithmetic keeps its own setting). Used by the placement
/// patterns' kernels (spatial/pattern.hpp), ABA's articulated inertia (spatial/inertia.hpp) and
/// the batch packs' operators (batch/pack.hpp); elsewhere it made clang++'s code slower as
/// often as faster (docs/benchmarks.md, "Measurements behind the code"). Define
/// CHAINDYN_NO_FP_CONTRACT before including chaindyn to round every product.
// (#pragma float_control: clang 12 and later; Apple's clang from 13)
#if defined(__clang__) && !defined(CHAINDYN_NO_FP_CONTRACT) && \
    ((defined(__apple_build_version__) && __clang_major__ >= 13) || \
     (!defined(__apple_build_version__) && __clang_major__ >= 12))
#define CHAINDYN_FP_CONTRACT_BEGIN _Pragma("float_control(push)") _Pragma("clang fp contract(fast)")
#define CHAINDYN_FP_CONTRACT_END _Pragma("float_control(pop)")
#define CHAINDYN_FP_CONTRACT_HERE _Pragma("clang fp contract(fast)")
#else
#define CHAINDYN_FP_CONTRACT_BEGIN
#define CHAINDYN_FP_CONTRACT_END
#define CHAINDYN_FP_CONTRACT_HERE
#endif
