/// @file
/// ElasticJoints: the per-joint parameters of Spong's elastic-joint model (stiffness, spring
/// damping, rotor inertia; a rigid joint with stiffness +inf), attached to a model. The
/// algorithms that use them are in algorithms/elastic_joints.hpp; urdf/elastic.hpp reads them
/// from a URDF.
#pragma once

#include "chaindyn/config.hpp"
#include "chaindyn/error.hpp"
#include "chaindyn/model/per_link.hpp"

#include <Eigen/Core>

#include <cmath>
#include <limits>

namespace chaindyn {

/// The per-joint parameters of Spong's elastic-joint model, attached to a model: stiffness K
/// (N m/rad or N/m, > 0), spring damping D (N m s/rad, >= 0) and rotor inertia B reflected to
/// the joint (kg m^2, > 0). A joint with K = +infinity is rigid: its motor drives the link
/// directly (theta = q, the motor torque is the joint torque), D and B must be 0 there, and its
/// rotor inertia belongs in the model's armature (Link::dynamics.armature), as on a rigid
/// robot. Construction validates and throws ModelError naming the joint and the value.
template <typename Model>
struct ElasticJoints {
  using Scalar = typename Model::Scalar;
  using Vector = typename Model::Vector;
  Vector stiffness;      ///< K
  Vector damping;        ///< D (spring damping, in parallel with the spring)
  Vector rotor_inertia;  ///< B

  ElasticJoints(const Model& model, const Vector& stiffness_, const Vector& damping_,
                const Vector& rotor_inertia_)
      : stiffness(stiffness_), damping(damping_), rotor_inertia(rotor_inertia_) {
    const auto n = Eigen::Index(detail::joint_count(model));
    if (stiffness.size() != n || damping.size() != n || rotor_inertia.size() != n) {
      detail::throw_model_error("ElasticJoints: K, D and B need ", n, " entries each; given ",
                                stiffness.size(), ", ", damping.size(), ", ",
                                rotor_inertia.size());
    }
    for (Eigen::Index i = 0; i < n; ++i) {
      using std::isfinite;
      const double k = double(stiffness[i]), d = double(damping[i]), b = double(rotor_inertia[i]);
      if (k == std::numeric_limits<double>::infinity()) {
        if (d != 0.0 || b != 0.0) {
          detail::throw_model_error("ElasticJoints: joint ", i, " is rigid (stiffness +inf): its "
                                    "damping and rotor inertia must be 0 (given ", d, ", ", b,
                                    "; a rigid joint's rotor inertia is the model's armature)");
        }
        continue;
      }
      if (!(isfinite(k) && k > 0)) {
        detail::throw_model_error("ElasticJoints: joint ", i, ": stiffness ", k,
                                  " is not positive (finite, or +inf for a rigid joint)");
      }
      if (!(isfinite(d) && d >= 0)) {
        detail::throw_model_error("ElasticJoints: joint ", i, ": damping ", d,
                                  " is not finite and non-negative");
      }
      if (!(isfinite(b) && b > 0)) {
        detail::throw_model_error("ElasticJoints: joint ", i, ": rotor inertia ", b,
                                  " is not finite and positive");
      }
    }
  }
  /// Whether joint i is rigid (stiffness +infinity).
  bool rigid(Eigen::Index i) const noexcept {
    return double(stiffness[i]) == std::numeric_limits<double>::infinity();
  }
  /// The same K, D and B on every joint.
  static ElasticJoints uniform(const Model& model, const Scalar& k, const Scalar& d,
                               const Scalar& b) {
    const auto n = Eigen::Index(detail::joint_count(model));
    return ElasticJoints(model, Vector::Constant(n, k), Vector::Constant(n, d),
                         Vector::Constant(n, b));
  }

  /// The spring torque on the links, K (theta - q) + D (thetad - qd) (elastic joints only:
  /// 0 on a rigid joint, whose torque is the motor's).
  template <typename V>
  Vector spring_torque(const V& q, const V& qd, const V& theta, const V& thetad) const {
    Vector out(q.size());
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      out[i] = rigid(i) ? Scalar(0)
                        : stiffness[i] * (theta[i] - q[i]) + damping[i] * (thetad[i] - qd[i]);
    }
    return out;
  }
};

}  // namespace chaindyn
