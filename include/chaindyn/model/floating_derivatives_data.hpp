/// @file
/// DerivativesData<FloatingBase<Tree, BaseJoint>>: the workspace of rnea_derivatives and
/// aba_derivatives on a floating or planar base (algorithms/floating_base_derivatives.hpp).
#pragma once

#include "chaindyn/model/derivatives_data.hpp"
#include "chaindyn/model/floating_base.hpp"

namespace chaindyn {

/// The workspace of a floating base's rnea_derivatives and aba_derivatives: the tree's
/// derivative workspace with the base's motion at its root (`tree`), the floating base's Data
/// (`data`: data.tau = rnea, data.a = aba, data.M the mass matrix, data.L its Cholesky factor)
/// and the nv x nv derivative matrices. Fixed-size for a compile-time tree (allocate it once,
/// e.g. std::make_unique: the algorithms allocate nothing); sized when made
/// (`DerivativesData<Robot> dd(robot)`) for a ChainX/TreeX.
template <typename Tree, typename BaseJoint>
struct DerivativesData<FloatingBase<Tree, BaseJoint>> {
  using Model = FloatingBase<Tree, BaseJoint>;
  using Scalar = typename Tree::Scalar;
  using Matrix = typename Model::Matrix;

  DerivativesData() : tree(), data() { resize(std::size_t(Tree::nq)); }
  explicit DerivativesData(const Model& model) : tree(model.tree()), data(model) {
    resize(model.joint_count());
  }

  /// The tree's joint count this workspace is sized for.
  std::size_t size() const noexcept { return data.size(); }

  /// The tree's derivatives workspace, base coordinates (the base body's frame at this
  /// instant); tree.root: the base's velocity and acceleration (gravity included).
  detail::RootedDerivativesData<Tree, BaseJoint> tree;
  Data<Model> data;  ///< tau (rnea_derivatives), a (aba_derivatives), M (both), L (aba_derivatives)

  Matrix dtau_dq;    ///< d tau / d q, q's tangent (rnea_derivatives)
  Matrix dtau_dv;    ///< d tau / d v (rnea_derivatives)
  Matrix dqdd_dq;    ///< d a / d q, q's tangent (aba_derivatives)
  Matrix dqdd_dv;    ///< d a / d v (aba_derivatives)
  Matrix dqdd_dtau;  ///< d a / d tau = M^-1 (aba_derivatives)

 private:
  void resize(std::size_t n) {
    const Eigen::Index nv = Eigen::Index(n) + BaseJoint::nv;
    for (auto* p : {&dtau_dq, &dtau_dv, &dqdd_dq, &dqdd_dv, &dqdd_dtau}) *p = Matrix::Zero(nv, nv);
  }
};

}  // namespace chaindyn
