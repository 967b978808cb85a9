/// @file
/// Joint-vector arguments: the one boundary between the vectors users hold (any Eigen
/// expression, often a dynamic-size Eigen::VectorXd from a message, a file or Python) and the
/// fixed-size Model::Vector the algorithms compute with.
///
/// The rule (docs/conventions.md, "Sizes"):
/// - the in-place forms `algo(model, data, q, ...)` of a compile-time chain are noexcept and
///   check nothing at run time, so they accept only vectors whose size is fixed at compile time
///   and equal to Model::nq (a Model::Vector, a fixed-size block or expression). A dynamic-size
///   vector is a compile error with a message that says what to do, not an implicit conversion
///   that reads out of bounds when the size is wrong;
/// - the in-place forms of a runtime-sized chain (ChainX) take its own Vector and check, once
///   per call, that the Data, the vectors, the per-link forces and the frame handles are sized
///   for the model (check_in_place), throwing ArgumentError: they are not noexcept, and still
///   allocate nothing;
/// - the returning forms `algo(model, q, ...)` accept any Eigen vector expression and check its
///   size and that its entries are finite at run time, throwing ArgumentError ("chaindyn: rnea:
///   qd has 6 entries; the model has 7 joints");
/// - joint_vector(model, v) is that check as a conversion, for the in-place forms:
///       const Arm::Vector q = chaindyn::joint_vector(arm, msg_q);   // throws on a bad size
///       rnea(arm, data, q, qd, qdd);
#pragma once

#include "chaindyn/config.hpp"
#include "chaindyn/error.hpp"
#include "chaindyn/model/per_link.hpp"
#include "chaindyn/spatial/kernels.hpp"

#include <Eigen/Core>

#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

/// The message of the compile error when an in-place (noexcept) form is given a vector whose
/// size is not Model::nq at compile time.
#define CHAINDYN_FIXED_SIZE_MESSAGE                                                              \
  "chaindyn: the in-place (noexcept) algorithms take joint vectors of the model's fixed size "   \
  "(Model::Vector, Model::nq entries). A dynamic-size vector (Eigen::VectorXd) is not "          \
  "converted silently: check and convert it once with chaindyn::joint_vector(model, v), which "  \
  "throws chaindyn::ArgumentError on a size mismatch, or call the returning form "               \
  "algo(model, q, ...), which checks sizes at run time."

namespace chaindyn {

namespace detail {

/// Whether an Eigen expression type is a vector with exactly n entries at compile time.
template <typename Derived, int n>
constexpr bool is_fixed_joint_vector =
    Derived::SizeAtCompileTime == n &&
    (Derived::RowsAtCompileTime == 1 || Derived::ColsAtCompileTime == 1);

/// Whether every one of the expression types is a joint vector of Model at compile time. For a
/// runtime-sized model (ChainX, Model::nq == Eigen::Dynamic): whether each is the model's own
/// vector type (read in place, never copied: a copy would allocate); its size is checked by an
/// assertion (check_joint_vector_size).
template <typename Model, typename... Derived>
constexpr bool fixed_joint_vectors =
    Model::nq == Eigen::Dynamic
        ? (std::is_same_v<Derived, typename Model::Vector> && ...)
        : (is_fixed_joint_vector<Derived, Model::nq> && ...);

/// The argument as a Model::Vector: the object itself when it is one (no copy), otherwise the
/// expression evaluated into a Model::Vector (its size is checked before, at compile or run
/// time).
template <typename Model>
inline const typename Model::Vector& as_joint_vector(const typename Model::Vector& v) noexcept {
  return v;
}

/// True for a runtime-sized model (ChainX): its in-place forms check, once per call, that the
/// workspace, the joint vectors, the per-link forces and the frame handles they are given are
/// sized for this model (a Data or a handle made by another ChainX, a VectorXd of another
/// size), and throw ArgumentError, so they are not noexcept. A compile-time chain's sizes are
/// in the types: its in-place forms check nothing and are noexcept.
template <typename Model>
inline constexpr bool checks_sizes = Model::nq == Eigen::Dynamic;

/// ArgumentError unless `v` has the model's joint count of entries.
template <typename Model, typename Derived>
void check_size(const Model& model, const char* function, const char* name,
                const Eigen::MatrixBase<Derived>& v) {
  const auto n = Eigen::Index(joint_count(model));
  if (v.size() != n) {
    throw_error<ArgumentError>(function, ": ", name, " has ", v.size(), " entries; the model has ",
                               n, " joints");
  }
}
/// ArgumentError unless there is one force (or other per-link value) per link.
template <typename Model, typename T>
void check_size(const Model& model, const char* function, const char* name,
                const std::vector<T>& v) {
  if (v.size() != joint_count(model)) {
    throw_error<ArgumentError>(function, ": ", name, " has ", v.size(),
                               " entries (one per link); the model has ", joint_count(model),
                               " links");
  }
}
/// ArgumentError unless the handle was made by a chain of the model's joint count.
template <typename Model, typename Handle,
          typename = decltype(std::declval<const Handle&>().chain_joint_count())>
void check_size(const Model& model, const char* function, const char* name, const Handle& h) {
  if (h.chain_joint_count() != joint_count(model)) {
    throw_error<ArgumentError>(function, ": ", name, " was made by a chain of ",
                               h.chain_joint_count(), " joints; the model has ",
                               joint_count(model));
  }
}

inline void check_named_sizes(const char*) noexcept {}
template <typename Model, typename T, typename... Rest>
void check_named_sizes(const char* function, const Model& model, const char* name, const T& v,
                       const Rest&... rest) {
  check_size(model, function, name, v);
  if constexpr (sizeof...(Rest) > 0) check_named_sizes(function, model, rest...);
}

/// The in-place forms' check of their arguments against a runtime-sized model (checks_sizes):
/// the workspace `work` (a Data or DerivativesData) made for a model of the same joint count,
/// then each (name, argument) pair: a joint vector, a std::vector of one value per link or a
/// frame handle. Throws ArgumentError naming the function and the argument. For a
/// compile-time chain it compiles to nothing.
template <typename Model, typename Work, typename... Named>
inline CHAINDYN_ALWAYS_INLINE void check_in_place(const char* function, const Model& model,
                                                  const Work& work, const Named&... named)
    noexcept(!checks_sizes<Model>) {
  if constexpr (checks_sizes<Model>) {
    if (work.size() != joint_count(model)) {
      throw_error<ArgumentError>(function, ": the workspace was made for a model of ",
                                 work.size(), " joints; the model has ", joint_count(model));
    }
    if constexpr (sizeof...(Named) > 0) check_named_sizes(function, model, named...);
  } else {
    (void)function, (void)model, (void)work, ((void)named, ...);
  }
}

/// ArgumentError unless a matrix argument of a runtime-sized model's in-place form has `rows`
/// rows and `cols` columns (a Jacobian, a regressor).
template <typename Model, typename Derived>
inline CHAINDYN_ALWAYS_INLINE void check_matrix(const char* function, const char* name,
                                                const Eigen::MatrixBase<Derived>& m,
                                                Eigen::Index rows, Eigen::Index cols)
    noexcept(!checks_sizes<Model>) {
  if constexpr (checks_sizes<Model>) {
    if (m.rows() != rows || m.cols() != cols) {
      throw_error<ArgumentError>(function, ": ", name, " is ", m.rows(), " x ", m.cols(), "; ",
                                 rows, " x ", cols, " is expected");
    }
  } else {
    (void)function, (void)name, (void)m, (void)rows, (void)cols;
  }
}

template <typename Model, typename Derived>
inline typename Model::Vector as_joint_vector(const Eigen::MatrixBase<Derived>& v) noexcept {
  return typename Model::Vector(v);
}

/// The run-time check of the returning forms: throws ArgumentError unless `v` is a vector with
/// as many entries as the model has joints, every entry finite (docs/conventions.md's error
/// table; the in-place forms, noexcept, check nothing and propagate a NaN). A vector whose size
/// is fixed at compile time is checked at compile time against a compile-time chain.
template <typename Model, typename Derived>
void check_joint_vector(const Model& model, const Eigen::MatrixBase<Derived>& v,
                        const char* function, const char* name) {
  constexpr int size = Derived::SizeAtCompileTime;
  static_assert(size == Eigen::Dynamic || Model::nq == Eigen::Dynamic || size == Model::nq,
                "chaindyn: a fixed-size vector argument whose size is not the model's joint "
                "count (Model::nq)");
  const auto n = Eigen::Index(joint_count(model));
  if (v.size() != n || (v.rows() != 1 && v.cols() != 1)) {
    if (v.rows() != 1 && v.cols() != 1) {
      throw_error<ArgumentError>(function, ": ", name, " is a ", v.rows(), " x ", v.cols(),
                                 " matrix; a vector of ", n, " entries is expected");
    }
    throw_error<ArgumentError>(function, ": ", name, " has ", v.size(), " entries; the model has ",
                               n, " joints");
  }
  if constexpr (!is_pack<typename Derived::Scalar>::value) {
    for (Eigen::Index i = 0; i < n; ++i) {
      const double x = scalar_value(v.derived().coeff(i));
      if (!std::isfinite(x)) {
        throw_error<ArgumentError>(function, ": ", name, "[", i, "] is not finite (", x, ")");
      }
    }
  }
}

/// check_joint_vector, then as_joint_vector: the argument of a returning form, ready for the
/// in-place form.
template <typename Model, typename Derived>
decltype(auto) checked_joint_vector(const Model& model, const Eigen::MatrixBase<Derived>& v,
                                    const char* function, const char* name) {
  check_joint_vector(model, v, function, name);
  return as_joint_vector<Model>(v.derived());
}

}  // namespace detail

/// `v` as the model's fixed-size joint vector, after checking its size at run time: throws
/// ArgumentError ("chaindyn: joint_vector: v has 6 entries; the model has 7 joints") unless v
/// is a vector of Model::nq entries. The way to hand a dynamic-size vector (Eigen::VectorXd)
/// to the in-place algorithms.
template <typename Model, typename Derived>
typename Model::Vector joint_vector(const Model& model, const Eigen::MatrixBase<Derived>& v) {
  detail::check_joint_vector(model, v, "joint_vector", "v");
  return typename Model::Vector(v);
}

}  // namespace chaindyn
