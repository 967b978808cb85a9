// The Python module: identification (regressors, payload identification), simulation with a
// Python controller, trajectories and the Lagrangian closed-form models.
#include "bindings.hpp"

#include <chaindyn/closed_form.hpp>
#include <chaindyn/identification.hpp>
#include <chaindyn/simulation.hpp>

namespace chaindyn::python {

namespace {

template <int N>
Eigen::Matrix<double, N, 1> fixed_vec(const py::handle& obj, const char* f, const char* name) {
  return fixed_arg<N, 1>(obj, f, name);
}

/// A joint vector of the robot's size as a VectorXd (the type a ChainX's in-place forms take),
/// not checked for finite numbers (the online estimator refuses such a sample itself).
Vec joint_vec(py::ssize_t n, const py::handle& obj, const char* f, const char* name) {
  Array a = as_array(obj, f, name);
  if (a.ndim() != 1 || a.shape(0) != n) {
    std::ostringstream os;
    os << "chaindyn: " << f << ": " << name << " has shape (";
    for (py::ssize_t k = 0; k < a.ndim(); ++k) os << (k ? ", " : "") << a.shape(k);
    os << (a.ndim() == 1 ? ",)" : ")") << "; a vector of " << n << " entries (the model's "
       << "joints) is expected";
    throw py::value_error(os.str());
  }
  return Vec(VecMap(a.data(), n));
}

/// Rows of a list of vectors as an (N, n) array.
Mat stack(const std::vector<Vec>& rows, Eigen::Index n) {
  Mat out(Eigen::Index(rows.size()), n);
  for (std::size_t k = 0; k < rows.size(); ++k) out.row(Eigen::Index(k)) = rows[k].transpose();
  return out;
}

Integrator integrator_arg(const std::string& s) {
  if (s == "rk45") return Integrator::rk45;
  if (s == "rk4") return Integrator::rk4;
  if (s == "semi_implicit_euler") return Integrator::semi_implicit_euler;
  throw py::value_error("chaindyn: simulate: integrator is 'rk45', 'rk4' or "
                        "'semi_implicit_euler', not '" + s + "'");
}

/// A trajectory class: __call__(t) -> (q, qd, qdd), sample(times) -> three (N, n) arrays.
template <typename Trajectory>
void bind_trajectory_calls(py::class_<Trajectory>& c) {
  c.def("__call__",
        [](const Trajectory& tr, double t) {
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

void bind_extras(py::module_& m) {
  using py::arg;
  // --- identification ---
  m.def("regressor", [](const Robot& r, const py::object& q, const py::object& qd, const py::object& qdd) -> Mat {
          const char* f = "regressor";
          return regressor(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map(), vec_arg(qdd, f, "qdd").map());
        }, arg("robot"), arg("q"), arg("qd"), arg("qdd"),
        "Y (nq x 10 nq): rnea's rigid-body part = Y @ inertial_parameters(robot).");
  m.def("regressor_with_joint_dynamics", [](const Robot& r, const py::object& q, const py::object& qd,
                                             const py::object& qdd) -> Mat {
          const char* f = "regressor_with_joint_dynamics";
          return regressor_with_joint_dynamics(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map(),
                                               vec_arg(qdd, f, "qdd").map());
        }, arg("robot"), arg("q"), arg("qd"), arg("qdd"),
        "Y (nq x 13 nq) with damping, Coulomb and armature columns: rnea = Y @ "
        "parameters_with_joint_dynamics(robot).");
  m.def("inertial_parameters", [](const Robot& r) -> Vec { return inertial_parameters(r); },
        arg("robot"),
        "10 per link: m, m c (3), I about the link origin xx xy xz yy yz zz.");
  m.def("parameters_with_joint_dynamics",
        [](const Robot& r) -> Vec { return parameters_with_joint_dynamics(r); }, arg("robot"));

  using Identification = PayloadIdentification<Robot>;
  py::class_<Identification>(m, "PayloadIdentification", R"doc(
Least-squares identification of a payload on one link (default: the last) from samples
(q, qd, qdd, tau) measured with the payload attached: add_sample(...), then estimate().)doc")
      .def(py::init([](const Robot& r, const py::object& link) {
             return Identification(r, link.is_none() ? Identification::last_link
                                                     : link.cast<std::size_t>());
           }),
           arg("robot"), arg("link") = py::none())
      .def("add_sample",
           [](Identification& id, const py::object& q, const py::object& qd, const py::object& qdd,
              const py::object& tau) {
             const char* f = "PayloadIdentification.add_sample";
             id.add_sample(vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map(),
                           vec_arg(qdd, f, "qdd").map(), vec_arg(tau, f, "tau").map());
           },
           arg("q"), arg("qd"), arg("qdd"), arg("tau"))
      .def_property_readonly("samples", &Identification::samples)
      .def("estimate", [](const Identification& id) {
        const PayloadEstimate<double> e = id.estimate();
        py::dict out;
        out["ok"] = e.ok();
        out["mass"] = e.payload ? py::cast(e.payload->mass) : py::none();
        out["com"] = e.payload ? py::cast(Eigen::Vector3d(e.payload->com)) : py::none();
        out["inertia"] = e.payload ? py::cast(Eigen::Matrix3d(e.payload->inertia)) : py::none();
        out["parameters"] = Vec(e.parameters);
        out["standard_deviation"] = Vec(e.standard_deviation);
        out["residual_rms"] = e.residual_rms;
        out["condition_number"] = e.condition_number;
        out["rank"] = e.rank;
        out["samples"] = e.samples;
        out["message"] = e.message;
        return out;
      }, "A dict: ok, mass, com, inertia (None unless ok), parameters, standard_deviation, "
         "residual_rms, condition_number, rank, samples, message.");

  using Online = OnlinePayloadEstimator<Robot>;
  using Parameters10 = Online::Parameters;
  py::class_<Online>(m, "OnlinePayloadEstimator", R"doc(
The payload on one link (default: the last) of a known robot, estimated while it runs: one
update(q, qd, qdd, tau) per control tick (a Kalman filter on the payload's 10 inertial
parameters m, m c, I about the link-frame origin, with a CUSUM test that detects a grasp or a
release and resets the covariance). estimate() gives the current payload.)doc")
      .def(py::init([](const Robot& r, const py::object& link, const py::object& torque_std,
                       const py::object& prior_std, const py::object& process_std,
                       double change_threshold, double change_drift) {
             const char* f = "OnlinePayloadEstimator";
             OnlinePayloadOptions<Robot> o;
             if (!torque_std.is_none()) o.torque_std = vec_arg(torque_std, f, "torque_std").map();
             if (!prior_std.is_none()) o.prior_std = fixed_vec<10>(prior_std, f, "prior_std");
             if (!process_std.is_none()) o.process_std = fixed_vec<10>(process_std, f, "process_std");
             o.change_threshold = change_threshold;
             o.change_drift = change_drift;
             return Online(r, link.is_none() ? Online::last_link : link.cast<std::size_t>(), o);
           }),
           arg("robot"), arg("link") = py::none(), py::kw_only(), arg("torque_std") = py::none(),
           arg("prior_std") = py::none(), arg("process_std") = py::none(),
           arg("change_threshold") = 50.0, arg("change_drift") = 5.0,
           "robot: the robot without the payload. torque_std: per joint (default 0.1 N m); "
           "prior_std, process_std: 10 entries each, in inertial_parameters' order (defaults "
           "10 kg, 1 kg m, 0.1 kg m^2; 1e-4, 1e-5, 1e-6 per tick; process_std 0: recursive "
           "least squares); change_threshold 0: no change detection.")
      .def(
          "update",
          [](Online& e, const py::object& q, const py::object& qd, const py::object& qdd,
             const py::object& tau) {
            const char* f = "OnlinePayloadEstimator.update";
            const py::ssize_t n = e.options().torque_std.size();  // the robot's joints
            const Vec a = joint_vec(n, q, f, "q"), b = joint_vec(n, qd, f, "qd"),
                      c = joint_vec(n, qdd, f, "qdd"), d = joint_vec(n, tau, f, "tau");
            const OnlinePayloadUpdate<double> u = e.update(a, b, c, d);
            py::dict out;
            out["accepted"] = u.accepted;
            out["change_detected"] = u.change_detected;
            out["degrees_of_freedom"] = u.degrees_of_freedom;
            out["nis"] = u.nis;
            out["cusum"] = u.cusum;
            return out;
          },
          arg("q"), arg("qd"), arg("qdd"), arg("tau"),
          "One tick with the payload attached. A sample with a number that is not finite is refused (accepted False). "
          "A dict: accepted, change_detected, degrees_of_freedom, nis, cusum.")
      .def(
          "estimate",
          [](const Online& e) {
            const OnlinePayloadEstimate<double> x = e.estimate();
            py::dict out;
            out["physical"] = x.physical;
            out["mass"] = x.payload.mass;
            out["com"] = Eigen::Vector3d(x.payload.com);
            out["inertia"] = Eigen::Matrix3d(x.payload.inertia);
            out["parameters"] = Vec(x.parameters);
            out["standard_deviation"] = Vec(x.standard_deviation);
            return out;
          },
          "A dict: physical (m > 0 and a valid inertia), mass, com, inertia (about the centre "
          "of mass), parameters, standard_deviation.")
      .def(
          "reset",
          [](Online& e, const py::object& prior) {
            e.reset(prior.is_none() ? Parameters10(Parameters10::Zero())
                                    : Parameters10(fixed_vec<10>(prior, "OnlinePayloadEstimator.reset", "prior")));
          },
          arg("prior") = py::none(), "Back to the prior (default: no payload), the CUSUM at zero.")
      .def_property_readonly("link", &Online::link)
      .def_property_readonly("ticks", &Online::ticks, "Accepted samples.")
      .def_property_readonly("changes", &Online::changes, "Changes detected.")
      .def_property_readonly("covariance", [](const Online& e) { return Mat(e.covariance()); });

  using WholeRobot = RobotIdentification<Robot>;
  py::class_<WholeRobot>(m, "RobotIdentification", R"doc(
Identification of a whole robot's dynamics from samples (q, qd, qdd, tau): least squares on its
base parameters (least_squares()) and a physically consistent robot (physically_consistent(prior)).
The base parameters are computed from the robot's kinematics when it is made.)doc")
      .def(py::init([](const Robot& r, bool joint_dynamics, std::size_t samples,
                       std::uint32_t seed) {
             return WholeRobot(r, base_parameters(r, joint_dynamics, samples, seed));
           }),
           arg("robot"), py::kw_only(), arg("joint_dynamics") = true, arg("samples") = 200,
           arg("seed") = 20261125u,
           "robot: the kinematics and gravity (its inertias are not used; with "
           "joint_dynamics=False its damping, friction and armature are taken as known). "
           "samples, seed: the random states base_parameters finds the base parameters from.")
      .def(
          "add_sample",
          [](WholeRobot& id, const py::object& q, const py::object& qd, const py::object& qdd,
             const py::object& tau) {
            const char* f = "RobotIdentification.add_sample";
            const BaseParameters& bp = id.base_parameters();  // 10 or 13 columns per joint
            const py::ssize_t n = bp.columns / (bp.joint_dynamics ? 13 : kInertialParametersPerLink);
            id.add_sample(joint_vec(n, q, f, "q"), joint_vec(n, qd, f, "qd"),
                          joint_vec(n, qdd, f, "qdd"), joint_vec(n, tau, f, "tau"));
          },
          arg("q"), arg("qd"), arg("qdd"), arg("tau"),
          "Adds one sample (ValueError if a number is not finite).")
      .def_property_readonly("samples", &WholeRobot::samples)
      .def_property_readonly("rank", [](const WholeRobot& id) { return id.base_parameters().rank; },
                             "The number of base parameters.")
      .def(
          "base_values",
          [](const WholeRobot& id, const Robot& r) {
            const BaseParameters& bp = id.base_parameters();
            return Vec(bp.base_values(bp.joint_dynamics ? Vec(parameters_with_joint_dynamics(r))
                                                        : Vec(inertial_parameters(r))));
          },
          arg("robot"), "The base parameters of a robot (e.g. the truth, to compare with).")
      .def(
          "least_squares",
          [](const WholeRobot& id) {
            const BaseEstimate e = id.least_squares();
            py::dict out;
            out["ok"] = e.ok;
            out["message"] = e.message;
            out["base"] = e.base;
            out["standard_deviation"] = e.standard_deviation;
            out["covariance"] = e.covariance;
            out["sigma"] = e.sigma;
            out["residual_rms"] = e.residual_rms;
            out["condition_number"] = e.condition_number;
            out["samples"] = e.samples;
            out["equations"] = e.equations;
            return out;
          },
          "A dict: ok, message, base, standard_deviation, covariance, sigma, residual_rms, "
          "condition_number, samples, equations.")
      .def(
          "physically_consistent",
          [](const WholeRobot& id, const Robot& prior, double prior_weight,
             double minimum_eigenvalue, double tolerance, int max_newton_steps) {
            ConsistentOptions o;
            o.prior_weight = prior_weight;
            o.minimum_eigenvalue = minimum_eigenvalue;
            o.tolerance = tolerance;
            o.max_newton_steps = max_newton_steps;
            ConsistentEstimate<Robot> e = id.physically_consistent(prior, o);
            py::dict out;
            out["robot"] = std::move(e.model);
            out["standard"] = e.standard;
            out["base"] = e.base;
            out["residual_rms"] = e.residual_rms;
            out["least_squares_residual_rms"] = e.least_squares_residual_rms;
            out["smallest_margin"] = e.smallest_margin;
            out["newton_steps"] = e.newton_steps;
            out["converged"] = e.converged;
            return out;
          },
          arg("prior"), py::kw_only(), arg("prior_weight") = 1e-6,
          arg("minimum_eigenvalue") = 1e-8, arg("tolerance") = 1e-9,
          arg("max_newton_steps") = 2000,
          "The physical robot nearest the data, regularised towards `prior` (same kinematics). "
          "A dict: robot (a Robot), standard, base, residual_rms, least_squares_residual_rms, "
          "smallest_margin, newton_steps, converged. ValueError when least_squares() is not ok.");

  // --- simulation ---
  m.def(
      "simulate",
      [](const Robot& r, const py::object& q0, const py::object& qd0, const py::object& controller,
         double t_end, const std::string& integrator, double dt, double rtol, double atol,
         double output_interval) {
        const char* f = "simulate";
        const Vec q = vec_arg(q0, f, "q0").map(), qd = vec_arg(qd0, f, "qd0").map();
        SimulationOptions<double> o;
        o.integrator = integrator_arg(integrator);
        o.dt = dt;
        o.rtol = rtol;
        o.atol = atol;
        o.output_interval = output_interval;
        const auto n = Eigen::Index(r.joint_count());
        const bool passive = controller.is_none();
        const auto control = [&](double t, const Vec& qs, const Vec& qds) -> Vec {
          if (passive) return Vec::Zero(n);
          const py::object tau = controller(t, qs, qds);
          return Vec(vec_arg(tau, "simulate: the controller's result", "tau").map());
        };
        const SimulationResultOf<Vec> run = simulate(r, q, qd, control, t_end, o);
        py::dict out;
        out["t"] = Vec(Eigen::Map<const Vec>(run.t.data(), Eigen::Index(run.t.size())));
        out["q"] = stack(run.q, n);
        out["qd"] = stack(run.qd, n);
        out["qdd"] = stack(run.qdd, n);
        out["tau"] = stack(run.tau, n);
        out["steps"] = run.stats.steps;
        out["rejected_steps"] = run.stats.rejected_steps;
        out["evaluations"] = run.stats.evaluations;
        return out;
      },
      arg("robot"), arg("q0"), arg("qd0"), arg("controller") = py::none(), arg("t_end") = 1.0,
      arg("integrator") = "rk45", arg("dt") = 1e-3, arg("rtol") = 1e-6, arg("atol") = 1e-9,
      arg("output_interval") = 0.0,
      "Simulates from (q0, qd0) to t_end under tau = controller(t, q, qd) (None: no torque), "
      "forward dynamics by aba. Returns a dict: t (N,), q, qd, qdd, tau (N, nq), steps, "
      "rejected_steps, evaluations. integrator: 'rk45' (adaptive, rtol/atol; "
      "output_interval > 0 for dense output), 'rk4' or 'semi_implicit_euler' (step dt).");

  // --- trajectories ---
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

  // --- closed forms ---
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
