/// @file
/// Analytical partial derivatives of inverse dynamics: d tau / d q and d tau / d qd, O(n^2).
///
/// Reference: J. Carpentier and N. Mansard, "Analytical Derivatives of Rigid Body Dynamics
/// Algorithms", RSS 2018 (sec. III-IV: derivatives of the RNEA in the world frame, where the
/// derivative of a joint's motion w.r.t. an ancestor's coordinate is a cross product). The
/// formulas below were derived here (not the paper's Algorithm 2 verbatim) by differentiating
/// the world-frame RNEA (RBDA Table 5.1 re-expressed in base coordinates):
///
///   All spatial quantities in base coordinates about the base origin. Written for a chain
///   (j-1 the parent of j, k <= i: k supports i, i >= k: i in k's subtree); on a tree the same
///   formulas hold with j-1 the parent p(j), the sums over root paths and subtrees, and
///   d tau_k / d q_j = d tau_k / d qd_j = 0 unless j and k lie on one root path (neither
///   subtree moves with the other joint's coordinate):
///     S_k (joint columns), v_i = sum_{k<=i} S_k qd_k,
///     a_i = a_0 + sum_{k<=i} (S_k qdd_k + (v_k x S_k) qd_k),   a_0 = (0; -g),
///     f_i = I_i a_i + v_i x* I_i v_i,  F_k = sum_{i>=k} f_i,  tau_k = S_k . F_k (+ friction,
///     + armature qdd_k).
///   Moving q_j by eps moves the subtree i >= j rigidly by X = exp(eps S_j): S_k -> X S_k and
///   I_i -> X* I_i X^-1 for k, i >= j, hence d S_k / d q_j = S_j x S_k (k >= j), and
///     d v_i / d q_j = S_j x (v_i - v_{j-1}),
///     d a_i / d q_j = S_j x (a_i - a_{j-1}) - psi_j x (v_i - v_{j-1}),   psi_j = S_j x v_{j-1},
///     d f_i / d q_j = S_j x* f_i - I_i u_j - 2 B_i psi_j,                 u_j = S_j x a_{j-1}
///                                                                              - psi_j x v_{j-1},
///   with B_i = 1/2 ((v_i x*) I_i - I_i (v_i x) + (I_i v_i) xbar*) (the Coriolis factor of
///   algorithms/coriolis.hpp: 2 B_i m = v_i x* I_i m - I_i (v_i x m) + m x* I_i v_i). With the
///   composites Ic_k = sum_{i>=k} I_i, Bc_k = sum_{i>=k} B_i, and (S_j x S_k) . F + S_k .
///   (S_j x* F) = 0:
///     d tau_k / d q_j = -S_k . (Ic_k u_j + 2 Bc_k psi_j)                       for j <= k,
///     d tau_k / d q_j =  S_k . (S_j x* F_j - Ic_j u_j - 2 Bc_j psi_j)          for j >  k.
///   For the velocities, d v_i / d qd_j = S_j and d a_i / d qd_j = S_j x v_i - 2 psi_j (i >= j),
///   so d f_i / d qd_j = 2 B_i S_j - 2 I_i psi_j and, with m = max(j, k),
///     d tau_k / d qd_j = S_k . (2 Bc_m S_j - 2 Ic_m psi_j) + damping_k [j == k].
///   Coulomb friction's derivative is zero away from qd = 0 (and taken as zero at 0); the
///   armature term does not depend on q or qd.
///
/// The composite Coriolis factor is never a 6x6 matrix. (v x*) I - I (v x) = Idot, the rate of
/// change of the body's inertia in base coordinates (RBDA sec. 2.13: I moves with the body), is
/// a symmetric spatial inertia of zero mass (detail::inertia_rate), and (I v) xbar* is linear
/// in the momentum h = I v, so with the composites Idc_k = sum_{i>=k} Idot_i (10 numbers) and
/// Hc_k = sum_{i>=k} h_i (a force), and xbar* skew-symmetric,
///     2 Bc_k m = Idc_k m + m x* Hc_k,     2 Bc_k^T m = Idc_k m - m x* Hc_k.
/// Each joint then costs a handful of structured inertia-times-vector products (~25
/// multiplications each) where the dense 6x6 factors cost ~1,000 multiplications, and each
/// (ancestor, descendant) pair a few 6-vector dot products.
#pragma once

#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/algorithms/friction.hpp"
#include "chaindyn/model/data.hpp"
#include "chaindyn/model/derivatives_data.hpp"
#include "chaindyn/model/joint_walks.hpp"

#include <array>
#include <memory>
#include <type_traits>

namespace chaindyn {

namespace detail {

/// The rate of change d/dt I = (v x*) I - I (v x) of a rigid body's spatial inertia I
/// (expressed about a fixed origin O) while the body moves with spatial velocity v = (w; v_O):
/// the derivative of X* I X^-1 along the motion. It is symmetric with the structure of a
/// spatial inertia of zero mass (RBDA eq. 2.63 with m = 0): the first moment h = m c changes at
/// w x h + m v_O (c moves with the body), and the rotational part about O at
///     [w]x I_O - I_O [w]x + 2 (v_O . h) 1 - v_O h^T - h v_O^T
/// (the rotation of I_O, and its shift as the points move by v_O: [a]x[b]x = b a^T - (a.b) 1).
/// With A = [w]x I_O, -I_O [w]x = A^T (I_O symmetric). ~40 multiplications.
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Inertia<Scalar> inertia_rate(const Inertia<Scalar>& inertia,
                                                           const Motion<Scalar>& v) noexcept {
  const Vector3<Scalar>& w = v.angular;
  const Vector3<Scalar>& vo = v.linear;
  const Vector3<Scalar>& h = inertia.first_moment;
  Inertia<Scalar> out;
  out.mass = Scalar(0);
  const Vector3<Scalar> wh = cross3(w, h);
  out.first_moment = Vector3<Scalar>(wh.x() + inertia.mass * vo.x(), wh.y() + inertia.mass * vo.y(),
                                     wh.z() + inertia.mass * vo.z());
  const Matrix3<Scalar> a = skew_mul(w, inertia.rotational);
  const Scalar vh2 = Scalar(2) * vo.dot(h);
  for_upper3([&](const int i, const int j) CHAINDYN_ALWAYS_INLINE {  // (g++: see for_upper3)
    const Scalar t = a(i, j) + a(j, i) - (vo[i] * h[j] + h[i] * vo[j]);
    if (j != i) {
      out.rotational(i, j) = t;
      out.rotational(j, i) = t;
    } else {
      out.rotational(i, i) = t + vh2;
    }
  });
  return out;
}

/// The product of a zero-mass inertia-like matrix (an inertia_rate or a sum of them) with a
/// motion: (I_O w + h x v; -h x w), the mass term dropped.
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Force<Scalar> massless_times(const Inertia<Scalar>& rate,
                                                           const Motion<Scalar>& m) noexcept {
  return Force<Scalar>(add3(mul(rate.rotational, m.angular), cross3(rate.first_moment, m.linear)),
                       cross3(m.angular, rate.first_moment));
}

/// Component k of a spatial vector [angular; linear].
template <typename Vec>
inline CHAINDYN_ALWAYS_INLINE const auto& component(const Vec& x, int k) noexcept {
  return k < 3 ? x.angular[k] : x.linear[k - 3];
}
/// Row k of an n x 6 matrix := the spatial vector x.
template <typename Rows, typename Vec>
inline CHAINDYN_ALWAYS_INLINE void set_row(Rows& m, std::size_t k, const Vec& x) noexcept {
  const auto r = Eigen::Index(k);
  for (int c = 0; c < 3; ++c) m(r, c) = x.angular[c];
  for (int c = 0; c < 3; ++c) m(r, 3 + c) = x.linear[c];
}
}  // namespace detail

/// The result of the returning form of rnea_derivatives.
template <typename Model>
struct RneaDerivatives {
  typename Model::Matrix dtau_dq;   ///< d tau / d q
  typename Model::Matrix dtau_dqd;  ///< d tau / d qd
};

namespace detail {

/// Columns of dtau_dq and dtau_dqd from the per-link vectors of rnea_derivatives_pass (file
/// comment): in column c,
///     rows r <  c:  S_r . col_q_c,                      S_r . col_qd_c,
///     rows k >= c:  -(u_c . Ic_k S_k + psi_c . 2 Bc_k^T S_k),  S_c . 2 Bc_k^T S_k - 2 psi_c . Ic_k S_k,
/// (+ damping on the diagonal), P rows at a time down the contiguous columns of pair_s,
/// pair_ics and pair_bts (P: Eigen's SIMD packet size for Scalar or a power-of-two fraction of
/// it, 1 for AutoDiff and packs; n >= P). The last block of rows overlaps the one before when
/// P does not divide n; a block that straddles row c computes both forms and keeps each row's
/// own. Writing the matrices
/// column by column, where a row per link k would store with a stride of n (n = 64: the two
/// matrices' rows then fall in the same L1 sets, and those stores were the pass's hottest
/// instructions).
template <int P, typename Model>
inline CHAINDYN_ALWAYS_INLINE void rnea_derivatives_columns(const Model& model,
                                                            DerivativesData<Model>& dd,
                                                            const Eigen::Index n) noexcept {
  using Scalar = typename Model::Scalar;
  // One block of P rows, as Eigen's packet of P scalars, with Eigen's packet functions (for
  // P = 1 the packet is the scalar itself and the generic functions its operators): Eigen's own
  // expression for the same sum carries ~0.5 KB of evaluators, and g++ declines to inline it
  // into this loop (its stack-frame growth limit).
  namespace pk = Eigen::internal;
  using Packet = std::conditional_t<P == 1, Scalar, typename pk::find_best_packet<Scalar, P>::type>;
  static_assert(P == 1 || pk::unpacket_traits<Packet>::size == P,
                "rnea_derivatives_columns: P must be a packet size of Scalar");
  const auto& rs = dd.pair_s;
  const auto& ics = dd.pair_ics;
  const auto& bts = dd.pair_bts;
  for (Eigen::Index c = 0; c < n; ++c) {
    const auto i = std::size_t(c);
    const Motion<Scalar>& u = dd.upsilon[i];
    const Motion<Scalar> psi2 = Scalar(2) * dd.psi[i];
    const Motion<Scalar>& psi = dd.psi[i];
    const Motion<Scalar>& s = dd.data.oS[i];
    const Force<Scalar>& cq = dd.col_q[i];
    const Force<Scalar>& cqd = dd.col_qd[i];
    // sum_m x_m M(r0.., m), in two halves (angular, linear) for two independent chains
    const auto combine = [](const auto& rows, const auto& x, const Eigen::Index r0)
                             CHAINDYN_ALWAYS_INLINE {
      const auto term = [&](int m) CHAINDYN_ALWAYS_INLINE {
        return pk::pmul(pk::ploadu<Packet>(rows.col(m).data() + r0),
                        pk::pset1<Packet>(component(x, m)));
      };
      return pk::padd(pk::padd(pk::padd(term(0), term(1)), term(2)),
                      pk::padd(pk::padd(term(3), term(4)), term(5)));
    };
    Scalar* out_q = dd.dtau_dq.col(c).data();
    Scalar* out_qd = dd.dtau_dqd.col(c).data();
    for (Eigen::Index r = 0; r < n; r += P) {
      const Eigen::Index r0 = r + P <= n ? r : n - P;
      if (r0 + P <= c) {  // above the diagonal
        pk::pstoreu(out_q + r0, combine(rs, cq, r0));
        pk::pstoreu(out_qd + r0, combine(rs, cqd, r0));
      } else if (r0 >= c) {  // on and below
        pk::pstoreu(out_q + r0, pk::pnegate(pk::padd(combine(ics, u, r0), combine(bts, psi, r0))));
        pk::pstoreu(out_qd + r0, pk::psub(combine(bts, s, r0), combine(ics, psi2, r0)));
      } else {
        Scalar uq[P], uqd[P], lq[P], lqd[P];
        pk::pstoreu(uq, combine(rs, cq, r0));
        pk::pstoreu(uqd, combine(rs, cqd, r0));
        pk::pstoreu(lq, pk::pnegate(pk::padd(combine(ics, u, r0), combine(bts, psi, r0))));
        pk::pstoreu(lqd, pk::psub(combine(bts, s, r0), combine(ics, psi2, r0)));
        for (int t = 0; t < P; ++t) {
          out_q[r0 + t] = r0 + t < c ? uq[t] : lq[t];
          out_qd[r0 + t] = r0 + t < c ? uqd[t] : lqd[t];
        }
      }
    }
    dd.dtau_dqd(c, c) += model.damping()[c];
  }
}

/// rnea_derivatives_columns in blocks of the widest P (a power of two, at most Eigen's packet
/// size for Scalar) that the chain's n joints fill: a 7-joint chain with 8-double packets
/// (AVX-512) runs in blocks of 4 (half packets), not one row at a time.
template <int P, typename Model>
inline CHAINDYN_ALWAYS_INLINE void rnea_derivatives_columns_widest(const Model& model,
                                                                  DerivativesData<Model>& dd,
                                                                  const Eigen::Index n) noexcept {
  if constexpr (P <= 1) {
    rnea_derivatives_columns<1>(model, dd, n);
  } else if constexpr (Model::nq != Eigen::Dynamic && Model::nq < P) {
    rnea_derivatives_columns_widest<P / 2>(model, dd, n);
  } else if (n >= P) {
    rnea_derivatives_columns<P>(model, dd, n);
  } else {
    rnea_derivatives_columns_widest<P / 2>(model, dd, n);
  }
}

/// The acceleration of the root links' parent: the fixed base's (-g) or the moving base
/// body's (RootedDerivativesData::root.a).
template <typename Root, typename Model>
inline CHAINDYN_ALWAYS_INLINE const Motion<typename Model::Scalar>& root_parent_acceleration(
    const Model& model, DerivativesData<Model>& dd) noexcept {
  if constexpr (is_moving_root<Root>) {
    return static_cast<RootedDerivativesData<Model, typename RootJoint<Root>::type>&>(dd).root.a;
  } else {
    return model.base_acceleration();
  }
}

/// The passes of rnea_derivatives (see the file comment). With `from_aba`, aba_derivatives'
/// aba has left this state's base-coordinate kinematics at this qdd in data.oMi, oS, ov and oa,
/// and each link's rigid inertia in base coordinates in data.oIc[i] (kept from its aba_pass),
/// and the pass starts from them. With Root = MovingRoot<BaseJoint>, dd is a
/// RootedDerivativesData and the root links' parent moves with its root.v and root.a (the
/// same formulas, j - 1 the base body); the pass then also stores Ic_k S_k and 2 Bc_k^T S_k
/// of a tree's links in dd.pair_ics and dd.pair_bts (a chain's always).
template <bool from_aba, typename Model, typename Root = FixedRoot>
void rnea_derivatives_pass(const Model& model, DerivativesData<Model>& dd,
                           const typename Model::Vector& q, const typename Model::Vector& qd,
                           const typename Model::Vector& qdd) noexcept {
  static_assert(!(from_aba && is_moving_root<Root>), "rnea_derivatives_pass: from_aba on a fixed base only");
  using Scalar = typename Model::Scalar;
  const std::size_t n = joint_count(model);
  Data<Model>& data = dd.data;
  // Forward pass, base coordinates: the kinematics (oMi, S_i = oS[i], v_i, a_i),
  // psi_i = S_i x v_{i-1} and u_i = S_i x a_{i-1} - psi_i x v_{i-1}, and each link's own
  // inertia I_i (into data.oIc[i]), momentum h_i = I_i v_i, force f_i = I_i a_i + v_i x* h_i
  // and inertia rate Idot_i: all per link, so the backward pass only sums and multiplies.
  //
  // Only the joint poses and each joint's column S_i depend on the joint's type. They run
  // first, unrolled over the joint types; everything after them is the same arithmetic for
  // every link and runs as one loop (indices_forward, as in aba), whatever the chain (unrolled
  // whole, the pass overflows the instruction caches).
  // Link i's base pose composes its parent's (with the placement's pattern, as aba does), read
  // through `parent` (the previous step's; with clang++ a local, carry_pose_in_local), and
  // link 0's is liMi[0] itself, copied into oMi[0] after these steps (as in aba.hpp: the copy
  // right after joint_poses stored liMi[0] stalls g++ on store forwarding). The same steps as
  // aba's pass 1, written out in both: as one shared inline function, clang++'s and g++'s aba
  // change.
  // A tree's link composes the pose of its parent, parent(i) (world_kinematics).
  if constexpr (!from_aba && Model::serial) {
    joint_poses(model, data, q);
    if constexpr (carry_pose_in_local<Scalar>) {  // clang++ (forward_kinematics.hpp)
      Transform<Scalar> x;
      model.joints_forward(large_body, [&](const std::size_t i, const auto& joint)
                                    CHAINDYN_ALWAYS_INLINE {
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
      model.joints_forward(large_body, [&](const std::size_t i, const auto& joint)
                                    CHAINDYN_ALWAYS_INLINE {
        const Transform<Scalar>& x =
            i == 0 ? data.liMi[0] : (data.oMi[i] = compose(model, i, joint, *parent, data.liMi[i]));
        parent = &x;
        data.oS[i] = joint.subspace_in(x);
      });
    }
    data.oMi[0] = data.liMi[0];
  } else if constexpr (!from_aba) {
    world_kinematics(model, data, q);
  }
  // Each link's inputs are read into locals and its outputs stored once, at the end: read back
  // through data after a store, clang++ loads them again (it cannot tell the arrays apart).
  // From aba's kinematics (from_aba), they stay references into data: copied, g++'s
  // aba_derivatives runs slower.
  using MotionIn = std::conditional_t<from_aba, const Motion<Scalar>&, const Motion<Scalar>>;
  model.indices_forward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    MotionIn s = data.oS[i];
    if constexpr (Model::serial) set_row(dd.pair_s, i, s);
    // (a chain's parent written i - 1: through parent(i), the compilers' code for it differs)
    MotionIn a_parent =
        Model::serial
            ? (i == 0 ? root_parent_acceleration<Root>(model, dd) : data.oa[i - 1])
            : (model.is_root(i) ? root_parent_acceleration<Root>(model, dd) : data.oa[model.parent(i)]);
    [[maybe_unused]] Motion<Scalar> v;  // v_i (from_aba: data.ov[i])
    if (Model::serial ? i == 0 : model.is_root(i)) {
      if constexpr (is_moving_root<Root>) {
        MotionIn v_parent =
            static_cast<RootedDerivativesData<Model, typename RootJoint<Root>::type>&>(dd).root.v;
        const Motion<Scalar> psi = cross(s, v_parent);
        dd.psi[i] = psi;
        dd.upsilon[i] = cross(s, a_parent) - cross(psi, v_parent);
        v = v_parent + s * qd[k];
      } else {
        dd.psi[i] = Motion<Scalar>();
        dd.upsilon[i] = cross(s, a_parent);
        if constexpr (!from_aba) v = s * qd[k];
      }
    } else {
      MotionIn v_parent = data.ov[Model::serial ? i - 1 : model.parent(i)];
      const Motion<Scalar> psi = cross(s, v_parent);
      dd.psi[i] = psi;
      dd.upsilon[i] = cross(s, a_parent) - cross(psi, v_parent);
      if constexpr (!from_aba) v = v_parent + s * qd[k];
    }
    // h_i = I_i v_i, f_i = I_i a_i + v_i x* h_i, Idot_i
    const auto link_terms = [&](const Motion<Scalar>& vi, const Motion<Scalar>& ai,
                                const Inertia<Scalar>& inertia) CHAINDYN_ALWAYS_INLINE {
      const Force<Scalar> h = inertia * vi;
      dd.oh[i] = h;
      dd.of[i] = inertia * ai + cross(vi, h);
      dd.oIdot[i] = inertia_rate(inertia, vi);
    };
    if constexpr (from_aba) {
      link_terms(data.ov[i], data.oa[i], data.oIc[i]);
    } else {
      // a_i = a_{i-1} + S_i qdd_i + (v_i x S_i) qd_i
      const Motion<Scalar> a = a_parent + s * qdd[k] + cross(v, s) * qd[k];
      const Inertia<Scalar> inertia = model.inertia_in(i, data.oMi[i]);
      data.ov[i] = v;
      data.oa[i] = a;
      data.oIc[i] = inertia;
      link_terms(v, a, inertia);
    }
  });
  // Backward pass: the composites Ic_k (in place in data.oIc), Hc_k, F_k and Idc_k; tau_k,
  // and the vectors row k and column k of the derivatives are made of. On a chain the
  // composites are running sums (i >= k); on a tree each link's slots (data.oIc, dd.of, dd.oh,
  // dd.oIdot) hold its own terms plus what its children pushed, so they are the subtree's
  // sums when its step reads them, and it pushes them on to its parent.
  Inertia<Scalar> idc;  // Idc_k = sum_{i>=k} Idot_i (zero mass)
  Force<Scalar> hc;     // Hc_k = sum_{i>=k} I_i v_i
  Force<Scalar> fc;     // F_k = sum_{i>=k} f_i
  if constexpr (!Model::serial) {
    dd.dtau_dq.setZero();  // the pairs on different branches
    dd.dtau_dqd.setZero();
  }
  for (std::size_t k = n; k-- > 0;) {
    const auto kk = Eigen::Index(k);
    const Motion<Scalar>& s = data.oS[k];
    if constexpr (Model::serial) {
      fc += dd.of[k];
      hc += dd.oh[k];
      idc += dd.oIdot[k];
    } else {
      fc = dd.of[k];
      hc = dd.oh[k];
      idc = dd.oIdot[k];
    }
    Inertia<Scalar>& ic = data.oIc[k];
    if constexpr (Model::serial) {
      if (k + 1 < n) ic += data.oIc[k + 1];
    } else if (!model.is_root(k)) {
      const std::size_t p = model.parent(k);
      dd.of[p] += fc;
      dd.oh[p] += hc;
      dd.oIdot[p] += idc;
      data.oIc[p] += ic;
    }
    data.tau[kk] = dot(s, fc) + joint_friction(model, k, qd[kk]) + model.armature()[kk] * qdd[kk];
    // Row k: S_k^T Ic_k = (Ic_k S_k)^T and 2 S_k^T Bc_k = (2 Bc_k^T S_k)^T.
    const Force<Scalar> ids = massless_times(idc, s);
    const Force<Scalar> sxh = cross(s, hc);
    if constexpr (Model::serial) {
      set_row(dd.pair_ics, k, ic * s);
      set_row(dd.pair_bts, k, ids - sxh);  // 2 Bc_k^T S_k
    }
    // Column k, rows r < k: S_r . (S_k x* F_k - Ic_k u_k - 2 Bc_k psi_k) and
    // S_r . (2 Bc_k S_k - 2 Ic_k psi_k).
    const Motion<Scalar>& psi = dd.psi[k];
    dd.col_q[k] = cross(s, fc) - ic * dd.upsilon[k] - (massless_times(idc, psi) + cross(psi, hc));
    dd.col_qd[k] = (ids + sxh) - Scalar(2) * (ic * psi);
    if constexpr (!Model::serial) {
      // The pairs of k with the joints j that support it (k itself and its ancestors): row k
      // (the formulas for j <= k) and, j != k, column k (j > k with the roles swapped); every
      // other entry of row and column k is zero (branch-induced sparsity: O(sum of depths)).
      const Force<Scalar> ics = ic * s;
      const Force<Scalar> bts = ids - sxh;  // 2 Bc_k^T S_k
      if constexpr (is_moving_root<Root>) {
        set_row(dd.pair_ics, k, ics);
        set_row(dd.pair_bts, k, bts);
      }
      const Force<Scalar>& cq = dd.col_q[k];
      const Force<Scalar>& cqd = dd.col_qd[k];
      const auto lower = [&](const std::size_t j) CHAINDYN_ALWAYS_INLINE {
        const auto jj = Eigen::Index(j);
        dd.dtau_dq(kk, jj) = -(dot(dd.upsilon[j], ics) + dot(dd.psi[j], bts));
        dd.dtau_dqd(kk, jj) = dot(data.oS[j], bts) - Scalar(2) * dot(dd.psi[j], ics);
      };
      lower(k);
      dd.dtau_dqd(kk, kk) += model.damping()[kk];
      for (std::size_t j = model.parent(k); j != no_parent; j = model.parent(j)) {
        lower(j);
        dd.dtau_dq(Eigen::Index(j), kk) = dot(data.oS[j], cq);
        dd.dtau_dqd(Eigen::Index(j), kk) = dot(data.oS[j], cqd);
      }
    }
  }
  if constexpr (Model::serial) {
    constexpr int packet = Eigen::internal::packet_traits<Scalar>::Vectorizable
                               ? int(Eigen::internal::packet_traits<Scalar>::size)
                               : 1;
    rnea_derivatives_columns_widest<packet>(model, dd, Eigen::Index(n));
  }
}

/// rnea_derivatives_pass with everything it calls inlined, for a runtime-sized model (ChainX,
/// TreeX): in a large translation unit g++ leaves Eigen's small expressions (Motion * scalar)
/// out of line in its pass. Not for compile-time models: flattened, clang++'s generated iiwa
/// runs slower.
template <bool from_aba, typename Model, typename Root = FixedRoot>
CHAINDYN_FLATTEN void rnea_derivatives_pass_flattened(const Model& model, DerivativesData<Model>& dd,
                                                      const typename Model::Vector& q,
                                                      const typename Model::Vector& qd,
                                                      const typename Model::Vector& qdd) noexcept {
  rnea_derivatives_pass<from_aba, Model, Root>(model, dd, q, qd, qdd);
}

}  // namespace detail

/// d tau / d q and d tau / d qd of rnea(model, q, qd, qdd) (friction and armature included as
/// rnea has them; see the file comment for the derivation), on a chain or a tree. O(n^2) on a
/// chain; on a tree only the pairs on one root path are computed, O(sum of the joints' depths)
/// (the other entries are set to zero); no allocation; noexcept on a compile-time model (a
/// ChainX's or TreeX's checks its arguments' sizes: model/arguments.hpp).
/// Fills dd.dtau_dq, dd.dtau_dqd, dd.data.tau (= rnea) and the derivatives' own intermediates
/// in dd (psi, upsilon, oh, of, oIdot, col_q, col_qd; on a chain pair_*; on a tree oh, of and
/// oIdot hold the subtrees' sums), and in base coordinates dd.data.oMi, oS, ov, oa, oIc
/// (composite inertias); dd.data.liMi.
template <typename Model, typename Q, typename Qd, typename Qdd>
CHAINDYN_GNU_FLATTEN
void rnea_derivatives(const Model& model, DerivativesDataFor<Model>& dd,
                      const Eigen::MatrixBase<Q>& q_in, const Eigen::MatrixBase<Qd>& qd_in,
                      const Eigen::MatrixBase<Qdd>& qdd_in) noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Qdd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("rnea_derivatives", model, dd, "q", q_in, "qd", qd_in, "qdd", qdd_in);
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  const auto& qd = detail::as_joint_vector<Model>(qd_in.derived());
  const auto& qdd = detail::as_joint_vector<Model>(qdd_in.derived());
  if constexpr (Model::nq == Eigen::Dynamic) {
    detail::rnea_derivatives_pass_flattened<false>(model, dd, q, qd, qdd);
  } else {
    detail::rnea_derivatives_pass<false>(model, dd, q, qd, qdd);
  }
}

/// Returning form of rnea_derivatives: any Eigen vectors, sizes checked (throws
/// ArgumentError). Its workspace is per thread (detail::thread_workspace_of).
template <typename Model, typename Q, typename Qd, typename Qdd>
RneaDerivatives<Model> rnea_derivatives(const Model& model, const Eigen::MatrixBase<Q>& q,
                                        const Eigen::MatrixBase<Qd>& qd,
                                        const Eigen::MatrixBase<Qdd>& qdd) {
  auto& dd = detail::thread_workspace_of<DerivativesData<Model>>(model);
  rnea_derivatives(model, dd, detail::checked_joint_vector(model, q, "rnea_derivatives", "q"),
                   detail::checked_joint_vector(model, qd, "rnea_derivatives", "qd"),
                   detail::checked_joint_vector(model, qdd, "rnea_derivatives", "qdd"));
  return RneaDerivatives<Model>{dd.dtau_dq, dd.dtau_dqd};
}

}  // namespace chaindyn
