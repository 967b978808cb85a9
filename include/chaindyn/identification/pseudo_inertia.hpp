/// @file
/// The pseudo-inertia of a rigid body and physical consistency (Wensing, Kim & Slotine,
/// "Linear matrix inequalities for physically consistent inertial parameter identification: a
/// statistical perspective on the mass distribution", IEEE Robotics and Automation Letters
/// 3(1), 2018).
///
/// A body's ten inertial parameters pi = (m, h = m c, I) (the regressor's order, regressor.hpp;
/// I about the link origin) are those of a non-negative mass density rho (physically
/// consistent) iff its pseudo-inertia
///     J = [ Sigma  h ] = int rho [r; 1] [r; 1]^T dV,     Sigma = int rho r r^T dV = tr(I)/2 1 - I
///         [ h^T    m ]
/// is positive semi-definite. J >= 0 implies what the model checks (m >= 0, the inertia about
/// the centre of mass positive semi-definite, the triangle inequalities of its principal
/// moments) and is stricter (it also requires the centre of mass to be where the mass is).
/// J > 0 (positive definite) is a body with m > 0 whose inertia about the centre of mass is
/// positive definite and satisfies the triangle inequalities strictly. pi -> J is linear and
/// one-to-one, so the physically consistent parameters are a convex cone: the set the
/// identification of robot_identification.hpp projects onto.
#pragma once

#include "chaindyn/spatial/symmetric_eigen.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>

namespace chaindyn {

/// Ten inertial parameters of one body, the regressor's order (m, h_x, h_y, h_z, I_xx, I_xy,
/// I_xz, I_yy, I_yz, I_zz), I about the link origin.
using BodyParameters = Eigen::Matrix<double, 10, 1>;

/// The pseudo-inertia J of a body's parameters (see the file comment).
inline Eigen::Matrix4d pseudo_inertia(const BodyParameters& pi) {
  Eigen::Matrix3d inertia;
  inertia << pi[4], pi[5], pi[6], pi[5], pi[7], pi[8], pi[6], pi[8], pi[9];
  Eigen::Matrix4d j;
  j.topLeftCorner<3, 3>() = 0.5 * inertia.trace() * Eigen::Matrix3d::Identity() - inertia;
  j.topRightCorner<3, 1>() = pi.segment<3>(1);
  j.bottomLeftCorner<1, 3>() = pi.segment<3>(1).transpose();
  j(3, 3) = pi[0];
  return j;
}

/// The parameters of a pseudo-inertia (the inverse of pseudo_inertia, linear in J; the
/// symmetric part of J is used): m = J_33, h = J_(0:2, 3), I = tr(Sigma) 1 - Sigma.
inline BodyParameters parameters_from_pseudo_inertia(const Eigen::Matrix4d& j_in) {
  const Eigen::Matrix4d j = 0.5 * (j_in + j_in.transpose());
  const Eigen::Matrix3d sigma = j.topLeftCorner<3, 3>();
  const Eigen::Matrix3d inertia = sigma.trace() * Eigen::Matrix3d::Identity() - sigma;
  BodyParameters pi;
  pi << j(3, 3), j(0, 3), j(1, 3), j(2, 3), inertia(0, 0), inertia(0, 1), inertia(0, 2),
      inertia(1, 1), inertia(1, 2), inertia(2, 2);
  return pi;
}

/// The smallest eigenvalue of the pseudo-inertia divided by its largest: >= 0 for a physically
/// consistent body, < 0 for one that no mass distribution has.
inline double pseudo_inertia_margin(const BodyParameters& pi) {
  const Eigen::Vector4d ev = detail::symmetric_eigen<4>(pseudo_inertia(pi)).values;
  return ev[0] / std::max(std::abs(ev[3]), 1e-300);
}

/// The nearest (in the Frobenius norm) symmetric matrix to the symmetric part of `x` whose
/// eigenvalues are all >= `floor`: the eigenvalues below it raised to it (Higham, "Computing a
/// nearest symmetric positive semidefinite matrix", Linear Algebra Appl. 103, 1988).
inline Eigen::Matrix4d project_eigenvalues_above(const Eigen::Matrix4d& x, double floor) {
  const detail::SymmetricEigen<4> es = detail::symmetric_eigen<4>(x);
  if (es.values[0] >= floor) return 0.5 * (x + x.transpose());
  const Eigen::Vector4d clipped = es.values.cwiseMax(floor);
  return es.vectors * clipped.asDiagonal() * es.vectors.transpose();
}

}  // namespace chaindyn
