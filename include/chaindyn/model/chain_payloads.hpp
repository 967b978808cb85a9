/// @file
/// A chain's payloads: rigid bodies attached to links at run time, given in the user's link
/// frames and added to the inertias the algorithms read. The layer every chain type derives
/// from (detail::ChainBase), and the conversion of a whole chain to another scalar type.
#pragma once

#include "chaindyn/model/link_frames.hpp"
#include "chaindyn/model/payload.hpp"

#include <optional>

namespace chaindyn {

template <typename Scalar>
class ChainX;
template <typename Scalar>
class TreeX;

namespace detail {

/// Everything a chain holds apart from its joint models: storage (model/chain_storage.hpp),
/// link frames and named frames (model/link_frames.hpp) and payloads (here).
template <typename Scalar_, int N>
class ChainBase : public ChainFrames<Scalar_, N> {
  using Frames = ChainFrames<Scalar_, N>;

 public:
  using Scalar = Scalar_;

  /// Attaches a rigid payload to link i (0-based), replacing the one already there: from now on
  /// every algorithm sees link i's inertia plus the payload's (the payload moves with link i).
  /// The link's own inertia is kept apart, so clear_payload restores it bit for bit. Allocates
  /// nothing unless it throws: IndexError for an index out of range, ModelError for a payload a link would
  /// be refused for (non-finite numbers, negative mass, an inertia that is not symmetric
  /// positive semi-definite or breaks the triangle inequality).
  ///
  /// The payload's centre of mass and inertia are given in the USER's frame of link i (the
  /// URDF's link frame for a chain built from a URDF; see link_frame), and converted here to
  /// the internal link frame; payload(i) returns them as given.
  void set_payload(std::size_t i, const Payload<Scalar>& p) {
    this->check_link_index(i);
    validate_payload(p, [&] { return this->where(i); });
    payload_[i] = p;
    const Inertia<Scalar> added = Inertia<Scalar>::from_com(p.mass, p.com, p.inertia);
    // RBDA eq. (2.66): the payload's inertia moved from the user's to the internal link frame
    this->add_to_link_inertia(
        i, this->link_frame_turned(i) ? added.transformed_by(this->link_frame(i)) : added);
  }
  /// Removes link i's payload (if any): its inertia is the link's own again, bit for bit.
  /// Throws IndexError for an index out of range.
  void clear_payload(std::size_t i) {
    this->check_link_index(i);
    payload_[i].reset();
    this->reset_link_inertia(i);
  }
  /// Link i's payload, or empty.
  const std::optional<Payload<Scalar>>& payload(std::size_t i) const noexcept {
    return payload_[i];
  }

  /// A payload given in link i's user frame (as set_payload takes it) in the internal link
  /// frame: centre of mass R c + p, inertia about it R I R^T, with (R, p) = link_frame(i).
  /// Unchanged (the same numbers) unless a builder turned the link frame. Throws IndexError.
  Payload<Scalar> payload_in_internal_frame(std::size_t i, const Payload<Scalar>& p) const {
    this->check_link_index(i);
    if (!this->link_frame_turned(i)) return p;
    const Transform<Scalar>& u = this->link_frame(i);
    Payload<Scalar> out;
    out.mass = p.mass;
    out.com = u.rotation * p.com + u.translation;
    out.inertia = u.rotation * p.inertia * u.rotation.transpose();
    return out;
  }
  /// The reverse: a payload computed in link i's internal frame (the regressor's, hence
  /// PayloadIdentification's) in the user's link frame, R^T (c - p) and R^T I R.
  Payload<Scalar> payload_in_user_frame(std::size_t i, const Payload<Scalar>& p) const {
    this->check_link_index(i);
    if (!this->link_frame_turned(i)) return p;
    const Transform<Scalar>& u = this->link_frame(i);
    Payload<Scalar> out;
    out.mass = p.mass;
    out.com = u.rotation.transpose() * (p.com - u.translation);
    out.inertia = u.rotation.transpose() * p.inertia * u.rotation;
    return out;
  }

  /// Sets link_frame(i) (for builders that turn link frames). Throws IndexError for an index
  /// out of range and ModelError for a transform that is not finite or whose rotation is not
  /// proper. Named frames already added keep their place on the link; a payload already set is
  /// re-read in the new frame.
  void set_link_frame(std::size_t i, const Transform<Scalar>& user_frame_in_link) {
    this->assign_link_frame(i, user_frame_in_link);
    if (payload_[i]) set_payload(i, *payload_[i]);
  }

 protected:
  ChainBase(const PerLinkArray<Link<Scalar>, N>& links, const Vector3<Scalar>& g,
            const ModelChecks& checks)
      : Frames(links, g, checks) {}

  /// Copies this chain's payloads, in scalar To, onto `other` (for cast(), after
  /// copy_frames_to).
  template <typename Other>
  void copy_payloads_to(Other& other) const {
    using To = typename Other::Scalar;
    for (std::size_t i = 0; i < this->joint_count(); ++i) {
      if (payload_[i]) other.set_payload(i, cast_payload<To>(*payload_[i]));
    }
  }

  /// This chain as chain type Out (another scalar type, or a ChainX): Out built from the links
  /// in Out's scalar, `joint_args` (a ChainX's joint kinds) and gravity and checks, then the
  /// link frames, named frames and payloads copied over.
  template <typename Out, typename... JointArgs>
  Out converted(const JointArgs&... joint_args) const {
    using To = typename Out::Scalar;
    Out out(this->template links_as<To>(), joint_args..., matrix_cast<To>(this->gravity()),
            this->checks());
    this->copy_frames_to(out);
    copy_payloads_to(out);
    return out;
  }

 private:
  template <typename>
  friend class chaindyn::ChainX;  // ChainX::from copies a compile-time chain's payloads
  template <typename>
  friend class chaindyn::TreeX;  // TreeX::from likewise

  using Frames::payload_;
};

}  // namespace detail
}  // namespace chaindyn
