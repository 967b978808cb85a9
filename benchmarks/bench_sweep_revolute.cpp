// The chain-length sweep with the joint axis given at run time: ChainN<double, n, Revolute>,
// n = 1, 2, 4, ..., 128, from seeded random links.
#include "bench_common.hpp"

namespace {
[[maybe_unused]] const bool registered =
    chaindyn::bench::register_sweep<chaindyn::Revolute, 128>("Revolute");
}  // namespace
