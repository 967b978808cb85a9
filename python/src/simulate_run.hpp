// The Python module's simulate with a Python controller, shared by the fixed-base robots
// (simulation.cpp), the moving bases (floating.cpp) and, for its options, the elastic joints
// (elastic.cpp).
#pragma once

#include "bindings.hpp"

#include <chaindyn/simulation.hpp>

#include <string>

namespace chaindyn::python {

/// The integrator named `s` (simulate's and simulate_elastic's argument); ValueError otherwise.
Integrator integrator_arg(const std::string& s, const char* function);  // simulation.cpp

/// simulate's and simulate_elastic's options from their Python arguments.
inline IntegrationOptions<double> integration_options(const std::string& integrator, double dt,
                                                      double rtol, double atol,
                                                      double output_interval,
                                                      const char* function) {
  IntegrationOptions<double> o;
  o.integrator = integrator_arg(integrator, function);
  o.dt = dt;
  o.rtol = rtol;
  o.atol = atol;
  o.output_interval = output_interval;
  return o;
}

/// Runs simulate(r, q, v, ...) under tau = controller(t, q, v) (None: no force; nv entries
/// checked) and returns the Python result: t (N,), q (N, nq), qd, qdd, tau (N, nv), steps,
/// rejected_steps, evaluations.
template <typename Model>
py::dict simulate_to_dict(const Model& r, const Vec& q, const Vec& v, const py::object& controller,
                          double t_end, const IntegrationOptions<double>& options,
                          Eigen::Index nq, Eigen::Index nv) {
  const bool passive = controller.is_none();
  const auto control = [&](double t, const Vec& qs, const Vec& vs) -> Vec {
    if (passive) return Vec::Zero(nv);
    const py::object tau = controller(t, qs, vs);
    return Vec(vec_arg(tau, "simulate: the controller's result", "tau").map());
  };
  const auto run = simulate(r, q, v, control, t_end, options);
  py::dict out;
  out["t"] = Vec(Eigen::Map<const Vec>(run.t.data(), Eigen::Index(run.t.size())));
  out["q"] = stack_rows(run.q, nq);
  out["qd"] = stack_rows(run.qd, nv);
  out["qdd"] = stack_rows(run.qdd, nv);
  out["tau"] = stack_rows(run.tau, nv);
  out["steps"] = run.stats.steps;
  out["rejected_steps"] = run.stats.rejected_steps;
  out["evaluations"] = run.stats.evaluations;
  return out;
}

}  // namespace chaindyn::python
