/// @file
/// Joint friction models beyond viscous + Coulomb (friction.hpp): the Stribeck static map with
/// a smooth regularisation for simulation, and the LuGre dynamic model with its internal state.
///
/// Stribeck map (B. Armstrong-Helouvry, P. Dupont, C. Canudas de Wit, "A survey of models,
/// analysis tools and compensation methods for the control of machines with friction",
/// Automatica 30 (1994) 1083-1138, eq. (4)):
///
///     g(v) = Fc + (Fs - Fc) exp(-|v / vs|^delta),   F(v) = g(v) sign(v) + Fv v
///
/// LuGre (C. Canudas de Wit, H. Olsson, K. J. Astrom, P. Lischinsky, "A new model for control
/// of systems with friction", IEEE TAC 40 (1995) 419-425, eqs. (2)-(4)): the average deflection
/// z of the contact's bristles obeys
///
///     zdot = v - sigma0 |v| z / g(v),   F = sigma0 z + sigma1 zdot + sigma2 v
///
/// At constant v, z settles at g(v) sign(v) / sigma0 and F at the Stribeck map with Fv = sigma2
/// (eq. (6)); at small displacements the contact is a spring of stiffness sigma0 (pre-sliding).
#pragma once

#include "chaindyn/error.hpp"
#include "chaindyn/model/per_link.hpp"

#include <cmath>

namespace chaindyn {

/// The parameters of a Stribeck map: Coulomb level Fc, static (break-away) level Fs >= Fc,
/// viscous coefficient Fv, Stribeck velocity vs > 0, shape exponent delta (2: Gaussian, the
/// usual choice; 1: Tustin's exponential), and the regularisation velocity eps of
/// stribeck_friction (sign(v) replaced by tanh(v / eps)). SI units of the joint: N m (or N),
/// N m s/rad, rad/s.
template <typename Scalar>
struct StribeckParameters {
  Scalar coulomb = Scalar(0);          ///< Fc
  Scalar static_friction = Scalar(0);  ///< Fs
  Scalar viscous = Scalar(0);          ///< Fv
  Scalar stribeck_velocity = Scalar(0.01);  ///< vs
  Scalar exponent = Scalar(2);         ///< delta
  Scalar regularization = Scalar(1e-4);  ///< eps (stribeck_friction only)
};

/// Throws ModelError unless 0 <= Fc <= Fs, Fv >= 0, vs > 0, delta > 0, eps > 0, all finite.
template <typename Scalar>
void validate(const StribeckParameters<Scalar>& p) {
  using std::isfinite;
  const double fc = double(p.coulomb), fs = double(p.static_friction), fv = double(p.viscous),
               vs = double(p.stribeck_velocity), d = double(p.exponent),
               e = double(p.regularization);
  if (!(isfinite(fc) && isfinite(fs) && isfinite(fv) && isfinite(vs) && isfinite(d) &&
        isfinite(e) && fc >= 0 && fs >= fc && fv >= 0 && vs > 0 && d > 0 && e > 0)) {
    detail::throw_model_error("Stribeck parameters need 0 <= Fc <= Fs, Fv >= 0, vs > 0, "
                              "delta > 0, eps > 0 (finite); given Fc = ", fc, ", Fs = ", fs,
                              ", Fv = ", fv, ", vs = ", vs, ", delta = ", d, ", eps = ", e);
  }
}

/// g(v) = Fc + (Fs - Fc) exp(-|v / vs|^delta): the magnitude of the Stribeck curve without the
/// viscous term.
template <typename Scalar>
Scalar stribeck_curve(const StribeckParameters<Scalar>& p, const Scalar& v) noexcept {
  using std::abs;
  using std::exp;
  using std::pow;
  const Scalar r = abs(v / p.stribeck_velocity);
  const Scalar shape = p.exponent == Scalar(2) ? r * r : pow(r, p.exponent);
  return p.coulomb + (p.static_friction - p.coulomb) * exp(-shape);
}

/// The static map F(v) = g(v) sign(v) + Fv v, sign(0) = 0 (the steady-state friction at
/// velocity v; at rest friction is whatever holds the joint, up to Fs).
template <typename Scalar>
Scalar stribeck_static_map(const StribeckParameters<Scalar>& p, const Scalar& v) noexcept {
  const Scalar s = v > Scalar(0) ? Scalar(1) : v < Scalar(0) ? Scalar(-1) : Scalar(0);
  return stribeck_curve(p, v) * s + p.viscous * v;
}

/// The regularised map for simulation, g(v) tanh(v / eps) + Fv v: smooth, so that an ODE
/// integrator sees no switch at v = 0 (at the price of a creep |v| ~ eps under a load below Fs).
/// Equal to the static map to within g(v) 2 exp(-2 |v| / eps) away from zero.
template <typename Scalar>
Scalar stribeck_friction(const StribeckParameters<Scalar>& p, const Scalar& v) noexcept {
  using std::tanh;
  return stribeck_curve(p, v) * tanh(v / p.regularization) + p.viscous * v;
}

/// The LuGre parameters: bristle stiffness sigma0 (N m/rad), bristle damping sigma1
/// (N m s/rad), viscous coefficient sigma2 (N m s/rad), and the Stribeck curve g(v) (its Fc, Fs,
/// vs and delta; its viscous and regularisation fields are not used).
template <typename Scalar>
struct LuGreParameters {
  Scalar sigma0 = Scalar(1e4);
  Scalar sigma1 = Scalar(100);
  Scalar sigma2 = Scalar(0);
  StribeckParameters<Scalar> curve;

  /// The static map this model settles to: the curve with Fv = sigma2.
  StribeckParameters<Scalar> static_map() const noexcept {
    StribeckParameters<Scalar> p = curve;
    p.viscous = sigma2;
    return p;
  }
};

/// zdot = v - sigma0 |v| z / g(v)                                   (Canudas de Wit 1995, eq. (2))
template <typename Scalar>
Scalar lugre_state_rate(const LuGreParameters<Scalar>& p, const Scalar& v,
                        const Scalar& z) noexcept {
  using std::abs;
  return v - p.sigma0 * abs(v) * z / stribeck_curve(p.curve, v);
}

/// F = sigma0 z + sigma1 zdot + sigma2 v                            (Canudas de Wit 1995, eq. (3))
template <typename Scalar>
Scalar lugre_friction(const LuGreParameters<Scalar>& p, const Scalar& v, const Scalar& z) noexcept {
  return p.sigma0 * z + p.sigma1 * lugre_state_rate(p, v, z) + p.sigma2 * v;
}

/// One LuGre model per joint of a model, for joint friction with state: the joint velocities qd
/// and bristle states z give the friction torques and the state rates,
/// in place (friction, zdot: joint vectors), noexcept, no allocation.
template <typename Model>
struct LuGreJoints {
  using Scalar = typename Model::Scalar;
  PerLinkArray<LuGreParameters<Scalar>, Model::nq> joints;

  /// The same parameters on every joint; ModelError unless sigma0 > 0, sigma1, sigma2 >= 0
  /// and the curve is valid with Fc > 0 (g(v) > 0 divides).
  explicit LuGreJoints(const Model& model, const LuGreParameters<Scalar>& each) {
    validate(each);
    detail::resize_per_link(joints, detail::joint_count(model));
    for (auto& j : joints) j = each;
  }

  static void validate(const LuGreParameters<Scalar>& p) {
    chaindyn::validate(p.curve);
    using std::isfinite;
    if (!(isfinite(double(p.sigma0)) && isfinite(double(p.sigma1)) &&
          isfinite(double(p.sigma2)) && p.sigma0 > Scalar(0) && p.sigma1 >= Scalar(0) &&
          p.sigma2 >= Scalar(0) && p.curve.coulomb > Scalar(0))) {
      detail::throw_model_error("LuGre parameters need sigma0 > 0, sigma1 >= 0, sigma2 >= 0 and "
                                "Fc > 0; given sigma0 = ", double(p.sigma0), ", sigma1 = ",
                                double(p.sigma1), ", sigma2 = ", double(p.sigma2), ", Fc = ",
                                double(p.curve.coulomb));
    }
  }

  template <typename V, typename Out>
  void torques(const V& qd, const V& z, Out& friction, Out& zdot) const noexcept {
    for (Eigen::Index i = 0; i < qd.size(); ++i) {
      const auto& p = joints[std::size_t(i)];
      zdot[i] = lugre_state_rate(p, qd[i], z[i]);
      friction[i] = p.sigma0 * z[i] + p.sigma1 * zdot[i] + p.sigma2 * qd[i];
    }
  }
};

}  // namespace chaindyn
