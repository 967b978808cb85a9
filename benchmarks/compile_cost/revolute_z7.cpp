// rnea + crba + aba for ChainN<double, 7, RevoluteZ>: the type urdf::parse gives a 7-joint arm
// whose joints turn about z (each link's placement pattern found at run time: a loop).
#include "algorithms.hpp"

#include "chaindyn/model/chain.hpp"

template struct chaindyn::compile_cost::Algorithms<
    chaindyn::ChainN<double, 7, chaindyn::RevoluteZ>>;
