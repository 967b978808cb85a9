// Joint friction beyond viscous + Coulomb (docs/friction.md): the LuGre model's published
// behaviour (C. Canudas de Wit, H. Olsson, K. J. Astrom, P. Lischinsky, IEEE TAC 40 (1995)
// 419-425, with the paper's sec. IV numbers), and the identification of a Stribeck map from
// noisy constant-velocity torques.
//
// 1. Frictional lag: under v(t) = v0 + a sin(w t) the friction traces a loop around the static
//    map, wider at higher w (the paper's Fig. 4). Checked: one period after the start the loop
//    at w = 0.05 rad/s lies on the static map.
// 2. Pre-sliding: a mass on a joint under a torque that rises to 1.2 N m (below Fs = 1.5) and
//    falls back: a hysteretic spring of micro-radians (the paper's Fig. 2). Checked against the
//    quasi-static closed form x(F) = -(Fs / sigma0) ln(1 - F / Fs) on the way up (F >= 0.3).
// 3. identify_stribeck on 60 constant-velocity runs with 1 % torque noise. Checked: the stated
//    errors of docs/friction.md.
//
//   chaindyn_friction [--out DIR]     (CSV into DIR; plots: scripts/plot.py DIR)
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/closed_form.hpp>
#include <chaindyn/identification/friction_identification.hpp>
#include <chaindyn/simulation.hpp>

#include "support/output.hpp"

#include <cmath>
#include <cstdio>
#include <exception>
#include <random>
#include <string>
#include <vector>

namespace {

namespace ex = example_support;
using V1 = Eigen::Matrix<double, 1, 1>;
constexpr double kPi = 3.14159265358979323846;

int run(int argc, char** argv) {
  const auto out = ex::output_directory(argc, argv, "LuGre friction and Stribeck identification.");
  ex::Checks checks;
  chaindyn::LuGreParameters<double> p;
  p.sigma0 = 1e5;
  p.sigma1 = std::sqrt(1e5);
  p.sigma2 = 0.4;
  p.curve.coulomb = 1.0;
  p.curve.static_friction = 1.5;
  p.curve.stribeck_velocity = 0.001;
  const auto map = p.static_map();

  // ---- 1. Frictional lag. ----------------------------------------------------------------
  const double v0 = 0.002, a = 0.0015;
  const std::vector<double> frequencies{0.05, 1.0, 10.0, 25.0};
  const int points = 200;
  std::vector<std::vector<double>> loop_v(frequencies.size()), loop_f(frequencies.size());
  double worst_slow = 0;
  for (std::size_t m = 0; m < frequencies.size(); ++m) {
    const double w = frequencies[m], period = 2 * kPi / w;
    const auto v = [&](double t) { return v0 + a * std::sin(w * t); };
    chaindyn::IntegrationOptions<double> options;
    options.rtol = options.atol = 1e-12;
    options.output_interval = period / points;
    // from the static map's state at v0; the second period is drawn
    const double z0 = chaindyn::stribeck_curve(p.curve, v0) / p.sigma0;
    chaindyn::integrate(
        [&](double t, const V1&, const V1& z) { return V1(chaindyn::lugre_state_rate(p, v(t), z[0])); },
        V1(0.0), V1(z0), 2 * period, options, [&](const chaindyn::IntegrationSample<V1>& s) {
          if (s.t < period - 1e-9) return;
          const double f = chaindyn::lugre_friction(p, v(s.t), s.qd[0]);
          loop_v[m].push_back(v(s.t));
          loop_f[m].push_back(f);
          if (w < 0.1) {
            worst_slow = std::max(worst_slow, std::abs(f - chaindyn::stribeck_static_map(map, v(s.t))));
          }
        });
  }
  std::printf("1. frictional lag: friction against velocity over one period of v0 + a sin(w t)\n");
  checks.check("w = 0.05 rad/s: max |F - static map| [N m]", worst_slow, 2e-3);

  // ---- 2. Pre-sliding. --------------------------------------------------------------------
  auto rod = chaindyn::closed_form::OneLinkArm<double>::uniform_rod(1.0, 1.0);
  rod.g = 0;
  const auto link = rod.to_chain();
  using Rod = std::remove_const_t<decltype(link)>;
  const chaindyn::LuGreJoints<Rod> lugre(link, p);
  chaindyn::IntegrationOptions<double> options;
  options.rtol = options.atol = 1e-10;
  options.output_interval = 0.01;
  const auto force = [](double t) { return t < 1.2 ? t : 2.4 - t; };  // up to 1.2, back to 0
  std::vector<double> pre_f, pre_x;
  double worst_pre = 0;
  chaindyn::simulate_lugre(link, lugre, V1(0.0), V1(0.0), V1(0.0),
                           [&](double t, const V1&, const V1&) { return V1(force(t)); }, 2.4,
                           options, [&](const chaindyn::LuGreSample<V1>& s) {
                             pre_f.push_back(force(s.t));
                             pre_x.push_back(s.q[0]);
                             if (s.t > 0.3 && s.t <= 1.2 + 1e-9) {
                               const double closed = -p.curve.static_friction / p.sigma0 *
                                                     std::log(1 - force(s.t) / p.curve.static_friction);
                               worst_pre = std::max(worst_pre, std::abs(s.q[0] / closed - 1));
                             }
                           });
  std::printf("\n2. pre-sliding: x = %.3e rad at F = 1.2 N m, %.3e rad left at F = 0\n",
              pre_x[pre_x.size() / 2], pre_x.back());
  checks.check("pre-sliding on the way up against -(Fs/sigma0) ln(1 - F/Fs) (relative)",
               worst_pre, 0.02);

  // ---- 3. Identification of a Stribeck map. -----------------------------------------------
  chaindyn::StribeckParameters<double> truth;
  truth.coulomb = 2.0;
  truth.static_friction = 3.2;
  truth.viscous = 0.8;
  truth.stribeck_velocity = 0.03;
  std::mt19937 gen(1);
  std::normal_distribution<double> noise(0.0, 0.02);
  std::vector<double> v, tau;
  for (int k = 0; k < 60; ++k) {
    const double speed = 1e-3 * std::pow(2000.0, (k / 2) / 29.0);
    v.push_back(k % 2 ? speed : -speed);
    tau.push_back(chaindyn::stribeck_static_map(truth, v.back()) + noise(gen));
  }
  const chaindyn::StribeckFit fit = chaindyn::identify_stribeck(v, tau);
  const auto& e = fit.parameters;
  std::printf("\n3. identify_stribeck (60 runs, noise 0.02 N m): Fc %.4f (2), Fs %.4f (3.2), "
              "Fv %.4f (0.8), vs %.5f (0.03); rms residual %.4f N m\n",
              e.coulomb, e.static_friction, e.viscous, e.stribeck_velocity, fit.rms_residual);
  checks.check("Fc relative error", std::abs(e.coulomb / truth.coulomb - 1), 0.01);
  checks.check("Fs relative error", std::abs(e.static_friction / truth.static_friction - 1), 0.02);
  checks.check("Fv relative error", std::abs(e.viscous / truth.viscous - 1), 0.02);
  checks.check("vs relative error", std::abs(e.stribeck_velocity / truth.stribeck_velocity - 1), 0.05);

  // ---- Output. ----------------------------------------------------------------------------
  std::vector<std::string> columns;
  for (const char* w : {"w0_05", "w1", "w10", "w25"}) {
    columns.push_back(std::string("v_") + w + "_rad_s");
    columns.push_back(std::string("F_") + w + "_Nm");
  }
  columns.push_back("v_map_rad_s");
  columns.push_back("F_map_Nm");
  ex::CsvWriter lag(out / "friction_lag.csv", columns);
  const std::size_t rows = loop_v[0].size();
  for (std::size_t i = 0; i < rows; ++i) {
    std::vector<double> row;
    for (std::size_t m = 0; m < frequencies.size(); ++m) {
      const std::size_t j = std::min(i, loop_v[m].size() - 1);
      row.push_back(loop_v[m][j]);
      row.push_back(loop_f[m][j]);
    }
    const double vm = v0 - a + 2 * a * double(i) / double(rows - 1);
    row.push_back(vm);
    row.push_back(chaindyn::stribeck_static_map(map, vm));
    lag.row(row);
  }
  lag.close();
  ex::CsvWriter pre(out / "friction_presliding.csv", {"F_Nm", "x_rad"});
  for (std::size_t i = 0; i < pre_f.size(); ++i) pre.row({pre_f[i], pre_x[i]});
  pre.close();
  ex::CsvWriter ident(out / "friction_identification.csv",
                      {"v_rad_s", "tau_Nm", "tau_true_Nm", "tau_fit_Nm"});
  for (std::size_t k = 0; k < v.size(); k += 2) {
    // the positive-velocity runs (odd k) in order of speed
    const std::size_t i = k + 1;
    ident.row({v[i], tau[i], chaindyn::stribeck_static_map(truth, v[i]),
               chaindyn::stribeck_static_map(e, v[i])});
  }
  ident.close();
  std::printf("  wrote %s\n        %s\n        %s\n", (out / "friction_lag.csv").c_str(),
              (out / "friction_presliding.csv").c_str(), (out / "friction_identification.csv").c_str());
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
