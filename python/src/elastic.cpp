// The Python module: elastic joints (Spong's reduced model: chaindyn.ElasticJoints, the forward
// and flatness-inverse dynamics, the exact time derivatives of rnea, the energy, simulation
// with a Python motor-torque controller) and the friction models (Stribeck, LuGre).
#include "bindings.hpp"
#include "simulate_run.hpp"

#include <chaindyn/algorithms/elastic_joints.hpp>
#include <chaindyn/algorithms/friction_models.hpp>
#include <chaindyn/simulation/simulate_elastic.hpp>

#ifdef CHAINDYN_PYTHON_URDF
#include <chaindyn/urdf/elastic.hpp>
#endif

#include <vector>

namespace chaindyn::python {


namespace {

using Elastic = ElasticJoints<Robot>;


/// The elastic parameters must be the robot's (as many joints).
void check_elastic_arg(const Robot& r, const Elastic& e, const char* f) {
  if (e.stiffness.size() != Eigen::Index(r.joint_count())) {
    throw py::value_error(std::string("chaindyn: ") + f + ": the ElasticJoints have " +
                          std::to_string(e.stiffness.size()) + " joints; the robot has " +
                          std::to_string(r.joint_count()));
  }
}

StribeckParameters<double> stribeck_arg(double fc, double fs, double fv, double vs,
                                        double exponent, double eps) {
  StribeckParameters<double> p;
  p.coulomb = fc;
  p.static_friction = fs;
  p.viscous = fv;
  p.stribeck_velocity = vs;
  p.exponent = exponent;
  p.regularization = eps;
  validate(p);
  return p;
}

}  // namespace

void bind_elastic(py::module_& m) {
  using py::arg;
  py::class_<Elastic>(m, "ElasticJoints", R"doc(
Spong's reduced elastic-joint model on a Robot: every joint driven through a spring. Per joint:
stiffness K (N m/rad), spring damping D (N m s/rad), rotor inertia B reflected to the joint
(kg m^2); K = inf makes a joint rigid (D = B = 0 there; its rotor is the robot's armature). The links obey M qdd + C qd + g + f(qd) = K (theta - q) + D (thetad - qd), the motors
B thetadd + K (theta - q) + D (thetad - qd) = tau_m. docs/elastic_joints.md.)doc")
      .def(py::init([](const Robot& r, const py::object& k, const py::object& d,
                       const py::object& b) {
             const auto n = py::ssize_t(r.joint_count());
             const char* f = "ElasticJoints";
             return Elastic(r, joint_vec(n, k, f, "stiffness"), joint_vec(n, d, f, "damping"),
                            joint_vec(n, b, f, "rotor_inertia"));
           }),
           arg("robot"), arg("stiffness"), arg("damping"), arg("rotor_inertia"),
           "K, D and B, one entry per joint. Raises ModelError for K <= 0, D < 0, B <= 0 or a "
           "value that is not finite.")
      .def_property_readonly("stiffness", [](const Elastic& e) -> Vec { return e.stiffness; })
      .def_property_readonly("damping", [](const Elastic& e) -> Vec { return e.damping; })
      .def_property_readonly("rotor_inertia",
                             [](const Elastic& e) -> Vec { return e.rotor_inertia; })
      .def_property_readonly(
          "rigid",
          [](const Elastic& e) {
            std::vector<bool> out;
            for (Eigen::Index i = 0; i < e.stiffness.size(); ++i) out.push_back(e.rigid(i));
            return out;
          },
          "Per joint, whether it is rigid (stiffness inf: its motor drives the link directly).");

#ifdef CHAINDYN_PYTHON_URDF
  m.def(
      "load_urdf_elastic",
      [](const std::string& path, const Robot& r) { return urdf::load_elastic(path, r); },
      arg("path"), arg("robot"),
      "The ElasticJoints of a robot loaded from this URDF file, from the <chaindyn:elastic "
      "stiffness damping rotor_inertia> element of each of its joints (by joint name). Raises "
      "ModelError naming the joint.");
#endif
  m.def(
      "elastic_forward_dynamics",
      [](const Robot& r, const Elastic& e, const py::object& q, const py::object& qd,
         const py::object& theta, const py::object& thetad, const py::object& tau_m) {
        const char* f = "elastic_forward_dynamics";
        require_dynamics(r, f);
        check_elastic_arg(r, e, f);
        const auto n = py::ssize_t(r.joint_count());
        ElasticData<Robot> data(r);
        elastic_forward_dynamics(r, e, data, joint_vec(n, q, f, "q"), joint_vec(n, qd, f, "qd"),
                                 joint_vec(n, theta, f, "theta"),
                                 joint_vec(n, thetad, f, "thetad"),
                                 joint_vec(n, tau_m, f, "tau_m"));
        return py::make_tuple(Vec(data.qdd), Vec(data.thetadd));
      },
      arg("robot"), arg("elastic"), arg("q"), arg("qd"), arg("theta"), arg("thetad"),
      arg("tau_m"),
      "(qdd, thetadd): the links by aba under the spring torque, the motors by B^-1 (tau_m - "
      "spring). O(n).");
  m.def(
      "link_torque_derivatives",
      [](const Robot& r, const py::object& q, const py::object& qd, const py::object& qdd,
         const py::object& qddd, const py::object& qdddd) {
        const char* f = "link_torque_derivatives";
        const auto n = py::ssize_t(r.joint_count());
        ElasticData<Robot> data(r);
        link_torque_derivatives(r, data, joint_vec(n, q, f, "q"), joint_vec(n, qd, f, "qd"),
                                joint_vec(n, qdd, f, "qdd"), joint_vec(n, qddd, f, "qddd"),
                                joint_vec(n, qdddd, f, "qdddd"));
        return py::make_tuple(Vec(data.tau_link), Vec(data.tau_link_d), Vec(data.tau_link_dd));
      },
      arg("robot"), arg("q"), arg("qd"), arg("qdd"), arg("qddd"), arg("qdddd"),
      "(tau, dtau/dt, d2tau/dt2): rnea along a trajectory with jerk qddd and snap qdddd and "
      "its first two time derivatives, exact.");
  m.def(
      "elastic_inverse_dynamics",
      [](const Robot& r, const Elastic& e, const py::object& q, const py::object& qd,
         const py::object& qdd, const py::object& qddd, const py::object& qdddd,
         const py::object& deflection) {
        const char* f = "elastic_inverse_dynamics";
        check_elastic_arg(r, e, f);
        const auto n = py::ssize_t(r.joint_count());
        const Vec qv = joint_vec(n, q, f, "q"), qdv = joint_vec(n, qd, f, "qd"),
                  qddv = joint_vec(n, qdd, f, "qdd"), j = joint_vec(n, qddd, f, "qddd"),
                  s = joint_vec(n, qdddd, f, "qdddd");
        const ElasticInverse<Vec> out =
            deflection.is_none()
                ? elastic_inverse_dynamics(r, e, qv, qdv, qddv, j, s)
                : elastic_inverse_dynamics(r, e, qv, qdv, qddv, j, s,
                                           joint_vec(n, deflection, f, "deflection"));
        py::dict d;
        d["tau_m"] = out.tau_m;
        d["theta"] = out.theta;
        d["thetad"] = out.thetad;
        d["thetadd"] = out.thetadd;
        return d;
      },
      arg("robot"), arg("elastic"), arg("q"), arg("qd"), arg("qdd"), arg("qddd"), arg("qdddd"),
      arg("deflection") = py::none(),
      "The motor torque that makes the links follow q(t) (flatness, Spong 1987): a dict with "
      "tau_m, theta, thetad, thetadd. Joints with D > 0 need their deflection theta - q.");
  m.def(
      "elastic_energy",
      [](const Robot& r, const Elastic& e, const py::object& q, const py::object& qd,
         const py::object& theta, const py::object& thetad) {
        const char* f = "elastic_energy";
        check_elastic_arg(r, e, f);
        const auto n = py::ssize_t(r.joint_count());
        ElasticData<Robot> data(r);
        return elastic_energy(r, e, data, joint_vec(n, q, f, "q"), joint_vec(n, qd, f, "qd"),
                              joint_vec(n, theta, f, "theta"), joint_vec(n, thetad, f, "thetad"));
      },
      arg("robot"), arg("elastic"), arg("q"), arg("qd"), arg("theta"), arg("thetad"),
      "The links' kinetic and potential energy + the rotors' kinetic energy + the springs'.");
  m.def(
      "simulate_elastic",
      [](const Robot& r, const Elastic& e, const py::object& q0, const py::object& qd0,
         const py::object& theta0, const py::object& thetad0, const py::object& controller,
         double t_end, const std::string& integrator, double dt, double rtol, double atol,
         double output_interval) {
        const char* f = "simulate_elastic";
        require_dynamics(r, f);
        check_elastic_arg(r, e, f);
        const auto n = py::ssize_t(r.joint_count());
        const IntegrationOptions<double> o =
            integration_options(integrator, dt, rtol, atol, output_interval, f);
        const bool passive = controller.is_none();
        const auto control = [&](double t, const Vec& q, const Vec& qd, const Vec& th,
                                 const Vec& thd) -> Vec {
          if (passive) return Vec::Zero(n);
          return joint_vec(n, controller(t, q, qd, th, thd),
                           "simulate_elastic: the controller's result", "tau_m");
        };
        const ElasticResult<Vec> run =
            simulate_elastic(r, e, joint_vec(n, q0, f, "q0"), joint_vec(n, qd0, f, "qd0"),
                             joint_vec(n, theta0, f, "theta0"), joint_vec(n, thetad0, f, "thetad0"),
                             control, t_end, o);
        py::dict out;
        out["t"] = Vec(Eigen::Map<const Vec>(run.t.data(), Eigen::Index(run.t.size())));
        out["q"] = stack_rows(run.q, n);
        out["qd"] = stack_rows(run.qd, n);
        out["qdd"] = stack_rows(run.qdd, n);
        out["theta"] = stack_rows(run.theta, n);
        out["thetad"] = stack_rows(run.thetad, n);
        out["thetadd"] = stack_rows(run.thetadd, n);
        out["tau_m"] = stack_rows(run.tau_m, n);
        out["steps"] = run.stats.steps;
        return out;
      },
      arg("robot"), arg("elastic"), arg("q0"), arg("qd0"), arg("theta0"), arg("thetad0"),
      arg("controller") = py::none(), arg("t_end") = 1.0, arg("integrator") = "rk45",
      arg("dt") = 1e-3, arg("rtol") = 1e-6, arg("atol") = 1e-9, arg("output_interval") = 0.0,
      "Simulates the elastic robot under tau_m = controller(t, q, qd, theta, thetad) (None: no "
      "torque). Returns a dict: t, q, qd, qdd, theta, thetad, thetadd, tau_m (N rows), steps.");

  m.def(
      "stribeck_friction",
      [](const py::object& v, double coulomb, double static_friction, double viscous,
         double stribeck_velocity, double exponent, double regularization, bool smooth) -> Vec {
        const StribeckParameters<double> p = stribeck_arg(
            coulomb, static_friction, viscous, stribeck_velocity, exponent, regularization);
        const Vec vel = vec_arg(v, "stribeck_friction", "v").map();
        Vec out(vel.size());
        for (Eigen::Index i = 0; i < vel.size(); ++i) {
          out[i] = smooth ? stribeck_friction(p, vel[i]) : stribeck_static_map(p, vel[i]);
        }
        return out;
      },
      arg("v"), py::kw_only(), arg("coulomb"), arg("static_friction"), arg("viscous") = 0.0,
      arg("stribeck_velocity") = 0.01, arg("exponent") = 2.0, arg("regularization") = 1e-4,
      arg("smooth") = false,
      "The Stribeck friction at each velocity in v: the static map g(v) sign(v) + Fv v with "
      "g(v) = Fc + (Fs - Fc) exp(-|v/vs|^delta), or (smooth=True) its tanh(v/eps) "
      "regularisation for simulation. Raises ModelError for invalid parameters.");
  m.def(
      "lugre_friction",
      [](const py::object& v, const py::object& z, double sigma0, double sigma1, double coulomb,
         double static_friction, double sigma2, double stribeck_velocity, double exponent) {
        LuGreParameters<double> p;
        p.sigma0 = sigma0;
        p.sigma1 = sigma1;
        p.sigma2 = sigma2;
        p.curve = stribeck_arg(coulomb, static_friction, 0.0, stribeck_velocity, exponent, 1e-4);
        LuGreJoints<ChainX<double>>::validate(p);
        const char* f = "lugre_friction";
        const Vec vel = vec_arg(v, f, "v").map();
        const Vec zs = joint_vec(py::ssize_t(vel.size()), z, f, "z");
        Vec force(vel.size()), rate(vel.size());
        for (Eigen::Index i = 0; i < vel.size(); ++i) {
          rate[i] = lugre_state_rate(p, vel[i], zs[i]);
          force[i] = lugre_friction(p, vel[i], zs[i]);
        }
        return py::make_tuple(force, rate);
      },
      arg("v"), arg("z"), py::kw_only(), arg("sigma0"), arg("sigma1"), arg("coulomb"),
      arg("static_friction"), arg("sigma2") = 0.0, arg("stribeck_velocity") = 0.01,
      arg("exponent") = 2.0,
      "(friction, zdot) of the LuGre model (Canudas de Wit 1995) at velocities v and bristle "
      "states z: zdot = v - sigma0 |v| z / g(v), F = sigma0 z + sigma1 zdot + sigma2 v. "
      "Integrate z with your state. Raises ModelError for invalid parameters.");
}

}  // namespace chaindyn::python
