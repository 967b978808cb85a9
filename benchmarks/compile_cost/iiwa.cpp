// rnea + crba + aba for the KUKA iiwa's type, ChainN<double, 7, RevoluteZ> (run: see run).
#include "algorithms.hpp"

#include "chaindyn/robots/kuka_iiwa.hpp"

template struct chaindyn::compile_cost::Algorithms<chaindyn::robots::KukaIiwa<double>>;
