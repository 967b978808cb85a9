/// @file
/// Data<Model>: the fixed-size workspace every in-place algorithm writes into.
#pragma once

#include "chaindyn/spatial/inertia.hpp"

#include <array>

namespace chaindyn {

/// One spatial force per link, e.g. external wrenches: each expressed in its link's frame,
/// about the link-frame origin, [moment; force] (N m; N).
template <typename Model>
using LinkForces = std::array<Force<typename Model::Scalar>, std::size_t(Model::nq)>;

/// Every intermediate and result of the algorithms, sized at compile time from the model, so
/// that no algorithm allocates. One Data per thread; reuse it across calls. Which members an
/// algorithm fills is documented with the algorithm. Motions and forces are in link
/// coordinates (about the link-frame origin) unless the name starts with `o` (base frame).
template <typename Model>
struct Data {
  using Scalar = typename Model::Scalar;
  static constexpr int nq = Model::nq;
  using Vector = typename Model::Vector;
  using Matrix = typename Model::Matrix;
  template <typename T>
  using PerLink = std::array<T, std::size_t(nq)>;

  PerLink<Transform<Scalar>> liMi;  ///< pose of link i in its parent (placement * joint(q))
  PerLink<Transform<Scalar>> oMi;   ///< pose of link i in the base frame
  PerLink<Motion<Scalar>> v;        ///< link velocities
  PerLink<Motion<Scalar>> a;        ///< link accelerations (including -gravity, RNEA/ABA)
  PerLink<Motion<Scalar>> c;        ///< velocity-product accelerations v x (S qd) (ABA)
  PerLink<Force<Scalar>> f;         ///< forces transmitted across joints (RNEA)
  PerLink<Inertia<Scalar>> Ic;      ///< composite rigid-body inertias (CRBA)
  PerLink<ArticulatedInertia<Scalar>> IA;  ///< articulated-body inertias (ABA)
  PerLink<Force<Scalar>> pA;        ///< articulated bias forces (ABA)
  PerLink<Force<Scalar>> U;         ///< IA S (ABA)
  Vector D = Vector::Zero();        ///< S^T IA S + armature (ABA)
  Vector u = Vector::Zero();        ///< tau - friction - S^T pA (ABA)

  Vector tau = Vector::Zero();       ///< joint forces (rnea, gravity_torques, nonlinear_effects)
  Vector qdd = Vector::Zero();       ///< joint accelerations (aba, forward_dynamics_crba)
  Vector nle = Vector::Zero();       ///< C(q, qd) qd + g(q) (forward_dynamics_crba)
  Matrix M = Matrix::Zero();         ///< joint-space mass matrix, both triangles (crba)
  Matrix L = Matrix::Zero();         ///< Cholesky factor of M, lower triangle (forward_dynamics_crba)
  Scalar kinetic_energy = Scalar(0);
  Scalar potential_energy = Scalar(0);

  // Kinematics and the Coriolis matrix (algorithms/frames.hpp, jacobian.hpp, coriolis.hpp).
  Transform<Scalar> oMf;            ///< pose of the requested frame in the base frame (frame_pose, jacobian, ...)
  PerLink<Motion<Scalar>> oS;       ///< joint i's motion subspace column S_i in base coordinates, about the base origin
  PerLink<Motion<Scalar>> ov;       ///< link velocities in base coordinates, about the base origin (coriolis_matrix)
  PerLink<Motion<Scalar>> oSdot;    ///< d/dt oS_i = ov_i x oS_i (coriolis_matrix)
  Matrix C = Matrix::Zero();        ///< Coriolis matrix, Christoffel form (coriolis_matrix)

  // The articulated-body algorithm (aba.hpp) works in base coordinates, about the base origin
  // (with oMi, oS and ov above).
  PerLink<Motion<Scalar>> oa;       ///< link accelerations, -gravity included (aba)
  PerLink<Motion<Scalar>> oc;       ///< velocity-product accelerations ov_i x oS_i qd_i (aba)
  PerLink<ArticulatedInertia<Scalar>> oIA;  ///< articulated-body inertias (aba)
  PerLink<Force<Scalar>> opA;       ///< articulated bias forces (aba)
  PerLink<Force<Scalar>> oU;        ///< oIA_i oS_i (aba)

  // Identification and derivatives (algorithms/inverse_mass_matrix.hpp).
  Matrix Minv = Matrix::Zero();     ///< M(q)^-1, both triangles (inverse_mass_matrix)
};

/// The Data of a const model type is the model's Data, so `Data<decltype(arm)>` works for a
/// `const` arm too.
template <typename Model>
struct Data<const Model> : Data<Model> {};

namespace detail {
template <typename T>
struct type_identity {
  using type = T;
};
}  // namespace detail

/// The workspace parameter of the in-place algorithms: Data<Model>, with Model deduced from the
/// model argument only (so a Data<const Model> binds too).
template <typename Model>
using DataFor = typename detail::type_identity<Data<Model>>::type;

}  // namespace chaindyn
