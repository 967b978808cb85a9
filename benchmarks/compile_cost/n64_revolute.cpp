// rnea + crba + aba for ChainN<double, 64, Revolute> (axis at run time).
#include "algorithms.hpp"

#include "chaindyn/model/chain.hpp"

template struct chaindyn::compile_cost::Algorithms<chaindyn::ChainN<double, 64, chaindyn::Revolute>>;
