/// @file
/// Payload: a rigid body (a grasped object, a tool) attached to a link at run time, and its
/// checks.
#pragma once

#include "chaindyn/model/link.hpp"

namespace chaindyn {

/// A rigid payload (a grasped object, a tool) attached to a link at run time: its mass, its
/// centre of mass in the link frame and its rotational inertia about that centre of mass in
/// link-frame axes (the same triple as Link's). See ChainBase::set_payload.
template <typename Scalar>
struct Payload {
  Scalar mass = Scalar(0);                             ///< kg
  Vector3<Scalar> com = Vector3<Scalar>::Zero();       ///< centre of mass, link frame (m)
  Matrix3<Scalar> inertia = Matrix3<Scalar>::Zero();   ///< about the centre of mass, link axes

  /// A point mass m at `com` (link frame): zero rotational inertia about its centre of mass.
  static Payload point_mass(const Scalar& m, const Vector3<Scalar>& com_in_link) {
    Payload p;
    p.mass = m;
    p.com = com_in_link;
    return p;
  }
};

namespace detail {

/// Checks a payload's numbers as validate_link checks a link's inertia; messages start with
/// `where`'s text, which is built only when the check fails. Throws ModelError.
template <typename Scalar, typename Where>
void validate_payload(const Payload<Scalar>& p, const Where& where) {
  constexpr double tol = 1e-6;
  const double m = scalar_value(p.mass);
  if (!std::isfinite(m)) throw_model_error(where(), ": payload mass is not finite (", m, ")");
  if (m < 0.0) throw_model_error(where(), ": payload mass is negative (", m, ")");
  if (!all_finite(p.com)) {
    throw_model_error(where(), ": payload centre of mass ", format_vector(p.com),
                      " is not finite");
  }
  const Eigen::Matrix3d in = p.inertia.unaryExpr([](const Scalar& x) { return scalar_value(x); });
  if (!all_finite(in)) {
    throw_model_error(where(), ": payload inertia ", format_matrix(in), " is not finite");
  }
  const double scale = std::max(in.cwiseAbs().maxCoeff(), 1e-300);
  if (!((in - in.transpose()).cwiseAbs().maxCoeff() <= tol * scale)) {
    throw_model_error(where(), ": payload inertia ", format_matrix(in), " is not symmetric");
  }
  if (!symmetric_psd(in, tol)) {
    throw_model_error(where(), ": payload inertia ", format_matrix(in),
                      " is not positive semi-definite");
  }
  const Eigen::Matrix3d sigma = 0.5 * in.trace() * Eigen::Matrix3d::Identity() - in;
  if (!symmetric_psd(sigma, tol)) {
    throw_model_error(where(), ": payload inertia ", format_matrix(in),
                      " violates the triangle inequality of principal moments (I1 + I2 >= I3)");
  }
}

}  // namespace detail
}  // namespace chaindyn
