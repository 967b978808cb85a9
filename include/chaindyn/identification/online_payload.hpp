/// @file
/// Online (per control tick) estimation of a payload's 10 inertial parameters, with a change
/// detector for grasps and releases: the recursive counterpart of PayloadIdentification.
///
/// Measurement model (as PayloadIdentification: Atkeson, An & Hollerbach, IJRR 5(3), 1986):
///
///     b_t = tau_t - rnea_known(q_t, qd_t, qdd_t) = Y_k(q_t, qd_t, qdd_t) phi_t + e_t,
///     e_t ~ N(0, diag(sigma_i^2)),
///
/// Y_k the regressor of the payload's link k (rows 0..k; the joints after k feel nothing) and
/// phi = (m, m c, I_O) the payload's parameters about link k's origin.
///
/// Estimator: a Kalman filter on phi with a random-walk model phi_t = phi_{t-1} + w_t,
/// w_t ~ N(0, Q), Q = diag(process_std^2) (Ljung, "System Identification", 2nd ed., 1999,
/// sec. 11.2 and 11.6: tracking time-varying parameters; Kalman 1960). Why this rather than
/// recursive least squares with a forgetting factor lambda (Ljung & Soederstroem, "Theory and
/// Practice of Recursive Identification", 1983; used for payloads e.g. by Kubus, Kroeger & Wahl,
/// IROS 2008): RLS with forgetting divides the whole covariance by lambda at every tick, so
/// during a pause or a motion that excites only some parameters the covariance of the others
/// grows exponentially ("windup") and the estimate becomes noise-driven; the random walk adds Q,
/// a linear growth, per parameter and in its units (kg, kg m, kg m^2), so the rate at which
/// each parameter may change is stated where it belongs. With Q = 0 the filter is exactly
/// recursive least squares with the prior as regularisation (no forgetting): the noise-free
/// test converges to the truth to 1e-10.
///
/// Per tick: P += Q, then the k + 1 rows are processed one at a time (sequential scalar
/// updates, valid because the noise covariance is diagonal; Bierman, "Factorization Methods
/// for Discrete Sequential Estimation", 1977, ch. II):
///     s = y P y^T + sigma_i^2,  nu = b_i - y phi,  K = P y^T / s,
///     phi += K nu,  P -= s K K^T   (symmetric by construction),
/// O(100 (k + 1)) on top of one link regressor (whose RNEA pass also gives the known torques):
/// O(n) per tick, noexcept, no allocation.
///
/// Change detection: the normalised innovation squared of the tick, NIS_t = sum_i nu_i^2 / s_i
/// (the sequential terms add up to nu^T S^-1 nu of the joint update), is chi-square with k + 1
/// degrees of freedom while the model holds (Bar-Shalom, Li & Kirubarajan, "Estimation with
/// Applications to Tracking and Navigation", 2001, sec. 5.4). A one-sided CUSUM (Page,
/// Biometrika 41, 1954) accumulates its excess, g_t = max(0, g_{t-1} + NIS_t - (k + 1) - drift);
/// g_t > threshold signals a change (an object grasped or released, a tool changed), and the
/// covariance is reset to the prior's so that the estimate re-converges in a few ticks instead
/// of at the random walk's pace. The sigma_i must be the torque noise's real standard
/// deviations (including what the known model gets wrong): too small, and the detector fires on
/// model error.
///
/// Innovation gate: a tick whose NIS exceeds the chi-square quantile with k + 1 degrees of
/// freedom at the tail probability of `innovation_gate` normal standard deviations (6: ~1e-9;
/// the Wilson-Hilferty approximation, Johnson, Kotz & Balakrishnan, "Continuous Univariate
/// Distributions", vol. 1, 2nd ed., 1994, eq. 18.24) is an outlier: rejected (accepted false,
/// outlier true, counted by rejected()), it changes neither the estimate nor its covariance. It
/// enters the CUSUM at the gate's value, so a lasting change (a grasp: every tick above the
/// gate) still fires within a few ticks, and the tick that fires is then taken with the reset
/// covariance; one wild sample (a finite 1e300 torque) moves nothing. With change detection
/// off, a lasting change stays rejected: turn the gate off too (innovation_gate = 0) when the
/// payload may change without the CUSUM.
///
/// Physical consistency: the estimate is reported, not projected: estimate().physical says
/// whether m > 0 and the inertia about the centre of mass is a valid rigid-body inertia
/// (positive semi-definite, triangle inequality), the checks of set_payload.
#pragma once

#include "chaindyn/algorithms/rnea.hpp"
#include "chaindyn/identification/regressor.hpp"
#include "chaindyn/model/chain.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>
#include <type_traits>

namespace chaindyn {

/// The settings of an OnlinePayloadEstimator. Parameter vectors are in the order of
/// inertial_parameters: m (kg), m c (kg m), I about the link-frame origin xx xy xz yy yz zz
/// (kg m^2).
template <typename Model>
struct OnlinePayloadOptions {
  using Scalar = typename Model::Scalar;
  using Vector = typename Model::Vector;
  using Parameters = Eigen::Matrix<Scalar, kInertialParametersPerLink, 1>;

  static Vector default_torque_std() {
    if constexpr (Model::nq == Eigen::Dynamic) {
      return Vector();
    } else {
      return Vector::Constant(Scalar(0.1));
    }
  }

  /// Standard deviation of each joint's torque noise (N m or N): measurement noise plus what
  /// the known model gets wrong. Default 0.1 for every joint.
  /// (For a ChainX, empty by default: 0.1 for every joint of the model given to the estimator.)
  Vector torque_std = default_torque_std();
  /// Standard deviation of the prior (the payload before the first tick): how far the truth
  /// may be from it. Default 10 kg, 1 kg m, 0.1 kg m^2.
  Parameters prior_std = (Parameters() << 10, 1, 1, 1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1).finished();
  /// Standard deviation of each parameter's change per tick (the random walk; 0: constant
  /// parameters, which makes the filter recursive least squares). Default 1e-4 kg, 1e-5 kg m,
  /// 1e-6 kg m^2 per tick.
  Parameters process_std =
      (Parameters() << 1e-4, 1e-5, 1e-5, 1e-5, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6).finished();
  /// CUSUM threshold h on the accumulated excess of the normalised innovation (dimensionless;
  /// 0 or infinity: no change detection) and its drift allowance per tick. The defaults fire
  /// within a few ticks of a change of a few times the torque noise and about once per 10^6
  /// ticks on the noise alone (chi-square tails with k + 1 <= 7 degrees of freedom).
  Scalar change_threshold = Scalar(50);
  Scalar change_drift = Scalar(5);
  /// The innovation gate in normal standard deviations (see the file comment; 0 or infinity:
  /// no gate). Default 6: a sample that follows the model is rejected about once per 10^9.
  Scalar innovation_gate = Scalar(6);
};

/// What one tick of OnlinePayloadEstimator::update did.
template <typename Scalar>
struct OnlinePayloadUpdate {
  bool accepted = false;  ///< false: a number was not finite, or an outlier; nothing changed
  bool outlier = false;   ///< the innovation gate rejected the sample (nis above the gate)
  bool change_detected = false;  ///< the CUSUM fired at this tick; the covariance was reset
  int degrees_of_freedom = 0;    ///< k + 1, the equations of the tick
  Scalar nis = Scalar(0);        ///< normalised innovation squared of the tick (before it)
  Scalar cusum = Scalar(0);      ///< the CUSUM statistic after the tick
};

/// The current estimate of an OnlinePayloadEstimator.
template <typename Scalar>
struct OnlinePayloadEstimate {
  using Parameters = Eigen::Matrix<Scalar, kInertialParametersPerLink, 1>;
  Parameters parameters = Parameters::Zero();          ///< phi: m, m c, I_O (link-frame origin)
  Parameters standard_deviation = Parameters::Zero();  ///< sqrt(diag(P))
  /// m > 0 and the inertia about the centre of mass is a valid rigid-body inertia; when false,
  /// `payload` holds the numbers anyway (centre of mass and inertia zero if m <= 0).
  bool physical = false;
  Payload<Scalar> payload;  ///< m, c = (m c) / m, I_C by the parallel-axis theorem
};

/// Estimates the payload on link `link` of a known model while the robot runs, one sample per
/// control tick (see the file comment for the method).
///
///     OnlinePayloadEstimator<Arm> estimator(arm, 6);            // payload on the flange
///     // each tick, with q, qd, qdd (filtered) and the measured tau:
///     const auto u = estimator.update(q, qd, qdd, tau);         // noexcept, no allocation
///     if (u.change_detected) { ... }                            // grasp or release
///     model_for_control.set_payload(6, estimator.estimate().payload);
///
/// The constructor allocates the workspace (Data); update, estimate and reset allocate
/// nothing.
template <typename Model>
class OnlinePayloadEstimator {
 public:
  using Scalar = typename Model::Scalar;
  using Vector = typename Model::Vector;
  using Options = OnlinePayloadOptions<Model>;
  using Parameters = typename Options::Parameters;
  using Covariance =
      Eigen::Matrix<Scalar, kInertialParametersPerLink, kInertialParametersPerLink>;
  static_assert(std::is_floating_point_v<Scalar>,
                "OnlinePayloadEstimator needs a floating-point scalar");

  /// The default link: the last one (the flange).
  static constexpr std::size_t last_link = std::size_t(-1);

  /// `known`: the robot as modelled without the payload; `link`: the payload's link (default
  /// the last). Throws IndexError for a bad link, ArgumentError for options that are not
  /// finite and positive (torque_std, prior_std > 0; process_std, thresholds >= 0).
  explicit OnlinePayloadEstimator(const Model& known, std::size_t link = last_link,
                                  const Options& options = Options())
      : model_(known),
        link_(link == last_link ? detail::joint_count(known) - 1 : link),
        options_(options),
        data_(std::make_unique<Data<Model>>(known)),
        y_(Eigen::Index(detail::joint_count(known)), Eigen::Index(kInertialParametersPerLink)),
        b_(Vector::Zero(Eigen::Index(detail::joint_count(known)))) {
    detail::check_index(link_, detail::joint_count(known));
    const auto n = Eigen::Index(detail::joint_count(known));
    if (options_.torque_std.size() == 0) options_.torque_std = Vector::Constant(n, Scalar(0.1));
    if (options_.torque_std.size() != n) {
      detail::throw_error<ArgumentError>("OnlinePayloadEstimator: torque_std has ",
                                         options_.torque_std.size(), " entries; the model has ",
                                         n, " joints");
    }
    const auto positive = [](const auto& v) { return v.allFinite() && (v.array() > 0).all(); };
    const auto non_negative = [](const auto& v) {
      return v.allFinite() && (v.array() >= 0).all();
    };
    const char* f = "OnlinePayloadEstimator";
    if (!positive(options_.torque_std)) {
      detail::throw_error<ArgumentError>(f, ": torque_std must be finite and > 0 for every "
                                            "joint");
    }
    if (!positive(options.prior_std)) {
      detail::throw_error<ArgumentError>(f, ": prior_std must be finite and > 0");
    }
    if (!non_negative(options.process_std)) {
      detail::throw_error<ArgumentError>(f, ": process_std must be finite and >= 0");
    }
    if (!(options.change_threshold >= 0) || !(options.change_drift >= 0)) {
      detail::throw_error<ArgumentError>(f, ": change_threshold and change_drift must be >= 0");
    }
    if (!(options.innovation_gate >= 0)) {
      detail::throw_error<ArgumentError>(f, ": innovation_gate must be >= 0 (0: no gate), got ",
                                         options.innovation_gate);
    }
    const Scalar z = options.innovation_gate;
    if (z > Scalar(0) && std::isfinite(z)) {
      // chi-square quantile, Wilson-Hilferty: k (1 - 2/(9k) + z sqrt(2/(9k)))^3
      const Scalar k = Scalar(link_ + 1), a = Scalar(2) / (Scalar(9) * k);
      const Scalar c = Scalar(1) - a + z * std::sqrt(a);
      gate_ = k * c * c * c;
    }
    reset();
  }

  /// One tick: the sample (q, qd, qdd, tau) with the payload attached; fixed-size vectors of
  /// the model's size (as the in-place algorithms). A sample with a number that is not finite
  /// is refused (accepted = false) and changes nothing. On a ChainX a vector of another size
  /// throws ArgumentError (so only a compile-time chain's update is noexcept).
  template <typename Q, typename Qd, typename Qdd, typename Tau>
  OnlinePayloadUpdate<Scalar> update(const Eigen::MatrixBase<Q>& q_in,
                                     const Eigen::MatrixBase<Qd>& qd_in,
                                     const Eigen::MatrixBase<Qdd>& qdd_in,
                                     const Eigen::MatrixBase<Tau>& tau_in)
      noexcept(!detail::checks_sizes<Model>) {
    static_assert(detail::fixed_joint_vectors<Model, Q, Qd, Qdd, Tau>,
                  CHAINDYN_FIXED_SIZE_MESSAGE);
    if constexpr (detail::checks_sizes<Model>) {
      detail::check_named_sizes("OnlinePayloadEstimator::update", model_, "q", q_in, "qd", qd_in,
                                "qdd", qdd_in, "tau", tau_in);
    }
    const auto& q = detail::as_joint_vector<Model>(q_in.derived());
    const auto& qd = detail::as_joint_vector<Model>(qd_in.derived());
    const auto& qdd = detail::as_joint_vector<Model>(qdd_in.derived());
    const auto& tau = detail::as_joint_vector<Model>(tau_in.derived());
    OnlinePayloadUpdate<Scalar> out;
    const int rows = int(link_) + 1;
    out.degrees_of_freedom = rows;
    if (!(q.allFinite() && qd.allFinite() && qdd.allFinite() && tau.allFinite())) {
      out.cusum = cusum_;
      return out;
    }
    Data<Model>& data = *data_;
    // One RNEA: link_regressor's pass leaves the known rigid-body torques in data.tau; adding
    // the joints' friction and armature as rnea does gives rnea(known) exactly.
    link_regressor(model_, data, q, qd, qdd, link_, y_);
    Vector& b = b_;  // what the known model does not explain
    for (Eigen::Index k = 0; k < b.size(); ++k) {
      b[k] = tau[k] - (data.tau[k] + (joint_friction(model_, std::size_t(k), qd[k]) +
                                      model_.armature()[k] * qdd[k]));
    }
    // The update on copies (fixed size, on the stack): committed unless the gate rejects it.
    Parameters phi = phi_;
    Covariance p = p_;
    const Scalar nis = correct(rows, phi, p);
    out.nis = nis;
    const bool outlier = !(nis <= gate_);  // a NaN innovation is an outlier too
    // Change test: one-sided CUSUM on the excess of NIS (at most the gate) over its mean (k + 1).
    if (options_.change_threshold > Scalar(0) && std::isfinite(options_.change_threshold)) {
      const Scalar counted = outlier ? gate_ : nis;
      cusum_ = std::max(Scalar(0), cusum_ + counted - Scalar(rows) - options_.change_drift);
      if (cusum_ > options_.change_threshold) {
        out.change_detected = true;
        ++changes_;
        cusum_ = Scalar(0);
        // re-open the estimate; keep phi as the starting point
        if (outlier) {
          phi = phi_;
          p = prior_covariance();
          correct(rows, phi, p);  // the tick that fired, against the reset covariance
        } else {
          p = prior_covariance();
        }
        phi_ = phi;
        p_ = p;
        out.accepted = true;
        out.cusum = cusum_;
        ++ticks_;
        return out;
      }
    }
    out.cusum = cusum_;
    if (outlier) {
      out.outlier = true;
      ++rejected_;
      return out;
    }
    phi_ = phi;
    p_ = p;
    out.accepted = true;
    ++ticks_;
    return out;
  }

  /// Back to the prior: phi = `prior` (default: no payload), P = diag(prior_std^2), the CUSUM
  /// at zero. Call it when the controller knows the object was released or exchanged.
  void reset(const Parameters& prior = Parameters::Zero()) noexcept {
    phi_ = prior;
    p_ = prior_covariance();
    cusum_ = Scalar(0);
  }

  /// The current estimate with its standard deviations and the physical-consistency report.
  OnlinePayloadEstimate<Scalar> estimate() const noexcept {
    OnlinePayloadEstimate<Scalar> out;
    out.parameters = phi_;
    out.standard_deviation = p_.diagonal().cwiseMax(Scalar(0)).cwiseSqrt();
    const Scalar m = phi_[0];
    out.payload.mass = m;
    if (!(m > Scalar(0))) {
      out.payload.com.setZero();
      out.payload.inertia.setZero();
      out.physical = false;
      return out;
    }
    const Vector3<Scalar> c = phi_.template segment<3>(1) / m;
    Matrix3<Scalar> io;
    io << phi_[4], phi_[5], phi_[6], phi_[5], phi_[7], phi_[8], phi_[6], phi_[8], phi_[9];
    // I_C = I_O - m (|c|^2 1 - c c^T)                                         RBDA eq. (2.63)
    out.payload.com = c;
    out.payload.inertia =
        io - m * (c.squaredNorm() * Matrix3<Scalar>::Identity() - c * c.transpose());
    // Principal moments: >= 0 and each at most the sum of the other two (a tolerance of a few
    // ulps of the trace, as validate_link's).
    const Eigen::SelfAdjointEigenSolver<Matrix3<Scalar>> eig(out.payload.inertia,
                                                             Eigen::EigenvaluesOnly);
    const Vector3<Scalar> d = eig.eigenvalues();  // ascending
    const Scalar tol = Scalar(64) * std::numeric_limits<Scalar>::epsilon() *
                       std::max(Scalar(1e-12), std::abs(d.sum()));
    out.physical = eig.info() == Eigen::Success && d[0] >= -tol && d[0] + d[1] >= d[2] - tol;
    return out;
  }

  const Parameters& parameters() const noexcept { return phi_; }
  const Covariance& covariance() const noexcept { return p_; }
  std::size_t link() const noexcept { return link_; }
  std::size_t ticks() const noexcept { return ticks_; }        ///< accepted samples
  std::size_t changes() const noexcept { return changes_; }    ///< changes detected
  std::size_t rejected() const noexcept { return rejected_; }  ///< outliers the gate rejected
  /// The gate on a tick's NIS (infinity: no gate).
  Scalar gate() const noexcept { return gate_; }
  const Options& options() const noexcept { return options_; }

 private:
  /// Predict (the random walk) and correct (one scalar measurement per row, sequential
  /// processing) phi and P with the tick's regressor y_ and residual b_; returns the NIS.
  Scalar correct(int rows, Parameters& phi, Covariance& p) noexcept {
    for (int j = 0; j < kInertialParametersPerLink; ++j) {
      p(j, j) += options_.process_std[j] * options_.process_std[j];
    }
    Scalar nis(0);
    for (int i = 0; i < rows; ++i) {
      const auto y = y_.row(i);
      pyt_.noalias() = p * y.transpose();
      const Scalar sigma = options_.torque_std[i];
      const Scalar s = y.dot(pyt_) + sigma * sigma;
      const Scalar nu = b_[i] - y.dot(phi);
      nis += nu * nu / s;
      phi += pyt_ * (nu / s);
      p.noalias() -= pyt_ * (pyt_.transpose() / s);  // P - s K K^T with K = P y^T / s
    }
    return nis;
  }

  Covariance prior_covariance() const noexcept {
    return Covariance(options_.prior_std.cwiseProduct(options_.prior_std).asDiagonal());
  }

  Model model_;
  std::size_t link_;
  Options options_;
  std::unique_ptr<Data<Model>> data_;
  Eigen::Matrix<Scalar, Model::nq, kInertialParametersPerLink> y_;
  Vector b_;  ///< update's residual torques (a member: no allocation per tick)
  Parameters phi_, pyt_;
  Covariance p_;
  Scalar cusum_ = Scalar(0);
  Scalar gate_ = std::numeric_limits<Scalar>::infinity();
  std::size_t ticks_ = 0, changes_ = 0, rejected_ = 0;
};

}  // namespace chaindyn
