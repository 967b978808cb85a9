/// @file
/// Frames fixed on a link (a tool centre point, a sensor) and the two coordinate choices the
/// Jacobian and its relatives are given in.
#pragma once

#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/error.hpp"

#include <stdexcept>
#include <string>

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

/// The pose in the base frame of a frame F fixed on link `link` (0-based), given its pose
/// `frame_in_link` in the link frame: oMf = oMi[link] * frame_in_link. Identity gives the link
/// frame itself. Precondition: link < Model::nq. Fills data.liMi, data.oMi (every link) and
/// data.oMf; returns data.oMf.
template <typename Model>
const Transform<typename Model::Scalar>& frame_pose(
    const Model& model, DataFor<Model>& data, const typename Model::Vector& q, std::size_t link,
    const Transform<typename Model::Scalar>& frame_in_link) noexcept {
  forward_kinematics(model, data, q);
  data.oMf = data.oMi[link] * frame_in_link;
  return data.oMf;
}

/// In-place form for the link frame itself.
template <typename Model>
const Transform<typename Model::Scalar>& frame_pose(const Model& model, DataFor<Model>& data,
                                                    const typename Model::Vector& q,
                                                    std::size_t link) noexcept {
  return frame_pose(model, data, q, link, Transform<typename Model::Scalar>::Identity());
}

/// Returning form of frame_pose. Throws IndexError (a std::out_of_range) if link >= Model::nq.
template <typename Model>
Transform<typename Model::Scalar> frame_pose(
    const Model& model, const typename Model::Vector& q, std::size_t link,
    const Transform<typename Model::Scalar>& frame_in_link =
        Transform<typename Model::Scalar>::Identity()) {
  detail::check_index(link, std::size_t(Model::nq));
  Data<Model> data;
  return frame_pose(model, data, q, link, frame_in_link);
}

}  // namespace chaindyn
