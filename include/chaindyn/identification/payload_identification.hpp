/// @file
/// Least-squares identification of a payload (mass, centre of mass, inertia) from measured
/// joint torques: the torque the known model does not explain is linear in the payload's 10
/// inertial parameters (Atkeson, An & Hollerbach, "Estimation of inertial parameters of
/// manipulator loads and links", IJRR 5(3), 1986; Khalil & Dombre, "Modeling, identification
/// and control of robots", 2002, ch. 12).
#pragma once

#include "chaindyn/identification/regressor.hpp"
#include "chaindyn/algorithms/rnea.hpp"
#include "chaindyn/model/chain.hpp"

#include <Eigen/SVD>

#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace chaindyn {

/// What PayloadIdentification::estimate found.
enum class PayloadFitStatus {
  ok,                 ///< full rank, physically consistent: `payload` is set
  too_few_equations,  ///< fewer scalar equations than the 10 unknowns
  rank_deficient,     ///< the samples do not excite every parameter (see `rank`)
  not_physical,       ///< full rank, but m <= 0 or the inertia about the centre of mass is not
                      ///< a valid rigid-body inertia (not PSD or breaks the triangle inequality)
};

namespace detail {

/// Folds one row w = [a | b] into the upper-triangular factor R of a least-squares system
/// [A b], by Givens rotations of w against R's rows (Golub & Van Loan, "Matrix Computations",
/// 4th ed., sec. 5.1.8 and 6.5.4; Lawson & Hanson, "Solving Least Squares Problems", 1974,
/// ch. 27): afterwards R is the factor of [A b] with w appended. R(K-1, K-1) accumulates the
/// residual norm. O(K^2), no allocation (K fixed, or Eigen::Dynamic: then R is K x K and w
/// has K entries, as RobotIdentification uses it).
template <typename Scalar, int K, typename Row>
void givens_fold(Eigen::Matrix<Scalar, K, K>& R, Row w) noexcept {
  const Eigen::Index size = R.cols();
  for (Eigen::Index j = 0; j < size; ++j) {
    if (w[j] == Scalar(0)) continue;
    const Scalar rr = std::hypot(R(j, j), w[j]);
    const Scalar c = R(j, j) / rr, s = w[j] / rr;
    for (Eigen::Index k = j; k < size; ++k) {
      const Scalar top = R(j, k), bottom = w[k];
      R(j, k) = c * top + s * bottom;
      w[k] = c * bottom - s * top;
    }
  }
}

}  // namespace detail

/// The result of a payload identification, with its diagnostics.
template <typename Scalar>
struct PayloadEstimate {
  PayloadFitStatus status = PayloadFitStatus::too_few_equations;
  /// The payload (mass, centre of mass in the link frame, inertia about the centre of mass in
  /// link axes): set only when status == ok, so a failed fit cannot be used by mistake. In the
  /// USER's link frame, as set_payload takes it (the URDF's for a URDF-built chain:
  /// Chain::link_frame, docs/kinematics.md "Frames").
  std::optional<Payload<Scalar>> payload;
  /// The least-squares parameters in the order of inertial_parameters (m, m c, I about the
  /// LINK-FRAME ORIGIN: xx xy xz yy yz zz), in the chain's INTERNAL link frame (the
  /// regressor's; the user's unless a builder turned it, see Chain::link_frame). With
  /// rank < 10 the minimum-norm solution in the column-scaled parameters (only the excited
  /// combinations are meaningful); zero when there are too few equations.
  Eigen::Matrix<Scalar, kInertialParametersPerLink, 1> parameters =
      Eigen::Matrix<Scalar, kInertialParametersPerLink, 1>::Zero();
  /// One standard deviation of each parameter, sigma sqrt(diag((A^T A)^-1)) with sigma^2 =
  /// |residual|^2 / (equations - 10): the scatter the torque noise causes, assuming it is white
  /// and the model exact. Set when rank == 10 and equations > 10, else zero.
  Eigen::Matrix<Scalar, kInertialParametersPerLink, 1> standard_deviation =
      Eigen::Matrix<Scalar, kInertialParametersPerLink, 1>::Zero();
  Scalar residual_rms = Scalar(0);  ///< sqrt(|A pi - b|^2 / equations), N m (or N)
  /// sigma_max / sigma_min of the stacked regressor with unit-norm columns (infinite when a
  /// column is zero); large values mean poor excitation and noise-sensitive parameters.
  Scalar condition_number = Scalar(0);
  int rank = 0;                ///< numerical rank of the column-scaled stacked regressor
  std::size_t samples = 0;     ///< samples added
  std::size_t equations = 0;   ///< scalar equations: samples x (joints up to the payload's link)
  std::string message;         ///< what went wrong, in words (empty when ok)

  bool ok() const noexcept { return status == PayloadFitStatus::ok; }
};

/// Identifies a rigid payload on one link of a known model from samples (q, qd, qdd, tau)
/// of a motion with the payload attached.
///
/// Model of the measurement (Atkeson et al. 1986; Khalil & Dombre ch. 12):
///
///     b_t = tau_t - rnea_known(q_t, qd_t, qdd_t) = Y_k(q_t, qd_t, qdd_t) phi + e_t
///
/// `rnea_known` is the model given to the constructor, joint friction and armature included
/// (whatever it carries, payloads too, is "known"; phi is what comes on top), Y_k the N x 10
/// regressor of link k (link_regressor) and phi = (m, m c, I_O) the payload's parameters about
/// link k's origin. Stacking the samples gives the overdetermined system A phi = b, solved in
/// the least-squares sense:
///
/// - Accumulation (add_sample) by sequential orthogonal triangularization: the 11 x 11
///   triangular factor R_aug of [A b] is kept and each sample's rows are folded in by Givens
///   rotations (detail::givens_fold; Lawson & Hanson, "Solving Least Squares Problems", 1974,
///   ch. 27; Golub & Van Loan, "Matrix Computations", 4th ed., sec. 6.5). Memory is constant
///   whatever the number of samples, A^T A is never formed (its condition number would be the
///   square of A's), and R_aug = [R z; 0 rho] gives |A phi - b| = |rho| directly.
/// - Solution (estimate): with D = diag(|column j of R|) (= |column j of A|), the SVD of the
///   column-scaled factor R D^-1 = U S V^T gives the condition number s_1 / s_10, the
///   numerical rank (s_i > rank_tolerance s_1) and phi = D^-1 V S^-1 U^T z.
/// - Standard deviations (as in Khalil & Dombre ch. 12): cov(phi) = sigma^2 (A^T A)^-1 =
///   sigma^2 D^-1 V S^-2 V^T D^-1, sigma^2 = |rho|^2 / (equations - 10).
/// - From parameters to payload: m = phi_0, c = (m c) / m, and the inertia about the centre
///   of mass by the parallel-axis theorem I_C = I_O - m (|c|^2 1 - c c^T) (RBDA eq. 2.63).
///   The result is refused (status not_physical) when m <= 0 or I_C is not a valid rigid-body
///   inertia by the checks of set_payload.
///
/// The samples' joints after link k give no equation (their rows of Y_k are zero). Only the
/// torque is taken as noisy: q, qd, qdd enter the regressor as exact.
///
/// Allocation: the constructor copies the model (link names), estimate() may build a message
/// string; add_sample allocates nothing (fixed-size Givens update). This is not a hot-loop
/// algorithm; neither member is noexcept.
template <typename Model>
class PayloadIdentification {
 public:
  using Scalar = typename Model::Scalar;
  using Vector = typename Model::Vector;
  using Parameters = Eigen::Matrix<Scalar, kInertialParametersPerLink, 1>;
  using Matrix10 = Eigen::Matrix<Scalar, kInertialParametersPerLink, kInertialParametersPerLink>;
  static_assert(std::is_floating_point_v<Scalar>,
                "PayloadIdentification needs a floating-point scalar (float, double, long double)");

  /// `known`: the robot as modelled without the payload to identify; `link`: the 0-based
  /// index of the link that carries the payload (default: the last, the flange). Throws
  /// IndexError when `link` is out of range.
  explicit PayloadIdentification(const Model& known, std::size_t link = last_link)
      : model_(known),
        link_(link == last_link ? detail::joint_count(known) - 1 : link),
        data_(known),
        b_(Vector::Zero(Eigen::Index(detail::joint_count(known)))),
        yk_(RegressorBlock::Zero(Eigen::Index(detail::joint_count(known)),
                                 kInertialParametersPerLink)) {
    detail::check_index(link_, detail::joint_count(known));
    reset();
  }

  /// The default link: the last one (the flange).
  static constexpr std::size_t last_link = std::size_t(-1);

  /// Adds one sample: joint positions, velocities, accelerations and the measured torques with
  /// the payload attached (any Eigen vectors of the model's size). Throws ArgumentError (a
  /// std::invalid_argument) when a size is wrong or a number is not finite.
  template <typename Q, typename Qd, typename Qdd, typename Tau>
  void add_sample(const Eigen::MatrixBase<Q>& q_in, const Eigen::MatrixBase<Qd>& qd_in,
                  const Eigen::MatrixBase<Qdd>& qdd_in, const Eigen::MatrixBase<Tau>& tau_in) {
    const char* const f = "PayloadIdentification::add_sample";
    const auto& q = detail::checked_joint_vector(model_, q_in, f, "q");
    const auto& qd = detail::checked_joint_vector(model_, qd_in, f, "qd");
    const auto& qdd = detail::checked_joint_vector(model_, qdd_in, f, "qdd");
    const auto& tau = detail::checked_joint_vector(model_, tau_in, f, "tau");
    if (!(q.allFinite() && qd.allFinite() && qdd.allFinite() && tau.allFinite())) {
      detail::throw_error<ArgumentError>("PayloadIdentification::add_sample: sample ", samples_,
                                         " has a number that is not finite");
    }
    rnea(model_, data_, q, qd, qdd);
    Vector& b = b_;
    b = tau - data_.tau;
    RegressorBlock& yk = yk_;
    link_regressor(model_, data_, q, qd, qdd, link_, yk);
    for (Eigen::Index i = 0; i <= Eigen::Index(link_); ++i) {  // rows after link_ are zero
      Eigen::Matrix<Scalar, 1, kAug> w;
      w << yk.row(i), b[i];
      detail::givens_fold(r_, w);
    }
    ++samples_;
  }

  /// Forgets every sample.
  void reset() noexcept {
    r_.setZero();
    samples_ = 0;
  }

  std::size_t samples() const noexcept { return samples_; }
  std::size_t link() const noexcept { return link_; }
  const Model& model() const noexcept { return model_; }

  /// The least-squares payload of the samples so far, with diagnostics (see PayloadEstimate).
  /// `rank_tolerance`: singular values of the column-scaled regressor below rank_tolerance
  /// times the largest count as zero (default sqrt(machine epsilon), 1.5e-8 for double).
  /// Never throws on bad data: the status and message say what is wrong.
  PayloadEstimate<Scalar> estimate(
      Scalar rank_tolerance = std::sqrt(std::numeric_limits<Scalar>::epsilon())) const {
    constexpr int np = kInertialParametersPerLink;
    PayloadEstimate<Scalar> out;
    out.samples = samples_;
    out.equations = samples_ * (link_ + 1);
    if (out.equations < std::size_t(np)) {
      out.status = PayloadFitStatus::too_few_equations;
      out.condition_number = std::numeric_limits<Scalar>::infinity();
      std::ostringstream os;
      os << out.samples << " samples give " << out.equations << " equations for the " << np
         << " unknowns of the payload on link " << link_;
      out.message = os.str();
      return out;
    }

    const Matrix10 r = r_.template topLeftCorner<np, np>();
    const Parameters z = r_.template topRightCorner<np, 1>();
    const Scalar rho = r_(np, np);

    // column scaling D: unit-norm columns of A (zero columns stay zero, scale 1)
    Parameters scale;
    std::ostringstream unexcited;
    for (int j = 0; j < np; ++j) {
      const Scalar n = r.col(j).norm();
      scale[j] = n > Scalar(0) ? n : Scalar(1);
      if (!(n > Scalar(0))) unexcited << ' ' << parameter_name(j);
    }
    const Matrix10 scaled = r * scale.cwiseInverse().asDiagonal();
    const Eigen::JacobiSVD<Matrix10> svd(scaled, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Parameters s = svd.singularValues();
    out.condition_number =
        s[np - 1] > Scalar(0) ? s[0] / s[np - 1] : std::numeric_limits<Scalar>::infinity();
    out.rank = 0;
    for (int i = 0; i < np; ++i) {
      if (s[i] > rank_tolerance * s[0]) ++out.rank;
    }

    // phi = D^-1 V S^-1 U^T z over the first `rank` singular values; the dropped directions'
    // components of U^T z add to the residual
    const Parameters utz = svd.matrixU().transpose() * z;
    Parameters y = Parameters::Zero();
    Scalar rss = rho * rho;
    for (int i = 0; i < np; ++i) {
      if (i < out.rank) {
        y += svd.matrixV().col(i) * (utz[i] / s[i]);
      } else {
        rss += utz[i] * utz[i];
      }
    }
    out.parameters = y.cwiseQuotient(scale);
    out.residual_rms = std::sqrt(rss / Scalar(out.equations));

    if (out.rank < np) {
      out.status = PayloadFitStatus::rank_deficient;
      std::ostringstream os;
      os << "the samples excite " << out.rank << " of the " << np
         << " parameter combinations of the payload on link " << link_
         << " (column-scaled condition number " << out.condition_number << ")";
      if (!unexcited.str().empty()) os << "; no torque depends on" << unexcited.str();
      os << ": use a motion with more varied orientations, velocities and accelerations";
      out.message = os.str();
      return out;
    }

    if (out.equations > std::size_t(np)) {
      const Scalar sigma = std::sqrt(rss / Scalar(out.equations - np));
      const Matrix10 vs = svd.matrixV() * s.cwiseInverse().asDiagonal();
      for (int j = 0; j < np; ++j) {
        out.standard_deviation[j] = sigma * vs.row(j).norm() / scale[j];
      }
    }

    out.status = PayloadFitStatus::not_physical;
    const Parameters& phi = out.parameters;
    const Scalar m = phi[0];
    if (!(m > Scalar(0))) {
      std::ostringstream os;
      os << "the identified mass is not positive (" << m << " kg)";
      out.message = os.str();
      return out;
    }
    Payload<Scalar> p;
    p.mass = m;
    p.com = phi.template segment<3>(1) / m;
    Matrix3<Scalar> io;
    io << phi[4], phi[5], phi[6], phi[5], phi[7], phi[8], phi[6], phi[8], phi[9];
    // I_C = I_O - m (|c|^2 1 - c c^T)                                       RBDA eq. (2.63)
    p.inertia = io - m * (p.com.squaredNorm() * Matrix3<Scalar>::Identity() -
                          p.com * p.com.transpose());
    try {
      detail::validate_payload(p, [&] {
        std::ostringstream os;
        os << "identified payload of link " << link_;
        return os.str();
      });
    } catch (const ModelError& e) {
      out.message = e.what();
      return out;
    }
    out.status = PayloadFitStatus::ok;
    out.payload = model_.payload_in_user_frame(link_, p);  // what set_payload takes
    return out;
  }

  /// Mass and centre of mass only, with the payload's rotational inertia about its centre of
  /// mass taken as known (`inertia_about_com`, in the user's link axes; default zero, a point
  /// mass): the fit to use when the samples cannot resolve the inertia, which is the rule for small objects
  /// (the inertia's torques are proportional to angular accelerations and are easily below
  /// the torque noise; the 10-parameter estimate then comes out not_physical or with standard
  /// deviations as large as the inertia itself).
  ///
  /// Unknowns theta = (m, h = m c); the parameters are phi(theta) = (m, h, I_C + (|h|^2 1 -
  /// h h^T) / m), nonlinear in theta through the parallel-axis term. Minimizes
  /// |A phi(theta) - b|^2 = |R phi(theta) - z|^2 + rho^2 (the accumulated factor holds all
  /// the data) by Gauss-Newton from the linear solution with the parallel-axis term dropped;
  /// each step is solved by the SVD of the column-scaled Jacobian R dphi/dtheta (10 x 4,
  /// triangularized first).
  /// `parameters` holds phi(theta); `standard_deviation` the four of m, h (the inertia
  /// entries zero); `rank` and `condition_number` are those of the 10 x 4 Jacobian.
  /// Throws ModelError when `inertia_about_com` is not a valid inertia.
  PayloadEstimate<Scalar> estimate_mass_and_com(
      const Matrix3<Scalar>& inertia_about_com = Matrix3<Scalar>::Zero(),
      Scalar rank_tolerance = std::sqrt(std::numeric_limits<Scalar>::epsilon())) const {
    constexpr int np = kInertialParametersPerLink;
    using Theta = Eigen::Matrix<Scalar, 4, 1>;
    using Jacobian = Eigen::Matrix<Scalar, np, 4>;
    {
      Payload<Scalar> prior;
      prior.mass = Scalar(1);
      prior.inertia = inertia_about_com;
      detail::validate_payload(prior, [] { return std::string("inertia_about_com"); });
    }
    // the given inertia (user's link axes) in the internal link axes the regressor uses
    const Matrix3<Scalar> ic = [&] {
      Payload<Scalar> given;
      given.mass = Scalar(1);
      given.inertia = inertia_about_com;
      return model_.payload_in_internal_frame(link_, given).inertia;
    }();
    PayloadEstimate<Scalar> out;
    out.samples = samples_;
    out.equations = samples_ * (link_ + 1);
    if (out.equations < 4) {
      out.status = PayloadFitStatus::too_few_equations;
      out.condition_number = std::numeric_limits<Scalar>::infinity();
      std::ostringstream os;
      os << out.samples << " samples give " << out.equations
         << " equations for the 4 unknowns (mass, first moment) of the payload on link " << link_;
      out.message = os.str();
      return out;
    }
    const Matrix10 r = r_.template topLeftCorner<np, np>();
    const Parameters z = r_.template topRightCorner<np, 1>();
    const Scalar rho = r_(np, np);
    const auto inertia_entries = [](const Matrix3<Scalar>& i) {
      Eigen::Matrix<Scalar, 6, 1> e;
      e << i(0, 0), i(0, 1), i(0, 2), i(1, 1), i(1, 2), i(2, 2);
      return e;
    };
    // phi(theta) and dphi/dtheta
    const auto phi_of = [&](const Theta& t, Jacobian* dphi) {
      const Scalar m = t[0];
      const Vector3<Scalar> h = t.template tail<3>();
      const Matrix3<Scalar> shift = h.squaredNorm() * Matrix3<Scalar>::Identity() - h * h.transpose();
      Parameters phi;
      phi << m, h, inertia_entries(ic + shift / m);
      if (dphi) {
        dphi->setZero();
        dphi->template topLeftCorner<4, 4>().setIdentity();
        dphi->template block<6, 1>(4, 0) = inertia_entries(-shift / (m * m));
        for (int k = 0; k < 3; ++k) {
          // d(|h|^2 1 - h h^T)/dh_k = 2 h_k 1 - e_k h^T - h e_k^T
          Matrix3<Scalar> d = Scalar(2) * h[k] * Matrix3<Scalar>::Identity();
          d.row(k) -= h.transpose();
          d.col(k) -= h;
          dphi->template block<6, 1>(4, 1 + k) = inertia_entries(d / m);
        }
      }
      return phi;
    };
    // Least-squares step min |J delta + res|: [J res] is triangularized by Givens rotations to
    // [T t] (4 x 5), then the SVD of the column-scaled T (square: Eigen's JacobiSVD needs no
    // QR preconditioner) gives delta = -D^-1 V S^-1 U^T t, the rank and the condition number.
    const auto solve_step = [&](const Jacobian& j, const Parameters& res, Theta& delta,
                                Theta* std_unit) {
      Eigen::Matrix<Scalar, 5, 5> t5 = Eigen::Matrix<Scalar, 5, 5>::Zero();
      for (int i = 0; i < np; ++i) {
        Eigen::Matrix<Scalar, 1, 5> w;
        w << j.row(i), res[i];
        detail::givens_fold(t5, w);
      }
      using Matrix4 = Eigen::Matrix<Scalar, 4, 4>;
      const Matrix4 tri = t5.template topLeftCorner<4, 4>();
      const Theta t = t5.template topRightCorner<4, 1>();
      Theta scale;
      for (int c = 0; c < 4; ++c) {
        const Scalar n = tri.col(c).norm();
        scale[c] = n > Scalar(0) ? n : Scalar(1);
      }
      const Matrix4 scaled = tri * scale.cwiseInverse().asDiagonal();
      const Eigen::JacobiSVD<Matrix4> svd(scaled, Eigen::ComputeFullU | Eigen::ComputeFullV);
      const Theta s = svd.singularValues();
      out.condition_number =
          s[3] > Scalar(0) ? s[0] / s[3] : std::numeric_limits<Scalar>::infinity();
      out.rank = 0;
      for (int i = 0; i < 4; ++i) {
        if (s[i] > rank_tolerance * s[0]) ++out.rank;
      }
      const Theta utt = svd.matrixU().transpose() * t;
      Theta y = Theta::Zero();
      for (int i = 0; i < out.rank; ++i) y -= svd.matrixV().col(i) * (utt[i] / s[i]);
      delta = y.cwiseQuotient(scale);
      if (std_unit) {  // sqrt(diag((J^T J)^-1))
        const Matrix4 vs = svd.matrixV() * s.cwiseInverse().asDiagonal();
        for (int c = 0; c < 4; ++c) (*std_unit)[c] = vs.row(c).norm() / scale[c];
      }
    };

    // Start: the linear problem with the parallel-axis term dropped (phi_I = I_C),
    // R_(:,0..3) theta = z - R_(:,4..9) I_C.
    Theta theta;
    {
      Jacobian j0 = r.template leftCols<4>();
      Parameters phi0 = Parameters::Zero();
      phi0.template tail<6>() = inertia_entries(ic);
      solve_step(j0, Parameters(r * phi0 - z), theta, nullptr);
    }
    Jacobian j;
    Parameters phi = Parameters::Zero();
    const int max_iterations = 50;
    for (int it = 0; it < max_iterations && out.rank == 4 && theta[0] > Scalar(0); ++it) {
      phi = phi_of(theta, &j);
      Theta delta;
      solve_step(Jacobian(r * j), Parameters(r * phi - z), delta, nullptr);
      theta += delta;
      if (delta.norm() <= Scalar(64) * std::numeric_limits<Scalar>::epsilon() * theta.norm()) {
        break;
      }
    }
    if (out.rank < 4) {
      out.status = PayloadFitStatus::rank_deficient;
      std::ostringstream os;
      os << "the samples excite " << out.rank << " of the 4 combinations of mass and first "
         << "moment of the payload on link " << link_ << " (column-scaled condition number "
         << out.condition_number << "): use a motion with more varied orientations";
      out.message = os.str();
      return out;
    }
    if (!(theta[0] > Scalar(0))) {
      out.status = PayloadFitStatus::not_physical;
      out.parameters.template head<4>() = theta;
      std::ostringstream os;
      os << "the identified mass is not positive (" << theta[0] << " kg)";
      out.message = os.str();
      return out;
    }
    phi = phi_of(theta, &j);
    out.parameters = phi;
    const Scalar rss = (r * phi - z).squaredNorm() + rho * rho;
    out.residual_rms = std::sqrt(rss / Scalar(out.equations));
    Theta delta, std_unit;
    solve_step(Jacobian(r * j), Parameters(r * phi - z), delta, &std_unit);
    if (out.equations > 4) {
      out.standard_deviation.template head<4>() =
          std::sqrt(rss / Scalar(out.equations - 4)) * std_unit;
    }
    Payload<Scalar> p;
    p.mass = theta[0];
    p.com = theta.template tail<3>() / theta[0];
    p.inertia = ic;
    out.status = PayloadFitStatus::ok;
    out.payload = model_.payload_in_user_frame(link_, p);  // what set_payload takes
    return out;
  }

  /// The name of parameter j (0..9) in the order of inertial_parameters.
  static const char* parameter_name(int j) noexcept {
    constexpr const char* names[kInertialParametersPerLink] = {
        "m", "m*c_x", "m*c_y", "m*c_z", "I_xx", "I_xy", "I_xz", "I_yy", "I_yz", "I_zz"};
    return j >= 0 && j < kInertialParametersPerLink ? names[j] : "?";
  }

 private:
  static constexpr int kAug = kInertialParametersPerLink + 1;  // [A b]'s columns
  using RegressorBlock = Eigen::Matrix<Scalar, Model::nq, kInertialParametersPerLink>;

  Model model_;
  std::size_t link_;
  Data<Model> data_;
  Vector b_;          ///< add_sample's residual torques (a member: no allocation per sample)
  RegressorBlock yk_;  ///< add_sample's link regressor
  Eigen::Matrix<Scalar, kAug, kAug> r_;  ///< triangular factor of [A b]
  std::size_t samples_ = 0;
};

}  // namespace chaindyn
