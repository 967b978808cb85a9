/// @file
/// Data<Model>: the workspace every in-place algorithm writes into (fixed-size for a
/// compile-time chain; sized once, when it is made, for a ChainX).
#pragma once

#include "chaindyn/model/arguments.hpp"
#include "chaindyn/model/per_link.hpp"
#include "chaindyn/spatial/inertia.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace chaindyn {

/// One spatial force per link, e.g. external wrenches: each expressed in its link's frame,
/// about the link-frame origin, [moment; force] (N m; N). For a ChainX, a std::vector of one
/// force per link (make it with link_forces(model)).
template <typename Model>
using LinkForces = PerLinkArray<Force<typename Model::Scalar>, Model::nq>;

/// Zero forces, one per link of `model` (sized to a ChainX's joint count).
template <typename Model>
LinkForces<Model> link_forces(const Model& model) {
  LinkForces<Model> f{};
  detail::resize_per_link(f, detail::joint_count(model));
  return f;
}

namespace detail {
/// The part of Data only a tree uses (a base of Data: empty, hence of no size, for a chain).
template <typename Model, bool = Model::serial>
struct TreeWork {};
template <typename Model>
struct TreeWork<Model, false> {
  /// Composite Coriolis factors Bc_i, 6 x 6, base coordinates (coriolis_matrix; a chain keeps
  /// its one running sum on the stack).
  LineArray<Eigen::Matrix<typename Model::Scalar, 6, 6>, Model::nq> oBc;
};

/// Whether crba on Model works in base coordinates on a chain (algorithms/crba.hpp), with its
/// rows of S and F in a Data::oSF: a chain of CHAINDYN_CRBA_BASE_COORDINATES_FROM joints or more,
/// and every ChainX.
template <typename Model>
constexpr bool crba_uses_spatial_rows =
    Model::serial &&
    (Model::nq == Eigen::Dynamic || Model::nq >= CHAINDYN_CRBA_BASE_COORDINATES_FROM);

/// Data::oSF where crba does not use it.
struct NoSpatialRows {};

/// Two n x 6 matrices, S and F (12 columns), column-major, each column starting on a
/// 64-byte boundary (a cache line and an AVX-512 register; leading dimension: n rounded up to
/// whole 64-byte lines): the rows of S and F of crba on a chain, whose loops run down these
/// columns. Fixed-size for a compile-time n; for a run-time n (ChainX) a buffer sized when made,
/// with the first 64-byte boundary found at each use (so that a copy is valid too), as
/// EIGEN_MAX_ALIGN_BYTES may align Eigen's own storage less.
template <typename Scalar, int N>
class SpatialRows {
  static constexpr std::size_t kLine = 64;
  static constexpr Eigen::Index kPerLine =
      kLine % sizeof(Scalar) == 0 ? Eigen::Index(kLine / sizeof(Scalar)) : 1;
  static constexpr Eigen::Index lead(Eigen::Index n) {
    return (n + kPerLine - 1) / kPerLine * kPerLine;
  }
  static constexpr std::size_t kFixedSize = N == Eigen::Dynamic ? 0 : std::size_t(12 * lead(N));

 public:
  SpatialRows() = default;
  explicit SpatialRows(Eigen::Index n) : stride_(lead(n)) {
    if constexpr (N == Eigen::Dynamic) buffer_.resize(std::size_t(12 * stride_ + kPerLine - 1));
  }
  /// Entries between the starts of two columns.
  Eigen::Index stride() const noexcept { return stride_; }
  /// Column k of S (k < 6), then of F (6 <= k < 12).
  Scalar* column(int k) noexcept { return first() + k * stride_; }
  const Scalar* column(int k) const noexcept { return const_cast<SpatialRows*>(this)->column(k); }

 private:
  Scalar* first() noexcept {
    if constexpr (N == Eigen::Dynamic) {
      Scalar* p = buffer_.data();
      if constexpr (kPerLine > 1) {
        const auto address = reinterpret_cast<std::uintptr_t>(p);
        if (address % sizeof(Scalar) == 0) {
          p += (kPerLine - Eigen::Index(address / sizeof(Scalar)) % kPerLine) % kPerLine;
        }
      }
      return p;
    } else {
      return buffer_.data();
    }
  }
  Eigen::Index stride_ = N == Eigen::Dynamic ? 0 : lead(N);
  using Buffer = std::conditional_t<N == Eigen::Dynamic, std::vector<Scalar>,
                                    std::array<Scalar, kFixedSize>>;
  alignas(N == Eigen::Dynamic ? alignof(Buffer) : kLine) Buffer buffer_{};
};

/// Data's alignment: 32 bytes, or its members' own when larger: 64 with a fixed-size oSF, and
/// with a 64-byte scalar or fixed-size Eigen storage of one (the batch's packs on an AVX-512
/// target). One alignas, computed: g++ keeps only the last of several alignas on a class, and
/// an alignas weaker than a member's alignment is ill-formed (clang++ refuses it).
template <typename Model>
constexpr std::size_t data_alignment = std::max(
    {std::size_t(32), alignof(typename Model::Matrix), alignof(typename Model::Vector),
     alignof(typename Model::Scalar), alignof(TreeWork<Model>),
     alignof(LineArray<Transform<typename Model::Scalar>, Model::nq>),
     alignof(LineArray<Motion<typename Model::Scalar>, Model::nq>),
     alignof(LineArray<Force<typename Model::Scalar>, Model::nq>),
     alignof(LineArray<Inertia<typename Model::Scalar>, Model::nq>),
     alignof(LineArray<ArticulatedInertia<typename Model::Scalar>, Model::nq>),
     crba_uses_spatial_rows<Model> ? alignof(SpatialRows<typename Model::Scalar, Model::nq>)
                                   : std::size_t(1)});
}  // namespace detail

/// Every intermediate and result of the algorithms, sized at compile time from the model (for a
/// ChainX: when the Data is made, `Data<ChainX<double>> data(model)`), so that no algorithm
/// allocates. One Data per thread; reuse it across calls (docs/conventions.md,
/// "Threads"). Each member has one coordinate convention: link coordinates (about the link-frame
/// origin) unless its name starts with `o`, which means base coordinates about the base origin.
/// The comment of each member names the algorithms that fill it; the results of one call are
/// valid until the next call that fills the same member.
///
/// Aligned to at least 32 bytes (more when a member needs more: Eigen aligns a 16 x 16 matrix of
/// doubles to 64 with AVX-512), so that where its members fall in cache lines and AVX vectors
/// is fixed by the type, not drawn by the allocator (at the 8 or 16 bytes that a struct of
/// doubles gets from malloc or the stack, aba runs slower at most offsets).
template <typename Model>
struct alignas(detail::data_alignment<Model>) Data : detail::TreeWork<Model> {
  using Scalar = typename Model::Scalar;
  static constexpr int nq = Model::nq;
  using Vector = typename Model::Vector;
  using Matrix = typename Model::Matrix;
  template <typename T>
  using PerLink = LineArray<T, nq>;

  /// The workspace of a compile-time chain (its size is in the type).
  Data() {
    static_assert(nq != Eigen::Dynamic,
                  "Data of a ChainX: make it with the model, Data<ChainX<double>> data(model)");
    resize(std::size_t(nq > 0 ? nq : 0));
  }
  /// The workspace of `model` (the only constructor a ChainX's Data has: it allocates here,
  /// once; the algorithms then allocate nothing).
  explicit Data(const Model& model) { resize(detail::joint_count(model)); }

  /// The number of links this workspace is sized for.
  std::size_t size() const noexcept { return liMi.size(); }

  // The kinematics first, the results after them (the other order ran aba slower).

  // Kinematics: every algorithm that depends on q fills liMi; the world-frame ones oMi and oS.
  PerLink<Transform<Scalar>> liMi;  ///< pose of link i in its parent: placement_i * J_i(q_i)
  PerLink<Transform<Scalar>> oMi;   ///< pose of link i in the base frame (forward_kinematics,
                                    ///< frame_pose, jacobian, jdot_qd, aba, coriolis_matrix,
                                    ///< rnea_derivatives, potential_energy)
  Transform<Scalar> oMf;            ///< pose of the requested frame (frame_pose, jacobian, jdot_qd,
                                    ///< joint_torques_from_wrench)
  PerLink<Motion<Scalar>> oS;       ///< joint i's motion subspace column S_i (jacobian,
                                    ///< joint_torques_from_wrench, aba, coriolis_matrix,
                                    ///< rnea_derivatives)

  // Link coordinates.
  PerLink<Motion<Scalar>> v;        ///< link velocities (rnea, nonlinear_effects, jdot_qd,
                                    ///< kinetic_energy, regressor)
  PerLink<Motion<Scalar>> a;        ///< link accelerations (rnea: -gravity included; jdot_qd:
                                    ///< without gravity, at qdd = 0)
  PerLink<Force<Scalar>> f;         ///< forces transmitted across joints (rnea)
  PerLink<Inertia<Scalar>> Ic;      ///< composite rigid-body inertias (crba)
  PerLink<ArticulatedInertia<Scalar>> IA;  ///< articulated-body inertias (inverse_mass_matrix)
  PerLink<Force<Scalar>> U;         ///< IA_i S_i (inverse_mass_matrix)
  Vector D;                         ///< S_i^T IA_i S_i + armature (aba, inverse_mass_matrix)
  Vector Dinv;                      ///< 1 / D_i (aba)
  Vector u;                         ///< aba: tau - friction - S^T pA; inverse_mass_matrix: the
                                    ///< same for a unit joint force

  // Results.
  Vector tau;                   ///< joint forces (rnea, gravity_torques, nonlinear_effects,
                                ///< joint_torques_from_wrench, rnea_derivatives)
  Vector qdd;                   ///< joint accelerations (aba, forward_dynamics_crba)
  Vector nle;                   ///< C(q, qd) qd + g(q) (nonlinear_effects, forward_dynamics_crba)
  Matrix M;                     ///< joint-space mass matrix, both triangles (crba)
  Matrix L;                     ///< factor of M, lower triangle (forward_dynamics_crba): a
                                ///< chain's L L^T = M, a tree's sparse L^T L = M
  Matrix Minv;                  ///< M(q)^-1, both triangles (inverse_mass_matrix)
  Matrix C;                     ///< Coriolis matrix, Christoffel form (coriolis_matrix)
  Scalar kinetic_energy = Scalar(0);    ///< (kinetic_energy)
  Scalar potential_energy = Scalar(0);  ///< (potential_energy)

  // Base coordinates (about the base origin).
  PerLink<Motion<Scalar>> ov;       ///< link velocities (aba, coriolis_matrix, rnea_derivatives)
  PerLink<Motion<Scalar>> oa;       ///< link accelerations, -gravity included (aba,
                                    ///< rnea_derivatives)
  PerLink<Motion<Scalar>> oc;       ///< velocity-product accelerations ov_i x oS_i qd_i (aba)
  PerLink<Motion<Scalar>> oSdot;    ///< d/dt oS_i = ov_i x oS_i (coriolis_matrix)
  PerLink<Inertia<Scalar>> oIc;     ///< composite rigid-body inertias (coriolis_matrix,
                                    ///< rnea_derivatives)
  PerLink<ArticulatedInertia<Scalar>> oIA;  ///< articulated-body inertias IA_i (aba)
  PerLink<Force<Scalar>> opA;       ///< articulated-body bias forces pA_i (aba)
  PerLink<Force<Scalar>> oU;        ///< oIA_i oS_i (aba)
  Vector sin_q;                     ///< sin q_i, cos q_i of the last joint_poses (ChainX
  Vector cos_q;                     ///< only; a compile-time chain keeps them on the stack)
  /// Rows oS_i^T and F_i^T = (oIc_i oS_i)^T of crba in base coordinates on a chain, stored by
  /// columns (detail::SpatialRows; empty where crba works in link coordinates and on a tree)
  std::conditional_t<detail::crba_uses_spatial_rows<Model>, detail::SpatialRows<Scalar, nq>,
                     detail::NoSpatialRows>
      oSF;

 private:
  void resize(std::size_t n) {
    for (auto* p : {&liMi, &oMi}) detail::resize_per_link(*p, n);
    for (auto* p : {&oS, &v, &a, &ov, &oa, &oc, &oSdot}) detail::resize_per_link(*p, n);
    for (auto* p : {&f, &U, &opA, &oU}) detail::resize_per_link(*p, n);
    for (auto* p : {&Ic, &oIc}) detail::resize_per_link(*p, n);
    for (auto* p : {&IA, &oIA}) detail::resize_per_link(*p, n);
    const auto k = Eigen::Index(n);
    for (auto* p : {&D, &Dinv, &u, &tau, &qdd, &nle}) *p = Vector::Zero(k);
    for (auto* p : {&M, &L, &Minv, &C}) *p = Matrix::Zero(k, k);
    sin_q = cos_q = Vector::Zero(k);
    if constexpr (detail::crba_uses_spatial_rows<Model>) oSF = detail::SpatialRows<Scalar, nq>(k);
    if constexpr (!Model::serial) detail::resize_per_link(this->oBc, n);
  }
};

/// The Data of a const model type is the model's Data, so `Data<decltype(arm)>` works for a
/// `const` arm too.
template <typename Model>
struct Data<const Model> : Data<Model> {
  using Data<Model>::Data;
};

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

namespace detail {

/// The workspace of the returning forms `algo(model, ...)`: one Data per thread and model type,
/// made on the heap (zero-filled) by the first returning form that runs in the thread and
/// reused by every later one, so that a returning form costs its in-place form plus the copy
/// of its result (crba's computes M in the matrix it returns: no copy; below
/// CHAINDYN_CRBA_BASE_COORDINATES_FROM joints on a compile-time chain it keeps its work in
/// locals and takes no workspace, algorithms/crba.hpp): no zero-fill of the
/// n x n matrices per call, no allocation after the first, nothing of Data's size on the
/// caller's stack (Data<ChainN<double, 64, ...>> is ~220 KB). Freed when the thread exits. The
/// returning forms call only in-place forms (or, for crba, detail::crba_into) with it, never
/// another returning form, and run no user code while they hold it. For a ChainX, the one
/// workspace of the thread is remade when a model of another joint count comes (an allocation
/// then; none while the size stays).
template <typename Workspace, typename Model>
CHAINDYN_NOINLINE Workspace& thread_workspace_of(const Model& model) {
  thread_local std::unique_ptr<Workspace> workspace;
  if (!workspace || workspace->size() != joint_count(model)) {
    workspace = std::make_unique<Workspace>(model);
  }
  return *workspace;
}

template <typename Model>
Data<Model>& thread_workspace(const Model& model) {
  return thread_workspace_of<Data<Model>>(model);
}

}  // namespace detail

}  // namespace chaindyn
