/// @file
/// The base (identifiable) parameters of a whole chain: which combinations of the 10 inertial
/// parameters per link (and, optionally, of the joints' damping, Coulomb friction and armature)
/// the joint torques depend on, by Gautier's numerical method (M. Gautier, "Numerical
/// calculation of the base inertial parameters of robots", J. Robotic Systems 8(4), 1991;
/// Khalil & Dombre, "Modeling, identification and control of robots", 2002, sec. 12.3).
///
/// The torques are linear in the standard parameters, tau = Y(q, qd, qdd) pi (regressor.hpp),
/// but Y's columns are linearly dependent: some parameters never act (link 1's inertia about
/// axes other than its joint's), others act only in fixed combinations (a link's mass and the
/// inertia of the links before it about their joints). Stack Y at many random states into W
/// (K n x p) and factor W P = Q R by Householder QR with column pivoting (Golub & Van Loan,
/// "Matrix Computations", 4th ed., sec. 5.4.2). Its numerical rank r (the |R_ii| above a
/// relative tolerance) is the number of base parameters; the first r pivoted columns W_1 are
/// independent, and the others are W_2 = W_1 beta with beta = R_11^-1 R_12. Then
///     W pi = W_1 pi_1 + W_2 pi_2 = W_1 (pi_1 + beta pi_2) = W_1 pi_b,
/// so the base parameters are pi_b = pi_1 + beta pi_2 and the base regressor is W_1: the
/// smallest set of parameters that reproduces every torque, and the set a least-squares
/// identification can determine.
///
/// Not a real-time tool: it allocates (dynamic-size matrices) and throws on bad arguments.
#pragma once

#include "chaindyn/identification/regressor.hpp"

#include <Eigen/QR>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace chaindyn {

/// The base parameters of a chain (see the file comment). `columns` counts the standard
/// parameters: 10 n, or 13 n with the joint dynamics (the order of
/// parameters_with_joint_dynamics).
struct BaseParameters {
  Eigen::Index columns = 0;             ///< p, the standard parameters
  Eigen::Index rank = 0;                ///< r, the base parameters
  std::vector<Eigen::Index> base;       ///< the r standard parameters kept, pivot order
  std::vector<Eigen::Index> dependent;  ///< the p - r others
  Eigen::MatrixXd beta;                 ///< r x (p - r): column j of W for dependent[j] is
                                        ///< W_base * beta.col(j)
  bool joint_dynamics = false;          ///< damping, friction and armature columns included

  /// pi_b = pi_1 + beta pi_2 from the standard parameters (inertial_parameters(model), or
  /// parameters_with_joint_dynamics(model) when joint_dynamics). Throws ArgumentError on a size
  /// mismatch.
  Eigen::VectorXd base_values(const Eigen::VectorXd& standard) const {
    if (standard.size() != columns) {
      detail::throw_error<ArgumentError>("BaseParameters::base_values: ", standard.size(),
                                         " parameters given, ", columns, " expected");
    }
    Eigen::VectorXd out(rank);
    for (Eigen::Index i = 0; i < rank; ++i) out[i] = standard[base[std::size_t(i)]];
    Eigen::VectorXd dep(Eigen::Index(dependent.size()));
    for (std::size_t j = 0; j < dependent.size(); ++j) dep[Eigen::Index(j)] = standard[dependent[j]];
    if (dep.size() > 0) out += beta * dep;
    return out;
  }

  /// The base regressor: the `base` columns of a full regressor (rows: any number of stacked
  /// samples). Throws ArgumentError on a column-count mismatch.
  template <typename Derived>
  Eigen::MatrixXd base_regressor(const Eigen::MatrixBase<Derived>& full) const {
    if (full.cols() != columns) {
      detail::throw_error<ArgumentError>("BaseParameters::base_regressor: ", full.cols(),
                                         " columns given, ", columns, " expected");
    }
    Eigen::MatrixXd out(full.rows(), rank);
    for (Eigen::Index i = 0; i < rank; ++i) out.col(i) = full.col(base[std::size_t(i)]);
    return out;
  }
};

/// The base parameters of `model` from its regressor at `samples` random states (q uniform in
/// [-pi, pi], qd in [-2, 2] rad/s or m/s, qdd in [-5, 5], seeded by `seed`: the result depends
/// only on the geometry, not on the draw, once the states are generic). `joint_dynamics`: add
/// the damping, Coulomb friction and armature columns (regressor_with_joint_dynamics).
/// `tolerance`: |R_ii| <= tolerance |R_00| counts as zero. Throws ArgumentError when samples
/// is 0 or tolerance is not in (0, 1).
template <typename Model>
BaseParameters base_parameters(const Model& model, bool joint_dynamics = true,
                               std::size_t samples = 200, std::uint32_t seed = 20261125u,
                               double tolerance = 1e-9) {
  static_assert(std::is_same_v<typename Model::Scalar, double>,
                "base_parameters works on a double model");
  if (samples == 0 || !(tolerance > 0.0 && tolerance < 1.0)) {
    detail::throw_error<ArgumentError>("base_parameters: samples must be > 0 and tolerance in "
                                       "(0, 1) (got ", samples, " and ", tolerance, ")");
  }
  const auto n = Eigen::Index(detail::joint_count(model));
  const Eigen::Index p = (joint_dynamics ? 13 : kInertialParametersPerLink) * n;
  using Vector = typename Model::Vector;
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const auto draw = [&](double range) {
    Vector v(n);
    for (Eigen::Index k = 0; k < n; ++k) v[k] = range * unit(gen);
    return v;
  };
  Eigen::MatrixXd w(Eigen::Index(samples) * n, p);
  Data<Model>& data = detail::thread_workspace(model);
  RegressorMatrix<Model> y(n, kInertialParametersPerLink * n);
  RegressorWithJointDynamicsMatrix<Model> yj(
      n, (kInertialParametersPerLink + kJointDynamicsParametersPerJoint) * n);
  for (std::size_t s = 0; s < samples; ++s) {
    const Vector q = draw(3.14159265358979), qd = draw(2.0), qdd = draw(5.0);
    const Eigen::Index row = Eigen::Index(s) * n;
    if (joint_dynamics) {
      regressor_with_joint_dynamics(model, data, q, qd, qdd, yj);
      w.middleRows(row, n) = yj;
    } else {
      regressor(model, data, q, qd, qdd, y);
      w.middleRows(row, n) = y;
    }
  }
  // Householder QR with column pivoting: W P = Q R, |R_00| >= |R_11| >= ...
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(w);
  const Eigen::MatrixXd r = qr.matrixR().topRows(std::min(w.rows(), p)).template triangularView<Eigen::Upper>();
  const double r00 = std::abs(r(0, 0));
  Eigen::Index rank = 0;
  while (rank < std::min(r.rows(), p) && std::abs(r(rank, rank)) > tolerance * r00) ++rank;
  BaseParameters out;
  out.columns = p;
  out.rank = rank;
  out.joint_dynamics = joint_dynamics;
  const auto& perm = qr.colsPermutation().indices();
  for (Eigen::Index i = 0; i < p; ++i) {
    (i < rank ? out.base : out.dependent).push_back(Eigen::Index(perm[i]));
  }
  // beta = R_11^-1 R_12
  out.beta = r.topLeftCorner(rank, rank).template triangularView<Eigen::Upper>().solve(
      r.topRightCorner(rank, p - rank));
  return out;
}

}  // namespace chaindyn
