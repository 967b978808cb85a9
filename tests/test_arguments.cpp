// The joint-vector boundary (model/arguments.hpp, issue 12 item 1): the returning forms take any
// Eigen vector and check its size at run time with a named ArgumentError; a right-size dynamic
// vector gives exactly the fixed-size result. (The in-place forms refuse dynamic-size vectors at
// compile time: tests/compile_fail/joint_vector_sizes.cpp.) Before, a wrong-size VectorXd was
// converted silently: Eigen's assertion aborted the asan build, and with -DNDEBUG rnea read past
// the vector (ASan: heap-buffer-overflow).
#include "support/test_support.hpp"

#include <chaindyn/all.hpp>

#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>

using namespace chaindyn;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using chaindyn::test::relative_error;

namespace {

using Arm = robots::KukaIiwa<double>;
using Vector = Arm::Vector;

std::string argument_error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const ArgumentError& e) {
    return e.what();
  }
  return "no ArgumentError";
}

}  // namespace

TEST_CASE("returning forms refuse a dynamic-size vector of the wrong length with ArgumentError",
          "[arguments]") {
  const Arm arm = robots::kuka_iiwa();
  const Eigen::VectorXd six = Eigen::VectorXd::Constant(6, 0.1);
  const Eigen::VectorXd eight = Eigen::VectorXd::Constant(8, 0.1);
  const Eigen::VectorXd empty;
  const Vector v = Vector::Constant(0.2);
  CHECK_THAT(argument_error_of([&] { rnea(arm, six, v, v); }),
             Equals("chaindyn: rnea: q has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { rnea(arm, v, eight, v); }),
             Equals("chaindyn: rnea: qd has 8 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { rnea(arm, v, v, empty); }),
             Equals("chaindyn: rnea: qdd has 0 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { aba(arm, v, v, six); }),
             Equals("chaindyn: aba: tau has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { crba(arm, six); }),
             Equals("chaindyn: crba: q has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { nonlinear_effects(arm, v, six); }),
             Equals("chaindyn: nonlinear_effects: qd has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { gravity_torques(arm, six); }),
             Equals("chaindyn: gravity_torques: q has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { forward_dynamics_crba(arm, v, v, eight); }),
             Equals("chaindyn: forward_dynamics_crba: tau has 8 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { forward_kinematics(arm, six); }),
             Equals("chaindyn: forward_kinematics: q has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { kinetic_energy(arm, v, six); }),
             Equals("chaindyn: kinetic_energy: qd has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { potential_energy(arm, six); }),
             Equals("chaindyn: potential_energy: q has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { inverse_mass_matrix(arm, six); }),
             Equals("chaindyn: inverse_mass_matrix: q has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { coriolis_matrix(arm, six, v); }),
             Equals("chaindyn: coriolis_matrix: q has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { christoffel_symbols(arm, six); }),
             Equals("chaindyn: christoffel_symbols: q has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { rnea_derivatives(arm, v, v, six); }),
             Equals("chaindyn: rnea_derivatives: qdd has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { aba_derivatives(arm, v, six, v); }),
             Equals("chaindyn: aba_derivatives: qd has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { regressor(arm, v, v, six); }),
             Equals("chaindyn: regressor: qdd has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { regressor_with_joint_dynamics(arm, six, v, v); }),
             Equals("chaindyn: regressor_with_joint_dynamics: q has 6 entries; the model has 7 "
                    "joints"));
  CHECK_THAT(argument_error_of([&] { friction_torques(arm, six); }),
             Equals("chaindyn: friction_torques: qd has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { frame_pose(arm, six, 6); }),
             Equals("chaindyn: frame_pose: q has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { jacobian(arm, six, 6); }),
             Equals("chaindyn: jacobian: q has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { jdot_qd(arm, v, six, arm.frame(6)); }),
             Equals("chaindyn: jdot_qd: qd has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { joint_torques_from_wrench(arm, six, 6, Force<double>()); }),
             Equals("chaindyn: joint_torques_from_wrench: q has 6 entries; the model has 7 "
                    "joints"));
  PayloadIdentification<Arm> identification(arm);
  CHECK_THAT(argument_error_of([&] { identification.add_sample(v, v, v, six); }),
             Equals("chaindyn: PayloadIdentification::add_sample: tau has 6 entries; the model "
                    "has 7 joints"));
  CHECK_THAT(argument_error_of([&] { joint_vector(arm, eight); }),
             Equals("chaindyn: joint_vector: v has 8 entries; the model has 7 joints"));
  // A matrix is not a vector even with 7 entries' worth of rows.
  CHECK_THAT(argument_error_of([&] { rnea(arm, Eigen::MatrixXd::Zero(7, 2), v, v); }),
             Equals("chaindyn: rnea: q is a 7 x 2 matrix; a vector of 7 entries is expected"));
  // ArgumentError is a std::invalid_argument: code that catches the standard type still works.
  CHECK_THROWS_AS(rnea(arm, six, v, v), std::invalid_argument);
}

TEST_CASE("returning forms give a right-size dynamic vector or expression the fixed-size result",
          "[arguments]") {
  const Arm arm = robots::kuka_iiwa();
  std::mt19937 gen(test::kSeed);
  const Vector q = test::random_state<Vector>(gen, 2.0), qd = test::random_state<Vector>(gen, 1.0),
               qdd = test::random_state<Vector>(gen, 1.0);
  const Eigen::VectorXd qx = q, qdx = qd, qddx = qdd;
  const Eigen::RowVectorXd q_row = q.transpose();
  const Vector tau = rnea(arm, q, qd, qdd);
  // Bit-for-bit: the same in-place computation on the same numbers.
  CHECK(rnea(arm, qx, qdx, qddx) == tau);
  CHECK(rnea(arm, q_row, qdx, qddx) == tau);
  CHECK(rnea(arm, Eigen::Map<const Eigen::VectorXd>(qx.data(), 7), qd, 1.0 * qdd) == tau);
  CHECK(aba(arm, qx, qdx, Eigen::VectorXd(tau)) == aba(arm, q, qd, tau));
  CHECK(crba(arm, qx) == crba(arm, q));
  CHECK(gravity_torques(arm, qx.head(7)) == gravity_torques(arm, q));
  CHECK(joint_vector(arm, qx) == q);
  // The in-place forms take fixed-size expressions (evaluated once) as before.
  Data<Arm> data;
  rnea(arm, data, q, qd, 2.0 * qdd - qdd);
  CHECK((data.tau - tau).cwiseAbs().maxCoeff() <= 1e-12);
}

TEST_CASE("the returning forms' per-thread workspace does not carry one call into the next",
          "[arguments][returning]") {
  // The same workspace serves every returning form of a model type in a thread: results must
  // not depend on what ran before (every algorithm writes what it reads).
  const Arm arm = robots::kuka_iiwa();
  std::mt19937 gen(test::kSeed + 1);
  const Vector q = test::random_state<Vector>(gen, 2.0), qd = test::random_state<Vector>(gen, 1.0),
               tau = test::random_state<Vector>(gen, 5.0);
  Data<Arm> fresh;
  aba(arm, fresh, q, qd, tau);
  const Vector expected = fresh.qdd;
  const Vector first = aba(arm, q, qd, tau);
  coriolis_matrix(arm, Vector(-q), Vector(3.0 * qd));
  rnea_derivatives(arm, Vector(-q), qd, tau);
  inverse_mass_matrix(arm, Vector(0.5 * q));
  CHECK(first == expected);
  CHECK(aba(arm, q, qd, tau) == expected);
}

TEST_CASE("a ChainX's in-place forms refuse a Data, a vector, forces or a frame handle sized for "
          "another chain with ArgumentError",
          "[arguments]") {
  using X = ChainX<double>;
  const X iiwa = X::from(robots::kuka_iiwa());
  const X two = X::from(robots::two_link_arm());
  Data<X> data(iiwa);
  Data<X> data_of_two(two);
  auto dd = std::make_unique<DerivativesData<X>>(two);
  const X::Vector q = X::Vector::Constant(7, 0.3);
  const X::Vector six = X::Vector::Constant(6, 0.3);
  const X::Vector eight = X::Vector::Constant(8, 0.3);
  // A compile-time chain's sizes are in its types: its in-place forms stay noexcept; a ChainX's
  // check and throw.
  static_assert(!noexcept(rnea(iiwa, data, q, q, q)));
  static_assert(!noexcept(aba(iiwa, data, q, q, q)));
  const Arm fixed = robots::kuka_iiwa();
  Data<Arm> fixed_data;
  const Vector fq = Vector::Zero();
  static_assert(noexcept(rnea(fixed, fixed_data, fq, fq, fq)));
  static_assert(noexcept(aba(fixed, fixed_data, fq, fq, fq)));
  const FrameFor<Arm> fixed_tip = fixed.frame(6);
  static_assert(noexcept(frame_pose(fixed, fixed_data, fq, fixed_tip)));

  // A Data made for another ChainX (sincos wrote past data.sin_q).
  CHECK_THAT(argument_error_of([&] { rnea(iiwa, data_of_two, q, q, q); }),
             Equals("chaindyn: rnea: the workspace was made for a model of 2 joints; the model "
                    "has 7"));
  CHECK_THAT(argument_error_of([&] { crba(iiwa, data_of_two, q); }), Contains("crba: the workspace"));
  CHECK_THAT(argument_error_of([&] { aba(iiwa, data_of_two, q, q, q); }), Contains("aba: the workspace"));
  CHECK_THAT(argument_error_of([&] { forward_kinematics(iiwa, data_of_two, q); }),
             Contains("forward_kinematics: the workspace"));
  CHECK_THAT(argument_error_of([&] { rnea_derivatives(iiwa, *dd, q, q, q); }),
             Contains("rnea_derivatives: the workspace"));
  CHECK_THAT(argument_error_of([&] { aba_derivatives(iiwa, *dd, q, q, q); }),
             Contains("aba_derivatives: the workspace"));
  // Short and long vectors (a short one left the last joint's sin/cos stale; a long one wrote
  // past the arrays).
  CHECK_THAT(argument_error_of([&] { rnea(iiwa, data, six, q, q); }),
             Equals("chaindyn: rnea: q has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { rnea(iiwa, data, q, eight, q); }),
             Equals("chaindyn: rnea: qd has 8 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { aba(iiwa, data, q, q, six); }),
             Equals("chaindyn: aba: tau has 6 entries; the model has 7 joints"));
  CHECK_THAT(argument_error_of([&] { crba(iiwa, data, eight); }), Contains("crba: q has 8"));
  CHECK_THAT(argument_error_of([&] { gravity_torques(iiwa, data, six); }), Contains("q has 6"));
  CHECK_THAT(argument_error_of([&] { nonlinear_effects(iiwa, data, q, six); }), Contains("qd has 6"));
  CHECK_THAT(argument_error_of([&] { forward_dynamics_crba(iiwa, data, q, q, eight); }),
             Contains("tau has 8"));
  CHECK_THAT(argument_error_of([&] { kinetic_energy(iiwa, data, q, six); }), Contains("qd has 6"));
  CHECK_THAT(argument_error_of([&] { potential_energy(iiwa, data, six); }), Contains("q has 6"));
  CHECK_THAT(argument_error_of([&] { inverse_mass_matrix(iiwa, data, six); }), Contains("q has 6"));
  CHECK_THAT(argument_error_of([&] { coriolis_matrix(iiwa, data, q, eight); }), Contains("qd has 8"));
  // Per-link forces of another length.
  const LinkForces<X> forces_of_two = link_forces(two);
  CHECK_THAT(argument_error_of([&] { rnea(iiwa, data, q, q, q, forces_of_two); }),
             Equals("chaindyn: rnea: f_ext has 2 entries (one per link); the model has 7 links"));
  CHECK_THAT(argument_error_of([&] { aba(iiwa, data, q, q, q, forces_of_two); }),
             Contains("f_ext has 2 entries"));
  // A frame handle of another ChainX (read past the other chain's arrays), in place and
  // returning, and a Jacobian of the wrong width.
  const FrameFor<X> tip = iiwa.frame(6);
  const X::Vector q2 = X::Vector::Constant(2, 0.3);
  FrameJacobian<X> J(6, 7), J2(6, 2);
  FrameVector<X> a;
  CHECK_THAT(argument_error_of([&] { frame_pose(two, data_of_two, q2, tip); }),
             Equals("chaindyn: frame_pose: frame was made by a chain of 7 joints; the model has 2"));
  CHECK_THAT(argument_error_of([&] { frame_pose(two, q2, tip); }), Contains("made by a chain of 7"));
  CHECK_THAT(argument_error_of([&] { jacobian(two, data_of_two, q2, tip, ReferenceFrame::world, J2); }),
             Contains("jacobian: frame was made by a chain of 7"));
  CHECK_THAT(argument_error_of([&] { jacobian(two, q2, tip); }), Contains("made by a chain of 7"));
  CHECK_THAT(argument_error_of([&] { jdot_qd(two, data_of_two, q2, q2, tip, ReferenceFrame::world, a); }),
             Contains("jdot_qd: frame was made by a chain of 7"));
  CHECK_THAT(argument_error_of([&] { jdot_qd(two, q2, q2, tip); }), Contains("made by a chain of 7"));
  CHECK_THAT(argument_error_of([&] { two.cast_frame(tip); }), Contains("cast_frame"));
  CHECK_THAT(argument_error_of([&] { jacobian(iiwa, data, q, tip, ReferenceFrame::world, J2); }),
             Equals("chaindyn: jacobian: J is 6 x 2; 6 x 7 is expected"));
  // The right sizes pass and give the fixed chain's numbers.
  rnea(iiwa, data, q, q, q);
  CHECK(relative_error(data.tau, rnea(fixed, Vector(q), Vector(q), Vector(q))) < 1e-12);
  jacobian(iiwa, data, q, tip, ReferenceFrame::world, J);
  CHECK(relative_error(J, jacobian(fixed, Vector(q), fixed.frame(6))) < 1e-12);
}
