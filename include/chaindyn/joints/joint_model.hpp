/// @file
/// The joint-model interface, checked: what a chain requires of `Joint::model<Scalar>`, as
/// static_asserts that name the missing member. Chain and ChainN check their joint types with
/// it where they are instantiated (model/chain.hpp); docs/extending.md says how to add a joint.
///
/// A joint type is a tag that names the joint in a chain; the chain stores, for scalar S,
/// `Joint::model<S>`, the object the algorithms call. A joint model offers:
///   kind, fixed_axis       static: JointKind, and 0/1/2 for an axis in the type or -1
///   JM(axis, where)        construction from Link::axis (std::optional) and the link's label
///   pose(placement, q)     placement * J(q): the link frame's pose in the parent link frame
///   pose(placement, q, s, c)  the same given s = sin q, c = cos q (unused by prismatic joints)
///   motion(qd)             S qd, the joint velocity (S: motion subspace, RBDA sec. 4.4)
///   cross_motion(v, qd)    v x (S qd), the velocity-product acceleration of RBDA eq. (5.7)
///   cross_force(qd, f)     (S qd) x* f, the velocity product of a force (RBDA eq. 2.32)
///   subspace_in(x)         x.act(S): S in the coordinates x maps into (e.g. the base frame)
///   project(f)             S^T f, the generalized force of a spatial force
///   column(I)              I S for a rigid-body (Inertia) or articulated (ArticulatedInertia)
///                          inertia
/// S is constant in the joint frame (no c_J term, RBDA Table 4.1).
#pragma once

#include "chaindyn/joints/joint_common.hpp"

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace chaindyn::detail {

// One detector per member: true if the expression is well formed for joint model JM.
template <typename JM, typename = void>
struct jm_has_kind : std::false_type {};
template <typename JM>
struct jm_has_kind<JM, std::enable_if_t<std::is_same_v<std::decay_t<decltype(JM::kind)>, JointKind>>>
    : std::true_type {};
template <typename JM, typename = void>
struct jm_has_fixed_axis : std::false_type {};
template <typename JM>
struct jm_has_fixed_axis<JM, std::enable_if_t<std::is_same_v<std::decay_t<decltype(JM::fixed_axis)>, int>>>
    : std::true_type {};

template <typename JM, typename S, typename = void>
struct jm_has_pose : std::false_type {};
template <typename JM, typename S>
struct jm_has_pose<JM, S, std::enable_if_t<std::is_same_v<
    decltype(std::declval<const JM&>().pose(std::declval<const Transform<S>&>(), std::declval<const S&>())),
    Transform<S>>>> : std::true_type {};
template <typename JM, typename S, typename = void>
struct jm_has_pose_sincos : std::false_type {};
template <typename JM, typename S>
struct jm_has_pose_sincos<JM, S, std::enable_if_t<std::is_same_v<
    decltype(std::declval<const JM&>().pose(std::declval<const Transform<S>&>(), std::declval<const S&>(),
                                            std::declval<const S&>(), std::declval<const S&>())),
    Transform<S>>>> : std::true_type {};
template <typename JM, typename S, typename = void>
struct jm_has_motion : std::false_type {};
template <typename JM, typename S>
struct jm_has_motion<JM, S, std::enable_if_t<std::is_same_v<
    decltype(std::declval<const JM&>().motion(std::declval<const S&>())), Motion<S>>>> : std::true_type {};
template <typename JM, typename S, typename = void>
struct jm_has_cross_motion : std::false_type {};
template <typename JM, typename S>
struct jm_has_cross_motion<JM, S, std::enable_if_t<std::is_same_v<
    decltype(std::declval<const JM&>().cross_motion(std::declval<const Motion<S>&>(), std::declval<const S&>())),
    Motion<S>>>> : std::true_type {};
template <typename JM, typename S, typename = void>
struct jm_has_cross_force : std::false_type {};
template <typename JM, typename S>
struct jm_has_cross_force<JM, S, std::enable_if_t<std::is_same_v<
    decltype(std::declval<const JM&>().cross_force(std::declval<const S&>(), std::declval<const Force<S>&>())),
    Force<S>>>> : std::true_type {};
template <typename JM, typename S, typename = void>
struct jm_has_subspace_in : std::false_type {};
template <typename JM, typename S>
struct jm_has_subspace_in<JM, S, std::enable_if_t<std::is_same_v<
    decltype(std::declval<const JM&>().subspace_in(std::declval<const Transform<S>&>())), Motion<S>>>>
    : std::true_type {};
template <typename JM, typename S, typename = void>
struct jm_has_project : std::false_type {};
template <typename JM, typename S>
struct jm_has_project<JM, S, std::enable_if_t<std::is_same_v<
    decltype(std::declval<const JM&>().project(std::declval<const Force<S>&>())), S>>> : std::true_type {};
template <typename JM, typename I, typename S, typename = void>
struct jm_has_column : std::false_type {};
template <typename JM, typename I, typename S>
struct jm_has_column<JM, I, S, std::enable_if_t<std::is_same_v<
    decltype(std::declval<const JM&>().column(std::declval<const I&>())), Force<S>>>> : std::true_type {};

/// True for a joint model JM of scalar S that offers the interface above; otherwise a
/// static_assert names the first member it lacks. `in_type`: the joint of a compile-time chain,
/// which also needs the static kind and fixed_axis and the constructor from a link's axis (a
/// ChainX's AnyJoint answers its kind at run time and is made from it).
template <typename JM, typename S, bool in_type = true>
constexpr bool check_joint_model() {
  if constexpr (in_type) {
    static_assert(jm_has_kind<JM>::value,
                  "joint model: needs `static constexpr JointKind kind` (joints/joint_model.hpp)");
    static_assert(jm_has_fixed_axis<JM>::value,
                  "joint model: needs `static constexpr int fixed_axis` (0, 1, 2, or -1 for an "
                  "axis given per link)");
    static_assert(std::is_constructible_v<JM, const std::optional<Vector3<S>>&, const std::string&>,
                  "joint model: needs a constructor JM(const std::optional<Vector3<S>>& axis, "
                  "const std::string& where)");
  }
  static_assert(jm_has_pose<JM, S>::value,
                "joint model: needs `Transform<S> pose(const Transform<S>& placement, const S& q) const`");
  static_assert(jm_has_pose_sincos<JM, S>::value,
                "joint model: needs `Transform<S> pose(const Transform<S>& placement, const S& q, "
                "const S& s, const S& c) const`");
  static_assert(jm_has_motion<JM, S>::value,
                "joint model: needs `Motion<S> motion(const S& qd) const`");
  static_assert(jm_has_cross_motion<JM, S>::value,
                "joint model: needs `Motion<S> cross_motion(const Motion<S>& v, const S& qd) const`");
  static_assert(jm_has_cross_force<JM, S>::value,
                "joint model: needs `Force<S> cross_force(const S& qd, const Force<S>& f) const`");
  static_assert(jm_has_subspace_in<JM, S>::value,
                "joint model: needs `Motion<S> subspace_in(const Transform<S>& x) const`");
  static_assert(jm_has_project<JM, S>::value,
                "joint model: needs `S project(const Force<S>& f) const`");
  static_assert(jm_has_column<JM, Inertia<S>, S>::value,
                "joint model: needs `Force<S> column(const Inertia<S>& inertia) const`");
  static_assert(jm_has_column<JM, ArticulatedInertia<S>, S>::value,
                "joint model: needs `Force<S> column(const ArticulatedInertia<S>& ia) const`");
  return true;
}

}  // namespace chaindyn::detail
