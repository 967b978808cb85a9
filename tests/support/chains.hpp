/// @file
/// The chain types the property tests run over: every joint type (RevoluteX/Y/Z,
/// PrismaticX/Y/Z, and the run-time-axis Revolute and Prismatic) and every walk (Chain's fold,
/// ChainN's fold up to ChainN::unroll_limit joints, ChainN's loop beyond it), with a
/// one-joint chain for the edge case. Five types, not more: each one multiplies the compile
/// time of every property (docs/architecture.md, "Tests").
#pragma once

#include <chaindyn/chaindyn.hpp>

#include <tuple>

namespace chaindyn::test {

template <typename S>
using MixedChains = std::tuple<
    Chain<S, RevoluteZ>,  //
    Chain<S, PrismaticZ, Revolute, RevoluteX, PrismaticY, RevoluteZ, Prismatic, PrismaticX,
          RevoluteY>,
    ChainN<S, 6, RevoluteZ>,  // folded: 6 <= unroll_limit (8 for an axis in the type)
    ChainN<S, 7, Revolute>,   // looped: a run-time axis unrolls up to 4 joints only
    ChainN<S, 9, Prismatic>>;  // looped

static_assert(ChainN<double, 6, RevoluteZ>::unroll_limit >= 6 &&
                  ChainN<double, 7, Revolute>::unroll_limit < 7 &&
                  ChainN<double, 9, Prismatic>::unroll_limit < 9,
              "MixedChains must cover both ChainN walks");

}  // namespace chaindyn::test
