// Identifying a whole robot (issue 16, part 3; docs/identification.md, "Identification of the
// whole robot"): a KUKA iiwa simulated with viscous and Coulomb friction and armature on every
// joint runs a periodic excitation trajectory (a finite Fourier series, Swevers et al. 1997)
// optimised for the condition number of its base regressor; from noisy joint positions and
// torques, averaged over the periods, the base parameters (Gautier's, by QR with column
// pivoting) are estimated by least squares, and a physically consistent robot (log-Cholesky
// parametrisation, Rucker & Wensing 2022) by Levenberg-Marquardt from a CAD prior. Both predict
// the torques of a held-out trajectory.
//
//   chaindyn_robot_identification [--out DIR]     (writes nothing; DIR is accepted for the demo)
//
// The simulated arm follows its reference exactly (the true torques are the true model's
// inverse dynamics); the identification sees only q with encoder noise and tau with torque
// noise: qd and qdd come from the Fourier coefficients fitted to the period-averaged q (the
// frequency-domain differentiation of Swevers et al.), no oracle derivatives.
//
// Checks, exit status 1 when one fails: noise-free data give the base parameters back to 1e-9
// (both fits); the optimised trajectory respects the limits and has a smaller condition number;
// the consistent robot is physical (every pseudo-inertia positive definite, friction >= 0) and
// its rnea equals its base regressor prediction; with noise, every held-out torque error is
// below three times the one the noise level predicts.
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/identification.hpp>

#include "support/output.hpp"

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

using namespace chaindyn;
namespace ex = example_support;
using Arm = robots::KukaIiwa<double>;
using Vector = Arm::Vector;
constexpr int n = Arm::nq;
constexpr double kPi = 3.14159265358979323846;

namespace {

// One period of (averaged) measurements: the samples the identification gets.
struct Samples {
  std::vector<Vector> q, qd, qdd, tau;
};

// Runs `periods` periods of `trajectory` on `truth` at `rate` Hz, measures q and tau with
// Gaussian noise, averages the periods sample by sample, fits the trajectory's harmonics to the
// averaged q by least squares and differentiates the fit (Swevers et al. 1997, sec. IV).
Samples measure(const Arm& truth, const FourierTrajectory<n>& trajectory, int periods, int per_period,
                double torque_std, double position_std, std::mt19937& gen) {
  std::normal_distribution<double> noise(0.0, 1.0);
  Eigen::MatrixXd q_sum = Eigen::MatrixXd::Zero(per_period, n), tau_sum = q_sum;
  Vector q, qd, qdd;
  for (int p = 0; p < periods; ++p) {
    for (int k = 0; k < per_period; ++k) {
      trajectory.evaluate(trajectory.period() * k / per_period, q, qd, qdd);
      const Vector tau = rnea(truth, q, qd, qdd);
      for (int i = 0; i < n; ++i) {
        q_sum(k, i) += q[i] + position_std * noise(gen);
        tau_sum(k, i) += tau[i] + torque_std * noise(gen);
      }
    }
  }
  // The Fourier fit of the averaged q: columns 1, sin(w l t) / (w l), -cos(w l t) / (w l).
  const Eigen::Index L = trajectory.harmonics();
  Eigen::MatrixXd basis(per_period, 1 + 2 * L);
  for (int k = 0; k < per_period; ++k) {
    const double t = trajectory.period() * k / per_period;
    basis(k, 0) = 1.0;
    for (Eigen::Index l = 0; l < L; ++l) {
      const double w = trajectory.base_frequency * double(l + 1);
      basis(k, 1 + l) = std::sin(w * t) / w;
      basis(k, 1 + L + l) = -std::cos(w * t) / w;
    }
  }
  const Eigen::MatrixXd coefficients = basis.colPivHouseholderQr().solve(q_sum / periods);
  FourierTrajectory<n> fitted = trajectory;
  fitted.offset = coefficients.row(0).transpose();
  fitted.a = coefficients.middleRows(1, L).transpose();
  fitted.b = coefficients.middleRows(1 + L, L).transpose();
  Samples out;
  for (int k = 0; k < per_period; ++k) {
    fitted.evaluate(trajectory.period() * k / per_period, q, qd, qdd);
    out.q.push_back(q);
    out.qd.push_back(qd);
    out.qdd.push_back(qdd);
    out.tau.push_back(tau_sum.row(k).transpose() / periods);
  }
  return out;
}

RobotIdentification<Arm> identify(const Arm& model, const BaseParameters& bp, const Samples& s) {
  RobotIdentification<Arm> id(model, bp);
  for (std::size_t k = 0; k < s.q.size(); ++k) id.add_sample(s.q[k], s.qd[k], s.qdd[k], s.tau[k]);
  return id;
}

// RMS over samples and joints of predict(q, qd, qdd) - rnea(truth, ...) on the held-out motion.
template <typename Predict>
double torque_rms(const Arm& truth, const Samples& held_out, Predict predict) {
  double sum = 0.0;
  for (std::size_t k = 0; k < held_out.q.size(); ++k) {
    const Vector e = predict(held_out.q[k], held_out.qd[k], held_out.qdd[k]) -
                     rnea(truth, held_out.q[k], held_out.qd[k], held_out.qdd[k]);
    sum += e.squaredNorm();
  }
  return std::sqrt(sum / double(held_out.q.size() * n));
}

}  // namespace

int main(int argc, char** argv) try {
  (void)ex::output_directory(argc, argv,
                             "Identifies a simulated KUKA iiwa (friction, armature, noise) from an "
                             "optimised excitation trajectory.");
  bool ok = true;
  const auto check = [&](bool condition, const char* what) {
    if (!condition) std::printf("FAILED: %s\n", what);
    ok = ok && condition;
  };

  // The truth: the built-in iiwa with joint friction and armature (assumed values of the order
  // of a 7-axis arm with harmonic drives; the built-in model has none).
  std::array<Link<double>, n> links = robots::kuka_iiwa_links();
  const double damping[n] = {0.8, 0.8, 0.5, 0.5, 0.3, 0.2, 0.2};     // N m s / rad
  const double coulomb[n] = {1.5, 1.5, 1.0, 1.0, 0.6, 0.4, 0.4};     // N m
  const double armature[n] = {0.4, 0.4, 0.25, 0.25, 0.1, 0.08, 0.08};  // kg m^2
  for (int i = 0; i < n; ++i) {
    links[std::size_t(i)].dynamics = {damping[i], coulomb[i], armature[i]};
  }
  const Arm truth(links);
  // The prior a user has: the CAD masses off by up to 20 %, centres of mass by up to 2 cm,
  // inertias scaled by up to 30 %, no joint friction or armature.
  std::mt19937 gen(16u);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::array<Link<double>, n> cad = robots::kuka_iiwa_links();
  for (Link<double>& l : cad) {
    l.mass *= 1.0 + 0.2 * unit(gen);
    const double dx = unit(gen), dy = unit(gen), dz = unit(gen);  // in this order on every compiler
    l.com += 0.02 * Eigen::Vector3d(dx, dy, dz);
    l.inertia *= 1.0 + 0.3 * unit(gen);
  }
  const Arm prior(cad);

  const BaseParameters bp = base_parameters(truth, true);
  const Eigen::VectorXd truth_base = bp.base_values(parameters_with_joint_dynamics(truth));
  std::printf("KUKA iiwa with viscous + Coulomb friction and armature: %d base parameters of %d "
              "standard ones (10 per link + 3 per joint)\n\n",
              int(bp.rank), int(bp.columns));

  // 1. The excitation: position limits (KUKA's, kuka_iiwa_position_limits), velocity limits
  // (the iiwa 7 R800 data sheet: 98, 98, 100, 130, 140, 180, 180 deg/s) and an assumed 5 rad/s^2.
  ExcitationLimits<n> limits;
  const double deg_s[n] = {98, 98, 100, 130, 140, 180, 180};
  for (int i = 0; i < n; ++i) {
    limits.upper[i] = robots::kuka_iiwa_position_limits[std::size_t(i)];
    limits.lower[i] = -limits.upper[i];
    limits.velocity[i] = deg_s[i] * kPi / 180.0;
    limits.acceleration[i] = 5.0;
  }
  ExcitationOptions options;  // 5 harmonics of 0.1 Hz, 100 samples per period, 20 starts
  const ExcitationResult<n> excitation = optimise_excitation(truth, bp, limits, options);
  std::printf("Excitation (%d harmonics of %.2f Hz, cond(W_b) at %d samples of the period):\n"
              "  median of %d random trajectories %.1f, best %.1f, optimised %.1f "
              "(%d evaluations of the compass search)\n",
              options.harmonics, options.base_frequency / (2 * kPi), options.samples,
              options.starts, excitation.median_start_condition, excitation.initial_condition,
              excitation.condition, excitation.evaluations);
  check(excitation.condition < excitation.initial_condition, "the optimisation lowered cond(W_b)");
  // The limits, on a grid ten times finer than the one the optimiser checked.
  double worst_ratio = 0.0;
  for (int k = 0; k < 10 * options.check_samples; ++k) {
    Vector q, qd, qdd;
    excitation.trajectory.evaluate(excitation.trajectory.period() * k / (10.0 * options.check_samples),
                                   q, qd, qdd);
    for (int i = 0; i < n; ++i) {
      worst_ratio = std::max({worst_ratio, std::abs(q[i]) / limits.upper[i],
                              std::abs(qd[i]) / limits.velocity[i],
                              std::abs(qdd[i]) / limits.acceleration[i]});
    }
  }
  std::printf("  largest |q|, |qd|, |qdd| as a fraction of its limit: %.4f\n\n", worst_ratio);
  check(worst_ratio <= 1.0, "the excitation stays within the joint limits");

  // 2. Measurements: 5 periods (50 s) at 200 Hz, torque noise 0.5 N m, encoder noise 2e-5 rad.
  const int periods = 5, per_period = 2000;
  const double torque_std = 0.5, position_std = 2e-5;
  // The held-out motion: another Fourier trajectory (7 s period, not optimised), noise-free.
  FourierTrajectory<n> other;
  other.base_frequency = 2 * kPi / 7.0;
  other.a = Eigen::MatrixXd(n, 4);
  other.b = Eigen::MatrixXd(n, 4);
  for (int i = 0; i < n; ++i) {
    other.offset[i] = 0.3 * limits.upper[i] * unit(gen);
    for (int l = 0; l < 4; ++l) {
      other.a(i, l) = 0.5 * limits.velocity[i] * unit(gen);
      other.b(i, l) = 0.5 * limits.velocity[i] * unit(gen);
    }
  }
  other = fit_to_limits(other, limits);
  const Samples held_out = measure(truth, other, 1, 1400, 0.0, 0.0, gen);
  double held_out_torque = 0.0;
  for (std::size_t k = 0; k < held_out.tau.size(); ++k) held_out_torque += held_out.tau[k].squaredNorm();
  held_out_torque = std::sqrt(held_out_torque / double(held_out.tau.size() * n));
  const double prior_error = torque_rms(truth, held_out, [&](const Vector& q, const Vector& qd, const Vector& qdd) {
    return rnea(prior, q, qd, qdd);
  });
  std::printf("Held-out motion (7 s, 1400 samples): torque RMS %.2f N m; the CAD prior predicts "
              "it with an RMS error of %.3f N m\n\n",
              held_out_torque, prior_error);

  // 3. Noise-free: both fits give the base parameters back.
  {
    std::mt19937 quiet(1u);
    const Samples exact = measure(truth, excitation.trajectory, 1, per_period, 0.0, 0.0, quiet);
    const RobotIdentification<Arm> id = identify(truth, bp, exact);
    const BaseEstimate ls = id.least_squares();
    const double ls_error = (ls.base - truth_base).norm() / truth_base.norm();
    ConsistentOptions exact_options;
    exact_options.prior_weight = 1e-12;  // exact data: the prior's bias is O(prior_weight)
    const ConsistentEstimate<Arm> pc = id.physically_consistent(prior, exact_options);
    const double pc_error = (pc.base - truth_base).norm() / truth_base.norm();
    std::printf("Noise-free, one period: |pi_b - truth| / |truth| = %.1e (least squares), %.1e "
                "(physically consistent, %d Newton steps)\n\n",
                ls_error, pc_error, pc.newton_steps);
    check(ls.ok && ls_error < 1e-9, "noise-free least squares recovers the base parameters");
    check(pc_error < 1e-9, "noise-free consistent fit recovers the base parameters");
  }

  // 4. With noise, 5 noise draws per case: the best random start and the optimised trajectory
  // with 5 periods averaged, and the optimised one with a single period sampled at 50 Hz.
  const int draws = 5;
  std::printf("With noise (tau %.2f N m, q %.0e rad), mean over %d noise draws; errors against "
              "the truth (base parameters, torques in N m):\n",
              torque_std, position_std, draws);
  std::printf("  %-30s %-14s %6s %11s %11s %9s %9s %9s %7s %6s %7s\n", "data", "fit", "cond",
              "|dpi|/|pi|", "max|dpi|/sd", "train", "held-out", "expected", "active", "steps",
              "better");
  const struct {
    const char* name;
    const FourierTrajectory<n>* trajectory;
    int periods, per_period;
  } cases[3] = {{"random, 5 periods at 200 Hz", &excitation.initial, periods, per_period},
                {"optimised, 5 periods at 200 Hz", &excitation.trajectory, periods, per_period},
                {"optimised, 1 period at 50 Hz", &excitation.trajectory, 1, 500}};
  for (const auto& c : cases) {
    double cond = 0, ls_err = 0, pc_err = 0, ls_sd = 0, pc_sd = 0, ls_train = 0, pc_train = 0,
           ls_held = 0, pc_held = 0, expected = 0, active = 0, steps = 0, wins = 0;
    for (int draw = 0; draw < draws; ++draw) {
      const Samples data = measure(truth, *c.trajectory, c.periods, c.per_period, torque_std,
                                   position_std, gen);
      const RobotIdentification<Arm> id = identify(truth, bp, data);
      const BaseEstimate ls = id.least_squares();
      const ConsistentEstimate<Arm> pc = id.physically_consistent(prior);
      // the error the noise alone predicts on the held-out motion: sqrt(tr(W_h C W_h^T) / rows)
      double e = 0.0;
      for (std::size_t k = 0; k < held_out.q.size(); ++k) {
        const Eigen::MatrixXd wh = id.base_regressor(held_out.q[k], held_out.qd[k], held_out.qdd[k]);
        e += (wh * ls.covariance * wh.transpose()).trace();
      }
      expected += std::sqrt(e / double(held_out.q.size() * n)) / draws;
      const auto train_rms = [&](const Eigen::VectorXd& base) {
        double sum = 0.0;
        for (std::size_t k = 0; k < data.q.size(); ++k) {
          const Vector err = id.base_regressor(data.q[k], data.qd[k], data.qdd[k]) * base -
                             rnea(truth, data.q[k], data.qd[k], data.qdd[k]);
          sum += err.squaredNorm();
        }
        return std::sqrt(sum / double(data.q.size() * n));
      };
      const double lh = torque_rms(truth, held_out, [&](const Vector& q, const Vector& qd, const Vector& qdd) {
        return Vector(id.base_regressor(q, qd, qdd) * ls.base);
      });
      // the consistent robot predicts with its own rnea (standard parameters, the full model)
      const double ph = torque_rms(truth, held_out, [&](const Vector& q, const Vector& qd, const Vector& qdd) {
        return rnea(pc.model, q, qd, qdd);
      });
      double paths = 0.0;  // rnea of the consistent robot vs its base-regressor torques
      for (std::size_t k = 0; k < held_out.q.size(); k += 50) {
        const Vector x = rnea(pc.model, held_out.q[k], held_out.qd[k], held_out.qdd[k]);
        const Vector y = id.base_regressor(held_out.q[k], held_out.qd[k], held_out.qdd[k]) * pc.base;
        paths = std::max(paths, (x - y).cwiseAbs().maxCoeff() / x.cwiseAbs().maxCoeff());
      }
      const Eigen::VectorXd ld = ls.base - truth_base, pd = pc.base - truth_base;
      cond += ls.condition_number / draws;
      ls_err += ld.norm() / truth_base.norm() / draws;
      pc_err += pd.norm() / truth_base.norm() / draws;
      ls_sd = std::max(ls_sd, ld.cwiseQuotient(ls.standard_deviation).cwiseAbs().maxCoeff());
      pc_sd = std::max(pc_sd, pd.cwiseQuotient(ls.standard_deviation).cwiseAbs().maxCoeff());
      ls_train += train_rms(ls.base) / draws;
      pc_train += train_rms(pc.base) / draws;
      ls_held += lh / draws;
      pc_held += ph / draws;
      wins += ph < lh ? 1 : 0;
      // the constraints changed the fit: the least-squares base parameters are not those of a
      // physical robot
      active += (pc.base - ls.base).norm() > 1e-4 * ls.base.norm() ? 1 : 0;
      steps += double(pc.newton_steps) / draws;
      const Eigen::VectorXd joints = pc.standard.tail(3 * n);
      check(pc.converged && pc.smallest_margin > 0.0 && joints.minCoeff() >= 0.0,
            "the consistent robot is physical (and the barrier method converged)");
      check(paths < 1e-9, "rnea of the consistent robot equals its base-regressor torques");
      check(lh < 3.0 * std::sqrt(e / double(held_out.q.size() * n)) &&
                ph < 3.0 * std::sqrt(e / double(held_out.q.size() * n)),
            "held-out torque errors within three times the noise's prediction");
    }
    std::printf("  %-30s %-14s %6.1f %11.2e %11.2f %9.4f %9.4f %9.4f\n", c.name, "least squares", cond,
                ls_err, ls_sd, ls_train, ls_held, expected);
    std::printf("  %-30s %-14s %6s %11.2e %11.2f %9.4f %9.4f %9s %4.0f/%d %6.0f %4.0f/%d\n", "",
                "consistent", "", pc_err, pc_sd, pc_train, pc_held, "", active, draws, steps, wins,
                draws);
  }
  std::printf("  (max|dpi|/sd: the worst base-parameter error in standard deviations of the "
              "least-squares fit, over the draws;\n   active: draws whose least-squares estimate "
              "is not a physical robot; steps: Newton steps of the barrier method;\n   better: draws in "
              "which the consistent robot's held-out error is the smaller)\n");
  if (!ok) return 1;
  std::printf("\nAll checks passed.\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "robot_identification: %s\n", e.what());
  return 1;
}
