/// @file
/// simulate(): the motion of a chain, a tree or a tree on a moving base (any model aba takes)
/// under a controller, forward dynamics by aba, integrated by integrate() (semi-implicit Euler,
/// RK4 or adaptive RK45; on a moving base in their Munthe-Kaas form on the configuration
/// manifold).
#pragma once

#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/algorithms/floating_base.hpp"
#include "chaindyn/simulation/integrators.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>
#include <vector>

namespace chaindyn {

/// The options of simulate() are those of integrate().
template <typename Scalar>
using SimulationOptions = IntegrationOptions<Scalar>;

/// One sample of a simulation: the time, the state, the accelerations aba gave and the
/// controller's torques at that state. Written SimulationSample<Model> (below). Config is the
/// configuration's vector type (q), Tangent that of velocities, accelerations and forces
/// (different on a moving base: nq and nv entries).
template <typename Config, typename Tangent = Config>
struct SimulationSampleOf {
  using Scalar = typename Tangent::Scalar;
  Scalar t;
  Config q;
  Tangent qd, qdd, tau;
};

/// A whole simulation: one entry per sample in each vector, in time order. Written
/// SimulationResult<Model> (below).
template <typename Config, typename Tangent = Config>
struct SimulationResultOf {
  using Scalar = typename Tangent::Scalar;
  std::vector<Scalar> t;
  std::vector<Config> q;
  std::vector<Tangent> qd, qdd, tau;
  IntegrationStats stats;

  std::size_t size() const noexcept { return t.size(); }
};

namespace detail {

/// The state space of a fixed-base model's simulation: q and qd are Model::Vector.
template <typename Model>
struct SimulationTraits {
  using Config = typename Model::Vector;
  using Tangent = typename Model::Vector;
  using Space = EuclideanSpace<Config>;
  static constexpr bool moving_base = false;
  static Space space(const Model&) { return {}; }
  static const Tangent& accelerations(const Data<Model>& data) noexcept { return data.qdd; }
  static Config initial_configuration(const Model&, const Config& q0) { return q0; }
};

/// The configuration manifold of a moving base (q = [base pose; q_tree], nq entries; qd its
/// tangent, nv entries) as a Space of the integrators (integration_options.hpp): the increment
/// theta is a tangent vector at the step's start, q0 (+) theta is integrate(model, q0, theta,
/// 1) (the base joint's exponential map, the quaternion renormalized), theta's rate is
/// dexp^-1 (detail::dexp_inverse_into). The size of q per tangent entry, for rk45's relative
/// tolerance: the distance of the base origin from the world origin (the linear entries), the
/// base's rotation angle from the world axes (a free-flyer's angular entries: 2 atan2(|u|, |w|)
/// of the quaternion) or |yaw| (a planar base), |q_j| (the joints).
template <typename Tree, typename BaseJoint>
struct FloatingSpace {
  using Model = FloatingBase<Tree, BaseJoint>;
  using Scalar = typename Model::Scalar;
  using Config = typename Model::ConfigVector;
  using Tangent = typename Model::TangentVector;
  const Model* model;
  Tangent zero;

  const Tangent& origin(const Config&) const noexcept { return zero; }
  void retract(const Config& q0, const Tangent& theta, Config& out) const {
    integrate_into(*model, q0, theta, Scalar(1), out);
  }
  void rate(const Tangent& theta, const Tangent& qd, Tangent& out) const {
    dexp_inverse_into<BaseJoint>(theta, qd, out);
  }
  const Tangent& scale(const Config& q, Tangent& out) const {
    using std::abs;
    using std::atan2;
    using std::sqrt;
    if constexpr (BaseJoint::nv == 6) {
      const Scalar distance = q.template head<3>().norm();
      const Scalar s = q.template segment<3>(3).norm();
      const Scalar angle = Scalar(2) * atan2(s, abs(q[6]));
      for (int k = 0; k < 3; ++k) {
        out[k] = angle;
        out[3 + k] = distance;
      }
    } else {
      const Scalar distance = q.template head<2>().norm();
      out[0] = out[1] = distance;
      out[2] = abs(q[2]);
    }
    const Eigen::Index n = Eigen::Index(model->joint_count());
    for (Eigen::Index j = 0; j < n; ++j) out[BaseJoint::nv + j] = q[BaseJoint::nq + j];
    return out;
  }
};

template <typename Tree, typename BaseJoint>
struct SimulationTraits<FloatingBase<Tree, BaseJoint>> {
  using Model = FloatingBase<Tree, BaseJoint>;
  using Config = typename Model::ConfigVector;
  using Tangent = typename Model::TangentVector;
  using Space = FloatingSpace<Tree, BaseJoint>;
  static constexpr bool moving_base = true;
  static Space space(const Model& model) { return {&model, Tangent::Zero(model.nv_size())}; }
  static const Tangent& accelerations(const Data<Model>& data) noexcept { return data.a; }
  /// q0 (its size checked) checked for finite entries and a free-flyer's unit quaternion (to
  /// 1e-6), and normalized.
  static Config initial_configuration(const Model&, const Config& q0) {
    const Eigen::Index k = first_non_finite(q0);
    if (k >= 0) {
      throw_error<ArgumentError>("simulate: q0[", k, "] is not finite (", scalar_value(q0[k]), ")");
    }
    Model::Base::check_configuration("simulate", q0);
    Config q = q0;
    Model::Base::normalize(q);
    return q;
  }
};

}  // namespace detail

/// The sample and result types of a model's simulation, so that SimulationSample<decltype(arm)>
/// is the same type for a const and a non-const arm: SimulationSampleOf<Model::Vector> for a
/// chain or a tree, SimulationSampleOf<ConfigVector, TangentVector> on a moving base.
template <typename Model>
using SimulationSample =
    SimulationSampleOf<typename detail::SimulationTraits<std::remove_cv_t<Model>>::Config,
                       typename detail::SimulationTraits<std::remove_cv_t<Model>>::Tangent>;
template <typename Model>
using SimulationResult =
    SimulationResultOf<typename detail::SimulationTraits<std::remove_cv_t<Model>>::Config,
                       typename detail::SimulationTraits<std::remove_cv_t<Model>>::Tangent>;

/// The passive controller: zero joint torques (the chain moves under gravity, its joint
/// friction and damping only).
struct ZeroTorque {
  template <class S, class Q, class V>
  V operator()(S, const Q&, const V& qd) const {
    return V::Zero(qd.size());
  }
};

namespace detail {

/// f(t, q, qd) of a chain under a controller: tau = controller(t, q, qd), qdd = aba(q, qd,
/// tau). Keeps the last tau for the sample.
template <typename Model, typename Controller>
struct ControlledDynamics {
  using Scalar = typename Model::Scalar;
  using Config = typename SimulationTraits<Model>::Config;
  using Tangent = typename SimulationTraits<Model>::Tangent;
  const Model& model;
  Controller& controller;
  Data<Model>& data;
  Tangent tau;  ///< sized to the model's velocity count

  void operator()(Scalar t, const Config& q, const Tangent& qd, Tangent& qdd) {
    tau = controller(t, q, qd);
    if constexpr (Tangent::SizeAtCompileTime == Eigen::Dynamic) {
      if (tau.size() != qd.size()) {
        throw_error<ArgumentError>("simulate: the controller returned ", tau.size(),
                                   " torques at t = ", double(t), "; the model has ", qd.size(),
                                   SimulationTraits<Model>::moving_base ? " velocities (nv)"
                                                                        : " joints");
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
    qdd = SimulationTraits<Model>::accelerations(data);
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

/// Simulates the model from (q0, qd0) at t = 0 to t_end under tau = controller(t, q, qd) (any
/// callable returning the model's velocity vector type; ZeroTorque for passive motion), the
/// forward dynamics by aba with the model's gravity, joint damping, Coulomb friction and
/// armature. The model is a chain or a tree (q, qd, tau: Model::Vector), or a tree on a moving
/// base (FloatingBase, PlanarBaseRobot: q a ConfigVector of nq entries, qd = v, qdd = a and tau
/// TangentVectors of nv; docs/floating_base.md). On a moving base the methods run in their
/// Runge-Kutta-Munthe-Kaas form (each step integrates the increment in the tangent at the
/// step's start, q = q_0 (+) theta; detail::integrate_rk45), rk45's error is measured in that
/// tangent, and q0's quaternion (unit to 1e-6) is normalized first and stays unit to rounding
/// (every step's integrate renormalizes it). Streams every sample (t = 0, each step or each
/// output time, t = t_end; see IntegrationOptions) to on_sample(const SimulationSample<Model>&):
/// qdd is aba's and tau the controller's at that sample's state. Allocates one Data<Model>
/// workspace up front and nothing per step on a compile-time model (the controller and
/// on_sample permitting). Throws ArgumentError (a std::invalid_argument) on invalid input (see
/// integrate()) and IntegrationError (a std::runtime_error) when rk45 fails.
template <typename Model, typename Controller, typename OnSample>
IntegrationStats simulate(const Model& model,
                          const typename detail::SimulationTraits<Model>::Config& q0,
                          const typename detail::SimulationTraits<Model>::Tangent& qd0,
                          Controller&& controller, typename Model::Scalar t_end,
                          const SimulationOptions<typename Model::Scalar>& options,
                          OnSample&& on_sample) {
  using Traits = detail::SimulationTraits<Model>;
  using Config = typename Traits::Config;
  using Tangent = typename Traits::Tangent;
  using Scalar = typename Model::Scalar;
  if constexpr (!Traits::moving_base) {
    detail::check_joint_vector(model, q0, "simulate", "q0");
    detail::check_joint_vector(model, qd0, "simulate", "qd0");
  } else {
    detail::check_floating_vector(model, "simulate", "q0", q0, true);
    detail::check_floating_vector(model, "simulate", "qd0", qd0, false);
  }
  const Config q_start = Traits::initial_configuration(model, q0);
  const auto data = std::make_unique<Data<Model>>(model);
  detail::ControlledDynamics<Model, std::remove_reference_t<Controller>> dynamics{
      model, controller, *data, Tangent::Zero(qd0.size())};
  SimulationSample<Model> sample{Scalar(0), q_start, qd0, qd0, qd0};
  auto emit = [&](Scalar t, const Config& q, const Tangent& qd, const Tangent& qdd) {
    // The last evaluation of `dynamics` was at (t, q, qd) (detail::integrate_with's
    // invariant), so dynamics.tau is the controller's torque of this sample.
    sample.t = t;
    sample.q = q;
    sample.qd = qd;
    sample.qdd = qdd;
    sample.tau = dynamics.tau;
    on_sample(static_cast<const SimulationSample<Model>&>(sample));
  };
  const auto space = Traits::space(model);
  return detail::integrate_on(space, dynamics, q_start, qd0, t_end, options, emit);
}

/// Simulates as above and returns every sample (SimulationResult: t, q, qd, qdd, tau and the
/// integration statistics).
template <typename Model, typename Controller>
SimulationResult<Model> simulate(const Model& model,
                                 const typename detail::SimulationTraits<Model>::Config& q0,
                                 const typename detail::SimulationTraits<Model>::Tangent& qd0,
                                 Controller&& controller,
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
      out.q.reserve(n);
      for (auto* v : {&out.qd, &out.qdd, &out.tau}) v->reserve(n);
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
