// The Python module: the rest-to-rest trajectories (cycloidal, quintic, trapezoidal).
#include "bindings.hpp"

#include <chaindyn/simulation/trajectories.hpp>

namespace chaindyn::python {

namespace {

/// A trajectory class: __call__(t) -> (q, qd, qdd), sample(times) -> three (N, n) arrays.
template <typename Trajectory>
void bind_trajectory_calls(py::class_<Trajectory>& c) {
  c.def("__call__",
        [](const Trajectory& tr, double t) {
          if (!std::isfinite(t)) {
            throw py::value_error("chaindyn: trajectory: t is not finite (" + std::to_string(t) +
                                  ")");
          }
          const auto s = tr(t);
          return py::make_tuple(Vec(s.q), Vec(s.qd), Vec(s.qdd));
        },
        py::arg("t"), "(q, qd, qdd) at time t (s); the end points are held outside [0, T].")
      .def("sample",
           [](const Trajectory& tr, const py::object& times) {
             const VecArg t = vec_arg(times, "sample", "times");
             const auto first = tr(0.0);
             const Eigen::Index n = first.q.size();
             Mat q(t.map().size(), n), qd(t.map().size(), n), qdd(t.map().size(), n);
             for (Eigen::Index k = 0; k < t.map().size(); ++k) {
               const auto s = tr(t.map()[k]);
               q.row(k) = s.q.transpose();
               qd.row(k) = s.qd.transpose();
               qdd.row(k) = s.qdd.transpose();
             }
             return py::make_tuple(q, qd, qdd);
           },
           py::arg("times"), "(q, qd, qdd) at each time: three (len(times), n) arrays.")
      .def_property_readonly("duration", &Trajectory::duration, "T (s).");
}


}  // namespace

void bind_trajectories(py::module_& m) {
  using py::arg;
  using Cycloidal = CycloidalTrajectory<Vec>;
  py::class_<Cycloidal> cyc(m, "CycloidalTrajectory",
                            "Rest-to-rest cycloidal motion q0 -> qf in T seconds (the lecture "
                            "notes' one-link arm trajectory).");
  cyc.def(py::init([](const py::object& q0, const py::object& qf, double duration) {
            return Cycloidal(vec_arg(q0, "CycloidalTrajectory", "q0").map(),
                             vec_arg(qf, "CycloidalTrajectory", "qf").map(), duration);
          }),
          arg("q0"), arg("qf"), arg("duration"));
  bind_trajectory_calls(cyc);
  using Quintic = QuinticTrajectory<Vec>;
  py::class_<Quintic> quin(m, "QuinticTrajectory",
                           "Rest-to-rest quintic polynomial q0 -> qf in T seconds.");
  quin.def(py::init([](const py::object& q0, const py::object& qf, double duration) {
             return Quintic(vec_arg(q0, "QuinticTrajectory", "q0").map(),
                            vec_arg(qf, "QuinticTrajectory", "qf").map(), duration);
           }),
           arg("q0"), arg("qf"), arg("duration"));
  bind_trajectory_calls(quin);
  using Trapezoidal = TrapezoidalTrajectory<Vec>;
  py::class_<Trapezoidal> trap(m, "TrapezoidalTrajectory",
                               "Trapezoidal velocity profile q0 -> qf under per-joint v_max, "
                               "a_max, all joints synchronized.");
  trap.def(py::init([](const py::object& q0, const py::object& qf, const py::object& v_max,
                       const py::object& a_max) {
             const char* f = "TrapezoidalTrajectory";
             return Trapezoidal(vec_arg(q0, f, "q0").map(), vec_arg(qf, f, "qf").map(),
                                vec_arg(v_max, f, "v_max").map(), vec_arg(a_max, f, "a_max").map());
           }),
           arg("q0"), arg("qf"), arg("v_max"), arg("a_max"));
  bind_trajectory_calls(trap);
}

}  // namespace chaindyn::python
