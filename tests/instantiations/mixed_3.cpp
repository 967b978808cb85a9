// The algorithms of test::MixedChains<double>'s chain 3, compiled once for chaindyn_tests
// (support/extern_algorithms.hpp declares them extern in every other source).
#include "support/extern_algorithms.hpp"

CHAINDYN_INSTANTIATE_ALGORITHMS(std::tuple_element_t<3, chaindyn::test::MixedChains<double>>);
