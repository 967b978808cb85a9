/// @file
/// The simple pendulum: a point mass on a massless rod, in Lagrangian closed form.
#pragma once

#include "chaindyn/closed_form/common.hpp"

namespace chaindyn::closed_form {

/// A simple pendulum: a point mass m on a massless rod of length l, swinging in the vertical
/// x-y plane (y up) under gravity g along -y. q is the rod's angle from the downward vertical,
/// positive counter-clockwise seen from +z (q = 0 hangs straight down, q = pi stands up).
///
///     bob position   r = l (sin q, -cos q)
///     T = 1/2 m l^2 qd^2,      V = -m g l cos q,      L = T - V
///     M = m l^2,   C = 0,   g(q) = m g l sin q
///     tau = m l^2 qdd + m g l sin q
///
/// Derivation: Asfour, Robotics I ch. 4, "Generalized Coordinates: 2D pendulum" (r = l (sin q,
/// cos q) with the y axis pointing down, the same point as r above) and the 3D pendulum's
/// Lagrangian (ibid., "Method of Lagrange: 3D-Pendulum") at constant phi: with theta = q its
/// theta row is m l^2 qdd + m g l sin q = tau.
///
/// Potential energy: V is zero at the pivot's height, the reference of chaindyn's
/// potential_energy (V = -sum m_i g . c_i), so the closed form and to_chain() compare directly.
/// Saha's lecture notes also use V = m g l (1 - cos q) (zero at the bottom, as Saha's one-link arm); the
/// two differ by the constant m g l and give the same equation of motion.
///
/// to_chain(): Chain<Scalar, RevoluteZ>, gravity (0, -g, 0), the joint placed at the base
/// origin with rotation Rz(-pi/2) so that the link's x axis points down at q = 0; the bob is at
/// (l, 0, 0) in the link frame with zero rotational inertia. Chain coordinates equal q.
///
/// Requires m > 0, l > 0 (M = m l^2 > 0).
template <typename Scalar>
class SimplePendulum {
 public:
  static constexpr int nq = 1;
  using Vector = Eigen::Matrix<Scalar, 1, 1>;
  using Matrix = Eigen::Matrix<Scalar, 1, 1>;
  using ChainType = Chain<Scalar, RevoluteZ>;

  Scalar m = Scalar(1);     ///< mass of the bob (kg)
  Scalar l = Scalar(1);     ///< rod length, pivot to bob (m)
  Scalar g = Scalar(9.81);  ///< magnitude of gravity, which points along -y (m/s^2)

  SimplePendulum() = default;
  SimplePendulum(const Scalar& m_, const Scalar& l_, const Scalar& g_ = Scalar(9.81))
      : m(m_), l(l_), g(g_) {}

  /// The same pendulum in another scalar type (from double or float to any scalar).
  template <typename Other>
  SimplePendulum<Other> cast() const {
    return SimplePendulum<Other>(Other(m), Other(l), Other(g));
  }

  /// M(q) = m l^2.
  Matrix mass_matrix(const Vector& /*q*/) const {
    Matrix out;
    out(0, 0) = m * l * l;
    return out;
  }

  /// C(q, qd) = 0: M does not depend on q, so every Christoffel symbol vanishes.
  Matrix coriolis_matrix(const Vector& /*q*/, const Vector& /*qd*/) const {
    return Matrix::Zero();
  }

  /// g(q) = dV/dq = m g l sin q, the torque that holds the pendulum at q.
  Vector gravity(const Vector& q) const {
    using std::sin;
    Vector out;
    out[0] = m * g * l * sin(q[0]);
    return out;
  }

  /// tau = M qdd + C qd + g(q) = m l^2 qdd + m g l sin q.
  Vector inverse_dynamics(const Vector& q, const Vector& qd, const Vector& qdd) const {
    return mass_matrix(q) * qdd + coriolis_matrix(q, qd) * qd + gravity(q);
  }

  /// qdd = M^-1 (tau - C qd - g(q)) = (tau - m g l sin q) / (m l^2).
  Vector forward_dynamics(const Vector& q, const Vector& qd, const Vector& tau) const {
    return (tau - coriolis_matrix(q, qd) * qd - gravity(q)) / mass_matrix(q)(0, 0);
  }

  /// T = 1/2 m |r_dot|^2 = 1/2 m l^2 qd^2.
  Scalar kinetic_energy(const Vector& /*q*/, const Vector& qd) const {
    return Scalar(0.5) * m * l * l * qd[0] * qd[0];
  }

  /// V = m g y = -m g l cos q, zero at the pivot's height (see the class comment).
  Scalar potential_energy(const Vector& q) const {
    using std::cos;
    return -m * g * l * cos(q[0]);
  }

  /// The same system as a chain (see the class comment); its coordinates equal q.
  ChainType to_chain() const {
    const std::array<Link<Scalar>, 1> links = {
        detail::planar_link<Scalar>("bob", detail::downward_placement<Scalar>(), m, l,
                                    Scalar(0))};
    return ChainType(links, Vector3<Scalar>(Scalar(0), -g, Scalar(0)));
  }

  /// A q, qd, qdd or tau vector in the coordinates of to_chain(): the identity here.
  static Vector to_chain_coordinates(const Vector& v) { return v; }
  /// A vector of to_chain()'s coordinates in this model's coordinates: the identity here.
  static Vector from_chain_coordinates(const Vector& v) { return v; }
};

}  // namespace chaindyn::closed_form
