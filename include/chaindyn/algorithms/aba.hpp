/// @file
/// Forward dynamics by the Articulated Body Algorithm, O(n) (RBDA Table 7.1).
///
/// The algorithm runs in base coordinates, about the base origin (RBDA sec. 7.3 notes that ABA
/// may use any coordinates; Pinocchio's ABA does the same): the articulated inertia a link
/// passes to its parent is then added as it is, where link coordinates need the congruence
/// X^T Ia X, the most expensive step of the link-coordinate form (~200 multiplications per
/// joint). Each link's rigid inertia is turned into base coordinates once instead, and the
/// joint's motion subspace S_i moves with its link, so the velocity-product acceleration is
/// d/dt(oS_i) qd_i = ov_i x oS_i qd_i (RBDA ch. 2: a motion vector fixed in a body moving with
/// velocity v changes at the rate v x s).
#pragma once

#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/algorithms/friction.hpp"
#include "chaindyn/algorithms/rnea.hpp"
#include "chaindyn/model/data.hpp"
#include "chaindyn/model/joint_walks.hpp"

namespace chaindyn {

namespace detail {

/// aba_pass's `keep` when nothing is kept (see there).
struct KeepNothing {
  template <typename Inertia>
  void operator()(std::size_t, const Inertia&) const noexcept {}
};

/// ABA (see the file comment). keep(i, I_i) receives each link's rigid inertia in base
/// coordinates, which pass 2 computes: aba_derivatives keeps them for its rnea_derivatives
/// pass, which then need not transform them again. Root: FixedRoot (the fixed base), or
/// MovingRoot (a floating base, RBDA ch. 9; data is a RootedData, model/root_motion.hpp):
/// the root links move with root.v, pass 2 adds their articulated inertias and bias forces to
/// root.IA and root.pA (base coordinates), then root.resolve() sets root.a, from which pass 3
/// starts.
template <typename Model, typename Keep = KeepNothing, typename Root = FixedRoot>
void aba_pass(const Model& model, DataFor<Model>& data, const typename Model::Vector& q,
              const typename Model::Vector& qd, const typename Model::Vector& tau,
              const LinkForces<Model>* f_ext, const Keep& keep = Keep(),
              Root = Root()) noexcept {
  constexpr bool kMovingRoot = is_moving_root<Root>;
  using Scalar = typename Model::Scalar;
  // Pass 1, base to tip: poses, motion subspaces, velocities and velocity-product
  // accelerations, all in base coordinates.
  joint_poses(model, data, q);
  // Each link's base pose composes its parent's. On a chain the parent's is read through
  // `parent` (the previous step's x; with clang++ a local, carry_pose_in_local), and link 0's
  // is liMi[0] itself: copying it into oMi[0] right after joint_poses stored it stalls g++ on
  // store forwarding, so that copy is made after this pass, and no step reads oMi[0]. The
  // steps that depend on the joint type (a Chain of different types unrolls them) apart from
  // the rest, which every model runs as one loop (indices_forward): unrolled whole, g++'s aba
  // is slower. (The same steps are written out in rnea_derivatives: as one shared inline
  // function, g++'s and clang++'s aba change.)
  if constexpr (Model::serial) {
    if constexpr (carry_pose_in_local<Scalar>) {  // clang++ (forward_kinematics.hpp)
      Transform<Scalar> x;
      model.joints_forward(large_body, [&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
        if (i == 0) {
          x = data.liMi[0];
        } else {
          x = compose(model, i, joint, x, data.liMi[i]);
          data.oMi[i] = x;
        }
        data.oS[i] = joint.subspace_in(x);
      });
    } else {
      const Transform<Scalar>* parent = nullptr;
      model.joints_forward(large_body, [&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
        const Transform<Scalar>& x =
            i == 0 ? data.liMi[0] : (data.oMi[i] = compose(model, i, joint, *parent, data.liMi[i]));
        parent = &x;
        data.oS[i] = joint.subspace_in(x);
      });
    }
  } else {
    model.joints_forward(large_body, [&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
      data.oMi[i] = model.is_root(i) ? data.liMi[i]
                                     : compose(model, i, joint, data.oMi[model.parent(i)], data.liMi[i]);
      data.oS[i] = joint.subspace_in(data.oMi[i]);
    });
  }
  // v (and a in pass 3) carried from link to link in a local on a chain, stored once per link
  // and never read back (see rnea.hpp's forward pass); a tree's link reads its parent's
  Motion<Scalar> v_parent;
  model.indices_forward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    const Motion<Scalar>& s = data.oS[i];
    // v_i = v_p(i) + S_i qd_i;  c_i = v_i x S_i qd_i                         RBDA Table 7.1
    // (a moving base's root link: v_i = v_0 + S_i qd_i, v_0 the base body's velocity)
    const Motion<Scalar> v =
        kMovingRoot && model.is_root(i) ? root_of<Model, Root>(data).v + s * qd[k]
        : model.is_root(i)              ? s * qd[k]
                         : (Model::serial ? v_parent : data.ov[model.parent(i)]) + s * qd[k];
    data.ov[i] = v;
    if constexpr (Model::serial) v_parent = v;
    data.oc[i] = cross(v, s) * qd[k];
  });
  data.oMi[0] = data.liMi[0];
  // Pass 2, tip to base: articulated inertias and bias forces. Link i's rigid inertia joins
  // here, where it is used (IA_i = I_i + the Ia of its child, which the child's step left in
  // ia_child; pA_i likewise): no copy of it as a full articulated inertia in pass 1, and the
  // sum adds only its 15 non-zero numbers. On return oIA[i] = IA_i and opA[i] = pA_i.
  const std::size_t n = joint_count(model);
  // On a chain the child's Ia and pa reach its parent's step in registers (ia_child,
  // pa_child), not through oIA / opA: read back from where the child's step stored them, they
  // waited on store forwarding. On a tree each child adds its Ia and pa to its parent's oIA
  // and opA, zero until the parent's step, which then adds its own.
  ArticulatedInertia<Scalar> ia_child;
  Force<Scalar> pa_child;
  if constexpr (!Model::serial) {
    model.indices_forward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
      data.oIA[i] = ArticulatedInertia<Scalar>();
      data.opA[i] = Force<Scalar>();
    });
  }
  model.indices_backward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    const Motion<Scalar>& s = data.oS[i];
    const Motion<Scalar>& v = data.ov[i];
    // IA_i = I_i + Ia_child;  pA_i = v_i x* I_i v_i - f_ext_i + pa_child       RBDA Table 7.1
    const Inertia<Scalar> inertia = model.inertia_in(i, data.oMi[i]);
    keep(i, inertia);
    const Force<Scalar> bias = cross(v, inertia * v);
    ArticulatedInertia<Scalar> ia(inertia);
    Force<Scalar> pa = bias;
    if constexpr (Model::serial) {
      if (i + 1 < n) {
        ia = ia_child;
        ia += inertia;
        pa = pa_child + bias;
      }
    } else {
      ia = data.oIA[i];  // the children's
      ia += inertia;
      pa = data.opA[i] + bias;
    }
    if (f_ext) pa -= data.oMi[i].act((*f_ext)[i]);
    data.oIA[i] = ia;
    data.opA[i] = pa;
    // U_i = IA_i S_i;  D_i = S_i^T U_i (+ armature);  u_i = tau_i - S_i^T pA_i (- friction)
    const Force<Scalar> u_force = ia * s;
    data.oU[i] = u_force;
    const Scalar d = dot(s, u_force) + model.armature()[k];
    const Scalar inv_d = Scalar(1) / d;  // one division per joint, used by pass 3 too
    data.D[k] = d;
    data.Dinv[k] = inv_d;
    const Scalar u = tau[k] - joint_friction(model, i, qd[k]) - dot(s, pa);
    data.u[k] = u;
    if (kMovingRoot || !model.is_root(i)) {
      // Ia = IA_i - U_i U_i^T / D_i;  pa = pA_i + Ia c_i + U_i u_i / D_i, for the parent
      // (one set of coordinates: no transform)
      // With Ia c = IA c - U (U^T c) / D, pa = pA_i + IA_i c_i + U_i (u_i - U_i^T c_i) / D_i:
      // the product with IA_i need not wait for Ia.
      const Motion<Scalar>& c = data.oc[i];
      const Force<Scalar> iac = ia * c;
      ia.subtract_outer(u_force, inv_d, ia_child);
      pa_child = pa + iac + ((u - dot(c, u_force)) * inv_d) * u_force;
      if constexpr (kMovingRoot) {
        if (model.is_root(i)) {  // the base body's (RBDA ch. 9)
          root_of<Model, Root>(data).IA += ia_child;
          root_of<Model, Root>(data).pA += pa_child;
        } else if constexpr (!Model::serial) {
          const std::size_t p = model.parent(i);
          data.oIA[p] += ia_child;
          data.opA[p] += pa_child;
        }
      } else if constexpr (!Model::serial) {
        const std::size_t p = model.parent(i);
        data.oIA[p] += ia_child;
        data.opA[p] += pa_child;
      }
    }
  });
  if constexpr (kMovingRoot) root_of<Model, Root>(data).resolve();
  // Pass 3, base to tip: accelerations.
  Motion<Scalar> a_parent = base_motion<Root>(model, data);
  model.indices_forward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    // a'_i = a_p(i) + c_i, a_0 = -gravity;  qdd_i = (u_i - U_i^T a'_i) / D_i;  a_i = a'_i + S_i qdd_i
    // (times pass 2's 1 / D_i: a division is ~13 cycles of latency on this chain, per joint)
    Motion<Scalar> a = (Model::serial         ? a_parent
                        : model.is_root(i) ? base_motion<Root>(model, data)
                                           : data.oa[model.parent(i)]) +
                       data.oc[i];
    const Scalar qdd_k = (data.u[k] - dot(a, data.oU[i])) * data.Dinv[k];
    data.qdd[k] = qdd_k;
    a += data.oS[i] * qdd_k;
    data.oa[i] = a;
    if constexpr (Model::serial) a_parent = a;
  });
}

}  // namespace detail

/// Forward dynamics qdd = M^-1 (tau - C qd - g - friction), O(n), with armature. Fills
/// data.qdd, and in base coordinates data.oMi, oS, ov, oa, oc, oIA, opA, oU (and data.liMi,
/// D, Dinv, u).
template <typename Model, typename Q, typename Qd, typename Tau>
CHAINDYN_GNU_FLATTEN
void aba(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
         const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Tau>& tau)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Tau>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("aba", model, data, "q", q, "qd", qd, "tau", tau);
  detail::aba_pass(model, data, detail::as_joint_vector<Model>(q.derived()),
                   detail::as_joint_vector<Model>(qd.derived()),
                   detail::as_joint_vector<Model>(tau.derived()), nullptr);
}

/// Forward dynamics with external wrenches f_ext[i] on link i, expressed in link i's frame
/// about its origin ([moment; force]). Fills data.qdd.
template <typename Model, typename Q, typename Qd, typename Tau>
CHAINDYN_GNU_FLATTEN
void aba(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q,
         const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Tau>& tau,
         const LinkForces<Model>& f_ext) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Tau>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("aba", model, data, "q", q, "qd", qd, "tau", tau, "f_ext", f_ext);
  detail::aba_pass(model, data, detail::as_joint_vector<Model>(q.derived()),
                   detail::as_joint_vector<Model>(qd.derived()),
                   detail::as_joint_vector<Model>(tau.derived()), &f_ext);
}

/// Returning form of aba: any Eigen vectors, sizes checked (throws ArgumentError).
template <typename Model, typename Q, typename Qd, typename Tau>
typename Model::Vector aba(const Model& model, const Eigen::MatrixBase<Q>& q,
                           const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Tau>& tau) {
  Data<Model>& data = detail::thread_workspace(model);
  aba(model, data, detail::checked_joint_vector(model, q, "aba", "q"),
      detail::checked_joint_vector(model, qd, "aba", "qd"),
      detail::checked_joint_vector(model, tau, "aba", "tau"));
  return data.qdd;
}

/// Returning form of aba with external wrenches (link frames, about link origins).
template <typename Model, typename Q, typename Qd, typename Tau>
typename Model::Vector aba(const Model& model, const Eigen::MatrixBase<Q>& q,
                           const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Tau>& tau,
                           const LinkForces<Model>& f_ext) {
  Data<Model>& data = detail::thread_workspace(model);
  aba(model, data, detail::checked_joint_vector(model, q, "aba", "q"),
      detail::checked_joint_vector(model, qd, "aba", "qd"),
      detail::checked_joint_vector(model, tau, "aba", "tau"), f_ext);
  return data.qdd;
}

}  // namespace chaindyn
