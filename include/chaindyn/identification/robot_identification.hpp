/// @file
/// Identification of a whole robot's dynamics from measured torques: least squares on the base
/// parameters (base_parameters.hpp), and a physically consistent estimate of every link's 10
/// inertial parameters and every joint's damping, Coulomb friction and armature: the convex
/// problem of Wensing et al.'s LMI (pseudo_inertia.hpp) solved by a log-det barrier
/// interior-point method.
///
/// Measurement model (Khalil & Dombre, "Modeling, identification and control of robots", 2002,
/// ch. 12; Gautier 1991): tau_t = W_b(q_t, qd_t, qdd_t) pi_b + e_t, e_t zero-mean noise of
/// equal variance sigma^2 on every row. Stacking the samples gives A pi_b = b.
///
/// Least squares. Each sample's n rows [W_b(i, :) tau_i] are folded into the upper-triangular
/// factor [R z; 0 rho] of [A b] by Givens rotations (detail::givens_fold, as in
/// PayloadIdentification): constant memory in the number of samples, and
///     |A pi_b - b|^2 = |R pi_b - z|^2 + rho^2        (*)
/// so pi_b = R^-1 z, sigma^2 = rho^2 / (equations - r), cov(pi_b) = sigma^2 R^-1 R^-T.
///
/// Physically consistent estimate. The base parameters of a real robot are those of some
/// physical bodies: pi_b = B pi with pi the standard parameters (B = [1 beta] in the base and
/// dependent columns of BaseParameters), every link's pi_i with a positive semi-definite
/// pseudo-inertia J(pi_i) (pseudo_inertia.hpp; Wensing, Kim & Slotine, RA-L 2018), every
/// damping, Coulomb friction and armature >= 0. The least-squares pi_b need not be (noise, poor
/// excitation, unmodelled effects). By (*) the data enter only through R and z, and
///     min_pi  |R B pi - z|^2 + lambda |pi - pi_0|_S^2
///     s.t.    J(pi_i) >= eps_i 1  (every link),   joint parameters >= 0
/// is a convex problem (a least-squares objective over the intersection of a linear image of
/// positive semi-definite cones and an orthant: the LMI of Wensing et al.), so it has one
/// solution, found from any start. It is solved by the barrier method (Boyd & Vandenberghe,
/// "Convex Optimization", 2004, sec. 11.3, with the log-det barrier of sec. 11.6): for
/// t = t_0, 20 t_0, 400 t_0, ... (t_0 = nu / f_0 at the start) minimise
///     t f_0(pi) - sum_i log det(J(pi_i) - eps_i 1) - sum_j log pi_j      (joints j)
/// by Newton's method with a backtracking line search that keeps every J(pi_i) - eps_i 1
/// positive definite (a Cholesky factorisation per 4 x 4 block) and the joint parameters
/// positive; f_0 is the objective above. Gradient and Hessian of the barrier: d(-log det X)
/// = -tr(X^-1 dX), d^2 = tr(X^-1 dX X^-1 dX'), X linear in pi. Each central point is within
/// nu / t of the optimum (nu = 4 n + joint parameters, the barrier's degree), so the method
/// stops when nu / t < (tolerance |z|)^2 + 1e-4 sigma^2 (the residual sum of squares then
/// known to a ten-thousandth of one equation's noise variance). The parameters are scaled to unit data curvature
/// (S: the column norms of R B; |.|_S is the Euclidean norm of the scaled parameters) and each
/// link's J to unit norm at the prior, so that one step rule suits all. The result is strictly
/// inside the constraints: m > 0, the inertia about the centre of mass positive definite with
/// strict triangle inequalities, joint parameters > 0 (the floor eps_i = minimum_eigenvalue
/// times |J(prior_i)|).
///
/// pi_0 is the prior (a CAD model) and lambda small: the data fix the r identifiable
/// combinations, and the regulariser picks among the physical robots that fit them one near
/// the prior in the p - r directions the torques do not see. lambda must be > 0: without it
/// the barrier is unbounded below along those directions (the cone is unbounded). It biases
/// the identifiable combinations by O(lambda) (measured: 1.8e-12 relative with lambda = 1e-12
/// on exact data, 2.4e-9 with 1e-9), far below the noise at the default 1e-6.
///
/// Two other solvers were tried on the iiwa example and dropped. The log-Cholesky
/// parametrisation (Rucker & Wensing, RA-L 2022: J = U U^T, U upper triangular with
/// exponentiated diagonal, physical for every unconstrained theta) with Levenberg-Marquardt makes
/// the problem non-convex, and when the constrained optimum is on the boundary of the cone (0.5
/// N m of noise was enough) it lies at infinity in theta: LM had not converged after 2000
/// iterations, and stalled on noise-free data. ADMM with eigenvalue projections (Boyd et al.,
/// Found. Trends Mach. Learn. 2011) converged on noise-free data but needed more than 10^5
/// iterations to reach the optimum with noise (the directions the torques do not see have only
/// the prior's small curvature; after 2 10^4 iterations its held-out torque error agreed with
/// the barrier method's to three digits); the barrier method needs about 100 Newton steps with
/// noise, 300-400 on exact data.
///
/// Not a real-time tool: it allocates and throws on bad arguments (ArgumentError).
#pragma once

#include "chaindyn/algorithms/friction.hpp"
#include "chaindyn/identification/base_parameters.hpp"
#include "chaindyn/identification/pseudo_inertia.hpp"
#include "chaindyn/identification/payload_identification.hpp"

#include <Eigen/Cholesky>
#include <Eigen/SVD>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace chaindyn {

/// The least-squares base parameters of a RobotIdentification's samples.
struct BaseEstimate {
  /// full rank, more equations than unknowns and a credible residual: finite, and at most half
  /// the torques' rms (above it, the samples do not follow the model: an outlier sample, a
  /// wrong model, a unit error)
  bool ok = false;
  std::string message;                 ///< what is wrong when !ok
  Eigen::VectorXd base;                ///< pi_b, BaseParameters order
  Eigen::VectorXd standard_deviation;  ///< of each entry of pi_b, sigma sqrt(diag (R^T R)^-1)
  Eigen::MatrixXd covariance;          ///< sigma^2 (R^T R)^-1 = sigma^2 R^-1 R^-T
  double sigma = 0.0;                  ///< the noise estimate, rho / sqrt(equations - r)
  double residual_rms = 0.0;           ///< |A pi_b - b| / sqrt(equations)
  double condition_number = 0.0;       ///< of A, the stacked base regressor
  std::size_t samples = 0, equations = 0;
};

/// Settings of RobotIdentification::physically_consistent.
struct ConsistentOptions {
  double prior_weight = 1e-6;        ///< lambda, relative to the (unit) data curvature of each
                                     ///< parameter; > 0 (the barrier is unbounded below along
                                     ///< the directions no torque sees without it); it biases
                                     ///< the fit by O(lambda): 1e-12 for exact data
  double minimum_eigenvalue = 1e-8;  ///< eps_i: J(pi_i) >= this x |J(prior_i)|_F
  double tolerance = 1e-9;           ///< stop when the optimum's residual is known to this,
                                     ///< relative: nu / t < (tolerance |z|)^2
  int max_newton_steps = 2000;       ///< in total, over every t
};

/// A physically consistent robot fitted to the samples.
template <typename Model>
struct ConsistentEstimate {
  Model model;                  ///< the prior's kinematics with the identified links and joints
  Eigen::VectorXd standard;     ///< pi: 10 per link (+ damping, friction, armature per joint)
  Eigen::VectorXd base;         ///< B pi, comparable with BaseEstimate::base
  double residual_rms = 0.0;    ///< |A B pi - b| / sqrt(equations)
  double least_squares_residual_rms = 0.0;  ///< the unconstrained fit's, the lower bound
  double smallest_margin = 0.0; ///< min over links of pseudo_inertia_margin (> 0: physical)
  int newton_steps = 0;
  bool converged = false;       ///< the barrier method reached the tolerance
};

/// Collects samples (q, qd, qdd, tau) of a robot and fits its base parameters, unconstrained
/// (least_squares) or physically consistent (physically_consistent). See the file comment.
template <typename Model>
class RobotIdentification {
 public:
  using Vector = typename Model::Vector;
  static_assert(std::is_same_v<typename Model::Scalar, double>,
                "RobotIdentification works on a double model");

  /// `model`: the robot's kinematics and gravity (its inertias are not used; with
  /// !bp.joint_dynamics its joint damping, friction and armature are taken as known and
  /// subtracted). `bp`: base_parameters(model, ...). Throws ArgumentError when bp does not fit
  /// the model. Model: a Chain, a ChainN, a Tree, a ChainX<double> or a TreeX<double> (its
  /// workspace sized here).
  RobotIdentification(const Model& model, BaseParameters bp)
      : n(int(detail::joint_count(model))),
        model_(model),
        bp_(std::move(bp)),
        data_(model),
        yj_(RegressorWithJointDynamicsMatrix<Model>::Zero(
            n, (kInertialParametersPerLink + kJointDynamicsParametersPerJoint) * n)),
        y_(RegressorMatrix<Model>::Zero(n, kInertialParametersPerLink * n)) {
    const Eigen::Index p = (bp_.joint_dynamics ? 13 : kInertialParametersPerLink) * n;
    if (bp_.columns != p || bp_.rank < 1) {
      detail::throw_error<ArgumentError>("RobotIdentification: the BaseParameters have ",
                                         bp_.columns, " columns, this model needs ", p);
    }
    r_ = Eigen::MatrixXd::Zero(bp_.rank + 1, bp_.rank + 1);
  }

  const BaseParameters& base_parameters() const noexcept { return bp_; }
  std::size_t samples() const noexcept { return samples_; }

  /// W_b(q, qd, qdd), the n x r base regressor.
  Eigen::MatrixXd base_regressor(const Vector& q, const Vector& qd, const Vector& qdd) const {
    check_sizes("base_regressor", q, qd, qdd);
    if (bp_.joint_dynamics) {
      regressor_with_joint_dynamics(model_, data_, q, qd, qdd, yj_);
      return bp_.base_regressor(yj_);
    }
    regressor(model_, data_, q, qd, qdd, y_);
    return bp_.base_regressor(y_);
  }

  /// Adds one sample. Throws ArgumentError when a number is not finite (the sample is not
  /// added).
  void add_sample(const Vector& q, const Vector& qd, const Vector& qdd, const Vector& tau) {
    if (!(q.allFinite() && qd.allFinite() && qdd.allFinite() && tau.allFinite())) {
      detail::throw_error<ArgumentError>("RobotIdentification::add_sample: sample ", samples_,
                                         " has a number that is not finite");
    }
    check_sizes("add_sample", q, qd, qdd, &tau);
    const Eigen::MatrixXd w = base_regressor(q, qd, qdd);
    Vector b = tau;
    if (!bp_.joint_dynamics) {
      for (Eigen::Index i = 0; i < n; ++i) {
        b[i] -= joint_friction(model_, std::size_t(i), qd[i]) + model_.armature()[i] * qdd[i];
      }
    }
    Eigen::RowVectorXd row(bp_.rank + 1);
    for (Eigen::Index i = 0; i < n; ++i) {
      row << w.row(i), b[i];
      detail::givens_fold(r_, row);
      torque_squares_ += b[i] * b[i];
    }
    ++samples_;
  }

  /// The least-squares base parameters (see the file comment). Never throws on bad data: `ok`
  /// and `message` say what is wrong.
  BaseEstimate least_squares() const {
    BaseEstimate out;
    const Eigen::Index r = bp_.rank;
    out.samples = samples_;
    out.equations = samples_ * std::size_t(n);
    if (out.equations <= std::size_t(r)) {
      out.message = std::to_string(out.equations) + " equations for " + std::to_string(r) +
                    " base parameters: add samples";
      out.condition_number = std::numeric_limits<double>::infinity();
      return out;
    }
    const Eigen::MatrixXd rr = r_.topLeftCorner(r, r).triangularView<Eigen::Upper>();
    const Eigen::VectorXd sv = Eigen::JacobiSVD<Eigen::MatrixXd>(rr).singularValues();
    out.condition_number = sv[r - 1] > 0.0 ? sv[0] / sv[r - 1] : std::numeric_limits<double>::infinity();
    if (!(out.condition_number < 1e12)) {
      out.message = "the samples do not excite every base parameter (condition number " +
                    std::to_string(out.condition_number) + "): use an exciting trajectory";
      return out;
    }
    out.base = rr.triangularView<Eigen::Upper>().solve(r_.col(r).head(r));
    const double rho = r_(r, r);
    out.sigma = std::abs(rho) / std::sqrt(double(out.equations) - double(r));
    out.residual_rms = std::abs(rho) / std::sqrt(double(out.equations));
    const Eigen::MatrixXd rinv =
        rr.triangularView<Eigen::Upper>().solve(Eigen::MatrixXd::Identity(r, r));
    out.covariance = out.sigma * out.sigma * rinv * rinv.transpose();
    out.standard_deviation = out.covariance.diagonal().cwiseSqrt();
    if (!out.base.allFinite() || !std::isfinite(out.residual_rms) ||
        !std::isfinite(torque_squares_)) {
      out.message = "the fit is not finite: a sample has a number too large to fit (an outlier "
                    "torque?)";
      return out;
    }
    const double torque_rms = std::sqrt(torque_squares_ / double(out.equations));
    if (out.residual_rms > 0.5 * torque_rms) {
      out.message = "the residual is not credible: its rms (" + std::to_string(out.residual_rms) +
                    ") is more than half the torques' rms (" + std::to_string(torque_rms) +
                    "): the samples do not follow the model (an outlier sample, a wrong model "
                    "or a unit error)";
      return out;
    }
    out.ok = true;
    return out;
  }

  /// The physically consistent robot nearest the data (see the file comment), regularised
  /// towards `prior` (same kinematics; any parameters, physical or not: it is only the target
  /// of the regulariser). The result's model has the prior's links (names, placements, limits,
  /// link frames) with the identified mass, centre of mass, inertia and (with
  /// bp.joint_dynamics) damping, friction and armature; the prior's payloads are absorbed into
  /// the links (the torques see their sum) and its named frames are not copied. Throws
  /// ArgumentError when least_squares() is not ok or an option is out of range.
  ConsistentEstimate<Model> physically_consistent(const Model& prior,
                                                  const ConsistentOptions& options = {}) const {
    if (detail::joint_count(prior) != std::size_t(n)) {
      detail::throw_error<ArgumentError>("RobotIdentification::physically_consistent: the prior "
                                         "has ", detail::joint_count(prior), " joints; the "
                                         "identified model has ", n);
    }
    const BaseEstimate ls = least_squares();
    if (!ls.ok) {
      detail::throw_error<ArgumentError>("RobotIdentification::physically_consistent: ",
                                         ls.message);
    }
    if (!(options.prior_weight > 0.0) || !(options.minimum_eigenvalue > 0.0) ||
        options.max_newton_steps < 1 || !(options.tolerance > 0.0)) {
      detail::throw_error<ArgumentError>(
          "RobotIdentification::physically_consistent: ConsistentOptions need prior_weight > 0, "
          "minimum_eigenvalue > 0, max_newton_steps >= 1 and tolerance > 0");
    }
    const Eigen::Index r = bp_.rank, p = bp_.columns, nl = 10 * n, nj = p - nl;
    const Eigen::Index m = 16 * n + nj;  // rows of G: each link's J (4 x 4), the joints
    // A = R B (r x p), pi_b = B pi
    Eigen::MatrixXd bmat = Eigen::MatrixXd::Zero(r, p);
    for (Eigen::Index i = 0; i < r; ++i) bmat(i, bp_.base[std::size_t(i)]) = 1.0;
    for (std::size_t j = 0; j < bp_.dependent.size(); ++j) {
      bmat.col(bp_.dependent[j]) = bp_.beta.col(Eigen::Index(j));
    }
    const Eigen::MatrixXd rr = r_.topLeftCorner(r, r).triangularView<Eigen::Upper>();
    const Eigen::VectorXd z = r_.col(r).head(r);
    const Eigen::MatrixXd a = rr * bmat;
    // S: pi = S y, unit data curvature per column (floored for the columns no torque sees)
    const Eigen::VectorXd norms = a.colwise().norm().transpose();
    const double floor_norm = 1e-6 * norms.maxCoeff();
    const Eigen::VectorXd scale =
        (norms.array().square() + floor_norm * floor_norm).sqrt().inverse().matrix();
    const Eigen::MatrixXd as = a * scale.asDiagonal();
    // the prior
    Eigen::VectorXd pi0(p);
    if (bp_.joint_dynamics) {
      pi0 = parameters_with_joint_dynamics(prior);
    } else {
      pi0 = inertial_parameters(prior);
    }
    const Eigen::VectorXd y0 = pi0.cwiseQuotient(scale);
    // G (m x p) in y: link i's rows c_i vec(J(pi_i)), c_i = 1 / |J(prior_i)|_F; joints: identity
    Eigen::VectorXd link_scale(n);
    double largest = 0.0;
    for (int i = 0; i < n; ++i) {
      link_scale[i] = pseudo_inertia(pi0.template segment<10>(10 * i)).norm();
      largest = std::max(largest, link_scale[i]);
    }
    if (!(largest > 0.0)) largest = 1.0;  // a massless prior: no scale to take
    for (int i = 0; i < n; ++i) link_scale[i] = 1.0 / std::max(link_scale[i], 1e-3 * largest);
    Eigen::MatrixXd g = Eigen::MatrixXd::Zero(m, p);
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < 10; ++k) {
        const Eigen::Matrix4d jk = pseudo_inertia(BodyParameters::Unit(k));
        g.block<16, 1>(16 * i, 10 * i + k) =
            link_scale[i] * scale[10 * i + k] * Eigen::Map<const Eigen::Matrix<double, 16, 1>>(jk.data());
      }
    }
    for (Eigen::Index k = 0; k < nj; ++k) g(16 * n + k, nl + k) = 1.0;
    // Feasibility and the barrier at y: each X_i = c_i J(pi_i) - eps 1 positive definite
    // (Cholesky), the joint parameters positive.
    const double eps = options.minimum_eigenvalue;
    const auto block = [&](const Eigen::VectorXd& y, int i) {
      // link i's rows of G are zero outside its ten columns
      const Eigen::Matrix<double, 16, 1> v =
          g.template block<16, 10>(16 * i, 10 * i) * y.template segment<10>(10 * i);
      return Eigen::Matrix4d(Eigen::Map<const Eigen::Matrix4d>(v.data()) - eps * Eigen::Matrix4d::Identity());
    };
    const auto barrier = [&](const Eigen::VectorXd& y) {  // +inf outside
      double phi = 0.0;
      for (int i = 0; i < n; ++i) {
        const Eigen::LLT<Eigen::Matrix4d> llt(block(y, i));
        if (llt.info() != Eigen::Success) return std::numeric_limits<double>::infinity();
        const Eigen::Vector4d d = llt.matrixLLT().diagonal();
        if (!(d.minCoeff() > 0.0)) return std::numeric_limits<double>::infinity();
        phi -= 2.0 * d.array().log().sum();
      }
      for (Eigen::Index k = 0; k < nj; ++k) {
        if (!(y[nl + k] > 0.0)) return std::numeric_limits<double>::infinity();
        phi -= std::log(y[nl + k]);
      }
      return phi;
    };
    const double lambda = options.prior_weight;
    const Eigen::MatrixXd h0 = as.transpose() * as + lambda * Eigen::MatrixXd::Identity(p, p);
    const Eigen::VectorXd b0 = as.transpose() * z + lambda * y0;
    const auto objective = [&](const Eigen::VectorXd& y) {
      return (as * y - z).squaredNorm() + lambda * (y - y0).squaredNorm();
    };
    // A strictly feasible start: the prior with each scaled J's eigenvalues raised to 0.01
    // (|c_i J(prior_i)| = 1) and the joint parameters to 1e-3 of the largest.
    Eigen::VectorXd y = y0;
    for (int i = 0; i < n; ++i) {
      const Eigen::Matrix4d x = block(y0, i) + eps * Eigen::Matrix4d::Identity();
      const Eigen::Matrix4d px = project_eigenvalues_above(x, 1e-2 + eps);
      const Eigen::Matrix4d j = px / link_scale[i];
      y.segment<10>(10 * i) = parameters_from_pseudo_inertia(j).cwiseQuotient(scale.segment<10>(10 * i));
    }
    if (nj > 0) {
      const double floor_joint = 1e-3 * std::max(y0.tail(nj).cwiseAbs().maxCoeff(), 1.0);
      y.tail(nj) = y0.tail(nj).cwiseMax(floor_joint);
    }
    const double nu = 4.0 * n + double(nj);
    constexpr double kBarrierGrowth = 20.0;  // mu of Boyd & Vandenberghe
    // stop when the objective is known to (tolerance |z|)^2 plus 1e-4 of one equation's noise
    // variance (a negligible change of the residual sum of squares)
    const double target = std::pow(options.tolerance * z.norm(), 2) + 1e-4 * ls.sigma * ls.sigma;
    double t = nu / std::max(objective(y), 1e-300);
    int steps = 0;
    bool converged = false;
    Eigen::MatrixXd hessian(p, p);
    Eigen::VectorXd gradient(p);
    while (steps < options.max_newton_steps) {
      // centering: Newton on F = t f_0 + phi
      for (int inner = 0; inner < 100 && steps < options.max_newton_steps; ++inner, ++steps) {
        hessian = 2.0 * t * h0;
        gradient = 2.0 * t * (h0 * y - b0);
        for (int i = 0; i < n; ++i) {
          const Eigen::Matrix4d xinv = block(y, i).inverse();
          const auto gi = g.block(16 * i, 10 * i, 16, 10);
          Eigen::Matrix4d v[10], m[10];
          for (int k = 0; k < 10; ++k) {
            v[k] = Eigen::Map<const Eigen::Matrix4d>(Eigen::Matrix<double, 16, 1>(gi.col(k)).data());
            m[k] = xinv * v[k] * xinv;
            gradient[10 * i + k] -= (xinv.cwiseProduct(v[k])).sum();  // -tr(X^-1 V_k)
          }
          for (int k = 0; k < 10; ++k) {
            for (int l = 0; l <= k; ++l) {
              const double hkl = m[k].cwiseProduct(v[l]).sum();  // tr(X^-1 V_k X^-1 V_l)
              hessian(10 * i + k, 10 * i + l) += hkl;
              if (l != k) hessian(10 * i + l, 10 * i + k) += hkl;
            }
          }
        }
        for (Eigen::Index k = 0; k < nj; ++k) {
          gradient[nl + k] -= 1.0 / y[nl + k];
          hessian(nl + k, nl + k) += 1.0 / (y[nl + k] * y[nl + k]);
        }
        const Eigen::VectorXd step = -hessian.llt().solve(gradient);
        const double decrement = -gradient.dot(step);  // Newton decrement squared
        if (!(decrement > 2e-8)) break;  // lambda^2 / 2 <= 1e-8: centred
        // backtracking (Boyd & Vandenberghe alg. 9.2, alpha 0.25, beta 0.5), inside the domain
        const double f = t * objective(y) + barrier(y);
        double s = 1.0;
        Eigen::VectorXd trial = y + step;
        double ft = t * objective(trial) + barrier(trial);
        while (!(ft <= f - 0.25 * s * decrement) && s > 1e-12) {
          s *= 0.5;
          trial = y + s * step;
          ft = t * objective(trial) + barrier(trial);
        }
        if (!(ft <= f)) break;  // no progress at rounding level
        y = trial;
      }
      if (nu / t < target) {
        converged = true;
        break;
      }
      t *= kBarrierGrowth;
    }
    // The robot
    const Eigen::VectorXd pi = scale.cwiseProduct(y);
    auto new_links = prior.links();  // a copy: std::array, or std::vector for a ChainX
    double margin = std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i) {
      const BodyParameters body = pi.segment<10>(10 * i);
      margin = std::min(margin, pseudo_inertia_margin(body));
      const double mass = body[0];
      const Eigen::Vector3d c = body.segment<3>(1) / mass;
      Eigen::Matrix3d about_origin;
      about_origin << body[4], body[5], body[6], body[5], body[7], body[8], body[6], body[8], body[9];
      Link<double>& link = new_links[std::size_t(i)];
      link.mass = mass;
      link.com = c;
      // parallel axis: I_O = I_C + m (|c|^2 1 - c c^T)
      link.inertia = about_origin - mass * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
      if (bp_.joint_dynamics) {
        link.dynamics.damping = pi[nl + i];
        link.dynamics.friction = pi[nl + n + i];
        link.dynamics.armature = pi[nl + 2 * n + i];
      }
    }
    Model identified = [&] {
      if constexpr (Model::nq == Eigen::Dynamic) {  // a ChainX or TreeX keeps the prior's
        std::vector<JointKind> kinds;                // joint kinds (and a TreeX its parents)
        for (int i = 0; i < n; ++i) kinds.push_back(prior.joint(std::size_t(i)).kind());
        if constexpr (Model::serial) {
          return Model(new_links, kinds, prior.gravity());
        } else {
          return Model(new_links, kinds, prior.parents(), prior.gravity());
        }
      } else {
        return Model(new_links, prior.gravity());
      }
    }();
    for (int i = 0; i < n; ++i) identified.set_link_frame(std::size_t(i), prior.link_frame(std::size_t(i)));
    const Eigen::VectorXd base = bmat * pi;
    const double rho_ls = r_(r, r);
    const double residual =
        std::sqrt(((rr * base - z).squaredNorm() + rho_ls * rho_ls) / double(ls.equations));
    return ConsistentEstimate<Model>{std::move(identified), pi, base, residual, ls.residual_rms,
                                     margin, steps, converged};
  }

 private:
  /// A runtime-sized model's sample: each vector has the model's joint count (ArgumentError
  /// otherwise; a compile-time chain's Vector has it by type).
  void check_sizes(const char* function, const Vector& q, const Vector& qd, const Vector& qdd,
                   const Vector* tau = nullptr) const {
    if constexpr (Model::nq == Eigen::Dynamic) {
      const std::pair<const char*, const Vector*> args[] = {
          {"q", &q}, {"qd", &qd}, {"qdd", &qdd}, {"tau", tau}};
      for (const auto& [name, v] : args) {
        if (v != nullptr && v->size() != n) {
          detail::throw_error<ArgumentError>("RobotIdentification::", function, ": ", name,
                                             " has ", v->size(), " entries; the model has ", n,
                                             " joints");
        }
      }
    } else {
      (void)function, (void)q, (void)qd, (void)qdd, (void)tau;
    }
  }

  int n;  ///< the joint count
  Model model_;
  BaseParameters bp_;
  Eigen::MatrixXd r_;  ///< [R z; 0 rho], (r + 1) x (r + 1)
  std::size_t samples_ = 0;
  double torque_squares_ = 0.0;  ///< sum of the squared right-hand sides, for the credibility
  mutable Data<Model> data_;
  mutable RegressorWithJointDynamicsMatrix<Model> yj_;
  mutable RegressorMatrix<Model> y_;
};

}  // namespace chaindyn
