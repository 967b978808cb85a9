// The tests' symmetric eigenvalue solver, positive-definiteness check, inverse and linear solve
// (support/test_support.hpp), compiled once for chaindyn_tests instead of once per translation
// unit and matrix type.
#include "support/test_support.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>

namespace chaindyn::test {

Eigen::VectorXd symmetric_eigenvalues(const Eigen::MatrixXd& m) {
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(m, Eigen::EigenvaluesOnly).eigenvalues();
}

double condition_number(const Eigen::MatrixXd& m) {
  const Eigen::VectorXd e = symmetric_eigenvalues(m);
  return e.maxCoeff() / e.minCoeff();
}

bool positive_definite(const Eigen::MatrixXd& m) {
  return Eigen::LLT<Eigen::MatrixXd>(m).info() == Eigen::Success;
}

Eigen::MatrixXd inverse(const Eigen::MatrixXd& a) {
  return Eigen::PartialPivLU<Eigen::MatrixXd>(a).inverse();
}

Eigen::VectorXd solve(const Eigen::MatrixXd& a, const Eigen::VectorXd& b) {
  return Eigen::PartialPivLU<Eigen::MatrixXd>(a).solve(b);
}

}  // namespace chaindyn::test
