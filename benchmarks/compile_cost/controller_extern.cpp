// controller.cpp as a program that uses chaindyn/instantiate.hpp: the iiwa's algorithms, the
// link validation of double chains and robots::kuka_iiwa<double>() are declared here and
// compiled once elsewhere (instantiate_iiwa.cpp), so this file compiles only what is its own.
// benchmarks/compile_cost/run times both files.
#include <chaindyn/instantiate.hpp>

CHAINDYN_EXTERN_ALGORITHMS(chaindyn::robots::KukaIiwa<double>);
CHAINDYN_EXTERN_MODEL_CONSTRUCTION(double);
CHAINDYN_EXTERN_KUKA_IIWA();

#include "controller.cpp"
