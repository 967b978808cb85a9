/// @file
/// The velocity and gravity terms of the equation of motion, by RNEA passes with qdd = 0.
#pragma once

#include "chaindyn/algorithms/rnea.hpp"

namespace chaindyn {

/// g(q): the joint torques that hold the chain still against gravity (RNEA with qd = qdd = 0,
/// no friction). Fills data.tau.
template <typename Model, typename Q>
void gravity_torques(const Model& model, DataFor<Model>& data,
                     const Eigen::MatrixBase<Q>& q) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("gravity_torques", model, data, "q", q);
  detail::rnea_pass<false, false, false>(model, data, detail::as_joint_vector<Model>(q.derived()),
                                         detail::NoArgument{}, detail::NoArgument{}, nullptr);
}

/// Returning form of gravity_torques: any Eigen vector, size checked (throws ArgumentError).
template <typename Model, typename Q>
typename Model::Vector gravity_torques(const Model& model, const Eigen::MatrixBase<Q>& q) {
  Data<Model>& data = detail::thread_workspace(model);
  gravity_torques(model, data, detail::checked_joint_vector(model, q, "gravity_torques", "q"));
  return data.tau;
}

/// h(q, qd) = C(q, qd) qd + g(q): Coriolis, centrifugal and gravity torques (RNEA with
/// qdd = 0; friction excluded, see friction_torques). Fills data.nle.
template <typename Model, typename Q, typename Qd>
void nonlinear_effects(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
                       const Eigen::MatrixBase<Qd>& qd) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("nonlinear_effects", model, data, "q", q, "qd", qd);
  detail::rnea_pass<true, false, false>(model, data, detail::as_joint_vector<Model>(q.derived()),
                                        detail::as_joint_vector<Model>(qd.derived()),
                                        detail::NoArgument{}, nullptr);
  data.nle = data.tau;
}

/// Returning form of nonlinear_effects: any Eigen vectors, sizes checked.
template <typename Model, typename Q, typename Qd>
typename Model::Vector nonlinear_effects(const Model& model, const Eigen::MatrixBase<Q>& q,
                                         const Eigen::MatrixBase<Qd>& qd) {
  Data<Model>& data = detail::thread_workspace(model);
  nonlinear_effects(model, data, detail::checked_joint_vector(model, q, "nonlinear_effects", "q"),
                    detail::checked_joint_vector(model, qd, "nonlinear_effects", "qd"));
  return data.nle;
}

}  // namespace chaindyn
