// The tests' symmetric eigenvalue solver (support/test_support.hpp), compiled once for
// chaindyn_tests instead of once per translation unit and matrix type.
#include "support/test_support.hpp"

#include <Eigen/Eigenvalues>

namespace chaindyn::test {

Eigen::VectorXd symmetric_eigenvalues(const Eigen::MatrixXd& m) {
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(m, Eigen::EigenvaluesOnly).eigenvalues();
}

double condition_number(const Eigen::MatrixXd& m) {
  const Eigen::VectorXd e = symmetric_eigenvalues(m);
  return e.maxCoeff() / e.minCoeff();
}

}  // namespace chaindyn::test
