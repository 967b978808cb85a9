// The shared parts of the Python module's translation units: the robot type (ChainX<double>),
// numpy <-> Eigen conversion with the argument checks, and the four binders.
#pragma once

#include <chaindyn/chaindyn.hpp>

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <sstream>
#include <string>

namespace chaindyn::python {

namespace py = pybind11;

/// The robot of the Python module: a runtime-sized chain (any joint count, revolute or
/// prismatic joints about any axis).
using Robot = ChainX<double>;
using Vec = Eigen::VectorXd;
using Mat = Eigen::MatrixXd;
using VecMap = Eigen::Map<const Vec>;
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// An argument as a float64 C-contiguous array (no copy when it already is one).
inline Array as_array(const py::handle& obj, const char* function, const char* name) {
  Array a = Array::ensure(obj);
  if (!a) {
    PyErr_Clear();
    throw py::type_error(std::string("chaindyn: ") + function + ": " + name +
                         " must be an array of numbers (a numpy array, list or tuple), not " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  }
  return a;
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

/// A pose as a 4x4 homogeneous matrix [R p; 0 0 0 1].
inline Eigen::Matrix4d to_matrix(const Transform<double>& x) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = x.rotation;
  m.topRightCorner<3, 1>() = x.translation;
  return m;
}

/// A 4x4 homogeneous matrix as a pose (the rotation is checked where the pose is used).
inline Transform<double> pose_arg(const py::handle& obj, const char* function, const char* name) {
  const Eigen::Matrix4d m = fixed_arg<4, 4>(obj, function, name);
  return Transform<double>(m.topLeftCorner<3, 3>(), m.topRightCorner<3, 1>());
}

/// A frame of the robot: a name (str) or a link index (int), with an optional offset pose.
inline Robot::FrameType frame_arg(const Robot& robot, const py::handle& frame,
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

/// The key in a Robot's __dict__ of its batch workspaces (batch.cpp).
inline constexpr const char* kBatchWorkspaces = "_batch_workspaces";

/// Drops a robot's batch workspaces (their model casts are stale): the mutators call it.
inline void forget_batch_workspaces(const py::handle& robot) {
  py::dict dict = robot.attr("__dict__");
  if (dict.contains(kBatchWorkspaces)) PyDict_DelItemString(dict.ptr(), kBatchWorkspaces);
}

void bind_model(py::module_& m);
void bind_algorithms(py::module_& m);
void bind_extras(py::module_& m);
void bind_batch(py::module_& m);

}  // namespace chaindyn::python
