/// @file
/// A chain's user link frames and its named frames: the frame each link has for the user (the
/// URDF's, or the frame the links were given in) against the internal one the algorithms
/// compute in, and the registry of named frames (a tool centre point, a URDF's links).
#pragma once

#include "chaindyn/model/arguments.hpp"
#include "chaindyn/model/chain_storage.hpp"
#include "chaindyn/model/frame.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chaindyn {

template <typename Scalar>
class ChainX;
template <typename Scalar>
class TreeX;

namespace detail {

/// The link-frame and named-frame layer of a chain (on ChainStorage; payloads come next,
/// model/chain_payloads.hpp).
template <typename Scalar_, int N>
class ChainFrames : public ChainStorage<Scalar_, N> {
  using Storage = ChainStorage<Scalar_, N>;

 public:
  using Scalar = Scalar_;
  /// A handle on a frame fixed on a link of this chain (model/frame.hpp).
  using FrameType = Frame<Scalar, N>;

  /// The pose of link i's frame as the user knows it (the URDF's link frame for a chain built
  /// from a URDF; the frame the links were given in otherwise) in the chain's INTERNAL link
  /// frame, the one the algorithms compute (data.oMi) and the one Link::com and Link::inertia,
  /// external wrenches (LinkForces) and the regressor's parameters are expressed in. Identity
  /// unless a builder turned the link frame (urdf::build turns it so that the URDF joint axis
  /// is the axis of a fixed-axis joint type: then it is the pure rotation R_a^T, see
  /// urdf/build.hpp). To move a wrench f given in the user's link frame into LinkForces:
  /// `model.link_frame(i).act(f)`.
  const Transform<Scalar>& link_frame(std::size_t i) const noexcept { return link_frame_[i]; }

  /// A handle on the frame F fixed on link `link` (0-based) at pose `offset` in the user's frame
  /// of that link (link_frame: the URDF's link frame for a chain built from a URDF). Identity
  /// gives the link frame itself. The index is checked here, once: the frame algorithms take
  /// the handle without checks. Throws IndexError if link >= nq. Allocates nothing.
  FrameType frame(std::size_t link,
                  const Transform<Scalar>& offset = Transform<Scalar>::Identity()) const {
    this->check_link_index(link);
    return FrameType(link, link_frame_turned_[link] ? link_frame_[link] * offset : offset,
                     this->joint_count());
  }
  /// A handle on the named frame (add_frame; a URDF's links, see docs/urdf.md), optionally
  /// moved by `offset` given in that frame. Throws IndexError naming the frames the chain has
  /// if there is none of that name.
  FrameType frame(std::string_view name,
                  const Transform<Scalar>& offset = Transform<Scalar>::Identity()) const {
    const FrameType& f = find_frame(name);
    return FrameType(f.link(), f.placement() * offset, this->joint_count());
  }
  /// A handle on a frame fixed on the base at pose `pose` in the base frame.
  FrameType base_frame(const Transform<Scalar>& pose = Transform<Scalar>::Identity()) const {
    return FrameType(FrameType::base, pose, this->joint_count());
  }
  /// A handle of a chain of another scalar type (e.g. this chain's double original, which
  /// cast() converted) as a handle of this chain: the same link, the placement converted number
  /// by number. Throws ArgumentError unless f was made by a chain of this chain's joint count
  /// (always so for a compile-time chain: N is in the type).
  template <typename From>
  FrameType cast_frame(const Frame<From, N>& f) const {
    detail::check_named_sizes("cast_frame", *this, "the frame handle", f);
    return FrameType(f.link(), cast_transform<Scalar>(f.placement()), this->joint_count());
  }
  /// True if the chain has a frame of that name.
  bool has_frame(std::string_view name) const noexcept {
    for (const NamedFrame<Scalar, N>& f : frames_) {
      if (f.name == name) return true;
    }
    return false;
  }
  /// The named frames, in the order they were added.
  const std::vector<NamedFrame<Scalar, N>>& frames() const noexcept { return frames_; }

  /// Adds a named frame on link `link` at pose `offset` in the user's frame of that link (see
  /// frame(link, offset)), e.g. a tool centre point. Throws IndexError if link >= nq, ModelError
  /// for an empty name, a name the chain already has, or an offset that is not finite or whose
  /// rotation is not proper (orthonormal, determinant +1).
  void add_frame(std::string name, std::size_t link,
                 const Transform<Scalar>& offset = Transform<Scalar>::Identity()) {
    this->check_link_index(link);
    add_frame(std::move(name), frame(link, offset));
  }
  /// Adds a named frame fixed on the base at pose `pose` in the base frame (same errors).
  void add_base_frame(std::string name, const Transform<Scalar>& pose) {
    add_frame(std::move(name), base_frame(pose));
  }
  /// Adds a handle under a name (same errors but IndexError).
  void add_frame(std::string name, const FrameType& f) {
    if (name.empty()) throw_model_error("a frame's name is empty");
    if (has_frame(name)) throw_model_error("frame '", name, "' is defined twice");
    check_frame_transform(f.placement(), "frame '" + name + "'");
    frames_.push_back(NamedFrame<Scalar, N>{std::move(name), f});
  }

 protected:
  using Storage::Storage;

  /// Sets link_frame(i) after checking it (the payload layer re-reads a payload then).
  void assign_link_frame(std::size_t i, const Transform<Scalar>& user_frame_in_link) {
    this->check_link_index(i);
    check_frame_transform(user_frame_in_link, this->where(i) + ": link frame");
    link_frame_[i] = user_frame_in_link;
    link_frame_turned_[i] = !is_identity(user_frame_in_link);
  }
  /// True unless link i's user frame is the internal one.
  bool link_frame_turned(std::size_t i) const noexcept { return link_frame_turned_[i]; }

  /// Copies this chain's link frames and named frames, in scalar To, onto `other` (for cast();
  /// before copy_payloads_to, which reads the link frames).
  /// (Also from a compile-time chain to a ChainX: `other` may have another N.)
  template <typename Other>
  void copy_frames_to(Other& other) const {
    using To = typename Other::Scalar;
    constexpr int M = Other::nq;
    for (std::size_t i = 0; i < this->joint_count(); ++i) {
      if (link_frame_turned_[i]) other.set_link_frame(i, cast_transform<To>(link_frame_[i]));
    }
    for (const NamedFrame<Scalar, N>& f : frames_) {
      other.frames_.push_back(NamedFrame<To, M>{
          f.name, Frame<To, M>(f.frame.link(), cast_transform<To>(f.frame.placement()),
                               other.joint_count())});
    }
  }

 private:
  template <typename, int>
  friend class ChainFrames;
  using Storage::frames_;
  using Storage::link_frame_;
  using Storage::link_frame_turned_;
  template <typename>
  friend class chaindyn::ChainX;  // ChainX::from copies a compile-time chain's frames
  template <typename>
  friend class chaindyn::TreeX;  // TreeX::from likewise

  static bool is_identity(const Transform<Scalar>& t) {
    for (Eigen::Index r = 0; r < 3; ++r) {
      if (!(scalar_value(t.translation[r]) == 0.0)) return false;
      for (Eigen::Index c = 0; c < 3; ++c) {
        if (!(scalar_value(t.rotation(r, c)) == (r == c ? 1.0 : 0.0))) return false;
      }
    }
    return true;
  }
  /// A frame's pose: finite, with a proper rotation (as a link placement, validate_link).
  static void check_frame_transform(const Transform<Scalar>& t, const std::string& what) {
    const Eigen::Matrix3d r = t.rotation.unaryExpr([](const Scalar& x) { return scalar_value(x); });
    const Eigen::Vector3d p =
        t.translation.unaryExpr([](const Scalar& x) { return scalar_value(x); });
    if (!all_finite(r) || !all_finite(p)) {
      throw_model_error(what, ": pose is not finite (translation ", format_vector(p),
                        ", rotation ", format_matrix(r), ")");
    }
    if (!((r.transpose() * r - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < 1e-6) ||
        !(r.determinant() > 0.0)) {
      throw_model_error(what, ": rotation ", format_matrix(r),
                        " is not a rotation matrix (orthonormal, determinant +1)");
    }
  }
  const FrameType& find_frame(std::string_view name) const {
    for (const NamedFrame<Scalar, N>& f : frames_) {
      if (f.name == name) return f.frame;
    }
    std::string names;
    for (std::size_t k = 0; k < frames_.size(); ++k) {
      names += (k ? ", '" : "'") + frames_[k].name + "'";
    }
    throw_error<IndexError>("no frame named '", name, "' (the chain has ",
                            frames_.empty() ? std::string("none") : names, ")");
  }
};

}  // namespace detail
}  // namespace chaindyn
