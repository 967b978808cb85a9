/// @file
/// The planar two-link arm, in Lagrangian closed form.
#pragma once

#include "chaindyn/closed_form/common.hpp"

namespace chaindyn::closed_form {

/// A planar two-link arm with two parallel revolute joints, moving in the vertical x-y plane
/// (y up, gravity g along -y). q1 is link 1's angle from the +x axis (horizontal), q2 link 2's
/// angle relative to link 1, both positive counter-clockwise seen from +z. Link i has mass m_i,
/// length a_i, its centre of mass on the link's axis at distance d_i from its joint, and
/// rotational inertia I_i about its centre of mass (about an axis parallel to the joints).
/// With c1 = cos q1, s1 = sin q1, c2, s2 likewise, c12 = cos(q1 + q2), s12 = sin(q1 + q2):
///
///     centres of mass   r1 = d1 (c1, s1),   r2 = a1 (c1, s1) + d2 (c12, s12)
///     |r2_dot|^2 = a1^2 qd1^2 + d2^2 (qd1 + qd2)^2 + 2 a1 d2 qd1 (qd1 + qd2) c2
///     T = 1/2 (I1 + m1 d1^2) qd1^2 + 1/2 m2 |r2_dot|^2 + 1/2 I2 (qd1 + qd2)^2
///     V = m1 g d1 s1 + m2 g (a1 s1 + d2 s12),      L = T - V
///
///     M11 = I1 + m1 d1^2 + I2 + m2 (a1^2 + d2^2 + 2 a1 d2 c2)
///     M12 = M21 = I2 + m2 (d2^2 + a1 d2 c2)
///     M22 = I2 + m2 d2^2
///     C = [ -h qd2   -h (qd1 + qd2) ]      h = m2 a1 d2 s2
///         [  h qd1    0             ]
///     g(q) = ( (m1 d1 + m2 a1) g c1 + m2 d2 g c12,   m2 d2 g c12 )
///
/// C is the Christoffel form, C_ij = sum_k c_ijk qd_k with c_ijk = 1/2 (dM_ij/dq_k +
/// dM_ik/dq_j - dM_jk/dq_i) (Asfour, Robotics I ch. 4, "Method of Lagrange"): only
/// dM11/dq2 = -2h and dM12/dq2 = -h are non-zero, giving c_112 = c_121 = c_122 = -h and
/// c_211 = h, so that Mdot - 2C is skew-symmetric. C qd = (-h (2 qd1 qd2 + qd2^2), h qd1^2).
///
/// Derivations this generalizes (each is a special case, checked in the tests):
/// - Asfour, Robotics I ch. 4, "Lagrange: Example - Two pivot joints": point masses at the
///   link ends, d_i = a_i, I_i = 0 (point_masses());
/// - Saha, "Robot Dynamics: Euler-Lagrange", "Equations of Motion of a 2-link Arm" (i11, i12,
///   i22, h1, h2, gamma_1, gamma_2) and the MATLAB ch8fdyn2: uniform rods, d_i = a_i/2,
///   I_i = m_i a_i^2/12 (uniform_rods()); Saha's gamma_2 = m1 g a2/2 c12 must read m2;
/// - lecture 21 (Nov 28, 2023), "Manipulator Dynamics": a1 = a2 = l, d_i = l/2, its I_i
///   about the joints = our I_i + m_i l^2/4, its c2 = m2 l/2 (its V2 must read m2 and h2
///   sin(theta_2); its f^g = -g(q)).
/// See docs/closed_forms.md for the errata.
///
/// Potential energy: V is zero with both centres of mass at the height of joint 1, the
/// reference of chaindyn's potential_energy (V = -sum m_i g . c_i) and the one of all three
/// lecture notes, so the closed form, the notes and to_chain() compare directly.
///
/// to_chain(): Chain<Scalar, RevoluteZ, RevoluteZ>, gravity (0, -g, 0); joint 1 at the base
/// origin with the identity placement (link 1's x axis is +x at q1 = 0), joint 2 placed at
/// (a1, 0, 0) in link 1's frame; link i's centre of mass at (d_i, 0, 0) and rotational inertia
/// about it diag(0, I_i, I_i) in its link frame (thin rods along x). Chain coordinates equal q.
/// a2 describes the arm (the factories use it) but does not enter the dynamics: nothing is
/// attached at link 2's far end.
///
/// Requires m_i >= 0, I_i >= 0, m2 d2^2 + I2 > 0 and I1 + m1 d1^2 + m2 a1^2 > 0 (M positive
/// definite).
template <typename Scalar>
class TwoLinkArm {
 public:
  static constexpr int nq = 2;
  using Vector = Eigen::Matrix<Scalar, 2, 1>;
  using Matrix = Eigen::Matrix<Scalar, 2, 2>;
  using ChainType = robots::TwoLinkPlanar<Scalar>;

  Scalar m1 = Scalar(1);                ///< link 1 mass (kg)
  Scalar m2 = Scalar(1);                ///< link 2 mass (kg)
  Scalar a1 = Scalar(1);                ///< link 1 length, joint 1 to joint 2 (m)
  Scalar a2 = Scalar(1);                ///< link 2 length (m)
  Scalar d1 = Scalar(0.5);              ///< joint 1 to link 1's centre of mass (m)
  Scalar d2 = Scalar(0.5);              ///< joint 2 to link 2's centre of mass (m)
  Scalar I1 = Scalar(1) / Scalar(12);   ///< link 1's inertia about its centre of mass (kg m^2)
  Scalar I2 = Scalar(1) / Scalar(12);   ///< link 2's inertia about its centre of mass (kg m^2)
  Scalar g = Scalar(9.81);              ///< magnitude of gravity, along -y (m/s^2)

  TwoLinkArm() = default;
  TwoLinkArm(const Scalar& m1_, const Scalar& m2_, const Scalar& a1_, const Scalar& a2_,
             const Scalar& d1_, const Scalar& d2_, const Scalar& I1_, const Scalar& I2_,
             const Scalar& g_ = Scalar(9.81))
      : m1(m1_), m2(m2_), a1(a1_), a2(a2_), d1(d1_), d2(d2_), I1(I1_), I2(I2_), g(g_) {}

  /// Asfour's two pivot joints: point masses m_i at the link ends, d_i = a_i, I_i = 0.
  static TwoLinkArm point_masses(const Scalar& m1_, const Scalar& m2_, const Scalar& a1_,
                                 const Scalar& a2_, const Scalar& g_ = Scalar(9.81)) {
    return TwoLinkArm(m1_, m2_, a1_, a2_, a1_, a2_, Scalar(0), Scalar(0), g_);
  }

  /// Saha's two-link arm: uniform rods, d_i = a_i/2, I_i = m_i a_i^2/12.
  static TwoLinkArm uniform_rods(const Scalar& m1_, const Scalar& m2_, const Scalar& a1_,
                                 const Scalar& a2_, const Scalar& g_ = Scalar(9.81)) {
    return TwoLinkArm(m1_, m2_, a1_, a2_, a1_ / Scalar(2), a2_ / Scalar(2),
                      m1_ * a1_ * a1_ / Scalar(12), m2_ * a2_ * a2_ / Scalar(12), g_);
  }

  /// The same arm in another scalar type (from double or float to any scalar).
  template <typename Other>
  TwoLinkArm<Other> cast() const {
    return TwoLinkArm<Other>(Other(m1), Other(m2), Other(a1), Other(a2), Other(d1), Other(d2),
                             Other(I1), Other(I2), Other(g));
  }

  /// M(q), from T = 1/2 qd^T M qd (class comment; Asfour's two pivot joints (6) and Saha's
  /// i11, i12, i22 are its special cases).
  Matrix mass_matrix(const Vector& q) const {
    using std::cos;
    const Scalar c2 = cos(q[1]);
    const Scalar coupling = m2 * a1 * d2 * c2;  // m2 a1 d2 cos q2
    const Scalar m22 = I2 + m2 * d2 * d2;
    Matrix out;
    out(0, 0) = I1 + m1 * d1 * d1 + m22 + m2 * a1 * a1 + Scalar(2) * coupling;
    out(0, 1) = m22 + coupling;
    out(1, 0) = out(0, 1);
    out(1, 1) = m22;
    return out;
  }

  /// C(q, qd) = [-h qd2, -h (qd1 + qd2); h qd1, 0], h = m2 a1 d2 sin q2: the Christoffel form
  /// (class comment), so that Mdot - 2C is skew-symmetric.
  Matrix coriolis_matrix(const Vector& q, const Vector& qd) const {
    using std::sin;
    const Scalar h = m2 * a1 * d2 * sin(q[1]);
    Matrix out;
    out(0, 0) = -h * qd[1];
    out(0, 1) = -h * (qd[0] + qd[1]);
    out(1, 0) = h * qd[0];
    out(1, 1) = Scalar(0);
    return out;
  }

  /// g(q) = dV/dq = ((m1 d1 + m2 a1) g c1 + m2 d2 g c12, m2 d2 g c12) (Asfour's two pivot
  /// joints (6); Saha's gamma_1, gamma_2 with m2 in gamma_2).
  Vector gravity(const Vector& q) const {
    using std::cos;
    const Scalar g12 = m2 * d2 * g * cos(q[0] + q[1]);
    return Vector((m1 * d1 + m2 * a1) * g * cos(q[0]) + g12, g12);
  }

  /// tau = M qdd + C qd + g(q).
  Vector inverse_dynamics(const Vector& q, const Vector& qd, const Vector& qdd) const {
    return mass_matrix(q) * qdd + coriolis_matrix(q, qd) * qd + gravity(q);
  }

  /// qdd = M^-1 (tau - C qd - g(q)) (Saha, "Forward Dynamics"), M inverted in closed form.
  Vector forward_dynamics(const Vector& q, const Vector& qd, const Vector& tau) const {
    return detail::solve_2x2<Scalar>(mass_matrix(q),
                                     tau - coriolis_matrix(q, qd) * qd - gravity(q));
  }

  /// T = 1/2 (I1 + m1 d1^2) qd1^2 + 1/2 m2 |r2_dot|^2 + 1/2 I2 (qd1 + qd2)^2, written from the
  /// link velocities (Saha's T = sum 1/2 (m_i c_i_dot^T c_i_dot + w_i^T I_i w_i)), not from M.
  Scalar kinetic_energy(const Vector& q, const Vector& qd) const {
    using std::cos;
    const Scalar w2 = qd[0] + qd[1];  // link 2's angular velocity
    const Scalar v2_squared = a1 * a1 * qd[0] * qd[0] + d2 * d2 * w2 * w2 +
                              Scalar(2) * a1 * d2 * qd[0] * w2 * cos(q[1]);
    return Scalar(0.5) * (I1 + m1 * d1 * d1) * qd[0] * qd[0] + Scalar(0.5) * m2 * v2_squared +
           Scalar(0.5) * I2 * w2 * w2;
  }

  /// V = m1 g d1 s1 + m2 g (a1 s1 + d2 s12), zero at joint 1's height (class comment).
  Scalar potential_energy(const Vector& q) const {
    using std::sin;
    const Scalar s1 = sin(q[0]);
    return m1 * g * d1 * s1 + m2 * g * (a1 * s1 + d2 * sin(q[0] + q[1]));
  }

  /// The same system as a chain (see the class comment); its coordinates equal q.
  ChainType to_chain() const {
    return robots::two_link_planar_chain<Scalar>(m1, m2, a1, d1, d2, I1, I2, g);
  }

  /// A q, qd, qdd or tau vector in the coordinates of to_chain(): the identity here.
  static Vector to_chain_coordinates(const Vector& v) { return v; }
  /// A vector of to_chain()'s coordinates in this model's coordinates: the identity here.
  static Vector from_chain_coordinates(const Vector& v) { return v; }
};

}  // namespace chaindyn::closed_form

namespace chaindyn::robots {

/// The built-in two-link arm's closed form (robots::two_link_arm(): uniform rods 3 kg x 2 m and
/// 1 kg x 1 m); its to_chain() is robots::two_link_arm().
template <typename Scalar = double>
closed_form::TwoLinkArm<Scalar> two_link_arm_closed_form() {
  const TwoLinkArmRods<Scalar> r;
  return closed_form::TwoLinkArm<Scalar>::uniform_rods(r.m1, r.m2, r.a1, r.a2, r.g);
}

}  // namespace chaindyn::robots
