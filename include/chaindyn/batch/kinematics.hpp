/// @file
/// Kinematics of many states per call: batch::frame_pose and batch::jacobian, the one-state
/// algorithms (algorithms/frames.hpp, algorithms/jacobian.hpp) run on packs of W states.
#pragma once

#include "chaindyn/algorithms/jacobian.hpp"
#include "chaindyn/batch/workspace.hpp"

namespace chaindyn::batch {

/// The pose in the base frame of the frame `frame` (a handle of the double model:
/// model.frame(...)) at every column s of Q (N x n) into Poses (3 x 4 n, sized by the caller):
/// state s's pose is Poses.middleCols(4 s, 4) = [R p], rotation and translation. Allocates
/// nothing; throws ArgumentError on a size mismatch.
template <typename Model, int W, typename Q, typename P>
void frame_pose(Workspace<Model, W>& ws, const Eigen::MatrixBase<Q>& q,
                const FrameFor<Model>& frame, const Eigen::MatrixBase<P>& poses_out) {
  using PackModel = typename Workspace<Model, W>::PackModel;
  using PackScalar = typename Workspace<Model, W>::PackScalar;
  const Eigen::Index N = ws.joint_count();
  const Eigen::Index n = q.cols();
  detail::check_batch_size(q, N, n, "frame_pose", "Q");
  detail::check_batch_size(poses_out, 3, 4 * n, "frame_pose", "Poses");
  auto& poses = const_cast<Eigen::MatrixBase<P>&>(poses_out);
  const FrameFor<PackModel> pack_frame = ws.model().cast_frame(frame);
  ws.map_columns(n, sizeof(double) * 12, [&](auto& w, Eigen::Index c, int m) CHAINDYN_ALWAYS_INLINE {
    Data<PackModel>& data = w.data();
    auto& pq = w.inputs[0];
    Eigen::Matrix<PackScalar, 3, 4> pose;
    detail::gather(q, c, m, pq);
    const Transform<PackScalar>& x = chaindyn::frame_pose(ws.model(), data, pq, pack_frame);
    pose.template leftCols<3>() = x.rotation;
    pose.col(3) = x.translation;
    detail::scatter_matrices(pose, c, m, poses);
  });
}

/// The Jacobian of the frame `frame` (a handle of the double model) in coordinates `rf` at
/// every column s of Q (N x n) into Js (6 x N n, sized by the caller): state s's Jacobian is
/// Js.middleCols(s * N, N), rows [angular; linear] as jacobian's. Allocates nothing; throws
/// ArgumentError on a size mismatch.
template <typename Model, int W, typename Q, typename J>
void jacobian(Workspace<Model, W>& ws, const Eigen::MatrixBase<Q>& q, const FrameFor<Model>& frame,
              ReferenceFrame rf, const Eigen::MatrixBase<J>& js_out) {
  using PackModel = typename Workspace<Model, W>::PackModel;
  const Eigen::Index N = ws.joint_count();
  const Eigen::Index n = q.cols();
  detail::check_batch_size(q, N, n, "jacobian", "Q");
  detail::check_batch_size(js_out, 6, N * n, "jacobian", "Js");
  auto& js = const_cast<Eigen::MatrixBase<J>&>(js_out);
  const FrameFor<PackModel> pack_frame = ws.model().cast_frame(frame);
  ws.map_columns(n, sizeof(double) * std::size_t(6 * N), [&](auto& w, Eigen::Index c, int m) CHAINDYN_ALWAYS_INLINE {
    Data<PackModel>& data = w.data();
    auto& pq = w.inputs[0];
    auto& jac = w.jacobian;
    detail::gather(q, c, m, pq);
    chaindyn::jacobian(ws.model(), data, pq, pack_frame, rf, jac);
    detail::scatter_matrices(jac, c, m, js);
  });
}

}  // namespace chaindyn::batch
