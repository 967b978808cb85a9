/// @file
/// simulate_lugre(): the motion of a chain whose joints have LuGre friction
/// (algorithms/friction_models.hpp), the bristle states z integrated with the robot's state by
/// integrate() (semi-implicit Euler, RK4 or adaptive RK45).
#pragma once

#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/algorithms/friction_models.hpp"
#include "chaindyn/simulation/integrators.hpp"

#include <memory>

namespace chaindyn {

/// One sample of simulate_lugre: the state, aba's accelerations, the bristle states z, the
/// friction torques and the controller's torques, all at that sample's state.
template <typename Vector>
struct LuGreSample {
  using Scalar = typename Vector::Scalar;
  Scalar t;
  Vector q, qd, qdd, z, friction, tau;
};

/// Simulates the chain from (q0, qd0, z0) at t = 0 to t_end under tau = controller(t, q, qd),
/// with the joint torque tau - F_LuGre(qd, z) into aba (the model's own damping and Coulomb
/// friction act as well: leave them zero to have LuGre alone). The integrator sees the
/// second-order system in (q; Z) with Z' = z, Z'' = zdot (the bristle states ride as the
/// velocities of auxiliary coordinates). LuGre is stiff at sigma0 / sigma1: use rk45, or a fixed
/// step well below sigma1 / sigma0. Streams each sample to on_sample(const
/// LuGreSample<Model::Vector>&). Allocates its workspace once.
template <typename Model, typename Controller, typename OnSample>
IntegrationStats simulate_lugre(const Model& model, const LuGreJoints<Model>& lugre,
                                const typename Model::Vector& q0, const typename Model::Vector& qd0,
                                const typename Model::Vector& z0, Controller&& controller,
                                typename Model::Scalar t_end,
                                const IntegrationOptions<typename Model::Scalar>& options,
                                OnSample&& on_sample) {
  using Vector = typename Model::Vector;
  using Scalar = typename Model::Scalar;
  using State = Eigen::Matrix<Scalar, Model::nq == Eigen::Dynamic ? Eigen::Dynamic : 2 * Model::nq, 1>;
  const char* f = "simulate_lugre";
  detail::check_joint_vector(model, q0, f, "q0");
  detail::check_joint_vector(model, qd0, f, "qd0");
  detail::check_joint_vector(model, z0, f, "z0");
  const auto n = Eigen::Index(detail::joint_count(model));
  const auto data = std::make_unique<Data<Model>>(model);
  LuGreSample<Vector> sample{Scalar(0), q0, qd0, qd0, z0, z0, z0};
  Vector q(n), qd(n), z(n), tau(Vector::Zero(n)), friction(Vector::Zero(n)), zdot(Vector::Zero(n));
  auto eval = [&](Scalar t, const State& x, const State& xd, State& xdd) {
    q = x.head(n);
    qd = xd.head(n);
    z = xd.tail(n);
    tau = controller(t, q, qd);
    if (tau.size() != n) {
      detail::throw_error<ArgumentError>(f, ": the controller returned ", tau.size(),
                                         " torques; the model has ", n, " joints");
    }
    lugre.torques(qd, z, friction, zdot);
    tau -= friction;
    aba(model, *data, q, qd, tau);
    tau += friction;
    xdd.head(n) = data->qdd;
    xdd.tail(n) = zdot;
  };
  auto emit = [&](Scalar t, const State& x, const State& xd, const State& xdd) {
    sample.t = t;
    sample.q = x.head(n);
    sample.qd = xd.head(n);
    sample.qdd = xdd.head(n);
    sample.z = xd.tail(n);
    sample.friction = friction;
    sample.tau = tau;
    on_sample(static_cast<const LuGreSample<Vector>&>(sample));
  };
  State x0 = State::Zero(2 * n), xd0(2 * n);
  x0.head(n) = q0;
  xd0 << qd0, z0;
  return detail::integrate_with(eval, x0, xd0, t_end, options, emit);
}

}  // namespace chaindyn
