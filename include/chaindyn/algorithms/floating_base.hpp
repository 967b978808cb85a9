/// @file
/// The algorithms of a floating base (model/floating_base.hpp: a free-flyer or a planar base),
/// RBDA ch. 9. Each one runs the tree's own fixed-base pass with the base body's motion as the
/// root state (RootMotion, model/root_motion.hpp) and adds the base body's terms; the base
/// joint enters only through its motion subspace S_0 (constant in base coordinates: the
/// identity for a free-flyer), so one implementation serves both:
/// - rnea: the hybrid form, base acceleration given: [base generalized forces S_0^T f_0; joint
///   torques] (RBDA ch. 9: the base is the tree's root body);
/// - rnea_free_base: the full form, the base free (no generalized force on it): its
///   acceleration and the joint torques (RBDA Table 9.6);
/// - crba: the nv x nv mass matrix [S_0^T Ic_0 S_0, S_0^T F; F^T S_0, H] (RBDA ch. 9, floating
///   bases): H the tree's, F_i = Ic_i S_i and Ic_0 the whole system's inertia, from the tree's
///   CRBA in base coordinates;
/// - aba: the floating-base ABA, the base's articulated inertia from the tree's backward pass
///   (RBDA ch. 9, floating bases);
/// - forward_dynamics_crba (crba + Cholesky), nonlinear_effects, gravity_torques, the
///   energies, the centroidal momentum and its matrix, frame Jacobians with the base columns;
/// - integrate, difference, normalize, random_configuration on the configuration manifold,
///   rk4_step on it.
/// Vector conventions: docs/floating_base.md.
#pragma once

#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/algorithms/crba.hpp"
#include "chaindyn/algorithms/forward_dynamics_crba.hpp"
#include "chaindyn/algorithms/jacobian.hpp"
#include "chaindyn/algorithms/rnea.hpp"
#include "chaindyn/model/floating_base.hpp"

#include <cmath>
#include <random>

namespace chaindyn {

namespace detail {

/// The in-place forms' size rule: a compile-time model takes vectors of its sizes at compile
/// time (a dynamic-size vector is a compile error); a ChainX/TreeX-based model checks them
/// (and the workspace) at run time and throws ArgumentError.
template <typename Model, typename Derived>
constexpr bool floating_sized(int size) {
  return Model::nq == Eigen::Dynamic ? true : Derived::SizeAtCompileTime == size;
}

template <typename Model, typename Derived>
void check_floating_vector(const Model& model, const char* function, const char* name,
                           const Eigen::MatrixBase<Derived>& v, bool config) {
  const Eigen::Index expected = config ? model.nq_size() : model.nv_size();
  check_floating_size<Model>(function, name, v, expected, config ? "nq" : "nv");
}

template <typename Model, typename Work>
void check_floating_workspace(const Model& model, const char* function, const Work& data) {
  if (data.size() != model.joint_count()) {
    throw_error<ArgumentError>(function, ": the workspace was made for a tree of ", data.size(),
                               " joints; the model's tree has ", model.joint_count());
  }
}

/// The returning forms' check of a vector: size, finite entries, and for a configuration the
/// base joint's check (a free-flyer's unit quaternion: FreeFlyer::check_configuration). Returns a copy (converted to the model's vector type by the caller).
template <typename Model, typename Derived>
auto checked_floating(const Model& model, const char* function, const char* name,
                      const Eigen::MatrixBase<Derived>& v, bool config) {
  check_floating_vector(model, function, name, v, config);
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const double x = scalar_value(v.derived().coeff(i));
    if (!std::isfinite(x)) throw_error<ArgumentError>(function, ": ", name, "[", i, "] is not finite (", x, ")");
  }
  if (config) Model::Base::check_configuration(function, v);
  return Eigen::Matrix<typename Model::Scalar, Eigen::Dynamic, 1>(v);
}

/// The base pose and the tree's configuration from q (data.oMb, data.q).
template <typename Tree, typename Q, typename BaseJoint>
inline void floating_configuration(Data<FloatingBase<Tree, BaseJoint>>& data,
                                   const Eigen::MatrixBase<Q>& q) noexcept {
  using Model = FloatingBase<Tree, BaseJoint>;
  data.oMb = Model::Base::pose(q.template head<BaseJoint::nq>());
  if constexpr (Model::n == Eigen::Dynamic) {
    data.q = q.tail(q.size() - BaseJoint::nq);
  } else {
    data.q = q.template tail<Model::n>();
  }
}

/// A tangent vector's base part as the base body's spatial motion (S v_base, base coordinates)
/// and its tree part.
template <typename Model, typename V>
inline void split_tangent(const Eigen::MatrixBase<V>& v, Motion<typename Model::Scalar>& base,
                          typename Model::Tree::Vector& tree) noexcept {
  constexpr int kBase = Model::Base::nv;
  base = Model::Base::motion(v.template head<kBase>());
  if constexpr (Model::n == Eigen::Dynamic) {
    tree = v.tail(v.size() - kBase);
  } else {
    tree = v.template tail<Model::n>();
  }
}

/// The gravity acceleration in base coordinates, as a spatial acceleration (0; R^T g).
template <typename Tree, typename BaseJoint>
inline Motion<typename Tree::Scalar> gravity_in_base(const FloatingBase<Tree, BaseJoint>& model,
                                                      const Data<FloatingBase<Tree, BaseJoint>>& data) noexcept {
  using Scalar = typename Tree::Scalar;
  return Motion<Scalar>(Vector3<Scalar>::Zero(), data.oMb.rotation.transpose() * model.gravity());
}

/// The hybrid inverse dynamics once data.oMb, q, qd, qdd and root.v are set and root.a holds
/// the base's acceleration: the tree's RNEA with the base body as its root (RBDA Table 5.1 with
/// the root link's parent the base), then f_0 = I_0 a'_0 + v_0 x* I_0 v_0 + sum of the root
/// links' forces (RBDA eq. 5.9 for the base body), and the base's generalized forces S^T f_0.
/// Writes data.tau.
template <typename Tree, typename BaseJoint>
inline void floating_rnea_pass(const FloatingBase<Tree, BaseJoint>& model,
                               Data<FloatingBase<Tree, BaseJoint>>& data) noexcept {
  auto& root = data.tree.root;
  root.a -= gravity_in_base(model, data);  // a'_0 = a_0 - a_g
  const Inertia<typename Tree::Scalar>& i0 = model.base_inertia();
  root.f = i0 * root.a + cross(root.v, i0 * root.v);
  rnea_pass<true, true, true>(model.tree(), data.tree, data.q, data.qd, data.qdd, nullptr,
                              MovingRoot<BaseJoint>());
  data.tau.template head<BaseJoint::nv>() = BaseJoint::project(root.f);  // S^T f_0
  data.tau.tail(data.tau.size() - BaseJoint::nv) = data.tree.tau;
}

/// Every link's pose in base coordinates (data.tree.oMi) from data.tree.liMi.
template <typename Tree>
inline void base_frame_poses(const Tree& tree, Data<Tree>& data) noexcept {
  for (std::size_t i = 0; i < joint_count(tree); ++i) {
    data.oMi[i] = tree.is_root(i) ? data.liMi[i] : data.oMi[tree.parent(i)] * data.liMi[i];
  }
}

/// data.Ic0 = I_0 + sum_i oI_i, the whole system's inertia in base coordinates (the composite
/// inertia of the base, RBDA ch. 9), from data.tree.oMi.
template <typename Tree, typename BaseJoint>
inline void system_inertia(const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data) noexcept {
  data.Ic0 = model.base_inertia();
  for (std::size_t i = 0; i < joint_count(model.tree()); ++i) {
    data.Ic0 += model.tree().inertia_in(i, data.tree.oMi[i]);
  }
}

/// out = q (+) v dt without checks (integrate's body; allocation-free on a compile-time tree).
template <typename Tree, typename Q, typename V, typename Out, typename BaseJoint>
inline void integrate_into(const FloatingBase<Tree, BaseJoint>& model, const Eigen::MatrixBase<Q>& q,
                           const Eigen::MatrixBase<V>& v, const typename Tree::Scalar& dt,
                           Eigen::MatrixBase<Out>& out) noexcept {
  const Eigen::Matrix<typename Tree::Scalar, BaseJoint::nv, 1> step = dt * v.template head<BaseJoint::nv>();
  out.template head<BaseJoint::nq>() = BaseJoint::integrate(q.template head<BaseJoint::nq>(), step);
  const Eigen::Index n = Eigen::Index(model.joint_count());
  out.tail(n) = q.tail(n) + dt * v.tail(n);
}

/// out = dexp^-1_{-theta}(xi) truncated after the second-order term, the rate of the increment
/// theta of q = q_0 (+) theta moving with the tangent vector xi (the base's body velocity):
///     theta' = xi + 1/2 theta x xi + 1/12 theta x (theta x xi)
/// on the base's entries (the Bernoulli series of dexp^-1, whose next term, B_3, is zero: the
/// truncation keeps Munthe-Kaas methods of order up to 5: Hairer, Lubich and Wanner, Geometric
/// Numerical Integration, sec. III.4 for the series, sec. IV.8.2 for its truncation), theta' =
/// xi on the joints'. Allocation-free on a compile-time tree.
template <typename BaseJoint, typename Tangent>
inline void dexp_inverse_into(const Tangent& theta, const Tangent& xi, Tangent& out) {
  using Scalar = typename Tangent::Scalar;
  constexpr int kBase = BaseJoint::nv;
  const Motion<Scalar> t = BaseJoint::motion(theta.template head<kBase>());
  const Motion<Scalar> x = BaseJoint::motion(xi.template head<kBase>());
  const Motion<Scalar> tx = cross(t, x);
  const Motion<Scalar> ttx = cross(t, tx);
  out = xi;
  if constexpr (kBase == 6) {
    out.template head<3>() += Scalar(0.5) * tx.angular + ttx.angular / Scalar(12);
    out.template segment<3>(3) += Scalar(0.5) * tx.linear + ttx.linear / Scalar(12);
  } else {
    out.template head<kBase>() += BaseJoint::project(Scalar(0.5) * tx + (Scalar(1) / Scalar(12)) * ttx);
  }
}

}  // namespace detail

// --- Configuration space --------------------------------------------------------------------

/// q (+) v dt: the base moves with the constant body velocity v_base dt (the base joint's
/// exponential map: FreeFlyer::integrate on SE(3), the quaternion staying unit;
/// PlanarBase::integrate on SE(2)), the tree's joints by q_tree + qd dt. Throws ArgumentError
/// for wrong sizes or a free-flyer's non-unit quaternion.
template <typename Tree, typename Q, typename V, typename BaseJoint>
typename FloatingBase<Tree, BaseJoint>::ConfigVector integrate(const FloatingBase<Tree, BaseJoint>& model,
                                                    const Eigen::MatrixBase<Q>& q,
                                                    const Eigen::MatrixBase<V>& v,
                                                    const typename Tree::Scalar& dt) {
  detail::check_floating_vector(model, "integrate", "q", q, true);
  detail::check_floating_vector(model, "integrate", "v", v, false);
  BaseJoint::check_configuration("integrate", q);
  typename FloatingBase<Tree, BaseJoint>::ConfigVector out(model.nq_size());
  detail::integrate_into(model, q, v, dt, out);
  return out;
}

/// q1 (-) q0: the tangent vector v with integrate(q0, v, 1) = q1 (the base joint's log, its
/// shorter rotation: FreeFlyer::difference, PlanarBase::difference; the joints' q1 - q0).
/// Throws ArgumentError as integrate.
template <typename Tree, typename Q0, typename Q1, typename BaseJoint>
typename FloatingBase<Tree, BaseJoint>::TangentVector difference(const FloatingBase<Tree, BaseJoint>& model,
                                                      const Eigen::MatrixBase<Q0>& q0,
                                                      const Eigen::MatrixBase<Q1>& q1) {
  detail::check_floating_vector(model, "difference", "q0", q0, true);
  detail::check_floating_vector(model, "difference", "q1", q1, true);
  BaseJoint::check_configuration("difference", q0);
  BaseJoint::check_configuration("difference", q1);
  using Model = FloatingBase<Tree, BaseJoint>;
  typename Model::TangentVector out(model.nv_size());
  out.template head<BaseJoint::nv>() =
      BaseJoint::difference(q0.template head<BaseJoint::nq>(), q1.template head<BaseJoint::nq>());
  const Eigen::Index n = Eigen::Index(model.joint_count());
  out.tail(n) = q1.tail(n) - q0.tail(n);
  return out;
}

/// The base's configuration in its canonical form, in place: a free-flyer's quaternion scaled
/// to unit norm, a planar base's yaw wrapped into [-pi, pi). Throws ArgumentError for a wrong
/// size, a zero (or non-finite) quaternion or a non-finite yaw.
template <typename Tree, typename Q, typename BaseJoint>
void normalize(const FloatingBase<Tree, BaseJoint>& model, Eigen::MatrixBase<Q>& q) {
  detail::check_floating_vector(model, "normalize", "q", q, true);
  BaseJoint::normalize(q);
}

/// A random configuration: the base's pose random (FreeFlyer: the position uniform in the box
/// [-position_bound, position_bound]^3, the orientation uniform on SO(3); PlanarBase: x, y
/// uniform in [-position_bound, position_bound], yaw in [-pi, pi)), each joint uniform between
/// its limits (Link::limits) or in [-pi, pi] without.
template <typename Tree, typename Generator, typename BaseJoint>
typename FloatingBase<Tree, BaseJoint>::ConfigVector random_configuration(
    const FloatingBase<Tree, BaseJoint>& model, Generator& gen,
    const typename Tree::Scalar& position_bound = typename Tree::Scalar(1)) {
  using Scalar = typename Tree::Scalar;
  typename FloatingBase<Tree, BaseJoint>::ConfigVector q(model.nq_size());
  q.template head<BaseJoint::nq>() = BaseJoint::random(gen, position_bound);
  std::uniform_real_distribution<double> box(-1.0, 1.0);
  for (std::size_t i = 0; i < model.joint_count(); ++i) {
    const auto& limits = model.tree().link(i).limits;
    const double lo = limits ? detail::scalar_value(limits->lower) : -3.14159265358979323846;
    const double hi = limits ? detail::scalar_value(limits->upper) : 3.14159265358979323846;
    q[BaseJoint::nq + Eigen::Index(i)] = Scalar(lo + (hi - lo) * 0.5 * (box(gen) + 1.0));
  }
  return q;
}

// --- Inverse dynamics -----------------------------------------------------------------------

/// Hybrid inverse dynamics (the base's acceleration given): data.tau = [f_0; tau_tree], f_0
/// the base's generalized forces (base coordinates, about its origin: a free-flyer's wrench
/// [moment; force], a planar base's [f_x; f_y; tau_z], the rest of the wrench it needs being
/// the ground's: data.tree.root.f holds all six components) and tau_tree the joint forces
/// (with friction and armature) that make the system move with v and a (a = [the base
/// velocity's time derivative; qdd]), gravity included. With a's base part zero and v's too,
/// tau_tree is the fixed-base tree's rnea.
template <typename Tree, typename Q, typename V, typename A, typename BaseJoint>
void rnea(const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data,
          const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v,
          const Eigen::MatrixBase<A>& a) noexcept(!detail::checks_sizes<Tree>) {
  using Model = FloatingBase<Tree, BaseJoint>;
  static_assert(detail::floating_sized<Model, Q>(Model::nq) &&
                    detail::floating_sized<Model, V>(Model::nv) &&
                    detail::floating_sized<Model, A>(Model::nv),
                "rnea(floating base, data, q, v, a): q of nq, v and a of nv entries");
  if constexpr (detail::checks_sizes<Tree>) {
    detail::check_floating_workspace(model, "rnea", data);
    detail::check_floating_vector(model, "rnea", "q", q, true);
    detail::check_floating_vector(model, "rnea", "v", v, false);
    detail::check_floating_vector(model, "rnea", "a", a, false);
  }
  detail::floating_configuration(data, q);
  detail::split_tangent<Model>(v, data.tree.root.v, data.qd);
  detail::split_tangent<Model>(a, data.tree.root.a, data.qdd);
  detail::floating_rnea_pass(model, data);
}

/// Returning form of the hybrid rnea: any Eigen vectors, checked (sizes, finite entries, a
/// free-flyer's unit quaternion; ArgumentError).
template <typename Tree, typename Q, typename V, typename A, typename BaseJoint>
typename FloatingBase<Tree, BaseJoint>::TangentVector rnea(const FloatingBase<Tree, BaseJoint>& model,
                                                const Eigen::MatrixBase<Q>& q,
                                                const Eigen::MatrixBase<V>& v,
                                                const Eigen::MatrixBase<A>& a) {
  using Model = FloatingBase<Tree, BaseJoint>;
  Data<Model> data(model);
  const typename Model::ConfigVector qc = detail::checked_floating(model, "rnea", "q", q, true);
  const typename Model::TangentVector vc = detail::checked_floating(model, "rnea", "v", v, false);
  const typename Model::TangentVector ac = detail::checked_floating(model, "rnea", "a", a, false);
  rnea(model, data, qc, vc, ac);
  return data.tau;
}

/// Full floating-base inverse dynamics (the base free: no wrench acts on it): given q, v and
/// the joints' accelerations qdd, the base acceleration a_0 and the joint forces tau that
/// produce them (RBDA Table 9.6). With the base's apparent acceleration a'_0 = -a_g the tree's
/// RNEA gives the base wrench p_0 it would need; the base's composite inertia Ic_0 then yields
/// a'_0 = -a_g - Ic_0^-1 p_0, and a second pass, linear in the correction, adds its
/// torques S_i^T Ic_i X_i (a'_0 + a_g). A base joint with motion subspace S (a planar base,
/// free to roll: no force along x, y and no moment about z) solves S^T (p_0 + Ic_0 S a_b) = 0
/// for its acceleration a_b instead. Writes data.a = [a_b; qdd] and data.tau = [0 (the base's
/// generalized forces, zero to rounding); tau].
template <typename Tree, typename Q, typename V, typename Qdd, typename BaseJoint>
void rnea_free_base(const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data,
                    const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v,
                    const Eigen::MatrixBase<Qdd>& qdd) noexcept(!detail::checks_sizes<Tree>) {
  using Model = FloatingBase<Tree, BaseJoint>;
  using Scalar = typename Tree::Scalar;
  static_assert(detail::floating_sized<Model, Q>(Model::nq) &&
                    detail::floating_sized<Model, V>(Model::nv) &&
                    detail::floating_sized<Model, Qdd>(Model::n),
                "rnea_free_base(floating base, data, q, v, qdd): q of nq, v of nv, qdd of n entries");
  if constexpr (detail::checks_sizes<Tree>) {
    detail::check_floating_workspace(model, "rnea_free_base", data);
    detail::check_floating_vector(model, "rnea_free_base", "q", q, true);
    detail::check_floating_vector(model, "rnea_free_base", "v", v, false);
    detail::check_size(model.tree(), "rnea_free_base", "qdd", qdd);
  }
  detail::floating_configuration(data, q);
  detail::split_tangent<Model>(v, data.tree.root.v, data.qd);
  data.qdd = qdd;
  data.tree.root.a = Motion<Scalar>();  // a_0 = 0: a'_0 = -a_g
  detail::floating_rnea_pass(model, data);
  // Ic_0 (a'_0 + a_g) = -p_0: the base's equation with no wrench on it        RBDA Table 9.6
  detail::base_frame_poses(model.tree(), data.tree);
  detail::system_inertia(model, data);
  constexpr int kBase = BaseJoint::nv;
  using BaseVector = Eigen::Matrix<Scalar, kBase, 1>;
  const BaseVector p0 = BaseJoint::project(data.tree.root.f);  // S^T p_0
  const BaseVector ab = BaseJoint::project(data.Ic0.matrix()).llt().solve(-p0);
  const BaseVector tau_base = data.tau.template head<kBase>();
  data.tree.qdd = data.tree.tau;  // keep the first pass's joint forces (qdd: free scratch here)
  // The correction's joint forces: the tree's RNEA for the acceleration S a_b of the base alone
  // (no velocity, no joint acceleration, no gravity), linear in a_b.
  data.tree.root.a = BaseJoint::motion(ab);
  data.tree.root.f = model.base_inertia() * data.tree.root.a;
  detail::rnea_pass<false, false, false, false>(model.tree(), data.tree, data.q,
                                                detail::NoArgument{}, detail::NoArgument{},
                                                nullptr, detail::MovingRoot<BaseJoint>());
  data.tau.template head<kBase>() = tau_base + BaseJoint::project(data.tree.root.f);
  data.tau.tail(data.tau.size() - kBase) = data.tree.qdd + data.tree.tau;
  data.tree.tau = data.tau.tail(data.tau.size() - kBase);
  data.a.template head<kBase>() = ab;
  data.a.tail(data.a.size() - kBase) = data.qdd;
}

/// The result of the returning rnea_free_base: the base's acceleration (base coordinates, the
/// time derivative of v's base part) and the joint forces.
template <typename Tree, typename BaseJoint = FreeFlyer<typename Tree::Scalar>>
struct FreeBaseInverseDynamics {
  Eigen::Matrix<typename Tree::Scalar, BaseJoint::nv, 1> base_acceleration;
  typename Tree::Vector tau;
};

/// Returning form of rnea_free_base: checked (ArgumentError).
template <typename Tree, typename Q, typename V, typename Qdd, typename BaseJoint>
FreeBaseInverseDynamics<Tree, BaseJoint> rnea_free_base(const FloatingBase<Tree, BaseJoint>& model,
                                             const Eigen::MatrixBase<Q>& q,
                                             const Eigen::MatrixBase<V>& v,
                                             const Eigen::MatrixBase<Qdd>& qdd) {
  using Model = FloatingBase<Tree, BaseJoint>;
  Data<Model> data(model);
  const typename Model::ConfigVector qc = detail::checked_floating(model, "rnea_free_base", "q", q, true);
  const typename Model::TangentVector vc = detail::checked_floating(model, "rnea_free_base", "v", v, false);
  const typename Tree::Vector qddc = detail::checked_joint_vector(model.tree(), qdd, "rnea_free_base", "qdd");
  rnea_free_base(model, data, qc, vc, qddc);
  return {data.a.template head<BaseJoint::nv>(), data.tree.tau};
}

/// h(q, v) = C(q, v) v + g(q) (+ friction): the hybrid rnea at a = 0. Writes data.tau.
template <typename Tree, typename Q, typename V, typename BaseJoint>
void nonlinear_effects(const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data,
                       const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v)
    noexcept(!detail::checks_sizes<Tree>) {
  if constexpr (detail::checks_sizes<Tree>) {
    detail::check_floating_workspace(model, "nonlinear_effects", data);
    detail::check_floating_vector(model, "nonlinear_effects", "q", q, true);
    detail::check_floating_vector(model, "nonlinear_effects", "v", v, false);
  }
  detail::floating_configuration(data, q);
  detail::split_tangent<FloatingBase<Tree, BaseJoint>>(v, data.tree.root.v, data.qd);
  data.qdd.setZero();
  data.tree.root.a = Motion<typename Tree::Scalar>();
  detail::floating_rnea_pass(model, data);
}

/// g(q): the generalized gravity forces (the hybrid rnea at v = 0, a = 0); a free-flyer's base
/// part is the wrench that holds the whole system against gravity (a planar base's: zero on
/// level ground, the ground holds it). Writes data.tau.
template <typename Tree, typename Q, typename BaseJoint>
void gravity_torques(const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data,
                     const Eigen::MatrixBase<Q>& q) noexcept(!detail::checks_sizes<Tree>) {
  if constexpr (detail::checks_sizes<Tree>) {
    detail::check_floating_workspace(model, "gravity_torques", data);
    detail::check_floating_vector(model, "gravity_torques", "q", q, true);
  }
  detail::floating_configuration(data, q);
  data.qd.setZero();
  data.qdd.setZero();
  data.tree.root.v = Motion<typename Tree::Scalar>();
  data.tree.root.a = Motion<typename Tree::Scalar>();
  detail::floating_rnea_pass(model, data);
}

/// Returning form of nonlinear_effects: checked (ArgumentError).
template <typename Tree, typename Q, typename V, typename BaseJoint>
typename FloatingBase<Tree, BaseJoint>::TangentVector nonlinear_effects(const FloatingBase<Tree, BaseJoint>& model,
                                                             const Eigen::MatrixBase<Q>& q,
                                                             const Eigen::MatrixBase<V>& v) {
  using Model = FloatingBase<Tree, BaseJoint>;
  Data<Model> data(model);
  const typename Model::ConfigVector qc = detail::checked_floating(model, "nonlinear_effects", "q", q, true);
  const typename Model::TangentVector vc = detail::checked_floating(model, "nonlinear_effects", "v", v, false);
  nonlinear_effects(model, data, qc, vc);
  return data.tau;
}

/// Returning form of gravity_torques: checked (ArgumentError).
template <typename Tree, typename Q, typename BaseJoint>
typename FloatingBase<Tree, BaseJoint>::TangentVector gravity_torques(const FloatingBase<Tree, BaseJoint>& model,
                                                           const Eigen::MatrixBase<Q>& q) {
  using Model = FloatingBase<Tree, BaseJoint>;
  Data<Model> data(model);
  const typename Model::ConfigVector qc = detail::checked_floating(model, "gravity_torques", "q", q, true);
  gravity_torques(model, data, qc);
  return data.tau;
}

// --- Mass matrix and forward dynamics -------------------------------------------------------

/// M(q), nv x nv, both triangles: [Ic_0, F; F^T, H] with H the tree's mass matrix (armature
/// included), F's column i = Ic_i S_i (the composite inertia of the subtree of joint i times
/// its motion subspace, base coordinates) and Ic_0 the whole system's inertia about the base
/// origin (RBDA ch. 9; the tree's CRBA in base coordinates gives every Ic_i); a base joint
/// with motion subspace S_0 (a planar base) has S_0^T Ic_0 S_0 and S_0^T F. Writes data.M,
/// data.Ic0.
template <typename Tree, typename Q, typename BaseJoint>
void crba(const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data,
          const Eigen::MatrixBase<Q>& q) noexcept(!detail::checks_sizes<Tree>) {
  using Scalar = typename Tree::Scalar;
  using Model = FloatingBase<Tree, BaseJoint>;
  static_assert(detail::floating_sized<Model, Q>(Model::nq), "crba(floating base, data, q): q of nq entries");
  if constexpr (detail::checks_sizes<Tree>) {
    detail::check_floating_workspace(model, "crba", data);
    detail::check_floating_vector(model, "crba", "q", q, true);
  }
  detail::floating_configuration(data, q);
  const Tree& tree = model.tree();
  auto& td = data.tree;
  detail::crba_base_coordinates(tree, td, data.q, td.M);
  const auto n = Eigen::Index(detail::joint_count(tree));
  constexpr int kBase = BaseJoint::nv;
  data.Ic0 = model.base_inertia();
  for (std::size_t i = 0; i < std::size_t(n); ++i) {
    if (tree.is_root(i)) data.Ic0 += td.oIc[i];
    const Force<Scalar> f = td.oIc[i] * td.oS[i];  // F_i = Ic_i S_i
    const auto k = Eigen::Index(i) + kBase;
    if constexpr (kBase == 6) {
      data.M.template block<3, 1>(0, k) = f.angular;
      data.M.template block<3, 1>(3, k) = f.linear;
    } else {
      data.M.template block<kBase, 1>(0, k) = BaseJoint::project(f);  // S_0^T F_i
    }
  }
  data.M.template topLeftCorner<kBase, kBase>() = BaseJoint::project(data.Ic0.matrix());
  data.M.block(kBase, 0, n, kBase) = data.M.block(0, kBase, kBase, n).transpose();
  data.M.bottomRightCorner(n, n) = td.M;
}

/// Returning form of crba: checked (ArgumentError).
template <typename Tree, typename Q, typename BaseJoint>
typename FloatingBase<Tree, BaseJoint>::Matrix crba(const FloatingBase<Tree, BaseJoint>& model,
                                         const Eigen::MatrixBase<Q>& q) {
  using Model = FloatingBase<Tree, BaseJoint>;
  Data<Model> data(model);
  const typename Model::ConfigVector qc = detail::checked_floating(model, "crba", "q", q, true);
  crba(model, data, qc);
  return data.M;
}

/// Forward dynamics by M a = tau - h: crba, the hybrid rnea at a = 0 for h, and a dense
/// Cholesky factor of M (the reference for aba). tau = [the base's generalized forces (a
/// free-flyer's wrench, a planar base's [f_x; f_y; tau_z], base coordinates about its origin);
/// joint forces]. Writes data.a (and data.M, data.tree.L, data.tau = h).
template <typename Tree, typename Q, typename V, typename Tau, typename BaseJoint>
void forward_dynamics_crba(const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data,
                           const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v,
                           const Eigen::MatrixBase<Tau>& tau) noexcept(!detail::checks_sizes<Tree>) {
  using Model = FloatingBase<Tree, BaseJoint>;
  static_assert(detail::floating_sized<Model, Tau>(Model::nv), "forward_dynamics_crba: tau of nv entries");
  if constexpr (detail::checks_sizes<Tree>) detail::check_floating_vector(model, "forward_dynamics_crba", "tau", tau, false);
  crba(model, data, q);
  nonlinear_effects(model, data, q, v);
  detail::cholesky_factor(data.M, data.L);
  data.a = tau - data.tau;
  detail::cholesky_solve(data.L, data.a);
}

/// Returning form: checked (ArgumentError). Returns [base acceleration; qdd].
template <typename Tree, typename Q, typename V, typename Tau, typename BaseJoint>
typename FloatingBase<Tree, BaseJoint>::TangentVector forward_dynamics_crba(const FloatingBase<Tree, BaseJoint>& model,
                                                                 const Eigen::MatrixBase<Q>& q,
                                                                 const Eigen::MatrixBase<V>& v,
                                                                 const Eigen::MatrixBase<Tau>& tau) {
  using Model = FloatingBase<Tree, BaseJoint>;
  Data<Model> data(model);
  const typename Model::ConfigVector qc = detail::checked_floating(model, "forward_dynamics_crba", "q", q, true);
  const typename Model::TangentVector vc = detail::checked_floating(model, "forward_dynamics_crba", "v", v, false);
  const typename Model::TangentVector tc = detail::checked_floating(model, "forward_dynamics_crba", "tau", tau, false);
  forward_dynamics_crba(model, data, qc, vc, tc);
  return data.a;
}

/// The floating-base articulated-body algorithm, O(n): the tree's ABA with the base body as its
/// root (RBDA ch. 9, the floating-base ABA): pass 1 carries the base's velocity into every
/// link; pass 2 ends at the base with IA_0 = I_0 + the root links' Ia and pA_0 = v_0 x* I_0 v_0
/// + their pa; a'_0 = IA_0^-1 (f_0 - pA_0) (a base joint with motion subspace S_0: its joint
/// equation, RootMotion::resolve); pass 3 starts from a'_0. tau = [the base's generalized
/// forces (a free-flyer's wrench applied to the base, a planar base's [f_x; f_y; tau_z]); joint
/// forces]. Writes data.a = [S_0^T (a'_0 + a_g); qdd].
template <typename Tree, typename Q, typename V, typename Tau, typename BaseJoint>
void aba(const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data,
         const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v,
         const Eigen::MatrixBase<Tau>& tau) noexcept(!detail::checks_sizes<Tree>) {
  using Model = FloatingBase<Tree, BaseJoint>;
  static_assert(detail::floating_sized<Model, Q>(Model::nq) &&
                    detail::floating_sized<Model, V>(Model::nv) &&
                    detail::floating_sized<Model, Tau>(Model::nv),
                "aba(floating base, data, q, v, tau): q of nq, v and tau of nv entries");
  if constexpr (detail::checks_sizes<Tree>) {
    detail::check_floating_workspace(model, "aba", data);
    detail::check_floating_vector(model, "aba", "q", q, true);
    detail::check_floating_vector(model, "aba", "v", v, false);
    detail::check_floating_vector(model, "aba", "tau", tau, false);
  }
  detail::floating_configuration(data, q);
  auto& root = data.tree.root;
  constexpr int kBase = BaseJoint::nv;
  detail::split_tangent<Model>(v, root.v, data.qd);
  root.f = BaseJoint::force(tau.template head<kBase>());
  if constexpr (Model::n == Eigen::Dynamic) {
    data.qdd = tau.tail(tau.size() - kBase);  // data.qdd: the joint forces, for now
  } else {
    data.qdd = tau.template tail<Model::n>();
  }
  const auto& i0 = model.base_inertia();
  root.IA = ArticulatedInertia<typename Tree::Scalar>(i0);
  root.pA = cross(root.v, i0 * root.v);
  root.gravity = detail::gravity_in_base(model, data);
  detail::aba_pass(model.tree(), data.tree, data.q, data.qd, data.qdd, nullptr,
                   detail::KeepNothing(), detail::MovingRoot<BaseJoint>());
  data.qdd = data.tree.qdd;
  data.a.template head<kBase>() = BaseJoint::project(root.a + root.gravity);
  data.a.tail(data.a.size() - kBase) = data.qdd;
}

/// Returning form of aba: checked (ArgumentError). Returns [base acceleration; qdd].
template <typename Tree, typename Q, typename V, typename Tau, typename BaseJoint>
typename FloatingBase<Tree, BaseJoint>::TangentVector aba(const FloatingBase<Tree, BaseJoint>& model,
                                               const Eigen::MatrixBase<Q>& q,
                                               const Eigen::MatrixBase<V>& v,
                                               const Eigen::MatrixBase<Tau>& tau) {
  using Model = FloatingBase<Tree, BaseJoint>;
  Data<Model> data(model);
  const typename Model::ConfigVector qc = detail::checked_floating(model, "aba", "q", q, true);
  const typename Model::TangentVector vc = detail::checked_floating(model, "aba", "v", v, false);
  const typename Model::TangentVector tc = detail::checked_floating(model, "aba", "tau", tau, false);
  aba(model, data, qc, vc, tc);
  return data.a;
}

// --- Simulation -----------------------------------------------------------------------------

/// One step of the classical fourth-order Runge-Kutta method on the configuration manifold,
/// in the Munthe-Kaas form (RKMK4; Hairer, Lubich and Wanner, Geometric Numerical Integration,
/// sec. IV.8): the base's pose moves as q_0 exp(theta) with theta integrated in se(3) (se(2)
/// for a planar base, a subalgebra: the same formulas on its embedded twists), each stage's
/// body twist xi carried into theta's coordinates by dexp^-1,
///     theta' = xi + 1/2 theta x xi + 1/12 theta x (theta x xi),
/// which keeps the method of order 4 (the joints are Euclidean); the accelerations are aba's.
/// tau = [the base's generalized forces; joint forces], held over the step. q, v are updated
/// in place; a quaternion stays unit. Allocation-free on a compile-time tree.
template <typename Tree, typename Tau, typename BaseJoint>
void rk4_step(const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data,
              typename FloatingBase<Tree, BaseJoint>::ConfigVector& q,
              typename FloatingBase<Tree, BaseJoint>::TangentVector& v, const Eigen::MatrixBase<Tau>& tau,
              const typename Tree::Scalar& dt) noexcept(!detail::checks_sizes<Tree>) {
  using Model = FloatingBase<Tree, BaseJoint>;
  using Scalar = typename Tree::Scalar;
  using Tangent = typename Model::TangentVector;
  const Eigen::Index nv = model.nv_size();
  const auto theta_rate = [](const Tangent& theta, const Tangent& xi, Tangent& out) {
    detail::dexp_inverse_into<BaseJoint>(theta, xi, out);
  };
  Tangent kq[4], kv[4], theta(nv), vs(nv);
  typename Model::ConfigVector qs(model.nq_size());
  const Scalar c[4] = {Scalar(0), dt / 2, dt / 2, dt};
  theta.setZero();
  for (int s = 0; s < 4; ++s) {
    if (s == 0) {
      qs = q;
      vs = v;
    } else {
      theta = c[s] * kq[s - 1];
      const Tangent unit_theta = theta;
      detail::integrate_into(model, q, unit_theta, Scalar(1), qs);
      vs = v + c[s] * kv[s - 1];
    }
    theta_rate(theta, vs, kq[s]);
    aba(model, data, qs, vs, tau);
    kv[s] = data.a;
  }
  theta = (dt / 6) * (kq[0] + 2 * kq[1] + 2 * kq[2] + kq[3]);
  const typename Model::ConfigVector q0 = q;
  detail::integrate_into(model, q0, theta, Scalar(1), q);
  v += (dt / 6) * (kv[0] + 2 * kv[1] + 2 * kv[2] + kv[3]);
}

// --- Energies and momentum ------------------------------------------------------------------

/// T = 1/2 v_0 . I_0 v_0 + sum_i 1/2 v_i . I_i v_i (+ 1/2 armature_i qd_i^2), every body's
/// velocity from the tree's forward pass with the base's velocity at its root. Writes
/// data.kinetic_energy (and data.tree.v).
template <typename Tree, typename Q, typename V, typename BaseJoint>
typename Tree::Scalar kinetic_energy(const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data,
                                     const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v)
    noexcept(!detail::checks_sizes<Tree>) {
  using Scalar = typename Tree::Scalar;
  nonlinear_effects(model, data, q, v);  // the forward pass fills data.tree.v
  const auto& i0 = model.base_inertia();
  Scalar t = dot(data.tree.root.v, i0 * data.tree.root.v);
  const Tree& tree = model.tree();
  for (std::size_t i = 0; i < detail::joint_count(tree); ++i) {
    const auto k = Eigen::Index(i);
    t += dot(data.tree.v[i], tree.inertia(i) * data.tree.v[i]) +
         tree.armature()[k] * data.qd[k] * data.qd[k];
  }
  data.kinetic_energy = Scalar(0.5) * t;
  return data.kinetic_energy;
}

/// V = -g . (m_0 c_0 + sum_i m_i c_i), the centres of mass in the world frame. Writes
/// data.potential_energy, data.com, data.mass (and data.tree.liMi, oMi: base coordinates).
template <typename Tree, typename Q, typename BaseJoint>
typename Tree::Scalar potential_energy(const FloatingBase<Tree, BaseJoint>& model,
                                       Data<FloatingBase<Tree, BaseJoint>>& data,
                                       const Eigen::MatrixBase<Q>& q) noexcept(!detail::checks_sizes<Tree>) {
  if constexpr (detail::checks_sizes<Tree>) {
    detail::check_floating_workspace(model, "potential_energy", data);
    detail::check_floating_vector(model, "potential_energy", "q", q, true);
  }
  detail::floating_configuration(data, q);
  detail::joint_poses(model.tree(), data.tree, data.q);
  detail::base_frame_poses(model.tree(), data.tree);
  detail::system_inertia(model, data);
  data.mass = data.Ic0.mass;
  data.com = data.oMb.act_point(data.Ic0.first_moment / data.Ic0.mass);
  data.potential_energy = -data.mass * model.gravity().dot(data.com);
  return data.potential_energy;
}

/// The centroidal momentum h_G = [k_G; l] of the whole system: its angular momentum about the
/// centre of mass G and its linear momentum, both in world axes (RBDA sec. 2.13's momentum
/// I v of each body, summed; Orin and Goswami's centroidal momentum). Computed body by body
/// from every body's velocity. Writes data.hg, data.com, data.mass.
template <typename Tree, typename Q, typename V, typename BaseJoint>
const Eigen::Matrix<typename Tree::Scalar, 6, 1>& centroidal_momentum(
    const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data, const Eigen::MatrixBase<Q>& q,
    const Eigen::MatrixBase<V>& v) noexcept(!detail::checks_sizes<Tree>) {
  using Scalar = typename Tree::Scalar;
  nonlinear_effects(model, data, q, v);  // every body's velocity, liMi
  detail::base_frame_poses(model.tree(), data.tree);
  detail::system_inertia(model, data);
  const Tree& tree = model.tree();
  Force<Scalar> h = model.base_inertia() * data.tree.root.v;  // base coordinates, about the base origin
  for (std::size_t i = 0; i < detail::joint_count(tree); ++i) {
    h += data.tree.oMi[i].act(tree.inertia(i) * data.tree.v[i]);
  }
  data.mass = data.Ic0.mass;
  data.com = data.oMb.act_point(data.Ic0.first_moment / data.Ic0.mass);
  const Force<Scalar> hw = data.oMb.act(h);  // world axes, about the world origin
  data.hg.template head<3>() = hw.angular - data.com.cross(hw.linear);
  data.hg.template tail<3>() = hw.linear;
  return data.hg;
}

/// The centroidal momentum matrix A_G (6 x nv): h_G = A_G v. The momentum's columns in base
/// coordinates, [Ic_0 S_0, F] (a free-flyer's: M's first six rows), carried to the centre of
/// mass in world axes (Orin and Goswami): A_G = X_G^* [Ic_0 S_0, F]. Writes data.Ag (and
/// data.M, data.com, data.mass).
template <typename Tree, typename Q, typename BaseJoint>
void centroidal_momentum_matrix(const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data,
                                const Eigen::MatrixBase<Q>& q) noexcept(!detail::checks_sizes<Tree>) {
  using Scalar = typename Tree::Scalar;
  crba(model, data, q);
  data.mass = data.Ic0.mass;
  data.com = data.oMb.act_point(data.Ic0.first_moment / data.Ic0.mass);
  const auto column = [&](Eigen::Index k, const Force<Scalar>& f) {
    const Force<Scalar> fw = data.oMb.act(f);
    data.Ag.template block<3, 1>(0, k) = fw.angular - data.com.cross(fw.linear);
    data.Ag.template block<3, 1>(3, k) = fw.linear;
  };
  constexpr int kBase = BaseJoint::nv;
  const Eigen::Matrix<Scalar, 6, kBase> base = BaseJoint::columns(data.Ic0.matrix());  // Ic_0 S_0
  for (Eigen::Index k = 0; k < kBase; ++k) {
    column(k, Force<Scalar>(base.template block<3, 1>(0, k), base.template block<3, 1>(3, k)));
  }
  const auto& td = data.tree;
  for (std::size_t i = 0; i < model.joint_count(); ++i) {
    column(kBase + Eigen::Index(i), td.oIc[i] * td.oS[i]);  // F_i = Ic_i S_i, as crba's
  }
}

// --- Jacobians ------------------------------------------------------------------------------

/// A frame's Jacobian on a floating base: 6 x nv, rows [angular; linear], J v = (omega; v_F).
template <typename Tree, typename BaseJoint = FreeFlyer<typename Tree::Scalar>>
using FloatingJacobian = Eigen::Matrix<typename Tree::Scalar, 6, FloatingBase<Tree, BaseJoint>::nv>;

/// The Jacobian of the frame `frame` (a handle made by the tree: model.tree().frame(link,
/// offset) or base_frame(pose)) with the base's columns first (a free-flyer's six, a planar
/// base's three): world: world axes at the frame's origin; local: the frame's axes (as
/// jacobian on a fixed base, algorithms/jacobian.hpp). A base column k is the velocity of the
/// frame when the base moves with the unit body twist S_0 e_k: (e_w; e_v + e_w x p) at the
/// frame's origin p (base coordinates); the joint columns are the tree's, turned into world
/// axes. Writes J (and data.J_tree, data.tree.oMf).
template <typename Tree, typename Q, typename BaseJoint>
void jacobian(const FloatingBase<Tree, BaseJoint>& model, Data<FloatingBase<Tree, BaseJoint>>& data,
              const Eigen::MatrixBase<Q>& q, const FrameFor<Tree>& frame, ReferenceFrame rf,
              FloatingJacobian<Tree, BaseJoint>& J) noexcept(!detail::checks_sizes<Tree>) {
  using Scalar = typename Tree::Scalar;
  if constexpr (detail::checks_sizes<Tree>) {
    detail::check_floating_workspace(model, "jacobian", data);
    detail::check_floating_vector(model, "jacobian", "q", q, true);
    detail::check_matrix<Tree>("jacobian", "J", J, 6, model.nv_size());
  }
  detail::floating_configuration(data, q);
  const auto n = Eigen::Index(model.joint_count());
  FrameJacobian<Tree>& jt = data.J_tree;
  jacobian(model.tree(), data.tree, data.q, frame, rf, jt);
  const Transform<Scalar>& bf = data.tree.oMf;  // the frame in base coordinates
  const Matrix3<Scalar> r = rf == ReferenceFrame::world ? data.oMb.rotation
                                                        : Matrix3<Scalar>(bf.rotation.transpose());
  // base columns in base axes at p: [1 0; -[p]x 1], then turned
  Eigen::Matrix<Scalar, 6, 6> jb = Eigen::Matrix<Scalar, 6, 6>::Identity();
  jb.template bottomLeftCorner<3, 3>() = -detail::skew(bf.translation);
  constexpr int kBase = BaseJoint::nv;
  const auto& jbs = BaseJoint::columns(jb);  // jb S_0
  J.template topLeftCorner<3, kBase>() = r * jbs.template topRows<3>();
  J.template block<3, kBase>(3, 0) = r * jbs.template bottomRows<3>();
  if (rf == ReferenceFrame::world) {
    J.topRightCorner(3, n).noalias() = r * jt.topRows(3);
    J.bottomRightCorner(3, n).noalias() = r * jt.bottomRows(3);
  } else {
    J.rightCols(n) = jt;
  }
}

}  // namespace chaindyn
