/// @file
/// The classical O(n^4) Lagrange-Euler formulation with 4x4 homogeneous matrices (Uicker 1965,
/// Kahn 1969), kept as a BASELINE for operation counts and timings: it is what the recursive
/// O(n) algorithms (rnea, aba) replaced. Never use it for speed.
///
/// The formulation, as in K. S. Fu, R. C. Gonzalez, C. S. G. Lee, *Robotics: Control, Sensing,
/// Vision and Intelligence*, McGraw-Hill 1987, sec. 3.2 (eqs. 3.2-24 to 3.2-31), and
/// J. M. Hollerbach, "A recursive Lagrangian formulation of manipulator dynamics and a
/// comparative study of dynamics formulation complexity", IEEE Trans. SMC 10(11), 1980:
///
///     tau_i = sum_k D_ik qdd_k + sum_k sum_m h_ikm qd_k qd_m + c_i
///     D_ik  = sum_{j >= max(i,k)} Tr(U_jk J_j U_ji^T)
///     h_ikm = sum_{j >= max(i,k,m)} Tr(U_jkm J_j U_ji^T)
///     c_i   = sum_{j >= i} -m_j g^T U_ji rbar_j
///
/// with, in chaindyn's conventions (0-based; joint j moves link j; T_j = pose of link j in the
/// base as a 4x4 matrix, ^jT_i = T_j^-1 T_i; Q_j the 4x4 generator of joint j in link frame j,
/// so dA_j/dq_j = A_j Q_j for A_j = placement_j * joint_j(q_j)):
///
///     U_ij  = dT_i/dq_j = T_j Q_j ^jT_i                          (j <= i; 0 otherwise)
///     U_ijk = d^2T_i/dq_j dq_k = T_j Q_j ^jT_k Q_k ^kT_i        (j <= k <= i; U_ijk = U_ikj)
///     J_j   = [ Sigma_j  h_j ]   Sigma_j = int r r^T dm = tr(I_O)/2 1 - I_O, h_j = m_j c_j
///             [ h_j^T    m_j ]   (the pseudo-inertia in link frame j)
///     rbar_j = (c_j; 1), g = (gravity; 0).
///
/// The DH form of the books has Q_j in frame j-1 (U_ij = ^0A_{j-1} Q_j ^{j-1}A_i); here the joint
/// frame after the motion is the link frame, where Q_j is constant, and the result is the same.
/// Joint armature and friction are added as in chaindyn's equation of motion (armature on D's
/// diagonal, friction to tau), so that the result equals rnea and crba.
///
/// The arithmetic is deliberately the textbook's, to reproduce its operation counts: every 4x4
/// product is a full product (64 multiplications, 48 additions, no use of the constant last
/// row), each trace Tr(A J B^T) forms the full triple product before taking its diagonal, and
/// h_ikm is computed for every (i, k, m) (only U_jkm = U_jmk is formed once). Products with a
/// generator Q_j are column moves and sign flips for a joint with its axis in the type, three
/// cross products per matrix for a run-time axis. The pseudo-inertias (and m_j rbar_j) are
/// constants of the model, made when the workspace is.
///
/// Cost: about 32 n^4 multiplications (h), 64/3 n^3 (D and U_jkm); memory n^3 scalars and
/// n^2 4x4 matrices in the workspace (heap).
#pragma once

#include "chaindyn/algorithms/friction.hpp"
#include "chaindyn/model/data.hpp"

#include <cstddef>
#include <vector>

namespace chaindyn::baselines {

template <typename Scalar>
using Matrix4 = Eigen::Matrix<Scalar, 4, 4>;

namespace detail {

/// a b, the full 4x4 product (64 multiplications, 48 additions).
template <typename Scalar>
void mul4(const Matrix4<Scalar>& a, const Matrix4<Scalar>& b, Matrix4<Scalar>& out) noexcept {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      Scalar s = a(r, 0) * b(0, c);
      for (int l = 1; l < 4; ++l) s += a(r, l) * b(l, c);
      out(r, c) = s;
    }
  }
}

/// Tr(a j b^T) by forming the triple product in full, as the classical counts do
/// (128 multiplications, 99 additions).
template <typename Scalar>
Scalar trace_triple(const Matrix4<Scalar>& a, const Matrix4<Scalar>& j,
                    const Matrix4<Scalar>& b) noexcept {
  Matrix4<Scalar> aj, ajbt;
  mul4(a, j, aj);
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      Scalar s = aj(r, 0) * b(c, 0);
      for (int l = 1; l < 4; ++l) s += aj(r, l) * b(c, l);
      ajbt(r, c) = s;
    }
  }
  return ajbt(0, 0) + ajbt(1, 1) + ajbt(2, 2) + ajbt(3, 3);
}

/// A joint's 4x4 generator Q (dA/dq = A Q, in the link frame), by kind and axis.
template <typename Scalar>
struct Generator {
  bool revolute = true;
  int fixed_axis = -1;  ///< 0, 1, 2 when the axis is a coordinate axis known from the type
  Vector3<Scalar> axis = Vector3<Scalar>::UnitZ();

  /// x Q. Revolute, Q = [[a]x 0; 0 0]: row r of the first three columns is x_r x a (for a = e_K
  /// two columns move, one with a sign flip). Prismatic, Q = [0 a; 0 0]: the last column is
  /// x_{:,0:3} a (for a = e_K column K).
  void right_multiply(const Matrix4<Scalar>& x, Matrix4<Scalar>& out) const noexcept {
    out.setZero();
    if (revolute) {
      if (fixed_axis >= 0) {
        // e_K cross: column i of [e_K]x is e_K x e_i; for (K, i, j) cyclic, col i -> e_j,
        // col j -> -e_i. (x [e_K]x)_{:,i} = x_{:,j}, (x [e_K]x)_{:,j} = -x_{:,i}.
        const int i = (fixed_axis + 1) % 3, j = (fixed_axis + 2) % 3;
        out.col(i) = x.col(j);
        out.col(j) = -x.col(i);
      } else {
        const Vector3<Scalar>& a = axis;
        for (int r = 0; r < 4; ++r) {
          out(r, 0) = x(r, 1) * a.z() - x(r, 2) * a.y();
          out(r, 1) = x(r, 2) * a.x() - x(r, 0) * a.z();
          out(r, 2) = x(r, 0) * a.y() - x(r, 1) * a.x();
        }
      }
    } else {
      if (fixed_axis >= 0) {
        out.col(3) = x.col(fixed_axis);
      } else {
        for (int r = 0; r < 4; ++r) {
          out(r, 3) = x(r, 0) * axis.x() + x(r, 1) * axis.y() + x(r, 2) * axis.z();
        }
      }
    }
  }
};

template <typename Scalar>
Matrix4<Scalar> homogeneous(const Transform<Scalar>& x) {
  Matrix4<Scalar> out = Matrix4<Scalar>::Zero();
  out.template topLeftCorner<3, 3>() = x.rotation;
  out.template topRightCorner<3, 1>() = x.translation;
  out(3, 3) = Scalar(1);
  return out;
}

}  // namespace detail

/// The Lagrange-Euler baseline's workspace: the model's constants (pseudo-inertias, generators)
/// and every intermediate, on the heap (n^3 scalars). Make one per model and reuse it.
template <typename Model>
struct LagrangeEulerData {
  using Scalar = typename Model::Scalar;
  using Vector = typename Model::Vector;
  using Matrix = typename Model::Matrix;
  using Mat4 = Matrix4<Scalar>;
  static constexpr int n = Model::nq;

  explicit LagrangeEulerData(const Model& model)
      : J(n), mr(n), generator(n), A(n), T(n), rel(std::size_t(n) * n), TQ(n),
        U(std::size_t(n) * n), UQ(std::size_t(n) * n), Ujkm(std::size_t(n) * n),
        h_ikm(std::size_t(n) * n * n) {
    model.joints_forward([&](const std::size_t j, const auto& joint) {
      using JointModel = std::decay_t<decltype(joint)>;
      detail::Generator<Scalar>& g = generator[j];
      g.revolute = JointModel::kind == JointKind::revolute;
      g.axis = joint.axis();
      g.fixed_axis = JointModel::fixed_axis;
    });
    for (std::size_t j = 0; j < std::size_t(n); ++j) {
      const Inertia<Scalar>& in = model.inertia(j);
      const Matrix3<Scalar> sigma =
          (Scalar(0.5) * in.rotational.trace()) * Matrix3<Scalar>::Identity() - in.rotational;
      J[j].setZero();
      J[j].template topLeftCorner<3, 3>() = sigma;
      J[j].template topRightCorner<3, 1>() = in.first_moment;
      J[j].template bottomLeftCorner<1, 3>() = in.first_moment.transpose();
      J[j](3, 3) = in.mass;
      mr[j] << in.first_moment, in.mass;  // m_j rbar_j
    }
  }

  // Model constants.
  std::vector<Mat4> J;                              ///< pseudo-inertias J_j (link frames)
  std::vector<Eigen::Matrix<Scalar, 4, 1>> mr;      ///< m_j rbar_j = (m_j c_j; m_j)
  std::vector<detail::Generator<Scalar>> generator;  ///< Q_j

  // Intermediates; U and friends indexed [i * n + j].
  std::vector<Mat4> A;     ///< A_i = placement_i * joint_i(q_i)
  std::vector<Mat4> T;     ///< T_i, pose of link i in the base
  std::vector<Mat4> rel;   ///< ^jT_i for j <= i, at [j * n + i]
  std::vector<Mat4> TQ;    ///< T_j Q_j
  std::vector<Mat4> U;     ///< U_ij = dT_i/dq_j, j <= i
  std::vector<Mat4> UQ;    ///< U_kj Q_k (j <= k), at [k * n + j]
  std::vector<Mat4> Ujkm;  ///< U_jkm for the current j, at [k * n + m]
  std::vector<Scalar> h_ikm;  ///< h_ikm at [(i * n + k) * n + m]

  Matrix M = Matrix::Zero();  ///< D(q) + armature
  Vector h = Vector::Zero();  ///< sum_km h_ikm qd_k qd_m (Coriolis and centrifugal)
  Vector g = Vector::Zero();  ///< c_i (gravity)
  Vector tau = Vector::Zero();
};

namespace detail {

/// A_i, T_i, ^jT_i and U_ij for the configuration q.
template <typename Model>
void le_kinematics(const Model& model, LagrangeEulerData<Model>& d,
                   const typename Model::Vector& q) noexcept {
  constexpr std::size_t n = std::size_t(Model::nq);
  model.joints_forward([&](const std::size_t i, const auto& joint) {
    d.A[i] = homogeneous(joint.pose(model.placement(i), q[Eigen::Index(i)]));
  });
  d.T[0] = d.A[0];
  for (std::size_t i = 1; i < n; ++i) mul4(d.T[i - 1], d.A[i], d.T[i]);
  // ^jT_i = ^jT_{i-1} A_i, ^iT_i = 1
  for (std::size_t i = 0; i < n; ++i) {
    d.rel[i * n + i].setIdentity();
    for (std::size_t j = 0; j < i; ++j) mul4(d.rel[j * n + i - 1], d.A[i], d.rel[j * n + i]);
  }
  // U_ij = (T_j Q_j) ^jT_i
  for (std::size_t j = 0; j < n; ++j) {
    d.generator[j].right_multiply(d.T[j], d.TQ[j]);
    d.U[j * n + j] = d.TQ[j];
    for (std::size_t i = j + 1; i < n; ++i) mul4(d.TQ[j], d.rel[j * n + i], d.U[i * n + j]);
  }
}

/// D_ik = sum_{j >= max(i,k)} Tr(U_jk J_j U_ji^T), plus the armature on the diagonal.
template <typename Model>
void le_mass_matrix(const Model& model, LagrangeEulerData<Model>& d) noexcept {
  using Scalar = typename Model::Scalar;
  constexpr std::size_t n = std::size_t(Model::nq);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k <= i; ++k) {
      Scalar s = trace_triple(d.U[i * n + k], d.J[i], d.U[i * n + i]);
      for (std::size_t j = i + 1; j < n; ++j) s += trace_triple(d.U[j * n + k], d.J[j], d.U[j * n + i]);
      const auto ei = Eigen::Index(i), ek = Eigen::Index(k);
      d.M(ei, ek) = s;
      d.M(ek, ei) = s;
    }
    d.M(Eigen::Index(i), Eigen::Index(i)) += model.armature()[Eigen::Index(i)];
  }
}

}  // namespace detail

/// M(q) = D(q) (+ armature) by the Lagrange-Euler formulation, O(n^3). Fills d.M.
template <typename Model>
void lagrange_euler_mass_matrix(const Model& model, LagrangeEulerData<Model>& d,
                                const typename Model::Vector& q) noexcept {
  detail::le_kinematics(model, d, q);
  detail::le_mass_matrix(model, d);
}

/// Inverse dynamics tau = D qdd + h + c (+ armature qdd + friction) by the Lagrange-Euler
/// formulation, O(n^4). Fills d.M, d.h, d.g and d.tau; equals rnea.
template <typename Model>
void lagrange_euler(const Model& model, LagrangeEulerData<Model>& d, const typename Model::Vector& q,
                    const typename Model::Vector& qd, const typename Model::Vector& qdd) noexcept {
  using Scalar = typename Model::Scalar;
  constexpr std::size_t n = std::size_t(Model::nq);
  detail::le_kinematics(model, d, q);
  detail::le_mass_matrix(model, d);

  // UQ_kj = U_kj Q_k, so that U_ijk = UQ_kj ^kT_i for j <= k <= i.
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t j = 0; j <= k; ++j) d.generator[k].right_multiply(d.U[k * n + j], d.UQ[k * n + j]);
  }
  // h_ikm = sum_{j >= max(i,k,m)} Tr(U_jkm J_j U_ji^T): for each j, form U_jkm (k <= m <= j, and
  // U_jmk = U_jkm), then add its trace with every U_ji, i <= j.
  for (std::size_t x = 0; x < n * n * n; ++x) d.h_ikm[x] = Scalar(0);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t m = 0; m <= j; ++m) {
      for (std::size_t k = 0; k <= m; ++k) {
        Matrix4<Scalar>& ujkm = d.Ujkm[k * n + m];
        if (m == j) {
          ujkm = d.UQ[j * n + k];
        } else {
          detail::mul4(d.UQ[m * n + k], d.rel[m * n + j], ujkm);
        }
        d.Ujkm[m * n + k] = ujkm;
      }
    }
    for (std::size_t i = 0; i <= j; ++i) {
      for (std::size_t k = 0; k <= j; ++k) {
        for (std::size_t m = 0; m <= j; ++m) {
          d.h_ikm[(i * n + k) * n + m] += detail::trace_triple(d.Ujkm[k * n + m], d.J[j], d.U[j * n + i]);
        }
      }
    }
  }
  // h_i = sum_k sum_m h_ikm qd_k qd_m
  for (std::size_t i = 0; i < n; ++i) {
    Scalar s = Scalar(0);
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t m = 0; m < n; ++m) {
        s += d.h_ikm[(i * n + k) * n + m] * (qd[Eigen::Index(k)] * qd[Eigen::Index(m)]);
      }
    }
    d.h[Eigen::Index(i)] = s;
  }
  // c_i = -g^T sum_{j >= i} U_ji (m_j rbar_j)
  const Vector3<Scalar>& gravity = model.gravity();
  for (std::size_t i = 0; i < n; ++i) {
    Scalar s = Scalar(0);
    for (std::size_t j = i; j < n; ++j) {
      const Matrix4<Scalar>& u = d.U[j * n + i];
      for (int r = 0; r < 3; ++r) {
        Scalar ur = u(r, 0) * d.mr[j][0];
        for (int l = 1; l < 4; ++l) ur += u(r, l) * d.mr[j][l];
        s -= gravity[r] * ur;
      }
    }
    d.g[Eigen::Index(i)] = s;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto ei = Eigen::Index(i);
    Scalar s = d.h[ei] + d.g[ei] + joint_friction(model, i, qd[ei]);
    for (std::size_t k = 0; k < n; ++k) s += d.M(ei, Eigen::Index(k)) * qdd[Eigen::Index(k)];
    d.tau[ei] = s;
  }
}

/// Returning form of lagrange_euler (allocates its workspace).
template <typename Model>
typename Model::Vector lagrange_euler(const Model& model, const typename Model::Vector& q,
                                      const typename Model::Vector& qd,
                                      const typename Model::Vector& qdd) {
  LagrangeEulerData<Model> d(model);
  lagrange_euler(model, d, q, qd, qdd);
  return d.tau;
}

/// Returning form of lagrange_euler_mass_matrix.
template <typename Model>
typename Model::Matrix lagrange_euler_mass_matrix(const Model& model,
                                                  const typename Model::Vector& q) {
  LagrangeEulerData<Model> d(model);
  lagrange_euler_mass_matrix(model, d, q);
  return d.M;
}

}  // namespace chaindyn::baselines
