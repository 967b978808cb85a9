/// @file
/// simulate_elastic(): the motion of a chain with elastic joints (Spong's reduced model,
/// algorithms/elastic_joints.hpp) under a motor-torque controller, integrated by integrate()
/// (semi-implicit Euler, RK4 or adaptive RK45) on the stacked coordinates (q, theta).
#pragma once

#include "chaindyn/algorithms/elastic_joints.hpp"
#include "chaindyn/simulation/integrators.hpp"

#include <memory>
#include <vector>

namespace chaindyn {

/// One sample of an elastic-joint simulation: the time, the link and motor states, the
/// accelerations elastic_forward_dynamics gave and the controller's motor torque, all at that
/// sample's state.
template <typename Vector>
struct ElasticSample {
  using Scalar = typename Vector::Scalar;
  Scalar t;
  Vector q, qd, qdd, theta, thetad, thetadd, tau_m;
};

/// A whole elastic-joint simulation: one entry per sample in each vector, in time order.
template <typename Vector>
struct ElasticResult {
  using Scalar = typename Vector::Scalar;
  std::vector<Scalar> t;
  std::vector<Vector> q, qd, qdd, theta, thetad, thetadd, tau_m;
  IntegrationStats stats;

  std::size_t size() const noexcept { return t.size(); }
};

/// The stacked coordinate vector (q; theta) of an elastic-joint model: 2 nq entries.
template <typename Model>
using ElasticStateVector =
    Eigen::Matrix<typename Model::Scalar, Model::nq == Eigen::Dynamic ? Eigen::Dynamic : 2 * Model::nq, 1>;

/// Simulates the elastic-joint model from (q0, qd0, theta0, thetad0) at t = 0 to t_end under
/// tau_m = controller(t, q, qd, theta, thetad) (any callable returning a Model::Vector: the
/// motor torques), forward dynamics by elastic_forward_dynamics. A rigid joint's theta0 and
/// thetad0 are taken as its q0 and qd0. The integrator sees the
/// second-order system in (q; theta). Streams every sample (as simulate(): t = 0, each step or
/// output time, t = t_end) to on_sample(const ElasticSample<Model::Vector>&). Allocates its
/// workspace once, nothing per step (the controller and on_sample permitting). Throws
/// ArgumentError on invalid input, IntegrationError when rk45 fails or the controller returns a
/// non-finite torque.
template <typename Model, typename Controller, typename OnSample>
IntegrationStats simulate_elastic(const Model& model, const ElasticJoints<Model>& elastic,
                                  const typename Model::Vector& q0,
                                  const typename Model::Vector& qd0,
                                  const typename Model::Vector& theta0,
                                  const typename Model::Vector& thetad0, Controller&& controller,
                                  typename Model::Scalar t_end,
                                  const IntegrationOptions<typename Model::Scalar>& options,
                                  OnSample&& on_sample) {
  using Vector = typename Model::Vector;
  using Scalar = typename Model::Scalar;
  using State = ElasticStateVector<Model>;
  const char* f = "simulate_elastic";
  detail::check_joint_vector(model, q0, f, "q0");
  detail::check_joint_vector(model, qd0, f, "qd0");
  detail::check_joint_vector(model, theta0, f, "theta0");
  detail::check_joint_vector(model, thetad0, f, "thetad0");
  const auto n = Eigen::Index(detail::joint_count(model));
  if (elastic.stiffness.size() != n) {
    detail::throw_error<ArgumentError>(f, ": the elastic parameters have ",
                                       elastic.stiffness.size(), " joints; the model has ", n);
  }
  const auto data = std::make_unique<ElasticData<Model>>(model);
  ElasticSample<Vector> sample{Scalar(0), q0, qd0, qd0, theta0, thetad0, thetad0, thetad0};
  Vector q(n), qd(n), theta(n), thetad(n), tau(Vector::Zero(n));
  auto eval = [&](Scalar t, const State& x, const State& xd, State& xdd) {
    q = x.head(n);
    theta = x.tail(n);
    qd = xd.head(n);
    thetad = xd.tail(n);
    tau = controller(t, q, qd, theta, thetad);
    if constexpr (Model::nq == Eigen::Dynamic) {
      if (tau.size() != n) {
        detail::throw_error<ArgumentError>(f, ": the controller returned ", tau.size(),
                                           " torques; the model has ", n, " joints");
      }
    }
    const Eigen::Index bad = detail::first_non_finite(tau);
    if (bad >= 0 && detail::first_non_finite(x) < 0 && detail::first_non_finite(xd) < 0) {
      detail::throw_error<IntegrationError>(f, ": the controller returned a torque that is not "
                                            "finite at t = ", double(t), ": tau_m[", bad, "] = ",
                                            double(tau[bad]));
    }
    elastic_forward_dynamics(model, elastic, *data, q, qd, theta, thetad, tau);
    xdd.head(n) = data->qdd;
    xdd.tail(n) = data->thetadd;
  };
  auto emit = [&](Scalar t, const State& x, const State& xd, const State& xdd) {
    // the last evaluation was at this sample (detail::integrate_with's invariant)
    sample.t = t;
    sample.q = x.head(n);
    sample.theta = x.tail(n);
    sample.qd = xd.head(n);
    sample.thetad = xd.tail(n);
    sample.qdd = xdd.head(n);
    sample.thetadd = xdd.tail(n);
    sample.tau_m = tau;
    on_sample(static_cast<const ElasticSample<Vector>&>(sample));
  };
  State x0(2 * n), xd0(2 * n);
  x0 << q0, theta0;
  xd0 << qd0, thetad0;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (elastic.rigid(i)) {  // a rigid joint's motor moves with its link
      x0[n + i] = q0[i];
      xd0[n + i] = qd0[i];
    }
  }
  return detail::integrate_with(eval, x0, xd0, t_end, options, emit);
}

/// Simulates as above and returns every sample.
template <typename Model, typename Controller>
ElasticResult<typename Model::Vector> simulate_elastic(
    const Model& model, const ElasticJoints<Model>& elastic, const typename Model::Vector& q0,
    const typename Model::Vector& qd0, const typename Model::Vector& theta0,
    const typename Model::Vector& thetad0, Controller&& controller, typename Model::Scalar t_end,
    const IntegrationOptions<typename Model::Scalar>& options = {}) {
  using Vector = typename Model::Vector;
  ElasticResult<Vector> out;
  out.stats = simulate_elastic(model, elastic, q0, qd0, theta0, thetad0,
                               std::forward<Controller>(controller), t_end, options,
                               [&out](const ElasticSample<Vector>& s) {
                                 out.t.push_back(s.t);
                                 out.q.push_back(s.q);
                                 out.qd.push_back(s.qd);
                                 out.qdd.push_back(s.qdd);
                                 out.theta.push_back(s.theta);
                                 out.thetad.push_back(s.thetad);
                                 out.thetadd.push_back(s.thetadd);
                                 out.tau_m.push_back(s.tau_m);
                               });
  return out;
}

/// The passive motor: zero motor torques.
struct ZeroMotorTorque {
  template <class S, class V>
  V operator()(S, const V& q, const V&, const V&, const V&) const {
    return V::Zero(q.size());
  }
};

}  // namespace chaindyn
