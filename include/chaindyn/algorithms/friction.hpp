/// @file
/// The joint friction term of the equation of motion (part of eps(q, qd, qdd)).
#pragma once

#include "chaindyn/model/arguments.hpp"
#include "chaindyn/spatial/kernels.hpp"

namespace chaindyn {

/// Joint i's friction torque: damping_i * qd_i + friction_i * sign(qd_i) (viscous + Coulomb;
/// zero at rest: stiction is not modelled). `rnea` adds it to tau, `aba` and
/// `forward_dynamics_crba` subtract it from tau.
template <typename Model>
inline CHAINDYN_ALWAYS_INLINE typename Model::Scalar joint_friction(const Model& model, std::size_t i,
                                      const typename Model::Scalar& qd) noexcept {
  using Scalar = typename Model::Scalar;
  const auto k = Eigen::Index(i);
  // Two named products, then their sum: for AutoDiffScalar<VectorXd> a sum of two unevaluated
  // products whose derivative vectors differ in size (a model constant's is empty) fails
  // Eigen's size assertion, while the sum of two evaluated scalars resizes the empty one.
  const Scalar viscous = model.damping()[k] * qd;
  const Scalar coulomb = model.friction()[k] * detail::sign(qd);
  return viscous + coulomb;
}

/// The vector of joint friction torques (see joint_friction): any Eigen vector, size checked
/// (throws ArgumentError).
template <typename Model, typename Qd>
typename Model::Vector friction_torques(const Model& model, const Eigen::MatrixBase<Qd>& qd_in) {
  const auto& qd = detail::checked_joint_vector(model, qd_in, "friction_torques", "qd");
  typename Model::Vector out(Eigen::Index(detail::joint_count(model)));
  for (Eigen::Index i = 0; i < out.size(); ++i) out[i] = joint_friction(model, std::size_t(i), qd[i]);
  return out;
}

}  // namespace chaindyn
