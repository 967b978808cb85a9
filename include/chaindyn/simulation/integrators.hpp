/// @file
/// Time integration of second-order systems qdd = f(t, q, qd): semi-implicit (symplectic)
/// Euler, classic Runge-Kutta 4 and the adaptive Dormand-Prince 5(4) pair with dense output
/// (MATLAB's ode45 method). The state is (q, qd); f is any callable `qdd = f(t, q, qd)`.
#pragma once

#include "chaindyn/simulation/dormand_prince.hpp"
#include "chaindyn/simulation/fixed_step.hpp"
#include "chaindyn/simulation/integration_options.hpp"

namespace chaindyn {

namespace detail {

/// Dispatch on the method, after validation of the values (the caller checked the sizes).
template <typename Space, typename Eval, typename Emit>
IntegrationStats integrate_on(const Space& space, Eval& eval, const typename Space::Config& q0,
                              const typename Space::Tangent& qd0,
                              typename Space::Tangent::Scalar t_end,
                              const IntegrationOptions<typename Space::Tangent::Scalar>& options,
                              Emit& emit) {
  validate_integration_values(q0, qd0, t_end, options);
  if (options.integrator == Integrator::rk45) {
    return integrate_rk45(space, eval, q0, qd0, t_end, options, emit);
  }
  return integrate_fixed(space, eval, q0, qd0, t_end, options, emit);
}

/// Dispatch on the method for a vector state (EuclideanSpace), after validation.
template <typename Vector, typename Eval, typename Emit>
IntegrationStats integrate_with(Eval& eval, const Vector& q0, const Vector& qd0,
                                typename Vector::Scalar t_end,
                                const IntegrationOptions<typename Vector::Scalar>& options,
                                Emit& emit) {
  validate_integration(q0, qd0, t_end, options);
  const EuclideanSpace<Vector> space;
  if (options.integrator == Integrator::rk45) {
    return integrate_rk45(space, eval, q0, qd0, t_end, options, emit);
  }
  return integrate_fixed(space, eval, q0, qd0, t_end, options, emit);
}

}  // namespace detail

/// Integrates qdd = acceleration(t, q, qd) from (q0, qd0) at t = 0 to t_end and streams every
/// sample (t = 0, each step or output time, t = t_end) to on_sample(const
/// IntegrationSample<Vector>&), whose qdd is acceleration(t, q, qd) at the sample.
/// Vector is a plain Eigen column vector; with a fixed-size Vector nothing is allocated
/// (acceleration and on_sample permitting). Throws ArgumentError (a std::invalid_argument) on bad input
/// (non-finite q0/qd0, t_end < 0, dt <= 0, rtol or atol <= 0, output_interval not a multiple
/// of dt for a fixed-step method, ...) and IntegrationError (a std::runtime_error) when rk45's step size underflows
/// or max_steps is exceeded.
template <typename Vector, typename Acceleration, typename OnSample>
IntegrationStats integrate(Acceleration&& acceleration, const Vector& q0, const Vector& qd0,
                           typename Vector::Scalar t_end,
                           const IntegrationOptions<typename Vector::Scalar>& options,
                           OnSample&& on_sample) {
  detail::check_vector_type<Vector>();
  IntegrationSample<Vector> sample{typename Vector::Scalar(0), q0, qd0, qd0};
  auto eval = [&](typename Vector::Scalar t, const Vector& q, const Vector& qd, Vector& qdd) {
    qdd = acceleration(t, q, qd);
    detail::check_acceleration_size<Vector>(qdd, q.size(), "integrate");
  };
  auto emit = [&](typename Vector::Scalar t, const Vector& q, const Vector& qd, const Vector& qdd) {
    sample.t = t;
    sample.q = q;
    sample.qd = qd;
    sample.qdd = qdd;
    on_sample(static_cast<const IntegrationSample<Vector>&>(sample));
  };
  return detail::integrate_with(eval, q0, qd0, t_end, options, emit);
}

/// One semi-implicit (symplectic) Euler step from t to t + dt: qd += dt f(t, q, qd), then
/// q += dt qd (the new velocity). Order 1; symplectic for forces that derive from a potential
/// (Hairer, Lubich & Wanner, "Geometric Numerical Integration", sec. VI.3), so the energy error
/// stays bounded instead of drifting.
template <typename Vector, typename Acceleration>
void semi_implicit_euler_step(Acceleration&& acceleration, typename Vector::Scalar t,
                              typename Vector::Scalar dt, Vector& q, Vector& qd) {
  const Vector a = acceleration(t, q, qd);
  detail::check_acceleration_size<Vector>(a, q.size(), "semi_implicit_euler_step");
  detail::semi_implicit_euler_update(dt, a, q, qd);
}

/// One classic Runge-Kutta 4 step from t to t + dt of y' = (qd, f(t, q, qd)). Order 4; four
/// evaluations of f.
template <typename Vector, typename Acceleration>
void rk4_step(Acceleration&& acceleration, typename Vector::Scalar t, typename Vector::Scalar dt,
              Vector& q, Vector& qd) {
  auto eval = [&](typename Vector::Scalar ti, const Vector& qi, const Vector& qdi, Vector& out) {
    out = acceleration(ti, qi, qdi);
    detail::check_acceleration_size<Vector>(out, qi.size(), "rk4_step");
  };
  const Vector a1 = acceleration(t, q, qd);
  detail::check_acceleration_size<Vector>(a1, q.size(), "rk4_step");
  detail::Rk4Work<detail::EuclideanSpace<Vector>> work(q.size(), q.size());
  detail::rk4_update(detail::EuclideanSpace<Vector>(), eval, t, dt, a1, q, qd, work);
}

}  // namespace chaindyn
