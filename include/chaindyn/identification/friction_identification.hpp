/// @file
/// Identification of joint friction from torque data: the Stribeck static map from
/// (velocity, torque) pairs measured at constant velocities, and the LuGre bristle stiffness and
/// damping from pre-sliding motion.
///
/// Stribeck map: the model F(v) = sign(v) (Fc (1 - e(v)) + Fs e(v)) + Fv v with
/// e(v) = exp(-|v / vs|^delta) is linear in (Fc, Fs, Fv) once vs is fixed. The fit is separable
/// nonlinear least squares (G. H. Golub and V. Pereyra, "The differentiation of pseudo-inverses
/// and nonlinear least squares problems whose variables separate", SIAM J. Numer. Anal. 10
/// (1973) 413-432): the residual of the linear least-squares solution, a function of vs alone,
/// is minimised over vs, on a logarithmic grid then by golden-section search.
///
/// LuGre pre-sliding: at displacements well below Fs / sigma0 the bristles follow the motion,
/// z ~ x - x0 and zdot ~ v (Canudas de Wit et al. 1995, sec. II), so F ~ sigma0 (x - x0) +
/// (sigma1 + sigma2) v: linear least squares in (sigma0, sigma1 + sigma2, sigma0 x0).
#pragma once

#include "chaindyn/algorithms/friction_models.hpp"
#include "chaindyn/error.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <vector>

namespace chaindyn {

/// The result of identify_stribeck: the parameters, and the RMS of the residual torque.
struct StribeckFit {
  StribeckParameters<double> parameters;
  double rms_residual = 0;
};

namespace detail {

/// The linear least-squares fit of (Fc, Fs, Fv) for a fixed vs: its residual norm squared.
/// (The fits of this header are templates only so that a translation unit that includes the
/// header without calling them does not compile their QR solves.)
template <typename = void>
double stribeck_linear_fit(const std::vector<double>& v, const std::vector<double>& tau,
                                  double vs, double delta, Eigen::Vector3d& theta) {
  const auto m = Eigen::Index(v.size());
  Eigen::MatrixXd a(m, 3);
  Eigen::VectorXd b(m);
  for (Eigen::Index k = 0; k < m; ++k) {
    const double x = v[std::size_t(k)];
    const double s = x > 0 ? 1.0 : -1.0;
    const double e = std::exp(-std::pow(std::abs(x / vs), delta));
    a(k, 0) = s * (1 - e);
    a(k, 1) = s * e;
    a(k, 2) = x;
    b[k] = tau[std::size_t(k)];
  }
  theta = a.colPivHouseholderQr().solve(b);
  // the residual evaluated into a vector first: g++ 12 warns (-Wuse-after-free, a false
  // positive) on the product's temporary inside squaredNorm's reduction
  Eigen::VectorXd r = a * theta;
  r -= b;
  return r.squaredNorm();
}

}  // namespace detail

/// Fits a Stribeck static map to torques tau[k] measured at constant velocities v[k] (nonzero;
/// both directions may be mixed), with the shape exponent delta given (2 by default). Returns
/// Fc, Fs, Fv, vs (vs searched between the smallest and the largest |v|). Throws ArgumentError
/// for fewer than 4 samples, sizes that differ, a zero or non-finite velocity or torque.
template <typename = void>
StribeckFit identify_stribeck(const std::vector<double>& v, const std::vector<double>& tau,
                              double delta = 2) {
  const char* f = "identify_stribeck";
  if (v.size() != tau.size() || v.size() < 4) {
    detail::throw_error<ArgumentError>(f, ": needs at least 4 (velocity, torque) pairs of equal "
                                       "count; given ", v.size(), " and ", tau.size());
  }
  double lo = INFINITY, hi = 0;
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (!std::isfinite(v[k]) || !std::isfinite(tau[k]) || v[k] == 0) {
      detail::throw_error<ArgumentError>(f, ": sample ", k, " (v = ", v[k], ", tau = ", tau[k],
                                         ") is not finite or at zero velocity");
    }
    lo = std::min(lo, std::abs(v[k]));
    hi = std::max(hi, std::abs(v[k]));
  }
  Eigen::Vector3d theta;
  const auto cost = [&](double log_vs) {
    return detail::stribeck_linear_fit(v, tau, std::exp(log_vs), delta, theta);
  };
  // grid on log vs, then golden-section search around the best grid point
  const int grid = 80;
  const double a0 = std::log(lo), a1 = std::log(hi);
  int best = 0;
  double best_cost = INFINITY;
  for (int i = 0; i <= grid; ++i) {
    const double c = cost(a0 + (a1 - a0) * i / grid);
    if (c < best_cost) best_cost = c, best = i;
  }
  const double step = (a1 - a0) / grid;
  double left = a0 + (best - 1) * step, right = a0 + (best + 1) * step;
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double x1 = right - ratio * (right - left), x2 = left + ratio * (right - left);
  double c1 = cost(x1), c2 = cost(x2);
  for (int it = 0; it < 80; ++it) {
    if (c1 < c2) {
      right = x2, x2 = x1, c2 = c1;
      x1 = right - ratio * (right - left), c1 = cost(x1);
    } else {
      left = x1, x1 = x2, c1 = c2;
      x2 = left + ratio * (right - left), c2 = cost(x2);
    }
  }
  const double vs = std::exp((left + right) / 2);
  const double residual = detail::stribeck_linear_fit(v, tau, vs, delta, theta);
  StribeckFit fit;
  fit.parameters.coulomb = theta[0];
  fit.parameters.static_friction = theta[1];
  fit.parameters.viscous = theta[2];
  fit.parameters.stribeck_velocity = vs;
  fit.parameters.exponent = delta;
  fit.rms_residual = std::sqrt(residual / double(v.size()));
  return fit;
}

/// The result of identify_lugre_presliding: the bristle stiffness sigma0 and the sum
/// sigma1 + sigma2 (subtract the static map's sigma2 = Fv for sigma1).
struct LuGrePreslidingFit {
  double sigma0 = 0;
  double damping = 0;  ///< sigma1 + sigma2
  double rms_residual = 0;
};

/// Fits F ~ sigma0 (x - x0) + (sigma1 + sigma2) v to friction torques F[k] at displacements
/// x[k] and velocities v[k] of a pre-sliding motion (amplitudes well below Fs / sigma0; the
/// relative bias of the fit is of the order of sigma0 |x - x0| / Fc). Throws ArgumentError for
/// fewer than 3 samples or sizes that differ.
template <typename = void>
LuGrePreslidingFit identify_lugre_presliding(const std::vector<double>& x,
                                             const std::vector<double>& v,
                                             const std::vector<double>& friction) {
  if (x.size() != v.size() || x.size() != friction.size() || x.size() < 3) {
    detail::throw_error<ArgumentError>("identify_lugre_presliding: needs at least 3 samples of "
                                       "x, v and F of equal count; given ", x.size(), ", ",
                                       v.size(), ", ", friction.size());
  }
  const auto m = Eigen::Index(x.size());
  Eigen::MatrixXd a(m, 3);
  Eigen::VectorXd b(m);
  for (Eigen::Index k = 0; k < m; ++k) {
    a(k, 0) = x[std::size_t(k)];
    a(k, 1) = v[std::size_t(k)];
    a(k, 2) = 1;
    b[k] = friction[std::size_t(k)];
  }
  const Eigen::Vector3d theta = a.colPivHouseholderQr().solve(b);
  LuGrePreslidingFit fit;
  fit.sigma0 = theta[0];
  fit.damping = theta[1];
  Eigen::VectorXd r = a * theta;  // (see stribeck_linear_fit)
  r -= b;
  fit.rms_residual = std::sqrt(r.squaredNorm() / double(m));
  return fit;
}

}  // namespace chaindyn
