/// @file
/// The spherical (3D) pendulum, in Lagrangian closed form.
#pragma once

#include "chaindyn/closed_form/common.hpp"

namespace chaindyn::closed_form {

/// A spherical pendulum: a point mass m on a massless rod of length l, free to swing in every
/// direction about a fixed pivot at the origin, gravity g along -z. The coordinates are
/// q = (theta, phi), in this order, as in Asfour's lecture notes: theta the rod's polar angle from the
/// downward vertical -z, phi its azimuth about +z measured from +x.
///
///     bob position   r = l (sin th cos ph, sin th sin ph, -cos th)
///     T = 1/2 m l^2 (thd^2 + sin^2 th phd^2),      V = -m g l cos th,      L = T - V
///     M = diag(m l^2, m l^2 sin^2 th)
///     C = m l^2 sin th cos th [ 0    -phd ]      C qd = m l^2 sin th cos th (-phd^2, 2 thd phd)
///                             [ phd   thd ]
///     g(q) = (m g l sin th, 0)
///
/// Derivation: Asfour, Robotics I ch. 4, "Method of Lagrange: 3D-Pendulum (1)-(3)" (r, E_kin,
/// E_pot, the derivatives of L and the summarized M, C qd, g). C is the Christoffel form,
/// C_ij = sum_k c_ijk qd_k with c_ijk = 1/2 (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) (ibid.,
/// "Method of Lagrange"): with dM22/dth = 2 m l^2 sin th cos th the only non-zero symbols are
/// c_122 = -m l^2 sin th cos th and c_212 = c_221 = m l^2 sin th cos th, so Mdot - 2C is
/// skew-symmetric.
///
/// Singularity: M is singular where sin th = 0 (the rod straight down or straight up), where
/// phi is undefined: a singularity of the spherical coordinates, not of the mechanism.
/// forward_dynamics() divides by m l^2 sin^2 th and returns non-finite values there, and the
/// chain's mass matrix is singular there too; keep theta away from 0 and pi.
///
/// Potential energy: V = m g z = -m g l cos th (the notes' E_pot = m g (-l cos th)), zero at
/// the pivot's height, the reference of chaindyn's potential_energy (V = -sum m_i g . c_i).
///
/// to_chain(): Chain<Scalar, RevoluteZ, RevoluteZ>, gravity (0, 0, -g), joints ordered base
/// to tip, so its coordinates are (phi, theta), the reverse of q:
/// - joint 0, angle phi: about the base z axis, identity placement; link 0 is massless;
/// - joint 1, angle theta: placed at link 0's origin with the rotation whose columns are
///   (-z0, x0, -y0), i.e. its x axis points down and its z axis (the joint axis) is -y0, so
///   that positive theta swings the bob towards +x0; link 1 carries the bob at (l, 0, 0).
/// No sign flip is needed: to_chain_coordinates() and from_chain_coordinates() swap the two
/// entries of a q, qd, qdd or tau vector, and the chain's mass matrix is M with rows and
/// columns swapped.
///
/// Requires m > 0, l > 0.
template <typename Scalar>
class SphericalPendulum {
 public:
  static constexpr int nq = 2;
  using Vector = Eigen::Matrix<Scalar, 2, 1>;  ///< (theta, phi)
  using Matrix = Eigen::Matrix<Scalar, 2, 2>;
  using ChainType = Chain<Scalar, RevoluteZ, RevoluteZ>;  ///< coordinates (phi, theta)

  Scalar m = Scalar(1);     ///< mass of the bob (kg)
  Scalar l = Scalar(1);     ///< rod length, pivot to bob (m)
  Scalar g = Scalar(9.81);  ///< magnitude of gravity, which points along -z (m/s^2)

  SphericalPendulum() = default;
  SphericalPendulum(const Scalar& m_, const Scalar& l_, const Scalar& g_ = Scalar(9.81))
      : m(m_), l(l_), g(g_) {}

  /// The same pendulum in another scalar type (from double or float to any scalar).
  template <typename Other>
  SphericalPendulum<Other> cast() const {
    return SphericalPendulum<Other>(Other(m), Other(l), Other(g));
  }

  /// M(q) = diag(m l^2, m l^2 sin^2 theta); singular at sin theta = 0.
  Matrix mass_matrix(const Vector& q) const {
    using std::sin;
    const Scalar ml2 = m * l * l;
    const Scalar s = sin(q[0]);
    Matrix out;
    out(0, 0) = ml2;
    out(0, 1) = Scalar(0);
    out(1, 0) = Scalar(0);
    out(1, 1) = ml2 * s * s;
    return out;
  }

  /// C(q, qd) = m l^2 sin th cos th [0, -phd; phd, thd], the Christoffel form (class comment).
  Matrix coriolis_matrix(const Vector& q, const Vector& qd) const {
    using std::cos;
    using std::sin;
    const Scalar k = m * l * l * sin(q[0]) * cos(q[0]);
    Matrix out;
    out(0, 0) = Scalar(0);
    out(0, 1) = -k * qd[1];
    out(1, 0) = k * qd[1];
    out(1, 1) = k * qd[0];
    return out;
  }

  /// g(q) = dV/dq = (m g l sin theta, 0).
  Vector gravity(const Vector& q) const {
    using std::sin;
    return Vector(m * g * l * sin(q[0]), Scalar(0));
  }

  /// tau = M qdd + C qd + g(q) (Asfour's 3D pendulum (3)).
  Vector inverse_dynamics(const Vector& q, const Vector& qd, const Vector& qdd) const {
    return mass_matrix(q) * qdd + coriolis_matrix(q, qd) * qd + gravity(q);
  }

  /// qdd = M^-1 (tau - C qd - g(q)), M diagonal; not finite at sin theta = 0.
  Vector forward_dynamics(const Vector& q, const Vector& qd, const Vector& tau) const {
    const Matrix mm = mass_matrix(q);
    const Vector r = tau - coriolis_matrix(q, qd) * qd - gravity(q);
    return Vector(r[0] / mm(0, 0), r[1] / mm(1, 1));
  }

  /// T = 1/2 m |r_dot|^2 = 1/2 m l^2 (thd^2 + phd^2 sin^2 th) (Asfour's E_kin).
  Scalar kinetic_energy(const Vector& q, const Vector& qd) const {
    using std::sin;
    const Scalar s = sin(q[0]);
    return Scalar(0.5) * m * l * l * (qd[0] * qd[0] + qd[1] * qd[1] * s * s);
  }

  /// V = m g z = -m g l cos theta (Asfour's E_pot), zero at the pivot's height.
  Scalar potential_energy(const Vector& q) const {
    using std::cos;
    return -m * g * l * cos(q[0]);
  }

  /// The same system as a chain with coordinates (phi, theta) (see the class comment).
  ChainType to_chain() const {
    Matrix3<Scalar> r;  // columns: the joint frame's x = -z0, y = x0, z = -y0
    r << Scalar(0), Scalar(1), Scalar(0),   //
        Scalar(0), Scalar(0), Scalar(-1),   //
        Scalar(-1), Scalar(0), Scalar(0);
    Link<Scalar> azimuth;
    azimuth.name = "azimuth";
    const std::array<Link<Scalar>, 2> links = {
        azimuth, detail::planar_link<Scalar>("bob", Transform<Scalar>::Rotation(r), m, l,
                                             Scalar(0))};
    return ChainType(links, Vector3<Scalar>(Scalar(0), Scalar(0), -g));
  }

  /// (theta, phi) -> (phi, theta): a q, qd, qdd or tau vector in to_chain()'s coordinates.
  static Vector to_chain_coordinates(const Vector& v) { return Vector(v[1], v[0]); }
  /// (phi, theta) -> (theta, phi): a vector of to_chain()'s coordinates in this model's.
  static Vector from_chain_coordinates(const Vector& v) { return Vector(v[1], v[0]); }
};

}  // namespace chaindyn::closed_form
