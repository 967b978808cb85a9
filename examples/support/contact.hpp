/// @file
/// What the grasping examples share (not part of the chaindyn library): a force and a moment
/// applied at a point of a link, turned into that link's external wrench as rnea and aba take
/// it (LinkForces: the link's frame, about its origin).
#pragma once

#include <chaindyn/algorithms/frames.hpp>

#include <cstddef>

namespace example_support {

/// The external wrench on link `link` of a force `force` applied at the point `point` and a
/// moment `moment` (base coordinates: a contact's force and moment in the world), in the
/// link's frame about its origin: moment n + (p - o) x f and force f turned into the user's
/// link frame (pose (R, o) from frame_pose), then into the frame the algorithms compute in
/// (Chain::link_frame, identity unless a builder turned the link frame).
template <typename Model, typename Q>
chaindyn::Force<double> wrench_on_link(const Model& model, const Q& q, std::size_t link,
                                       const Eigen::Vector3d& point, const Eigen::Vector3d& force,
                                       const Eigen::Vector3d& moment = Eigen::Vector3d::Zero()) {
  const chaindyn::Transform<double> pose = chaindyn::frame_pose(model, q, link);
  const Eigen::Matrix3d rt = pose.rotation.transpose();
  const chaindyn::Force<double> in_user_frame(
      rt * (moment + (point - pose.translation).cross(force)), rt * force);
  return model.link_frame(link).act(in_user_frame);
}

}  // namespace example_support
