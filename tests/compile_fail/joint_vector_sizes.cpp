// Compile-fail cases of the joint-vector boundary (model/arguments.hpp, issue 12 item 1): each
// CHAINDYN_COMPILE_FAIL_CASE must NOT compile, and its error must carry chaindyn's message
// (tests/CMakeLists.txt, "compile_fail:*", checks both). Without a case the file is the control:
// the same calls with the right argument types, built with every test build, so that a case
// fails for its argument and not for a typo around it.
#include <chaindyn/chaindyn.hpp>

using Arm = chaindyn::robots::KukaIiwa<double>;
using Vector = Arm::Vector;

#ifndef CHAINDYN_COMPILE_FAIL_CASE
#define CHAINDYN_COMPILE_FAIL_CASE 0
#endif

void control_and_cases(const Arm& arm, chaindyn::Data<Arm>& data, const Vector& q,
                       const Eigen::VectorXd& q_dynamic) {
#if CHAINDYN_COMPILE_FAIL_CASE == 0
  // The control: fixed-size vectors and expressions in place, anything checked when returning.
  chaindyn::rnea(arm, data, q, q, q);
  chaindyn::rnea(arm, data, q, Vector::Zero(), 2.0 * q + q);
  chaindyn::crba(arm, data, q.head<7>());
  chaindyn::aba(arm, data, chaindyn::joint_vector(arm, q_dynamic), q, q);
  const Vector tau = chaindyn::rnea(arm, q_dynamic, q, q);
  static_cast<void>(tau);
#elif CHAINDYN_COMPILE_FAIL_CASE == 1
  // An Eigen::VectorXd in an in-place form: converted silently before (ASan: heap-buffer-overflow
  // with a 6-vector and -DNDEBUG).
  chaindyn::rnea(arm, data, q_dynamic, q, q);
#elif CHAINDYN_COMPILE_FAIL_CASE == 2
  chaindyn::crba(arm, data, q_dynamic);
#elif CHAINDYN_COMPILE_FAIL_CASE == 3
  // A fixed-size vector of the wrong size in an in-place form.
  chaindyn::aba(arm, data, q, q, Eigen::Matrix<double, 6, 1>::Zero());
#elif CHAINDYN_COMPILE_FAIL_CASE == 4
  // ... and in a returning form: known at compile time, so refused at compile time.
  const Vector tau = chaindyn::gravity_torques(arm, Eigen::Matrix<double, 6, 1>::Zero());
  static_cast<void>(tau);
#endif
}
