/// @file
/// What the Lagrangian closed-form models share: the link of a planar arm, the exact joint
/// placements their chains use, and the 2x2 solve of their forward dynamics.
#pragma once

#include "chaindyn/model/chain.hpp"

#include <string>
#include <utility>

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

/// A straight link of a planar mechanism moving about its joint's z axis: the link frame's x
/// axis runs along the link, the centre of mass sits at (d, 0, 0), and the rotational inertia
/// about the centre of mass is diag(0, I_c, I_c) (a thin rod's: no inertia about its own
/// axis; I_c about the joint axis z). A point mass is I_c = 0.
template <typename Scalar>
Link<Scalar> planar_link(std::string name, const Transform<Scalar>& placement,
                         const Scalar& mass, const Scalar& d, const Scalar& inertia_about_com) {
  Link<Scalar> link;
  link.name = std::move(name);
  link.placement = placement;
  link.mass = mass;
  link.com = Vector3<Scalar>(d, Scalar(0), Scalar(0));
  link.inertia = Matrix3<Scalar>::Zero();
  link.inertia(1, 1) = inertia_about_com;
  link.inertia(2, 2) = inertia_about_com;
  return link;
}

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
