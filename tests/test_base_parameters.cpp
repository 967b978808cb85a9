// Identification of a whole chain (issue 16 part 3). Base parameters
// (identification/base_parameters.hpp): counts against a derivation, and the base regressor times
// the base values reproduces rnea's torques (an independent path: the full model) at fresh random
// states. Pseudo-inertias (pseudo_inertia.hpp) against point-mass sums; Fourier excitation
// trajectories (excitation.hpp) against finite differences and re-checked limits; the whole-robot
// fits (robot_identification.hpp) against the true model's rnea, the constraints checked from
// eigenvalues, and the held-out error against the bound the noise level predicts; a kinematic
// tree identified from its simulated motion (simulate) against its own rnea.
#include "support/test_support.hpp"
#include "support/two_link.hpp"

#include <chaindyn/closed_form.hpp>
#include <chaindyn/identification.hpp>
#include <chaindyn/identification/base_parameters.hpp>
#include <chaindyn/model/tree.hpp>
#include <chaindyn/simulation/simulate.hpp>

#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

using namespace chaindyn;

TEST_CASE("base parameters of the planar two-link arm are the six of the textbook, eleven with "
          "joint dynamics",
          "[identification][base]") {
  // Planar RR arm, gravity in the plane (Khalil & Dombre 2002, sec. 12.3): the torques depend on
  // ZZ1R = ZZ1 + m2 l1^2 (+ the armature of joint 1, whose column is ZZ1's), MX1R = MX1 + m2 l1,
  // MY1, ZZ2, MX2, MY2: 6 of the 20 inertial parameters. With the joints' damping (2), Coulomb
  // friction (2) and armature of joint 2 (1, joint 1's merges with ZZ1R): 11 of 26.
  const auto arm = test::two_link_rods().to_chain();
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

TEST_CASE("pseudo-inertia: the sum over point masses, its inverse, physical consistency and the "
          "eigenvalue projection",
          "[identification][consistency]") {
  std::mt19937 gen(test::kSeed + 16);
  for (int trial = 0; trial < 5; ++trial) {
    // A body of 6 point masses: pi summed from the points (m, sum m r, sum m (|r|^2 1 - r r^T)),
    // J summed as sum m [r; 1][r; 1]^T (the definition of the pseudo-inertia)
    BodyParameters pi = BodyParameters::Zero();
    Eigen::Matrix4d j_points = Eigen::Matrix4d::Zero();
    for (int k = 0; k < 6; ++k) {
      const double m = test::uniform(gen, 0.1, 2.0);
      const Eigen::Vector3d r = test::random_state<Eigen::Vector3d>(gen, 0.3);
      const Eigen::Matrix3d i = m * (r.squaredNorm() * Eigen::Matrix3d::Identity() - r * r.transpose());
      pi += (BodyParameters() << m, m * r, i(0, 0), i(0, 1), i(0, 2), i(1, 1), i(1, 2), i(2, 2)).finished();
      Eigen::Vector4d v;
      v << r, 1.0;
      j_points += m * v * v.transpose();
    }
    CHECK((pseudo_inertia(pi) - j_points).cwiseAbs().maxCoeff() < 1e-14 * j_points.norm());
    CHECK((parameters_from_pseudo_inertia(j_points) - pi).cwiseAbs().maxCoeff() < 1e-14 * pi.norm());
    CHECK(pseudo_inertia_margin(pi) > 0.0);
  }
  // A body that breaks the triangle inequality (I_C = diag(1, 0.2, 0.2), 1 kg) is not physical,
  // and the projection raises the pseudo-inertia's eigenvalues to the floor.
  BodyParameters bad;
  bad << 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.2, 0.0, 0.2;
  CHECK(pseudo_inertia_margin(bad) < 0.0);
  const Eigen::Matrix4d projected = project_eigenvalues_above(pseudo_inertia(bad), 1e-3);
  const Eigen::VectorXd ev = test::symmetric_eigenvalues(projected);
  CHECK(ev.minCoeff() >= 1e-3 * (1.0 - 1e-12));
  CHECK(pseudo_inertia_margin(parameters_from_pseudo_inertia(projected)) > 0.0);
  const Eigen::Matrix4d good = pseudo_inertia((BodyParameters() << 2, 0.1, 0, 0, 0.3, 0, 0, 0.3, 0, 0.3).finished());
  CHECK(project_eigenvalues_above(good, 1e-6) == good);
}

namespace {

/// The checks of one case of check_symmetric_eigen: eigenvalues against Eigen's, sorted,
/// orthonormal vectors that reassemble a (for repeated eigenvalues the vectors differ from
/// Eigen's: any basis of the eigenspace is right).
void check_symmetric_eigen_case(const Eigen::MatrixXd& a, const Eigen::VectorXd& values,
                                const Eigen::MatrixXd& vectors) {
  const double scale = std::max(a.norm(), 1e-300);
  const Eigen::Index n = a.rows();
  INFO("a =\n" << a);
  CHECK((values - test::symmetric_eigenvalues(a)).cwiseAbs().maxCoeff() <= 1e-14 * scale);
  CHECK(std::is_sorted(values.data(), values.data() + n));
  CHECK((vectors.transpose() * vectors - Eigen::MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff() <= 2e-14);
  CHECK((vectors * values.asDiagonal() * vectors.transpose() - a).cwiseAbs().maxCoeff() <= 2e-14 * scale);
}

/// detail::symmetric_eigen<N> against Eigen's SelfAdjointEigenSolver on random symmetric
/// matrices (indefinite, semi-definite, repeated and zero eigenvalues), zero, diagonal and tiny.
template <int N>
void check_symmetric_eigen(std::mt19937& gen) {
  using Mat = Eigen::Matrix<double, N, N>;
  using Vec = Eigen::Matrix<double, N, 1>;
  std::vector<Mat> cases;
  for (int trial = 0; trial < 40; ++trial) {
    const Mat r = Mat::NullaryExpr([&] { return test::uniform(gen, -1.0, 1.0); });
    cases.push_back(r + r.transpose());  // indefinite
    cases.push_back(r * r.transpose());  // semi-definite
    Vec d = Vec::Ones();                 // repeated and 0
    d[N - 2] = test::uniform(gen, -2.0, 2.0);
    d[N - 1] = 0.0;
    const Eigen::MatrixXd qr = Eigen::HouseholderQR<Eigen::MatrixXd>(Eigen::MatrixXd(r)).householderQ();
    cases.push_back(qr * Eigen::VectorXd(d).asDiagonal() * qr.transpose());
  }
  cases.push_back(Mat::Zero());
  cases.push_back(Vec::LinSpaced(N, 4.0, -1.0).asDiagonal());
  cases.push_back(1e-30 * cases.front());  // tiny scale
  for (const Mat& a : cases) {
    const detail::SymmetricEigen<N> ours = detail::symmetric_eigen<N>(a);
    check_symmetric_eigen_case(a, ours.values, ours.vectors);
  }
}

}  // namespace

TEST_CASE("the 3x3 and 4x4 Jacobi eigen-decompositions equal Eigen's SelfAdjointEigenSolver, "
          "repeated and zero eigenvalues included",
          "[identification][consistency]") {
  std::mt19937 gen(test::kSeed + 19);
  check_symmetric_eigen<4>(gen);
  check_symmetric_eigen<3>(gen);
}

namespace {

// A random Fourier trajectory of n joints and L harmonics, coefficients in +-amplitude.
template <int N>
FourierTrajectory<N> random_fourier(std::mt19937& gen, int harmonics, double period, double amplitude) {
  FourierTrajectory<N> t;
  t.base_frequency = 2.0 * 3.14159265358979 / period;
  t.offset = test::random_state<Eigen::Matrix<double, N, 1>>(gen, 0.5);
  t.a = Eigen::MatrixXd::NullaryExpr(N, harmonics, [&] { return test::uniform(gen, -amplitude, amplitude); });
  t.b = Eigen::MatrixXd::NullaryExpr(N, harmonics, [&] { return test::uniform(gen, -amplitude, amplitude); });
  return t;
}

}  // namespace

TEST_CASE("Fourier excitation: derivatives by finite differences, periodicity, limits, and the "
          "optimiser lowers the base regressor's condition number",
          "[identification][excitation]") {
  const auto arm = test::two_link_rods().to_chain();
  using Arm = std::decay_t<decltype(arm)>;
  using Vector = Arm::Vector;
  std::mt19937 gen(test::kSeed + 17);
  const FourierTrajectory<2> t = random_fourier<2>(gen, 4, 5.0, 0.5);
  Vector q, qd, qdd, qp, qdp, qddp, qm, qdm, qddm;
  const double h = 1e-5;
  for (double time : {0.3, 1.7, 4.1}) {
    t.evaluate(time, q, qd, qdd);
    t.evaluate(time + h, qp, qdp, qddp);
    t.evaluate(time - h, qm, qdm, qddm);
    CHECK((qd - (qp - qm) / (2 * h)).cwiseAbs().maxCoeff() < 1e-8);
    CHECK((qdd - (qdp - qdm) / (2 * h)).cwiseAbs().maxCoeff() < 1e-8);
    t.evaluate(time + t.period(), qp, qdp, qddp);
    CHECK((qp - q).cwiseAbs().maxCoeff() < 1e-12);
  }
  ExcitationLimits<2> limits;
  limits.lower << -1.0, -2.0;
  limits.upper << 1.5, 0.5;
  limits.velocity << 1.0, 1.5;
  limits.acceleration << 2.0, 3.0;
  // fit_to_limits: a trajectory far outside is brought inside, checked on a 10x finer grid
  const FourierTrajectory<2> fitted = fit_to_limits(random_fourier<2>(gen, 4, 5.0, 5.0), limits, 0.9, 400);
  double worst = 0.0;
  for (int k = 0; k < 4000; ++k) {
    fitted.evaluate(fitted.period() * k / 4000.0, q, qd, qdd);
    for (int i = 0; i < 2; ++i) {
      const double middle = 0.5 * (limits.lower[i] + limits.upper[i]), half = 0.5 * (limits.upper[i] - limits.lower[i]);
      worst = std::max({worst, std::abs(q[i] - middle) / half, std::abs(qd[i]) / limits.velocity[i],
                        std::abs(qdd[i]) / limits.acceleration[i]});
    }
  }
  INFO("largest fraction of a limit reached: " << worst);
  CHECK(worst <= 0.9 * (1.0 + 1e-3));
  CHECK(worst >= 0.9 * (1.0 - 1e-3));  // and the scaling is tight: one limit is reached

  const BaseParameters bp = base_parameters(arm, true);
  ExcitationOptions options;
  options.harmonics = 3;
  options.samples = 30;
  options.check_samples = 200;
  options.starts = 3;
  options.max_evaluations = 60;
  const ExcitationResult<2> result = optimise_excitation(arm, bp, limits, options);
  INFO("cond(W_b): best start " << result.initial_condition << ", optimised " << result.condition);
  CHECK(std::isfinite(result.initial_condition));
  CHECK(result.condition < result.initial_condition);
  CHECK(result.evaluations == options.max_evaluations);
  CHECK(excitation_condition_number(arm, bp, result.trajectory, options.samples) == result.condition);
  // the condition number from the singular values of the stacked base regressor (another path)
  Eigen::MatrixXd w(options.samples * 2, bp.rank);
  for (int k = 0; k < options.samples; ++k) {
    result.trajectory.evaluate(result.trajectory.period() * k / options.samples, q, qd, qdd);
    w.middleRows(2 * k, 2) = bp.base_regressor(regressor_with_joint_dynamics(arm, q, qd, qdd));
  }
  const Eigen::VectorXd sv = Eigen::JacobiSVD<Eigen::MatrixXd>(w).singularValues();
  CHECK(std::abs(sv[0] / sv[sv.size() - 1] - result.condition) < 1e-6 * result.condition);
  // deterministic
  const ExcitationResult<2> again = optimise_excitation(arm, bp, limits, options);
  CHECK(again.trajectory.a == result.trajectory.a);
  CHECK(again.trajectory.b == result.trajectory.b);
  // bad limits and options are refused
  ExcitationLimits<2> bad = limits;
  bad.upper[1] = -3.0;
  CHECK_THROWS_AS(optimise_excitation(arm, bp, bad, options), ArgumentError);
  options.harmonics = 0;
  CHECK_THROWS_AS(optimise_excitation(arm, bp, limits, options), ArgumentError);
}

TEST_CASE("whole-robot identification of the iiwa with friction and armature: noise-free "
          "recovery, a physical robot, held-out error within the noise's prediction",
          "[identification][robot]") {
  using Arm = robots::KukaIiwa<double>;
  using Vector = Arm::Vector;
  std::mt19937 gen(test::kSeed + 18);
  std::array<Link<double>, 7> links = robots::kuka_iiwa_links();
  for (Link<double>& l : links) {
    l.dynamics = {test::uniform(gen, 0.1, 1.0), test::uniform(gen, 0.2, 2.0), test::uniform(gen, 0.05, 0.5)};
  }
  const Arm truth(links);
  std::array<Link<double>, 7> cad = robots::kuka_iiwa_links();  // the prior: 20 % off, no friction
  for (Link<double>& l : cad) {
    l.mass *= test::uniform(gen, 0.8, 1.2);
    l.com += test::random_state<Eigen::Vector3d>(gen, 0.02);
  }
  const Arm prior(cad);
  const BaseParameters bp = base_parameters(truth, true, 100);
  const Eigen::VectorXd truth_base = bp.base_values(parameters_with_joint_dynamics(truth));
  ExcitationLimits<7> limits;
  for (int i = 0; i < 7; ++i) {
    limits.upper[i] = robots::kuka_iiwa_position_limits[std::size_t(i)];
    limits.lower[i] = -limits.upper[i];
    limits.velocity[i] = 1.7;
    limits.acceleration[i] = 5.0;
  }
  const FourierTrajectory<7> train = fit_to_limits(random_fourier<7>(gen, 4, 8.0, 1.0), limits);
  const FourierTrajectory<7> held_out = fit_to_limits(random_fourier<7>(gen, 3, 5.0, 1.0), limits);
  const int samples = 120;
  const auto run = [&](double noise_std) {
    RobotIdentification<Arm> id(truth, bp);
    std::normal_distribution<double> noise(0.0, noise_std > 0.0 ? noise_std : 1.0);
    Vector q, qd, qdd;
    for (int k = 0; k < samples; ++k) {
      train.evaluate(train.period() * k / samples, q, qd, qdd);
      Vector tau = rnea(truth, q, qd, qdd);
      if (noise_std > 0.0) {
        for (int i = 0; i < 7; ++i) tau[i] += noise(gen);
      }
      id.add_sample(q, qd, qdd, tau);
    }
    return id;
  };
  // Checks that `model` is physical the way the model's own validation and the pseudo-inertia
  // say: m > 0, I_C positive definite with strict triangle inequalities, joint parameters >= 0.
  const auto check_physical = [](const Arm& model) {
    for (std::size_t i = 0; i < 7; ++i) {
      const Link<double>& l = model.link(i);
      const Eigen::VectorXd moments = test::symmetric_eigenvalues(l.inertia);
      CHECK(l.mass > 0.0);
      CHECK(moments.minCoeff() > 0.0);
      CHECK(moments[0] + moments[1] > moments[2]);
      CHECK(l.dynamics.damping >= 0.0);
      CHECK(l.dynamics.friction >= 0.0);
      CHECK(l.dynamics.armature >= 0.0);
    }
  };

  // One flow, no SECTIONs: each SECTION would repeat the set-up above (CI time).
  {  // noise-free: both fits give the base parameters, the consistent robot the torques
    const RobotIdentification<Arm> id = run(0.0);
    const BaseEstimate ls = id.least_squares();
    REQUIRE(ls.ok);
    INFO("cond " << ls.condition_number);
    CHECK((ls.base - truth_base).norm() < 1e-10 * truth_base.norm());
    ConsistentOptions options;
    options.prior_weight = 1e-12;  // exact data: the prior biases the fit by O(prior_weight)
    const ConsistentEstimate<Arm> pc = id.physically_consistent(prior, options);
    INFO("Newton steps " << pc.newton_steps);
    std::printf("iiwa, noise-free: Newton steps %d, base error %.2e (relative)\n",
                pc.newton_steps, (pc.base - truth_base).norm() / truth_base.norm());
    CHECK(pc.converged);
    CHECK((pc.base - truth_base).norm() < 1e-10 * truth_base.norm());
    CHECK(pc.smallest_margin > 0.0);
    check_physical(pc.model);
    // the identified robot's rnea (standard parameters, the full model) = the truth's
    double worst = 0.0;
    for (int k = 0; k < 10; ++k) {
      const Vector q = test::random_state<Vector>(gen, 2.0), qd = test::random_state<Vector>(gen, 1.5),
                   qdd = test::random_state<Vector>(gen, 4.0);
      const Vector t = rnea(truth, q, qd, qdd);
      worst = std::max(worst, (rnea(pc.model, q, qd, qdd) - t).cwiseAbs().maxCoeff() / t.cwiseAbs().maxCoeff());
    }
    INFO("worst relative torque error of the identified robot at random states: " << worst);
    CHECK(worst < 1e-9);

    // The runtime-sized chain (the Python module's robot), same samples: the same fits, and
    // the identified ChainX keeps the prior's joint kinds.
    using X = ChainX<double>;
    RobotIdentification<X> idx(X::from(truth), bp);
    for (int k = 0; k < samples; ++k) {
      Vector q, qd, qdd;
      train.evaluate(train.period() * k / samples, q, qd, qdd);
      idx.add_sample(q, qd, qdd, rnea(truth, q, qd, qdd));
    }
    const BaseEstimate lsx = idx.least_squares();
    REQUIRE(lsx.ok);
    CHECK((lsx.base - ls.base).norm() < 1e-12 * ls.base.norm());
    const ConsistentEstimate<X> pcx = idx.physically_consistent(X::from(prior), options);
    CHECK(pcx.converged);
    CHECK((pcx.base - truth_base).norm() < 1e-10 * truth_base.norm());
    REQUIRE(pcx.model.joint_count() == 7);
    CHECK(pcx.model.joint(6).kind() == JointKind::revolute);
    const Vector q = test::random_state<Vector>(gen, 2.0);
    CHECK(test::relative_error(rnea(pcx.model, q, q, q), rnea(pc.model, q, q, q)) < 1e-9);
  }

  {  // noisy: held-out torques within three times the noise's prediction, a physical robot no
     // closer to the data than least squares
    const double noise_std = 0.3;
    const RobotIdentification<Arm> id = run(noise_std);
    const BaseEstimate ls = id.least_squares();
    REQUIRE(ls.ok);
    CHECK(std::abs(ls.sigma - noise_std) < 0.1 * noise_std);
    ConsistentOptions options;
    const ConsistentEstimate<Arm> pc = id.physically_consistent(prior, options);
    INFO("Newton steps " << pc.newton_steps);
    CHECK(pc.converged);
    CHECK(pc.smallest_margin > 0.0);
    check_physical(pc.model);
    CHECK(pc.residual_rms >= pc.least_squares_residual_rms * (1.0 - 1e-12));  // LS: the lower bound
    // Held-out: the expected RMS error from the noise alone, sqrt(tr(W_h cov W_h^T) / rows)
    double expected = 0.0, ls_sum = 0.0, pc_sum = 0.0;
    const int held = 40;
    Vector q, qd, qdd;
    for (int k = 0; k < held; ++k) {
      held_out.evaluate(held_out.period() * k / held, q, qd, qdd);
      const Eigen::MatrixXd wh = id.base_regressor(q, qd, qdd);
      const Vector t = rnea(truth, q, qd, qdd);
      expected += (wh * ls.covariance * wh.transpose()).trace();
      ls_sum += (wh * ls.base - t).squaredNorm();
      pc_sum += (rnea(pc.model, q, qd, qdd) - t).squaredNorm();
    }
    expected = std::sqrt(expected / (7.0 * held));
    const double ls_rms = std::sqrt(ls_sum / (7.0 * held)), pc_rms = std::sqrt(pc_sum / (7.0 * held));
    std::printf("iiwa, noise %.2f N m: sigma %.4f, Newton steps %d, residual %.6f (LS %.6f), "
                "held-out RMS LS %.4f, consistent %.4f, expected %.4f N m\n", noise_std, ls.sigma,
                pc.newton_steps, pc.residual_rms, pc.least_squares_residual_rms, ls_rms, pc_rms,
                expected);
    INFO("held-out RMS error: least squares " << ls_rms << ", consistent " << pc_rms << ", expected "
                                              << expected << " N m");
    CHECK(ls_rms < 3.0 * expected);
    CHECK(pc_rms < 3.0 * expected);
  }

  {  // bad input is refused
    RobotIdentification<Arm> id(truth, bp);
    CHECK_FALSE(id.least_squares().ok);
    CHECK_THROWS_AS(id.physically_consistent(prior), ArgumentError);
    ConsistentOptions no_prior;
    no_prior.prior_weight = 0.0;
    CHECK_THROWS_AS(run(0.0).physically_consistent(prior, no_prior), ArgumentError);
    const Vector nan = Vector::Constant(std::nan(""));
    CHECK_THROWS_AS(id.add_sample(nan, Vector::Zero(), Vector::Zero(), Vector::Zero()), ArgumentError);
    CHECK(id.samples() == 0);
    BaseParameters wrong = bp;
    wrong.columns = 70;  // an inertial-only count for a BaseParameters with joint dynamics
    CHECK_THROWS_AS(RobotIdentification<Arm>(truth, wrong), ArgumentError);
  }
}

TEST_CASE("whole-robot identification of a tree from its simulated motion recovers the base "
          "parameters and rnea; the consistent fit keeps the tree's parents",
          "[identification][robot][trees]") {
  // A torso joint with two arms (1 -> 2 and 3 -> 4), damping, Coulomb friction and armature on
  // every joint, tracking a random Fourier trajectory under computed torque; simulate (RK4)
  // gives the samples (q, qd, qdd from aba, tau the controller's: consistent whatever the
  // integrator's error, so a step of 5 ms, stable for the gains' 10 rad/s). One model type, the
  // run-time TreeX (compile time: a compile-time Tree runs the Chain's fold, tested above).
  using X = TreeX<double>;
  using Vector = Eigen::VectorXd;
  std::mt19937 gen(test::kSeed + 19);
  std::vector<Link<double>> links;
  for (int i = 0; i < 5; ++i) {
    links.push_back(test::random_link(gen, true));
    links.back().dynamics = {test::uniform(gen, 0.1, 1.0), test::uniform(gen, 0.2, 2.0),
                             test::uniform(gen, 0.05, 0.5)};
  }
  const std::vector<JointKind> kinds = {JointKind::revolute, JointKind::revolute,
                                        JointKind::revolute, JointKind::revolute,
                                        JointKind::prismatic};
  const std::vector<std::size_t> parents = {no_parent, 0, 1, 0, 3};
  const X truth(links, kinds, parents);
  const BaseParameters bp = base_parameters(truth, true, 100);
  INFO("tree: " << bp.rank << " base parameters of " << bp.columns);
  const Eigen::VectorXd truth_base = bp.base_values(parameters_with_joint_dynamics(truth));
  const FourierTrajectory<5> reference = random_fourier<5>(gen, 4, 4.0, 1.0);
  const auto computed_torque = [&](double t, const Vector& q, const Vector& qd) -> Vector {
    FourierTrajectory<5>::Vector qr, qdr, qddr;
    reference.evaluate(t, qr, qdr, qddr);
    return rnea(truth, q, qd, Vector(qddr + 100.0 * (qr - q) + 20.0 * (qdr - qd)));
  };
  SimulationOptions<double> o;
  o.integrator = Integrator::rk4;
  o.dt = 5e-3;
  o.output_interval = 0.025;
  FourierTrajectory<5>::Vector q0, qd0, qdd0;
  reference.evaluate(0.0, q0, qd0, qdd0);
  const SimulationResult<X> motion = simulate(truth, Vector(q0), Vector(qd0), computed_torque, 4.0, o);
  RobotIdentification<X> id(truth, bp);
  for (std::size_t k = 0; k < motion.size(); ++k) {
    id.add_sample(motion.q[k], motion.qd[k], motion.qdd[k], motion.tau[k]);
  }
  const BaseEstimate ls = id.least_squares();
  REQUIRE(ls.ok);
  INFO("samples " << ls.samples << ", cond " << ls.condition_number);
  const double base_error = (ls.base - truth_base).norm() / truth_base.norm();
  // rnea of the identified base parameters at fresh states against the truth's
  double worst = 0.0;
  for (int k = 0; k < 10; ++k) {
    const Vector q = test::random_state<Vector>(gen, 2.0, 5), qd = test::random_state<Vector>(gen, 1.5, 5),
                 qdd = test::random_state<Vector>(gen, 4.0, 5);
    const Vector t = rnea(truth, q, qd, qdd);
    worst = std::max(worst, test::relative_error((id.base_regressor(q, qd, qdd) * ls.base).eval(), t));
  }
  WARN("tree identified from " << ls.samples << " simulated samples (cond " << ls.condition_number
                               << "): base parameters " << base_error
                               << ", rnea at fresh states " << worst << " (relative)");
  CHECK(base_error < 1e-10);
  CHECK(worst < 1e-10);

  // The physically consistent fit from a prior 20 % off without joint dynamics: a TreeX with
  // the truth's parents and kinds whose rnea is the truth's.
  std::vector<Link<double>> cad = links;
  for (Link<double>& l : cad) {
    l.mass *= test::uniform(gen, 0.8, 1.2);
    l.com += test::random_state<Eigen::Vector3d>(gen, 0.02);
    l.dynamics = {};
  }
  ConsistentOptions options;
  options.prior_weight = 1e-12;  // exact data
  const ConsistentEstimate<X> pc = id.physically_consistent(X(cad, kinds, parents), options);
  CHECK(pc.converged);
  CHECK(pc.smallest_margin > 0.0);
  CHECK((pc.base - truth_base).norm() < 1e-8 * truth_base.norm());
  CHECK(pc.model.parents() == parents);
  CHECK(pc.model.joint(4).kind() == JointKind::prismatic);
  const Vector q = test::random_state<Vector>(gen, 2.0, 5);
  CHECK(test::relative_error(rnea(pc.model, q, q, q), rnea(truth, q, q, q)) < 1e-8);
}
