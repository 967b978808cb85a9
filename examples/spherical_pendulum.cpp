// The spherical (3D) pendulum of the lecture notes (Asfour, Robotics I ch. 4, "Method of
// Lagrange: 3D-Pendulum"): a point mass m on a massless rod of length l, q = (theta, phi),
// theta the polar angle from the downward vertical and phi the azimuth. The notes derive the
// equations of motion but give no numbers; this example takes m = 1 kg, l = 1 m, g = 9.81
// m/s^2 and releases the bob at theta = 60 deg with an azimuthal rate of 2 rad/s (slower than
// the conical pendulum's sqrt(g / (l cos theta)) = 4.43 rad/s, so theta swings between 60 deg
// and a lower turning point while the orbit precesses), for 10 s.
//
// The chain is closed_form::SphericalPendulum::to_chain(): two revolute joints with
// coordinates (phi, theta). Checked against independent paths:
//   - at every sample, aba's accelerations against the Lagrangian closed form's (notes' (3));
//   - the bob's position from forward kinematics against r = l (sin th cos ph, sin th sin ph,
//     -cos th);
//   - the two conserved quantities: energy and the angular momentum about the vertical,
//     p_phi = m l^2 sin^2(theta) phid (phi does not appear in L);
//   - the lower turning point of theta, the root of E = p_phi^2 / (2 m l^2 sin^2 theta) -
//     m g l cos theta (thetad = 0) below theta0, found by bisection.
//
//   chaindyn_spherical_pendulum [--out DIR]     (CSV into DIR; plots: scripts/plot.py DIR)
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/simulation.hpp>
#include <chaindyn/closed_form.hpp>

#include "support/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>

namespace {

namespace ex = example_support;

int run(int argc, char** argv) {
  const auto out = ex::output_directory(
      argc, argv, "Spherical pendulum (the notes' 3D pendulum) released at 60 deg, 10 s.");
  ex::Checks checks;

  const double m = 1, l = 1, g = 9.81, t_end = 10;
  const double theta0 = M_PI / 3, phid0 = 2;
  const chaindyn::closed_form::SphericalPendulum<double> pendulum(m, l, g);
  using Pendulum = chaindyn::closed_form::SphericalPendulum<double>;
  const auto chain = pendulum.to_chain();  // coordinates (phi, theta)
  using Chain = decltype(chain);
  using Vector = Chain::Vector;
  chaindyn::Data<Chain> data;

  const Vector q0 = Pendulum::to_chain_coordinates(Vector(theta0, 0));
  const Vector qd0 = Pendulum::to_chain_coordinates(Vector(0, phid0));
  const auto energy = [&](const Vector& q, const Vector& qd) {  // closed form, (theta, phi)
    return pendulum.kinetic_energy(q, qd) + pendulum.potential_energy(q);
  };
  const auto momentum = [&](const Vector& q, const Vector& qd) {  // p_phi
    return m * l * l * std::sin(q[0]) * std::sin(q[0]) * qd[1];
  };
  const Vector q_model0(theta0, 0), qd_model0(0, phid0);
  const double e0 = energy(q_model0, qd_model0), p0 = momentum(q_model0, qd_model0);

  // The lower turning point: f(theta) = p0^2 / (2 m l^2 sin^2 theta) - m g l cos theta - e0
  // is zero at theta0 and at theta_min in (0, theta0), positive below theta_min.
  const auto f = [&](double th) {
    const double s = std::sin(th);
    return p0 * p0 / (2 * m * l * l * s * s) - m * g * l * std::cos(th) - e0;
  };
  double lo = 1e-6, hi = theta0 - 1e-6;  // f(lo) > 0, f(hi) < 0 (f falls through theta_min)
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) > 0 ? lo : hi) = mid;
  }
  const double theta_min_exact = 0.5 * (lo + hi);

  std::printf("Spherical pendulum (m = %g kg, l = %g m), released at theta = 60 deg, phi = 0 "
              "with phid = %g rad/s, %g s\n\n", m, l, phid0, t_end);

  chaindyn::SimulationOptions<double> options;  // RK45, dense output every millisecond
  options.rtol = 1e-11;
  options.atol = 1e-12;
  options.output_interval = 1e-3;

  double max_dqdd = 0, max_qdd = 0, max_dr = 0, drift_e = 0, drift_p = 0;
  double theta_min = theta0, theta_max = 0;
  ex::CsvWriter csv(out / "spherical_pendulum.csv",
                    {"t_s", "theta_rad", "phi_rad", "thetad_rad_s", "phid_rad_s", "x_m", "y_m",
                     "z_m", "dE_J", "dp_phi_kg_m2_s",
                     // theta's turning points predicted from E and p_phi (constant columns)
                     "theta_turning_upper_rad", "theta_turning_lower_rad"});
  std::printf("  %6s %11s %11s %13s %13s %12s %12s\n", "t [s]", "theta [deg]", "phi [deg]",
              "thetad [1/s]", "phid [1/s]", "E - E0 [J]", "p - p0");
  Vector previous_qd = Vector::Zero();
  std::size_t k = 0;
  const auto stats = chaindyn::simulate(
      chain, q0, qd0, chaindyn::ZeroTorque{}, t_end, options,
      [&](const chaindyn::SimulationSample<Chain>& s) {
        const Vector q = Pendulum::from_chain_coordinates(s.q);  // (theta, phi)
        const Vector qd = Pendulum::from_chain_coordinates(s.qd);
        const Vector qdd = Pendulum::from_chain_coordinates(s.qdd);
        // Independent paths, pointwise.
        const Vector qdd_lagrange = pendulum.forward_dynamics(q, qd, Vector::Zero());
        max_dqdd = std::max(max_dqdd, (qdd - qdd_lagrange).cwiseAbs().maxCoeff());
        max_qdd = std::max(max_qdd, qdd_lagrange.cwiseAbs().maxCoeff());
        chaindyn::forward_kinematics(chain, data, s.q);
        const auto& bob_frame = data.oMi[1];  // the bob sits at (l, 0, 0) in link 1's frame
        const Eigen::Vector3d r_fk = bob_frame.rotation * Eigen::Vector3d(l, 0, 0) +
                                     bob_frame.translation;
        const Eigen::Vector3d r(l * std::sin(q[0]) * std::cos(q[1]),
                                l * std::sin(q[0]) * std::sin(q[1]), -l * std::cos(q[0]));
        max_dr = std::max(max_dr, (r_fk - r).cwiseAbs().maxCoeff());
        const double de = energy(q, qd) - e0, dp = momentum(q, qd) - p0;
        drift_e = std::max(drift_e, std::abs(de));
        drift_p = std::max(drift_p, std::abs(dp));
        // Local minimum of theta between this sample and the previous one (thetad from - to
        // +): the Taylor polynomial at this sample, minimized, theta + thetad s + thetadd s^2/2.
        if (k > 0 && previous_qd[0] < 0 && qd[0] >= 0) {
          const double ds = -qd[0] / qdd[0];
          theta_min = std::min(theta_min, q[0] + qd[0] * ds + 0.5 * qdd[0] * ds * ds);
        }
        theta_max = std::max(theta_max, q[0]);
        previous_qd = qd;
        if (k % 10 == 0) {  // every 10 ms into the CSV
          csv.row({s.t, q[0], q[1], qd[0], qd[1], r[0], r[1], r[2], de, dp, theta0,
                   theta_min_exact});
        }
        if (k % 500 == 0) {  // every 0.5 s
          std::printf("  %6.1f %11.4f %11.4f %13.6f %13.6f %12.2e %12.2e\n", s.t,
                      q[0] * 180 / M_PI, q[1] * 180 / M_PI, qd[0], qd[1], de, dp);
        }
        ++k;
      });
  csv.close();

  std::printf("\n  RK45 rtol %.0e: %zu steps, %zu evaluations of aba\n", options.rtol, stats.steps,
              stats.evaluations);
  std::printf("  theta swings between %.6f deg and %.6f deg; the turning point from the "
              "conserved quantities: %.6f deg\n\n",
              theta_min * 180 / M_PI, theta_max * 180 / M_PI, theta_min_exact * 180 / M_PI);

  checks.check("max |qdd aba - qdd closed form|, relative to max |qdd|", max_dqdd / max_qdd,
               1e-12);
  checks.check("max |bob by forward kinematics - l (sin th cos ph, sin th sin ph, -cos th)| [m]",
               max_dr, 1e-14);
  checks.check("max |E - E0| relative to m g l", drift_e / (m * g * l), 1e-8);
  checks.check("max |p_phi - p_phi0| relative to p_phi0", drift_p / p0, 1e-8);
  checks.check("lower turning point of theta vs the conserved quantities' root [rad]",
               std::abs(theta_min - theta_min_exact), 1e-7);

  std::printf("\n  wrote %s\n", (out / "spherical_pendulum.csv").c_str());
  return checks.exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
