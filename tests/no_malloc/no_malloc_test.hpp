/// @file
/// What both sources of the allocation-count test share (test_no_malloc.cpp says what it
/// checks and how): Eigen's assertions made to throw, the includes, and REQUIRE_NO_ALLOCATION.
/// Included first: eigen_assert must be defined before Eigen is.
#pragma once

#include <memory>
#include <stdexcept>

struct EigenAssertion : std::runtime_error {
  using std::runtime_error::runtime_error;
};
#define eigen_assert(x) \
  do {                  \
    if (!(x)) throw EigenAssertion(#x); \
  } while (false)

#ifndef EIGEN_RUNTIME_NO_MALLOC
#error "build this test with EIGEN_RUNTIME_NO_MALLOC defined"
#endif
#ifdef NDEBUG
#error "build this test with NDEBUG undefined: Eigen's malloc check is an assertion"
#endif

#include "no_malloc/allocation_counter.hpp"
#include "support/test_support.hpp"

#include <chaindyn/algorithms/aba_derivatives.hpp>
#include <chaindyn/algorithms/coriolis.hpp>
#include <chaindyn/algorithms/floating_base.hpp>
#include <chaindyn/algorithms/floating_base_derivatives.hpp>
#include <chaindyn/algorithms/frame_motion.hpp>
#include <chaindyn/algorithms/friction.hpp>
#include <chaindyn/algorithms/inverse_mass_matrix.hpp>
#include <chaindyn/algorithms/jacobian.hpp>
#include <chaindyn/algorithms/operational_space.hpp>
#include <chaindyn/algorithms/rnea_derivatives.hpp>
#include <chaindyn/batch.hpp>
#include <chaindyn/identification.hpp>
#include <chaindyn/model/tree.hpp>
#include <chaindyn/simulation.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <string>
#include <thread>
#include <vector>

using namespace chaindyn;

namespace {

/// Eigen's net: Eigen's allocator asserts (throws EigenAssertion) while this is alive.
struct EigenNoMalloc {
  EigenNoMalloc() { Eigen::internal::set_is_malloc_allowed(false); }
  ~EigenNoMalloc() { Eigen::internal::set_is_malloc_allowed(true); }
  EigenNoMalloc(const EigenNoMalloc&) = delete;
  EigenNoMalloc& operator=(const EigenNoMalloc&) = delete;
};

}  // namespace

/// Runs the statement with both nets armed and REQUIREs that the calling thread made no heap
/// allocation in it; on failure the message names the statement. Catch's own bookkeeping
/// (INFO, REQUIRE) is outside the counted scope.
#define REQUIRE_NO_ALLOCATION(...)                                                    \
  do {                                                                                \
    std::size_t allocations_ = 0;                                                     \
    {                                                                                 \
      const EigenNoMalloc eigen_net_;                                                 \
      allocations_ = ::chaindyn::test::count_allocations([&] { __VA_ARGS__; });       \
    }                                                                                 \
    INFO("heap allocations counted in: " #__VA_ARGS__);                               \
    REQUIRE(allocations_ == 0);                                                       \
  } while (false)
