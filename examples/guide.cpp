// The code of docs/guide.md, compiled and checked: every snippet of the guide, in order, with
// the results the guide states asserted. Run: build/<preset>/examples/chaindyn_guide
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/closed_form.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace chaindyn;

namespace {

int failures = 0;
void check(bool ok, const char* what) {
  std::printf("  %-68s %s\n", what, ok ? "ok" : "FAILED");
  failures += ok ? 0 : 1;
}

// Section 2: a uniform rod along x, joint at its end.
Link<double> rod(double m, double a) {
  Link<double> l;
  l.mass = m;
  l.com = {a / 2, 0, 0};
  l.inertia = Eigen::Vector3d(0, m * a * a / 12, m * a * a / 12).asDiagonal();
  return l;
}

void one_link_arm() {  // section 3
  auto arm = closed_form::OneLinkArm<double>::uniform_rod(1.0, 1.0, 9.81);
  auto chain = arm.to_chain();
  const double T = 10, th0 = 0, thT = M_PI;
  double worst = 0;
  for (double t = 0; t <= T; t += 0.2) {
    const double c = 2 * M_PI / T, d = thT - th0;
    Eigen::Matrix<double, 1, 1> q(th0 + d / T * (t - std::sin(c * t) / c)),
        qd(d / T * (1 - std::cos(c * t))), qdd(d / T * c * std::sin(c * t));
    const double tau = rnea(chain, q, qd, qdd)[0];
    worst = std::max(worst, std::abs(tau - arm.inverse_dynamics(q, qd, qdd)[0]));
    // the seeds' formula with m = a = 1
    worst = std::max(worst, std::abs(tau - (qdd[0] / 3 + 9.81 / 2 * std::sin(q[0]))));
  }
  check(worst < 1e-12, "3: rnea on the cycloid equals the closed form and the seeds' formula");
  // the hand-built rod is the same link as the closed form's chain
  Link<double> hand_rod = rod(1.0, 1.0);
  hand_rod.placement = chain.placement(0);  // q from the downward vertical
  Chain<double, RevoluteZ> by_hand({hand_rod}, chain.gravity());
  const Eigen::Matrix<double, 1, 1> q(0.4), qd(0.3), qdd(-0.2);
  check(std::abs(rnea(by_hand, q, qd, qdd)[0] - rnea(chain, q, qd, qdd)[0]) < 1e-14,
        "2: rod(m, a) builds the same link as OneLinkArm::to_chain()");
}

void two_link_arm() {  // section 4
  const double m1 = 1.5, m2 = 0.7, a1 = 0.9, a2 = 0.6;
  using Planar2 = Chain<double, RevoluteZ, RevoluteZ>;
  Link<double> l1, l2;
  l1.mass = m1;  l1.com = {a1, 0, 0};
  l2.mass = m2;  l2.com = {a2, 0, 0};
  l2.placement = Transform<double>::Translation({a1, 0, 0});
  Planar2 arm({l1, l2}, Eigen::Vector3d(0, -9.81, 0));

  const Planar2::Vector q(0.4, -1.1), qd(0.8, -0.3);
  const Planar2::Matrix M = crba(arm, q);
  const Planar2::Vector h = nonlinear_effects(arm, q, qd);
  const Planar2::Vector g = gravity_torques(arm, q);
  // Asfour's formulas, typed in as printed in the guide
  const double c1 = std::cos(q[0]), c2 = std::cos(q[1]), s2 = std::sin(q[1]),
               c12 = std::cos(q[0] + q[1]), gr = 9.81;
  Planar2::Matrix m_ref;
  m_ref << (m1 + m2) * a1 * a1 + m2 * a2 * a2 + 2 * m2 * a1 * a2 * c2,
      m2 * a2 * a2 + m2 * a1 * a2 * c2, m2 * a2 * a2 + m2 * a1 * a2 * c2, m2 * a2 * a2;
  const Planar2::Vector cqd(-m2 * a1 * a2 * (2 * qd[0] * qd[1] + qd[1] * qd[1]) * s2,
                            m2 * a1 * a2 * qd[0] * qd[0] * s2);
  const Planar2::Vector g_ref((m1 + m2) * gr * a1 * c1 + m2 * gr * a2 * c12, m2 * gr * a2 * c12);
  check((M - m_ref).norm() < 1e-12, "4: crba equals Asfour's M");
  check((h - cqd - g_ref).norm() < 1e-12, "4: nonlinear_effects equals Asfour's C qd + g");
  check((g - g_ref).norm() < 1e-12, "4: gravity_torques equals Asfour's g");
  const auto closed = closed_form::TwoLinkArm<double>::point_masses(m1, m2, a1, a2, 9.81);
  check((closed.mass_matrix(q) - M).norm() < 1e-12, "4: TwoLinkArm::point_masses is the same arm");

  // Saha's ch8fdyn2: falling from rest under gravity, semi-implicit Euler
  auto saha = closed_form::TwoLinkArm<double>::uniform_rods(3, 1, 2, 1, 9.81).to_chain();
  Data<decltype(saha)> data;
  Eigen::Vector2d qs(0, 0), qds(0, 0), tau(0, 0);
  const double dt = 1e-3;
  const double e0 = kinetic_energy(saha, qs, qds) + potential_energy(saha, qs);
  for (int k = 0; k < 10000; ++k) {
    aba(saha, data, qs, qds, tau);
    qds += dt * data.qdd;
    qs += dt * qds;
  }
  const double e1 = kinetic_energy(saha, qs, qds) + potential_energy(saha, qs);
  std::printf("  (Saha's arm after 10 s: q = (%.3f, %.3f) rad, energy drift %.2e J)\n", qs[0],
              qs[1], e1 - e0);
  check(std::abs(e1 - e0) < 0.5, "4: the simulated arm keeps its energy to within 0.5 J");

  // section 5: a 5 N force down at the tip of link 2
  LinkForces<Planar2> f_ext{};
  const Eigen::Vector3d r(a2, 0, 0), F(0, -5.0, 0);
  f_ext[1] = Force<double>(r.cross(F), F);
  const Planar2::Vector qdd(0.3, 0.2);
  const Planar2::Vector with_force = rnea(arm, q, qd, qdd, f_ext);
  // the same force as 5 N / 9.81 more mass at the tip of link 2, held still (qd = qdd = 0):
  // the joints hold the arm's weight plus the force, here expressed in link 2's frame
  const auto poses = forward_kinematics(arm, q);
  f_ext[1].linear = poses[1].rotation.transpose() * Eigen::Vector3d(0, -5.0, 0);
  f_ext[1].angular = r.cross(f_ext[1].linear);
  Link<double> heavier = l2;
  heavier.mass = m2 + 5.0 / 9.81;
  heavier.com = (m2 * l2.com + 5.0 / 9.81 * r) / heavier.mass;
  Planar2 loaded({l1, heavier}, Eigen::Vector3d(0, -9.81, 0));
  const Planar2::Vector zero = Planar2::Vector::Zero();
  check((rnea(arm, q, zero, zero, f_ext) - rnea(loaded, q, zero, zero)).norm() < 1e-12,
        "5: a downward tip force acts like the same weight at the tip");
  (void)with_force;
}

void spherical_pendulum() {  // section 6
  const closed_form::SphericalPendulum<double> p{2.0, 0.8, 9.81};
  const auto chain = p.to_chain();
  const Eigen::Vector2d q(0.7, 1.9), qd(0.4, -0.6), qdd(0.2, 0.5);  // (theta, phi)
  const Eigen::Vector2d tau = p.from_chain_coordinates(
      rnea(chain, p.to_chain_coordinates(q), p.to_chain_coordinates(qd),
           p.to_chain_coordinates(qdd)));
  check((tau - p.inverse_dynamics(q, qd, qdd)).norm() < 1e-12,
        "6: the chain of SphericalPendulum reproduces the 3D pendulum");
}

void sliding_mass() {  // section 7
  const double m = 2.0, k_sf = 0.7;
  using Slider = Chain<double, PrismaticX>;
  Link<double> block;
  block.mass = m;
  block.dynamics.damping = k_sf;
  block.dynamics.friction = 0.0;
  Slider s({block});
  const Eigen::Matrix<double, 1, 1> x(0.1), xd(0.5), xdd(-1.5);
  check(std::abs(rnea(s, x, xd, xdd)[0] - (m * xdd[0] + k_sf * xd[0])) < 1e-14,
        "7: a damped prismatic joint gives tau = m xdd + K_sf xd");
}

}  // namespace

int main() {
  std::printf("docs/guide.md, section by section:\n");
  one_link_arm();
  two_link_arm();
  spherical_pendulum();
  sliding_mass();
  std::printf("%d failed\n", failures);
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
