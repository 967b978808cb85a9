// `#include <chaindyn/chaindyn.hpp>` and nothing else: the cost of the umbrella header alone
// (benchmarks/compile_cost/run compares it with eigen_only.cpp).
#include <chaindyn/chaindyn.hpp>

int main() { return 0; }
