// rnea + crba + aba for the built-in KUKA iiwa's type, robots::KukaIiwa<double>: a Chain of
// Placed joints, the form chaindyn-urdf2cpp generates (run: see run).
#include "algorithms.hpp"

#include "chaindyn/robots/kuka_iiwa.hpp"

template struct chaindyn::compile_cost::Algorithms<chaindyn::robots::KukaIiwa<double>>;
