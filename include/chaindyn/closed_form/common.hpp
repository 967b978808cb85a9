/// @file
/// What the Lagrangian closed-form models share: the link of a planar arm, the exact joint
/// placements their chains use, and the 2x2 solve of their forward dynamics.
#pragma once

#include "chaindyn/model/chain.hpp"
#include "chaindyn/robots/two_link_arm.hpp"


namespace chaindyn::closed_form::detail {

/// Rz(-pi/2), entered exactly: the joint placement that turns a link frame's x axis from +x
/// (horizontal) to -y (straight down), so that a pendulum angle measured from the downward
/// vertical is the angle of a RevoluteZ joint.
template <typename Scalar>
Transform<Scalar> downward_placement() {
  Matrix3<Scalar> r;
  r << Scalar(0), Scalar(1), Scalar(0),   //
      Scalar(-1), Scalar(0), Scalar(0),   //
      Scalar(0), Scalar(0), Scalar(1);
  return Transform<Scalar>::Rotation(r);
}

/// The planar link of the built-in two-link arm (robots/two_link_arm.hpp), shared by every
/// planar closed form.
using robots::detail::planar_link;

/// x = M^-1 r for a 2x2 matrix M by Cramer's rule (M positive definite, so det M > 0). Plain
/// arithmetic, so that every scalar type (float, double, AutoDiffScalar) takes the same path.
template <typename Scalar>
Eigen::Matrix<Scalar, 2, 1> solve_2x2(const Eigen::Matrix<Scalar, 2, 2>& m,
                                      const Eigen::Matrix<Scalar, 2, 1>& r) {
  const Scalar det = m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
  return Eigen::Matrix<Scalar, 2, 1>((m(1, 1) * r[0] - m(0, 1) * r[1]) / det,
                                     (m(0, 0) * r[1] - m(1, 0) * r[0]) / det);
}

}  // namespace chaindyn::closed_form::detail
