// The Python module: simulation with a Python controller (simulate).
#include "simulate_run.hpp"

#include <vector>

namespace chaindyn::python {

Integrator integrator_arg(const std::string& s, const char* function) {
  if (s == "rk45") return Integrator::rk45;
  if (s == "rk4") return Integrator::rk4;
  if (s == "semi_implicit_euler") return Integrator::semi_implicit_euler;
  throw py::value_error(std::string("chaindyn: ") + function + ": integrator is 'rk45', 'rk4' "
                        "or 'semi_implicit_euler', not '" + s + "'");
}

namespace {

/// simulate on a Robot or a TreeRobot: one body for both.
template <typename Model>
py::dict simulate_robot(const Model& r, const py::object& q0, const py::object& qd0,
                        const py::object& controller, double t_end, const std::string& integrator,
                        double dt, double rtol, double atol, double output_interval) {
  const char* f = "simulate";
  require_dynamics(r, f);
  const Vec q = vec_arg(q0, f, "q0").map(), qd = vec_arg(qd0, f, "qd0").map();
  const auto n = Eigen::Index(r.joint_count());
  return simulate_to_dict(r, q, qd, controller, t_end,
                          integration_options(integrator, dt, rtol, atol, output_interval, f), n, n);
}

/// Registers simulate for one robot type (Model: Robot, TreeRobot).
template <typename Model>
void def_simulate(py::module_& m) {
  using py::arg;
  m.def("simulate", &simulate_robot<Model>, arg("robot"), arg("q0"), arg("qd0"),
        arg("controller") = py::none(), arg("t_end") = 1.0, arg("integrator") = "rk45",
        arg("dt") = 1e-3, arg("rtol") = 1e-6, arg("atol") = 1e-9, arg("output_interval") = 0.0,
        "Simulates from (q0, qd0) to t_end under tau = controller(t, q, qd) (None: no torque), "
        "forward dynamics by aba. Returns a dict: t (N,), q, qd, qdd, tau (N, nq), steps, "
        "rejected_steps, evaluations. integrator: 'rk45' (adaptive, rtol/atol; "
        "output_interval > 0 for dense output), 'rk4' or 'semi_implicit_euler' (step dt). "
        "robot: a Robot or a TreeRobot.");
}

}  // namespace

void bind_simulation(py::module_& m) {
  def_simulate<Robot>(m);
  def_simulate<TreeRobot>(m);
}

}  // namespace chaindyn::python
