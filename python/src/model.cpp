// The Python module: errors, links, the Robot (ChainX<double>), built-in robots, URDF and DH.
#include "bindings.hpp"

#include <chaindyn/version.hpp>

#ifdef CHAINDYN_PYTHON_URDF
#include <chaindyn/urdf.hpp>
#endif

namespace chaindyn::python {

namespace {

std::string kind_str(JointKind k) { return kind_name(k); }

JointKind kind_arg(const std::string& s) {
  if (s == "revolute") return JointKind::revolute;
  if (s == "prismatic") return JointKind::prismatic;
  throw py::value_error("chaindyn: a joint kind is 'revolute' or 'prismatic', not '" + s + "'");
}

template <typename Fixed>
Robot from_fixed(const Fixed& chain) {
  return Robot::from(chain);
}

#ifdef CHAINDYN_PYTHON_URDF
const char* diagnostic_kind_name(urdf::Diagnostic::Kind k) {
  using K = urdf::Diagnostic::Kind;
  switch (k) {
    case K::off_chain: return "off_chain";
    case K::base_inertia: return "base_inertia";
    case K::off_chain_inertia: return "off_chain_inertia";
    case K::welded_inertia: return "welded_inertia";
    case K::inertia_repaired: return "inertia_repaired";
    case K::inertia_accepted: return "inertia_accepted";
    case K::kinematics_only: return "kinematics_only";
    case K::mimic: return "mimic";
    case K::massless_joint: return "massless_joint";
    case K::floating_base: return "floating_base";
  }
  return "?";
}

#endif

/// The DH robot, with its flange (the table's tool frame) as the named frame "flange".
Robot with_flange(DHChain<Robot> arm) {
  arm.chain.add_frame("flange", arm.chain.joint_count() - 1, arm.flange);
  return std::move(arm.chain);
}

}  // namespace

#ifdef CHAINDYN_PYTHON_URDF
/// A urdf::Report as a list of dicts (also for trees.cpp).
py::list report_list(const urdf::Report& report) {
  py::list out;
  for (const urdf::Diagnostic& d : report.diagnostics) {
    py::dict x;
    x["severity"] = urdf::severity_name(d.severity);
    x["kind"] = diagnostic_kind_name(d.kind);
    x["line"] = d.line;
    x["element"] = d.element;
    x["message"] = d.message;
    x["text"] = urdf::to_string(d, report.file);
    out.append(std::move(x));
  }
  return out;
}

/// trees.cpp: the robot of URDF text, a TreeRobot when it branches and no tip is named.
py::object load_urdf_robot(const std::string& text, const std::string& path,
                           const std::string& tip, const std::string& inertia,
                           urdf::Report* report);
#endif

void bind_model(py::module_& m) {
  // Errors: chaindyn's exceptions as Python exceptions with chaindyn's message. ArgumentError
  // (a std::invalid_argument) is ValueError, IndexError (a std::out_of_range) IndexError.
  static py::exception<ModelError> model_error(m, "ModelError", PyExc_ValueError);
  static py::exception<IntegrationError> integration_error(m, "IntegrationError",
                                                           PyExc_RuntimeError);
  model_error.doc() = "A model chaindyn refuses (bad link, inertia, axis, URDF, DH row).";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const IntegrationError& e) {
      integration_error(e.what());
    } catch (const ModelError& e) {
      model_error(e.what());
    }
  });

  py::class_<Link<double>>(m, "Link", R"doc(
A link of a chain: where its joint sits on the parent (placement, a 4x4 pose in the parent link
frame, URDF <origin>), the joint axis in the joint frame, the link's mass, centre of mass (link
frame) and rotational inertia about the centre of mass (link axes), and the joint's damping,
Coulomb friction and armature. SI units.)doc")
      .def(py::init<>())
      .def_readwrite("name", &Link<double>::name)
      .def_property(
          "placement", [](const Link<double>& l) { return to_matrix(l.placement); },
          [](Link<double>& l, const py::object& x) {
            l.placement = pose_arg(x, "Link", "placement", false);  // the Robot checks it
          },
          "The joint frame's pose in the parent link frame (4x4).")
      .def_property(
          "axis",
          [](const Link<double>& l) -> py::object {
            if (!l.axis) return py::none();
            return py::cast(Eigen::Vector3d(*l.axis));
          },
          [](Link<double>& l, const py::object& a) {
            l.axis = fixed_arg<3, 1>(a, "Link", "axis");
          },
          "The joint axis in the joint frame (normalized by the robot).")
      .def_readwrite("mass", &Link<double>::mass)
      .def_property(
          "com", [](const Link<double>& l) { return Eigen::Vector3d(l.com); },
          [](Link<double>& l, const py::object& c) { l.com = fixed_arg<3, 1>(c, "Link", "com"); })
      .def_property(
          "inertia", [](const Link<double>& l) { return Eigen::Matrix3d(l.inertia); },
          [](Link<double>& l, const py::object& i) {
            l.inertia = fixed_arg<3, 3>(i, "Link", "inertia");
          })
      .def_property(
          "damping", [](const Link<double>& l) { return l.dynamics.damping; },
          [](Link<double>& l, double v) { l.dynamics.damping = v; })
      .def_property(
          "friction", [](const Link<double>& l) { return l.dynamics.friction; },
          [](Link<double>& l, double v) { l.dynamics.friction = v; })
      .def_property(
          "armature", [](const Link<double>& l) { return l.dynamics.armature; },
          [](Link<double>& l, double v) { l.dynamics.armature = v; });

  // RobotHolder: each robot's batch workspaces live beside it (bindings.hpp, batch.cpp);
  // dynamic_attr: the __dict__ is the user's
  py::class_<Robot, RobotHolder<Robot>>(m, "Robot", py::dynamic_attr(), R"doc(
A serial robot of any number of revolute and prismatic joints (chaindyn's ChainX<double>):
made from links, by chaindyn.robots, chaindyn.load_urdf or chaindyn.dh_standard/dh_modified.
Joint vectors are 1-D float arrays of nq entries; matrices are 2-D arrays.)doc")
      .def(py::init([](const std::vector<Link<double>>& links, const std::vector<std::string>& kinds,
                       const py::object& gravity) {
             std::vector<JointKind> k;
             for (const std::string& s : kinds) k.push_back(kind_arg(s));
             if (k.empty()) k.assign(links.size(), JointKind::revolute);
             const Eigen::Vector3d g = gravity.is_none()
                                           ? Eigen::Vector3d(0, 0, -9.81)
                                           : Eigen::Vector3d(fixed_arg<3, 1>(gravity, "Robot", "gravity"));
             return Robot(links, k, g);
           }),
           py::arg("links"), py::arg("kinds") = std::vector<std::string>{},
           py::arg("gravity") = py::none(),
           "Robot(links, kinds=['revolute', ...], gravity=[0, 0, -9.81]): one kind per link "
           "('revolute' or 'prismatic'; all revolute when omitted). Raises ModelError on bad "
           "links.")
      .def_property_readonly("nq", [](const Robot& r) { return r.joint_count(); },
                             "The number of joints.")
      .def_property_readonly(
          "has_dynamics", [](const Robot& r) { return r.has_dynamics(); },
          "False for a kinematics-only robot (a URDF without mass): the dynamics functions "
          "(rnea, aba, crba, simulate, batch.rnea, ...) raise ValueError on it; its kinematics "
          "work.")
      .def_property_readonly(
          "joint_kinds",
          [](const Robot& r) {
            std::vector<std::string> out;
            for (std::size_t i = 0; i < r.joint_count(); ++i) out.push_back(kind_str(r.joint(i).kind()));
            return out;
          },
          "'revolute' or 'prismatic', base to tip.")
      .def_property_readonly(
          "links",
          [](const Robot& r) { return std::vector<Link<double>>(r.links().begin(), r.links().end()); },
          "The links as given (copies).")
      .def_property_readonly(
          "frame_names",
          [](const Robot& r) {
            std::vector<std::string> out;
            for (const auto& f : r.frames()) out.push_back(f.name);
            return out;
          },
          "The named frames (a URDF's links, frames added with add_frame).")
      .def_property(
          "gravity", [](const Robot& r) { return Eigen::Vector3d(r.gravity()); },
          [](const py::object& self, const py::object& g) {
            self.cast<Robot&>().set_gravity(fixed_arg<3, 1>(g, "Robot.gravity", "gravity"));
            robot_state(self).batch.clear();
          },
          "Gravity in base coordinates (m/s^2).")
      .def_property_readonly("damping", [](const Robot& r) { return Vec(r.damping()); })
      .def_property_readonly("friction", [](const Robot& r) { return Vec(r.friction()); })
      .def_property_readonly("armature", [](const Robot& r) { return Vec(r.armature()); })
      .def(
          "add_frame",
          [](Robot& r, const std::string& name, std::size_t link, const py::object& offset) {
            r.add_frame(name, link,
                        offset.is_none() ? Transform<double>::Identity()
                                         : pose_arg(offset, "Robot.add_frame", "offset"));
          },
          py::arg("name"), py::arg("link"), py::arg("offset") = py::none(),
          "Adds a named frame on link `link` (0-based) at pose `offset` (4x4) in that link's "
          "frame, e.g. a tool centre point.")
      .def(
          "set_payload",
          [](const py::object& self, std::size_t link, double mass, const py::object& com,
             const py::object& inertia) {
            Robot& r = self.cast<Robot&>();
            Payload<double> p;
            p.mass = mass;
            p.com = fixed_arg<3, 1>(com, "Robot.set_payload", "com");
            p.inertia = inertia.is_none() ? Eigen::Matrix3d::Zero()
                                          : Eigen::Matrix3d(fixed_arg<3, 3>(inertia, "Robot.set_payload", "inertia"));
            r.set_payload(link, p);
            robot_state(self).batch.clear();
          },
          py::arg("link"), py::arg("mass"), py::arg("com"), py::arg("inertia") = py::none(),
          "Attaches a rigid payload to link `link`: mass (kg), centre of mass (link frame, m), "
          "inertia about it (3x3, link axes; zero when omitted: a point mass).")
      .def("clear_payload",
           [](const py::object& self, std::size_t link) {
             self.cast<Robot&>().clear_payload(link);
             robot_state(self).batch.clear();
           },
           py::arg("link"),
           "Removes link `link`'s payload.")
      .def("copy", [](const Robot& r) { return Robot(r); }, "A copy of the robot.")
      .def("__repr__", [](const Robot& r) {
        std::ostringstream os;
        os << "<chaindyn.Robot with " << r.joint_count() << " joints:";
        for (std::size_t i = 0; i < r.joint_count(); ++i) {
          os << ' ' << (r.joint(i).kind() == JointKind::revolute ? 'R' : 'P');
        }
        os << '>';
        return os.str();
      });

  py::module_ robots = m.def_submodule("robots", "The built-in robots, as chaindyn.Robot.");
  robots.def("kuka_iiwa", [] { return from_fixed(robots::kuka_iiwa()); },
             "KUKA LBR iiwa 7 R800 (7 revolute joints).");
  robots.def("panda", [] {
    Robot r = from_fixed(robots::panda());
    r.add_frame("flange", r.joint_count() - 1, robots::panda_flange());
    return r;
  }, "Franka Emika Panda (7 revolute joints; frame 'flange').");
  robots.def("ur5", [] {
    Robot r = from_fixed(robots::ur5());
    r.add_frame("flange", r.joint_count() - 1, robots::ur5_flange());
    return r;
  }, "Universal Robots UR5 (6 revolute joints; frame 'flange').");
  robots.def("puma560", [] { return from_fixed(robots::puma560()); },
             "PUMA 560 (6 revolute joints).");
  robots.def("two_link_arm", [] { return from_fixed(robots::two_link_arm()); },
             "The planar two-link arm of the lecture notes (uniform rods, 3 kg and 1 kg, 2 m "
             "and 1 m, gravity along -y).");

  py::class_<DHRow<double>>(m, "DHRow", R"doc(
One row of a DH table: a, alpha, d, theta (m, rad), the joint kind, and the inertia of the link
it moves (mass, com, inertia about the com, in DH frame i of the table's convention).)doc")
      .def(py::init([](double a, double alpha, double d, double theta, const std::string& kind,
                       double mass, const py::object& com, const py::object& inertia,
                       const std::string& name) {
             DHRow<double> r = DHRow<double>::revolute(a, alpha, d, theta);
             r.kind = kind_arg(kind);
             r.mass = mass;
             if (!com.is_none()) r.com = fixed_arg<3, 1>(com, "DHRow", "com");
             if (!inertia.is_none()) r.inertia = fixed_arg<3, 3>(inertia, "DHRow", "inertia");
             r.name = name;
             return r;
           }),
           py::arg("a"), py::arg("alpha"), py::arg("d"), py::arg("theta") = 0.0,
           py::arg("kind") = "revolute", py::arg("mass") = 0.0, py::arg("com") = py::none(),
           py::arg("inertia") = py::none(), py::arg("name") = "")
      .def_readwrite("a", &DHRow<double>::a)
      .def_readwrite("alpha", &DHRow<double>::alpha)
      .def_readwrite("d", &DHRow<double>::d)
      .def_readwrite("theta", &DHRow<double>::theta)
      .def_readwrite("mass", &DHRow<double>::mass)
      .def_readwrite("name", &DHRow<double>::name);
  m.def("dh_standard", [](const std::vector<DHRow<double>>& rows) {
          return with_flange(dh::standard_any(rows));
        }, py::arg("rows"),
        "The Robot of a standard-DH table (revolute rows: theta = q + theta_offset; prismatic "
        "rows: d = q + d_offset), its tool frame as the frame 'flange'.");
  m.def("dh_modified", [](const std::vector<DHRow<double>>& rows) {
          return with_flange(dh::modified_any(rows));
        }, py::arg("rows"), "The Robot of a modified-DH (Craig) table, frame 'flange'.");

#ifdef CHAINDYN_PYTHON_URDF
  m.def("load_urdf", [](const std::string& path, const std::string& tip, const std::string& inertia) {
          return load_urdf_robot(urdf::detail::read_file(path), path, tip, inertia, nullptr);
        }, py::arg("path"), py::arg("tip") = "", py::kw_only(), py::arg("inertia") = "strict",
        "The Robot of a URDF file, from the root link to `tip` (default: the single leaf), "
        "with the file's links as named frames; without a tip, a file whose moving joints "
        "branch gives its whole tree, a TreeRobot (load_urdf_tree). inertia: what to do with a non-physical "
        "inertia on the chain, 'strict' (refuse), 'repair' (the smallest diagonal shift) or "
        "'accept' (keep it, as KDL and Pinocchio do). A file without mass loads for kinematics "
        "only (robot.has_dynamics False). Raises ModelError naming the file, element and line.");
  m.def("parse_urdf", [](const std::string& xml, const std::string& tip, const std::string& inertia) {
          return load_urdf_robot(xml, "", tip, inertia, nullptr);
        }, py::arg("xml"), py::arg("tip") = "", py::kw_only(), py::arg("inertia") = "strict",
        "The Robot of URDF text (see load_urdf).");
  m.def("load_urdf_report", [](const std::string& path, const std::string& tip,
                               const std::string& inertia) {
          urdf::Report report;
          py::object r = load_urdf_robot(urdf::detail::read_file(path), path, tip, inertia, &report);
          return py::make_tuple(std::move(r), report_list(report));
        }, py::arg("path"), py::arg("tip") = "", py::kw_only(), py::arg("inertia") = "strict",
        "(robot, report): load_urdf and what the parser found (left out, ignored, repaired or "
        "accepted), a list of dicts: severity ('note' or 'warning'), kind, line, element, "
        "message, text (the line as chaindyn-urdf-info prints it).");
  m.def("parse_urdf_report", [](const std::string& xml, const std::string& tip,
                                const std::string& inertia) {
          urdf::Report report;
          py::object r = load_urdf_robot(xml, "", tip, inertia, &report);
          return py::make_tuple(std::move(r), report_list(report));
        }, py::arg("xml"), py::arg("tip") = "", py::kw_only(), py::arg("inertia") = "strict",
        "(robot, report) of URDF text (see load_urdf_report).");
#endif
}

}  // namespace chaindyn::python

PYBIND11_MODULE(_chaindyn, m) {
  m.doc() = R"doc(chaindyn: dynamics of serial robot manipulators (rnea, crba, aba, derivatives,
Jacobians, identification, simulation), the C++ library's runtime-sized chain from Python.
Conventions: spatial vectors [angular; linear], SI units, tau = M qdd + C qd + g + friction.)doc";
  m.attr("__version__") = chaindyn::version;
  chaindyn::python::bind_model(m);
  chaindyn::python::bind_algorithms(m);
  chaindyn::python::bind_identification(m);
  chaindyn::python::bind_simulation(m);
  chaindyn::python::bind_trajectories(m);
  chaindyn::python::bind_closed_form(m);
  chaindyn::python::bind_batch(m);
  chaindyn::python::bind_trees(m);
  chaindyn::python::bind_floating(m);
  chaindyn::python::bind_elastic(m);
}
