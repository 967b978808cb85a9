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
/// The root tag of a tree on a moving base body whose base joint (FreeFlyer, PlanarBase:
/// model/floating_base.hpp) is BaseJoint: the pass's workspace is a RootedData<Model,
/// BaseJoint>, and its root (RootMotion) is the base's state. (A tag and a workspace member,
/// not a pointer argument: the passes' lambdas capture by reference every name they mention,
/// even in a discarded `if constexpr` branch, and an extra capture changed the fixed-base
/// passes' generated code.)
template <typename BaseJoint>
struct MovingRoot {};

/// x = A^-1 b, A symmetric positive definite: Eigen's LLT for a scalar whose comparisons are
/// bool; the same Cholesky factorization written out, without a branch, for a scalar whose
/// comparisons are per lane (batch::Pack: W states at once).
template <typename Scalar, int K>
Eigen::Matrix<Scalar, K, 1> spd_solve(const Eigen::Matrix<Scalar, K, K>& m,
                                      const Eigen::Matrix<Scalar, K, 1>& b) noexcept {
  if constexpr (std::is_same_v<decltype(std::declval<Scalar>() < std::declval<Scalar>()), bool>) {
    return m.llt().solve(b);
  } else {
    using std::sqrt;
    Eigen::Matrix<Scalar, K, K> l = m;  // L in the lower triangle (Cholesky-Banachiewicz)
    for (int j = 0; j < K; ++j) {
      Scalar d = l(j, j);
      for (int k = 0; k < j; ++k) d -= l(j, k) * l(j, k);
      l(j, j) = sqrt(d);
      for (int i = j + 1; i < K; ++i) {
        Scalar s = l(i, j);
        for (int k = 0; k < j; ++k) s -= l(i, k) * l(j, k);
        l(i, j) = s / l(j, j);
      }
    }
    Eigen::Matrix<Scalar, K, 1> x = b;  // L y = b, then L^T x = y
    for (int i = 0; i < K; ++i) {
      for (int k = 0; k < i; ++k) x[i] -= l(i, k) * x[k];
      x[i] = x[i] / l(i, i);
    }
    for (int i = K - 1; i >= 0; --i) {
      for (int k = i + 1; k < K; ++k) x[i] -= l(k, i) * x[k];
      x[i] = x[i] / l(i, i);
    }
    return x;
  }
}

/// The motion of a moving base body (a floating base, model/floating_base.hpp) as the root state
/// of a fixed-base pass: the tree's root links are attached to it. v: the base body's velocity,
/// a: its acceleration with gravity as a fictitious acceleration (a - a_g), both in the base
/// body's coordinates about its origin. rnea_pass adds each root link's force to f (base
/// coordinates). aba_pass adds each root link's articulated inertia and bias force to IA and pA
/// (which start as the base body's own I_0 and v_0 x* I_0 v_0) and then calls resolve(),
/// which solves the base's articulated-body equation for a, f being the wrench applied to the
/// base through its joint (RBDA ch. 9, the floating-base ABA).
template <typename Scalar, typename BaseJoint>
struct RootMotion {
  Motion<Scalar> v;
  Motion<Scalar> a;
  Force<Scalar> f;
  ArticulatedInertia<Scalar> IA;
  Force<Scalar> pA;
  /// The gravity acceleration a_g in base coordinates (aba sets it: a base joint with fewer
  /// than six degrees of freedom needs it to resolve).
  Motion<Scalar> gravity;

  /// The base's acceleration from IA_0 a'_0 + pA_0 = f_0 + (the joint's constraint wrench):
  /// a free-flyer (S = 1): a = IA^-1 (f - pA), IA symmetric positive definite (a free body's
  /// articulated inertia). A base joint with a constant motion subspace S (base coordinates):
  /// a = S a_b - a_g with (S^T IA S) a_b = S^T (f - pA + IA a_g), f = S tau_b (ABA's pass-3
  /// step, RBDA Table 7.1, for the base's joint: its parent the world, a' = -a_g, c = 0).
  void resolve() noexcept {
    if constexpr (BaseJoint::nv == 6) {
      const Eigen::Matrix<Scalar, 6, 1> rhs = f.vector() - pA.vector();
      const Eigen::Matrix<Scalar, 6, 1> x = spd_solve<Scalar, 6>(IA.matrix(), rhs);
      a = Motion<Scalar>(x.template head<3>(), x.template tail<3>());
    } else {
      Force<Scalar> rhs = f;
      rhs -= pA;
      rhs += IA * gravity;
      const Eigen::Matrix<Scalar, BaseJoint::nv, BaseJoint::nv> d = BaseJoint::project(IA.matrix());
      const Eigen::Matrix<Scalar, BaseJoint::nv, 1> ab = spd_solve<Scalar, BaseJoint::nv>(d, BaseJoint::project(rhs));
      a = BaseJoint::motion(ab);
      a -= gravity;
    }
  }

};

/// A root tag's base joint: MovingRoot's, void for FixedRoot (whose passes name root_of in
/// branches they never take).
template <typename Root>
struct RootJoint {
  using type = void;
};
template <typename BaseJoint>
struct RootJoint<MovingRoot<BaseJoint>> {
  using type = BaseJoint;
};
template <typename Root>
inline constexpr bool is_moving_root = !std::is_void_v<typename RootJoint<Root>::type>;

/// A tree's workspace with the state of the moving base body it stands on.
template <typename Model, typename BaseJoint>
struct RootedData : Data<Model> {
  using Data<Model>::Data;
  RootMotion<typename Model::Scalar, BaseJoint> root;
};

/// The base's state of a workspace that is a RootedData (a MovingRoot pass's).
template <typename Model, typename Root>
inline CHAINDYN_ALWAYS_INLINE RootMotion<typename Model::Scalar, typename RootJoint<Root>::type>&
root_of(DataFor<Model>& data) noexcept {
  return static_cast<RootedData<Model, typename RootJoint<Root>::type>&>(data).root;
}

}  // namespace detail
}  // namespace chaindyn
