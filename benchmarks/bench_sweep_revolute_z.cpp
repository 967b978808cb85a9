// The chain-length sweep with the joint axis in the type: ChainN<double, n, RevoluteZ>,
// n = 1, 2, 4, ..., 128, from seeded random links.
#include "bench_common.hpp"

namespace {
[[maybe_unused]] const bool registered =
    chaindyn::bench::register_sweep<chaindyn::RevoluteZ, 128>("RevoluteZ");
}  // namespace
