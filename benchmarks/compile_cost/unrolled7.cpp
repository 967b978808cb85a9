// rnea + crba + aba for Chain<double, RevoluteZ x 7>: the iiwa's joints as the variadic,
// fully unrolled chain type (a fold over the joints) instead of ChainN's loop.
#include "algorithms.hpp"

#include "chaindyn/model/chain.hpp"

template struct chaindyn::compile_cost::Algorithms<
    chaindyn::Chain<double, chaindyn::RevoluteZ, chaindyn::RevoluteZ, chaindyn::RevoluteZ,
                    chaindyn::RevoluteZ, chaindyn::RevoluteZ, chaindyn::RevoluteZ,
                    chaindyn::RevoluteZ>>;
