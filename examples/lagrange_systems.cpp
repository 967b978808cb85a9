// Equations of motion from energies alone, with chaindyn's Euler-Lagrange engine
// (chaindyn::lagrange, docs/lagrange.md): write L(q, qd) = T - V as a generic lambda, and
// automatic differentiation gives M(q), the bias C(q, qd) qd + g(q) and
// tau = d/dt (dL/dqd) - dL/dq.
//
// Two systems:
//   - the spherical pendulum of the lecture notes (Asfour, Robotics I ch. 4, "Method of
//     Lagrange: 3D-Pendulum"), q = (theta, phi), with the notes' E_kin and E_pot; checked
//     against closed_form::SphericalPendulum (the notes' summarized M, C qd and g);
//   - a cart-pole, which is not a serial chain of chaindyn's kind (a prismatic cart with a
//     free pole), q = (x, theta) with theta from the downward vertical; checked against its
//     equations derived by hand below.
// Exits non-zero when the engine and the independent derivation disagree.
#include <chaindyn/closed_form/spherical_pendulum.hpp>
#include <chaindyn/closed_form/euler_lagrange.hpp>

#include "support/output.hpp"

#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>

namespace {

namespace ex = example_support;
namespace lg = chaindyn::lagrange;

double max_abs_diff(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff();
}

void print(const char* name, const Eigen::MatrixXd& x) {
  const Eigen::IOFormat fmt(6, 0, ", ", "\n", "      [", "]");
  std::cout << "    " << name << " =\n" << x.format(fmt) << "\n";
}

int run() {
  ex::Checks checks;
  const double g = 9.81;

  // --- Spherical pendulum: the notes' energies, nothing else. -----------------------------
  const double m = 1.0, l = 1.0;
  const auto pendulum = [=](const auto& q, const auto& qd) {
    using S = lg::scalar_t<decltype(q)>;
    using std::cos;
    using std::sin;
    const S s = sin(q[0]);
    const S kinetic = 0.5 * m * l * l * (qd[0] * qd[0] + s * s * qd[1] * qd[1]);  // E_kin
    const S potential = -m * g * l * cos(q[0]);                                  // E_pot
    return S(kinetic - potential);
  };
  const Eigen::Vector2d q(std::acos(0.5), 0.3), qd(0.5, 2.0), qdd(0.1, -0.2);
  const Eigen::Matrix2d mass = lg::mass_matrix(pendulum, q);
  const Eigen::Vector2d b = lg::bias(pendulum, q, qd);
  const Eigen::Vector2d tau = lg::equations_of_motion(pendulum, q, qd, qdd);
  const Eigen::Matrix2d c = lg::coriolis_matrix(pendulum, q, qd);
  std::printf("Spherical pendulum, m = %g kg, l = %g m, q = (%g, %g), qd = (%g, %g), "
              "qdd = (%g, %g):\n",
              m, l, q[0], q[1], qd[0], qd[1], qdd[0], qdd[1]);
  print("M", mass);
  print("bias = C qd + g", b.transpose());
  print("tau", tau.transpose());
  print("C (Christoffel)", c);

  const chaindyn::closed_form::SphericalPendulum<double> closed(m, l, g);
  checks.check("pendulum M vs the notes' closed form", max_abs_diff(mass, closed.mass_matrix(q)),
               1e-12);
  checks.check("pendulum bias vs closed form C qd + g",
               max_abs_diff(b, closed.coriolis_matrix(q, qd) * qd + closed.gravity(q)), 1e-12);
  checks.check("pendulum tau vs closed form", max_abs_diff(tau, closed.inverse_dynamics(q, qd, qdd)),
               1e-12);
  checks.check("pendulum Christoffel C vs closed form",
               max_abs_diff(c, closed.coriolis_matrix(q, qd)), 1e-12);

  // --- Cart-pole: cart mass mc at x, pole a point mass mp at distance lp, angle th. --------
  //   bob = (x + lp sin th, -lp cos th)
  //   T = 1/2 (mc + mp) xd^2 + mp lp cos th xd thd + 1/2 mp lp^2 thd^2,  V = -mp g lp cos th
  const double mc = 1.0, mp = 0.1, lp = 0.5;
  const auto cart_pole = lg::from_energies(
      [=](const auto& q_, const auto& qd_) {
        using S = lg::scalar_t<decltype(q_)>;
        using std::cos;
        return S(0.5 * (mc + mp) * qd_[0] * qd_[0] + mp * lp * cos(q_[1]) * qd_[0] * qd_[1] +
                 0.5 * mp * lp * lp * qd_[1] * qd_[1]);
      },
      [=](const auto& q_) {
        using S = lg::scalar_t<decltype(q_)>;
        using std::cos;
        return S(-mp * g * lp * cos(q_[1]));
      });
  const Eigen::Vector2d x(0.2, 2.5), xd(-0.4, 1.5), xdd(0.8, -3.0);
  const Eigen::Matrix2d cp_mass = lg::mass_matrix(cart_pole, x);
  const Eigen::Vector2d cp_bias = lg::bias(cart_pole, x, xd);
  const Eigen::Vector2d cp_tau = lg::equations_of_motion(cart_pole, x, xd, xdd);
  std::printf("\nCart-pole, mc = %g kg, mp = %g kg, l = %g m, q = (%g, %g), qd = (%g, %g), "
              "qdd = (%g, %g):\n",
              mc, mp, lp, x[0], x[1], xd[0], xd[1], xdd[0], xdd[1]);
  print("M", cp_mass);
  print("bias = C qd + g", cp_bias.transpose());
  print("tau (cart force, pole torque)", cp_tau.transpose());

  // By hand: d/dt dL/dxd - dL/dx  = (mc + mp) xdd + mp lp (cos th thdd - sin th thd^2),
  //          d/dt dL/dthd - dL/dth = mp lp cos th xdd + mp lp^2 thdd + mp g lp sin th.
  const double cth = std::cos(x[1]), sth = std::sin(x[1]);
  Eigen::Matrix2d hand_mass;
  hand_mass << mc + mp, mp * lp * cth, mp * lp * cth, mp * lp * lp;
  const Eigen::Vector2d hand_bias(-mp * lp * sth * xd[1] * xd[1], mp * g * lp * sth);
  checks.check("cart-pole M vs hand derivation", max_abs_diff(cp_mass, hand_mass), 1e-12);
  checks.check("cart-pole bias vs hand derivation", max_abs_diff(cp_bias, hand_bias), 1e-12);
  checks.check("cart-pole tau vs hand derivation",
               max_abs_diff(cp_tau, hand_mass * xdd + hand_bias), 1e-12);
  checks.check("cart-pole forward dynamics recovers qdd",
               max_abs_diff(lg::forward_dynamics(cart_pole, x, xd, cp_tau), xdd), 1e-12);
  return checks.exit_code();
}

}  // namespace

int main() {
  try {
    return run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
