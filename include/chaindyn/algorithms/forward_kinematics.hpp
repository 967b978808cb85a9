/// @file
/// Forward kinematics: every link's pose in its parent and in the base frame.
#pragma once

#include "chaindyn/joints/placed.hpp"
#include "chaindyn/model/data.hpp"
#include "chaindyn/model/joint_walks.hpp"
#include "chaindyn/spatial/sincos.hpp"

#include <type_traits>

namespace chaindyn {

namespace detail {

/// data.liMi[i] = placement_i * J_i(q_i) for every joint, with the sines and cosines of all
/// joint coordinates computed first in one batch (spatial/sincos.hpp). The first step of every
/// algorithm that depends on q. `data`: a Data, or any workspace with a liMi member (and, for
/// a ChainX, sin_q and cos_q).
template <typename Model, typename Work>
inline CHAINDYN_ALWAYS_INLINE void joint_poses(const Model& model, Work& data,
                                        const typename Model::Vector& q) noexcept {
  using Scalar = typename Model::Scalar;
  if constexpr (Model::nq == Eigen::Dynamic) {
    // A runtime-sized chain keeps the batch in its Data (sized when the Data was made).
    Scalar* s = data.sin_q.data();
    Scalar* c = data.cos_q.data();
    sincos(q.data(), s, c, int(q.size()));
    model.joints_forward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
      data.liMi[i] = joint.pose(model.placement(i), q[Eigen::Index(i)], s[i], c[i]);
    });
  } else {
    std::array<Scalar, std::size_t(Model::nq)> s, c;
    sincos(q.data(), s.data(), c.data(), Model::nq);
    model.joints_forward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
      data.liMi[i] = joint.pose(model.placement(i), q[Eigen::Index(i)], s[i], c[i]);
    });
  }
}

/// Whether a chain's forward pass carries each link's base pose to the next link in a local
/// (clang++, a floating-point scalar) rather than reading it back from data.oMi. Read back, the
/// translation's last two entries load as one 16-byte packet over the 16- and 8-byte stores
/// that wrote them, which the store buffer cannot forward. g++ copies such a local through the
/// stack by scalars and reads it back by packets, the same stall; a SIMD pack scalar's pose is
/// too large for a local (docs/benchmarks.md, "carry_pose_in_local").
template <typename Scalar>
inline constexpr bool carry_pose_in_local = kClangCompiler && std::is_floating_point_v<Scalar>;

/// The world-frame kinematics of links 0..last: data.liMi (every link, by joint_poses),
/// data.oMi[i] = oMi[parent(i)] liMi[i] and the joint's motion subspace column in base
/// coordinates about the base origin, data.oS[i] = oMi[i].act(S_i) (RBDA eq. 2.24;
/// joint.subspace_in). The first pass of jacobian, joint_torques_from_wrench, coriolis_matrix
/// and crba in base coordinates. (aba and rnea_derivatives write the same
/// steps out in a large_body walk and oMi[0] copied late: see aba.hpp.)
template <typename Model>
inline CHAINDYN_ALWAYS_INLINE void world_kinematics(
    const Model& model, DataFor<Model>& data, const typename Model::Vector& q,
    std::size_t last = std::size_t(-1)) noexcept {
  joint_poses(model, data, q);
  if constexpr (Model::serial && carry_pose_in_local<typename Model::Scalar>) {
    Transform<typename Model::Scalar> omi;
    model.joints_forward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
      if (i > last) return;
      omi = i == 0 ? data.liMi[i] : compose(model, i, joint, omi, data.liMi[i]);
      data.oMi[i] = omi;
      data.oS[i] = joint.subspace_in(omi);
    });
  } else {
    model.joints_forward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
      if (i > last) return;
      if constexpr (Model::serial) {  // with i - 1: through parent(i), clang++'s code differs
        data.oMi[i] = i == 0 ? data.liMi[i] : compose(model, i, joint, data.oMi[i - 1], data.liMi[i]);
      } else {
        data.oMi[i] = model.is_root(i) ? data.liMi[i]
                                       : compose(model, i, joint, data.oMi[model.parent(i)], data.liMi[i]);
      }
      data.oS[i] = joint.subspace_in(data.oMi[i]);
    });
  }
}

}  // namespace detail

/// Fills data.liMi (pose of link i in its parent: placement_i * J_i(q_i)) and data.oMi (pose
/// of link i in the base frame: oMi[i] = oMi[parent(i)] * liMi[i]).
template <typename Model, typename Q>
void forward_kinematics(const Model& model, DataFor<Model>& data,
                        const Eigen::MatrixBase<Q>& q) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("forward_kinematics", model, data, "q", q);
  detail::joint_poses(model, data, detail::as_joint_vector<Model>(q.derived()));
  model.joints_forward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    data.oMi[i] = model.is_root(i)
                      ? data.liMi[i]
                      : detail::compose(model, i, joint, data.oMi[model.parent(i)], data.liMi[i]);
  });
}

/// Returns every link's pose in the base frame: any Eigen vector, size checked.
template <typename Model, typename Q>
PerLinkArray<Transform<typename Model::Scalar>, Model::nq> forward_kinematics(
    const Model& model, const Eigen::MatrixBase<Q>& q) {
  Data<Model>& data = detail::thread_workspace(model);
  forward_kinematics(model, data, detail::checked_joint_vector(model, q, "forward_kinematics", "q"));
  if constexpr (Model::nq == Eigen::Dynamic) {
    return {data.oMi.begin(), data.oMi.end()};  // a std::vector (Data's are LineArray)
  } else {
    return data.oMi;
  }
}

}  // namespace chaindyn
