// Base (identifiable) parameters of a whole chain (identification/base_parameters.hpp, issue 16
// part 3, first step): counts against a derivation, and the base regressor times the base values
// reproduces rnea's torques (an independent path: the full model) at fresh random states.
#include "support/test_support.hpp"

#include <chaindyn/closed_form.hpp>
#include <chaindyn/identification.hpp>
#include <chaindyn/identification/base_parameters.hpp>

#include <catch2/catch.hpp>

#include <random>

using namespace chaindyn;

TEST_CASE("base parameters of the planar two-link arm are the six of the textbook, eleven with "
          "joint dynamics",
          "[identification][base]") {
  // Planar RR arm, gravity in the plane (Khalil & Dombre 2002, sec. 12.3): the torques depend on
  // ZZ1R = ZZ1 + m2 l1^2 (+ the armature of joint 1, whose column is ZZ1's), MX1R = MX1 + m2 l1,
  // MY1, ZZ2, MX2, MY2: 6 of the 20 inertial parameters. With the joints' damping (2), Coulomb
  // friction (2) and armature of joint 2 (1, joint 1's merges with ZZ1R): 11 of 26.
  const auto arm = closed_form::TwoLinkArm<double>::uniform_rods(3, 1, 2, 1, 9.81).to_chain();
  const BaseParameters inertial = base_parameters(arm, false);
  CHECK(inertial.columns == 20);
  CHECK(inertial.rank == 6);
  const BaseParameters all = base_parameters(arm, true);
  CHECK(all.columns == 26);
  CHECK(all.rank == 11);
}

TEST_CASE("the base regressor times the base parameters reproduces rnea at fresh states",
          "[identification][base]") {
  using Arm = robots::KukaIiwa<double>;
  const Arm iiwa = robots::kuka_iiwa();
  using Vector = Arm::Vector;
  const BaseParameters bp = base_parameters(iiwa, true);
  INFO("iiwa: " << bp.rank << " base parameters of " << bp.columns);
  CHECK(bp.rank < bp.columns);
  const Eigen::VectorXd pi_b = bp.base_values(parameters_with_joint_dynamics(iiwa));
  std::mt19937 gen(test::kSeed + 7);  // not base_parameters' draw
  Data<Arm> data;
  RegressorWithJointDynamicsMatrix<Arm> y;
  double worst = 0.0;
  const int samples = 50;
  Eigen::MatrixXd w(samples * 7, bp.columns);
  Eigen::VectorXd tau(samples * 7);
  for (int s = 0; s < samples; ++s) {
    const Vector q = test::random_state<Vector>(gen, 3.0), qd = test::random_state<Vector>(gen, 2.0),
                 qdd = test::random_state<Vector>(gen, 5.0);
    regressor_with_joint_dynamics(iiwa, data, q, qd, qdd, y);
    const Vector t = rnea(iiwa, q, qd, qdd);
    const Eigen::VectorXd from_base = bp.base_regressor(y) * pi_b;
    worst = std::max(worst, (from_base - t).cwiseAbs().maxCoeff() / t.cwiseAbs().maxCoeff());
    w.middleRows(s * 7, 7) = y;
    tau.segment(s * 7, 7) = t;
  }
  INFO("worst relative torque difference: " << worst);
  CHECK(worst < 1e-10);
  // Identification on noise-free torques: least squares on the base regressor gives pi_b.
  const Eigen::MatrixXd wb = bp.base_regressor(w);
  const Eigen::VectorXd estimate = wb.colPivHouseholderQr().solve(tau);
  const double error = (estimate - pi_b).cwiseAbs().maxCoeff() / pi_b.cwiseAbs().maxCoeff();
  INFO("identified base parameters, worst relative error: " << error);
  CHECK(error < 1e-8);
  CHECK((wb * estimate - tau).cwiseAbs().maxCoeff() < 1e-10 * tau.cwiseAbs().maxCoeff());
  // Arguments of the wrong size are refused.
  CHECK_THROWS_AS(bp.base_values(Eigen::VectorXd::Zero(5)), ArgumentError);
  CHECK_THROWS_AS(bp.base_regressor(Eigen::MatrixXd::Zero(7, 5)), ArgumentError);
  CHECK_THROWS_AS(base_parameters(iiwa, true, 0), ArgumentError);
}
