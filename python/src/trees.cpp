// The Python module: kinematic trees (chaindyn's TreeX<double>) as chaindyn.TreeRobot -- a
// robot whose joints branch (a Panda with its fingers, two arms on a torso, a hand) -- and the
// algorithms on it (overloads of the chain's functions: rnea, crba, aba, the derivatives, ...),
// and the URDF loaders that give one (load_urdf on a file that branches, load_urdf_tree on any
// file). The functions whose binding is one template for both robots (simulate, chaindyn.batch,
// the task space) register their TreeRobot overloads beside the Robot's, in simulation.cpp,
// batch.cpp and algorithms.cpp.
#include "bindings.hpp"

#ifdef CHAINDYN_PYTHON_URDF
#include <chaindyn/urdf.hpp>
#endif

namespace chaindyn::python {

namespace {

std::string tree_kind_str(JointKind k) { return kind_name(k); }

JointKind tree_kind_arg(const std::string& s) {
  if (s == "revolute") return JointKind::revolute;
  if (s == "prismatic") return JointKind::prismatic;
  throw py::value_error("chaindyn: a joint kind is 'revolute' or 'prismatic', not '" + s + "'");
}

/// A frame of the tree: a name (str) or a link index (int), with an optional offset pose.
TreeRobot::FrameType tree_frame_arg(const TreeRobot& robot, const py::handle& frame,
                                    const py::handle& offset, const char* function) {
  return frame_arg(robot, frame, offset, function);
}

/// f_ext: an (nq, 6) array, row i = [moment; force] on link i in its link frame about its origin.
LinkForces<TreeRobot> tree_wrenches_arg(const TreeRobot& r, const py::handle& obj,
                                        const char* function) {
  Array a = as_array(obj, function, "f_ext");
  const auto n = py::ssize_t(r.joint_count());
  if (a.ndim() != 2 || a.shape(0) != n || a.shape(1) != 6) {
    std::ostringstream os;
    os << "chaindyn: " << function << ": f_ext must have shape (" << n
       << ", 6): one wrench [moment; force] per link";
    throw py::value_error(os.str());
  }
  check_finite(a.data(), a.size(), function, "f_ext");
  LinkForces<TreeRobot> f = link_forces(r);
  for (py::ssize_t i = 0; i < n; ++i) {
    const double* w = a.data() + 6 * i;
    f[std::size_t(i)] = Force<double>(Eigen::Vector3d(w[0], w[1], w[2]),
                                      Eigen::Vector3d(w[3], w[4], w[5]));
  }
  return f;
}

/// Forward dynamics divides by each joint's articulated inertia: ValueError on a tree whose
/// mass matrix is singular (bindings.hpp).
void require_regular(const TreeRobot& r, const char* function) { require_dynamics(r, function); }

}  // namespace

#ifdef CHAINDYN_PYTHON_URDF
/// The TreeLoadOptions of the Python arguments inertia= and massless= (ValueError for other
/// names); floating.cpp's loaders use it too.
urdf::TreeLoadOptions tree_options(const std::string& inertia, const std::string& massless) {
  urdf::TreeLoadOptions o;
  if (!urdf::policy_from_name(inertia, o.inertia)) {
    throw py::value_error("chaindyn: inertia is 'strict', 'repair' or 'accept', not '" + inertia +
                          "'");
  }
  if (!urdf::massless_policy_from_name(massless, o.massless)) {
    throw py::value_error("chaindyn: massless is 'kinematics', 'armature' or 'refuse', not '" +
                          massless + "'");
  }
  return o;
}
#endif

namespace {

#ifdef CHAINDYN_PYTHON_URDF
py::object load_urdf_robot_unnamed(const std::string& text, const std::string& path,
                                   const std::string& tip, const std::string& inertia,
                                   urdf::Report* report) {
  urdf::LoadOptions chain_options;
  chain_options.tip = tip;
  if (!urdf::policy_from_name(inertia, chain_options.inertia)) {
    throw py::value_error("chaindyn: inertia is 'strict', 'repair' or 'accept', not '" + inertia +
                          "'");
  }
  if (tip.empty()) {
    // a file whose moving joints branch: the whole tree (a file the tree loader refuses, e.g.
    // for a non-physical inertia on a branch the chain does not use, keeps the chain's rules)
    bool branches = false;
    urdf::TreeDescription d;
    try {
      d = urdf::describe_tree(text, tree_options(inertia, "kinematics"));
      for (std::size_t i = 0; i < d.joints.size(); ++i) {
        branches = branches || d.parents[i] != (i == 0 ? no_parent : i - 1);
      }
    } catch (const urdf::ParseError&) {
    }
    if (branches) {
      d.report.file = path;
      TreeRobot tree = urdf::build_tree(d);
      if (report) *report = std::move(d.report);
      return py::cast(std::move(tree));
    }
  }
  ChainX<double> chain = urdf::parse_any(text, chain_options, report);
  if (report) report->file = path;
  return py::cast(std::move(chain));
}
#endif

}  // namespace

#ifdef CHAINDYN_PYTHON_URDF
py::list report_list(const urdf::Report& report);  // model.cpp

/// The robot of URDF text (`path`: the file it was read from, for messages; empty for text): a
/// TreeRobot when no tip is named and the file's moving joints branch, a Robot (the chain to
/// `tip`, or to the single leaf) otherwise. `report` receives the parser's findings.
py::object load_urdf_robot(const std::string& text, const std::string& path,
                           const std::string& tip, const std::string& inertia,
                           urdf::Report* report) {
  try {
    return load_urdf_robot_unnamed(text, path, tip, inertia, report);
  } catch (const urdf::ParseError& e) {
    if (path.empty()) throw;
    urdf::detail::rethrow_in_file(e, path);
  }
}
#endif

void bind_trees(py::module_& m) {
  using py::arg;
  // RobotHolder: each tree's batch workspaces live beside it (bindings.hpp, batch.cpp)
  py::class_<TreeRobot, RobotHolder<TreeRobot>>(m, "TreeRobot", R"doc(
A robot whose joints branch -- a kinematic tree (chaindyn's TreeX<double>): a Panda with its
fingers, two arms on a torso, a hand. Joint i's parent is parents[i] (-1: the base); parents
come before children. Made from links, kinds and parents, by chaindyn.load_urdf (a file whose
joints branch) or chaindyn.load_urdf_tree. The algorithms take it as they take a Robot.)doc")
      .def(py::init([](const std::vector<Link<double>>& links, const std::vector<std::string>& kinds,
                       const std::vector<long long>& parents, const py::object& gravity) {
             std::vector<JointKind> k;
             for (const std::string& s : kinds) k.push_back(tree_kind_arg(s));
             if (k.empty()) k.assign(links.size(), JointKind::revolute);
             std::vector<std::size_t> p;
             for (const long long v : parents) p.push_back(v < 0 ? no_parent : std::size_t(v));
             const Eigen::Vector3d g = gravity.is_none()
                                           ? Eigen::Vector3d(0, 0, -9.81)
                                           : Eigen::Vector3d(fixed_arg<3, 1>(gravity, "TreeRobot", "gravity"));
             return TreeRobot(links, k, p, g);
           }),
           arg("links"), arg("kinds"), arg("parents"), arg("gravity") = py::none(),
           "TreeRobot(links, kinds, parents, gravity=[0, 0, -9.81]): one kind per link "
           "('revolute' or 'prismatic'; all revolute when empty), one parent per link (-1: the "
           "base; each parent before its children). Raises ModelError on bad input.")
      .def_property_readonly("nq", [](const TreeRobot& r) { return r.joint_count(); },
                             "The number of joints.")
      .def_property_readonly(
          "parents",
          [](const TreeRobot& r) {
            std::vector<long long> out;
            for (const std::size_t p : r.parents()) out.push_back(p == no_parent ? -1 : (long long)p);
            return out;
          },
          "Each joint's parent joint, -1 for a joint on the base.")
      .def_property_readonly(
          "joint_names",
          [](const TreeRobot& r) {
            std::vector<std::string> out;
            for (const auto& l : r.links()) out.push_back(l.joint_name);
            return out;
          },
          "The joints' names (a URDF's joint names), in joint order.")
      .def_property_readonly(
          "link_names",
          [](const TreeRobot& r) {
            std::vector<std::string> out;
            for (const auto& l : r.links()) out.push_back(l.name);
            return out;
          },
          "The name of the link each joint moves, in joint order.")
      .def("joint_index", [](const TreeRobot& r, const std::string& name) { return r.joint_index(name); },
           arg("name"), "The index of the joint named `name`; IndexError listing the names.")
      .def("link_index", [](const TreeRobot& r, const std::string& name) { return r.link_index(name); },
           arg("name"), "The index of the joint that moves the link named `name`.")
      .def_property_readonly(
          "has_dynamics", [](const TreeRobot& r) { return r.has_dynamics(); },
          "False when a joint moves no mass (singular mass matrix): aba and "
          "forward_dynamics_crba raise ValueError; rnea, crba and the kinematics work.")
      .def_property_readonly(
          "joint_kinds",
          [](const TreeRobot& r) {
            std::vector<std::string> out;
            for (std::size_t i = 0; i < r.joint_count(); ++i) out.push_back(tree_kind_str(r.joint(i).kind()));
            return out;
          },
          "'revolute' or 'prismatic', in joint order.")
      .def_property_readonly(
          "links",
          [](const TreeRobot& r) { return std::vector<Link<double>>(r.links().begin(), r.links().end()); },
          "The links as given (copies).")
      .def_property_readonly(
          "frame_names",
          [](const TreeRobot& r) {
            std::vector<std::string> out;
            for (const auto& f : r.frames()) out.push_back(f.name);
            return out;
          },
          "The named frames (a URDF's links).")
      .def_property_readonly("gravity", [](const TreeRobot& r) { return Eigen::Vector3d(r.gravity()); })
      .def_property_readonly("armature", [](const TreeRobot& r) { return Vec(r.armature()); })
      .def("copy", [](const TreeRobot& r) { return TreeRobot(r); }, "A copy of the robot.")
      .def("__repr__", [](const TreeRobot& r) {
        std::ostringstream os;
        os << "<chaindyn.TreeRobot with " << r.joint_count() << " joints, parents [";
        for (std::size_t i = 0; i < r.joint_count(); ++i) {
          os << (i ? ", " : "") << (r.parent(i) == no_parent ? -1LL : (long long)r.parent(i));
        }
        os << "]>";
        return os.str();
      });

  m.def(
      "rnea",
      [](const TreeRobot& r, const py::object& q, const py::object& qd, const py::object& qdd,
         const py::object& f_ext) -> Vec {
        const char* f = "rnea";
        const VecArg a = vec_arg(q, f, "q"), b = vec_arg(qd, f, "qd"), c = vec_arg(qdd, f, "qdd");
        if (f_ext.is_none()) return rnea(r, a.map(), b.map(), c.map());
        return rnea(r, a.map(), b.map(), c.map(), tree_wrenches_arg(r, f_ext, f));
      },
      arg("robot"), arg("q"), arg("qd"), arg("qdd"), arg("f_ext") = py::none());
  m.def(
      "crba",
      [](const TreeRobot& r, const py::object& q) -> Mat {
        return crba(r, vec_arg(q, "crba", "q").map());
      },
      arg("robot"), arg("q"));
  m.def(
      "aba",
      [](const TreeRobot& r, const py::object& q, const py::object& qd, const py::object& tau,
         const py::object& f_ext) -> Vec {
        require_regular(r, "aba");
        const char* f = "aba";
        const VecArg a = vec_arg(q, f, "q"), b = vec_arg(qd, f, "qd"), c = vec_arg(tau, f, "tau");
        if (f_ext.is_none()) return aba(r, a.map(), b.map(), c.map());
        return aba(r, a.map(), b.map(), c.map(), tree_wrenches_arg(r, f_ext, f));
      },
      arg("robot"), arg("q"), arg("qd"), arg("tau"), arg("f_ext") = py::none());
  m.def(
      "forward_dynamics_crba",
      [](const TreeRobot& r, const py::object& q, const py::object& qd,
         const py::object& tau) -> Vec {
        require_regular(r, "forward_dynamics_crba");
        const char* f = "forward_dynamics_crba";
        return forward_dynamics_crba(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map(),
                                     vec_arg(tau, f, "tau").map());
      },
      arg("robot"), arg("q"), arg("qd"), arg("tau"));
  m.def(
      "gravity_torques",
      [](const TreeRobot& r, const py::object& q) -> Vec {
        return gravity_torques(r, vec_arg(q, "gravity_torques", "q").map());
      },
      arg("robot"), arg("q"));
  m.def(
      "nonlinear_effects",
      [](const TreeRobot& r, const py::object& q, const py::object& qd) -> Vec {
        const char* f = "nonlinear_effects";
        return nonlinear_effects(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map());
      },
      arg("robot"), arg("q"), arg("qd"));
  m.def(
      "frame_pose",
      [](const TreeRobot& r, const py::object& q, const py::object& frame, const py::object& offset) {
        const char* f = "frame_pose";
        return to_matrix(frame_pose(r, vec_arg(q, f, "q").map(), tree_frame_arg(r, frame, offset, f)));
      },
      arg("robot"), arg("q"), arg("frame"), arg("offset") = py::none());
  m.def(
      "jacobian",
      [](const TreeRobot& r, const py::object& q, const py::object& frame,
         const std::string& reference, const py::object& offset) -> Mat {
        const char* f = "jacobian";
        return jacobian(r, vec_arg(q, f, "q").map(), tree_frame_arg(r, frame, offset, f),
                        reference_arg(reference, f));
      },
      arg("robot"), arg("q"), arg("frame"), arg("reference") = "world", arg("offset") = py::none());
  m.def(
      "rnea_derivatives",
      [](const TreeRobot& r, const py::object& q, const py::object& qd, const py::object& qdd) {
        const char* f = "rnea_derivatives";
        const auto d = rnea_derivatives(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map(),
                                        vec_arg(qdd, f, "qdd").map());
        return py::make_tuple(Mat(d.dtau_dq), Mat(d.dtau_dqd));
      },
      arg("robot"), arg("q"), arg("qd"), arg("qdd"),
      "(dtau_dq, dtau_dqd): the analytical partial derivatives of rnea; entry (i, j) is zero "
      "unless joints i and j lie on one root path.");
  m.def(
      "aba_derivatives",
      [](const TreeRobot& r, const py::object& q, const py::object& qd, const py::object& tau) {
        require_regular(r, "aba_derivatives");
        const char* f = "aba_derivatives";
        const auto d = aba_derivatives(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map(),
                                       vec_arg(tau, f, "tau").map());
        return py::make_tuple(Mat(d.dqdd_dq), Mat(d.dqdd_dqd), Mat(d.dqdd_dtau));
      },
      arg("robot"), arg("q"), arg("qd"), arg("tau"),
      "(dqdd_dq, dqdd_dqd, dqdd_dtau = M^-1): the partial derivatives of aba.");

#ifdef CHAINDYN_PYTHON_URDF
  m.def(
      "load_urdf_tree",
      [](const std::string& path, const std::string& inertia, const std::string& massless) {
        return urdf::load_tree(path, tree_options(inertia, massless));
      },
      arg("path"), py::kw_only(), arg("inertia") = "strict", arg("massless") = "kinematics",
      "The TreeRobot of a URDF file: every revolute, continuous and prismatic joint, depth first "
      "from the root (parents before children), the file's joint and link names, every link a "
      "named frame. massless: what a joint that moves no mass (a finger without <inertial>) "
      "does: 'kinematics' (kept; has_dynamics False), 'armature' (a 1e-3 armature on it), "
      "'refuse'. Raises ModelError naming the file, element and line.");
  m.def(
      "load_urdf_tree_report",
      [](const std::string& path, const std::string& inertia, const std::string& massless) {
        urdf::Report report;
        TreeRobot r = urdf::load_tree(path, tree_options(inertia, massless), &report);
        return py::make_tuple(std::move(r), report_list(report));
      },
      arg("path"), py::kw_only(), arg("inertia") = "strict", arg("massless") = "kinematics",
      "(tree robot, report): load_urdf_tree and what the parser found (see load_urdf_report).");
#endif
}

}  // namespace chaindyn::python
