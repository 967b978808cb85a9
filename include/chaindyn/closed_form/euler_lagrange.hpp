/// @file
/// The Euler-Lagrange engine: the equations of motion of any system with a Lagrangian
/// L(q, qd) (or energies T(q, qd), V(q)), derived by automatic differentiation.
///
/// The user writes L as a generic lambda; this header evaluates it once on a nested
/// forward-mode AutoDiff scalar (Eigen's unsupported AutoDiff module), which yields L, its
/// gradient and its full Hessian in the 2n variables x = (q, qd), and assembles
///
///     tau = d/dt (dL/dqd) - dL/dq = (d2L/dqd2) qdd + (d2L/dqd dq) qd - dL/dq      (E-L)
///
/// (Lagrange's equations of the second kind; e.g. Asfour, Robotics I ch. 4, "Method of
/// Lagrange"; Siciliano et al., Robotics, eq. (7.3)). For L = T - V with T = 1/2 qd^T M(q) qd:
/// d2L/dqd2 = M(q), (d2L/dqd dq) qd - dT/dq = C(q, qd) qd, -dL/dq at qd = 0 is g(q) = dV/dq.
///
/// Writing L: a generic lambda taking two Eigen column vectors of one scalar type S (the
/// AutoDiff scalar, q and qd of the size n of the q you pass) and RETURNING S itself:
///
///     auto L = [m, l, g](const auto& q, const auto& qd) {
///       using S = chaindyn::lagrange::scalar_t<decltype(q)>;
///       using std::cos;
///       const S T = 0.5 * m * l * l * qd[0] * qd[0];
///       const S V = -m * g * l * cos(q[0]);
///       return S(T - V);
///     };
///     Eigen::Matrix<double, 1, 1> q(0.3), qd(1.0), qdd(0.0);
///     auto tau = chaindyn::lagrange::equations_of_motion(L, q, qd, qdd);
///
/// Returning S (not `auto` of an expression) is enforced by a static_assert: Eigen's AutoDiff
/// operators return expression templates that would reference the lambda's dead locals.
/// Use the math functions unqualified after `using std::sin;` so that ADL finds Eigen's
/// AutoDiff overloads. Mixing S with double constants is fine.
///
/// Sizes: q, qd, qdd are Eigen::Matrix<double, N, 1>. A compile-time N (e.g. Eigen::Vector2d)
/// gives fixed-size AutoDiff derivative vectors (no allocation inside the derivative
/// arithmetic); N = Eigen::Dynamic (Eigen::VectorXd) works too and allocates per operation.
///
/// Cost: every arithmetic operation of L on the nested scalar carries a 2n inner and a 2n
/// outer derivative vector, i.e. about (2n + 1)^2 ~ 4 n^2 times the work of L on double;
/// each call of equations_of_motion, mass_matrix, bias or gravity evaluates L once;
/// christoffel_symbols and coriolis_matrix evaluate it n + 1 times. This engine is for
/// teaching and for systems that are not chains; for chains use rnea / crba (O(n)).
///
/// Why Eigen's AutoDiffScalar and not a dual-number type of our own: nesting it (an
/// AutoDiffScalar whose derivative vector holds AutoDiffScalars) gives exact second
/// derivatives with Eigen's own tested math overloads, and it is the AutoDiff scalar the rest
/// of chaindyn is already generic in, so chain algorithms can appear inside L (see
/// docs/lagrange.md).
#pragma once

#include <Eigen/Dense>
#include <unsupported/Eigen/AutoDiff>

#include <cassert>
#include <type_traits>
#include <vector>

namespace chaindyn::lagrange {

/// The scalar type of an Eigen vector argument of a generic lambda: `scalar_t<decltype(q)>`.
template <typename VectorRef>
using scalar_t = typename std::decay_t<VectorRef>::Scalar;

namespace detail {

constexpr int twice(int n) { return n == Eigen::Dynamic ? Eigen::Dynamic : 2 * n; }

}  // namespace detail

/// The scalar L is evaluated on for n = N coordinates: first-order AutoDiff in x = (q, qd)
/// (the inner level) nested in first-order AutoDiff in x again (the outer level), so that
/// L.derivatives()[i].derivatives()[j] = d2L / dx_i dx_j.
template <int N>
using InnerScalar = Eigen::AutoDiffScalar<Eigen::Matrix<double, detail::twice(N), 1>>;
template <int N>
using SecondOrderScalar =
    Eigen::AutoDiffScalar<Eigen::Matrix<InnerScalar<N>, detail::twice(N), 1>>;

/// Everything (E-L) needs from one evaluation of L at (q, qd). Index convention: rows of the
/// mixed block are qd_i, columns q_k: d2L_dqd_dq(i, k) = d2L / dqd_i dq_k.
template <int N>
struct LagrangianDerivatives {
  using Vector = Eigen::Matrix<double, N, 1>;
  using Matrix = Eigen::Matrix<double, N, N>;
  double value = 0;    ///< L(q, qd)
  Vector dL_dq;        ///< dL / dq
  Vector dL_dqd;       ///< dL / dqd (the generalised momentum p)
  Matrix d2L_dqd2;     ///< d2L / dqd dqd = M(q) for L = 1/2 qd^T M qd - V
  Matrix d2L_dqd_dq;   ///< d2L / dqd_i dq_k
  Matrix d2L_dq2;      ///< d2L / dq_i dq_k
};

/// L, its gradient and Hessian at (q, qd), by one evaluation of L on SecondOrderScalar<N>.
template <typename Lagrangian, int N>
LagrangianDerivatives<N> derivatives(const Lagrangian& lagrangian,
                                     const Eigen::Matrix<double, N, 1>& q,
                                     const Eigen::Matrix<double, N, 1>& qd) {
  using Inner = InnerScalar<N>;
  using Outer = SecondOrderScalar<N>;
  using InnerDer = typename Inner::DerType;
  using OuterDer = typename Outer::DerType;
  using ADVector = Eigen::Matrix<Outer, N, 1>;
  assert(q.size() == qd.size());
  const Eigen::Index n = q.size(), n2 = 2 * n;

  // Seed x_i = (q, qd)_i: value x_i with inner derivative e_i, outer derivative e_i.
  const auto seed = [&](double value, Eigen::Index i) {
    OuterDer outer(n2);
    for (Eigen::Index j = 0; j < n2; ++j)
      outer[j] = Inner(j == i ? 1.0 : 0.0, InnerDer::Zero(n2));
    return Outer(Inner(value, InnerDer::Unit(n2, i)), outer);
  };
  ADVector aq(n), aqd(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    aq[i] = seed(q[i], i);
    aqd[i] = seed(qd[i], n + i);
  }

  static_assert(std::is_same_v<std::decay_t<decltype(lagrangian(aq, aqd))>, Outer>,
                "chaindyn::lagrange: the Lagrangian must return its scalar type S itself "
                "(e.g. `return S(T - V);` with S = chaindyn::lagrange::scalar_t<decltype(q)>), "
                "not an AutoDiff expression that references the lambda's locals");
  const Outer l = lagrangian(aq, aqd);

  // gradient_i = outer derivative i's value; Hessian(i, j) = its inner derivative j. Parts
  // of L that do not depend on x may leave empty (dynamic-size) derivative vectors: zero.
  Eigen::Matrix<double, detail::twice(N), 1> gradient =
      Eigen::Matrix<double, detail::twice(N), 1>::Zero(n2);
  Eigen::Matrix<double, detail::twice(N), detail::twice(N)> hessian =
      Eigen::Matrix<double, detail::twice(N), detail::twice(N)>::Zero(n2, n2);
  if (l.derivatives().size() == n2) {
    for (Eigen::Index i = 0; i < n2; ++i) {
      const Inner& di = l.derivatives()[i];
      gradient[i] = di.value();
      if (di.derivatives().size() == n2) hessian.row(i) = di.derivatives().transpose();
    }
  }

  LagrangianDerivatives<N> out;
  out.value = l.value().value();
  out.dL_dq = gradient.head(n);
  out.dL_dqd = gradient.tail(n);
  out.d2L_dqd2 = hessian.bottomRightCorner(n, n);
  out.d2L_dqd_dq = hessian.bottomLeftCorner(n, n);
  out.d2L_dq2 = hessian.topLeftCorner(n, n);
  return out;
}

/// tau = (d2L/dqd2) qdd + (d2L/dqd dq) qd - dL/dq, (E-L): the generalised forces that produce
/// the acceleration qdd at (q, qd). One evaluation of L.
template <typename Lagrangian, int N>
Eigen::Matrix<double, N, 1> equations_of_motion(const Lagrangian& lagrangian,
                                                const Eigen::Matrix<double, N, 1>& q,
                                                const Eigen::Matrix<double, N, 1>& qd,
                                                const Eigen::Matrix<double, N, 1>& qdd) {
  const LagrangianDerivatives<N> d = derivatives(lagrangian, q, qd);
  return d.d2L_dqd2 * qdd + d.d2L_dqd_dq * qd - d.dL_dq;
}

/// M(q, qd) = d2L / dqd2 (for a natural system T = 1/2 qd^T M(q) qd it does not depend on qd;
/// qd is taken for Lagrangians that are not quadratic in qd). One evaluation of L.
template <typename Lagrangian, int N>
Eigen::Matrix<double, N, N> mass_matrix(const Lagrangian& lagrangian,
                                        const Eigen::Matrix<double, N, 1>& q,
                                        const Eigen::Matrix<double, N, 1>& qd) {
  return derivatives(lagrangian, q, qd).d2L_dqd2;
}

/// M(q) = d2L / dqd2 at qd = 0.
template <typename Lagrangian, int N>
Eigen::Matrix<double, N, N> mass_matrix(const Lagrangian& lagrangian,
                                        const Eigen::Matrix<double, N, 1>& q) {
  return mass_matrix(lagrangian, q, Eigen::Matrix<double, N, 1>::Zero(q.size()).eval());
}

/// The bias b(q, qd) = (d2L/dqd dq) qd - dL/dq = tau at qdd = 0: Coriolis and centrifugal
/// forces plus gravity, C(q, qd) qd + g(q). One evaluation of L.
template <typename Lagrangian, int N>
Eigen::Matrix<double, N, 1> bias(const Lagrangian& lagrangian,
                                 const Eigen::Matrix<double, N, 1>& q,
                                 const Eigen::Matrix<double, N, 1>& qd) {
  const LagrangianDerivatives<N> d = derivatives(lagrangian, q, qd);
  return d.d2L_dqd_dq * qd - d.dL_dq;
}

/// g(q) = -dL/dq at qd = 0 (= dV/dq for L = T - V with T quadratic in qd). One evaluation.
template <typename Lagrangian, int N>
Eigen::Matrix<double, N, 1> gravity(const Lagrangian& lagrangian,
                                    const Eigen::Matrix<double, N, 1>& q) {
  return -derivatives(lagrangian, q, Eigen::Matrix<double, N, 1>::Zero(q.size()).eval()).dL_dq;
}

/// The Coriolis and centrifugal vector C(q, qd) qd = bias(q, qd) - gravity(q). Two evaluations.
template <typename Lagrangian, int N>
Eigen::Matrix<double, N, 1> coriolis_centrifugal(const Lagrangian& lagrangian,
                                                 const Eigen::Matrix<double, N, 1>& q,
                                                 const Eigen::Matrix<double, N, 1>& qd) {
  return bias(lagrangian, q, qd) - gravity(lagrangian, q);
}

/// qdd = M^-1 (tau - bias(q, qd)), by an LDLT of M = d2L/dqd2 (M must be positive definite).
template <typename Lagrangian, int N>
Eigen::Matrix<double, N, 1> forward_dynamics(const Lagrangian& lagrangian,
                                             const Eigen::Matrix<double, N, 1>& q,
                                             const Eigen::Matrix<double, N, 1>& qd,
                                             const Eigen::Matrix<double, N, 1>& tau) {
  const LagrangianDerivatives<N> d = derivatives(lagrangian, q, qd);
  return d.d2L_dqd2.ldlt().solve(tau - (d.d2L_dqd_dq * qd - d.dL_dq));
}

/// The Christoffel symbols of the first kind of M(q):
///
///     Gamma_ijk = 1/2 (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i),
///     C_ij(q, qd) = sum_k Gamma_ijk qd_k,   C(q, qd) qd = the Coriolis/centrifugal vector,
///
/// the convention of chaindyn's coriolis_matrix() and the closed forms (Asfour, Robotics I
/// ch. 4, "Method of Lagrange"), for which Mdot - 2C is skew-symmetric. Gamma_ijk is symmetric
/// in j, k. Access: gamma(i, j, k), or gamma[i] the matrix (j, k).
template <int N>
struct ChristoffelSymbols {
  using Vector = Eigen::Matrix<double, N, 1>;
  using Matrix = Eigen::Matrix<double, N, N>;
  std::vector<Matrix> gamma;  ///< gamma[i](j, k) = Gamma_ijk

  double operator()(Eigen::Index i, Eigen::Index j, Eigen::Index k) const {
    return gamma[std::size_t(i)](j, k);
  }
  const Matrix& operator[](Eigen::Index i) const { return gamma[std::size_t(i)]; }

  /// C(q, qd), C_ij = sum_k Gamma_ijk qd_k.
  Matrix coriolis_matrix(const Vector& qd) const {
    const Eigen::Index n = qd.size();
    Matrix c = Matrix::Zero(n, n);
    for (Eigen::Index i = 0; i < n; ++i) c.row(i) = (gamma[std::size_t(i)] * qd).transpose();
    return c;
  }
};

/// The Christoffel symbols of M(q) = d2L/dqd2 at q (pass L = T - V or T alone).
///
/// Requires L quadratic in qd: L = 1/2 qd^T M(q) qd + a(q)^T qd - V(q) (a natural system, the
/// premise of Christoffel symbols). Then d2L/dqd_i dq_k at qd = e_j minus its value at qd = 0
/// is exactly dM_ij/dq_k (the terms in a and V cancel), so n + 1 second-order evaluations give
/// every dM/dq without a third level of AutoDiff. For an L that is not quadratic in qd the
/// result is meaningless.
template <typename Lagrangian, int N>
ChristoffelSymbols<N> christoffel_symbols(const Lagrangian& lagrangian,
                                          const Eigen::Matrix<double, N, 1>& q) {
  using Vector = Eigen::Matrix<double, N, 1>;
  using Matrix = Eigen::Matrix<double, N, N>;
  const Eigen::Index n = q.size();
  const Matrix mixed0 = derivatives(lagrangian, q, Vector::Zero(n).eval()).d2L_dqd_dq;
  // dm[j](i, k) = dM_ij / dq_k
  std::vector<Matrix> dm(std::size_t(n), Matrix::Zero(n, n));
  for (Eigen::Index j = 0; j < n; ++j)
    dm[std::size_t(j)] = derivatives(lagrangian, q, Vector::Unit(n, j).eval()).d2L_dqd_dq - mixed0;
  ChristoffelSymbols<N> out;
  out.gamma.assign(std::size_t(n), Matrix::Zero(n, n));
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index k = 0; k < n; ++k)
        out.gamma[std::size_t(i)](j, k) =
            0.5 * (dm[std::size_t(j)](i, k) + dm[std::size_t(k)](i, j) - dm[std::size_t(k)](j, i));
  return out;
}

/// C(q, qd) from the Christoffel symbols of M (n + 1 evaluations of L; see christoffel_symbols).
template <typename Lagrangian, int N>
Eigen::Matrix<double, N, N> coriolis_matrix(const Lagrangian& lagrangian,
                                            const Eigen::Matrix<double, N, 1>& q,
                                            const Eigen::Matrix<double, N, 1>& qd) {
  return christoffel_symbols(lagrangian, q).coriolis_matrix(qd);
}

/// L = T(q, qd) - V(q) from two generic lambdas that return their scalar type.
template <typename Kinetic, typename Potential>
auto from_energies(Kinetic kinetic, Potential potential) {
  return [kinetic, potential](const auto& q, const auto& qd) {
    using S = scalar_t<decltype(q)>;
    return S(kinetic(q, qd) - potential(q));
  };
}

}  // namespace chaindyn::lagrange
