// The Lagrangian closed forms (chaindyn::closed_form) against two independent paths: the chain
// algorithms run on to_chain(), and the models' own Lagrangian L = T - V differentiated by
// finite differences. Every model is checked on kStates seeded random states, each with its own
// random parameters; the worst error of every model and check is printed in one table at the
// end of the run. The seeds' published formulas are in test_closed_form_seeds.cpp.
#include "support/test_support.hpp"

#include <chaindyn/closed_form/closed_form.hpp>

#ifndef CATCH_CONFIG_EXTERNAL_INTERFACES  // for the listener that prints the table
#define CATCH_CONFIG_EXTERNAL_INTERFACES  // (tests/CMakeLists.txt defines it for the target)
#endif
#include <catch2/catch.hpp>
#include <unsupported/Eigen/AutoDiff>

#include <algorithm>
#include <iomanip>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace chaindyn;
using namespace chaindyn::closed_form;
using chaindyn::test::relative_error;
using chaindyn::test::uniform;

using chaindyn::test::kPi;
constexpr int kStates = 60;
constexpr double kChainTolerance = 1e-12;       // closed form vs chain algorithm
constexpr double kDifferenceTolerance = 1e-6;   // closed form vs finite differences
constexpr double kFloatTolerance = 1e-5;        // float vs double
constexpr double kStep = 1e-3;                  // finite-difference step (5-point stencils)

// ---- Random models and states ---------------------------------------------------------------

/// Random parameters and configurations per model; `name` labels the reports.
template <typename Model>
struct Random;

template <>
struct Random<SimplePendulum<double>> {
  static constexpr const char* name = "SimplePendulum";
  static SimplePendulum<double> model(std::mt19937& gen, int /*i*/) {
    return SimplePendulum<double>(uniform(gen, 0.2, 3.0), uniform(gen, 0.2, 2.0),
                                  uniform(gen, 1.0, 15.0));
  }
  static Eigen::Matrix<double, 1, 1> q(std::mt19937& gen) {
    return Eigen::Matrix<double, 1, 1>(uniform(gen, -kPi, kPi));
  }
};

template <>
struct Random<OneLinkArm<double>> {
  static constexpr const char* name = "OneLinkArm";
  /// Every other state the seeds' uniform rod, otherwise a general link (possibly with its
  /// centre of mass beyond its end, as a link carrying a load).
  static OneLinkArm<double> model(std::mt19937& gen, int i) {
    const double m = uniform(gen, 0.2, 3.0);
    const double a = uniform(gen, 0.2, 2.0);
    const double g = uniform(gen, 1.0, 15.0);
    if (i % 2 == 0) return OneLinkArm<double>::uniform_rod(m, a, g);
    return OneLinkArm<double>(m, a, uniform(gen, 0.0, 1.2 * a),
                              uniform(gen, 0.01, 0.2) * m * a * a, g);
  }
  static Eigen::Matrix<double, 1, 1> q(std::mt19937& gen) {
    return Eigen::Matrix<double, 1, 1>(uniform(gen, -kPi, kPi));
  }
};

template <>
struct Random<TwoLinkArm<double>> {
  static constexpr const char* name = "TwoLinkArm";
  /// In turn a general arm, Asfour's point masses and Saha's uniform rods.
  static TwoLinkArm<double> model(std::mt19937& gen, int i) {
    const double m1 = uniform(gen, 0.2, 3.0);
    const double m2 = uniform(gen, 0.2, 3.0);
    const double a1 = uniform(gen, 0.2, 1.5);
    const double a2 = uniform(gen, 0.2, 1.5);
    const double g = uniform(gen, 1.0, 15.0);
    switch (i % 3) {
      case 0:
        return TwoLinkArm<double>(m1, m2, a1, a2, uniform(gen, 0.0, a1),
                                  uniform(gen, 0.1 * a2, a2), uniform(gen, 0.0, 0.2) * m1 * a1 * a1,
                                  uniform(gen, 0.0, 0.2) * m2 * a2 * a2, g);
      case 1:
        return TwoLinkArm<double>::point_masses(m1, m2, a1, a2, g);
      default:
        return TwoLinkArm<double>::uniform_rods(m1, m2, a1, a2, g);
    }
  }
  static Eigen::Vector2d q(std::mt19937& gen) {
    return Eigen::Vector2d(uniform(gen, -kPi, kPi), uniform(gen, -kPi, kPi));
  }
};

template <>
struct Random<SphericalPendulum<double>> {
  static constexpr const char* name = "SphericalPendulum";
  static SphericalPendulum<double> model(std::mt19937& gen, int /*i*/) {
    return SphericalPendulum<double>(uniform(gen, 0.2, 3.0), uniform(gen, 0.2, 2.0),
                                     uniform(gen, 1.0, 15.0));
  }
  /// theta in [0.3, pi - 0.3]: away from the coordinate singularity sin theta = 0.
  static Eigen::Vector2d q(std::mt19937& gen) {
    return Eigen::Vector2d(uniform(gen, 0.3, kPi - 0.3), uniform(gen, -kPi, kPi));
  }
};

template <typename Model>
struct Sample {
  Model model;
  typename Model::Vector q, qd, qdd, tau;
};

/// kStates seeded samples: random parameters, q, qd in [-3, 3], qdd in [-5, 5], tau in
/// [-10, 10].
template <typename Model>
std::vector<Sample<Model>> samples() {
  using Vector = typename Model::Vector;
  std::mt19937 gen(test::kSeed);
  std::vector<Sample<Model>> out;
  for (int i = 0; i < kStates; ++i) {
    Sample<Model> s{Random<Model>::model(gen, i), Random<Model>::q(gen), Vector(), Vector(),
                    Vector()};
    s.qd = test::random_state<Vector>(gen, 3.0);
    s.qdd = test::random_state<Vector>(gen, 5.0);
    s.tau = test::random_state<Vector>(gen, 10.0);
    out.push_back(s);
  }
  return out;
}

// ---- The table of worst errors ----------------------------------------------------------------

struct WorstError {
  std::string model, check;
  std::size_t states;
  double worst, tolerance;
};

std::vector<WorstError>& worst_errors() {
  static std::vector<WorstError> table;
  return table;
}

/// Prints worst_errors(), grouped by model, when the test run ends.
struct WorstErrorTable : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testRunEnded(const Catch::TestRunStats& stats) override {
    std::vector<WorstError> table = worst_errors();
    if (!table.empty()) {
      std::vector<std::string> models;
      for (const WorstError& w : table) {
        if (std::find(models.begin(), models.end(), w.model) == models.end()) {
          models.push_back(w.model);
        }
      }
      const auto rank = [&](const WorstError& w) {
        return std::find(models.begin(), models.end(), w.model) - models.begin();
      };
      std::stable_sort(table.begin(), table.end(), [&](const WorstError& a, const WorstError& b) {
        return rank(a) < rank(b);
      });
      stream << "\nClosed forms: worst error per model and check (relative: max |a - b| / "
                "max(1, max |b|))\n";
      for (const WorstError& w : table) {
        stream << "  " << std::left << std::setw(18) << w.model << std::setw(62) << w.check
               << std::right << std::setw(4) << w.states << " states  worst " << std::scientific
               << std::setprecision(2) << w.worst << "  tolerance " << w.tolerance
               << std::defaultfloat << '\n';
      }
      stream << std::endl;
    }
    TestEventListenerBase::testRunEnded(stats);
  }
};
CATCH_REGISTER_LISTENER(WorstErrorTable)

/// Runs `error_of(sample)` on every sample, checks each error against `tolerance` and records
/// the worst in the table.
template <typename Model, typename ErrorOf>
void check_samples(const std::string& what, double tolerance, ErrorOf&& error_of) {
  const std::vector<Sample<Model>> cases = samples<Model>();
  double worst = 0.0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const double e = error_of(cases[i]);
    INFO(Random<Model>::name << ", state " << i << ": " << what << ", error " << e
                             << " (tolerance " << tolerance << ")");
    CHECK(e <= tolerance);
    if (!(e <= worst)) worst = e;
  }
  worst_errors().push_back({Random<Model>::name, what, cases.size(), worst, tolerance});
}

// ---- Chain coordinates ----------------------------------------------------------------------

template <typename Model>
typename Model::Vector to_chain(const typename Model::Vector& v) {
  return Model::to_chain_coordinates(v);
}
template <typename Model>
typename Model::Vector from_chain(const typename Model::Vector& v) {
  return Model::from_chain_coordinates(v);
}
/// A matrix of the chain's coordinates (rows and columns) in the model's: P^T A P.
template <typename Model>
typename Model::Matrix from_chain_matrix(const typename Model::Matrix& a) {
  typename Model::Matrix rows, out;
  for (int j = 0; j < Model::nq; ++j) rows.col(j) = Model::from_chain_coordinates(a.col(j));
  for (int i = 0; i < Model::nq; ++i) {
    out.row(i) = Model::from_chain_coordinates(rows.row(i).transpose()).transpose();
  }
  return out;
}

// ---- Finite differences ---------------------------------------------------------------------

/// f'(0) by the 5-point central difference (f(-2h) - 8 f(-h) + 8 f(h) - f(2h)) / (12 h),
/// error O(h^4); f returns a number or an Eigen matrix.
template <typename F>
auto derivative(const F& f, double h) {
  using R = std::decay_t<decltype(f(0.0))>;
  const R a = f(-2.0 * h), b = f(-h), c = f(h), d = f(2.0 * h);
  return R(((a - 8.0 * b) + (8.0 * c - d)) / (12.0 * h));
}

/// Mdot = d/dt M(q + t qd) at t = 0.
template <typename Model>
typename Model::Matrix mass_matrix_rate(const Model& model, const typename Model::Vector& q,
                                        const typename Model::Vector& qd) {
  return derivative([&](double t) { return model.mass_matrix(q + t * qd); }, kStep);
}

/// C_ij = sum_k c_ijk qd_k, c_ijk = 1/2 (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i), dM/dq_k by
/// finite differences.
template <typename Model>
typename Model::Matrix christoffel_coriolis(const Model& model, const typename Model::Vector& q,
                                            const typename Model::Vector& qd) {
  using Matrix = typename Model::Matrix;
  constexpr int n = Model::nq;
  std::vector<Matrix> dm;
  for (int k = 0; k < n; ++k) {
    dm.push_back(derivative(
        [&](double h) { return model.mass_matrix(q + h * Model::Vector::Unit(k)); }, kStep));
  }
  Matrix c = Matrix::Zero();
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      for (int k = 0; k < n; ++k) {
        c(i, j) += 0.5 * (dm[k](i, j) + dm[j](i, k) - dm[i](j, k)) * qd[k];
      }
    }
  }
  return c;
}

/// tau = d/dt (dL/dqd) - dL/dq with L = kinetic_energy - potential_energy: dL/dqd and dL/dq by
/// finite differences, d/dt along q(t) = q + t qd + t^2/2 qdd, qd(t) = qd + t qdd.
template <typename Model>
typename Model::Vector euler_lagrange(const Model& model, const typename Model::Vector& q,
                                      const typename Model::Vector& qd,
                                      const typename Model::Vector& qdd) {
  using Vector = typename Model::Vector;
  const auto lagrangian = [&](const Vector& q_, const Vector& qd_) {
    return model.kinetic_energy(q_, qd_) - model.potential_energy(q_);
  };
  const auto momentum = [&](const Vector& q_, const Vector& qd_) {  // dL/dqd
    Vector p;
    for (int i = 0; i < Model::nq; ++i) {
      p[i] = derivative([&](double h) { return lagrangian(q_, qd_ + h * Vector::Unit(i)); },
                        kStep);
    }
    return p;
  };
  const Vector momentum_rate = derivative(
      [&](double t) { return momentum(q + t * qd + 0.5 * t * t * qdd, qd + t * qdd); }, kStep);
  Vector dl_dq;
  for (int i = 0; i < Model::nq; ++i) {
    dl_dq[i] = derivative([&](double h) { return lagrangian(q + h * Vector::Unit(i), qd); },
                          kStep);
  }
  return momentum_rate - dl_dq;
}

}  // namespace

// ---- The chain algorithms on to_chain() -----------------------------------------------------

#define CLOSED_FORM_MODELS \
  SimplePendulum<double>, OneLinkArm<double>, TwoLinkArm<double>, SphericalPendulum<double>

TEMPLATE_TEST_CASE("rnea of to_chain() equals the Lagrangian inverse_dynamics",
                   "[closed_form][chain]", CLOSED_FORM_MODELS) {
  check_samples<TestType>("rnea vs inverse_dynamics", kChainTolerance, [](const auto& s) {
    const auto tau = rnea(s.model.to_chain(), to_chain<TestType>(s.q), to_chain<TestType>(s.qd),
                          to_chain<TestType>(s.qdd));
    return relative_error(from_chain<TestType>(tau), s.model.inverse_dynamics(s.q, s.qd, s.qdd));
  });
}

TEMPLATE_TEST_CASE("crba of to_chain() equals mass_matrix", "[closed_form][chain]",
                   CLOSED_FORM_MODELS) {
  check_samples<TestType>("crba vs mass_matrix", kChainTolerance, [](const auto& s) {
    const auto m = crba(s.model.to_chain(), to_chain<TestType>(s.q));
    return relative_error(from_chain_matrix<TestType>(m), s.model.mass_matrix(s.q));
  });
}

TEMPLATE_TEST_CASE("gravity_torques of to_chain() equals gravity", "[closed_form][chain]",
                   CLOSED_FORM_MODELS) {
  check_samples<TestType>("gravity_torques vs gravity", kChainTolerance, [](const auto& s) {
    const auto g = gravity_torques(s.model.to_chain(), to_chain<TestType>(s.q));
    return relative_error(from_chain<TestType>(g), s.model.gravity(s.q));
  });
}

TEMPLATE_TEST_CASE("nonlinear_effects of to_chain() equals coriolis_matrix qd + gravity",
                   "[closed_form][chain]", CLOSED_FORM_MODELS) {
  check_samples<TestType>("nonlinear_effects vs C qd + g", kChainTolerance, [](const auto& s) {
    const auto h =
        nonlinear_effects(s.model.to_chain(), to_chain<TestType>(s.q), to_chain<TestType>(s.qd));
    const typename TestType::Vector expected =
        s.model.coriolis_matrix(s.q, s.qd) * s.qd + s.model.gravity(s.q);
    return relative_error(from_chain<TestType>(h), expected);
  });
}

TEMPLATE_TEST_CASE("aba of to_chain() equals forward_dynamics", "[closed_form][chain]",
                   CLOSED_FORM_MODELS) {
  check_samples<TestType>("aba vs forward_dynamics", kChainTolerance, [](const auto& s) {
    const auto qdd = aba(s.model.to_chain(), to_chain<TestType>(s.q), to_chain<TestType>(s.qd),
                         to_chain<TestType>(s.tau));
    return relative_error(from_chain<TestType>(qdd), s.model.forward_dynamics(s.q, s.qd, s.tau));
  });
}

TEMPLATE_TEST_CASE("forward_dynamics_crba of to_chain() equals forward_dynamics",
                   "[closed_form][chain]", CLOSED_FORM_MODELS) {
  check_samples<TestType>("forward_dynamics_crba vs forward_dynamics", kChainTolerance,
                          [](const auto& s) {
                            const auto qdd = forward_dynamics_crba(
                                s.model.to_chain(), to_chain<TestType>(s.q),
                                to_chain<TestType>(s.qd), to_chain<TestType>(s.tau));
                            return relative_error(from_chain<TestType>(qdd),
                                                  s.model.forward_dynamics(s.q, s.qd, s.tau));
                          });
}

TEMPLATE_TEST_CASE("kinetic_energy of to_chain() equals kinetic_energy", "[closed_form][chain]",
                   CLOSED_FORM_MODELS) {
  check_samples<TestType>("chain kinetic_energy vs kinetic_energy", kChainTolerance,
                          [](const auto& s) {
                            const double t = kinetic_energy(
                                s.model.to_chain(), to_chain<TestType>(s.q),
                                to_chain<TestType>(s.qd));
                            return relative_error(t, s.model.kinetic_energy(s.q, s.qd));
                          });
}

TEMPLATE_TEST_CASE("potential_energy of to_chain() equals potential_energy (same zero)",
                   "[closed_form][chain]", CLOSED_FORM_MODELS) {
  check_samples<TestType>("chain potential_energy vs potential_energy", kChainTolerance,
                          [](const auto& s) {
                            const double v =
                                potential_energy(s.model.to_chain(), to_chain<TestType>(s.q));
                            return relative_error(v, s.model.potential_energy(s.q));
                          });
}

// ---- The closed forms on their own ----------------------------------------------------------

TEMPLATE_TEST_CASE("mass_matrix is symmetric positive definite", "[closed_form]",
                   CLOSED_FORM_MODELS) {
  check_samples<TestType>("asymmetry of mass_matrix", 0.0, [](const auto& s) {
    const typename TestType::Matrix m = s.model.mass_matrix(s.q);
    const double smallest = test::symmetric_eigenvalues(m).minCoeff();
    INFO("smallest eigenvalue " << smallest);
    CHECK(smallest > 0.0);
    return relative_error(m, m.transpose());
  });
}

TEMPLATE_TEST_CASE(
    "Mdot - 2C is skew-symmetric, with Mdot by central differences of mass_matrix along qd",
    "[closed_form]", CLOSED_FORM_MODELS) {
  check_samples<TestType>("(Mdot - 2C) + (Mdot - 2C)^T", 1e-8, [](const auto& s) {
    const typename TestType::Matrix n =
        mass_matrix_rate(s.model, s.q, s.qd) - 2.0 * s.model.coriolis_matrix(s.q, s.qd);
    const typename TestType::Matrix minus_nt = -n.transpose();
    return relative_error(n, minus_nt);
  });
}

TEMPLATE_TEST_CASE(
    "coriolis_matrix is the Christoffel form of mass_matrix (finite-difference dM/dq)",
    "[closed_form]", CLOSED_FORM_MODELS) {
  check_samples<TestType>("coriolis_matrix vs Christoffel symbols", 1e-8, [](const auto& s) {
    return relative_error(s.model.coriolis_matrix(s.q, s.qd),
                          christoffel_coriolis(s.model, s.q, s.qd));
  });
}

TEMPLATE_TEST_CASE(
    "inverse_dynamics satisfies the Euler-Lagrange equations of kinetic_energy - "
    "potential_energy (finite differences)",
    "[closed_form]", CLOSED_FORM_MODELS) {
  check_samples<TestType>("inverse_dynamics vs d/dt dL/dqd - dL/dq", kDifferenceTolerance,
                          [](const auto& s) {
                            return relative_error(s.model.inverse_dynamics(s.q, s.qd, s.qdd),
                                                  euler_lagrange(s.model, s.q, s.qd, s.qdd));
                          });
}

TEMPLATE_TEST_CASE("kinetic_energy equals 1/2 qd^T mass_matrix qd", "[closed_form]",
                   CLOSED_FORM_MODELS) {
  check_samples<TestType>("kinetic_energy vs 1/2 qd^T M qd", 1e-14, [](const auto& s) {
    const double t = 0.5 * s.qd.dot(s.model.mass_matrix(s.q) * s.qd);
    return relative_error(s.model.kinetic_energy(s.q, s.qd), t);
  });
}

TEMPLATE_TEST_CASE("forward_dynamics inverts inverse_dynamics", "[closed_form]",
                   CLOSED_FORM_MODELS) {
  check_samples<TestType>("forward_dynamics(inverse_dynamics(qdd)) vs qdd", 1e-12,
                          [](const auto& s) {
                            const typename TestType::Vector tau =
                                s.model.inverse_dynamics(s.q, s.qd, s.qdd);
                            return relative_error(s.model.forward_dynamics(s.q, s.qd, tau), s.qdd);
                          });
}

// ---- Other scalar types ---------------------------------------------------------------------

TEMPLATE_TEST_CASE("the float instantiation agrees with double to float precision",
                   "[closed_form][float]", CLOSED_FORM_MODELS) {
  using ModelF = std::decay_t<decltype(std::declval<TestType>().template cast<float>())>;
  check_samples<TestType>("float vs double (worst of M, C, g, ID, FD, T, V, float rnea)",
                          kFloatTolerance, [](const auto& s) {
                            const ModelF mf = s.model.template cast<float>();
                            const auto q = s.q.template cast<float>().eval();
                            const auto qd = s.qd.template cast<float>().eval();
                            const auto qdd = s.qdd.template cast<float>().eval();
                            const auto tau = s.tau.template cast<float>().eval();
                            const auto& md = s.model;
                            const double errors[] = {
                                relative_error(mf.mass_matrix(q), md.mass_matrix(s.q)),
                                relative_error(mf.coriolis_matrix(q, qd),
                                               md.coriolis_matrix(s.q, s.qd)),
                                relative_error(mf.gravity(q), md.gravity(s.q)),
                                relative_error(mf.inverse_dynamics(q, qd, qdd),
                                               md.inverse_dynamics(s.q, s.qd, s.qdd)),
                                relative_error(mf.forward_dynamics(q, qd, tau),
                                               md.forward_dynamics(s.q, s.qd, s.tau)),
                                relative_error(double(mf.kinetic_energy(q, qd)),
                                               md.kinetic_energy(s.q, s.qd)),
                                relative_error(double(mf.potential_energy(q)),
                                               md.potential_energy(s.q)),
                                relative_error(
                                    ModelF::from_chain_coordinates(
                                        rnea(mf.to_chain(), ModelF::to_chain_coordinates(q),
                                             ModelF::to_chain_coordinates(qd),
                                             ModelF::to_chain_coordinates(qdd))),
                                    md.inverse_dynamics(s.q, s.qd, s.qdd))};
                            return *std::max_element(std::begin(errors), std::end(errors));
                          });
}

namespace {

/// The largest |a.value() - b| and |a.derivatives() - db| of AutoDiffScalar results, relative
/// to max(1, |b|) and max(1, |db|).
template <typename AdVector, typename Vector, typename Jacobian>
double autodiff_error(const AdVector& a, const Vector& b, const Jacobian& db) {
  Vector value;
  Jacobian jacobian;
  for (int i = 0; i < b.size(); ++i) {
    value[i] = a[i].value();
    jacobian.row(i) = a[i].derivatives().transpose();
  }
  return std::max(relative_error(value, b), relative_error(jacobian, db));
}

}  // namespace

TEMPLATE_TEST_CASE(
    "AutoDiffScalar instantiation: gravity is the gradient of potential_energy and M qd the "
    "gradient of kinetic_energy in qd",
    "[closed_form][autodiff]", CLOSED_FORM_MODELS) {
  constexpr int n = TestType::nq;
  using Ad = Eigen::AutoDiffScalar<Eigen::Matrix<double, n, 1>>;
  using AdVector = Eigen::Matrix<Ad, n, 1>;
  check_samples<TestType>("AD gradients of V and T vs gravity and M qd", 1e-13,
                          [](const auto& s) {
                            const auto model = s.model.template cast<Ad>();
                            AdVector q = s.q.template cast<Ad>(), qd = s.qd.template cast<Ad>();
                            for (int i = 0; i < n; ++i) {
                              q[i] = Ad(s.q[i], n, i);
                              qd[i] = Ad(s.qd[i], n, i);
                            }
                            const Ad v = model.potential_energy(q);
                            const Ad t = model.kinetic_energy(s.q.template cast<Ad>(), qd);
                            const typename TestType::Vector mqd =
                                s.model.mass_matrix(s.q) * s.qd;
                            return std::max(
                                relative_error(v.derivatives(), s.model.gravity(s.q)),
                                relative_error(t.derivatives(), mqd));
                          });
}

TEMPLATE_TEST_CASE(
    "AutoDiffScalar instantiation: rnea of to_chain() and its derivative in q equal "
    "inverse_dynamics and its derivative",
    "[closed_form][autodiff]", CLOSED_FORM_MODELS) {
  constexpr int n = TestType::nq;
  using Ad = Eigen::AutoDiffScalar<Eigen::Matrix<double, n, 1>>;
  using AdVector = Eigen::Matrix<Ad, n, 1>;
  using AdModel = std::decay_t<decltype(std::declval<TestType>().template cast<Ad>())>;
  check_samples<TestType>("AD rnea (value and d/dq) vs inverse_dynamics", 1e-12,
                          [](const auto& s) {
                            const AdModel model = s.model.template cast<Ad>();
                            AdVector q = s.q.template cast<Ad>();
                            for (int i = 0; i < n; ++i) q[i] = Ad(s.q[i], n, i);
                            const AdVector qd = s.qd.template cast<Ad>();
                            const AdVector qdd = s.qdd.template cast<Ad>();
                            const AdVector tau_chain = AdModel::from_chain_coordinates(
                                rnea(model.to_chain(), AdModel::to_chain_coordinates(q),
                                     AdModel::to_chain_coordinates(qd),
                                     AdModel::to_chain_coordinates(qdd)));
                            const AdVector tau = model.inverse_dynamics(q, qd, qdd);
                            typename TestType::Vector value;
                            typename TestType::Matrix jacobian;
                            for (int i = 0; i < n; ++i) {
                              value[i] = tau[i].value();
                              jacobian.row(i) = tau[i].derivatives().transpose();
                            }
                            return autodiff_error(tau_chain, value, jacobian);
                          });
}
