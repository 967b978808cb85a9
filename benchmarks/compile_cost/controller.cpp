// A computed-torque controller as a user writes it from the README: the built-in iiwa, the
// returning forms of rnea, crba, aba, nonlinear_effects and gravity_torques, a quintic, one
// rk4_step and a simulate() with dense output. benchmarks/compile_cost/run times its compile.
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/simulation.hpp>

#include <cstdio>

using namespace chaindyn;
using Arm7 = robots::KukaIiwa<double>;  // ChainN<double, 7, RevoluteZ>
using Vector = Arm7::Vector;

int main() {
  const auto iiwa = robots::kuka_iiwa();
  const Vector q0 = Vector::Zero(), qd0 = Vector::Zero();
  const Vector q_goal = Vector::Constant(0.5);
  const QuinticTrajectory<Vector> desired(q0, q_goal, 2.0);
  const double kp = 100.0, kd = 20.0;

  // tau = M(q) (qdd_d + Kd de + Kp e) + h(q, qd): crba and nonlinear_effects, or one rnea.
  const auto computed_torque = [&](double t, const Vector& q, const Vector& qd) {
    const auto d = desired(t);
    const Vector qdd_ref = d.qdd + kd * (d.qd - qd) + kp * (d.q - q);
    return Vector(crba(iiwa, q) * qdd_ref + nonlinear_effects(iiwa, q, qd));
  };
  const Vector q1 = Vector::Constant(0.1), qd1 = Vector::Constant(0.2);
  const Vector tau = computed_torque(0.5, q1, qd1);
  const auto d1 = desired(0.5);
  const Vector qdd_ref = d1.qdd + kd * (d1.qd - qd1) + kp * (d1.q - q1);
  std::printf("max |crba qdd + h - rnea| = %.2e, max |aba(tau) - qdd_ref| = %.2e\n",
              (tau - rnea(iiwa, q1, qd1, qdd_ref)).cwiseAbs().maxCoeff(),
              (aba(iiwa, q1, qd1, tau) - qdd_ref).cwiseAbs().maxCoeff());
  std::printf("g(q1)[1] = %.4f N m\n", gravity_torques(iiwa, q1)[1]);

  // One RK4 step of the closed loop by hand: qdd = aba(q, qd, controller(t, q, qd)).
  const auto plant = [&](double t, const Vector& q, const Vector& qd) {
    return Vector(aba(iiwa, q, qd, computed_torque(t, q, qd)));
  };
  Vector q = q0 + Vector::Constant(0.05), qd = qd0;
  rk4_step(plant, 0.0, 1e-3, q, qd);
  std::printf("after one 1 ms RK4 step: q[0] = %.6f\n", q[0]);

  // The same loop by simulate(): RK45 with dense output every 10 ms (the README's options).
  SimulationOptions<double> options;
  options.output_interval = 0.01;
  const auto run = simulate(iiwa, Vector(q0 + Vector::Constant(0.05)), qd0, computed_torque,
                            3.0, options);
  double worst = 0.0;
  for (std::size_t k = 0; k < run.size(); ++k) {
    worst = std::max(worst, (desired(run.t[k]).q - run.q[k]).cwiseAbs().maxCoeff());
  }
  std::printf("%zu samples, %zu steps; max tracking error %.3e rad\n", run.size(),
              run.stats.steps, worst);
  return worst < 0.1 ? 0 : 1;
}
