/// @file
/// Kinematics of many states per call: batch::frame_pose, batch::jacobian,
/// batch::frame_velocity and batch::frame_acceleration, the one-state algorithms
/// (algorithms/frames.hpp, algorithms/jacobian.hpp, algorithms/frame_motion.hpp) run on packs
/// of W states.
#pragma once

#include "chaindyn/algorithms/frame_motion.hpp"
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

/// The velocity (omega; v) of the frame `frame` (a handle of the double model) in coordinates
/// `rf` at every column s of Q and Qd (N x n each) into the columns of Vs (6 x n, sized by the
/// caller), as frame_velocity's (J qd). Allocates nothing; throws ArgumentError on a size
/// mismatch.
template <typename Model, int W, typename Q, typename Qd, typename V>
void frame_velocity(Workspace<Model, W>& ws, const Eigen::MatrixBase<Q>& q,
                    const Eigen::MatrixBase<Qd>& qd, const FrameFor<Model>& frame,
                    ReferenceFrame rf, const Eigen::MatrixBase<V>& vs_out) {
  using PackModel = typename Workspace<Model, W>::PackModel;
  using PackScalar = typename Workspace<Model, W>::PackScalar;
  const Eigen::Index N = ws.joint_count();
  const Eigen::Index n = q.cols();
  detail::check_batch_size(q, N, n, "frame_velocity", "Q");
  detail::check_batch_size(qd, N, n, "frame_velocity", "Qd");
  detail::check_batch_size(vs_out, 6, n, "frame_velocity", "Vs");
  auto& vs = const_cast<Eigen::MatrixBase<V>&>(vs_out);
  const FrameFor<PackModel> pack_frame = ws.model().cast_frame(frame);
  ws.map_columns(n, sizeof(double) * 6, [&](auto& w, Eigen::Index c, int m) CHAINDYN_ALWAYS_INLINE {
    auto& pq = w.inputs[0];
    auto& pqd = w.inputs[1];
    detail::gather(q, c, m, pq);
    detail::gather(qd, c, m, pqd);
    Motion<PackScalar> v;
    chaindyn::frame_velocity(ws.model(), w.data(), pq, pqd, pack_frame, rf, v);
    const Eigen::Matrix<PackScalar, 6, 1> column = v.vector();
    detail::scatter(column, c, m, vs);
  });
}

/// The spatial acceleration (omega_dot; p_ddot - omega x p_dot) of the frame `frame` (a handle
/// of the double model) in coordinates `rf`, no gravity, at every column s of Q, Qd and Qdd
/// (N x n each) into the columns of As (6 x n, sized by the caller), as frame_acceleration's
/// (J qdd + Jdot qd in local coordinates). Allocates nothing; throws ArgumentError on a size
/// mismatch.
template <typename Model, int W, typename Q, typename Qd, typename Qdd, typename A>
void frame_acceleration(Workspace<Model, W>& ws, const Eigen::MatrixBase<Q>& q,
                        const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Qdd>& qdd,
                        const FrameFor<Model>& frame, ReferenceFrame rf,
                        const Eigen::MatrixBase<A>& as_out) {
  using PackModel = typename Workspace<Model, W>::PackModel;
  using PackScalar = typename Workspace<Model, W>::PackScalar;
  const Eigen::Index N = ws.joint_count();
  const Eigen::Index n = q.cols();
  detail::check_batch_size(q, N, n, "frame_acceleration", "Q");
  detail::check_batch_size(qd, N, n, "frame_acceleration", "Qd");
  detail::check_batch_size(qdd, N, n, "frame_acceleration", "Qdd");
  detail::check_batch_size(as_out, 6, n, "frame_acceleration", "As");
  auto& as = const_cast<Eigen::MatrixBase<A>&>(as_out);
  const FrameFor<PackModel> pack_frame = ws.model().cast_frame(frame);
  ws.map_columns(n, sizeof(double) * 6, [&](auto& w, Eigen::Index c, int m) CHAINDYN_ALWAYS_INLINE {
    auto& [pq, pqd, pqdd] = w.inputs;
    detail::gather(q, c, m, pq);
    detail::gather(qd, c, m, pqd);
    detail::gather(qdd, c, m, pqdd);
    Motion<PackScalar> a;
    chaindyn::frame_acceleration(ws.model(), w.data(), pq, pqd, pqdd, pack_frame, rf, a);
    const Eigen::Matrix<PackScalar, 6, 1> column = a.vector();
    detail::scatter(column, c, m, as);
  });
}

/// Returning form of batch::frame_velocity: a Workspace made for this call (it allocates; in a
/// loop, keep a Workspace and call the in-place form); 6 x n.
template <typename Model, typename Q, typename Qd>
Eigen::Matrix<double, 6, Eigen::Dynamic> frame_velocity(const Model& model,
                                                        const Eigen::MatrixBase<Q>& q,
                                                        const Eigen::MatrixBase<Qd>& qd,
                                                        const FrameFor<Model>& frame,
                                                        ReferenceFrame rf,
                                                        const Options& options = {}) {
  Workspace<Model> ws(model, options);
  Eigen::Matrix<double, 6, Eigen::Dynamic> vs(6, q.cols());
  batch::frame_velocity(ws, q, qd, frame, rf, vs);
  return vs;
}

/// Returning form of batch::frame_acceleration (as batch::frame_velocity's); 6 x n.
template <typename Model, typename Q, typename Qd, typename Qdd>
Eigen::Matrix<double, 6, Eigen::Dynamic> frame_acceleration(
    const Model& model, const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Qd>& qd,
    const Eigen::MatrixBase<Qdd>& qdd, const FrameFor<Model>& frame, ReferenceFrame rf,
    const Options& options = {}) {
  Workspace<Model> ws(model, options);
  Eigen::Matrix<double, 6, Eigen::Dynamic> as(6, q.cols());
  batch::frame_acceleration(ws, q, qd, qdd, frame, rf, as);
  return as;
}

}  // namespace chaindyn::batch
