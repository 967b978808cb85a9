/// @file
/// Excitation trajectories for the identification of a whole robot: periodic finite Fourier
/// series per joint (Swevers, Ganseman, Tukel, De Schutter & Van Brussel, "Optimal robot
/// excitation and identification", IEEE Trans. Robotics and Automation 13(5), 1997, eq. (9)),
/// within the joints' position, velocity and acceleration limits, optimised for the condition
/// number of the base regressor (base_parameters.hpp) stacked over one period.
///
///     q_i(t)   = q_i0 + sum_{l=1..L} a_il / (w_f l) sin(w_f l t) - b_il / (w_f l) cos(w_f l t)
///     qd_i(t)  =        sum_{l=1..L} a_il cos(w_f l t) + b_il sin(w_f l t)
///     qdd_i(t) =        sum_{l=1..L} -a_il w_f l sin(w_f l t) + b_il w_f l cos(w_f l t)
///
/// The trajectory is periodic (period 2 pi / w_f) and band-limited to L w_f, so that the
/// measurements can be averaged over periods and q differentiated exactly in the frequency
/// domain (Swevers et al. 1997, sec. IV), and the motion excites no high-frequency dynamics.
///
/// The optimisation: minimise cond(W_b) = sigma_max / sigma_min of the base regressor W_b at
/// `samples` instants of one period, over the offsets q_i0 and the 2 L N coefficients, subject
/// to the limits. Swevers et al. solve it by SQP with the constraints on the sampled
/// trajectory; here a derivative-free, deterministic compass search (Kolda, Lewis & Torczon,
/// "Optimization by direct search", SIAM Review 45(3), 2003, sec. 3: poll +-step along each
/// coordinate, halve the step when no poll improves) from the best of `starts` seeded random
/// trajectories. The limits are kept by construction: every candidate is mapped onto the
/// feasible set before it is evaluated (fit_to_limits: the offset clamped into the position
/// range, then each joint's coefficients scaled by one factor so that its extremes on a dense
/// grid of `check_samples` instants per period stay within `margin` times the limits; the
/// scaling is exact because q - q0, qd and qdd are linear in the coefficients).
///
/// The cost is not smooth (the Coulomb friction columns are sign(qd); the condition number is a
/// max/min of singular values), which is why a direct search is used, and it has many local
/// minima: the result is a good trajectory, not the optimal one. Not a real-time tool: it
/// allocates and throws on bad arguments.
#pragma once

#include "chaindyn/identification/base_parameters.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace chaindyn {

/// A finite Fourier series per joint (see the file comment): N joints, L = a.cols() harmonics
/// of the base frequency w_f (rad/s). a and b are N x L, in rad/s (m/s for a prism).
template <int N>
struct FourierTrajectory {
  using Vector = Eigen::Matrix<double, N, 1>;
  using Coefficients = Eigen::Matrix<double, N, Eigen::Dynamic>;

  double base_frequency = 0.0;          ///< w_f (rad/s); the period is 2 pi / w_f
  Vector offset = Vector::Zero();       ///< q_i0, the mean position
  Coefficients a = Coefficients(N, 0);  ///< a_il, the cosine terms of qd
  Coefficients b = Coefficients(N, 0);  ///< b_il, the sine terms of qd

  double period() const noexcept { return 2.0 * 3.14159265358979323846 / base_frequency; }
  Eigen::Index harmonics() const noexcept { return a.cols(); }

  /// q, qd and qdd at time t (s), the series above. No allocation.
  void evaluate(double t, Vector& q, Vector& qd, Vector& qdd) const noexcept {
    q = offset;
    qd.setZero();
    qdd.setZero();
    for (Eigen::Index l = 0; l < a.cols(); ++l) {
      const double w = base_frequency * double(l + 1);
      const double s = std::sin(w * t), c = std::cos(w * t);
      q += (a.col(l) * s - b.col(l) * c) / w;
      qd += a.col(l) * c + b.col(l) * s;
      qdd += (b.col(l) * c - a.col(l) * s) * w;
    }
  }
};

/// Joint limits an excitation trajectory must respect: lower <= q <= upper, |qd| <= velocity,
/// |qdd| <= acceleration (rad, rad/s, rad/s^2; m for prisms).
template <int N>
struct ExcitationLimits {
  using Vector = Eigen::Matrix<double, N, 1>;
  Vector lower, upper, velocity, acceleration;
};

/// Settings of optimise_excitation (the defaults are the iiwa example's).
struct ExcitationOptions {
  int harmonics = 5;                 ///< L
  double base_frequency = 0.2 * 3.14159265358979323846;  ///< w_f (rad/s): a 10 s period
  int samples = 100;                 ///< instants per period at which W_b is stacked
  int check_samples = 1000;          ///< instants per period at which the limits are checked
  double margin = 0.95;              ///< the trajectory stays within margin x the limits
  int starts = 20;                   ///< seeded random trajectories; the best one is refined
  int max_evaluations = 4000;        ///< of the condition number, the starts included
  double initial_step = 0.25;        ///< compass step, relative to each variable's scale
  double minimum_step = 1e-3;        ///< stop when the step falls below it (relative)
  std::uint32_t seed = 1997u;
};

/// What optimise_excitation found.
template <int N>
struct ExcitationResult {
  FourierTrajectory<N> trajectory;  ///< the optimised one
  FourierTrajectory<N> initial;     ///< the best of the random starts, before refinement
  double initial_condition = 0.0;   ///< cond(W_b) of `initial`
  double condition = 0.0;           ///< cond(W_b) of `trajectory`
  double median_start_condition = 0.0;  ///< the median over the random starts
  int evaluations = 0;
};

namespace detail {

/// Throws ArgumentError unless every joint's limits are finite, lower < upper and the rates
/// positive. `who` names the caller.
template <int N>
void check_excitation_limits(const ExcitationLimits<N>& limits, const char* who) {
  for (int i = 0; i < N; ++i) {
    if (!(limits.lower[i] < limits.upper[i]) || !(limits.velocity[i] > 0.0) ||
        !(limits.acceleration[i] > 0.0) || !std::isfinite(limits.lower[i]) ||
        !std::isfinite(limits.upper[i]) || !std::isfinite(limits.velocity[i]) ||
        !std::isfinite(limits.acceleration[i])) {
      throw_error<ArgumentError>(who, ": joint ", i, "'s limits (lower ", limits.lower[i],
                                 ", upper ", limits.upper[i], ", velocity ", limits.velocity[i],
                                 ", acceleration ", limits.acceleration[i],
                                 ") must be finite with lower < upper and positive rates");
    }
  }
}

/// Throws ArgumentError unless the options and limits are usable.
template <int N>
void check_excitation_arguments(const ExcitationLimits<N>& limits, const ExcitationOptions& o) {
  if (o.harmonics < 1 || o.samples < 1 || o.check_samples < 4 * o.harmonics || o.starts < 1 ||
      o.max_evaluations < o.starts || !(o.base_frequency > 0.0) || !(o.margin > 0.0 && o.margin <= 1.0) ||
      !(o.initial_step > 0.0) || !(o.minimum_step > 0.0)) {
    throw_error<ArgumentError>(
        "optimise_excitation: invalid ExcitationOptions (need harmonics >= 1, samples >= 1, "
        "check_samples >= 4 harmonics, starts >= 1, max_evaluations >= starts, base_frequency > "
        "0, margin in (0, 1], steps > 0)");
  }
  check_excitation_limits(limits, "optimise_excitation");
}

/// Throws ArgumentError unless fit_to_limits' arguments are usable: the limits as above, a
/// finite positive base frequency, N x L coefficients that are finite, a margin in (0, 1] and
/// check_samples >= 1.
template <int N>
void check_fit_arguments(const FourierTrajectory<N>& t, const ExcitationLimits<N>& limits,
                         double margin, int check_samples) {
  if (!(t.base_frequency > 0.0) || !std::isfinite(t.base_frequency)) {
    throw_error<ArgumentError>("fit_to_limits: the trajectory's base_frequency must be finite "
                               "and > 0, got ", t.base_frequency);
  }
  if (t.a.rows() != N || t.b.rows() != N || t.a.cols() != t.b.cols()) {
    throw_error<ArgumentError>("fit_to_limits: the coefficients a (", t.a.rows(), " x ",
                               t.a.cols(), ") and b (", t.b.rows(), " x ", t.b.cols(),
                               ") must both be ", N, " x L");
  }
  if (!t.offset.allFinite() || !t.a.allFinite() || !t.b.allFinite()) {
    throw_error<ArgumentError>("fit_to_limits: the trajectory has a number that is not finite");
  }
  if (!(margin > 0.0 && margin <= 1.0)) {
    throw_error<ArgumentError>("fit_to_limits: margin must be in (0, 1], got ", margin);
  }
  if (check_samples < 1) {
    throw_error<ArgumentError>("fit_to_limits: check_samples must be >= 1, got ", check_samples);
  }
  check_excitation_limits(limits, "fit_to_limits");
}

/// sin(w_f l t_k) and cos(w_f l t_k) at `count` instants t_k = k T / count of one period:
/// count x L tables, so that a trajectory's samples are matrix products.
struct FourierTables {
  Eigen::MatrixXd sine, cosine;
  Eigen::RowVectorXd frequency;  ///< w_f l
  FourierTables(int harmonics, double base_frequency, int count)
      : sine(count, harmonics), cosine(count, harmonics), frequency(harmonics) {
    const double period = 2.0 * 3.14159265358979323846 / base_frequency;
    for (int l = 0; l < harmonics; ++l) {
      frequency[l] = base_frequency * double(l + 1);
      for (int k = 0; k < count; ++k) {
        const double t = period * double(k) / double(count);
        sine(k, l) = std::sin(frequency[l] * t);
        cosine(k, l) = std::cos(frequency[l] * t);
      }
    }
  }
};

}  // namespace detail

/// Maps a trajectory onto the limits (see the file comment): each offset clamped into the
/// position range shrunk by `margin` about its middle, then each joint's coefficients scaled
/// by the largest factor <= 1 that keeps q, qd and qdd within margin x the limits at
/// `check_samples` instants of one period. A trajectory already inside is unchanged. Throws
/// ArgumentError on unusable arguments (limits not finite or empty, margin outside (0, 1],
/// check_samples < 1, a base frequency that is not finite and positive).
template <int N>
FourierTrajectory<N> fit_to_limits(FourierTrajectory<N> trajectory, const ExcitationLimits<N>& limits,
                                   double margin = 0.95, int check_samples = 1000) {
  detail::check_fit_arguments(trajectory, limits, margin, check_samples);
  const detail::FourierTables tables(int(trajectory.harmonics()), trajectory.base_frequency,
                                     check_samples);
  for (int i = 0; i < N; ++i) {
    const double middle = 0.5 * (limits.lower[i] + limits.upper[i]);
    const double half = 0.5 * margin * (limits.upper[i] - limits.lower[i]);
    const double lo = middle - half, hi = middle + half;
    trajectory.offset[i] = std::clamp(trajectory.offset[i], lo, hi);
    const Eigen::RowVectorXd ai = trajectory.a.row(i), bi = trajectory.b.row(i);
    // q - q0, qd, qdd at the check instants (count x 1)
    const Eigen::VectorXd dq = tables.sine * ai.cwiseQuotient(tables.frequency).transpose() -
                               tables.cosine * bi.cwiseQuotient(tables.frequency).transpose();
    const Eigen::VectorXd qd = tables.cosine * ai.transpose() + tables.sine * bi.transpose();
    const Eigen::VectorXd qdd = tables.cosine * bi.cwiseProduct(tables.frequency).transpose() -
                                tables.sine * ai.cwiseProduct(tables.frequency).transpose();
    double s = 1.0;
    if (dq.maxCoeff() > 0.0) s = std::min(s, (hi - trajectory.offset[i]) / dq.maxCoeff());
    if (dq.minCoeff() < 0.0) s = std::min(s, (lo - trajectory.offset[i]) / dq.minCoeff());
    const double vmax = qd.cwiseAbs().maxCoeff(), amax = qdd.cwiseAbs().maxCoeff();
    if (vmax > 0.0) s = std::min(s, margin * limits.velocity[i] / vmax);
    if (amax > 0.0) s = std::min(s, margin * limits.acceleration[i] / amax);
    s = std::max(s, 0.0);
    trajectory.a.row(i) *= s;
    trajectory.b.row(i) *= s;
  }
  return trajectory;
}

/// cond(W_b) = sigma_max / sigma_min of the base regressor of `model` stacked at `samples`
/// instants of one period of `trajectory` (infinity when W_b is rank-deficient). The columns
/// are bp's base columns of regressor_with_joint_dynamics (or of regressor when
/// !bp.joint_dynamics). Computed from the eigenvalues of W_b^T W_b (r x r), adequate up to
/// cond ~ 1e7. Throws ArgumentError when bp was not made for this model's size.
template <typename Model>
double excitation_condition_number(const Model& model, const BaseParameters& bp,
                                   const FourierTrajectory<Model::nq>& trajectory, int samples) {
  constexpr int n = Model::nq;
  const Eigen::Index p = (bp.joint_dynamics ? 13 : kInertialParametersPerLink) * n;
  if (bp.columns != p || samples < 1) {
    detail::throw_error<ArgumentError>("excitation_condition_number: the BaseParameters have ",
                                       bp.columns, " columns, this model needs ", p,
                                       " (samples ", samples, " must be >= 1)");
  }
  using Vector = typename Model::Vector;
  Data<Model>& data = detail::thread_workspace(model);
  RegressorWithJointDynamicsMatrix<Model> yj;
  RegressorMatrix<Model> y;
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(bp.rank, bp.rank);
  Eigen::MatrixXd yb(n, bp.rank);
  Vector q, qd, qdd;
  for (int k = 0; k < samples; ++k) {
    trajectory.evaluate(trajectory.period() * double(k) / double(samples), q, qd, qdd);
    if (bp.joint_dynamics) {
      regressor_with_joint_dynamics(model, data, q, qd, qdd, yj);
      for (Eigen::Index c = 0; c < bp.rank; ++c) yb.col(c) = yj.col(bp.base[std::size_t(c)]);
    } else {
      regressor(model, data, q, qd, qdd, y);
      for (Eigen::Index c = 0; c < bp.rank; ++c) yb.col(c) = y.col(bp.base[std::size_t(c)]);
    }
    gram.selfadjointView<Eigen::Lower>().rankUpdate(yb.transpose());
  }
  const Eigen::VectorXd ev =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(gram.selfadjointView<Eigen::Lower>(),
                                                     Eigen::EigenvaluesOnly)
          .eigenvalues();
  if (!(ev[0] > 0.0)) return std::numeric_limits<double>::infinity();
  return std::sqrt(ev[ev.size() - 1] / ev[0]);
}

/// An excitation trajectory for `model` within `limits`, optimised for the condition number of
/// bp's base regressor (see the file comment). Deterministic: the same arguments give the same
/// trajectory. Cost: (starts + evaluations) x samples regressors. Throws ArgumentError on
/// invalid limits or options.
template <typename Model>
ExcitationResult<Model::nq> optimise_excitation(const Model& model, const BaseParameters& bp,
                                                const ExcitationLimits<Model::nq>& limits,
                                                const ExcitationOptions& options = {}) {
  constexpr int n = Model::nq;
  detail::check_excitation_arguments(limits, options);
  const int L = options.harmonics;
  using Trajectory = FourierTrajectory<n>;
  // The variables: x = (offsets, a, b), each with a scale (its step at relative step 1): the
  // half position range for an offset, velocity limit / L for a coefficient.
  const Eigen::Index dims = n + 2 * Eigen::Index(n) * L;
  Eigen::VectorXd scale(dims);
  for (int i = 0; i < n; ++i) {
    scale[i] = 0.5 * (limits.upper[i] - limits.lower[i]);
    for (int l = 0; l < L; ++l) {
      scale[n + i * L + l] = scale[n + n * L + i * L + l] = limits.velocity[i] / double(L);
    }
  }
  const auto to_trajectory = [&](const Eigen::VectorXd& x) {
    Trajectory t;
    t.base_frequency = options.base_frequency;
    t.offset = x.head(n);
    t.a.resize(n, L);
    t.b.resize(n, L);
    for (int i = 0; i < n; ++i) {
      for (int l = 0; l < L; ++l) {
        t.a(i, l) = x[n + i * L + l];
        t.b(i, l) = x[n + n * L + i * L + l];
      }
    }
    return fit_to_limits(t, limits, options.margin, options.check_samples);
  };
  const auto to_vector = [&](const Trajectory& t) {
    Eigen::VectorXd x(dims);
    x.head(n) = t.offset;
    for (int i = 0; i < n; ++i) {
      for (int l = 0; l < L; ++l) {
        x[n + i * L + l] = t.a(i, l);
        x[n + n * L + i * L + l] = t.b(i, l);
      }
    }
    return x;
  };
  ExcitationResult<n> out;
  const auto cost = [&](const Trajectory& t) {
    ++out.evaluations;
    return excitation_condition_number(model, bp, t, options.samples);
  };
  // Random starts: offsets uniform in the middle half of the range, coefficients uniform in
  // +-scale.
  std::mt19937 gen(options.seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> start_costs;
  Eigen::VectorXd best_x;
  Trajectory best_t;
  double best = std::numeric_limits<double>::infinity();
  for (int s = 0; s < options.starts; ++s) {
    Eigen::VectorXd x(dims);
    for (Eigen::Index k = 0; k < dims; ++k) x[k] = scale[k] * unit(gen);
    // offsets in the middle half of the range, so that the joint has room to move
    for (int i = 0; i < n; ++i) x[i] = 0.5 * (limits.lower[i] + limits.upper[i]) + 0.5 * x[i];
    const Trajectory t = to_trajectory(x);
    const double c = cost(t);
    start_costs.push_back(c);
    if (c < best || s == 0) {
      best = c;
      best_t = t;
      best_x = to_vector(t);
    }
  }
  std::nth_element(start_costs.begin(), start_costs.begin() + std::ptrdiff_t(start_costs.size() / 2),
                   start_costs.end());
  out.median_start_condition = start_costs[start_costs.size() / 2];
  out.initial = best_t;
  out.initial_condition = best;
  // Compass search: poll x +- step scale_k e_k, one coordinate after the other, moving to any
  // improvement (projected onto the limits); halve the step after a sweep without one.
  double step = options.initial_step;
  while (step >= options.minimum_step && out.evaluations < options.max_evaluations) {
    bool improved = false;
    for (Eigen::Index k = 0; k < dims && out.evaluations < options.max_evaluations; ++k) {
      for (const double sign : {1.0, -1.0}) {
        if (out.evaluations >= options.max_evaluations) break;
        Eigen::VectorXd x = best_x;
        x[k] += sign * step * scale[k];
        const Trajectory t = to_trajectory(x);
        const double c = cost(t);
        if (c < best) {
          best = c;
          best_t = t;
          best_x = to_vector(t);
          improved = true;
          break;
        }
      }
    }
    if (!improved) step *= 0.5;
  }
  out.trajectory = best_t;
  out.condition = best;
  return out;
}

}  // namespace chaindyn
