/// @file
/// The root state of a fixed-base pass: the fixed base (FixedRoot), or a moving base body
/// (MovingRoot: the workspace is a RootedData, whose RootMotion holds the base's motion) on
/// which the tree's root links stand (model/floating_base.hpp).
#pragma once

#include "chaindyn/model/data.hpp"
#include "chaindyn/spatial/inertia.hpp"

#include <Eigen/Cholesky>

#include <type_traits>

namespace chaindyn {
namespace detail {

/// rnea_pass's and aba_pass's root tag when the tree stands on the fixed base (every call but a
/// floating base's): the root links take the fixed base's shortcuts.
struct FixedRoot {};
/// The root tag of a tree on a moving base body: the pass's workspace is a RootedData, and its
/// root (RootMotion) is the base's state. (A tag and a workspace member, not a pointer argument:
/// the passes' lambdas capture by reference every name they mention, even in a discarded
/// `if constexpr` branch, and an extra capture changed the fixed-base passes' generated code.)
struct MovingRoot {};

/// The motion of a moving base body (a floating base, model/floating_base.hpp) as the root state
/// of a fixed-base pass: the tree's root links are attached to it. v: the base body's velocity,
/// a: its acceleration with gravity as a fictitious acceleration (a - a_g), both in the base
/// body's coordinates about its origin. rnea_pass adds each root link's force to f (base
/// coordinates). aba_pass adds each root link's articulated inertia and bias force to IA and pA
/// (which start as the base body's own I_0 and v_0 x* I_0 v_0) and then calls resolve(),
/// which solves the base's articulated-body equation IA_0 a_0 + pA_0 = f_0 for a, f being the
/// wrench applied to the base (RBDA ch. 9, the floating-base ABA).
template <typename Scalar>
struct RootMotion {
  Motion<Scalar> v;
  Motion<Scalar> a;
  Force<Scalar> f;
  ArticulatedInertia<Scalar> IA;
  Force<Scalar> pA;

  /// a = IA^-1 (f - pA): IA is symmetric positive definite (a free body's articulated inertia).
  void resolve() noexcept {
    const Eigen::Matrix<Scalar, 6, 1> rhs = f.vector() - pA.vector();
    const Eigen::Matrix<Scalar, 6, 1> x = IA.matrix().llt().solve(rhs);
    a = Motion<Scalar>(x.template head<3>(), x.template tail<3>());
  }
};

template <typename Root>
inline constexpr bool is_moving_root = std::is_same_v<Root, MovingRoot>;

/// A tree's workspace with the state of the moving base body it stands on.
template <typename Model>
struct RootedData : Data<Model> {
  using Data<Model>::Data;
  RootMotion<typename Model::Scalar> root;
};

/// The base's state of a workspace that is a RootedData (a MovingRoot pass's).
template <typename Model>
inline CHAINDYN_ALWAYS_INLINE RootMotion<typename Model::Scalar>& root_of(DataFor<Model>& data) noexcept {
  return static_cast<RootedData<Model>&>(data).root;
}

}  // namespace detail
}  // namespace chaindyn
