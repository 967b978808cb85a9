/// @file
/// The inverse-dynamics regressor of a robot on a free-flying base (FloatingBase): the hybrid
/// rnea's [base wrench; joint forces] = Y(q, v, a) pi, linear in the inertial parameters of
/// the base body and of every link (Atkeson, An & Hollerbach 1986 for a fixed base; on a
/// floating base the base body's parameters enter the base wrench's six rows, as in
/// Ayusawa, Venture & Nakamura, "Identifiability and identification of inertial parameters
/// using the underactuated base-link dynamics for legged multibody systems", IJRR 33(3), 2014).
#pragma once

#include "chaindyn/algorithms/floating_base.hpp"
#include "chaindyn/identification/regressor.hpp"

namespace chaindyn {

/// The (nb + n) x 10 (n + 1) regressor matrix of a floating-base robot (nb: the base joint's
/// velocity count, 6 for a free-flyer, 3 for a planar base).
template <typename Tree, typename BaseJoint = FreeFlyer<typename Tree::Scalar>>
using FloatingRegressorMatrix =
    Eigen::Matrix<typename Tree::Scalar, FloatingBase<Tree, BaseJoint>::nv,
                  Tree::nq == Eigen::Dynamic ? Eigen::Dynamic
                                             : kInertialParametersPerLink * (Tree::nq + 1)>;
/// The 10 (n + 1) inertial parameters of a floating-base robot: the base body's, then each link's.
template <typename Tree>
using FloatingInertialParameters =
    Eigen::Matrix<typename Tree::Scalar,
                  Tree::nq == Eigen::Dynamic ? Eigen::Dynamic
                                             : kInertialParametersPerLink * (Tree::nq + 1),
                  1>;

/// The inertial parameters of the base body (rows 0 .. 9, about the base frame's origin in its
/// axes) and of the tree's links (rows 10 (i + 1) ..), each in inertial_parameters' order
/// (m, m c, I_xx, I_xy, I_xz, I_yy, I_yz, I_zz about the frame's origin).
template <typename Tree, typename BaseJoint>
FloatingInertialParameters<Tree> inertial_parameters(const FloatingBase<Tree, BaseJoint>& model) {
  const Eigen::Index n = Eigen::Index(model.joint_count());
  FloatingInertialParameters<Tree> pi(kInertialParametersPerLink * (n + 1));
  const auto& in = model.base_inertia();
  pi.template head<kInertialParametersPerLink>() << in.mass, in.first_moment,
      in.rotational(0, 0), in.rotational(0, 1), in.rotational(0, 2), in.rotational(1, 1),
      in.rotational(1, 2), in.rotational(2, 2);
  pi.tail(kInertialParametersPerLink * n) = inertial_parameters(model.tree());
  return pi;
}

/// Fills Y with the regressor of the hybrid rnea's rigid-body part on a floating base:
///     Y(q, v, a) * inertial_parameters(model) = rnea(model, q, v, a)
///                                               - the joints' damping, friction and armature
/// (gravity included). Columns 0 .. 9: the base body, whose wrench I^p a'_0 + v_0 x* I^p v_0
/// (a'_0 = a_0 - a_g, RBDA eq. 5.9) is its only effect, projected on the base joint's motion
/// subspace (the base's rows: all six for a free-flyer, x, y and yaw for a planar base);
/// columns 10 (k + 1) + p: link k, whose body force I^p a_k + v_k x* I^p v_k is projected on
/// every joint that supports it (as the fixed-base regressor) and carried on into the base's
/// rows. O(10 n^2). No allocation on a compile-time tree.
template <typename Tree, typename Q, typename V, typename A, typename BaseJoint>
void regressor(const FloatingBase<Tree, BaseJoint>& model,
               Data<FloatingBase<Tree, BaseJoint>>& data, const Eigen::MatrixBase<Q>& q,
               const Eigen::MatrixBase<V>& v, const Eigen::MatrixBase<A>& a,
               FloatingRegressorMatrix<Tree, BaseJoint>& Y) noexcept(!detail::checks_sizes<Tree>) {
  using Model = FloatingBase<Tree, BaseJoint>;
  constexpr int nb = BaseJoint::nv;
  using Scalar = typename Tree::Scalar;
  static_assert(detail::floating_sized<Model, Q>(Model::nq) &&
                    detail::floating_sized<Model, V>(Model::nv) &&
                    detail::floating_sized<Model, A>(Model::nv),
                "regressor(floating base, data, q, v, a, Y): q of nq, v and a of nv entries");
  const std::size_t n = model.joint_count();
  if constexpr (detail::checks_sizes<Tree>) {
    detail::check_floating_workspace(model, "regressor", data);
    detail::check_floating_vector(model, "regressor", "q", q, true);
    detail::check_floating_vector(model, "regressor", "v", v, false);
    detail::check_floating_vector(model, "regressor", "a", a, false);
    detail::check_matrix<Tree>("regressor", "Y", Y, model.nv_size(),
                               kInertialParametersPerLink * (Eigen::Index(n) + 1));
  }
  detail::floating_configuration(data, q);
  auto& root = data.tree.root;
  detail::split_tangent<Model>(v, root.v, data.qd);
  detail::split_tangent<Model>(a, root.a, data.qdd);
  root.a -= detail::gravity_in_base(model, data);  // a'_0 = a_0 - a_g
  // every link's v and a (the tree's RNEA forward pass from the moving base)
  detail::rnea_pass<true, true, false>(model.tree(), data.tree, data.q, data.qd, data.qdd,
                                       nullptr, detail::MovingRoot<BaseJoint>());
  Y.setZero();
  for (int p = 0; p < kInertialParametersPerLink; ++p) {
    const Inertia<Scalar> unit = detail::unit_inertia<Scalar>(p);
    Y.col(p).template head<nb>() = BaseJoint::project(unit * root.a + cross(root.v, unit * root.v));
  }
  const Tree& tree = model.tree();
  for (std::size_t k = 0; k < n; ++k) {
    const Eigen::Index col0 = kInertialParametersPerLink * (Eigen::Index(k) + 1);
    const Motion<Scalar>& vk = data.tree.v[k];
    const Motion<Scalar>& ak = data.tree.a[k];
    for (int p = 0; p < kInertialParametersPerLink; ++p) {
      const Inertia<Scalar> unit = detail::unit_inertia<Scalar>(p);
      Force<Scalar> f = unit * ak + cross(vk, unit * vk);
      // down the joints that support link k (RBDA eq. 5.10-11), then into the base body
      std::size_t child = k;
      tree.joints_backward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
        if (i > k || !tree.supports(i, k)) return;
        if (i < k) f = data.tree.liMi[child].act(f);
        child = i;
        Y(nb + Eigen::Index(i), col0 + p) = joint.project(f);
      });
      Y.col(col0 + p).template head<nb>() = BaseJoint::project(data.tree.liMi[child].act(f));
    }
  }
}

/// Returning form of the floating-base regressor: checked (sizes, finite entries, unit
/// quaternion; ArgumentError).
template <typename Tree, typename Q, typename V, typename A, typename BaseJoint>
FloatingRegressorMatrix<Tree, BaseJoint> regressor(const FloatingBase<Tree, BaseJoint>& model,
                                                   const Eigen::MatrixBase<Q>& q,
                                                   const Eigen::MatrixBase<V>& v,
                                                   const Eigen::MatrixBase<A>& a) {
  using Model = FloatingBase<Tree, BaseJoint>;
  Data<Model> data(model);
  const typename Model::ConfigVector qc = detail::checked_floating(model, "regressor", "q", q, true);
  const typename Model::TangentVector vc =
      detail::checked_floating(model, "regressor", "v", v, false);
  const typename Model::TangentVector ac =
      detail::checked_floating(model, "regressor", "a", a, false);
  FloatingRegressorMatrix<Tree, BaseJoint> Y(
      model.nv_size(), kInertialParametersPerLink * (Eigen::Index(model.joint_count()) + 1));
  regressor(model, data, qc, vc, ac, Y);
  return Y;
}

}  // namespace chaindyn
