// The Python module: identification: regressors, payload identification (batch least squares
// and the online estimator) and whole-robot identification.
#include "bindings.hpp"

#include <chaindyn/identification.hpp>

namespace chaindyn::python {

void bind_identification(py::module_& m) {
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
             require_dynamics(r, "PayloadIdentification");
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
                       double change_threshold, double change_drift, double innovation_gate) {
             const char* f = "OnlinePayloadEstimator";
             require_dynamics(r, f);
             OnlinePayloadOptions<Robot> o;
             if (!torque_std.is_none()) o.torque_std = vec_arg(torque_std, f, "torque_std").map();
             if (!prior_std.is_none()) o.prior_std = fixed_vec<10>(prior_std, f, "prior_std");
             if (!process_std.is_none()) o.process_std = fixed_vec<10>(process_std, f, "process_std");
             o.change_threshold = change_threshold;
             o.change_drift = change_drift;
             o.innovation_gate = innovation_gate;
             return Online(r, link.is_none() ? Online::last_link : link.cast<std::size_t>(), o);
           }),
           arg("robot"), arg("link") = py::none(), py::kw_only(), arg("torque_std") = py::none(),
           arg("prior_std") = py::none(), arg("process_std") = py::none(),
           arg("change_threshold") = 50.0, arg("change_drift") = 5.0,
           arg("innovation_gate") = 6.0,
           "robot: the robot without the payload. torque_std: per joint (default 0.1 N m); "
           "prior_std, process_std: 10 entries each, in inertial_parameters' order (defaults "
           "10 kg, 1 kg m, 0.1 kg m^2; 1e-4, 1e-5, 1e-6 per tick; process_std 0: recursive "
           "least squares); change_threshold 0: no change detection. innovation_gate: a tick whose "
           "normalised innovation squared exceeds the chi-square quantile at this many normal "
           "standard deviations is an outlier, rejected (0: no gate; with change detection "
           "off, turn it off too if the payload may change).")
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
            out["outlier"] = u.outlier;
            out["change_detected"] = u.change_detected;
            out["degrees_of_freedom"] = u.degrees_of_freedom;
            out["nis"] = u.nis;
            out["cusum"] = u.cusum;
            return out;
          },
          arg("q"), arg("qd"), arg("qdd"), arg("tau"),
          "One tick with the payload attached. A sample with a number that is not finite, or an "
          "outlier (the innovation gate), is refused (accepted False) and changes nothing. "
          "A dict: accepted, outlier, change_detected, degrees_of_freedom, nis, cusum.")
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
      .def_property_readonly("rejected", &Online::rejected, "Outliers the gate rejected.")
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
}

}  // namespace chaindyn::python
