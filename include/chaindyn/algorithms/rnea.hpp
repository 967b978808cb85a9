/// @file
/// Inverse dynamics by the Recursive Newton-Euler Algorithm, O(n) (RBDA Table 5.1).
#pragma once

#include "chaindyn/algorithms/friction.hpp"
#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/model/data.hpp"
#include "chaindyn/model/root_motion.hpp"

namespace chaindyn {

namespace detail {

/// The argument of a term rnea_pass has switched off (gravity_torques has no qd or qdd).
struct NoArgument {};

/// The fixed base's acceleration (-g) or the moving base's root->a.
template <typename Root, typename Model>
inline CHAINDYN_ALWAYS_INLINE const auto& base_motion(const Model& model,
                                                      DataFor<Model>& data) noexcept {
  if constexpr (is_moving_root<Root>) {
    (void)model;
    return root_of<Model, Root>(data).a;
  } else {
    (void)data;
    return model.base_acceleration();
  }
}

/// The RNEA with terms switched off at compile time, shared by rnea, nonlinear_effects,
/// gravity_torques, forward_dynamics_crba and the regressor. qd is read only when kVelocity,
/// qdd only when kAcceleration (pass NoArgument{} otherwise); kJointDynamics needs both.
/// kPoses false: data.liMi already holds the joint poses at q (forward_dynamics_crba, after
/// crba), so the pass does not compute them again. Fills data.liMi, data.v (when kVelocity),
/// data.a, data.f, data.tau.
/// Root: FixedRoot (the fixed base: a_0 = -g, v_0 = 0), or MovingRoot (a floating base: data
/// is a RootedData whose root.v and root.a the root links take as their parent's and whose
/// root.f receives their forces; with kVelocity false root.v must be zero).
template <bool kVelocity, bool kAcceleration, bool kJointDynamics, bool kPoses = true,
          typename Model, typename Qd, typename Qdd, typename Root = FixedRoot>
void rnea_pass(const Model& model, DataFor<Model>& data, const typename Model::Vector& q,
               const Qd& qd, const Qdd& qdd, const LinkForces<Model>* f_ext,
               Root = Root()) noexcept {
  constexpr bool kMovingRoot = is_moving_root<Root>;
  static_assert(!kJointDynamics || (kVelocity && kAcceleration),
                "joint friction and armature need qd and qdd");
  using Scalar = typename Model::Scalar;
  // Forward pass: base to tip (parents before their children). Each link's a and v are built in locals and stored once: built
  // in place in data (store, then read back to add the next term), g++ 12 reloads them with
  // 2-lane loads of what it has just stored as scalars, a failed store-to-load forward per
  // term. f stays built in place: as a local too, clang++'s rnea is slower.
  if constexpr (kPoses) joint_poses(model, data, q);
  model.joints_forward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    const Transform<Scalar>& x = data.liMi[i];
    const Inertia<Scalar>& inertia = model.inertia(i);
    if constexpr (kMovingRoot) {
      if (model.is_root(i)) {
        // A link on a moving base body (a floating base): the general step below with the
        // base body as p(i), its velocity and acceleration root.v, root.a (RBDA ch. 9)
        const auto& root = root_of<Model, Root>(data);
        Motion<Scalar> a = to_link(model, i, joint, x, root.a);
        if constexpr (kAcceleration) a += joint.motion(qdd[k]);
        Force<Scalar>& f = data.f[i];
        if constexpr (kVelocity) {
          const Motion<Scalar> v = to_link(model, i, joint, x, root.v) + joint.motion(qd[k]);
          a += joint.cross_motion(v, qd[k]);
          data.v[i] = v;
          f = inertia * a;
          f += cross(v, inertia * v);
        } else {
          f = inertia * a;
        }
        data.a[i] = a;
        if (f_ext) f -= (*f_ext)[i];
        return;
      }
    }
    if (model.is_root(i)) {
      // A link on the base, with the zeros of its inputs skipped: the base acceleration is
      // (0; -g) (the model keeps no angular part) and v_i = S qd_i, so v_i x S qd_i = 0 and,
      // with l = R^T (-g) and I S = joint.column(I) (RBDA eqs. 5.6-5.9, v_base = 0):
      //   a_i = (0; l) + S qdd_i,   f_i = (h x l; m l) + I S qdd_i + qd_i (S qd_i) x* (I S)
      // ~100 fewer flops than the general step. (On a chain: link 0, index r = 0.)
      const std::size_t r = Model::serial ? 0 : std::size_t(i);
      const Vector3<Scalar> l =
          linear_to_link(model, i, joint, x, model.base_acceleration().linear);
      Motion<Scalar> a(Vector3<Scalar>::Zero(), l);
      Force<Scalar>& f = data.f[r];
      f = Force<Scalar>(detail::cross3(inertia.first_moment, l), inertia.mass * l);
      if constexpr (kVelocity || kAcceleration) {
        const Force<Scalar> is = joint.column(inertia);
        if constexpr (kAcceleration) {
          a += joint.motion(qdd[k]);
          f += is * qdd[k];
        }
        if constexpr (kVelocity) {
          data.v[r] = joint.motion(qd[k]);
          f += joint.cross_force(qd[k], is) * qd[k];
        }
      }
      data.a[r] = a;
      if (f_ext) f -= (*f_ext)[r];
      return;
    }
    // a_i = Xup_i a_p(i) + S_i qdd_i + v_i x S_i qd_i                          RBDA eq. (5.7)
    Motion<Scalar> a = to_link(model, i, joint, x, data.a[model.parent(i)]);
    if constexpr (kAcceleration) a += joint.motion(qdd[k]);
    // f_i = I_i a_i + v_i x* I_i v_i - f_ext_i                                RBDA eq. (5.9)
    if constexpr (kVelocity) {
      // v_i = Xup_i v_p(i) + S_i qd_i                                         RBDA eq. (5.6)
      const Motion<Scalar> v =
          to_link(model, i, joint, x, data.v[model.parent(i)]) + joint.motion(qd[k]);
      a += joint.cross_motion(v, qd[k]);
      data.v[i] = v;
      data.a[i] = a;
      Force<Scalar>& f = data.f[i];
      f = inertia * a;
      f += cross(v, inertia * v);
      if (f_ext) f -= (*f_ext)[i];
    } else {
      data.a[i] = a;
      Force<Scalar>& f = data.f[i];
      f = inertia * a;
      if (f_ext) f -= (*f_ext)[i];
    }
  });
  // Backward pass: tip to base (children before their parents).
  model.joints_backward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    // tau_i = S_i^T f_i (+ friction + armature),  f_p(i) += Xup_i^* f_i     RBDA eq. (5.10-11)
    Scalar tau = joint.project(data.f[i]);
    if constexpr (kJointDynamics) {
      tau += joint_friction(model, i, qd[k]) + model.armature()[k] * qdd[k];
    }
    data.tau[k] = tau;
    if (!model.is_root(i)) {
      data.f[model.parent(i)] += to_parent(model, i, joint, data.liMi[i], data.f[i]);
    }
    if constexpr (kMovingRoot) {
      if (model.is_root(i)) {  // on the base body
        root_of<Model, Root>(data).f += to_parent(model, i, joint, data.liMi[i], data.f[i]);
      }
    }
  });
}

}  // namespace detail

/// Inverse dynamics: tau = M(q) qdd + C(q, qd) qd + g(q) + friction(qd), with joint friction
/// and armature from the model and gravity as the base acceleration. O(n). Fills data.tau
/// (and data.liMi, v, a, f). q, qd, qdd: Model::Vector or any Eigen vector expression of that
/// fixed size (a dynamic-size vector is a compile error: model/arguments.hpp).
template <typename Model, typename Q, typename Qd, typename Qdd>
CHAINDYN_GNU_FLATTEN
void rnea(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
          const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Qdd>& qdd)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Qdd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("rnea", model, data, "q", q, "qd", qd, "qdd", qdd);
  detail::rnea_pass<true, true, true>(model, data, detail::as_joint_vector<Model>(q.derived()),
                                      detail::as_joint_vector<Model>(qd.derived()),
                                      detail::as_joint_vector<Model>(qdd.derived()), nullptr);
}

/// Inverse dynamics with external wrenches: f_ext[i] acts on link i, expressed in link i's
/// frame about its origin ([moment; force]). tau = ... - sum_i J_i^T f_ext[i]. Fills data.tau.
template <typename Model, typename Q, typename Qd, typename Qdd>
CHAINDYN_GNU_FLATTEN
void rnea(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
          const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Qdd>& qdd,
          const LinkForces<Model>& f_ext) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Qdd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("rnea", model, data, "q", q, "qd", qd, "qdd", qdd, "f_ext", f_ext);
  detail::rnea_pass<true, true, true>(model, data, detail::as_joint_vector<Model>(q.derived()),
                                      detail::as_joint_vector<Model>(qd.derived()),
                                      detail::as_joint_vector<Model>(qdd.derived()), &f_ext);
}

/// Returning form of rnea: any Eigen vectors, sizes checked (throws ArgumentError).
template <typename Model, typename Q, typename Qd, typename Qdd>
typename Model::Vector rnea(const Model& model, const Eigen::MatrixBase<Q>& q,
                            const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Qdd>& qdd) {
  Data<Model>& data = detail::thread_workspace(model);
  rnea(model, data, detail::checked_joint_vector(model, q, "rnea", "q"),
       detail::checked_joint_vector(model, qd, "rnea", "qd"),
       detail::checked_joint_vector(model, qdd, "rnea", "qdd"));
  return data.tau;
}

/// Returning form of rnea with external wrenches (link frames, about link origins).
template <typename Model, typename Q, typename Qd, typename Qdd>
typename Model::Vector rnea(const Model& model, const Eigen::MatrixBase<Q>& q,
                            const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Qdd>& qdd,
                            const LinkForces<Model>& f_ext) {
  Data<Model>& data = detail::thread_workspace(model);
  rnea(model, data, detail::checked_joint_vector(model, q, "rnea", "q"),
       detail::checked_joint_vector(model, qd, "rnea", "qd"),
       detail::checked_joint_vector(model, qdd, "rnea", "qdd"), f_ext);
  return data.tau;
}

}  // namespace chaindyn
