// Learning against adaptation (the lecture notes' last slide; K. Hitzler, F. Meier, S. Schaal,
// T. Asfour, "Learning and Adaptation of Inverse Dynamics Models: A Comparison", Humanoids
// 2019): the iiwa's pick and place with the notes' 0.851 kg object, on a robot the rigid CAD
// model does not describe, and four inverse dynamics models used for computed-torque control:
//
//   rigid     (a) the CAD model: rnea of the iiwa with the rotors as armature;
//   adapted   (b) (a) + an online estimate of the payload (OnlinePayloadEstimator, its CUSUM
//                 for grasp and release) and of each joint's Coulomb and viscous friction
//                 (a two-parameter Kalman filter per joint with a random walk);
//   learned   (c) (a) + the residual tau - rnea_cad(q, qd, qdd) learned offline from training
//                 motions as a function of (q, qd): a sparse Gaussian process (SparseGp below);
//   both      (d) (b) + a residual learned the same way from what (b) left on the training
//                 motions (the estimators run as in (b); far from the training motions the
//                 learned part vanishes and (d) is (b)).
//
// The "true" robot: the iiwa with elastic joints (Spong's reduced model, harmonic-drive-like
// stiffness, spring damping, reflected rotor inertia; elastic_forward_dynamics), link masses
// off the CAD ones by up to 10 %, Stribeck friction on each motor (stribeck_friction, modelled
// here: the motor torque minus it drives the motor side) that grows with wear over the robot's
// session (a slow drift), and the object held from the grasp to the end of the place phase.
// Computed torque with motor-side feedback: tau_m = model(q, qd, qdd_d + Kd (qd_d - thetad) +
// Kp (q_d - theta)). Sensing is idealised so that the models are compared and not the filters
// (examples/pick_and_place_adaptive.cpp has the noisy, filtered loop): the link position and
// velocity (motor encoder minus the deflection a joint torque sensor measures) and the link
// acceleration are exact, the motor torque is measured with 0.05 N m of noise.
//
// Training: four pick-and-place motions without the object, early in the session, under the
// rigid controller. Held out: "near" (pick and place between the training ones, another speed)
// and "far" (another part of the workspace, faster), both with the object, later in the
// session. Per phase (approach, grasp, carry, place, return) and model: the RMS a priori torque
// prediction error |tau - model(q, qd, qdd)| (before the model's update with the tick), the RMS
// link tracking error |q_d - q| of computed torque with that model, and the cost per tick of
// the controller and its updates (std::chrono over a replay of recorded ticks). Checks: the
// energy of the conservative elastic plant drifts little and converges at RK4's order; every
// error is finite; the adapted model beats the rigid one while the object is held; the learned
// residual beats the rigid model near its training motions and is the rigid model far from
// them. Writes learning_vs_adaptation_near.csv and _far.csv for scripts/plot.py.
//
//   chaindyn_learning_vs_adaptation [--out DIR]
#include <chaindyn/algorithms/elastic_joints.hpp>
#include <chaindyn/algorithms/friction_models.hpp>
#include <chaindyn/algorithms/rnea.hpp>
#include <chaindyn/identification/online_payload.hpp>
#include <chaindyn/robots/kuka_iiwa.hpp>
#include <chaindyn/simulation/integrators.hpp>
#include <chaindyn/simulation/trajectories.hpp>

#include "support/notes_object.hpp"
#include "support/output.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

namespace ex = example_support;
using namespace chaindyn;
using Arm = robots::KukaIiwa<double>;
using Vector = Arm::Vector;
using State = Eigen::Matrix<double, 14, 1>;  // (q; theta) of the elastic plant

constexpr double kDt = 1e-3;        // 1 kHz control
constexpr int kSubsteps = 4;        // RK4 steps of the plant per control tick
constexpr double kTorqueStd = 0.05; // N m, motor torque measurement
constexpr double kWearPerSecond = 0.005;  // friction grows 0.5 % per second of the session
constexpr double kDwell = 0.5;      // s, at rest while the gripper closes / opens
constexpr int kPhases = 5;
const char* const kPhaseNames[kPhases] = {"approach", "grasp", "carry", "place", "return"};
constexpr int kVariants = 4;
enum Variant { rigid = 0, adapted = 1, learned = 2, both = 3 };
const char* const kVariantNames[kVariants] = {"(a) rigid CAD", "(b) adapted", "(c) learned",
                                              "(d) both"};

/// The pick and place: home -> pick (approach), at rest while the gripper closes (grasp),
/// pick -> place (carry), at rest while it opens (place), place -> home (return); quintic
/// rest-to-rest segments of `move` seconds. The object is held from the start of the grasp to
/// the end of the place phase.
struct Motion {
  Vector home, pick, place;
  double move;
  std::array<double, kPhases + 1> t{};
  Motion(const Vector& home_, const Vector& pick_, const Vector& place_, double move_)
      : home(home_), pick(pick_), place(place_), move(move_) {
    const double d[kPhases] = {move, kDwell, move, kDwell, move};
    for (int p = 0; p < kPhases; ++p) t[p + 1] = t[p] + d[p];
  }
  double end() const { return t[kPhases]; }
  int phase(double time) const {
    int p = 0;
    while (p + 1 < kPhases && time >= t[p + 1]) ++p;
    return p;
  }
  bool holding(double time) const { return time >= t[1] && time < t[4]; }
  TrajectorySample<Vector> at(double time) const {
    const int p = phase(time);
    const Vector* from[kPhases] = {&home, &pick, &pick, &place, &place};
    const Vector* to[kPhases] = {&pick, &pick, &place, &place, &home};
    const double s = std::min(time, end()) - t[p];
    return QuinticTrajectory<Vector>(*from[p], *to[p], t[p + 1] - t[p])(s);
  }
};

Vector joints(double a, double b, double c, double d, double e, double f, double g) {
  Vector v;
  v << a, b, c, d, e, f, g;
  return v;
}

/// The robot as it is: its real links, elastic joints, Stribeck friction on the motors growing
/// with wear.
struct Plant {
  Arm arm;     // the real links
  Arm loaded;  // ... holding the object
  ElasticJoints<Arm> elastic;
  std::array<StribeckParameters<double>, 7> friction;
  std::unique_ptr<ElasticData<Arm>> data;

  Plant(const Arm& real, const Vector& k, const Vector& d, const Vector& b)
      : arm(real), loaded(real), elastic(real, k, d, b),
        data(std::make_unique<ElasticData<Arm>>(real)) {
    loaded.set_payload(6, ex::notes_object());
    const double fc[7] = {2.0, 2.0, 1.5, 1.5, 0.8, 0.5, 0.5};  // N m
    for (int j = 0; j < 7; ++j) {
      friction[j].coulomb = fc[j];
      friction[j].static_friction = 1.6 * fc[j];
      friction[j].viscous = 0.5 * fc[j];  // N m s/rad
      friction[j].stribeck_velocity = 0.05;
      friction[j].regularization = 0.02;  // creep below 0.02 rad/s; smooth for RK4
      validate(friction[j]);
    }
  }
  /// (qdd; thetadd) under the motor torque tau_m at wear factor `wear`.
  State acceleration(const State& x, const State& xd, const Vector& tau_m, double wear,
                     bool holding) {
    Vector tau = tau_m;
    for (int j = 0; j < 7; ++j) tau[j] -= wear * stribeck_friction(friction[j], xd[7 + j]);
    elastic_forward_dynamics(holding ? loaded : arm, elastic, *data, x.head<7>(), xd.head<7>(),
                             x.tail<7>(), xd.tail<7>(), tau);
    State a;
    a << data->qdd, data->thetadd;
    return a;
  }
};

/// A sparse Gaussian process on a residual torque over x = (q, qd), one output per joint,
/// sharing a fixed inducing set Z of m training inputs and a squared-exponential kernel with a
/// lengthscale per input, k(x, z) = exp(-|(x - z) / l|^2 / 2). The subset-of-regressors
/// (SoR / DTC) predictive mean (J. Quinonero-Candela and C. E. Rasmussen, "A unifying view of
/// sparse approximate Gaussian process regression", JMLR 6 (2005) 1939-1959, sec. 4-5):
///
///     mu(x) = k_Z(x)^T W,   W = (sigma^2 K_ZZ + K_ZX K_XZ)^-1 K_ZX Y,
///
/// trained by rank-one updates of K_ZX K_XZ and K_ZX Y, one sample at a time (O(m^2) each, as
/// the incremental sparse GPs for inverse dynamics: D. Nguyen-Tuong, M. Seeger, J. Peters,
/// "Model learning with local Gaussian process regression", Advanced Robotics 23 (2009); A.
/// Gijsberts, G. Metta, Neural Networks 41 (2013) 59-69), then one Cholesky solve. Prediction:
/// O(m (14 + 7)) per tick with a fixed m. Far from Z, k_Z(x) -> 0 and the
/// prediction returns to the prior mean, zero: the rigid model.
class SparseGp {
 public:
  static constexpr int kInputs = 14;
  using Input = Eigen::Matrix<double, kInputs, 1>;

  /// `inducing`: m inputs (columns), `noise_over_signal`: sigma (the residual's noise over
  /// the GP's prior standard deviation).
  SparseGp(const Eigen::MatrixXd& inducing, const Input& lengthscale, double noise_over_signal)
      : z_(inducing), inverse_length_(lengthscale.cwiseInverse()),
        a_(inducing.cols(), inducing.cols()), b_(inducing.cols(), 7), w_(inducing.cols(), 7),
        k_(inducing.cols()), noise_(noise_over_signal) {
    z_ = inverse_length_.asDiagonal() * inducing;  // scaled once: k = exp(-|x' - z'|^2 / 2)
    a_.setZero();
    b_.setZero();
    w_.setZero();
  }
  static Input input(const Vector& q, const Vector& qd) {
    Input x;
    x << q, qd;
    return x;
  }
  void add(const Input& x, const Vector& residual) {
    kernel(x);
    a_.selfadjointView<Eigen::Lower>().rankUpdate(k_);
    b_.noalias() += k_ * residual.transpose();
    ++samples_;
  }
  void solve() {
    const Eigen::Index m = z_.cols();
    Eigen::MatrixXd a = a_.selfadjointView<Eigen::Lower>();
    for (Eigen::Index i = 0; i < m; ++i) {
      kernel(Input(z_.col(i).cwiseQuotient(inverse_length_)));
      a.col(i) += noise_ * noise_ * k_;
    }
    a.diagonal().array() += 1e-8 * a.diagonal().maxCoeff();  // jitter
    w_ = a.llt().solve(b_);
  }
  Vector predict(const Input& x) {
    kernel(x);
    return w_.transpose() * k_;
  }
  int samples() const { return samples_; }
  Eigen::Index size() const { return z_.cols(); }

 private:
  void kernel(const Input& x) {
    const Input xs = x.cwiseProduct(inverse_length_);
    for (Eigen::Index i = 0; i < z_.cols(); ++i) {
      k_[i] = std::exp(-0.5 * (z_.col(i) - xs).squaredNorm());
    }
  }
  Eigen::MatrixXd z_;
  Input inverse_length_;
  Eigen::MatrixXd a_, b_, w_;
  Eigen::VectorXd k_;
  double noise_;
  int samples_ = 0;
};

/// Coulomb and viscous friction per joint, tau_f = Fc tanh(qd / eps) + Fv qd, estimated online:
/// a Kalman filter per joint on (Fc, Fv) with a random walk (Ljung, "System Identification",
/// 1999, sec. 11.2), fed the joint's torque residual: O(1) per joint and tick.
struct OnlineFriction {
  static constexpr double eps = 0.02;  // rad/s, the sign's smoothing (the plant's creep)
  std::array<Eigen::Vector2d, 7> theta{};  // (Fc [N m], Fv [N m s/rad]) per joint
  std::array<Eigen::Matrix2d, 7> p{};      // their covariance; prior std 2 each
  double noise = 0.5;  // N m: what Coulomb + viscous on the rigid model leaves per joint
  double walk = 2e-4;  // per tick: slow, a wear drift, not the grasp (the payload's part)
  OnlineFriction() {
    for (int j = 0; j < 7; ++j) {
      theta[j].setZero();
      p[j] = Eigen::Vector2d(4.0, 4.0).asDiagonal();
    }
  }
  static Eigen::Vector2d regressor(double v) { return {std::tanh(v / eps), v}; }
  Vector torque(const Vector& qd) const {
    Vector f;
    for (int j = 0; j < 7; ++j) f[j] = regressor(qd[j]).dot(theta[j]);
    return f;
  }
  void update(const Vector& qd, const Vector& residual) {
    for (int j = 0; j < 7; ++j) {
      const Eigen::Vector2d y = regressor(qd[j]);
      p[j].diagonal().array() += walk * walk;
      const Eigen::Vector2d py = p[j] * y;
      const double s = y.dot(py) + noise * noise;
      const Eigen::Vector2d k = py / s;
      theta[j] += k * (residual[j] - y.dot(theta[j]));
      p[j] -= s * k * k.transpose();
    }
  }
};

/// One model variant's state: the controller's rigid model (with the attached payload), the
/// online estimators, the learned residual (read-only here: trained before the held-out runs).
struct InverseModel {
  Variant variant;
  Arm model;
  SparseGp* gp;  // (c): trained on tau - rnea_cad; (d): on what the adapted model leaves
  OnlineFriction friction;
  std::unique_ptr<OnlinePayloadEstimator<Arm>> payload;
  std::unique_ptr<Data<Arm>> data;

  InverseModel(Variant v, const Arm& cad, SparseGp* gp_)
      : variant(v), model(cad), gp(gp_), data(std::make_unique<Data<Arm>>()) {
    OnlinePayloadOptions<Arm> options;
    // What the rigid model with the estimated friction still gets wrong (the Stribeck hump,
    // the springs' dynamics, the links' CAD errors) is the estimator's "noise": ~1 N m.
    options.torque_std = Vector::Constant(1.0);
    options.prior_std.tail<6>().setConstant(0.01);  // a hand-held object's inertia, no drift
    options.process_std.tail<6>().setZero();
    options.change_drift = 10.0;
    options.change_threshold = 100.0;
    payload = std::make_unique<OnlinePayloadEstimator<Arm>>(cad, 6, options);
  }
  bool adapts() const { return variant == adapted || variant == both; }
  bool learns() const { return variant == learned || variant == both; }

  /// The model's torque for (q, qd, qdd).
  Vector torque(const Vector& q, const Vector& qd, const Vector& qdd) {
    rnea(model, *data, q, qd, qdd);
    Vector tau = data->tau;
    if (adapts()) tau += friction.torque(qd);
    if (learns()) tau += gp->predict(SparseGp::input(q, qd));
    return tau;
  }
  /// One measured tick (q, qd, qdd, tau): the online estimates' update. In (d) the estimators
  /// run exactly as in (b), on the measured torque: the learned part was trained on what they
  /// leave, and is added on top.
  void update(const Vector& q, const Vector& qd, const Vector& qdd, const Vector& tau) {
    if (!adapts()) return;
    const auto u = payload->update(q, qd, qdd, tau - friction.torque(qd));
    if (u.change_detected && model.payload(6)) model.clear_payload(6);
    // As examples/pick_and_place_adaptive.cpp: attach the estimate once the mass is known to
    // 20 g and plausible, as a point mass unless the estimate is physical.
    const auto e = payload->estimate();
    if (e.standard_deviation[0] < 0.02) {
      if (e.payload.mass > 0.05 && e.payload.com.norm() < 0.3) {
        Payload<double> p = e.payload;
        if (!e.physical) p.inertia.setZero();
        model.set_payload(6, p);
      } else if (e.payload.mass < 0.05 && model.payload(6)) {
        model.clear_payload(6);
      }
    }
    rnea(model, *data, q, qd, qdd);
    friction.update(qd, tau - data->tau);
  }
};

/// One tick's record.
struct Tick {
  Vector q, qd, qdd, tau, u;
};

struct Run {
  std::array<double, kPhases> sq_prediction{}, sq_tracking{};
  std::array<int, kPhases> count{};
  std::vector<double> t, prediction, tracking;
  std::vector<Tick> ticks;
  std::vector<Vector> residual;  // tau - rnea_cad(q, qd, qdd), for training
  double rms_prediction(int p) const { return std::sqrt(sq_prediction[p] / count[p]); }
  double rms_tracking(int p) const { return std::sqrt(sq_tracking[p] / count[p]); }
};

/// Computed torque with `m` on the plant along `motion`, from session time `session` on
/// (wear), the object held or not.
Run run(InverseModel& m, const Arm& cad, Plant& plant, const Motion& motion, double session,
        bool with_object, std::uint32_t seed) {
  const double wc = 15.0, kp = wc * wc, kd = 2 * wc;
  std::mt19937 gen(seed);
  std::normal_distribution<double> sensor(0.0, kTorqueStd);
  Data<Arm> cad_data;
  // Start at rest on the path, the springs deflected by the weight: theta = q + K^-1 g(q).
  rnea(cad, cad_data, motion.home, Vector::Zero(), Vector::Zero());
  State x, xd = State::Zero();
  x << motion.home, motion.home + cad_data.tau.cwiseQuotient(plant.elastic.stiffness);
  Run out;
  const int steps = int(std::lround(motion.end() / kDt));
  out.ticks.reserve(std::size_t(steps));
  for (int k = 0; k < steps; ++k) {
    const double t = k * kDt;
    const bool holding = with_object && motion.holding(t);
    const double wear = 1.0 + kWearPerSecond * (session + t);
    const Vector q = x.head<7>(), qd = xd.head<7>();
    const auto d = motion.at(t);
    // Feedback on the motor encoders (collocated, so the springs cannot destabilise it; at
    // this gain, link-side feedback through the springs rings up), the model at the link state.
    const Vector u = d.qdd + kd * (d.qd - xd.tail<7>()) + kp * (d.q - x.tail<7>());
    const Vector tau = m.torque(q, qd, u);
    // The tick's measured acceleration: the plant's, under this torque.
    const Vector qdd = plant.acceleration(x, xd, tau, wear, holding).head<7>();
    Vector tau_meas = tau;
    for (int j = 0; j < 7; ++j) tau_meas[j] += sensor(gen);
    const Vector predicted = m.torque(q, qd, qdd);  // a priori: before the update
    m.update(q, qd, qdd, tau_meas);
    const int p = motion.phase(t);
    const double e_pred = (tau_meas - predicted).norm(), e_track = (d.q - q).norm();
    out.sq_prediction[p] += e_pred * e_pred;
    out.sq_tracking[p] += e_track * e_track;
    ++out.count[p];
    out.t.push_back(t);
    out.prediction.push_back(e_pred);
    out.tracking.push_back(e_track);
    out.ticks.push_back({q, qd, qdd, tau_meas, u});
    rnea(cad, cad_data, q, qd, qdd);
    out.residual.push_back(tau_meas - cad_data.tau);
    for (int s = 0; s < kSubsteps; ++s) {
      rk4_step([&](double ts, const State& xs, const State& xds) {
                 return plant.acceleration(xs, xds, tau, 1.0 + kWearPerSecond * (session + ts),
                                           holding);
               },
               t + s * kDt / kSubsteps, kDt / kSubsteps, x, xd);
    }
  }
  return out;
}

/// The elastic plant without friction and spring damping, held by constant motor torques
/// tau_0 = g(q_0) and started with every spring wound 0.01 rad beyond that equilibrium: a
/// conservative system, elastic_energy - tau_0^T theta constant (Spong 1987, eq. (5) with the
/// motor's work). Returns its largest change over 1 s of RK4 with `substeps` steps per control
/// tick, relative to the energy the perturbation put in.
double energy_drift(const Plant& plant, int substeps) {
  const Arm& arm = plant.arm;
  const ElasticJoints<Arm> conservative(arm, plant.elastic.stiffness, Vector::Zero(),
                                        plant.elastic.rotor_inertia);
  ElasticData<Arm> data(arm);
  const Vector q0 = joints(0.3, 0.7, -0.2, -1.1, 0.2, 1.0, 0.4);
  rnea(arm, data.link, q0, Vector::Zero(), Vector::Zero());
  const Vector tau0 = data.link.tau;
  State x, xd = State::Zero();
  x << q0, q0 + tau0.cwiseQuotient(plant.elastic.stiffness) + Vector::Constant(0.01);
  auto energy = [&] {
    return elastic_energy(arm, conservative, data, x.head<7>(), xd.head<7>(), x.tail<7>(),
                          xd.tail<7>()) -
           tau0.dot(x.tail<7>());
  };
  const double e0 = energy();
  double worst = 0;
  const int steps = int(std::lround(1.0 / kDt)) * substeps;
  for (int k = 0; k < steps; ++k) {
    rk4_step([&](double, const State& xs, const State& xds) {
               elastic_forward_dynamics(arm, conservative, data, xs.head<7>(), xds.head<7>(),
                                        xs.tail<7>(), xds.tail<7>(), tau0);
               State a;
               a << data.qdd, data.thetadd;
               return a;
             },
             k * kDt / substeps, kDt / substeps, x, xd);
    worst = std::max(worst, std::abs(energy() - e0));
  }
  const Vector e = Vector::Constant(0.01);
  return worst / (0.5 * e.dot(plant.elastic.stiffness.cwiseProduct(e)));
}

/// ns per tick of `m`'s controller and updates over the recorded ticks (best of 3 replays).
double cost_per_tick(InverseModel& m, const std::vector<Tick>& ticks) {
  double best = 1e300;
  Vector sink = Vector::Zero();
  for (int rep = 0; rep < 3; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    for (const Tick& k : ticks) {
      sink += m.torque(k.q, k.qd, k.u);
      m.update(k.q, k.qd, k.qdd, k.tau);
    }
    const auto stop = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(stop - start).count() /
                              double(ticks.size()));
  }
  if (!std::isfinite(sink.sum())) best = NAN;  // keeps the work observable
  return best;
}

int run_all(int argc, char** argv) {
  const auto dir = ex::output_directory(
      argc, argv, "Learning against adaptation: rigid, adapted, learned and both, on the "
                  "elastic iiwa's pick and place");
  ex::Checks checks;
  const Arm iiwa = robots::kuka_iiwa();
  Vector k, b;
  k << 8000, 8000, 6000, 6000, 3000, 2000, 2000;  // N m/rad
  b << 0.6, 0.6, 0.4, 0.4, 0.15, 0.1, 0.1;        // kg m^2
  const Vector d = 0.1 * (k.cwiseProduct(b)).cwiseSqrt();  // spring damping, N m s/rad
  // The CAD model the controllers start from: the rigid iiwa with the rotors as armature.
  std::array<Link<double>, 7> links = iiwa.links();
  for (std::size_t i = 0; i < 7; ++i) links[i].dynamics.armature = b[Eigen::Index(i)];
  const Arm cad(links);
  // The real links differ from the CAD ones: masses (and inertias) off by up to 10 %, two
  // centres of mass off by 1 cm (cables, motors, flanges the CAD model simplifies).
  std::array<Link<double>, 7> real_links = iiwa.links();
  const double mass_factor[7] = {1.0, 1.08, 0.94, 1.10, 0.92, 1.06, 1.0};
  for (std::size_t i = 0; i < 7; ++i) {
    real_links[i].mass *= mass_factor[i];
    real_links[i].inertia *= mass_factor[i];
  }
  real_links[1].com.x() += 0.01;
  real_links[3].com.x() += 0.01;
  Plant plant(Arm(real_links), k, d, b);

  const double drift = energy_drift(plant, kSubsteps),
               drift_half = energy_drift(plant, 2 * kSubsteps);
  std::printf("elastic iiwa: K = %g..%g N m/rad, D = %.2g..%.2g N m s/rad, B = %g..%g kg m^2; "
              "Stribeck friction on the motors, Fc = 0.5..2 N m, Fs = 1.6 Fc, growing %.1f %% "
              "per second of the session; link masses off the CAD ones by up to 10 %%\n",
              k.minCoeff(), k.maxCoeff(), d.minCoeff(), d.maxCoeff(), b.minCoeff(),
              b.maxCoeff(), 100 * kWearPerSecond);
  std::printf("conservative elastic plant, 1 s: energy drift %.2e (RK4, %g ms), %.2e (%g ms) of "
              "the perturbation's energy\n",
              drift, 1e3 * kDt / kSubsteps, drift_half, 0.5e3 * kDt / kSubsteps);
  // RK4 damps the wrist's 320 Hz link mode (2000 N m/rad on 5e-4 kg m^2) by a few per cent a
  // second at 0.25 ms; the spring damping D makes that mode overdamped in the runs anyway.
  checks.check("elastic simulation, no friction or damping, constant torque: energy drift "
               "over 1 s (relative)", drift, 0.05);
  checks.require("the energy drift converges at RK4's order (halving the step: / 16 or better)",
                 drift > 16 * drift_half);

  const Vector home = joints(0.0, 0.4, 0.0, -1.2, 0.0, 0.9, 0.0);
  const std::vector<Motion> training = {
      Motion(home, joints(0.8, 0.9, 0.2, -1.0, -0.3, 1.2, 0.5),
             joints(-0.7, 0.8, -0.3, -0.9, 0.4, 1.3, -0.6), 2.0),
      Motion(home, joints(0.6, 1.0, 0.0, -0.8, -0.2, 1.1, 0.3),
             joints(-0.5, 0.9, -0.1, -1.1, 0.2, 1.2, -0.4), 1.6),
      Motion(home, joints(1.0, 0.7, 0.3, -1.2, -0.4, 1.3, 0.7),
             joints(-0.9, 0.7, -0.4, -0.8, 0.5, 1.4, -0.8), 1.8),
      Motion(home, joints(0.7, 0.8, 0.1, -1.1, -0.1, 1.0, 0.6),
             joints(-0.6, 1.0, -0.2, -1.0, 0.3, 1.1, -0.5), 2.2)};
  const std::vector<Motion> held_out = {
      Motion(home, joints(0.75, 0.85, 0.15, -1.05, -0.25, 1.15, 0.45),
             joints(-0.65, 0.85, -0.25, -0.95, 0.35, 1.25, -0.55), 1.9),
      Motion(joints(0.3, -0.2, 0.5, 1.0, 0.0, -0.6, 0.0),
             joints(1.4, -0.5, 0.8, 1.5, 0.6, -1.0, 1.2),
             joints(0.2, -0.9, -0.5, 0.6, -0.6, -0.4, -1.0), 1.4)};
  const char* const held_out_names[] = {"near", "far"};

  // ---- Training: the rigid controller on four motions without the object. -----------------
  double session = 0;
  std::vector<Run> training_runs;
  {
    InverseModel rigid_model(rigid, cad, nullptr);
    for (std::size_t i = 0; i < training.size(); ++i) {
      training_runs.push_back(
          run(rigid_model, cad, plant, training[i], session, false, std::uint32_t(100 + i)));
      session += training[i].end();
    }
  }
  // The inducing set: 64 inputs of each training motion at even intervals. Lengthscales 1 rad
  // and 1 rad/s (chosen on the training motions' spread; no hyperparameter optimisation).
  const int per_run = 64;
  Eigen::MatrixXd inducing(SparseGp::kInputs, per_run * int(training_runs.size()));
  for (std::size_t r = 0; r < training_runs.size(); ++r) {
    const auto& ticks = training_runs[r].ticks;
    for (int i = 0; i < per_run; ++i) {
      const Tick& t = ticks[(std::size_t(i) * ticks.size()) / std::size_t(per_run)];
      inducing.col(Eigen::Index(r) * per_run + i) = SparseGp::input(t.q, t.qd);
    }
  }
  SparseGp::Input lengthscale;
  lengthscale << Vector::Constant(1.0), Vector::Constant(1.0);
  const double noise_over_signal = 0.1;  // ~0.4 N m of what no smooth function explains, of ~4
  // (c): the residual of the CAD model on every other tick.
  SparseGp gp_rigid(inducing, lengthscale, noise_over_signal);
  for (const Run& r : training_runs) {
    for (std::size_t i = 0; i < r.ticks.size(); i += 2) {
      gp_rigid.add(SparseGp::input(r.ticks[i].q, r.ticks[i].qd), r.residual[i]);
    }
  }
  gp_rigid.solve();
  // The adapted model ran along (always on): its friction estimate at the end of training is
  // where the held-out runs start from; (d) learns what it left after the first motion (its
  // a priori error, the friction estimate settled).
  SparseGp gp_adapted(inducing, lengthscale, noise_over_signal);
  InverseModel warm(adapted, cad, nullptr);
  for (std::size_t r = 0; r < training_runs.size(); ++r) {
    const auto& ticks = training_runs[r].ticks;
    for (std::size_t i = 0; i < ticks.size(); ++i) {
      const Tick& t = ticks[i];
      const Vector left = t.tau - warm.torque(t.q, t.qd, t.qdd);
      if (r > 0 && i % 2 == 0) gp_adapted.add(SparseGp::input(t.q, t.qd), left);
      warm.update(t.q, t.qd, t.qdd, t.tau);
    }
  }
  gp_adapted.solve();
  std::printf("training: %zu motions without the object, %.1f s of the session; learned "
              "residuals on %d (c) and %d (d) samples, %d inducing inputs\n",
              training.size(), session, gp_rigid.samples(), gp_adapted.samples(),
              int(gp_rigid.size()));

  // ---- Held out: each model in closed loop, with the object, later in the session. --------
  const double held_out_session = 60.0;
  std::array<std::array<Run, kVariants>, 2> runs;
  std::array<double, kVariants> cost{};
  for (std::size_t h = 0; h < held_out.size(); ++h) {
    for (int v = 0; v < kVariants; ++v) {
      SparseGp* gp = v == learned ? &gp_rigid : v == both ? &gp_adapted : nullptr;
      InverseModel m(Variant(v), cad, gp);
      m.friction = warm.friction;
      runs[h][v] = run(m, cad, plant, held_out[h], held_out_session, true, std::uint32_t(2019 + h));
      if (h == 0) {
        InverseModel timed(Variant(v), cad, gp);
        timed.friction = warm.friction;
        cost[v] = cost_per_tick(timed, runs[h][v].ticks);
      }
    }
  }

  for (std::size_t h = 0; h < held_out.size(); ++h) {
    std::printf("\nheld-out motion \"%s\" (%.1f s moves, with the object; wear %.0f-%.0f %%):\n",
                held_out_names[h], held_out[h].move, 100 * kWearPerSecond * held_out_session,
                100 * kWearPerSecond * (held_out_session + held_out[h].end()));
    std::printf("  RMS torque prediction error |tau - model(q, qd, qdd)| (N m), a priori\n");
    std::printf("  %-16s", "model");
    for (const char* p : kPhaseNames) std::printf(" %9s", p);
    std::printf("\n");
    for (int v = 0; v < kVariants; ++v) {
      std::printf("  %-16s", kVariantNames[v]);
      for (int p = 0; p < kPhases; ++p) std::printf(" %9.3f", runs[h][v].rms_prediction(p));
      std::printf("\n");
    }
    std::printf("  RMS tracking error |q_d - q| (mrad), computed torque with each model\n");
    for (int v = 0; v < kVariants; ++v) {
      std::printf("  %-16s", kVariantNames[v]);
      for (int p = 0; p < kPhases; ++p) std::printf(" %9.3f", 1e3 * runs[h][v].rms_tracking(p));
      std::printf("\n");
    }
  }
  std::printf("\ncost per tick (controller torque + the model's updates; best of 3 replays of "
              "%zu ticks):\n",
              runs[0][0].ticks.size());
  for (int v = 0; v < kVariants; ++v) std::printf("  %-16s %9.0f ns\n", kVariantNames[v], cost[v]);
  std::printf("\n");

  bool finite = true;
  for (const auto& per_motion : runs) {
    for (const Run& r : per_motion) {
      for (int p = 0; p < kPhases; ++p) {
        finite = finite && std::isfinite(r.rms_prediction(p)) && std::isfinite(r.rms_tracking(p));
      }
    }
  }
  checks.require("every model's errors are finite", finite);
  // The learned residual: better than the CAD model near its training motions when the object
  // is not held, and the CAD model again far from them (k_Z(x) -> 0: the GP's prior).
  for (int p : {0, 4}) {
    checks.check(std::string("near, ") + kPhaseNames[p] + ": learned / rigid, RMS torque "
                 "prediction error", runs[0][learned].rms_prediction(p) /
                 runs[0][rigid].rms_prediction(p), 0.5);
  }
  for (int p = 0; p < kPhases; ++p) {
    checks.check(std::string("far, ") + kPhaseNames[p] + ": |learned - rigid| / rigid, RMS "
                 "torque prediction error", std::abs(runs[1][learned].rms_prediction(p) /
                 runs[1][rigid].rms_prediction(p) - 1), 0.1);
  }
  for (std::size_t h = 0; h < held_out.size(); ++h) {
    for (int p : {2, 3}) {  // carry, place: the object held, the estimate converged
      const std::string what = std::string(held_out_names[h]) + ", " + kPhaseNames[p];
      checks.check("adapted / rigid, RMS torque prediction error, " + what,
                   runs[h][adapted].rms_prediction(p) / runs[h][rigid].rms_prediction(p), 0.7);
      checks.check("adapted / rigid, RMS tracking error, " + what,
                   runs[h][adapted].rms_tracking(p) / runs[h][rigid].rms_tracking(p), 0.7);
    }
  }

  for (std::size_t h = 0; h < held_out.size(); ++h) {
    const auto path = dir / (std::string("learning_vs_adaptation_") + held_out_names[h] + ".csv");
    ex::CsvWriter csv(path, {"t_s", "r_rigid_Nm", "r_adapted_Nm", "r_learned_Nm", "r_both_Nm",
                             "e_rigid_rad", "e_adapted_rad", "e_learned_rad", "e_both_rad"});
    const auto& r = runs[h];
    for (std::size_t i = 0; i < r[0].t.size(); i += 10) {
      csv.row({r[0].t[i], r[0].prediction[i], r[1].prediction[i], r[2].prediction[i],
               r[3].prediction[i], r[0].tracking[i], r[1].tracking[i], r[2].tracking[i],
               r[3].tracking[i]});
    }
    csv.close();
    std::printf("  wrote %s\n", path.c_str());
  }
  return checks.exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_all(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
