// The Python module: the Lagrangian closed-form models (chaindyn.closed_form).
#include "bindings.hpp"

#include <chaindyn/closed_form.hpp>

namespace chaindyn::python {

namespace {

/// A closed-form model: its equation-of-motion terms, energies and its chain.
template <typename Model>
py::class_<Model> bind_closed_form(py::module_& m, const char* name, const char* doc) {
  constexpr int n = Model::nq;
  py::class_<Model> c(m, name, doc);
  c.def("mass_matrix", [](const Model& x, const py::object& q) {
       return typename Model::Matrix(x.mass_matrix(fixed_vec<n>(q, "mass_matrix", "q")));
     }, py::arg("q"))
      .def("coriolis_matrix", [](const Model& x, const py::object& q, const py::object& qd) {
        return typename Model::Matrix(x.coriolis_matrix(fixed_vec<n>(q, "coriolis_matrix", "q"),
                                                        fixed_vec<n>(qd, "coriolis_matrix", "qd")));
      }, py::arg("q"), py::arg("qd"))
      .def("gravity", [](const Model& x, const py::object& q) {
        return typename Model::Vector(x.gravity(fixed_vec<n>(q, "gravity", "q")));
      }, py::arg("q"))
      .def("inverse_dynamics", [](const Model& x, const py::object& q, const py::object& qd,
                                  const py::object& qdd) {
        const char* f = "inverse_dynamics";
        return typename Model::Vector(x.inverse_dynamics(fixed_vec<n>(q, f, "q"), fixed_vec<n>(qd, f, "qd"),
                                                         fixed_vec<n>(qdd, f, "qdd")));
      }, py::arg("q"), py::arg("qd"), py::arg("qdd"))
      .def("forward_dynamics", [](const Model& x, const py::object& q, const py::object& qd,
                                  const py::object& tau) {
        const char* f = "forward_dynamics";
        return typename Model::Vector(x.forward_dynamics(fixed_vec<n>(q, f, "q"), fixed_vec<n>(qd, f, "qd"),
                                                         fixed_vec<n>(tau, f, "tau")));
      }, py::arg("q"), py::arg("qd"), py::arg("tau"))
      .def("kinetic_energy", [](const Model& x, const py::object& q, const py::object& qd) {
        return x.kinetic_energy(fixed_vec<n>(q, "kinetic_energy", "q"),
                                fixed_vec<n>(qd, "kinetic_energy", "qd"));
      }, py::arg("q"), py::arg("qd"))
      .def("potential_energy", [](const Model& x, const py::object& q) {
        return x.potential_energy(fixed_vec<n>(q, "potential_energy", "q"));
      }, py::arg("q"))
      .def("to_robot", [](const Model& x) { return Robot::from(x.to_chain()); },
           "The same system as a chaindyn.Robot (the recursive algorithms' model).")
      .def_property_readonly_static("nq", [](const py::object&) { return n; })
      .def_readwrite("g", &Model::g);
  return c;
}

}  // namespace

void bind_closed_form(py::module_& m) {
  using py::arg;
  py::module_ cf = m.def_submodule("closed_form", "Lagrangian closed-form models.");
  using closed_form::OneLinkArm;
  using closed_form::SimplePendulum;
  using closed_form::SphericalPendulum;
  using closed_form::TwoLinkArm;
  auto one_link = bind_closed_form<OneLinkArm<double>>(cf, "OneLinkArm",
                                       "One-link arm (compound pendulum) in the vertical plane.");
  one_link
      .def(py::init<double, double, double, double, double>(), arg("m"), arg("a"), arg("d"),
           arg("I_c"), arg("g") = 9.81)
      .def_static("uniform_rod", &OneLinkArm<double>::uniform_rod, arg("m"), arg("a"),
                  arg("g") = 9.81)
      .def_readwrite("m", &OneLinkArm<double>::m)
      .def_readwrite("a", &OneLinkArm<double>::a)
      .def_readwrite("d", &OneLinkArm<double>::d)
      .def_readwrite("I_c", &OneLinkArm<double>::I_c);
  auto two_link = bind_closed_form<TwoLinkArm<double>>(cf, "TwoLinkArm", "Two-link planar arm (vertical plane).");
  two_link
      .def(py::init<double, double, double, double, double, double, double, double, double>(),
           arg("m1"), arg("m2"), arg("a1"), arg("a2"), arg("d1"), arg("d2"), arg("I1"),
           arg("I2"), arg("g") = 9.81)
      .def_static("uniform_rods", &TwoLinkArm<double>::uniform_rods, arg("m1"), arg("m2"),
                  arg("a1"), arg("a2"), arg("g") = 9.81)
      .def_static("point_masses", &TwoLinkArm<double>::point_masses, arg("m1"), arg("m2"),
                  arg("a1"), arg("a2"), arg("g") = 9.81);
  auto simple = bind_closed_form<SimplePendulum<double>>(cf, "SimplePendulum", "Point mass on a massless rod.");
  simple
      .def(py::init<double, double, double>(), arg("m"), arg("l"), arg("g") = 9.81);
  auto spherical = bind_closed_form<SphericalPendulum<double>>(cf, "SphericalPendulum",
                                              "Spherical pendulum, coordinates (theta, phi).");
  spherical
      .def(py::init<double, double, double>(), arg("m"), arg("l"), arg("g") = 9.81);
}

}  // namespace chaindyn::python
