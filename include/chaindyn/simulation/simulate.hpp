/// @file
/// simulate(): the motion of a chain or a tree (any model aba takes) under a controller,
/// forward dynamics by aba, integrated by integrate() (semi-implicit Euler, RK4 or adaptive
/// RK45).
#pragma once

#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/simulation/integrators.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

namespace chaindyn {

/// The options of simulate() are those of integrate().
template <typename Scalar>
using SimulationOptions = IntegrationOptions<Scalar>;

/// One sample of a simulation: the time, the state, the joint accelerations aba gave and the
/// controller's torques at that state. Written SimulationSample<Model> (below).
template <typename Vector>
struct SimulationSampleOf {
  using Scalar = typename Vector::Scalar;
  Scalar t;
  Vector q, qd, qdd, tau;
};

/// A whole simulation: one entry per sample in each vector, in time order. Written
/// SimulationResult<Model> (below).
template <typename Vector>
struct SimulationResultOf {
  using Scalar = typename Vector::Scalar;
  std::vector<Scalar> t;
  std::vector<Vector> q, qd, qdd, tau;
  IntegrationStats stats;

  std::size_t size() const noexcept { return t.size(); }
};

/// The sample and result types of a model's simulation. Aliases on Model::Vector, so that
/// SimulationSample<decltype(arm)> is the same type for a const and a non-const arm.
template <typename Model>
using SimulationSample = SimulationSampleOf<typename Model::Vector>;
template <typename Model>
using SimulationResult = SimulationResultOf<typename Model::Vector>;

/// The passive controller: zero joint torques (the chain moves under gravity, its joint
/// friction and damping only).
struct ZeroTorque {
  template <class S, class V>
  V operator()(S, const V& q, const V&) const {
    return V::Zero(q.size());
  }
};

namespace detail {

/// f(t, q, qd) of a chain under a controller: tau = controller(t, q, qd), qdd = aba(q, qd,
/// tau). Keeps the last tau for the sample.
template <typename Model, typename Controller>
struct ControlledDynamics {
  using Scalar = typename Model::Scalar;
  using Vector = typename Model::Vector;
  const Model& model;
  Controller& controller;
  Data<Model>& data;
  Vector tau;  ///< sized to the model's joint count

  void operator()(Scalar t, const Vector& q, const Vector& qd, Vector& qdd) {
    tau = controller(t, q, qd);
    if constexpr (Model::nq == Eigen::Dynamic) {
      if (tau.size() != q.size()) {
        throw_error<ArgumentError>("simulate: the controller returned ", tau.size(),
                                   " torques at t = ", double(t), "; the model has ", q.size(),
                                   " joints");
      }
    }
    // At a finite state, a torque or an acceleration that is not finite is the controller's
    // or the model's fault, not the step size's: name it. (At a non-finite trial
    // state of rk45 the step is rejected and retried instead.)
    const bool finite_state = first_non_finite(q) < 0 && first_non_finite(qd) < 0;
    if (finite_state) {
      const Eigen::Index k = first_non_finite(tau);
      if (k >= 0) {
        throw_error<IntegrationError>("simulate: the controller returned a torque that is not "
                                      "finite at t = ", double(t), ": tau[", k, "] = ",
                                      double(tau[k]), " (the state is finite)");
      }
    }
    aba(model, data, q, qd, tau);
    qdd = data.qdd;
    if (finite_state) {
      const Eigen::Index k = first_non_finite(qdd);
      if (k >= 0) {
        throw_error<IntegrationError>("simulate: aba gave an acceleration that is not finite at "
                                      "t = ", double(t), ": qdd[", k, "] = ", double(qdd[k]),
                                      " with a finite state and torque");
      }
    }
  }
};

}  // namespace detail

/// Simulates the model (a chain or a tree) from (q0, qd0) at t = 0 to t_end under tau = controller(t, q, qd) (any
/// callable returning a Model::Vector; ZeroTorque for passive motion), the forward dynamics by
/// aba with the model's gravity, joint damping, Coulomb friction and armature. Streams every
/// sample (t = 0, each step or each output time, t = t_end; see IntegrationOptions) to
/// on_sample(const SimulationSample<Model>&): qdd is aba's and tau the controller's at that
/// sample's state. Allocates one Data<Model> workspace up front and nothing per step (the
/// controller and on_sample permitting). Throws ArgumentError (a std::invalid_argument) on invalid input (see
/// integrate()) and IntegrationError (a std::runtime_error) when rk45 fails.
template <typename Model, typename Controller, typename OnSample>
IntegrationStats simulate(const Model& model, const typename Model::Vector& q0,
                          const typename Model::Vector& qd0, Controller&& controller,
                          typename Model::Scalar t_end,
                          const SimulationOptions<typename Model::Scalar>& options,
                          OnSample&& on_sample) {
  using Vector = typename Model::Vector;
  using Scalar = typename Model::Scalar;
  detail::check_joint_vector(model, q0, "simulate", "q0");
  detail::check_joint_vector(model, qd0, "simulate", "qd0");
  const auto data = std::make_unique<Data<Model>>(model);
  detail::ControlledDynamics<Model, std::remove_reference_t<Controller>> dynamics{
      model, controller, *data, Vector::Zero(q0.size())};
  SimulationSample<Model> sample{Scalar(0), q0, qd0, qd0, qd0};
  auto emit = [&](Scalar t, const Vector& q, const Vector& qd, const Vector& qdd) {
    // The last evaluation of `dynamics` was at (t, q, qd) (detail::integrate_with's
    // invariant), so dynamics.tau is the controller's torque of this sample.
    sample.t = t;
    sample.q = q;
    sample.qd = qd;
    sample.qdd = qdd;
    sample.tau = dynamics.tau;
    on_sample(static_cast<const SimulationSample<Model>&>(sample));
  };
  return detail::integrate_with(dynamics, q0, qd0, t_end, options, emit);
}

/// Simulates as above and returns every sample (SimulationResult: t, q, qd, qdd, tau and the
/// integration statistics).
template <typename Model, typename Controller>
SimulationResult<Model> simulate(const Model& model, const typename Model::Vector& q0,
                                 const typename Model::Vector& qd0, Controller&& controller,
                                 typename Model::Scalar t_end,
                                 const SimulationOptions<typename Model::Scalar>& options = {}) {
  using Scalar = typename Model::Scalar;
  SimulationResult<Model> out;
  // Reserve for the expected number of samples when it is known (fixed steps or an output
  // interval), capped: the vectors grow as needed beyond.
  using std::isfinite;
  const Scalar period = options.output_interval > Scalar(0) ? options.output_interval
                        : options.integrator != Integrator::rk45 ? options.dt
                                                                  : Scalar(0);
  if (period > Scalar(0) && isfinite(t_end) && t_end >= Scalar(0)) {
    const double expected = double(t_end / period) + 2.0;
    if (expected < 1e6) {
      const auto n = std::size_t(expected);
      out.t.reserve(n);
      for (auto* v : {&out.q, &out.qd, &out.qdd, &out.tau}) v->reserve(n);
    }
  }
  out.stats = simulate(model, q0, qd0, std::forward<Controller>(controller), t_end, options,
                       [&out](const SimulationSample<Model>& s) {
                         out.t.push_back(s.t);
                         out.q.push_back(s.q);
                         out.qd.push_back(s.qd);
                         out.qdd.push_back(s.qdd);
                         out.tau.push_back(s.tau);
                       });
  return out;
}

}  // namespace chaindyn
