// The shared parts of the Python module's translation units: the robot type (ChainX<double>)
// and its holder (the state the binding keeps beside each robot), numpy <-> Eigen conversion
// with the argument checks, and the binders.
#pragma once

#include <chaindyn/chaindyn.hpp>

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace chaindyn::python {

namespace py = pybind11;

/// The robot of the Python module: a runtime-sized chain (any joint count, revolute or
/// prismatic joints about any axis).
using Robot = ChainX<double>;
/// Its kinematic tree (trees.cpp: chaindyn.TreeRobot).
using TreeRobot = TreeX<double>;
using Vec = Eigen::VectorXd;
using Mat = Eigen::MatrixXd;
using VecMap = Eigen::Map<const Vec>;
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// What an argument is, for messages: its type's name, and for a list or tuple the type of its
/// first entry ("list of str").
inline std::string describe(const py::handle& obj) {
  std::string out = py::str(py::type::of(obj).attr("__name__"));
  if ((py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) && py::len(obj) > 0) {
    const py::handle first = obj[py::int_(0)];
    out += " of " + std::string(py::str(py::type::of(first).attr("__name__")));
  }
  return out;
}

/// Refuses an argument that is not real numbers: strings (numpy would parse "0.1"), complex
/// numbers (numpy would drop the imaginary part), objects. Returns it as an array of its own
/// dtype (no copy when it is one).
inline py::array real_array(const py::handle& obj, const char* function, const char* name) {
  py::array raw = py::array::ensure(obj);
  if (!raw) {
    PyErr_Clear();
    throw py::type_error(std::string("chaindyn: ") + function + ": " + name +
                         " must be an array of real numbers (a numpy array, list or tuple), "
                         "not " + describe(obj));
  }
  const char kind = raw.dtype().kind();
  if (kind == 'c') {
    throw py::type_error(std::string("chaindyn: ") + function + ": " + name +
                         " holds complex numbers; chaindyn takes real numbers (pass .real to "
                         "drop the imaginary part)");
  }
  if (kind != 'f' && kind != 'i' && kind != 'u' && kind != 'b') {
    throw py::type_error(std::string("chaindyn: ") + function + ": " + name +
                         " must be an array of real numbers (a numpy array, list or tuple of "
                         "float or int), not " + describe(obj) + " (numpy dtype '" +
                         std::string(py::str(raw.dtype())) + "')");
  }
  return raw;
}

/// True for a numpy array of native float64, C-contiguous and aligned: the common argument,
/// taken as it is, read from numpy's array header without a conversion call.
inline bool is_plain_float64(const py::handle& obj) {
  const auto& api = py::detail::npy_api::get();
  if (!api.PyArray_Check_(obj.ptr())) return false;
  const auto* array = py::detail::array_proxy(obj.ptr());
  const auto* descr = py::detail::array_descriptor_proxy(array->descr);
  constexpr int flags = py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_ |
                        py::detail::npy_api::NPY_ARRAY_ALIGNED_;
  return descr->type_num == py::detail::npy_api::NPY_DOUBLE_ && descr->byteorder != '>' &&
         (array->flags & flags) == flags;
}

/// An argument as a float64 C-contiguous array (no copy when it already is one).
inline Array as_array(const py::handle& obj, const char* function, const char* name) {
  if (is_plain_float64(obj)) return py::reinterpret_borrow<Array>(obj);
  Array a = Array::ensure(real_array(obj, function, name));
  if (!a) {
    PyErr_Clear();
    throw py::type_error(std::string("chaindyn: ") + function + ": " + name +
                         " must be an array of real numbers (a numpy array, list or tuple), "
                         "not " + describe(obj));
  }
  return a;
}

/// Rows of a list of vectors as an (N, n) array (a simulation's samples).
inline Mat stack_rows(const std::vector<Vec>& rows, Eigen::Index n) {
  Mat out(Eigen::Index(rows.size()), n);
  for (std::size_t k = 0; k < rows.size(); ++k) out.row(Eigen::Index(k)) = rows[k].transpose();
  return out;
}

/// Throws ValueError naming the first entry that is not finite.
inline void check_finite(const double* p, py::ssize_t n, const char* function, const char* name) {
  for (py::ssize_t i = 0; i < n; ++i) {
    if (!std::isfinite(p[i])) {
      std::ostringstream os;
      os << "chaindyn: " << function << ": " << name << "[" << i << "] is not finite (" << p[i]
         << ")";
      throw py::value_error(os.str());
    }
  }
}

/// A vector argument: a 1-D array of finite numbers, viewed in place (the size is checked by
/// chaindyn against the robot: ArgumentError, raised as ValueError with chaindyn's message).
struct VecArg {
  Array array;
  VecMap map() const { return VecMap(array.data(), array.size()); }
};

inline VecArg vec_arg(const py::handle& obj, const char* function, const char* name) {
  Array a = as_array(obj, function, name);
  if (a.ndim() != 1) {
    std::ostringstream os;
    os << "chaindyn: " << function << ": " << name << " has shape (";
    for (py::ssize_t k = 0; k < a.ndim(); ++k) os << (k ? ", " : "") << a.shape(k);
    os << "); a vector (a 1-D array) is expected";
    throw py::value_error(os.str());
  }
  check_finite(a.data(), a.size(), function, name);
  return VecArg{std::move(a)};
}

/// A fixed-size matrix argument (rows x cols), finite.
template <int Rows, int Cols>
Eigen::Matrix<double, Rows, Cols> fixed_arg(const py::handle& obj, const char* function,
                                            const char* name) {
  Array a = as_array(obj, function, name);
  const bool vector = Cols == 1 && a.ndim() == 1 && a.shape(0) == Rows;
  const bool matrix = a.ndim() == 2 && a.shape(0) == Rows && a.shape(1) == Cols;
  if (!vector && !matrix) {
    std::ostringstream os;
    os << "chaindyn: " << function << ": " << name << " has shape (";
    for (py::ssize_t k = 0; k < a.ndim(); ++k) os << (k ? ", " : "") << a.shape(k);
    os << "); " << (Cols == 1 ? "a vector of " : "a matrix of shape (") << Rows;
    if (Cols != 1) os << ", " << Cols << ")";
    os << (Cols == 1 ? " entries is expected" : " is expected");
    throw py::value_error(os.str());
  }
  check_finite(a.data(), a.size(), function, name);
  Eigen::Matrix<double, Rows, Cols> out;
  for (int r = 0; r < Rows; ++r) {
    for (int c = 0; c < Cols; ++c) out(r, c) = a.data()[r * Cols + c];
  }
  return out;
}

/// A fixed-size vector argument (N entries), finite.
template <int N>
Eigen::Matrix<double, N, 1> fixed_vec(const py::handle& obj, const char* f, const char* name) {
  return fixed_arg<N, 1>(obj, f, name);
}

/// A joint vector of the robot's size as a VectorXd (the type a ChainX's in-place forms take),
/// not checked for finite numbers (the online estimator refuses such a sample itself).
inline Vec joint_vec(py::ssize_t n, const py::handle& obj, const char* f, const char* name) {
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

/// A pose as a 4x4 homogeneous matrix [R p; 0 0 0 1].
inline Eigen::Matrix4d to_matrix(const Transform<double>& x) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = x.rotation;
  m.topRightCorner<3, 1>() = x.translation;
  return m;
}

/// A 4x4 homogeneous matrix as a pose. `checked`: refuse (ValueError) a rotation block that is
/// not a rotation (orthonormal to 1e-6, determinant +1) or a last row other than [0 0 0 1];
/// false where the pose is checked where it is used (a Link's placement, by the Robot).
inline Transform<double> pose_arg(const py::handle& obj, const char* function, const char* name,
                                  bool checked = true) {
  const Eigen::Matrix4d m = fixed_arg<4, 4>(obj, function, name);
  const Eigen::Matrix3d r = m.topLeftCorner<3, 3>();
  if (checked) {
    const double orthonormal = (r.transpose() * r - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff();
    if (!(orthonormal < 1e-6) || !(r.determinant() > 0.0)) {
      std::ostringstream os;
      os << "chaindyn: " << function << ": " << name << "'s upper-left 3x3 block is not a "
         << "rotation matrix (orthonormal, determinant +1): |R^T R - 1| = " << orthonormal
         << ", det R = " << r.determinant();
      throw py::value_error(os.str());
    }
    if (m.row(3) != Eigen::RowVector4d(0, 0, 0, 1)) {
      throw py::value_error(std::string("chaindyn: ") + function + ": " + name +
                            "'s last row must be [0, 0, 0, 1] (a homogeneous transform)");
    }
  }
  return Transform<double>(r, m.topRightCorner<3, 1>());
}

/// A frame of the robot (a Robot or a TreeRobot): a name (str) or a link index (int), with an
/// optional offset pose.
template <typename Model>
typename Model::FrameType frame_arg(const Model& robot, const py::handle& frame,
                                    const py::handle& offset, const char* function) {
  const Transform<double> x =
      offset.is_none() ? Transform<double>::Identity() : pose_arg(offset, function, "offset");
  if (py::isinstance<py::str>(frame)) return robot.frame(frame.cast<std::string>(), x);
  if (py::isinstance<py::int_>(frame)) {
    const long long link = frame.cast<long long>();
    if (link < 0) {
      throw py::index_error(std::string("chaindyn: ") + function + ": link index " +
                            std::to_string(link) + " is negative");
    }
    return robot.frame(std::size_t(link), x);
  }
  throw py::type_error(std::string("chaindyn: ") + function +
                       ": frame must be a frame name (str) or a link index (int)");
}

/// A Jacobian's coordinates: "world" or "local".
inline ReferenceFrame reference_arg(const std::string& s, const char* function) {
  if (s == "world") return ReferenceFrame::world;
  if (s == "local") return ReferenceFrame::local;
  throw py::value_error(std::string("chaindyn: ") + function +
                        ": reference is 'world' or 'local', not '" + s + "'");
}

/// Refuses (ValueError) a dynamics call on a robot without dynamics (robot.has_dynamics False:
/// loaded without mass, for kinematics only), which would return NaN or zeros.
inline void require_dynamics(const Robot& r, const char* function) {
  if (!r.has_dynamics()) {
    throw py::value_error(std::string("chaindyn: ") + function + ": the robot has no dynamics "
                          "(robot.has_dynamics is False: a kinematics-only model, e.g. a URDF "
                          "without mass); its kinematics (frame_pose, jacobian, jdot_qd) work");
  }
}

/// A tree's forward dynamics (aba, simulate, the task space) divides by each joint's
/// articulated inertia: refused (ValueError) on a tree whose mass matrix is singular (a joint
/// moves no mass, e.g. a finger without <inertial>).
inline void require_dynamics(const TreeRobot& r, const char* function) {
  if (!r.has_dynamics()) {
    throw py::value_error(std::string("chaindyn: ") + function + ": the tree's mass matrix is "
                          "singular (robot.has_dynamics is False: a joint moves no mass, e.g. a "
                          "finger without <inertial>); rnea, crba, gravity_torques and the "
                          "kinematics work; load_urdf_tree(..., massless='armature') regularises "
                          "it");
  }
}

/// One batch workspace of a robot of type T (Robot or TreeRobot; batch.cpp).
template <typename T>
struct BatchWorkspace;

/// What the binding keeps beside a Python Robot or TreeRobot: its batch workspaces, one per
/// thread count, made by the first batch call with that count (batch.cpp). Each Python robot
/// owns one (a copy of the robot starts with none); the robot's mutators (gravity,
/// set_payload, clear_payload) drop them, their model casts being stale.
template <typename T>
struct RobotState {
  std::vector<std::shared_ptr<BatchWorkspace<T>>> batch;
};

/// The holder of a Python Robot or TreeRobot: the robot and its RobotState, together for the
/// Python object's life (pybind11's holder: constructed from the robot pointer when the object
/// is made).
template <typename T>
class RobotHolder {
 public:
  RobotHolder() = default;  // pybind11's caster starts from an empty one
  explicit RobotHolder(T* robot) : robot_(robot), state_(std::make_shared<RobotState<T>>()) {}
  T* get() const noexcept { return robot_.get(); }
  RobotState<T>& state() const noexcept { return *state_; }

 private:
  std::shared_ptr<T> robot_;
  std::shared_ptr<RobotState<T>> state_;
};

}  // namespace chaindyn::python

PYBIND11_DECLARE_HOLDER_TYPE(T, chaindyn::python::RobotHolder<T>)

namespace chaindyn::python {

/// The RobotState of a Python Robot (or, T = TreeRobot, TreeRobot) object.
template <typename T = Robot>
RobotState<T>& robot_state(const py::handle& robot) {
  return py::cast<RobotHolder<T>>(robot).state();
}

void bind_model(py::module_& m);
void bind_algorithms(py::module_& m);
void bind_identification(py::module_& m);
void bind_simulation(py::module_& m);
void bind_trajectories(py::module_& m);
void bind_closed_form(py::module_& m);
void bind_batch(py::module_& m);
void bind_trees(py::module_& m);  // trees.cpp: TreeRobot, load_urdf_tree
void bind_floating(py::module_& m);  // floating.cpp: FloatingRobot, load_urdf_floating
void bind_elastic(py::module_& m);  // elastic.cpp: ElasticJoints, friction models

}  // namespace chaindyn::python
