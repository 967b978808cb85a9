// The one translation unit of a program that compiles what controller_extern.cpp declares
// extern: the iiwa's algorithms, the link validation of double chains, robots::kuka_iiwa<double>().
#include <chaindyn/instantiate.hpp>

CHAINDYN_INSTANTIATE_ALGORITHMS(chaindyn::robots::KukaIiwa<double>);
CHAINDYN_INSTANTIATE_MODEL_CONSTRUCTION(double);
CHAINDYN_INSTANTIATE_KUKA_IIWA();
