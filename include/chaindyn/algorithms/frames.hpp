/// @file
/// Frames fixed on a link (a tool centre point, a sensor) and the two coordinate choices the
/// Jacobian and its relatives are given in.
#pragma once

#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/error.hpp"
#include "chaindyn/model/frame.hpp"

#include <string_view>

namespace chaindyn {

/// The coordinates of a frame F's velocity, acceleration, Jacobian or wrench. Both are about
/// F's origin; they differ in the axes. Six-vectors are ordered [angular; linear] throughout.
enum class ReferenceFrame {
  /// The base frame's axes, at F's origin: J qd = (omega; v), omega the angular velocity and v
  /// the velocity of F's origin, both in base coordinates (the classical geometric Jacobian of
  /// Siciliano et al., Robotics, sec. 3.1, and Craig, Introduction to Robotics, ch. 5, with
  /// the rows swapped to [angular; linear]). A wrench in `world` is (moment about F's origin;
  /// force), both in base coordinates.
  world,
  /// F's own axes, at F's origin: J_local = blockdiag(R^T, R^T) J_world, R the rotation of F
  /// in the base frame (the body Jacobian; J_local qd is F's spatial velocity in F's
  /// coordinates).
  local,
};

/// The pose in the base frame of the frame F `frame` (a handle made by the model:
/// model.frame(link, offset), model.frame(name), model.base_frame(pose); model/frame.hpp):
/// oMf = oMi[link] * placement (RBDA sec. 2.8: poses compose), or placement for a frame on the
/// base. No check: the handle's link was checked when it was made. Fills data.liMi, data.oMi
/// (every link) and data.oMf; returns data.oMf.
template <typename Model, typename Q>
const Transform<typename Model::Scalar>& frame_pose(const Model& model, DataFor<Model>& data,
                                                    const Eigen::MatrixBase<Q>& q_in,
                                                    const FrameFor<Model>& frame)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("frame_pose", model, data, "q", q_in, "frame", frame);
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  forward_kinematics(model, data, q);
  data.oMf = frame.on_base() ? frame.placement() : data.oMi[frame.link()] * frame.placement();
  return data.oMf;
}

/// Checked in-place form: the frame at pose `frame_in_link` in the USER's frame of link `link`
/// (0-based; the URDF's link frame for a chain built from a URDF, see Chain::link_frame), i.e.
/// frame_pose(model, data, q, model.frame(link, frame_in_link)). Throws IndexError if
/// link >= Model::nq (hence not noexcept); allocates nothing. In a loop, make the handle once.
template <typename Model, typename Q>
const Transform<typename Model::Scalar>& frame_pose(
    const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q, std::size_t link,
    const Transform<typename Model::Scalar>& frame_in_link) {
  return frame_pose(model, data, q, model.frame(link, frame_in_link));
}

/// Checked in-place form for link `link`'s (user) frame itself. Throws IndexError.
template <typename Model, typename Q>
const Transform<typename Model::Scalar>& frame_pose(const Model& model, DataFor<Model>& data,
                                                    const Eigen::MatrixBase<Q>& q,
                                                    std::size_t link) {
  return frame_pose(model, data, q, model.frame(link));
}

/// Returning form of frame_pose for a frame handle.
template <typename Model, typename Q>
Transform<typename Model::Scalar> frame_pose(const Model& model, const Eigen::MatrixBase<Q>& q,
                                             const FrameFor<Model>& frame) {
  Data<Model>& data = detail::thread_workspace(model);
  return frame_pose(model, data, detail::checked_joint_vector(model, q, "frame_pose", "q"), frame);
}

/// Returning form for the frame at pose `frame_in_link` in the user's frame of link `link`.
/// Throws IndexError (a std::out_of_range) if link >= Model::nq.
template <typename Model, typename Q>
Transform<typename Model::Scalar> frame_pose(
    const Model& model, const Eigen::MatrixBase<Q>& q, std::size_t link,
    const Transform<typename Model::Scalar>& frame_in_link =
        Transform<typename Model::Scalar>::Identity()) {
  return frame_pose(model, q, model.frame(link, frame_in_link));
}

/// Returning form for a named frame (a URDF link such as "tool0", or one added with
/// model.add_frame). Throws IndexError, listing the chain's frames, if there is none of that name.
template <typename Model, typename Q>
Transform<typename Model::Scalar> frame_pose(const Model& model, const Eigen::MatrixBase<Q>& q,
                                             std::string_view name) {
  return frame_pose(model, q, model.frame(name));
}

}  // namespace chaindyn
