// The Python module: the dynamics algorithms, frames and Jacobians, and the derivatives. Each
// function checks its arguments (1-D arrays of finite numbers; the size against the robot by
// chaindyn itself) and calls chaindyn's returning form on the robot.
#include "bindings.hpp"

namespace chaindyn::python {

namespace {

/// f_ext: one wrench per link, an (nq, 6) array, row i = [moment; force] on link i in its link
/// frame about its origin.
LinkForces<Robot> wrenches_arg(const Robot& r, const py::handle& obj, const char* function) {
  Array a = as_array(obj, function, "f_ext");
  const auto n = py::ssize_t(r.joint_count());
  if (a.ndim() != 2 || a.shape(0) != n || a.shape(1) != 6) {
    std::ostringstream os;
    os << "chaindyn: " << function << ": f_ext must have shape (" << n
       << ", 6): one wrench [moment; force] per link";
    throw py::value_error(os.str());
  }
  check_finite(a.data(), a.size(), function, "f_ext");
  LinkForces<Robot> f = link_forces(r);
  for (py::ssize_t i = 0; i < n; ++i) {
    const double* w = a.data() + 6 * i;
    f[std::size_t(i)] = Force<double>(Eigen::Vector3d(w[0], w[1], w[2]),
                                      Eigen::Vector3d(w[3], w[4], w[5]));
  }
  return f;
}

/// The task-space functions (operational_space.hpp) for one robot type (Model: Robot,
/// TreeRobot): operational_space_inertia, operational_space_dynamics, null_space_projector.
template <typename Model>
void def_task_space(py::module_& m) {
  using py::arg;
  m.def(
      "operational_space_inertia",
      [](const Model& r, const py::object& q, const py::object& frame,
         const std::string& reference, const py::object& offset, bool position) {
        const char* f = "operational_space_inertia";
        require_dynamics(r, f);
        const auto x = frame_arg(r, frame, offset, f);
        const auto rf = reference_arg(reference, f);
        const auto qv = vec_arg(q, f, "q");
        py::dict out;
        const auto put = [&](const auto& os) {
          out["Lambda"] = Mat(os.Lambda);
          out["Lambda_inv"] = Mat(os.Lambda_inv);
          out["rcond"] = os.rcond;
        };
        if (position) {
          put(operational_space_inertia<position_task>(r, qv.map(), x, rf));
        } else {
          put(operational_space_inertia<pose_task>(r, qv.map(), x, rf));
        }
        return out;
      },
      arg("robot"), arg("q"), arg("frame"), arg("reference") = "world", arg("offset") = py::none(),
      arg("position") = false,
      "{'Lambda', 'Lambda_inv', 'rcond'}: the operational-space inertia (J M^-1 J^T)^-1 of the "
      "frame's pose task (6x6), or with position=True of its origin's position (3x3), by the "
      "O(n) recursion; rcond: Lambda_inv's reciprocal condition number (0: singular, Lambda "
      "NaN).");
  m.def(
      "operational_space_inertia_frames",
      [](const Model& r, const py::object& q, const py::sequence& frames,
         const std::string& reference) {
        const char* f = "operational_space_inertia_frames";
        require_dynamics(r, f);
        const auto rf = reference_arg(reference, f);
        const auto qv = vec_arg(q, f, "q");
        py::dict out;
        const auto run = [&](auto indices) {
          const auto handles = [&](auto... a) {
            return std::array<typename Model::FrameType, sizeof...(a)>{
                frame_arg(r, py::object(frames[a]), py::none(), f)...};
          };
          const auto os = std::apply(
              [&](auto... a) {
                return operational_space_inertia(r, qv.map(), handles(a...), rf);
              },
              indices);
          out["Lambda"] = Mat(os.Lambda);
          out["Lambda_inv"] = Mat(os.Lambda_inv);
          out["rcond"] = os.rcond;
        };
        if (py::len(frames) == 2) {
          run(std::make_tuple(std::size_t(0), std::size_t(1)));
        } else if (py::len(frames) == 3) {
          run(std::make_tuple(std::size_t(0), std::size_t(1), std::size_t(2)));
        } else {
          throw py::value_error("chaindyn: operational_space_inertia_frames takes 2 or 3 frames");
        }
        return out;
      },
      arg("robot"), arg("q"), arg("frames"), arg("reference") = "world",
      "{'Lambda', 'Lambda_inv', 'rcond'}: the operational-space inertia of the pose tasks of 2 "
      "or 3 frames at once (names or link indices; 6K x 6K, the cross terms through the common "
      "ancestors on a tree), by the O(n) force propagation.");
  m.def(
      "operational_space_dynamics",
      [](const Model& r, const py::object& q, const py::object& qd, const py::object& frame,
         const std::string& reference, const py::object& offset, bool position) {
        const char* f = "operational_space_dynamics";
        require_dynamics(r, f);
        const auto x = frame_arg(r, frame, offset, f);
        const auto rf = reference_arg(reference, f);
        const auto qv = vec_arg(q, f, "q"), qdv = vec_arg(qd, f, "qd");
        py::dict out;
        const auto put = [&](const auto& os, const auto& jbar) {
          out["Lambda"] = Mat(os.Lambda);
          out["Lambda_inv"] = Mat(os.Lambda_inv);
          out["rcond"] = os.rcond;
          out["mu"] = Vec(os.mu);
          out["p"] = Vec(os.p);
          out["jbar"] = Mat(jbar);
        };
        if (position) {
          put(operational_space_dynamics<position_task>(r, qv.map(), qdv.map(), x, rf),
              dynamically_consistent_inverse<position_task>(r, qv.map(), x, rf));
        } else {
          put(operational_space_dynamics<pose_task>(r, qv.map(), qdv.map(), x, rf),
              dynamically_consistent_inverse<pose_task>(r, qv.map(), x, rf));
        }
        return out;
      },
      arg("robot"), arg("q"), arg("qd"), arg("frame"), arg("reference") = "world",
      arg("offset") = py::none(), arg("position") = false,
      "{'Lambda', 'Lambda_inv', 'rcond', 'mu', 'p', 'jbar'}: Lambda xdd + mu + p = F with "
      "xdd = J qdd + Jdot qd; jbar = M^-1 J^T Lambda (nq x 6, or nq x 3 with position=True).");
  m.def(
      "null_space_projector",
      [](const Model& r, const py::object& q, const py::object& frame, const py::object& offset,
         bool position) -> Mat {
        const char* f = "null_space_projector";
        require_dynamics(r, f);
        const auto x = frame_arg(r, frame, offset, f);
        const auto qv = vec_arg(q, f, "q");
        return position ? Mat(null_space_projector<position_task>(r, qv.map(), x))
                        : Mat(null_space_projector<pose_task>(r, qv.map(), x));
      },
      arg("robot"), arg("q"), arg("frame"), arg("offset") = py::none(), arg("position") = false,
      "N = 1 - Jbar J (nq x nq), the dynamically consistent null-space projector of the frame's "
      "task: tau = J^T F + N^T tau_0.");
}

}  // namespace

void bind_algorithms(py::module_& m) {
  using py::arg;
  m.def(
      "rnea",
      [](const Robot& r, const py::object& q, const py::object& qd, const py::object& qdd,
         const py::object& f_ext) -> Vec {
        require_dynamics(r, "rnea");
        const char* f = "rnea";
        const VecArg a = vec_arg(q, f, "q"), b = vec_arg(qd, f, "qd"), c = vec_arg(qdd, f, "qdd");
        if (f_ext.is_none()) return rnea(r, a.map(), b.map(), c.map());
        return rnea(r, a.map(), b.map(), c.map(), wrenches_arg(r, f_ext, f));
      },
      arg("robot"), arg("q"), arg("qd"), arg("qdd"), arg("f_ext") = py::none(),
      "Inverse dynamics by the Recursive Newton-Euler Algorithm: tau = M qdd + C qd + g + "
      "friction (- J^T f_ext). f_ext: optional (nq, 6) array, row i the wrench [moment; force] "
      "on link i in its link frame about its origin.");
  m.def(
      "crba",
      [](const Robot& r, const py::object& q) -> Mat {
        require_dynamics(r, "crba");
        return crba(r, vec_arg(q, "crba", "q").map());
      },
      arg("robot"), arg("q"), "The joint-space mass matrix M(q) (nq x nq, armature included).");
  m.def(
      "aba",
      [](const Robot& r, const py::object& q, const py::object& qd, const py::object& tau,
         const py::object& f_ext) -> Vec {
        require_dynamics(r, "aba");
        const char* f = "aba";
        const VecArg a = vec_arg(q, f, "q"), b = vec_arg(qd, f, "qd"), c = vec_arg(tau, f, "tau");
        if (f_ext.is_none()) return aba(r, a.map(), b.map(), c.map());
        return aba(r, a.map(), b.map(), c.map(), wrenches_arg(r, f_ext, f));
      },
      arg("robot"), arg("q"), arg("qd"), arg("tau"), arg("f_ext") = py::none(),
      "Forward dynamics by the Articulated Body Algorithm: qdd = M^-1 (tau - C qd - g - "
      "friction).");
  m.def(
      "forward_dynamics_crba",
      [](const Robot& r, const py::object& q, const py::object& qd,
         const py::object& tau) -> Vec {
        require_dynamics(r, "forward_dynamics_crba");
        const char* f = "forward_dynamics_crba";
        return forward_dynamics_crba(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map(),
                                     vec_arg(tau, f, "tau").map());
      },
      arg("robot"), arg("q"), arg("qd"), arg("tau"),
      "Forward dynamics by CRBA + Cholesky (the O(n^3) reference for aba).");
  m.def(
      "gravity_torques",
      [](const Robot& r, const py::object& q) -> Vec {
        require_dynamics(r, "gravity_torques");
        return gravity_torques(r, vec_arg(q, "gravity_torques", "q").map());
      },
      arg("robot"), arg("q"), "g(q): the torques that hold the robot against gravity.");
  m.def(
      "nonlinear_effects",
      [](const Robot& r, const py::object& q, const py::object& qd) -> Vec {
        require_dynamics(r, "nonlinear_effects");
        const char* f = "nonlinear_effects";
        return nonlinear_effects(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map());
      },
      arg("robot"), arg("q"), arg("qd"), "C(q, qd) qd + g(q) (no friction).");
  m.def(
      "coriolis_matrix",
      [](const Robot& r, const py::object& q, const py::object& qd) -> Mat {
        require_dynamics(r, "coriolis_matrix");
        const char* f = "coriolis_matrix";
        return coriolis_matrix(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map());
      },
      arg("robot"), arg("q"), arg("qd"),
      "C(q, qd) in Christoffel form: C qd = nonlinear_effects - gravity_torques, Mdot - 2C "
      "skew-symmetric.");
  m.def(
      "christoffel_symbols",
      [](const Robot& r, const py::object& q) {
        require_dynamics(r, "christoffel_symbols");
        const auto gamma = christoffel_symbols(r, vec_arg(q, "christoffel_symbols", "q").map());
        const auto n = py::ssize_t(r.joint_count());
        py::array_t<double> out({n, n, n});
        for (py::ssize_t i = 0; i < n; ++i) {
          for (py::ssize_t j = 0; j < n; ++j) {
            for (py::ssize_t k = 0; k < n; ++k) out.mutable_at(i, j, k) = gamma[std::size_t(i)](j, k);
          }
        }
        return out;
      },
      arg("robot"), arg("q"),
      "The Christoffel symbols of the first kind, an (nq, nq, nq) array: out[i, j, k] = "
      "1/2 (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i), so C[i, j] = out[i, j, :] @ qd.");
  m.def(
      "inverse_mass_matrix",
      [](const Robot& r, const py::object& q) -> Mat {
        require_dynamics(r, "inverse_mass_matrix");
        return inverse_mass_matrix(r, vec_arg(q, "inverse_mass_matrix", "q").map());
      },
      arg("robot"), arg("q"), "M(q)^-1 in O(n^2).");
  m.def(
      "kinetic_energy",
      [](const Robot& r, const py::object& q, const py::object& qd) {
        require_dynamics(r, "kinetic_energy");
        const char* f = "kinetic_energy";
        return kinetic_energy(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map());
      },
      arg("robot"), arg("q"), arg("qd"), "T = 1/2 qd^T M(q) qd (J).");
  m.def(
      "potential_energy",
      [](const Robot& r, const py::object& q) {
        require_dynamics(r, "potential_energy");
        return potential_energy(r, vec_arg(q, "potential_energy", "q").map());
      },
      arg("robot"), arg("q"), "V = -sum_i m_i g . c_i (J).");
  m.def(
      "friction_torques",
      [](const Robot& r, const py::object& qd) -> Vec {
        return friction_torques(r, vec_arg(qd, "friction_torques", "qd").map());
      },
      arg("robot"), arg("qd"), "damping qd + Coulomb friction sign(qd), per joint.");

  m.def(
      "frame_pose",
      [](const Robot& r, const py::object& q, const py::object& frame, const py::object& offset) {
        const char* f = "frame_pose";
        return to_matrix(frame_pose(r, vec_arg(q, f, "q").map(), frame_arg(r, frame, offset, f)));
      },
      arg("robot"), arg("q"), arg("frame"), arg("offset") = py::none(),
      "The pose (4x4) in the base frame of a frame: a name (robot.frame_names) or a link "
      "index, optionally moved by `offset` (4x4, in that frame).");
  m.def(
      "jacobian",
      [](const Robot& r, const py::object& q, const py::object& frame, const std::string& reference,
         const py::object& offset) -> Mat {
        const char* f = "jacobian";
        return jacobian(r, vec_arg(q, f, "q").map(), frame_arg(r, frame, offset, f),
                        reference_arg(reference, f));
      },
      arg("robot"), arg("q"), arg("frame"), arg("reference") = "world", arg("offset") = py::none(),
      "The 6 x nq geometric Jacobian of a frame, rows [angular; linear]: J qd = (omega; v) in "
      "the base axes ('world') or the frame's axes ('local'), at the frame's origin.");
  m.def(
      "jdot_qd",
      [](const Robot& r, const py::object& q, const py::object& qd, const py::object& frame,
         const std::string& reference, const py::object& offset) -> Vec {
        const char* f = "jdot_qd";
        return jdot_qd(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map(),
                       frame_arg(r, frame, offset, f), reference_arg(reference, f));
      },
      arg("robot"), arg("q"), arg("qd"), arg("frame"), arg("reference") = "world",
      arg("offset") = py::none(), "Jdot(q, qd) qd of a frame (6 entries, [angular; linear]).");

  // --- frame motion and task-space dynamics (frame_motion.hpp, operational_space.hpp) ---
  m.def(
      "frame_velocity",
      [](const Robot& r, const py::object& q, const py::object& qd, const py::object& frame,
         const std::string& reference, const py::object& offset) -> Vec {
        const char* f = "frame_velocity";
        return frame_velocity(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map(),
                              frame_arg(r, frame, offset, f), reference_arg(reference, f))
            .vector();
      },
      arg("robot"), arg("q"), arg("qd"), arg("frame"), arg("reference") = "world",
      arg("offset") = py::none(),
      "The frame's velocity [omega; v] (v: its origin's), = J qd, in 'world' or 'local' axes.");
  m.def(
      "frame_acceleration",
      [](const Robot& r, const py::object& q, const py::object& qd, const py::object& qdd,
         const py::object& frame, const std::string& reference, const py::object& offset,
         bool classical) -> Vec {
        const char* f = "frame_acceleration";
        const auto x = frame_arg(r, frame, offset, f);
        const auto rf = reference_arg(reference, f);
        const auto qv = vec_arg(q, f, "q"), qdv = vec_arg(qd, f, "qd"),
                   qddv = vec_arg(qdd, f, "qdd");
        return (classical ? frame_classical_acceleration(r, qv.map(), qdv.map(), qddv.map(), x, rf)
                          : frame_acceleration(r, qv.map(), qdv.map(), qddv.map(), x, rf))
            .vector();
      },
      arg("robot"), arg("q"), arg("qd"), arg("qdd"), arg("frame"), arg("reference") = "world",
      arg("offset") = py::none(), arg("classical") = false,
      "The frame's spatial acceleration [omega_dot; p_ddot - omega x p_dot], or with "
      "classical=True [omega_dot; p_ddot], no gravity.");
  m.def(
      "jacobian_time_derivative",
      [](const Robot& r, const py::object& q, const py::object& qd, const py::object& frame,
         const std::string& reference, const py::object& offset) -> Mat {
        const char* f = "jacobian_time_derivative";
        return jacobian_time_derivative(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map(),
                                        frame_arg(r, frame, offset, f),
                                        reference_arg(reference, f));
      },
      arg("robot"), arg("q"), arg("qd"), arg("frame"), arg("reference") = "world",
      arg("offset") = py::none(), "Jdot = d/dt J(q(t)) (6 x nq); Jdot @ qd = jdot_qd.");
  // the task space: one template for a Robot and a TreeRobot (above the namespace's end)
  def_task_space<Robot>(m);
  def_task_space<TreeRobot>(m);

  m.def(
      "rnea_derivatives",
      [](const Robot& r, const py::object& q, const py::object& qd, const py::object& qdd) {
        require_dynamics(r, "rnea_derivatives");
        const char* f = "rnea_derivatives";
        const auto d = rnea_derivatives(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map(),
                                        vec_arg(qdd, f, "qdd").map());
        return py::make_tuple(Mat(d.dtau_dq), Mat(d.dtau_dqd));
      },
      arg("robot"), arg("q"), arg("qd"), arg("qdd"),
      "(dtau_dq, dtau_dqd): the analytical partial derivatives of rnea (Carpentier & Mansard "
      "2018).");
  m.def(
      "aba_derivatives",
      [](const Robot& r, const py::object& q, const py::object& qd, const py::object& tau) {
        require_dynamics(r, "aba_derivatives");
        const char* f = "aba_derivatives";
        const auto d = aba_derivatives(r, vec_arg(q, f, "q").map(), vec_arg(qd, f, "qd").map(),
                                       vec_arg(tau, f, "tau").map());
        return py::make_tuple(Mat(d.dqdd_dq), Mat(d.dqdd_dqd), Mat(d.dqdd_dtau));
      },
      arg("robot"), arg("q"), arg("qd"), arg("tau"),
      "(dqdd_dq, dqdd_dqd, dqdd_dtau = M^-1): the partial derivatives of aba.");
}

}  // namespace chaindyn::python
