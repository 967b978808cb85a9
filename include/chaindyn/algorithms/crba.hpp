/// @file
/// The joint-space mass matrix by the Composite Rigid Body Algorithm (RBDA Table 6.2).
///
/// Two coordinate choices, picked at compile time by the chain length (config.hpp,
/// CHAINDYN_CRBA_BASE_COORDINATES_FROM):
/// - link coordinates (RBDA Table 6.2 as written): the composite inertia I^c_i and the force
///   F = I^c_i S_i are carried from link to parent, M_ji = S_j^T (Xup^T ... F); each ancestor
///   pair costs one force transform, and S_j^T is a single component (the joint's axis is
///   known at compile time);
/// - base coordinates (RBDA sec. 6.2 allows any coordinates; Pinocchio's crba with
///   Convention::WORLD works so): every S_i and I_i is expressed in the base frame once per
///   link, I^c_i = sum_{k>=i} oI_k needs no transform, and M_ji = oS_j . (oI^c_i oS_i) is one
///   6-vector dot product per pair.
/// The first is cheaper on short chains (no base-frame poses), the second per ancestor pair.
/// With clang++ a compile-time chain of doubles or floats takes the first with its loops
/// interchanged (crba_link_coordinates_by_rows: the forces of every column carried up together,
/// row j of M read at link j), the same arithmetic per entry; so does, with either compiler, a
/// ChainX of 6 or 7 revolute joints about z (kCrbaRowsAtRunTime).
/// On a chain the base form keeps oS_j and F_j = oI^c_j oS_j as the rows of two n x 6 matrices
/// (Data::oSF) and takes M as the product of those, column by column down contiguous columns
/// (crba_chain_columns): a compile-time chain from CHAINDYN_CRBA_BASE_COORDINATES_FROM joints,
/// a ChainX from kCrbaColumnsFromAtRunTime; a tree, and a shorter ChainX (but those above),
/// pair by pair.
#pragma once

#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/joints/any_joint.hpp"
#include "chaindyn/joints/revolute.hpp"
#include "chaindyn/model/data.hpp"
#include "chaindyn/model/joint_walks.hpp"

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace chaindyn {

namespace detail {

/// CRBA in link coordinates (RBDA Table 6.2). Fills M (every entry: on a chain every earlier
/// joint is an ancestor; on a tree M_ij = 0 where neither of i, j supports the other, the
/// branch-induced sparsity), data.liMi, data.Ic (`data`: a Data, or any workspace with those
/// two members, as the returning crba's locals).
template <typename Model, typename Work>
inline CHAINDYN_ALWAYS_INLINE void crba_link_coordinates(const Model& model, Work& data,
                                                         const typename Model::Vector& q,
                                                         typename Model::Matrix& M) noexcept {
  using Scalar = typename Model::Scalar;
  detail::joint_poses(model, data, q);
  // I^c_i = I_i + sum of the children's X^T I^c X (RBDA Table 6.2). On a chain the last link's
  // is its own and every other one is written once, by its only child, below; on a tree each
  // starts as the link's own and its children add to it.
  if constexpr (Model::serial) {
    const std::size_t last = detail::joint_count(model) - 1;
    data.Ic[last] = model.inertia(last);
  } else {
    M.setZero();
    model.indices_forward([&](const std::size_t i) { data.Ic[i] = model.inertia(i); });
  }
  model.joints_backward([&](const std::size_t i, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    const auto ki = Eigen::Index(i);
    // I^c_i is complete (its child added itself below): F = I^c_i S_i, M_ii = S_i^T F
    Force<Scalar> f = joint.column(data.Ic[i]);
    M(ki, ki) = joint.project(f) + model.armature()[ki];
    // M_ji = M_ij = S_j^T (Xup_{j+1}^T ... Xup_i^T F) for the ancestors j of i: F is carried
    // into each ancestor's coordinates by the transform of the joint below it (its pattern)
    if (!model.is_root(i)) f = to_parent(model, i, joint, data.liMi[i], f);
    model.ancestors_backward(i, [&](const std::size_t j, const auto& ancestor) CHAINDYN_ALWAYS_INLINE {
      const auto kj = Eigen::Index(j);
      M(kj, ki) = M(ki, kj) = ancestor.project(f);
      if (!model.is_root(j)) f = to_parent(model, j, ancestor, data.liMi[j], f);
    });
    // I^c_p(i) = I_p(i) + Xup_i^T I^c_i Xup_i (a chain's parent has no other child; a tree's
    // parent adds each child to what it has)
    if (!model.is_root(i)) {
      const std::size_t p = model.parent(i);
      to_parent_plus(model, i, joint, data.liMi[i], data.Ic[i],
                     Model::serial ? model.inertia(p) : data.Ic[p], data.Ic[p]);
    }
  });
}

/// Whether a compile-time chain's crba in link coordinates carries the forces of every column
/// together (crba_link_coordinates_by_rows) rather than one column at a time: with clang++ and
/// a floating-point scalar (iiwa: ChainN<7, RevoluteZ> -9 %, the generated type -6 %); g++ made
/// the ChainN's ~35 % slower, and clang++'s batch crba (a SIMD pack scalar) with 4 states per
/// pack 9 % slower (docs/benchmarks.md, "Measurements behind the code").
template <typename Scalar>
inline constexpr bool kCrbaByRows = kClangCompiler && std::is_floating_point_v<Scalar>;

/// f(std::integral_constant<std::size_t, J>{}) for J = N-1 .. 0 (`J...`: 0 .. N-1).
template <std::size_t... J, typename F>
inline CHAINDYN_ALWAYS_INLINE void fold_down(std::index_sequence<J...>, F&& f) noexcept {
  (f(std::integral_constant<std::size_t, sizeof...(J) - 1 - J>{}), ...);
}

/// crba_link_coordinates on a chain of N joints with the loops of RBDA Table 6.2 interchanged:
/// tip to base, at link j the forces F_i = I^c_i S_i of every column i >= j are in link j's
/// coordinates, so row j of M is read off at once (M_ji = M_ij = S_j^T F_i), and all of them are
/// carried to the parent by the one transform Xup_j^T. Each entry sees the operations of
/// crba_link_coordinates in the same order. The forces are kept by component (six arrays of N),
/// so a transform is one loop over the columns with the transform's pattern chosen once. N is a
/// compile-time chain's joint count, or a ChainX's (crba_rows_by_count): the loops over the
/// columns then have a compile-time bound, and with AllRevoluteZ (a ChainX whose every joint is
/// revolute about z) the joint poses and the steps run RevoluteZ's code without a switch per
/// call, unrolled link by link. M: the model's Matrix, or an N x N map of it (crba_rows_of_count).
/// Fills M (every entry), data.liMi, data.Ic.
template <std::size_t N, bool AllRevoluteZ, typename Model, typename Work, typename MatrixOut>
inline CHAINDYN_ALWAYS_INLINE void crba_link_coordinates_by_rows(
    const Model& model, Work& data, const typename Model::Vector& q,
    MatrixOut& M) noexcept {
  static_assert(Model::serial && (Model::nq == Eigen::Dynamic || std::size_t(Model::nq) == N),
                "crba_link_coordinates_by_rows: a chain of N joints");
  using Scalar = typename Model::Scalar;
  constexpr std::size_t n = N;
  if constexpr (AllRevoluteZ) {
    // a ChainX's joint poses as RevoluteZ's, link by link in straight-line code
    Scalar sin_q[N], cos_q[N];
    sincos(q.data(), sin_q, cos_q, int(N));
    fold_down(std::make_index_sequence<N>{}, [&](const auto j) CHAINDYN_ALWAYS_INLINE {
      constexpr std::size_t i = N - 1 - decltype(j)::value;
      data.liMi[i] = RevoluteFixedModel<2, Scalar>().pose(model.placement(i), q[Eigen::Index(i)],
                                                         sin_q[i], cos_q[i]);
    });
  } else {
    detail::joint_poses(model, data, q);
  }
  Scalar f[6][n];  // f[k][i]: component k (angular, then linear) of F_i; column i set at link i
  const auto load = [&f](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    return Force<Scalar>(Vector3<Scalar>(f[0][i], f[1][i], f[2][i]),
                         Vector3<Scalar>(f[3][i], f[4][i], f[5][i]));
  };
  const auto store = [&f](const std::size_t i, const Force<Scalar>& x) CHAINDYN_ALWAYS_INLINE {
    for (int k = 0; k < 3; ++k) {
      f[k][i] = x.angular[k];
      f[k + 3][i] = x.linear[k];
    }
  };
  data.Ic[n - 1] = model.inertia(n - 1);
  // clang++ on a ChainX: I^c_j carried from link to link in a local, each still stored into
  // data.Ic (faster there: docs/benchmarks.md, "kCrbaRowsAtRunTime")
  constexpr bool carry_ic = kClangCompiler && Model::nq == Eigen::Dynamic;
  Inertia<Scalar> ic = data.Ic[n - 1];
  const auto step = [&](const std::size_t j, const auto& joint) CHAINDYN_ALWAYS_INLINE {
    const auto kj = Eigen::Index(j);
    const auto& s = [&]() -> const auto& {
      if constexpr (AllRevoluteZ) {
        static constexpr RevoluteFixedModel<2, Scalar> revolute_z{};
        return revolute_z;
      } else {
        return joint;
      }
    }();
    // I^c_j is complete (its child added itself below): F_j = I^c_j S_j
    store(j, s.column(carry_ic ? ic : data.Ic[j]));
    for (std::size_t i = j; i < n; ++i) {
      const auto ki = Eigen::Index(i);
      M(kj, ki) = M(ki, kj) = s.project(load(i));
    }
    M(kj, kj) += model.armature()[kj];
    if (j > 0) {
      const Transform<Scalar>& x = data.liMi[j];
      with_link_pattern(model, j, joint, [&](auto pattern) CHAINDYN_ALWAYS_INLINE {
        using Pattern = typename decltype(pattern)::type;  // of link j's transform
        // F_i <- Xup_j^T F_i for every i >= j
        for (std::size_t i = j; i < n; ++i) store(i, act<Pattern>(x, load(i)));
        // I^c_{j-1} = I_{j-1} + Xup_j^T I^c_j Xup_j
        if constexpr (carry_ic) {
          Inertia<Scalar> parent;
          transform_inertia_into<Pattern>(ic, x, model.inertia(j - 1), parent);
          data.Ic[j - 1] = parent;
          ic = parent;
        } else {
          transform_inertia_into<Pattern>(data.Ic[j], x, model.inertia(j - 1), data.Ic[j - 1]);
        }
      });
    }
  };
  if constexpr (Model::nq == Eigen::Dynamic) {
    // tip to base unrolled: each link's step a body of its own, its loops over i with
    // compile-time trip counts (docs/benchmarks.md, "kCrbaRowsAtRunTime")
    fold_down(std::make_index_sequence<N>{}, [&](const auto j) CHAINDYN_ALWAYS_INLINE {
      step(std::size_t(j), model.joint(j));
    });
  } else {
    // folded where the chain's type allows it (ColumnLoops): the loops over i have compile-time
    // trip counts
    model.joints_backward(column_loops, step);
  }
}

/// The same on a compile-time chain (N: its joint count).
template <typename Model, typename Work>
inline CHAINDYN_ALWAYS_INLINE void crba_link_coordinates_by_rows(
    const Model& model, Work& data, const typename Model::Vector& q,
    typename Model::Matrix& M) noexcept {
  static_assert(Model::nq != Eigen::Dynamic,
                "crba_link_coordinates_by_rows: a compile-time chain");
  crba_link_coordinates_by_rows<std::size_t(Model::nq), false>(model, data, q, M);
}

/// CRBA in link coordinates in the form kCrbaByRows picks (`work`: a Data, or the returning
/// crba's locals, with liMi and Ic).
template <typename Model, typename Work>
inline CHAINDYN_ALWAYS_INLINE void crba_link_form(const Model& model, Work& work,
                                                  const typename Model::Vector& q,
                                                  typename Model::Matrix& M) noexcept {
  if constexpr (kCrbaByRows<typename Model::Scalar> && Model::serial) {
    crba_link_coordinates_by_rows(model, work, q, M);
  } else {
    crba_link_coordinates(model, work, q, M);
  }
}

/// x . w for the six components x0..x5 of a spatial vector (one summation order, so that M's two
/// triangles, which sum the same products, are equal to the last bit).
template <typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Scalar crba_dot(const Scalar& x0, const Scalar& x1, const Scalar& x2,
                                              const Scalar& x3, const Scalar& x4, const Scalar& x5,
                                              const Scalar (&w)[6]) noexcept {
  return (x0 * w[0] + x1 * w[1] + x2 * w[2]) + (x3 * w[3] + x4 * w[4] + x5 * w[5]);
}

/// Rows first..last-1 of B (1 or 4) columns of M, m_b[j] = x_j . w[b], where x_j is row j of an
/// n x 6 matrix (x0..x5: its columns): one loop down contiguous columns, which the compilers
/// vectorise (restrict parameters: no m_b is an x column), each x_j loaded once for the B
/// columns.
template <int B, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void crba_panel(
    Scalar* CHAINDYN_RESTRICT m0, Scalar* CHAINDYN_RESTRICT m1, Scalar* CHAINDYN_RESTRICT m2,
    Scalar* CHAINDYN_RESTRICT m3, const Scalar* CHAINDYN_RESTRICT x0,
    const Scalar* CHAINDYN_RESTRICT x1, const Scalar* CHAINDYN_RESTRICT x2,
    const Scalar* CHAINDYN_RESTRICT x3, const Scalar* CHAINDYN_RESTRICT x4,
    const Scalar* CHAINDYN_RESTRICT x5, const Scalar (&w)[B][6], const Eigen::Index first,
    const Eigen::Index last) noexcept {
  static_assert(B == 1 || B == 4, "crba_panel: 1 or 4 columns");
  for (Eigen::Index j = first; j < last; ++j) {
    m0[j] = crba_dot(x0[j], x1[j], x2[j], x3[j], x4[j], x5[j], w[0]);
    if constexpr (B == 4) {
      m1[j] = crba_dot(x0[j], x1[j], x2[j], x3[j], x4[j], x5[j], w[1]);
      m2[j] = crba_dot(x0[j], x1[j], x2[j], x3[j], x4[j], x5[j], w[2]);
      m3[j] = crba_dot(x0[j], x1[j], x2[j], x3[j], x4[j], x5[j], w[3]);
    }
  }
}

/// M of a chain from the n x 6 rows of S and F (row j: S_j^T and F_j^T = (I^c_j S_j)^T, base
/// coordinates; `rows`: a detail::SpatialRows): M_jc = S_j . F_c for j <= c (RBDA Table 6.2: on
/// a chain every j <= c is an ancestor of c) and M_jc = M_cj = F_j . S_c for j > c. Both
/// triangles are computed, each column top to bottom in blocks of four columns (crba_panel:
/// each row of S or F loaded once for four columns): S_j . F_c down to the end of the strip of P
/// rows that holds the block's diagonal entries, F_j . S_c below it; then the strictly lower
/// part of each diagonal P x P block, computed there as S_j . F_c, is copied from its upper
/// part. An entry and its mirror sum the same products in the same order: M is exactly
/// symmetric. P is 8, or 1 where Scalar is no floating-point type (an AutoDiffScalar: nothing
/// to vectorise); the columns after the last whole block one by one.
template <typename Rows, typename Matrix>
inline CHAINDYN_ALWAYS_INLINE void crba_chain_columns(const Rows& rows, Matrix& M,
                                                      const Eigen::Index n) noexcept {
  using Scalar = typename Matrix::Scalar;
  constexpr Eigen::Index P = std::is_floating_point_v<Scalar> ? 8 : 1;  // rows per strip
  constexpr int B = P > 1 ? 4 : 1;                                      // columns per block
  const auto panel = [&](const int x, const auto& w, Scalar* const (&m)[4],
                         const Eigen::Index first, const Eigen::Index last) CHAINDYN_ALWAYS_INLINE {
    crba_panel(m[0], m[1], m[2], m[3], rows.column(x), rows.column(x + 1), rows.column(x + 2),
               rows.column(x + 3), rows.column(x + 4), rows.column(x + 5), w, first, last);
  };
  constexpr int s = 0, f = 6;  // the first columns of S and F in rows
  // columns c0 .. c0 + W - 1
  const auto block = [&](const Eigen::Index c0, auto width) CHAINDYN_ALWAYS_INLINE {
    constexpr int W = decltype(width)::value;
    Scalar fc[W][6], sc[W][6];
    Scalar* m[4] = {&M.coeffRef(0, c0), &M.coeffRef(0, c0), &M.coeffRef(0, c0), &M.coeffRef(0, c0)};
    for (int b = 0; b < W; ++b) {
      m[b] = &M.coeffRef(0, c0 + b);
      for (int k = 0; k < 6; ++k) {
        fc[b][k] = rows.column(f + k)[c0 + b];
        sc[b][k] = rows.column(s + k)[c0 + b];
      }
    }
    const Eigen::Index end = std::min(c0 - c0 % P + P, n);  // of the diagonal entries' strip
    panel(s, fc, m, 0, end);
    panel(f, sc, m, end, n);
  };
  const Eigen::Index blocked = n - n % B;  // columns in whole blocks
  for (Eigen::Index c0 = 0; c0 < blocked; c0 += B) block(c0, std::integral_constant<int, B>{});
  for (Eigen::Index c = blocked; c < n; ++c) block(c, std::integral_constant<int, 1>{});
  if constexpr (P > 1) {
    for (Eigen::Index d = 0; d < n; d += P) {
      const Eigen::Index end = std::min(d + P, n);
      for (Eigen::Index j = d; j < end; ++j) {
        for (Eigen::Index i = j + 1; i < end; ++i) M(i, j) = M(j, i);
      }
    }
  }
}

/// CRBA in base coordinates on a chain (see the file comment): oS_i by the forward kinematics;
/// tip to base, oI^c_i = oI_i + oI^c_{i+1} and F_i = oI^c_i oS_i, kept as rows of data.oSF; then
/// M by columns (crba_chain_columns). Fills M (every entry), data.liMi, oMi, oS, oIc, oSF.
template <typename Model>
inline CHAINDYN_ALWAYS_INLINE void crba_chain_base_coordinates(const Model& model,
                                                               DataFor<Model>& data,
                                                               const typename Model::Vector& q,
                                                               typename Model::Matrix& M) noexcept {
  static_assert(crba_uses_spatial_rows<Model>, "crba_chain_base_coordinates: a long chain");
  using Scalar = typename Model::Scalar;
  const auto n = Eigen::Index(detail::joint_count(model));  // a constant for Chain and ChainN
  world_kinematics(model, data, q);                          // oMi, oS
  auto& rows = data.oSF;
  Inertia<Scalar> ic;  // oI^c_i, carried from link to parent in a local (not read back from oIc)
  model.joints_backward(large_body, [&](const std::size_t i, const auto&) CHAINDYN_ALWAYS_INLINE {
    const auto ki = Eigen::Index(i);
    // oI^c_i = oI_i + oI^c_{i+1} (RBDA Table 6.2 in base coordinates: no transform)
    ic += model.inertia_in(i, data.oMi[i]);
    data.oIc[i] = ic;
    const Motion<Scalar>& s = data.oS[i];
    const Force<Scalar> f = ic * s;  // F_i = I^c_i S_i
    for (int k = 0; k < 3; ++k) {
      rows.column(k)[ki] = s.angular[k];
      rows.column(k + 3)[ki] = s.linear[k];
      rows.column(k + 6)[ki] = f.angular[k];
      rows.column(k + 9)[ki] = f.linear[k];
    }
  });
  crba_chain_columns(rows, M, n);
  for (Eigen::Index c = 0; c < n; ++c) M(c, c) += model.armature()[c];
}

/// CRBA in base coordinates pair by pair (a tree, and a chain shorter than
/// CHAINDYN_CRBA_BASE_COORDINATES_FROM joints under a floating base): M_ji = oS_j . F_i for
/// each ancestor j of i, both triangles stored in the pass. Fills M (every entry), data.liMi,
/// data.oMi, data.oS, data.oIc.
template <typename Model>
inline CHAINDYN_ALWAYS_INLINE void crba_base_coordinates_by_pairs(
    const Model& model, DataFor<Model>& data, const typename Model::Vector& q,
    typename Model::Matrix& M) noexcept {
  using Scalar = typename Model::Scalar;
  const auto n = Eigen::Index(detail::joint_count(model));  // a constant for Chain and ChainN
  world_kinematics(model, data, q);                          // oMi, oS
  if constexpr (!Model::serial) M.setZero();  // the entries of pairs on different branches
  model.joints_forward(large_body, [&](const std::size_t i, const auto&) CHAINDYN_ALWAYS_INLINE {
    data.oIc[i] = model.inertia_in(i, data.oMi[i]);  // oI_i
  });
  model.joints_backward(large_body, [&](const std::size_t i, const auto&) CHAINDYN_ALWAYS_INLINE {
    const auto ki = Eigen::Index(i);
    // oI^c_i: a chain's link pulls its child's composite; a tree's children have pushed theirs
    if constexpr (Model::serial) {
      if (Eigen::Index(i) + 1 < n) data.oIc[i] += data.oIc[i + 1];
    }
    const Force<Scalar> f = data.oIc[i] * data.oS[i];
    M(ki, ki) = dot(data.oS[i], f) + model.armature()[ki];
    // the ancestors j of i: on a chain j = 0 .. i-1, on a tree the parents' walk
    if constexpr (Model::serial) {
      for (std::size_t j = 0; j < i; ++j) {
        const auto kj = Eigen::Index(j);
        M(kj, ki) = dot(data.oS[j], f);
        M(ki, kj) = M(kj, ki);
      }
    } else {
      for (std::size_t j = model.parent(i); j != no_parent; j = model.parent(j)) {
        const auto kj = Eigen::Index(j);
        M(kj, ki) = dot(data.oS[j], f);
        M(ki, kj) = M(kj, ki);
      }
    }
    if constexpr (!Model::serial) {
      if (!model.is_root(i)) data.oIc[model.parent(i)] += data.oIc[i];
    }
  });
}

/// The joint count from which a ChainX's crba takes M by columns (crba_chain_base_coordinates)
/// instead of pair by pair: its pair loop is not unrolled either way, and the columns' set-up
/// (the rows of S and F, the strips) pays off from here (docs/benchmarks.md).
constexpr Eigen::Index kCrbaColumnsFromAtRunTime = 32;

/// CRBA in base coordinates (see the file comment). Fills M (every entry), data.liMi,
/// data.oMi, data.oS, data.oIc (and data.oSF on a chain that crba_uses_spatial_rows).
template <typename Model>
inline CHAINDYN_ALWAYS_INLINE void crba_base_coordinates(const Model& model, DataFor<Model>& data,
                                                         const typename Model::Vector& q,
                                                         typename Model::Matrix& M) noexcept {
  if constexpr (crba_uses_spatial_rows<Model>) {
    if constexpr (Model::nq == Eigen::Dynamic) {  // a ChainX: by its joint count
      if (Eigen::Index(detail::joint_count(model)) < kCrbaColumnsFromAtRunTime) {
        crba_base_coordinates_by_pairs(model, data, q, M);
        return;
      }
    }
    crba_chain_base_coordinates(model, data, q, M);
  } else {
    crba_base_coordinates_by_pairs(model, data, q, M);
  }
}

/// Whether a ChainX of 6 or 7 joints (most arms), every one revolute about z (as urdf::parse_any
/// and ChainX::from a ChainN<RevoluteZ> give them), takes crba in link coordinates by rows, its
/// joint count a compile-time constant (crba_rows_by_count), rather than in base coordinates:
/// with a floating-point scalar, where it is the faster form with both compilers
/// (docs/benchmarks.md, "kCrbaRowsAtRunTime"). Each count is one more body to compile in every
/// translation unit that calls crba on a ChainX, so only these two.
template <typename Model>
inline constexpr bool kCrbaRowsAtRunTime = Model::serial &&
                                           Model::nq == Eigen::Dynamic &&
                                           std::is_floating_point_v<typename Model::Scalar> &&
                                           CHAINDYN_CRBA_BASE_COORDINATES_FROM > 7;

/// crba_link_coordinates_by_rows<N> on a ChainX of N revolute joints about z: one out-of-line
/// body per count and translation unit, however many of the library's functions call crba.
template <std::size_t N, typename Model>
CHAINDYN_NOINLINE CHAINDYN_GNU_FLATTEN void crba_rows_of_count(const Model& model,
                                                               DataFor<Model>& data,
                                                               const typename Model::Vector& q,
                                                               typename Model::Matrix& M) noexcept {
  // M (n x n, n = N) as an N x N matrix: entry addresses from compile-time strides
  Eigen::Map<Eigen::Matrix<typename Model::Scalar, int(N), int(N)>> fixed(M.data());
  crba_link_coordinates_by_rows<N, true>(model, data, q, fixed);
}

/// crba_rows_of_count<n> on a ChainX of n joints, n one of Counts, every joint revolute about z:
/// true if it ran.
template <std::size_t... Counts, typename Model>
inline CHAINDYN_ALWAYS_INLINE bool crba_rows_by_count(const Model& model, DataFor<Model>& data,
                                                      const typename Model::Vector& q,
                                                      typename Model::Matrix& M) noexcept {
  const std::size_t n = detail::joint_count(model);
  if (((n != Counts) && ...)) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!model.joint(i).revolute_about_z()) return false;
  }
  return ((n == Counts ? (crba_rows_of_count<Counts>(model, data, q, M), true) : false) || ...);
}

/// Link coordinates below CHAINDYN_CRBA_BASE_COORDINATES_FROM joints, base coordinates from
/// there on; a run-time-sized model (ChainX, TreeX) base coordinates at every length (its
/// ancestor loop is not unrolled, which costs link coordinates more: docs/benchmarks.md,
/// "kCrbaByRows"), but where kCrbaRowsAtRunTime (a ChainX of 6 or 7 revolute joints about z)
/// link coordinates by rows for its joint count; the result into M.
template <typename Model>
inline CHAINDYN_ALWAYS_INLINE void crba_into(const Model& model, DataFor<Model>& data,
                                             const typename Model::Vector& q,
                                             typename Model::Matrix& M) noexcept {
  if constexpr (Model::nq == Eigen::Dynamic) {  // ChainX, TreeX
    if constexpr (kCrbaRowsAtRunTime<Model>) {
      if (crba_rows_by_count<6, 7>(model, data, q, M)) return;
    }
    crba_base_coordinates(model, data, q, M);
  } else if constexpr (Model::nq >= CHAINDYN_CRBA_BASE_COORDINATES_FROM) {
    crba_base_coordinates(model, data, q, M);
  } else {
    crba_link_form(model, data, q, M);
  }
}

}  // namespace detail

/// M(q), symmetric positive definite, both triangles filled, armature on the diagonal.
/// Fills data.M; for chains shorter than CHAINDYN_CRBA_BASE_COORDINATES_FROM (9) joints also
/// data.liMi and data.Ic (link coordinates), from there on data.liMi, oMi, oS and oIc (base
/// coordinates; see the file comment), and on a chain data.oSF. A ChainX or TreeX works in
/// base coordinates, but a ChainX of 6 or 7 revolute joints about z in link coordinates
/// (data.liMi, data.Ic).
template <typename Model, typename Q>
CHAINDYN_GNU_FLATTEN
void crba(const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("crba", model, data, "q", q);
  detail::crba_into(model, data, detail::as_joint_vector<Model>(q.derived()), data.M);
}

/// Returning form of crba: any Eigen vector, size checked (throws ArgumentError). M is computed
/// in the returned matrix itself (named return value), not in a workspace and then copied.
/// A compile-time chain in link coordinates (fewer than CHAINDYN_CRBA_BASE_COORDINATES_FROM
/// joints) keeps its poses and composite inertias in locals, which nothing reads after the
/// call, so the compiler need not store them (on the iiwa faster than the in-place form,
/// which must fill data.liMi and data.Ic); a longer chain or a ChainX
/// uses the thread's workspace (detail::thread_workspace).
template <typename Model, typename Q>
typename Model::Matrix crba(const Model& model, const Eigen::MatrixBase<Q>& q) {
  const auto& qv = detail::checked_joint_vector(model, q, "crba", "q");
  if constexpr (Model::nq != Eigen::Dynamic && Model::nq < CHAINDYN_CRBA_BASE_COORDINATES_FROM) {
    struct {
      PerLinkArray<Transform<typename Model::Scalar>, Model::nq> liMi;
      PerLinkArray<Inertia<typename Model::Scalar>, Model::nq> Ic;
    } work;                     // what the link form reads and writes besides M
    typename Model::Matrix M;  // every entry written
    detail::crba_link_form(model, work, qv, M);
    return M;
  } else {
    Data<Model>& data = detail::thread_workspace(model);
    const auto n = Eigen::Index(detail::joint_count(model));
    typename Model::Matrix M(n, n);  // every entry written by crba_into
    detail::crba_into(model, data, qv, M);
    return M;
  }
}

}  // namespace chaindyn
