/// @file
/// Forward kinematics: every link's pose in its parent and in the base frame.
#pragma once

#include "chaindyn/model/data.hpp"

namespace chaindyn {

/// Fills data.liMi (pose of link i in its parent: placement_i * J_i(q_i)) and data.oMi (pose
/// of link i in the base frame: oMi[i] = oMi[i-1] * liMi[i]).
template <typename Model>
void forward_kinematics(const Model& model, DataFor<Model>& data,
                        const typename Model::Vector& q) noexcept {
  model.for_each_joint([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    data.liMi[i] = joint.pose(model.placement(i), q[Eigen::Index(i)]);
    data.oMi[i] = i == 0 ? data.liMi[i] : data.oMi[i - 1] * data.liMi[i];
  });
}

/// Returns every link's pose in the base frame.
template <typename Model>
std::array<Transform<typename Model::Scalar>, std::size_t(Model::nq)> forward_kinematics(
    const Model& model, const typename Model::Vector& q) {
  Data<Model> data;
  forward_kinematics(model, data, q);
  return data.oMi;
}

}  // namespace chaindyn
