/// @file
/// The one-link arm (compound pendulum): one rigid link about a horizontal joint, in
/// Lagrangian closed form.
#pragma once

#include "chaindyn/closed_form/common.hpp"

namespace chaindyn::closed_form {

/// A one-link arm, or compound pendulum: a rigid link of mass m and length a turning about a
/// horizontal joint in the vertical x-y plane (y up, gravity g along -y), its centre of mass at
/// distance d from the joint on the link's axis, its rotational inertia about the centre of
/// mass (about an axis parallel to the joint axis) I_c. q is the link's angle from the
/// downward vertical, positive counter-clockwise seen from +z.
///
///     centre of mass   c = d (sin q, -cos q)
///     T = 1/2 m d^2 qd^2 + 1/2 I_c qd^2 = 1/2 (I_c + m d^2) qd^2
///     V = -m g d cos q,      L = T - V
///     M = I_c + m d^2 (the inertia about the joint, parallel-axis theorem),   C = 0
///     g(q) = m g d sin q
///     tau = (I_c + m d^2) qdd + m g d sin q
///
/// Derivation: Saha, "Robot Dynamics: Euler-Lagrange Formulation", "One-DOF Arm": T = 1/2 m
/// (a/2 qd)^2 + 1/2 (m a^2/12) qd^2 and (1/3) m a^2 qdd + (1/2) m g a sin q = tau, here with
/// general d and I_c (uniform_rod() gives Saha's d = a/2, I_c = m a^2/12). Saha measures the
/// angle from gravity's direction (his "alternatively" U = -m c^T g with g = (g, 0, 0)), the
/// convention used here.
///
/// Potential energy: V is zero at the joint's height, the reference of chaindyn's
/// potential_energy (V = -sum m_i g . c_i), so the closed form and to_chain() compare
/// directly. Saha's first choice, U = m g (a/2)(1 - cos q), is zero with the link hanging
/// down; it differs by the constant m g d and gives the same equation of motion.
///
/// to_chain(): Chain<Scalar, RevoluteZ>, gravity (0, -g, 0), the joint at the base origin with
/// rotation Rz(-pi/2) so that the link's x axis points down at q = 0; centre of mass (d, 0, 0)
/// and rotational inertia about it diag(0, I_c, I_c) in the link frame (a thin rod along x).
/// Chain coordinates equal q. The length a enters only through uniform_rod(): a link with no
/// successor has no joint to place at its far end.
///
/// Requires m >= 0, I_c >= 0 and I_c + m d^2 > 0.
template <typename Scalar>
class OneLinkArm {
 public:
  static constexpr int nq = 1;
  using Vector = Eigen::Matrix<Scalar, 1, 1>;
  using Matrix = Eigen::Matrix<Scalar, 1, 1>;
  using ChainType = Chain<Scalar, RevoluteZ>;

  Scalar m = Scalar(1);                 ///< link mass (kg)
  Scalar a = Scalar(1);                 ///< link length (m)
  Scalar d = Scalar(0.5);               ///< joint to centre of mass (m)
  Scalar I_c = Scalar(1) / Scalar(12);  ///< rotational inertia about the centre of mass (kg m^2)
  Scalar g = Scalar(9.81);              ///< magnitude of gravity, which points along -y (m/s^2)

  OneLinkArm() = default;
  OneLinkArm(const Scalar& m_, const Scalar& a_, const Scalar& d_, const Scalar& I_c_,
             const Scalar& g_ = Scalar(9.81))
      : m(m_), a(a_), d(d_), I_c(I_c_), g(g_) {}

  /// A uniform rod of mass m and length a (Saha's one-link arm): d = a/2, I_c = m a^2/12, so
  /// that M = m a^2/3 and g(q) = (1/2) m g a sin q.
  static OneLinkArm uniform_rod(const Scalar& m_, const Scalar& a_,
                                const Scalar& g_ = Scalar(9.81)) {
    return OneLinkArm(m_, a_, a_ / Scalar(2), m_ * a_ * a_ / Scalar(12), g_);
  }

  /// The same arm in another scalar type (from double or float to any scalar).
  template <typename Other>
  OneLinkArm<Other> cast() const {
    return OneLinkArm<Other>(Other(m), Other(a), Other(d), Other(I_c), Other(g));
  }

  /// M(q) = I_c + m d^2.
  Matrix mass_matrix(const Vector& /*q*/) const {
    Matrix out;
    out(0, 0) = I_c + m * d * d;
    return out;
  }

  /// C(q, qd) = 0: M does not depend on q, so every Christoffel symbol vanishes.
  Matrix coriolis_matrix(const Vector& /*q*/, const Vector& /*qd*/) const {
    return Matrix::Zero();
  }

  /// g(q) = dV/dq = m g d sin q (Saha: (1/2) m g a sin q for the uniform rod).
  Vector gravity(const Vector& q) const {
    using std::sin;
    Vector out;
    out[0] = m * g * d * sin(q[0]);
    return out;
  }

  /// tau = M qdd + C qd + g(q) = (I_c + m d^2) qdd + m g d sin q.
  Vector inverse_dynamics(const Vector& q, const Vector& qd, const Vector& qdd) const {
    return mass_matrix(q) * qdd + coriolis_matrix(q, qd) * qd + gravity(q);
  }

  /// qdd = M^-1 (tau - C qd - g(q)) = (tau - m g d sin q) / (I_c + m d^2); for the uniform
  /// rod 3/(m a^2) (tau - (1/2) m g a sin q) (Saha prints 2/(m a^2): an erratum, see
  /// docs/closed_forms.md).
  Vector forward_dynamics(const Vector& q, const Vector& qd, const Vector& tau) const {
    return (tau - coriolis_matrix(q, qd) * qd - gravity(q)) / mass_matrix(q)(0, 0);
  }

  /// T = 1/2 m |c_dot|^2 + 1/2 I_c qd^2 = 1/2 m (d qd)^2 + 1/2 I_c qd^2 (Saha, "One-DOF Arm").
  Scalar kinetic_energy(const Vector& /*q*/, const Vector& qd) const {
    return Scalar(0.5) * m * (d * qd[0]) * (d * qd[0]) + Scalar(0.5) * I_c * qd[0] * qd[0];
  }

  /// V = -m c^T g_vec = -m g d cos q, zero at the joint's height (see the class comment).
  Scalar potential_energy(const Vector& q) const {
    using std::cos;
    return -m * g * d * cos(q[0]);
  }

  /// The same system as a chain (see the class comment); its coordinates equal q.
  ChainType to_chain() const {
    const std::array<Link<Scalar>, 1> links = {
        detail::planar_link<Scalar>("link", detail::downward_placement<Scalar>(), m, d, I_c)};
    return ChainType(links, Vector3<Scalar>(Scalar(0), -g, Scalar(0)));
  }

  /// A q, qd, qdd or tau vector in the coordinates of to_chain(): the identity here.
  static Vector to_chain_coordinates(const Vector& v) { return v; }
  /// A vector of to_chain()'s coordinates in this model's coordinates: the identity here.
  static Vector from_chain_coordinates(const Vector& v) { return v; }
};

/// The compound pendulum is the one-link arm.
template <typename Scalar>
using CompoundPendulum = OneLinkArm<Scalar>;

}  // namespace chaindyn::closed_form
