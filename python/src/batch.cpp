// The Python module: many states per call (chaindyn.batch), the C++ batch API
// (chaindyn/batch.hpp, docs/batch.md) on the Python Robot (ChainX<double>) and TreeRobot
// (TreeX<double>): one template per function, registered for each (the derivatives for the
// Robot only: they take serial chains).
//
// States are the columns of (nq, N) float64 arrays, read in place whatever their memory order
// (C or Fortran order, slices: an Eigen map with the array's strides); other dtypes are
// converted. Vector results are (nq, N) arrays in Fortran order (each state's column
// contiguous); per-state matrices are (N, r, c) arrays whose matrices are each in Fortran order,
// so that out[s] is state s's matrix and the whole is the C++ batch layout (r x c N,
// column-major), written by the C++ code without a copy.
//
// Each robot keeps its batch workspaces (the model cast to the pack scalar, per-thread scratch,
// the worker threads) in the state its holder owns (RobotState<T>, bindings.hpp), one per thread
// count, made by the first call with that count; the robot's mutators (gravity, set_payload,
// clear_payload) drop them. A call releases the GIL while it computes and holds its
// workspace's mutex, so two Python threads may call with one robot.
#include "bindings.hpp"

#include <chaindyn/batch.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

namespace chaindyn::python {

namespace {

using AnyArray = py::array_t<double, py::array::forcecast>;
using FortranArray = py::array_t<double, py::array::f_style | py::array::forcecast>;
/// An input: (nq, N) states, any strides (in elements).
using StatesMap = Eigen::Map<const Mat, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
/// An output: nq x N, or r x c N for per-state matrices (the C++ batch layout).
using OutMap = Eigen::Map<Mat>;

}  // namespace

/// One workspace of a robot of type T and the mutex that makes its calls one at a time.
template <typename T>
struct BatchWorkspace {
  BatchWorkspace(const T& robot, int threads) : ws(robot, batch::Options{threads}) {}
  std::mutex mutex;
  batch::Workspace<T> ws;
};

namespace {

template <typename T>
using Cached = BatchWorkspace<T>;

/// The workspace of `robot` (the Python object `self`) for `threads` threads (0: every
/// hardware thread), made on first use and kept in the robot's RobotState. Called with the GIL
/// held, which serialises the list's changes.
template <typename T>
std::shared_ptr<Cached<T>> workspace_for(const py::object& self, const T& robot, int threads) {
  const int count = batch::detail::thread_count(batch::Options{threads});  // ValueError if < 0
  std::vector<std::shared_ptr<Cached<T>>>& workspaces = robot_state<T>(self).batch;
  for (const std::shared_ptr<Cached<T>>& c : workspaces) {
    if (c->ws.threads() == count) return c;
  }
  workspaces.push_back(std::make_shared<Cached<T>>(robot, count));
  return workspaces.back();
}

std::string shape_str(const py::array& a) {
  std::ostringstream os;
  os << '(';
  for (py::ssize_t k = 0; k < a.ndim(); ++k) os << (k ? ", " : "") << a.shape(k);
  os << (a.ndim() == 1 ? ",)" : ")");
  return os.str();
}

/// An (nq, N) input read in place: the array (kept alive) and the map with its strides.
struct StatesArg {
  AnyArray array;
  StatesMap map;
};

/// Whether every entry of a states argument is finite, in one pass over its memory in storage
/// order that the compiler vectorises: x - x is +0 (all bits zero) for a finite x and NaN for an
/// infinite or NaN one, so the bitwise OR of all of them is zero exactly when every entry is
/// finite. The entry-by-entry search for the error message runs only when one is not.
bool all_finite(const StatesMap& map) {
  const auto bits_of_difference = [](const double* x, const Eigen::Index count) {
    std::uint64_t acc = 0;
    for (Eigen::Index i = 0; i < count; ++i) {
      const double d = x[i] - x[i];
      std::uint64_t u;
      std::memcpy(&u, &d, sizeof u);
      acc |= u;
    }
    return acc;
  };
  const Eigen::Index rows = map.rows(), cols = map.cols();
  std::uint64_t acc = 0;
  if (map.innerStride() == 1) {  // columns contiguous (Fortran order)
    for (Eigen::Index s = 0; s < cols; ++s)
      acc |= bits_of_difference(map.data() + s * map.outerStride(), rows);
  } else if (map.outerStride() == 1) {  // rows contiguous (C order)
    for (Eigen::Index k = 0; k < rows; ++k)
      acc |= bits_of_difference(map.data() + k * map.innerStride(), cols);
  } else {
    return map.allFinite();  // neither direction contiguous (a strided view): rare
  }
  return acc == 0;
}

/// Checks and maps an (nq, N) argument; `states`: N, or -1 for the first argument (which sets
/// it). Copies only what Eigen cannot map (another dtype; negative or misaligned strides).
StatesArg states_arg(const py::handle& obj, Eigen::Index nq, Eigen::Index states,
                     const char* function, const char* name) {
  AnyArray a = AnyArray::ensure(real_array(obj, function, name));
  if (!a) {
    PyErr_Clear();
    throw py::type_error(std::string("chaindyn: ") + function + ": " + name +
                         " must be an array of numbers (a 2-D numpy array), not " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  }
  if (a.ndim() != 2 || a.shape(0) != nq || (states >= 0 && a.shape(1) != states)) {
    std::ostringstream os;
    os << "chaindyn: " << function << ": " << name << " has shape " << shape_str(a)
       << "; expected (" << nq << ", " << (states >= 0 ? std::to_string(states) : "N")
       << "): one row per joint (the robot has " << nq << "), one column per state";
    if (states >= 0) os << " (Q has " << states << ")";
    throw py::value_error(os.str());
  }
  constexpr auto size = py::ssize_t(sizeof(double));
  const bool mappable = a.strides(0) >= 0 && a.strides(1) >= 0 && a.strides(0) % size == 0 &&
                        a.strides(1) % size == 0;
  if (!mappable) a = FortranArray::ensure(a);
  const StatesMap map(a.data(), a.shape(0), a.shape(1),
                      Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(a.strides(1) / size,
                                                                    a.strides(0) / size));
  if (all_finite(map)) return StatesArg{std::move(a), map};
  for (Eigen::Index s = 0; s < map.cols(); ++s) {
    for (Eigen::Index k = 0; k < map.rows(); ++k) {
      if (!std::isfinite(map(k, s))) {
        std::ostringstream os;
        os << "chaindyn: " << function << ": " << name << "[" << k << ", " << s
           << "] is not finite (" << map(k, s) << ")";
        throw py::value_error(os.str());
      }
    }
  }
  return StatesArg{std::move(a), map};
}

/// An (nq, N) result in Fortran order.
py::array_t<double> states_out(Eigen::Index nq, Eigen::Index n) {
  constexpr auto size = py::ssize_t(sizeof(double));
  return py::array_t<double>({py::ssize_t(nq), py::ssize_t(n)}, {size, size * nq});
}

/// An (N, rows, cols) result, each matrix in Fortran order: the C++ layout rows x cols N.
py::array_t<double> matrices_out(Eigen::Index n, Eigen::Index rows, Eigen::Index cols) {
  constexpr auto size = py::ssize_t(sizeof(double));
  return py::array_t<double>({py::ssize_t(n), py::ssize_t(rows), py::ssize_t(cols)},
                             {size * rows * cols, size, size * rows});
}

OutMap out_map(py::array_t<double>& a, Eigen::Index rows, Eigen::Index cols) {
  return OutMap(a.mutable_data(), rows, cols);
}

/// The robot of a batch call, its joint count and its workspace.
template <typename T>
struct Call {
  const T& robot;
  Eigen::Index nq;
  std::shared_ptr<Cached<T>> cached;
};

template <typename T>
Call<T> call(const T& robot, int threads) {
  // the robot's Python object (pybind11 finds the registered instance of this address)
  const py::object self = py::cast(&robot, py::return_value_policy::reference);
  return Call<T>{robot, Eigen::Index(robot.joint_count()), workspace_for(self, robot, threads)};
}

/// Runs f(ws) without the GIL, one call per workspace at a time.
template <typename T, typename F>
void run(Cached<T>& cached, F&& f) {
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(cached.mutex);
  f(cached.ws);
}

/// What a batch function needs of the robot's dynamics: a Robot's (has_dynamics) for rnea,
/// aba, crba and the derivatives; a TreeRobot's regular mass matrix for aba only (its rnea and
/// crba take joints that move no mass, as the one-state functions do).
void require_batch_dynamics(const Robot& r, const char* function, bool) {
  require_dynamics(r, function);
}
void require_batch_dynamics(const TreeRobot& r, const char* function, bool inverts_mass) {
  if (inverts_mass) require_dynamics(r, function);
}

/// The batch functions both robot types have (T: Robot, TreeRobot): rnea, aba, crba,
/// frame_pose, jacobian.
template <typename T>
void def_batch(py::module_& b) {
  using py::arg;
  b.def(
      "rnea",
      [](const T& robot, const py::object& q, const py::object& qd,
         const py::object& qdd, int threads) {
        const char* f = "batch.rnea";
        require_batch_dynamics(robot, f, false);
        const auto c = call(robot, threads);
        const StatesArg a = states_arg(q, c.nq, -1, f, "Q");
        const Eigen::Index n = a.map.cols();
        const StatesArg b = states_arg(qd, c.nq, n, f, "Qd"), d = states_arg(qdd, c.nq, n, f, "Qdd");
        py::array_t<double> tau = states_out(c.nq, n);
        OutMap out = out_map(tau, c.nq, n);
        run(*c.cached, [&](batch::Workspace<T>& ws) { batch::rnea(ws, a.map, b.map, d.map, out); });
        return tau;
      },
      arg("robot"), arg("Q"), arg("Qd"), arg("Qdd"), py::kw_only(), arg("threads") = 1,
      "Inverse dynamics of every column: out[:, s] = rnea(robot, Q[:, s], Qd[:, s], Qdd[:, s]). "
      "(nq, N) arrays in, (nq, N) out.");
  b.def(
      "aba",
      [](const T& robot, const py::object& q, const py::object& qd,
         const py::object& tau, int threads) {
        const char* f = "batch.aba";
        require_batch_dynamics(robot, f, true);
        const auto c = call(robot, threads);
        const StatesArg a = states_arg(q, c.nq, -1, f, "Q");
        const Eigen::Index n = a.map.cols();
        const StatesArg b = states_arg(qd, c.nq, n, f, "Qd"), d = states_arg(tau, c.nq, n, f, "Tau");
        py::array_t<double> qdd = states_out(c.nq, n);
        OutMap out = out_map(qdd, c.nq, n);
        run(*c.cached, [&](batch::Workspace<T>& ws) { batch::aba(ws, a.map, b.map, d.map, out); });
        return qdd;
      },
      arg("robot"), arg("Q"), arg("Qd"), arg("Tau"), py::kw_only(), arg("threads") = 1,
      "Forward dynamics of every column: out[:, s] = aba(robot, Q[:, s], Qd[:, s], Tau[:, s]).");
  b.def(
      "crba",
      [](const T& robot, const py::object& q, int threads) {
        const char* f = "batch.crba";
        require_batch_dynamics(robot, f, false);
        const auto c = call(robot, threads);
        const StatesArg a = states_arg(q, c.nq, -1, f, "Q");
        const Eigen::Index n = a.map.cols();
        py::array_t<double> ms = matrices_out(n, c.nq, c.nq);
        OutMap out = out_map(ms, c.nq, c.nq * n);
        run(*c.cached, [&](batch::Workspace<T>& ws) { batch::crba(ws, a.map, out); });
        return ms;
      },
      arg("robot"), arg("Q"), py::kw_only(), arg("threads") = 1,
      "The mass matrices: an (N, nq, nq) array, out[s] = crba(robot, Q[:, s]).");
  b.def(
      "frame_pose",
      [](const T& robot, const py::object& q, const py::object& frame,
         const py::object& offset, int threads) {
        const char* f = "batch.frame_pose";
        const auto c = call(robot, threads);
        const typename T::FrameType handle = frame_arg(c.robot, frame, offset, f);
        const StatesArg a = states_arg(q, c.nq, -1, f, "Q");
        const Eigen::Index n = a.map.cols();
        py::array_t<double> poses = matrices_out(n, 4, 4);
        // rows 0..2 of each 4x4 (Fortran order): the C++ 3 x 4N layout with columns 4 apart
        Eigen::Map<Mat, 0, Eigen::OuterStride<>> out(poses.mutable_data(), 3, 4 * n,
                                                      Eigen::OuterStride<>(4));
        run(*c.cached, [&](batch::Workspace<T>& ws) { batch::frame_pose(ws, a.map, handle, out); });
        double* p = poses.mutable_data();
        for (Eigen::Index s = 0; s < n; ++s) {
          for (int col = 0; col < 4; ++col) p[16 * s + 4 * col + 3] = col == 3 ? 1.0 : 0.0;
        }
        return poses;
      },
      arg("robot"), arg("Q"), arg("frame"), arg("offset") = py::none(), py::kw_only(),
      arg("threads") = 1,
      "The poses (an (N, 4, 4) array) in the base frame of a frame (name or link index, "
      "optional 4x4 offset): out[s] = frame_pose(robot, Q[:, s], frame, offset).");
  b.def(
      "jacobian",
      [](const T& robot, const py::object& q, const py::object& frame,
         const std::string& reference, const py::object& offset, int threads) {
        const char* f = "batch.jacobian";
        const auto c = call(robot, threads);
        const typename T::FrameType handle = frame_arg(c.robot, frame, offset, f);
        const ReferenceFrame rf = reference_arg(reference, f);
        const StatesArg a = states_arg(q, c.nq, -1, f, "Q");
        const Eigen::Index n = a.map.cols();
        py::array_t<double> js = matrices_out(n, 6, c.nq);
        OutMap out = out_map(js, 6, c.nq * n);
        run(*c.cached, [&](batch::Workspace<T>& ws) { batch::jacobian(ws, a.map, handle, rf, out); });
        return js;
      },
      arg("robot"), arg("Q"), arg("frame"), arg("reference") = "world", arg("offset") = py::none(),
      py::kw_only(), arg("threads") = 1,
      "The Jacobians (an (N, 6, nq) array, rows [angular; linear]) of a frame: out[s] = "
      "jacobian(robot, Q[:, s], frame, reference, offset).");
  b.def(
      "frame_velocity",
      [](const T& robot, const py::object& q, const py::object& qd, const py::object& frame,
         const std::string& reference, const py::object& offset, int threads) {
        const char* f = "batch.frame_velocity";
        const auto c = call(robot, threads);
        const typename T::FrameType handle = frame_arg(c.robot, frame, offset, f);
        const ReferenceFrame rf = reference_arg(reference, f);
        const StatesArg a = states_arg(q, c.nq, -1, f, "Q");
        const Eigen::Index n = a.map.cols();
        const StatesArg b = states_arg(qd, c.nq, n, f, "Qd");
        py::array_t<double> vs = states_out(6, n);
        OutMap out = out_map(vs, 6, n);
        run(*c.cached, [&](batch::Workspace<T>& ws) {
          batch::frame_velocity(ws, a.map, b.map, handle, rf, out);
        });
        return vs;
      },
      arg("robot"), arg("Q"), arg("Qd"), arg("frame"), arg("reference") = "world",
      arg("offset") = py::none(), py::kw_only(), arg("threads") = 1,
      "The velocities [omega; v] of a frame, a (6, N) array: out[:, s] = "
      "frame_velocity(robot, Q[:, s], Qd[:, s], frame, reference, offset).");
  b.def(
      "frame_acceleration",
      [](const T& robot, const py::object& q, const py::object& qd, const py::object& qdd,
         const py::object& frame, const std::string& reference, const py::object& offset,
         int threads) {
        const char* f = "batch.frame_acceleration";
        const auto c = call(robot, threads);
        const typename T::FrameType handle = frame_arg(c.robot, frame, offset, f);
        const ReferenceFrame rf = reference_arg(reference, f);
        const StatesArg a = states_arg(q, c.nq, -1, f, "Q");
        const Eigen::Index n = a.map.cols();
        const StatesArg b = states_arg(qd, c.nq, n, f, "Qd"), d = states_arg(qdd, c.nq, n, f, "Qdd");
        py::array_t<double> as = states_out(6, n);
        OutMap out = out_map(as, 6, n);
        run(*c.cached, [&](batch::Workspace<T>& ws) {
          batch::frame_acceleration(ws, a.map, b.map, d.map, handle, rf, out);
        });
        return as;
      },
      arg("robot"), arg("Q"), arg("Qd"), arg("Qdd"), arg("frame"), arg("reference") = "world",
      arg("offset") = py::none(), py::kw_only(), arg("threads") = 1,
      "The spatial accelerations [omega_dot; p_ddot - omega x p_dot] of a frame, no gravity, a "
      "(6, N) array: out[:, s] = frame_acceleration(robot, Q[:, s], Qd[:, s], Qdd[:, s], frame, "
      "reference, offset).");
}

}  // namespace

void bind_batch(py::module_& m) {
  using py::arg;
  py::module_ b = m.def_submodule("batch", R"doc(
Many states per call: chaindyn's batch API (SIMD packs of states, the columns split over
threads) on a Robot. States are the columns of (nq, N) float64 arrays (read in place in C or
Fortran order; other dtypes are converted). Vector results are (nq, N) arrays, per-state
matrices (N, rows, cols) arrays: out[s] is state s's. threads=1 runs on the calling thread,
threads=0 on every hardware thread. Each robot keeps one workspace per thread count (made by
the first call with it; dropped when the robot's gravity or payloads change). The GIL is
released during the computation.)doc");

  b.def(
      "workspaces",
      [](const py::object& robot) {
        std::vector<int> out;
        if (py::isinstance<TreeRobot>(robot)) {
          for (const auto& c : robot_state<TreeRobot>(robot).batch) out.push_back(c->ws.threads());
        } else {
          for (const auto& c : robot_state(robot).batch) out.push_back(c->ws.threads());
        }
        return out;
      },
      arg("robot"),
      "The thread counts of the workspaces the robot keeps, in the order they were made (none "
      "before the first batch call, and none after its gravity or payloads change).");
  def_batch<Robot>(b);
  def_batch<TreeRobot>(b);
  b.def(
      "rnea_derivatives",
      [](const Robot& robot, const py::object& q, const py::object& qd,
         const py::object& qdd, int threads) {
        const char* f = "batch.rnea_derivatives";
        require_dynamics(robot, f);
        const auto c = call(robot, threads);
        const StatesArg a = states_arg(q, c.nq, -1, f, "Q");
        const Eigen::Index n = a.map.cols();
        const StatesArg b = states_arg(qd, c.nq, n, f, "Qd"), d = states_arg(qdd, c.nq, n, f, "Qdd");
        py::array_t<double> dq = matrices_out(n, c.nq, c.nq), dqd = matrices_out(n, c.nq, c.nq);
        OutMap out_q = out_map(dq, c.nq, c.nq * n), out_qd = out_map(dqd, c.nq, c.nq * n);
        run(*c.cached, [&](batch::Workspace<Robot>& ws) {
          batch::rnea_derivatives(ws, a.map, b.map, d.map, out_q, out_qd);
        });
        return py::make_tuple(dq, dqd);
      },
      arg("robot"), arg("Q"), arg("Qd"), arg("Qdd"), py::kw_only(), arg("threads") = 1,
      "(dtau_dq, dtau_dqd), each (N, nq, nq): out[s] is rnea_derivatives at column s.");
  b.def(
      "aba_derivatives",
      [](const Robot& robot, const py::object& q, const py::object& qd,
         const py::object& tau, int threads) {
        const char* f = "batch.aba_derivatives";
        require_dynamics(robot, f);
        const auto c = call(robot, threads);
        const StatesArg a = states_arg(q, c.nq, -1, f, "Q");
        const Eigen::Index n = a.map.cols();
        const StatesArg b = states_arg(qd, c.nq, n, f, "Qd"), d = states_arg(tau, c.nq, n, f, "Tau");
        py::array_t<double> dq = matrices_out(n, c.nq, c.nq), dqd = matrices_out(n, c.nq, c.nq),
                            dtau = matrices_out(n, c.nq, c.nq);
        OutMap out_q = out_map(dq, c.nq, c.nq * n), out_qd = out_map(dqd, c.nq, c.nq * n),
               out_tau = out_map(dtau, c.nq, c.nq * n);
        run(*c.cached, [&](batch::Workspace<Robot>& ws) {
          batch::aba_derivatives(ws, a.map, b.map, d.map, out_q, out_qd, out_tau);
        });
        return py::make_tuple(dq, dqd, dtau);
      },
      arg("robot"), arg("Q"), arg("Qd"), arg("Tau"), py::kw_only(), arg("threads") = 1,
      "(dqdd_dq, dqdd_dqd, dqdd_dtau = M^-1), each (N, nq, nq): out[s] is aba_derivatives at "
      "column s.");
}

}  // namespace chaindyn::python
