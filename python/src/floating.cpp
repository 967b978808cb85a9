// The Python module: robots on a moving base -- a free-flying one (chaindyn's
// FloatingBase<TreeX<double>>: chaindyn.FloatingRobot, a satellite carrying an arm, a legged
// robot's trunk) and a planar one (PlanarBaseRobot<TreeX<double>>: chaindyn.PlanarRobot, a
// mobile manipulator) -- their configuration spaces (integrate, difference, normalize, random
// configurations), the algorithms on them (overloads of the fixed-base functions), and
// load_urdf_floating / load_urdf_planar.
#include "bindings.hpp"
#include "simulate_run.hpp"

#include <chaindyn/batch/floating.hpp>
#include <chaindyn/simulation/simulate.hpp>

#ifdef CHAINDYN_PYTHON_URDF
#include <chaindyn/urdf.hpp>
#endif

#include <algorithm>
#include <cmath>
#include <random>

namespace chaindyn::python {


#ifdef CHAINDYN_PYTHON_URDF
py::list report_list(const urdf::Report& report);  // model.cpp
urdf::TreeLoadOptions tree_options(const std::string& inertia,
                                   const std::string& massless);  // trees.cpp
#endif

namespace {

using TreeRobot = TreeX<double>;
using FloatingRobot = FloatingBase<TreeRobot>;
using PlanarRobot = PlanarBaseRobot<TreeRobot>;

/// A configuration (nq entries) of the robot, checked (ValueError naming the argument).
template <typename R>
Vec config_arg(const R& r, const py::handle& obj, const char* f, const char* name) {
  return joint_vec(py::ssize_t(r.nq_size()), obj, f, name);
}

/// A velocity, acceleration or generalized force (nv entries), checked.
template <typename R>
Vec tangent_arg(const R& r, const py::handle& obj, const char* f, const char* name) {
  return joint_vec(py::ssize_t(r.nv_size()), obj, f, name);
}

/// The algorithms divide by the tree's joint inertias: refused on a singular tree.
template <typename R>
void require_regular(const R& r, const char* function) {
  if (!r.tree().has_dynamics()) {
    throw py::value_error(std::string("chaindyn: ") + function +
                          ": the tree's mass matrix is singular (a joint moves no mass); "
                          "load_urdf_floating(..., massless='armature') regularises it");
  }
}

/// A frame of the tree (a name or a link index) with an optional offset pose, or "base" for the
/// base body's frame.
template <typename R>
TreeRobot::FrameType floating_frame_arg(const R& r, const py::handle& frame,
                                        const py::handle& offset, const char* function) {
  const Transform<double> x =
      offset.is_none() ? Transform<double>::Identity() : pose_arg(offset, function, "offset");
  if (py::isinstance<py::str>(frame)) {
    const std::string name = frame.cast<std::string>();
    if (name == "base") return r.tree().base_frame(x);
    return r.tree().frame(name, x);
  }
  if (py::isinstance<py::int_>(frame)) {
    const long long link = frame.cast<long long>();
    if (link < 0) {
      throw py::index_error(std::string("chaindyn: ") + function + ": link index " +
                            std::to_string(link) + " is negative");
    }
    return r.tree().frame(std::size_t(link), x);
  }
  throw py::type_error(std::string("chaindyn: ") + function +
                       ": frame must be 'base', a frame name (str) or a link index (int)");
}


/// The functions that take a robot on a moving base of type R (FloatingRobot, PlanarRobot):
/// overloads of the fixed-base ones.
/// The columns of a batch argument checked: finite entries, and for configurations each
/// column's base (a free-flyer's unit quaternion, to 1e-6). The sizes are checked by the C++
/// batch functions (ValueError).
template <typename R>
void check_batch_columns(const Mat& x, bool config, const char* f, const char* name) {
  for (Eigen::Index s = 0; s < x.cols(); ++s) {
    for (Eigen::Index k = 0; k < x.rows(); ++k) {
      if (!std::isfinite(x(k, s))) {
        throw py::value_error(std::string("chaindyn: ") + f + ": " + name + "[" +
                              std::to_string(k) + ", " + std::to_string(s) + "] is not finite");
      }
    }
    if (config && x.rows() >= R::Base::nq) R::Base::check_configuration(f, x.col(s));
  }
}

/// chaindyn.batch's rnea, aba, crba on a robot on a moving base (R: FloatingRobot,
/// PlanarRobot): the C++ returning forms (a workspace per call), Q of nq rows, the others nv.
template <typename R>
void bind_moving_base_batch(py::module_& b) {
  using py::arg;
  b.def(
      "rnea",
      [](const R& r, const Mat& q, const Mat& v, const Mat& a, int threads) -> Mat {
        const char* f = "batch.rnea";
        check_batch_columns<R>(q, true, f, "Q");
        check_batch_columns<R>(v, false, f, "Qd");
        check_batch_columns<R>(a, false, f, "Qdd");
        py::gil_scoped_release release;
        return batch::rnea(r, q, v, a, batch::Options{threads});
      },
      arg("robot"), arg("Q"), arg("Qd"), arg("Qdd"), py::kw_only(), arg("threads") = 1,
      "On a moving base: out[:, s] = rnea(robot, Q[:, s], Qd[:, s], Qdd[:, s]); Q (nq, N), the "
      "others and the result (nv, N).");
  b.def(
      "aba",
      [](const R& r, const Mat& q, const Mat& v, const Mat& tau, int threads) -> Mat {
        const char* f = "batch.aba";
        require_regular(r, f);
        check_batch_columns<R>(q, true, f, "Q");
        check_batch_columns<R>(v, false, f, "Qd");
        check_batch_columns<R>(tau, false, f, "Tau");
        py::gil_scoped_release release;
        return batch::aba(r, q, v, tau, batch::Options{threads});
      },
      arg("robot"), arg("Q"), arg("Qd"), arg("Tau"), py::kw_only(), arg("threads") = 1,
      "On a moving base: out[:, s] = aba(robot, Q[:, s], Qd[:, s], Tau[:, s]); Q (nq, N), the "
      "others and the result (nv, N).");
  b.def(
      "crba",
      [](const R& r, const Mat& q, int threads) {
        const char* f = "batch.crba";
        check_batch_columns<R>(q, true, f, "Q");
        Mat ms;
        {
          py::gil_scoped_release release;
          ms = batch::crba(r, q, batch::Options{threads});
        }
        const auto nv = py::ssize_t(r.nv_size()), n = py::ssize_t(q.cols());
        constexpr auto size = py::ssize_t(sizeof(double));
        py::array_t<double> out({n, nv, nv}, {size * nv * nv, size, size * nv});
        std::copy(ms.data(), ms.data() + ms.size(), out.mutable_data());
        return out;
      },
      arg("robot"), arg("Q"), py::kw_only(), arg("threads") = 1,
      "On a moving base: out[s] = crba(robot, Q[:, s]), an (N, nv, nv) array.");
}

template <typename R>
void bind_moving_base_functions(py::module_& m) {
  using py::arg;

  m.def(
      "simulate",
      [](const R& r, const py::object& q0, const py::object& v0, const py::object& controller,
         double t_end, const std::string& integrator, double dt, double rtol, double atol,
         double output_interval) {
        const char* f = "simulate";
        require_regular(r, f);
        const Vec q = config_arg(r, q0, f, "q0"), v = tangent_arg(r, v0, f, "qd0");
        return simulate_to_dict(
            r, q, v, controller, t_end,
            integration_options(integrator, dt, rtol, atol, output_interval, f), r.nq_size(),
            r.nv_size());
      },
      arg("robot"), arg("q0"), arg("qd0"), arg("controller") = py::none(), arg("t_end") = 1.0,
      arg("integrator") = "rk45", arg("dt") = 1e-3, arg("rtol") = 1e-6, arg("atol") = 1e-9,
      arg("output_interval") = 0.0,
      "Simulates the robot on its moving base from (q0 (nq), qd0 = v0 (nv)) to t_end under "
      "tau = controller(t, q, v) (nv entries: the base's generalized forces, then the joints'; "
      "None: no force), forward dynamics by aba, the methods in their Munthe-Kaas form on the "
      "configuration manifold (the quaternion stays unit). Returns a dict: t (N,), q (N, nq), "
      "qd, qdd, tau (N, nv), steps, rejected_steps, evaluations.");

  m.def(
      "integrate",
      [](const R& r, const py::object& q, const py::object& v, double dt) -> Vec {
        const char* f = "integrate";
        return integrate(r, config_arg(r, q, f, "q"), tangent_arg(r, v, f, "v"), dt);
      },
      arg("robot"), arg("q"), arg("v"), arg("dt") = 1.0,
      "q moved by v for dt on the configuration manifold (the base by the exponential map of "
      "SE(3), or of SE(2) for a planar base).");
  m.def(
      "difference",
      [](const R& r, const py::object& q0, const py::object& q1) -> Vec {
        const char* f = "difference";
        return difference(r, config_arg(r, q0, f, "q0"), config_arg(r, q1, f, "q1"));
      },
      arg("robot"), arg("q0"), arg("q1"), "The v with integrate(q0, v, 1) = q1 (the base's log map).");
  m.def(
      "normalize",
      [](const R& r, const py::object& q) -> Vec {
        Vec out = config_arg(r, q, "normalize", "q");
        normalize(r, out);
        return out;
      },
      arg("robot"), arg("q"), "q with its quaternion scaled to unit length (a planar base: yaw wrapped into [-pi, pi)).");
  m.def(
      "random_configuration",
      [](const R& r, unsigned seed, double position_bound) -> Vec {
        std::mt19937 gen(seed);
        return random_configuration(r, gen, position_bound);
      },
      arg("robot"), arg("seed") = 0, arg("position_bound") = 1.0,
      "A random configuration: the base in the box [-bound, bound]^3, uniformly oriented; each "
      "joint uniform in its limits (or [-pi, pi]). Reproducible from the seed.");

  m.def(
      "rnea",
      [](const R& r, const py::object& q, const py::object& v,
         const py::object& a) -> Vec {
        const char* f = "rnea";
        return rnea(r, config_arg(r, q, f, "q"), tangent_arg(r, v, f, "v"),
                    tangent_arg(r, a, f, "a"));
      },
      arg("robot"), arg("q"), arg("v"), arg("a"),
      "Inverse dynamics with the base's acceleration given (a = [base acceleration; qdd]): "
      "[the wrench on the base that makes it move so; joint forces].");
  m.def(
      "rnea_free_base",
      [](const R& r, const py::object& q, const py::object& v, const py::object& qdd) {
        require_regular(r, "rnea_free_base");
        const char* f = "rnea_free_base";
        const auto out = rnea_free_base(
            r, config_arg(r, q, f, "q"), tangent_arg(r, v, f, "v"),
            joint_vec(py::ssize_t(r.joint_count()), qdd, f, "qdd"));
        return py::make_tuple(Vec(out.base_acceleration), Vec(out.tau));
      },
      arg("robot"), arg("q"), arg("v"), arg("qdd"),
      "Inverse dynamics of a free base (no wrench on it): (base acceleration, joint forces) for "
      "the joint accelerations qdd.");
  m.def(
      "crba",
      [](const R& r, const py::object& q) -> Mat {
        return crba(r, config_arg(r, q, "crba", "q"));
      },
      arg("robot"), arg("q"), "The mass matrix, nv x nv, the base block first.");
  m.def(
      "aba",
      [](const R& r, const py::object& q, const py::object& v,
         const py::object& tau) -> Vec {
        require_regular(r, "aba");
        const char* f = "aba";
        return aba(r, config_arg(r, q, f, "q"), tangent_arg(r, v, f, "v"),
                   tangent_arg(r, tau, f, "tau"));
      },
      arg("robot"), arg("q"), arg("v"), arg("tau"),
      "Forward dynamics, O(n): [base acceleration; qdd] for tau = [wrench on the base; joint "
      "forces].");
  m.def(
      "rnea_derivatives",
      [](const R& r, const py::object& q, const py::object& v, const py::object& a) {
        const char* f = "rnea_derivatives";
        const auto d = rnea_derivatives(r, config_arg(r, q, f, "q"), tangent_arg(r, v, f, "v"),
                                        tangent_arg(r, a, f, "a"));
        return py::make_tuple(Mat(d.dtau_dq), Mat(d.dtau_dv), Mat(d.M));
      },
      arg("robot"), arg("q"), arg("v"), arg("a"),
      "(dtau_dq, dtau_dv, M): the analytical partial derivatives of the moving-base rnea, nv x nv "
      "each; dtau_dq in q's tangent space (column i: d/deps rnea(integrate(q, eps e_i), v, a)).");
  m.def(
      "aba_derivatives",
      [](const R& r, const py::object& q, const py::object& v, const py::object& tau) {
        require_regular(r, "aba_derivatives");
        const char* f = "aba_derivatives";
        const auto d = aba_derivatives(r, config_arg(r, q, f, "q"), tangent_arg(r, v, f, "v"),
                                       tangent_arg(r, tau, f, "tau"));
        return py::make_tuple(Mat(d.dqdd_dq), Mat(d.dqdd_dv), Mat(d.dqdd_dtau));
      },
      arg("robot"), arg("q"), arg("v"), arg("tau"),
      "(dqdd_dq, dqdd_dv, dqdd_dtau = M^-1): the partial derivatives of the moving-base aba "
      "(a = [base acceleration; qdd]), dqdd_dq in q's tangent space.");
  m.def(
      "forward_dynamics_crba",
      [](const R& r, const py::object& q, const py::object& v,
         const py::object& tau) -> Vec {
        require_regular(r, "forward_dynamics_crba");
        const char* f = "forward_dynamics_crba";
        return forward_dynamics_crba(r, config_arg(r, q, f, "q"), tangent_arg(r, v, f, "v"),
                                     tangent_arg(r, tau, f, "tau"));
      },
      arg("robot"), arg("q"), arg("v"), arg("tau"));
  m.def(
      "nonlinear_effects",
      [](const R& r, const py::object& q, const py::object& v) -> Vec {
        const char* f = "nonlinear_effects";
        return nonlinear_effects(r, config_arg(r, q, f, "q"), tangent_arg(r, v, f, "v"));
      },
      arg("robot"), arg("q"), arg("v"));
  m.def(
      "gravity_torques",
      [](const R& r, const py::object& q) -> Vec {
        return gravity_torques(r, config_arg(r, q, "gravity_torques", "q"));
      },
      arg("robot"), arg("q"), "[the wrench on the base that holds it; joint torques].");
  m.def(
      "kinetic_energy",
      [](const R& r, const py::object& q, const py::object& v) {
        const char* f = "kinetic_energy";
        const Vec qv = config_arg(r, q, f, "q"), vv = tangent_arg(r, v, f, "v");
        Data<R> data(r);
        return kinetic_energy(r, data, qv, vv);
      },
      arg("robot"), arg("q"), arg("v"));
  m.def(
      "potential_energy",
      [](const R& r, const py::object& q) {
        const Vec qv = config_arg(r, q, "potential_energy", "q");
        Data<R> data(r);
        return potential_energy(r, data, qv);
      },
      arg("robot"), arg("q"));
  m.def(
      "centroidal_momentum",
      [](const R& r, const py::object& q, const py::object& v) -> Vec {
        const char* f = "centroidal_momentum";
        const Vec qv = config_arg(r, q, f, "q"), vv = tangent_arg(r, v, f, "v");
        Data<R> data(r);
        return centroidal_momentum(r, data, qv, vv);
      },
      arg("robot"), arg("q"), arg("v"),
      "[k_G; l]: the angular momentum about the centre of mass and the linear momentum, world "
      "axes.");
  m.def(
      "centroidal_momentum_matrix",
      [](const R& r, const py::object& q) -> Mat {
        const Vec qv = config_arg(r, q, "centroidal_momentum_matrix", "q");
        Data<R> data(r);
        centroidal_momentum_matrix(r, data, qv);
        return data.Ag;
      },
      arg("robot"), arg("q"), "A_G (6 x nv): centroidal_momentum = A_G v.");
  m.def(
      "jacobian",
      [](const R& r, const py::object& q, const py::object& frame,
         const std::string& reference, const py::object& offset) -> Mat {
        const char* f = "jacobian";
        const Vec qv = config_arg(r, q, f, "q");
        const auto handle = floating_frame_arg(r, frame, offset, f);
        Data<R> data(r);
        FloatingJacobian<TreeRobot, typename R::Base> J(6, r.nv_size());
        jacobian(r, data, qv, handle, reference_arg(reference, f), J);
        return J;
      },
      arg("robot"), arg("q"), arg("frame"), arg("reference") = "world", arg("offset") = py::none(),
      "The frame's Jacobian (6 x nv, rows [angular; linear]) with the base's six columns first; "
      "frame: 'base', a frame name or a link index.");
}

}  // namespace

void bind_floating(py::module_& m) {
  using py::arg;
  py::class_<FloatingRobot>(m, "FloatingRobot", R"doc(
A robot on a free-flying base (chaindyn's FloatingBase<TreeX<double>>): a base body (six
degrees of freedom) carrying a TreeRobot. q = [p; quaternion (x, y, z, w); q_tree] (nq = 7 + n),
v = [omega; v_O; qd] (nv = 6 + n): the base's twist in base coordinates about its origin;
accelerations likewise, generalized forces [wrench on the base (base coordinates, about its
origin; [moment; force]); joint forces]. Made from a base body (a Link: mass, com, inertia) and
a TreeRobot, or by chaindyn.load_urdf_floating. docs/floating_base.md.)doc")
      .def(py::init([](const Link<double>& base, const TreeRobot& tree) {
             return FloatingRobot(base, tree);
           }),
           arg("base"), arg("tree"),
           "The base body (its mass, com and inertia; placement and joint fields unused) and the "
           "tree on it. Raises ModelError for a base without positive mass and "
           "positive-definite inertia.")
      .def_property_readonly("nq", [](const FloatingRobot& r) { return r.nq_size(); },
                             "Configuration entries: 7 + the tree's joints.")
      .def_property_readonly("nv", [](const FloatingRobot& r) { return r.nv_size(); },
                             "Velocity entries: 6 + the tree's joints.")
      .def_property_readonly("tree", [](const FloatingRobot& r) { return r.tree(); },
                             "A copy of the tree on the base (a TreeRobot).")
      .def_property_readonly("base_mass", [](const FloatingRobot& r) { return r.base_inertia().mass; })
      .def_property_readonly("base_com", [](const FloatingRobot& r) -> Vec {
        return r.base_inertia().com();
      })
      .def_property_readonly("base_inertia", [](const FloatingRobot& r) -> Mat {
        return r.base_inertia().inertia_about_com();
      }, "The base body's rotational inertia about its centre of mass, in its frame.")
      .def_property_readonly("gravity", [](const FloatingRobot& r) -> Vec { return r.gravity(); })
      .def("neutral", [](const FloatingRobot& r) -> Vec { return r.neutral(); },
           "The base at the world origin, unrotated; the joints at zero.")
      .def("__repr__", [](const FloatingRobot& r) {
        std::ostringstream os;
        os << "<chaindyn.FloatingRobot nq=" << r.nq_size() << " nv=" << r.nv_size()
           << " base_mass=" << r.base_inertia().mass << ">";
        return os.str();
      });

  py::class_<PlanarRobot>(m, "PlanarRobot", R"doc(
A robot on a planar base (chaindyn's PlanarBaseRobot<TreeX<double>>): a base body moving in the
world's x-y plane and turning about the vertical (a wheeled base on level ground) carrying a
TreeRobot. q = [x; y; yaw; q_tree] (nq = 3 + n), v = [v_x; v_y; omega_z; qd] (nv = 3 + n): the
base's velocity in base coordinates; generalized forces [f_x; f_y; tau_z; joint forces]. Made
from a base body (a Link) and a TreeRobot, or by chaindyn.load_urdf_planar.
docs/floating_base.md.)doc")
      .def(py::init([](const Link<double>& base, const TreeRobot& tree) {
             return PlanarRobot(base, tree);
           }),
           arg("base"), arg("tree"),
           "The base body (its mass, com and inertia) and the tree on it. Raises ModelError for "
           "a base without positive mass or moment of inertia about the vertical.")
      .def_property_readonly("nq", [](const PlanarRobot& r) { return r.nq_size(); },
                             "Configuration entries: 3 + the tree's joints.")
      .def_property_readonly("nv", [](const PlanarRobot& r) { return r.nv_size(); },
                             "Velocity entries: 3 + the tree's joints.")
      .def_property_readonly("tree", [](const PlanarRobot& r) { return r.tree(); },
                             "A copy of the tree on the base (a TreeRobot).")
      .def_property_readonly("base_mass", [](const PlanarRobot& r) { return r.base_inertia().mass; })
      .def_property_readonly("base_com", [](const PlanarRobot& r) -> Vec {
        return r.base_inertia().com();
      })
      .def_property_readonly("base_inertia", [](const PlanarRobot& r) -> Mat {
        return r.base_inertia().inertia_about_com();
      }, "The base body's rotational inertia about its centre of mass, in its frame.")
      .def_property_readonly("gravity", [](const PlanarRobot& r) -> Vec { return r.gravity(); })
      .def("neutral", [](const PlanarRobot& r) -> Vec { return r.neutral(); },
           "The base at the world origin, unturned; the joints at zero.")
      .def("__repr__", [](const PlanarRobot& r) {
        std::ostringstream os;
        os << "<chaindyn.PlanarRobot nq=" << r.nq_size() << " nv=" << r.nv_size()
           << " base_mass=" << r.base_inertia().mass << ">";
        return os.str();
      });

  bind_moving_base_functions<FloatingRobot>(m);
  bind_moving_base_functions<PlanarRobot>(m);
  py::module_ b = m.attr("batch").cast<py::module_>();  // made by bind_batch
  bind_moving_base_batch<FloatingRobot>(b);
  bind_moving_base_batch<PlanarRobot>(b);

#ifdef CHAINDYN_PYTHON_URDF
  m.def(
      "load_urdf_floating",
      [](const std::string& path, const std::string& inertia, const std::string& massless) {
        return urdf::load_floating(path, tree_options(inertia, massless));
      },
      arg("path"), py::kw_only(), arg("inertia") = "strict", arg("massless") = "kinematics",
      "The FloatingRobot of a URDF file: a floating joint at the root makes its child the base "
      "link, otherwise the root link is made the base; the base body merges the links fixed to "
      "it; the tree on it as load_urdf_tree gives it. Raises ModelError naming the file, "
      "element and line.");
  m.def(
      "load_urdf_floating_report",
      [](const std::string& path, const std::string& inertia, const std::string& massless) {
        urdf::Report report;
        FloatingRobot r = urdf::load_floating(path, tree_options(inertia, massless), &report);
        return py::make_tuple(std::move(r), report_list(report));
      },
      arg("path"), py::kw_only(), arg("inertia") = "strict", arg("massless") = "kinematics",
      "(floating robot, report): load_urdf_floating and what the parser found.");
  m.def(
      "load_urdf_planar",
      [](const std::string& path, const std::string& inertia, const std::string& massless) {
        return urdf::load_planar(path, tree_options(inertia, massless));
      },
      arg("path"), py::kw_only(), arg("inertia") = "strict", arg("massless") = "kinematics",
      "The PlanarRobot of a URDF file: a planar joint at the root makes its child the base "
      "link, otherwise the root link is made the base; the base body merges the links fixed to "
      "it. Raises ModelError naming the file, element and line.");
#endif
}

}  // namespace chaindyn::python
