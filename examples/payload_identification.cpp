// Identifying a grasped object from joint torques (the lecture notes' "Learning of Dynamics"
// pick-and-place case, after Hitzler, Meier, Schaal & Asfour, "Learning and Adaptation of
// Inverse Dynamics Models: A Comparison", Humanoids 2019): a KUKA iiwa carries a 0.851 kg object
// along one cycloidal motion; the torques with the object, measured with Gaussian noise, minus
// the model's torques without it are linear in the object's 10 inertial parameters
// (tau - rnea_bare = Y_7 phi), and PayloadIdentification solves for them by least squares.
//
//   chaindyn_payload_identification [--out DIR]     (the measured torques as CSV into DIR)
//
// Checks, exit status 1 when one fails: noise-free torques give the object back to 1e-9; with
// noise, mass within 1 % and centre of mass within 1 cm (mass-and-centre-of-mass fit; about 3.5
// and 3 of their standard deviations), and every parameter of the full 10-parameter fit within 4
// of its standard deviations.
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/simulation.hpp>
#include <chaindyn/identification.hpp>

#include "support/notes_object.hpp"
#include "support/output.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

using namespace chaindyn;
namespace ex = example_support;
using Arm = robots::KukaIiwa<double>;
using Vector = Arm::Vector;

namespace {

void print_fit(const char* title, const PayloadEstimate<double>& e) {
  std::printf("%s\n  status %s, rank %d, condition number %.1f (column-scaled), residual RMS "
              "%.3f N m\n",
              title, e.ok() ? "ok" : "REFUSED", e.rank, e.condition_number, e.residual_rms);
  if (!e.ok()) std::printf("  reason: %s\n", e.message.c_str());
}

}  // namespace

int main(int argc, char** argv) try {
  const auto out = ex::output_directory(
      argc, argv, "Identifies a 0.851 kg object carried by a KUKA iiwa from noisy joint torques.");

  // The object of examples/payload.cpp: a 0.851 kg box, 6 x 6 x 12 cm, its centre of mass 10 cm
  // beyond the flange on the flange's z axis (link 7's frame is the flange frame).
  const Payload<double> object = ex::notes_object();
  const double m = object.mass;

  const Arm bare = robots::kuka_iiwa();
  Arm loaded = bare;
  loaded.set_payload(6, object);

  // Carrying the object from the pick to the place pose in 2 s, turning it on the way (joint 7
  // by 2.8 rad: its peak speed 2.8 rad/s stays under the iiwa's 3.1 rad/s). Sampled at 1 kHz.
  Vector q_pick, q_place;
  q_pick << 0.0, 0.6, 0.0, -1.2, 0.0, 0.9, 0.0;
  q_place << 1.4, 0.2, 0.4, -1.6, -1.3, 1.2, 2.8;
  const double duration = 2.0, dt = 1e-3;
  const CycloidalTrajectory<Vector> carry(q_pick, q_place, duration);
  const int samples = int(std::lround(duration / dt)) + 1;

  std::printf("KUKA iiwa carrying a %.3f kg object (centre of mass 10 cm beyond the flange): "
              "cycloidal motion in %.1f s, %d samples at 1 kHz\n\n",
              m, duration, samples);
  std::printf("Torque the object adds, tau_with - tau_without (N m):\n\n    t (s)");
  for (int j = 1; j <= 7; ++j) std::printf("  joint %d", j);
  std::printf("\n");
  double peak = 0;
  for (int k = 0; k < samples; ++k) {
    const auto s = carry(k * dt);
    peak = std::max(peak, rnea(loaded, s.q, s.qd, s.qdd).cwiseAbs().maxCoeff());
    if (k % 250 != 0) continue;
    const Vector diff = rnea(loaded, s.q, s.qd, s.qdd) - rnea(bare, s.q, s.qd, s.qdd);
    std::printf("  %7.2f", k * dt);
    for (int j = 0; j < 7; ++j) std::printf("  %7.3f", diff[j]);
    std::printf("\n");
  }

  // 1. Noise-free torques: the object comes back to rounding.
  PayloadIdentification<Arm> exact(bare);  // the known model: the arm without the object
  for (int k = 0; k < samples; ++k) {
    const auto s = carry(k * dt);
    exact.add_sample(s.q, s.qd, s.qdd, rnea(loaded, s.q, s.qd, s.qdd));
  }
  const PayloadEstimate<double> e0 = exact.estimate();
  const double exact_error =
      e0.ok() ? std::max({std::abs(e0.payload->mass - m),
                          (e0.payload->com - object.com).cwiseAbs().maxCoeff(),
                          (e0.payload->inertia - object.inertia).cwiseAbs().maxCoeff()})
              : std::numeric_limits<double>::infinity();
  std::printf("\nNoise-free torques: largest error of mass, centre of mass and inertia %.1e\n",
              exact_error);

  // 2. Measured torques: Gaussian noise, standard deviation 0.5 N m on every joint (about 1 % of
  // the peak torque), seeded.
  const double noise = 0.5;
  std::mt19937 gen(2019);
  std::normal_distribution<double> gauss(0.0, noise);
  PayloadIdentification<Arm> id(bare);
  ex::CsvWriter csv(out / "payload_identification.csv",
                    {"t_s", "tau1_Nm", "tau2_Nm", "tau3_Nm", "tau4_Nm", "tau5_Nm", "tau6_Nm",
                     "tau7_Nm"});
  for (int k = 0; k < samples; ++k) {
    const auto s = carry(k * dt);
    Vector tau = rnea(loaded, s.q, s.qd, s.qdd);
    for (int j = 0; j < 7; ++j) tau[j] += gauss(gen);
    id.add_sample(s.q, s.qd, s.qdd, tau);
    csv.row({k * dt, tau[0], tau[1], tau[2], tau[3], tau[4], tau[5], tau[6]});
  }
  csv.close();
  std::printf("\nMeasured torques: Gaussian noise of %.2f N m on every joint (peak torque %.1f "
              "N m), seed 2019\n\n",
              noise, peak);

  // 2a. All 10 parameters.
  const PayloadEstimate<double> full = id.estimate();
  print_fit("Full fit (mass, centre of mass, inertia: 10 parameters)", full);
  const Eigen::Matrix<double, 10, 1> truth =
      (inertial_parameters(loaded) - inertial_parameters(bare)).tail<10>();
  std::printf("  %-6s %12s %12s %12s %12s\n", "param", "truth", "estimate", "error",
              "std. dev.");
  double worst_sigmas = 0;
  for (int j = 0; j < 10; ++j) {
    const double err = full.parameters[j] - truth[j];
    std::printf("  %-6s %12.5f %12.5f %12.5f %12.5f\n", PayloadIdentification<Arm>::parameter_name(j),
                truth[j], full.parameters[j], err, full.standard_deviation[j]);
    worst_sigmas = std::max(worst_sigmas, std::abs(err) / full.standard_deviation[j]);
  }
  std::printf("  (m c in kg m, I about the flange origin in kg m^2; largest |error| = %.2f "
              "standard deviations)\n",
              worst_sigmas);
  {
    // the inertia about the centre of mass these parameters imply (parallel axis)
    const Eigen::Vector3d h = full.parameters.segment<3>(1);
    const Eigen::Matrix<double, 10, 1>& p = full.parameters;
    Eigen::Matrix3d io;
    io << p[4], p[5], p[6], p[5], p[7], p[8], p[6], p[8], p[9];
    const Eigen::Matrix3d ic =
        io - (h.squaredNorm() * Eigen::Matrix3d::Identity() - h * h.transpose()) / p[0];
    std::printf("  inertia about the centre of mass: largest error %.4f kg m^2; the object's "
                "moments are %.4f, %.4f, %.4f kg m^2:\n  below what %.2f N m of noise resolves "
                "along one motion (the inertia's standard deviations are of their size)\n\n",
                (ic - object.inertia).cwiseAbs().maxCoeff(), object.inertia(0, 0),
                object.inertia(1, 1), object.inertia(2, 2), noise);
  }

  // 2b. Mass and centre of mass, the inertia about the centre of mass taken as zero.
  const PayloadEstimate<double> point = id.estimate_mass_and_com();
  print_fit("Mass-and-centre-of-mass fit (inertia about the centre of mass taken as zero)", point);
  double mass_error = std::numeric_limits<double>::infinity(), com_error = mass_error;
  if (point.ok()) {
    mass_error = std::abs(point.payload->mass - m);
    com_error = (point.payload->com - object.com).norm();
    std::printf("  mass %.4f kg (error %.4f kg = %.2f %%, std. dev. %.4f kg)\n",
                point.payload->mass, mass_error, 100 * mass_error / m,
                point.standard_deviation[0]);
    std::printf("  centre of mass (%.4f, %.4f, %.4f) m (error %.2f mm, std. dev. of c_z %.2f mm)\n",
                point.payload->com.x(), point.payload->com.y(), point.payload->com.z(),
                1e3 * com_error, 1e3 * point.standard_deviation[3] / point.payload->mass);
  }
  std::printf("\nTorques written to %s\n", (out / "payload_identification.csv").c_str());

  const bool ok = exact_error < 1e-9 && mass_error < 0.01 * m && com_error < 1e-2 &&
                  worst_sigmas < 4.0;
  if (!ok) {
    std::printf("FAILED: tolerances are 1e-9 without noise; with noise mass 1 %%, centre of mass "
                "1 cm, every parameter of the full fit within 4 standard deviations\n");
    return 1;
  }
  std::printf("All checks passed (noise-free 1e-9; noisy: mass 1 %%, centre of mass 1 cm, full "
              "fit within 4 standard deviations).\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "payload_identification: %s\n", e.what());
  return 1;
}
