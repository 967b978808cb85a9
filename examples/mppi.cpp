// Sampling-based model predictive control (MPPI: Williams et al., "Information Theoretic MPC
// for Model-Based Reinforcement Learning", ICRA 2017, Algorithm 2) on the KUKA iiwa: every
// control step simulates 1,024 noisy torque sequences over a 0.4 s horizon with batch::rnea
// (gravity compensation) and batch::aba (forward dynamics) and a semi-implicit Euler step, all
// 1,024 rollouts per call; then averages the noise weighted by exp(-cost / lambda) into the
// plan and applies its first torque to the robot (simulated with the one-state aba).
//
// Checks: the rollouts' costs equal those of the one-state loop (rnea and aba per state) to
// 1e-9 relative, and the arm reaches the goal. Prints the time per control step of both ways
// of evaluating the rollouts; writes chaindyn_output/mppi.csv (the motion), drawn by
// scripts/plot.py.
#include <chaindyn/batch.hpp>
#include <chaindyn/robots/kuka_iiwa.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

namespace {

using namespace chaindyn;
using Model = robots::KukaIiwa<double>;
constexpr int N = Model::nq;
using Vector = Model::Vector;
using Mat = batch::States<Model>;

constexpr int kRollouts = 1024;
constexpr int kHorizon = 20;         // steps of the plan
constexpr double kDt = 0.02;         // s per step (the control period)
constexpr int kControlSteps = 75;    // 1.5 s of control

/// The cost of a state: distance to the goal and speed (a step's weight).
double state_cost(const Vector& q, const Vector& qd, const Vector& goal) {
  return 100.0 * (q - goal).squaredNorm() + 0.5 * qd.squaredNorm();
}

/// Simulates every rollout k from (q0, qd0) under tau = g(q) - kd qd + plan(t) + noise_k(t)
/// (gravity compensated and damped; MPPI supplies the rest), semi-implicit Euler, and returns
/// the costs. Batch: two batch calls per step over all rollouts; one-state:
/// the same with rnea and aba per rollout (the reference).
template <bool kBatch>
void rollouts(const Model& model, batch::Workspace<Model>& ws, Data<Model>& data,
              const Vector& q0, const Vector& qd0, const Vector& goal, const Vector& kd,
              const Mat& plan,
              const std::vector<Mat>& noise, Mat& q, Mat& qd, Mat& tau, Mat& qdd, Mat& zero,
              Eigen::VectorXd& cost) {
  q.colwise() = q0;
  qd.colwise() = qd0;
  cost.setZero();
  for (int t = 0; t < kHorizon; ++t) {
    if constexpr (kBatch) {
      batch::rnea(ws, q, zero, zero, tau);  // g(q) for every rollout
    } else {
      for (int k = 0; k < kRollouts; ++k) {
        rnea(model, data, q.col(k), zero.col(k), zero.col(k));
        tau.col(k) = data.tau;
      }
    }
    tau += noise[std::size_t(t)] - kd.asDiagonal() * qd;
    tau.colwise() += plan.col(t);
    if constexpr (kBatch) {
      batch::aba(ws, q, qd, tau, qdd);
    } else {
      for (int k = 0; k < kRollouts; ++k) {
        aba(model, data, q.col(k), qd.col(k), tau.col(k));
        qdd.col(k) = data.qdd;
      }
    }
    qd += kDt * qdd;
    q += kDt * qd;
    for (int k = 0; k < kRollouts; ++k) {
      cost[k] += state_cost(q.col(k), qd.col(k), goal) * (t + 1 == kHorizon ? 10.0 : 1.0);
    }
  }
}

}  // namespace

int main() {
  const Model iiwa = robots::kuka_iiwa();
  batch::Workspace<Model> ws(iiwa);  // the model cast to packs of batch::native_width states
  Data<Model> data;
  const Vector goal = (Vector() << 0.6, 0.5, -0.3, -1.2, 0.4, 0.8, 0.2).finished();
  Vector q = Vector::Zero(), qd = Vector::Zero();
  // Damping and noise scaled by the inertia each joint sees (the wrist sees 1/1000 of the
  // shoulder's; the first joint's changes 70-fold from the stretched to the bent arm, and the
  // smaller one keeps the explicit step stable): kd = 2 w M_ii at w = 5 rad/s, noise
  // 10 rad/s^2 times M_ii.
  const Vector m = crba(iiwa, goal).diagonal().cwiseMin(crba(iiwa, q).diagonal());
  const Vector kd = 10.0 * m, sigma = 10.0 * m;

  std::mt19937 gen(15);
  std::normal_distribution<double> normal(0.0, 1.0);
  Mat plan = Mat::Zero(N, kHorizon);
  std::vector<Mat> noise(kHorizon, Mat(N, kRollouts));
  Mat rq(N, kRollouts), rqd(N, kRollouts), rtau(N, kRollouts), rqdd(N, kRollouts);
  Mat zero = Mat::Zero(N, kRollouts);
  Eigen::VectorXd cost(kRollouts), cost_reference(kRollouts), weight(kRollouts);

  const std::filesystem::path dir = "chaindyn_output";
  std::filesystem::create_directories(dir);
  std::ofstream csv(dir / "mppi.csv");
  csv << "t_s,distance_rad";
  for (int j = 1; j <= N; ++j) csv << ",q" << j << "_rad,q" << j << "_goal_rad";
  csv << '\n';

  double batch_seconds = 0, one_state_seconds = 0, worst_cost_difference = 0;
  int compared = 0;
  using Clock = std::chrono::steady_clock;
  for (int step = 0; step < kControlSteps; ++step) {
    for (Mat& e : noise) {
      for (int k = 0; k < kRollouts; ++k) {
        for (int j = 0; j < N; ++j) e(j, k) = sigma[j] * normal(gen);
      }
    }
    const auto t0 = Clock::now();
    rollouts<true>(iiwa, ws, data, q, qd, goal, kd, plan, noise, rq, rqd, rtau, rqdd, zero, cost);
    const auto t1 = Clock::now();
    batch_seconds += std::chrono::duration<double>(t1 - t0).count();
    if (step % 20 == 0) {  // the reference, timed on every 20th step
      rollouts<false>(iiwa, ws, data, q, qd, goal, kd, plan, noise, rq, rqd, rtau, rqdd, zero,
                      cost_reference);
      one_state_seconds += std::chrono::duration<double>(Clock::now() - t1).count();
      ++compared;
      worst_cost_difference = std::max(
          worst_cost_difference,
          ((cost - cost_reference).cwiseAbs().array() / cost_reference.array()).maxCoeff());
    }
    // MPPI update: w_k = exp(-(S_k - min S) / lambda), plan += sum_k w_k noise_k / sum_k w_k.
    const double lambda = 0.1 * (cost.mean() - cost.minCoeff()) + 1e-12;
    weight = (-(cost.array() - cost.minCoeff()) / lambda).exp().matrix();
    weight /= weight.sum();
    for (int t = 0; t < kHorizon; ++t) plan.col(t) += noise[std::size_t(t)] * weight;
    // Apply the first torque (with gravity compensation) for one control period, 10 substeps.
    for (int sub = 0; sub < 10; ++sub) {
      rnea(iiwa, data, q, Vector::Zero(), Vector::Zero());
      const Vector tau = data.tau - kd.cwiseProduct(qd) + plan.col(0);
      aba(iiwa, data, q, qd, tau);
      qd += 0.1 * kDt * data.qdd;
      q += 0.1 * kDt * qd;
    }
    // Shift the plan by one step (the last step repeats).
    for (int t = 0; t + 1 < kHorizon; ++t) plan.col(t) = plan.col(t + 1);
    csv << (step + 1) * kDt << ',' << (q - goal).norm();
    for (int j = 0; j < N; ++j) csv << ',' << q[j] << ',' << goal[j];
    csv << '\n';
  }

  const double distance = (q - goal).norm();
  const double batch_ms = 1e3 * batch_seconds / kControlSteps;
  const double one_state_ms = 1e3 * one_state_seconds / compared;
  std::printf("MPPI on the KUKA iiwa: %d rollouts x %d steps per control step, "
              "%d states per pack\n",
              kRollouts, kHorizon, batch::native_width);
  std::printf("  rollouts per control step: batch %.2f ms, one-state loop %.2f ms (%.1fx)\n",
              batch_ms, one_state_ms, one_state_ms / batch_ms);
  std::printf("  rollout costs, batch vs one-state: max relative difference %.2g\n",
              worst_cost_difference);
  std::printf("  distance to the goal: %.3f rad at t = 0, %.4f rad at t = %.1f s\n",
              goal.norm(), distance, kControlSteps * kDt);
  std::printf("  wrote %s\n", std::filesystem::absolute(dir / "mppi.csv").string().c_str());
  const bool ok = worst_cost_difference < 1e-9 && distance < 0.1 * goal.norm();
  std::printf("%s\n", ok ? "checks passed" : "CHECK FAILED");
  return ok ? 0 : 1;
}
