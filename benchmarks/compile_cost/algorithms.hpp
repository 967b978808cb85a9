// The code whose compile time and size benchmarks/compile_cost/run measures: the in-place rnea,
// crba and aba of one chain type, as three out-of-line functions (so that nm can size each).
// iiwa.cpp, unrolled7.cpp and n64_*.cpp each instantiate Algorithms<its chain type> and nothing
// else (controller.cpp, include_only.cpp and eigen_only.cpp are the user-program table's).
#pragma once

#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/algorithms/crba.hpp"
#include "chaindyn/algorithms/rnea.hpp"

namespace chaindyn::compile_cost {

template <typename Model>
struct Algorithms {
  using Vector = typename Model::Vector;

  /// data.tau = M qdd + C qd + g
  static void inverse_dynamics(const Model& model, Data<Model>& data, const Vector& q,
                               const Vector& qd, const Vector& qdd) noexcept {
    rnea(model, data, q, qd, qdd);
  }
  /// data.M, the joint-space inertia matrix
  static void mass_matrix(const Model& model, Data<Model>& data, const Vector& q) noexcept {
    crba(model, data, q);
  }
  /// data.qdd = M^-1 (tau - C qd - g)
  static void forward_dynamics(const Model& model, Data<Model>& data, const Vector& q,
                               const Vector& qd, const Vector& tau) noexcept {
    aba(model, data, q, qd, tau);
  }
};

}  // namespace chaindyn::compile_cost
