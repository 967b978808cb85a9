// rnea + crba + aba for ChainN<double, 64, RevoluteZ> (axis in the type).
#include "algorithms.hpp"

#include "chaindyn/model/chain.hpp"

template struct chaindyn::compile_cost::Algorithms<
    chaindyn::ChainN<double, 64, chaindyn::RevoluteZ>>;
