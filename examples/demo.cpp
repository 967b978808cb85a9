// The main example (scripts/demo): inverse dynamics, mass matrix and forward dynamics of the
// lecture notes' two-link arm against its Lagrangian closed form, the one-link arm along the
// notes' cycloidal trajectory, and a 7-joint KUKA iiwa.
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/closed_form.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace chaindyn;

namespace {

double worst = 0.0;  // largest disagreement with an independent path, over the whole demo

template <typename A, typename B>
double diff(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  const double d = (a - b).cwiseAbs().maxCoeff();
  worst = std::max(worst, d);
  return d;
}

void print_vector(const char* label, const Eigen::VectorXd& v, const char* unit) {
  std::printf("  %-34s", label);
  for (Eigen::Index i = 0; i < v.size(); ++i) std::printf(" %9.4f", v[i]);
  std::printf("  %s\n", unit);
}

void two_link_arm() {
  // Saha's two-link arm of uniform rods: m1 = 3 kg, m2 = 1 kg, a1 = 2 m, a2 = 1 m.
  const auto lagrange = closed_form::TwoLinkArm<double>::uniform_rods(3, 1, 2, 1, 9.81);
  const auto arm = lagrange.to_chain();
  using Vector = decltype(arm)::Vector;
  const Vector q(0.3, -0.5), qd(0.1, 0.2), qdd(1.0, -1.0);

  std::printf("Two-link planar arm (uniform rods m1 = 3 kg, m2 = 1 kg, a1 = 2 m, a2 = 1 m)\n");
  std::printf("  q = (0.3, -0.5) rad, qd = (0.1, 0.2) rad/s, qdd = (1, -1) rad/s^2\n\n");
  const Vector tau = rnea(arm, q, qd, qdd);
  print_vector("tau = rnea(arm, q, qd, qdd)", tau, "N m");
  print_vector("tau, Lagrangian closed form", lagrange.inverse_dynamics(q, qd, qdd), "N m");
  print_vector("g(q) = gravity_torques(arm, q)", gravity_torques(arm, q), "N m");
  const double d_tau = diff(tau, lagrange.inverse_dynamics(q, qd, qdd));

  const auto m = crba(arm, q);
  std::printf("\n  M = crba(arm, q)                     [%8.4f %8.4f; %8.4f %8.4f] kg m^2\n",
              m(0, 0), m(0, 1), m(1, 0), m(1, 1));
  const auto ml = lagrange.mass_matrix(q);
  std::printf("  M, closed form                       [%8.4f %8.4f; %8.4f %8.4f] kg m^2\n",
              ml(0, 0), ml(0, 1), ml(1, 0), ml(1, 1));
  const double d_m = diff(m, ml);

  const Vector acc = aba(arm, q, qd, tau);
  std::printf("\n");
  print_vector("qdd = aba(arm, q, qd, tau)", acc, "rad/s^2");
  print_vector("qdd, closed form M^-1 (tau - h)", lagrange.forward_dynamics(q, qd, tau),
               "rad/s^2");
  const double d_acc = diff(acc, lagrange.forward_dynamics(q, qd, tau));
  std::printf("\n  agreement with the closed form: tau %.1e N m, M %.1e kg m^2, qdd %.1e rad/s^2\n\n",
              d_tau, d_m, d_acc);
}

void one_link_arm_cycloid() {
  // Saha's one-link arm (m = 1 kg, a = 1 m) on the cycloidal trajectory 0 -> pi in T = 10 s:
  // the seeds' formula (1/3) m a^2 qdd + (1/2) m g a sin q = tau.
  const auto lagrange = closed_form::OneLinkArm<double>::uniform_rod(1, 1, 9.81);
  const auto arm = lagrange.to_chain();
  using Vector = decltype(arm)::Vector;
  Data<decltype(arm)> data;
  const double period = 10.0, c = 2 * M_PI / period, delta = M_PI;
  std::printf("One-link arm on the cycloidal trajectory 0 -> pi, T = 10 s (m = 1 kg, a = 1 m)\n\n");
  std::printf("  %6s %9s %11s %11s %14s %11s\n", "t [s]", "q [rad]", "qd [rad/s]", "qdd [1/s^2]",
              "tau rnea [N m]", "seeds [N m]");
  double d_max = 0;
  for (int k = 0; k <= 10; ++k) {
    const double t = k * 1.0;
    const Vector q(delta / period * (t - std::sin(c * t) / c));
    const Vector qd(delta / period * (1 - std::cos(c * t)));
    const Vector qdd(delta / period * c * std::sin(c * t));
    rnea(arm, data, q, qd, qdd);  // in place: what a control loop calls
    const double seeds = qdd[0] / 3.0 + 9.81 / 2.0 * std::sin(q[0]);
    d_max = std::max(d_max, diff(data.tau, Vector(seeds)));
    std::printf("  %6.1f %9.4f %11.4f %11.4f %14.6f %11.6f\n", t, q[0], qd[0], qdd[0], data.tau[0],
                seeds);
  }
  std::printf("\n  agreement with the seeds' formula along the trajectory: %.1e N m\n\n", d_max);
}

void kuka_iiwa() {
  const auto arm = robots::kuka_iiwa();
  using Arm = robots::KukaIiwa<double>;
  Arm::Vector q, qd, qdd;
  q << 0.1, 0.7, -0.3, -1.2, 0.4, 0.9, -0.2;
  qd << 0.5, -0.3, 0.2, 0.4, -0.6, 0.1, 0.8;
  qdd << 1.0, -0.5, 0.3, 0.7, -1.2, 0.4, 0.9;

  std::printf("KUKA LBR iiwa 7 R800 (robots::kuka_iiwa(), 7 revolute joints, %.2f kg moving)\n",
              [&] {
                double m = 0;
                for (const auto& l : arm.links()) m += l.mass;
                return m;
              }());
  std::printf("  q = (0.1, 0.7, -0.3, -1.2, 0.4, 0.9, -0.2) rad\n\n");
  const Arm::Vector tau = rnea(arm, q, qd, qdd);
  print_vector("tau = rnea(arm, q, qd, qdd)", tau, "N m");
  print_vector("g(q) = gravity_torques(arm, q)", gravity_torques(arm, q), "N m");
  print_vector("C qd + g = nonlinear_effects", nonlinear_effects(arm, q, qd), "N m");
  const Arm::Matrix m = crba(arm, q);
  std::printf("\n  M = crba(arm, q) [kg m^2]\n");
  for (int r = 0; r < 7; ++r) {
    std::printf("   ");
    for (int col = 0; col < 7; ++col) std::printf(" %8.4f", m(r, col));
    std::printf("\n");
  }
  const Arm::Vector acc = aba(arm, q, qd, tau);
  const Arm::Vector acc_crba = forward_dynamics_crba(arm, q, qd, tau);
  std::printf("\n");
  print_vector("qdd = aba(arm, q, qd, tau)", acc, "rad/s^2");
  const double d_roundtrip = diff(acc, qdd);
  const double d_routes = diff(acc, acc_crba);
  const double t = kinetic_energy(arm, q, qd);
  const double d_energy = std::abs(t - 0.5 * qd.dot(m * qd));
  worst = std::max(worst, d_energy);
  std::printf("\n  aba(rnea(qdd)) - qdd: %.1e rad/s^2; aba - M^-1 (tau - h) (CRBA + Cholesky): %.1e\n",
              d_roundtrip, d_routes);
  std::printf("  kinetic energy %.6f J, 1/2 qd^T M qd - kinetic energy: %.1e J\n\n", t, d_energy);
}

}  // namespace

int main() {
  std::printf("chaindyn %s: tau = M(q) qdd + C(q, qd) qd + g(q)\n\n", chaindyn::version);
  two_link_arm();
  one_link_arm_cycloid();
  kuka_iiwa();
  std::printf("Largest disagreement between independent paths in this demo: %.1e\n", worst);
  // The demo doubles as a check: fail loudly if the paths ever disagree.
  return worst < 1e-9 ? 0 : 1;
}
