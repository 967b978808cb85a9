/// @file
/// The velocity and gravity terms of the equation of motion, by RNEA passes with qdd = 0.
#pragma once

#include "chaindyn/algorithms/rnea.hpp"

namespace chaindyn {

/// g(q): the joint torques that hold the chain still against gravity (RNEA with qd = qdd = 0,
/// no friction). Fills data.tau.
template <typename Model>
void gravity_torques(const Model& model, DataFor<Model>& data,
                     const typename Model::Vector& q) noexcept {
  detail::rnea_pass<false, false, false>(model, data, q, detail::NoArgument{},
                                         detail::NoArgument{}, nullptr);
}

template <typename Model>
typename Model::Vector gravity_torques(const Model& model, const typename Model::Vector& q) {
  Data<Model> data;
  gravity_torques(model, data, q);
  return data.tau;
}

/// h(q, qd) = C(q, qd) qd + g(q): Coriolis, centrifugal and gravity torques (RNEA with
/// qdd = 0; friction excluded, see friction_torques). Fills data.nle.
template <typename Model>
void nonlinear_effects(const Model& model, DataFor<Model>& data, const typename Model::Vector& q,
                       const typename Model::Vector& qd) noexcept {
  detail::rnea_pass<true, false, false>(model, data, q, qd, detail::NoArgument{}, nullptr);
  data.nle = data.tau;
}

template <typename Model>
typename Model::Vector nonlinear_effects(const Model& model, const typename Model::Vector& q,
                                         const typename Model::Vector& qd) {
  Data<Model> data;
  nonlinear_effects(model, data, q, qd);
  return data.nle;
}

}  // namespace chaindyn
