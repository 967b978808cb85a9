// The built-in iiwa's algorithms and construction, and the link validation of double chains,
// compiled once for chaindyn_tests (support/extern_algorithms.hpp declares them extern in every
// other source).
#include "support/extern_algorithms.hpp"

CHAINDYN_INSTANTIATE_ALGORITHMS(chaindyn::robots::KukaIiwa<double>);
CHAINDYN_INSTANTIATE_MODEL_CONSTRUCTION(double);
CHAINDYN_INSTANTIATE_KUKA_IIWA();
