/// @file
/// Frame handles: a frame fixed on one link of a chain (a tool centre point, a sensor, a URDF
/// link such as tool0) or on the chain's base, made -- and its link index checked -- once by the
/// chain (Chain::frame, add_frame), then passed to the noexcept frame algorithms (frame_pose,
/// jacobian, jdot_qd, joint_torques_from_wrench) without further checks.
#pragma once

#include "chaindyn/model/scalar_cast.hpp"
#include "chaindyn/spatial/transform.hpp"

#include <cstddef>
#include <string>

namespace chaindyn {

namespace detail {
template <typename Scalar, int N>
class ChainFrames;
}  // namespace detail

/// A frame F fixed on link `link()` of a chain of N joints, or on the base. Only a chain makes
/// one (`model.frame(link, offset)`, `model.frame(name)`, `model.base_frame(pose)`), so its
/// invariant holds by construction: link() < N, or link() == Frame::base. For a compile-time
/// chain the joint count is in the type, so a handle cannot be given to a chain of another
/// length; a ChainX's handle (N = Eigen::Dynamic) carries its chain's joint count
/// (chain_joint_count), which the algorithms check against the model they are given.
///
/// `placement()` is F's pose in the chain's INTERNAL frame of that link -- the frame the
/// algorithms compute (data.oMi), which a builder may have turned so that the joint axis is the
/// type's fixed axis (urdf::build with RevoluteZ and the like). It is not the offset the user
/// gave: that offset was in the user's link frame (the URDF's), and the chain converted it when
/// it made the handle. For a base frame, placement() is F's pose in the base frame.
template <typename Scalar, int N>
class Frame {
 public:
  /// The link() of a frame fixed on the base.
  static constexpr std::size_t base = static_cast<std::size_t>(-1);

  /// The link (0-based) the frame is fixed on, or Frame::base.
  std::size_t link() const noexcept { return link_; }
  /// True for a frame fixed on the base (it never moves).
  bool on_base() const noexcept { return link_ == base; }
  /// The frame's pose in the chain's internal frame of link(), or in the base frame.
  const Transform<Scalar>& placement() const noexcept { return placement_; }
  /// The joint count of the chain that made the handle (N for a compile-time chain).
  std::size_t chain_joint_count() const noexcept { return joints_; }

  /// The same frame in another scalar type (implicit): a handle made by a chain serves that
  /// chain's cast() too (`frame_pose(arm.cast<float>(), q, tcp)` with tcp made by the double
  /// arm). Link and placement carry over; the placement is converted number by number.
  template <typename Other, typename = std::enable_if_t<!std::is_same_v<Other, Scalar>>>
  Frame(const Frame<Other, N>& other) noexcept  // NOLINT(google-explicit-constructor)
      : link_(other.link()),
        joints_(other.chain_joint_count()),
        placement_(cast_transform<Scalar>(other.placement())) {}

 private:
  template <typename, int>
  friend class detail::ChainFrames;
  Frame(std::size_t link, const Transform<Scalar>& placement, std::size_t joints) noexcept
      : link_(link), joints_(joints), placement_(placement) {}

  std::size_t link_;
  std::size_t joints_;
  Transform<Scalar> placement_;
};

/// The frame handle type of a model.
template <typename Model>
using FrameFor = Frame<typename Model::Scalar, Model::nq>;

/// A frame with the name it is found by (Chain::frame(name), Chain::frames()).
template <typename Scalar, int N>
struct NamedFrame {
  std::string name;
  Frame<Scalar, N> frame;
};

}  // namespace chaindyn
