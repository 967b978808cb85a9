/// @file
/// A link of a chain: where its joint sits on the parent, what the joint's axis and dynamics
/// are, and the link's inertia; and the checks a chain runs on it.
#pragma once

#include "chaindyn/joints/joint_common.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <string>

namespace chaindyn {

/// Joint dynamics parameters: the eps(q, qd, qdd) term of the equation of motion and the rotor.
///   tau_i = ... + damping * qd_i + friction * sign(qd_i) + armature * qdd_i
/// All default to zero. Units: N m s/rad, N m, kg m^2 for a revolute joint; N s/m, N, kg for a
/// prismatic joint.
template <typename Scalar>
struct JointDynamics {
  Scalar damping = Scalar(0);   ///< viscous friction coefficient
  Scalar friction = Scalar(0);  ///< Coulomb friction magnitude (sign(0) = 0: no stiction)
  Scalar armature = Scalar(0);  ///< rotor inertia reflected to the joint side

  /// The armature of a motor of rotor inertia `rotor_inertia` behind a gear of ratio
  /// `gear_ratio` (motor speed / joint speed): G^2 I_rotor.
  static JointDynamics with_rotor(const Scalar& rotor_inertia, const Scalar& gear_ratio,
                                  const Scalar& damping_ = Scalar(0),
                                  const Scalar& friction_ = Scalar(0)) {
    JointDynamics d;
    d.damping = damping_;
    d.friction = friction_;
    d.armature = gear_ratio * gear_ratio * rotor_inertia;
    return d;
  }
};

/// A joint's limits as a URDF `<limit>` gives them, kept in the model for users (no algorithm
/// reads them). `lower`/`upper`: position limits (rad or m; -inf/+inf for an unbounded joint such
/// as URDF `continuous`); `velocity` (rad/s or m/s) and `effort` (N m or N): the magnitudes the
/// joint may reach. A chain checks: no NaN, lower <= upper, velocity >= 0, effort >= 0.
template <typename Scalar>
struct JointLimits {
  Scalar lower = Scalar(0);
  Scalar upper = Scalar(0);
  Scalar velocity = Scalar(0);
  Scalar effort = Scalar(0);
};

/// One link of a serial chain and the joint that moves it (URDF-style description).
///
/// - `placement`: the pose of the joint frame in the parent link frame (URDF joint `<origin>`);
///   the parent of the first link is the base.
/// - `axis`: for Revolute and Prismatic (run-time axis) joints, the joint axis in the joint
///   frame (normalized on construction). Joints with the axis in their type (RevoluteZ, ...)
///   leave it empty or give that same axis.
/// - The link frame is the joint frame after the joint's motion.
/// - `mass`, `com` (centre of mass in the link frame) and `inertia` (rotational inertia about
///   the centre of mass, in link-frame axes), as URDF `<inertial>`.
/// - `limits`, `joint_name`: the joint's `<limit>` and name (URDF), for users; the algorithms
///   ignore them. (Appended last, with default member initializers, so that aggregate
///   initializations of the members before them stay complete.)
template <typename Scalar>
struct Link {
  std::string name;
  Transform<Scalar> placement = Transform<Scalar>::Identity();
  std::optional<Vector3<Scalar>> axis;
  Scalar mass = Scalar(0);
  Vector3<Scalar> com = Vector3<Scalar>::Zero();
  Matrix3<Scalar> inertia = Matrix3<Scalar>::Zero();
  JointDynamics<Scalar> dynamics;
  std::optional<JointLimits<Scalar>> limits = std::nullopt;
  std::string joint_name = {};
};

namespace detail {

inline std::string link_label(std::size_t index, const std::string& name) {
  std::ostringstream os;
  os << "link " << index;
  if (!name.empty()) os << " ('" << name << "')";
  return os.str();
}

template <typename Derived>
bool all_finite(const Eigen::MatrixBase<Derived>& m) {
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      if (!std::isfinite(scalar_value(m(r, c)))) return false;
    }
  }
  return true;
}

/// A symmetric 3x3 matrix is positive semi-definite iff all its principal minors are >= 0;
/// `tol` is relative to the matrix's largest entry.
inline bool symmetric_psd(const Eigen::Matrix3d& m, double tol) {
  const double s = std::max(m.cwiseAbs().maxCoeff(), 1e-300);
  const double s2 = s * s;
  for (int k = 0; k < 3; ++k) {
    if (m(k, k) < -tol * s) return false;
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 3; ++j) {
      if (m(i, i) * m(j, j) - m(i, j) * m(j, i) < -tol * s2) return false;
    }
  }
  return m.determinant() >= -tol * s2 * s;
}

inline std::string format_matrix(const Eigen::Matrix3d& m) {
  std::ostringstream os;
  os << '[';
  for (int r = 0; r < 3; ++r) {
    os << (r ? "; " : "") << m(r, 0) << ' ' << m(r, 1) << ' ' << m(r, 2);
  }
  os << ']';
  return os.str();
}

/// Checks a link's numbers (not its axis: the joint model checks that). Throws ModelError.
template <typename Scalar>
void validate_link(const Link<Scalar>& link, const std::string& where) {
  constexpr double tol = 1e-6;
  const Matrix3<Scalar>& r = link.placement.rotation;
  if (!all_finite(r) || !all_finite(link.placement.translation)) {
    throw_model_error(where, ": placement is not finite (translation ",
                      format_vector(link.placement.translation), ")");
  }
  const Eigen::Matrix3d rd = r.unaryExpr([](const Scalar& x) { return scalar_value(x); });
  if (!((rd.transpose() * rd - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < tol) ||
      !(rd.determinant() > 0.0)) {
    throw_model_error(where, ": placement rotation ", format_matrix(rd),
                      " is not a rotation matrix (orthonormal, determinant +1)");
  }
  const double m = scalar_value(link.mass);
  if (!std::isfinite(m)) throw_model_error(where, ": mass is not finite (", m, ")");
  if (m < 0.0) throw_model_error(where, ": mass is negative (", m, ")");
  if (!all_finite(link.com)) {
    throw_model_error(where, ": centre of mass ", format_vector(link.com), " is not finite");
  }
  const Eigen::Matrix3d in =
      link.inertia.unaryExpr([](const Scalar& x) { return scalar_value(x); });
  if (!all_finite(in)) {
    throw_model_error(where, ": inertia ", format_matrix(in), " is not finite");
  }
  const double scale = std::max(in.cwiseAbs().maxCoeff(), 1e-300);
  if (!((in - in.transpose()).cwiseAbs().maxCoeff() <= tol * scale)) {
    throw_model_error(where, ": inertia ", format_matrix(in), " is not symmetric");
  }
  if (!symmetric_psd(in, tol)) {
    throw_model_error(where, ": inertia ", format_matrix(in),
                      " is not positive semi-definite");
  }
  // Principal moments satisfy the triangle inequality (I1 + I2 >= I3) iff the second moment of
  // the mass distribution, Sigma = tr(I)/2 * 1 - I, is positive semi-definite.
  const Eigen::Matrix3d sigma = 0.5 * in.trace() * Eigen::Matrix3d::Identity() - in;
  if (!symmetric_psd(sigma, tol)) {
    throw_model_error(where, ": inertia ", format_matrix(in),
                      " violates the triangle inequality of principal moments (I1 + I2 >= I3)");
  }
  const JointDynamics<Scalar>& d = link.dynamics;
  const std::pair<const char*, double> params[] = {{"damping", scalar_value(d.damping)},
                                                   {"friction", scalar_value(d.friction)},
                                                   {"armature", scalar_value(d.armature)}};
  for (const auto& [name, value] : params) {
    if (!std::isfinite(value)) {
      throw_model_error(where, ": joint ", name, " is not finite (", value, ")");
    }
    if (value < 0.0) throw_model_error(where, ": joint ", name, " is negative (", value, ")");
  }
  if (link.limits) {
    const double lower = scalar_value(link.limits->lower);
    const double upper = scalar_value(link.limits->upper);
    const double velocity = scalar_value(link.limits->velocity);
    const double effort = scalar_value(link.limits->effort);
    if (std::isnan(lower) || std::isnan(upper) || !(lower <= upper)) {
      throw_model_error(where, ": joint limits lower ", lower, " and upper ", upper,
                        " do not satisfy lower <= upper");
    }
    if (!(velocity >= 0.0)) {
      throw_model_error(where, ": joint velocity limit ", velocity, " is not >= 0");
    }
    if (!(effort >= 0.0)) {
      throw_model_error(where, ": joint effort limit ", effort, " is not >= 0");
    }
  }
}

}  // namespace detail
}  // namespace chaindyn
