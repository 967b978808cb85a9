// `#include <Eigen/Dense>` and nothing else: the baseline include_only.cpp is compared with.
#include <Eigen/Dense>

int main() { return 0; }
