/// @file
/// Elastic joints: Spong's reduced model of a manipulator whose joints are driven through
/// springs (harmonic drives, series-elastic actuators), its forward dynamics in O(n) with aba
/// for the link side, and its inverse dynamics by flatness.
///
/// M. W. Spong, "Modeling and control of elastic joint robots", J. Dyn. Syst. Meas. Control
/// 109 (1987) 310-319, eqs. (6)-(7) with a spring damping D added as in A. De Luca and W. Book,
/// "Robots with flexible elements", Springer Handbook of Robotics (2016), sec. 11.1.2:
///
///     M(q) qdd + C(q, qd) qd + g(q) + f(qd) = K (theta - q) + D (thetad - qd)        (link)
///     B thetadd + K (theta - q) + D (thetad - qd) = tau_m                            (motor)
///
/// q: the link coordinates of the model; theta: the motor coordinates reflected through the gear
/// ratio (theta = q when the spring is at rest); K, D, B: diagonal stiffness, spring damping and
/// rotor inertia (reflected: gear ratio squared times the rotor's). The "reduced" model neglects
/// the rotors' gyroscopic coupling to the links (Spong's assumption 2). f(qd) is the model's
/// own joint friction and armature, which act on the link side here.
///
/// Inverse dynamics by flatness (Spong 1987, sec. 4; De Luca, "Feedforward/feedback laws for the
/// control of flexible robots", ICRA 2000): with D = 0 the link trajectory determines every
/// other quantity, tau_L(t) = rnea(q, qd, qdd) being the spring torque,
///
///     theta = q + K^-1 tau_L,   thetad = qd + K^-1 d/dt tau_L,   thetadd = qdd + K^-1 d2/dt2 tau_L,
///     tau_m = B thetadd + tau_L,
///
/// which needs the first two time derivatives of rnea along the trajectory, hence the link jerk
/// and snap. With D > 0 a joint's deflection e = theta - q obeys K e + D edot = tau_L, a stable
/// first-order filter: the motor torque then depends on the deflection's state as well, which
/// the caller passes (elastic_inverse_dynamics with `deflection`): the reference's deflection,
/// integrated along the reference, not the robot's measured one (fed back, that loop is unstable
/// for large K / D: its gain is B (K / D)^2 against K).
///
/// The time derivatives of rnea (link_torque_derivatives) are exact, not finite differences:
/// Newton-Euler in base coordinates, differentiated in time. Every quantity fixed in link i
/// changes as a vector moving with velocity v_i (RBDA ch. 2): d/dt oS_i = v_i x oS_i and
/// d/dt oI_i = v_i x* oI_i - oI_i v_i x; with h_i = oI_i v_i the momentum, the force on link i is
/// f_i = d/dt h_i + oI_i a_0 (a_0 = -gravity), and Leibniz's rule gives the k-th derivatives of
/// v_i = v_p + oS_i qd_i, of oI_i and of h_i from lower ones. The backward pass sums the forces
/// in one frame, tau_i = oS_i^T F_i, with no transform to differentiate.
#pragma once

#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/algorithms/coriolis.hpp"
#include "chaindyn/algorithms/energy.hpp"
#include "chaindyn/algorithms/friction.hpp"
#include "chaindyn/model/data.hpp"
#include "chaindyn/model/elastic_joints.hpp"

#include <array>
#include <cmath>
#include <limits>

namespace chaindyn {

/// The workspace of the elastic-joint algorithms: the link side's Data and the results, sized
/// once (ElasticData<ChainX<double>> data(model)), so that the in-place forms allocate nothing.
template <typename Model>
struct ElasticData {
  using Scalar = typename Model::Scalar;
  using Vector = typename Model::Vector;
  Data<Model> link;     ///< the link side's workspace (aba, rnea)
  Vector spring;        ///< K (theta - q) + D (thetad - qd) (elastic_forward_dynamics)
  Vector qdd;           ///< link accelerations (elastic_forward_dynamics)
  Vector thetadd;       ///< motor accelerations (both algorithms)
  Vector tau_link;      ///< rnea(q, qd, qdd) and its two time derivatives
  Vector tau_link_d;    ///< (link_torque_derivatives, elastic_inverse_dynamics)
  Vector tau_link_dd;
  Vector theta;         ///< motor position, velocity (elastic_inverse_dynamics)
  Vector thetad;
  Vector tau_m;         ///< motor torque (elastic_inverse_dynamics)
  /// Per link, in base coordinates: oS_i and its first three time derivatives, the velocity
  /// and its first three derivatives, and the force F_i on the subtree and two derivatives.
  PerLinkArray<std::array<Motion<Scalar>, 4>, Model::nq> dS, dV;
  PerLinkArray<std::array<Force<Scalar>, 3>, Model::nq> dF;

  explicit ElasticData(const Model& model) : link(model) {
    const auto n = Eigen::Index(detail::joint_count(model));
    for (Vector* v : {&spring, &qdd, &thetadd, &tau_link, &tau_link_d, &tau_link_dd, &theta,
                      &thetad, &tau_m}) {
      *v = Vector::Zero(n);
    }
    detail::resize_per_link(dS, std::size_t(n));
    detail::resize_per_link(dV, std::size_t(n));
    detail::resize_per_link(dF, std::size_t(n));
  }
};

namespace detail {

template <typename Scalar>
Force<Scalar> as_force(const Eigen::Matrix<Scalar, 6, 1>& x) noexcept {
  return Force<Scalar>(x.template head<3>(), x.template tail<3>());
}

/// tau_L = rnea(q, qd, qdd) and its first two time derivatives along a trajectory with jerk
/// qddd and snap qdddd (see the file comment), into w.tau_link, tau_link_d, tau_link_dd.
template <typename Model>
void link_torque_derivatives_pass(const Model& model, ElasticData<Model>& w,
                                  const typename Model::Vector& q, const typename Model::Vector& qd,
                                  const typename Model::Vector& qdd,
                                  const typename Model::Vector& qddd,
                                  const typename Model::Vector& qdddd) noexcept {
  using Scalar = typename Model::Scalar;
  using Mat6 = Eigen::Matrix<Scalar, 6, 6>;
  using Vec6 = Eigen::Matrix<Scalar, 6, 1>;
  DataFor<Model>& data = w.link;
  world_kinematics(model, data, q);
  const Vec6 a0 = model.base_acceleration().vector();
  // q^(k+1), k = 0..3: the derivatives of qd
  const typename Model::Vector* dq[4] = {&qd, &qdd, &qddd, &qdddd};
  model.indices_forward([&](const std::size_t i) {
    const auto k = Eigen::Index(i);
    auto& S = w.dS[i];
    auto& V = w.dV[i];
    const bool root = model.is_root(i);
    S[0] = data.oS[i];
    // V_m = V_m,parent + sum_j C(m, j) S^(j) q^(m-j+1);  S^(m+1) = sum_j C(m, j) V_j x S^(m-j)
    // (Leibniz's rule on v_i = v_p + S_i qd_i and d/dt S_i = v_i x S_i; the true velocity and
    // its derivatives, gravity enters the forces below)
    static constexpr int binomial[4][4] = {{1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}};
    for (int m = 0; m < 4; ++m) {
      Motion<Scalar> v = root ? Motion<Scalar>() : w.dV[model.parent(i)][std::size_t(m)];
      for (int j = 0; j <= m; ++j) {
        v += S[std::size_t(j)] * (Scalar(binomial[m][j]) * (*dq[m - j])[k]);
      }
      V[std::size_t(m)] = v;
      if (m < 3) {
        Motion<Scalar> s;
        for (int j = 0; j <= m; ++j) {
          s += Scalar(binomial[m][j]) * cross(V[std::size_t(j)], S[std::size_t(m - j)]);
        }
        S[std::size_t(m + 1)] = s;
      }
    }
    // I^(m+1) = sum_j C(m, j) (V_j x* I^(m-j) - I^(m-j) V_j x), with V_j x* = -(V_j x)^T: each
    // term is -(B + B^T) with B = I^(m-j) (V_j x), I^(m-j) being symmetric. I^(3) only acts on
    // V_0 (the forces below): applied to that vector, never formed.
    std::array<Mat6, 3> I;
    I[0] = model.inertia_in(i, data.oMi[i]).matrix();
    std::array<Mat6, 3> X;
    for (int j = 0; j < 3; ++j) X[std::size_t(j)] = motion_cross_matrix(V[std::size_t(j)]);
    for (int m = 0; m < 2; ++m) {
      Mat6 r = Mat6::Zero();
      for (int j = 0; j <= m; ++j) {
        Mat6 b;
        b.noalias() = I[std::size_t(m - j)] * X[std::size_t(j)];
        r -= Scalar(binomial[m][j]) * (b + b.transpose());
      }
      I[std::size_t(m + 1)] = r;
    }
    // I^(k) V_0, k = 0..3
    const Vec6 v0 = V[0].vector();
    std::array<Vec6, 4> iv0;
    iv0[3].setZero();
    for (int k = 0; k < 3; ++k) iv0[std::size_t(k)] = I[std::size_t(k)] * v0;
    for (int j = 0; j <= 2; ++j) {
      const Mat6& x = X[std::size_t(j)];
      const Vec6 xv = x * v0;
      iv0[3].noalias() -= Scalar(binomial[2][j]) *
                          (x.transpose() * iv0[std::size_t(2 - j)] + I[std::size_t(2 - j)] * xv);
    }
    // f^(k) = h^(k+1) + I^(k) a0,  h^(k) = sum_j C(k, j) I^(j) V_(k-j)
    for (int kk = 0; kk < 3; ++kk) {
      const int order = kk + 1;
      Vec6 f = I[std::size_t(kk)] * a0;
      for (int j = 0; j < order; ++j) {
        f.noalias() += Scalar(binomial[order][j]) * (I[std::size_t(j)] * V[std::size_t(order - j)].vector());
      }
      f += iv0[std::size_t(order)];  // j = order: C = 1
      w.dF[i][std::size_t(kk)] = as_force<Scalar>(f);
    }
  });
  // Backward: F_i^(k) += F_child^(k);  tau_i^(k) = sum_j C(k, j) S^(j)^T F^(k-j)
  model.indices_backward([&](const std::size_t i) {
    const auto k = Eigen::Index(i);
    const auto& S = w.dS[i];
    const auto& F = w.dF[i];
    const Scalar t0 = dot(S[0], F[0]);
    const Scalar t1 = dot(S[1], F[0]) + dot(S[0], F[1]);
    const Scalar t2 = dot(S[2], F[0]) + Scalar(2) * dot(S[1], F[1]) + dot(S[0], F[2]);
    // the model's joint friction and armature: damping qd + friction sign(qd) + armature qdd
    // (the Coulomb term's derivatives are taken as zero: sign(qd) is constant while qd != 0)
    const Scalar d = model.damping()[k], b = model.armature()[k];
    w.tau_link[k] = t0 + joint_friction(model, i, qd[k]) + b * qdd[k];
    w.tau_link_d[k] = t1 + d * qdd[k] + b * qddd[k];
    w.tau_link_dd[k] = t2 + d * qddd[k] + b * qdddd[k];
    if (!model.is_root(i)) {
      auto& Fp = w.dF[model.parent(i)];
      for (std::size_t m = 0; m < 3; ++m) Fp[m] += F[m];
    }
  });
}

template <typename Model>
void check_elastic(const char* function, const Model& model, const ElasticJoints<Model>& elastic,
                   const ElasticData<Model>& w) {
  if constexpr (checks_sizes<Model>) {
    const auto n = Eigen::Index(joint_count(model));
    if (elastic.stiffness.size() != n || w.qdd.size() != n) {
      throw_error<ArgumentError>(function, ": the elastic parameters or the ElasticData were "
                                 "made for another model (", elastic.stiffness.size(), ", ",
                                 w.qdd.size(), " joints; the model has ", n, ")");
    }
  } else {
    (void)function, (void)model, (void)elastic, (void)w;
  }
}

}  // namespace detail

/// Forward dynamics of the elastic-joint model (file comment): the spring torque
/// sigma = K (theta - q) + D (thetad - qd) drives the links, qdd = aba(q, qd, sigma) (with the
/// model's gravity, joint friction and armature), and the motors, thetadd = B^-1 (tau_m - sigma).
/// A rigid joint (K = +inf) takes its motor torque, sigma_i = tau_m_i, and its motor moves with
/// the link, thetadd_i = qdd_i. O(n). Fills data.spring, data.qdd, data.thetadd.
/// Allocation-free; noexcept on a compile-time chain (a ChainX's sizes are checked:
/// ArgumentError).
template <typename Model>
void elastic_forward_dynamics(const Model& model, const ElasticJoints<Model>& elastic,
                              ElasticData<Model>& data, const typename Model::Vector& q,
                              const typename Model::Vector& qd,
                              const typename Model::Vector& theta,
                              const typename Model::Vector& thetad,
                              const typename Model::Vector& tau_m)
    noexcept(!detail::checks_sizes<Model>) {
  detail::check_elastic("elastic_forward_dynamics", model, elastic, data);
  const Eigen::Index n = q.size();
  for (Eigen::Index i = 0; i < n; ++i) {
    data.spring[i] = elastic.rigid(i) ? tau_m[i]
                                      : elastic.stiffness[i] * (theta[i] - q[i]) +
                                            elastic.damping[i] * (thetad[i] - qd[i]);
  }
  aba(model, data.link, q, qd, data.spring);
  data.qdd = data.link.qdd;
  for (Eigen::Index i = 0; i < n; ++i) {
    data.thetadd[i] = elastic.rigid(i)
                          ? data.qdd[i]
                          : (tau_m[i] - data.spring[i]) / elastic.rotor_inertia[i];
  }
}

/// tau_L = rnea(q, qd, qdd) (the model's joint friction and armature included) and its first
/// two time derivatives along a link trajectory with jerk qddd and snap qdddd, exact (file
/// comment), into data.tau_link, tau_link_d, tau_link_dd. O(n); allocation-free; noexcept on
/// a compile-time chain.
template <typename Model>
void link_torque_derivatives(const Model& model, ElasticData<Model>& data,
                             const typename Model::Vector& q, const typename Model::Vector& qd,
                             const typename Model::Vector& qdd, const typename Model::Vector& qddd,
                             const typename Model::Vector& qdddd)
    noexcept(!detail::checks_sizes<Model>) {
  if constexpr (detail::checks_sizes<Model>) {
    detail::check_in_place("link_torque_derivatives", model, data.link, "q", q, "qd", qd, "qdd",
                           qdd, "qddd", qddd, "qdddd", qdddd);
  }
  detail::link_torque_derivatives_pass(model, data, q, qd, qdd, qddd, qdddd);
}

/// Inverse dynamics of the elastic-joint model by flatness (Spong 1987, sec. 4; file comment):
/// the motor torque that makes the links follow a trajectory with position q, velocity qd,
/// acceleration qdd, jerk qddd and snap qdddd (4 times differentiable), and the motor motion it
/// takes. Fills data.tau_m, data.theta, data.thetad, data.thetadd (and data.tau_link with its
/// derivatives). Exact for every joint with D = 0. A joint with D > 0 needs its deflection
/// e = theta - q (`deflection`, the state of K e + D edot = tau_L): its data.theta is q + e,
/// data.thetad = qd + edot with edot = D^-1 (tau_L - K e), thetadd = qdd + D^-1 (d/dt tau_L -
/// K edot). A rigid joint (K = +inf): theta = q and tau_m = tau_L. O(n); allocation-free;
/// noexcept on a compile-time chain.
template <typename Model>
void elastic_inverse_dynamics(const Model& model, const ElasticJoints<Model>& elastic,
                              ElasticData<Model>& data, const typename Model::Vector& q,
                              const typename Model::Vector& qd, const typename Model::Vector& qdd,
                              const typename Model::Vector& qddd,
                              const typename Model::Vector& qdddd,
                              const typename Model::Vector& deflection)
    noexcept(!detail::checks_sizes<Model>) {
  using Scalar = typename Model::Scalar;
  detail::check_elastic("elastic_inverse_dynamics", model, elastic, data);
  link_torque_derivatives(model, data, q, qd, qdd, qddd, qdddd);
  const Eigen::Index n = q.size();
  for (Eigen::Index i = 0; i < n; ++i) {
    const Scalar k = elastic.stiffness[i], d = elastic.damping[i];
    if (elastic.rigid(i)) {
      data.theta[i] = q[i];
      data.thetad[i] = qd[i];
      data.thetadd[i] = qdd[i];
      data.tau_m[i] = data.tau_link[i];
      continue;
    }
    Scalar e, ed, edd;
    if (d == Scalar(0)) {
      // K e = tau_L and its two derivatives                         (Spong 1987, eq. (29))
      e = data.tau_link[i] / k;
      ed = data.tau_link_d[i] / k;
      edd = data.tau_link_dd[i] / k;
    } else {
      // K e + D edot = tau_L and its derivative
      e = deflection[i];
      ed = (data.tau_link[i] - k * e) / d;
      edd = (data.tau_link_d[i] - k * ed) / d;
    }
    data.theta[i] = q[i] + e;
    data.thetad[i] = qd[i] + ed;
    data.thetadd[i] = qdd[i] + edd;
    // B thetadd + K e + D edot = tau_m, and K e + D edot = tau_L
    data.tau_m[i] = elastic.rotor_inertia[i] * data.thetadd[i] + data.tau_link[i];
  }
}

/// The result of the returning elastic_inverse_dynamics: the motor torque and the motor motion.
template <typename Vector>
struct ElasticInverse {
  Vector tau_m, theta, thetad, thetadd;
};

/// Returning form of elastic_inverse_dynamics: any Eigen vectors, sizes checked (ArgumentError).
/// Without `deflection` every joint must have D = 0 (ArgumentError otherwise: with spring
/// damping the link trajectory does not determine the deflection).
template <typename Model, typename Q, typename Qd, typename Qdd, typename Qddd, typename Qdddd>
ElasticInverse<typename Model::Vector> elastic_inverse_dynamics(
    const Model& model, const ElasticJoints<Model>& elastic, const Eigen::MatrixBase<Q>& q,
    const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Qdd>& qdd,
    const Eigen::MatrixBase<Qddd>& qddd, const Eigen::MatrixBase<Qdddd>& qdddd) {
  using Vector = typename Model::Vector;
  const char* f = "elastic_inverse_dynamics";
  for (Eigen::Index i = 0; i < elastic.damping.size(); ++i) {
    if (elastic.damping[i] != typename Model::Scalar(0)) {
      detail::throw_error<ArgumentError>(f, ": joint ", i, " has spring damping D = ",
                                         double(elastic.damping[i]),
                                         "; pass its deflection theta - q");
    }
  }
  const Vector qv = detail::checked_joint_vector(model, q, f, "q");
  return elastic_inverse_dynamics(model, elastic, qv, qd, qdd, qddd, qdddd, qv);
}

/// Returning form with the deflection e = theta - q of the joints with D > 0.
template <typename Model, typename Q, typename Qd, typename Qdd, typename Qddd, typename Qdddd,
          typename E>
ElasticInverse<typename Model::Vector> elastic_inverse_dynamics(
    const Model& model, const ElasticJoints<Model>& elastic, const Eigen::MatrixBase<Q>& q,
    const Eigen::MatrixBase<Qd>& qd, const Eigen::MatrixBase<Qdd>& qdd,
    const Eigen::MatrixBase<Qddd>& qddd, const Eigen::MatrixBase<Qdddd>& qdddd,
    const Eigen::MatrixBase<E>& deflection) {
  using Vector = typename Model::Vector;
  const char* f = "elastic_inverse_dynamics";
  if (elastic.stiffness.size() != Eigen::Index(detail::joint_count(model))) {
    detail::throw_error<ArgumentError>(f, ": the elastic parameters were made for another model");
  }
  ElasticData<Model> data(model);
  elastic_inverse_dynamics(model, elastic, data, Vector(detail::checked_joint_vector(model, q, f, "q")),
                           Vector(detail::checked_joint_vector(model, qd, f, "qd")),
                           Vector(detail::checked_joint_vector(model, qdd, f, "qdd")),
                           Vector(detail::checked_joint_vector(model, qddd, f, "qddd")),
                           Vector(detail::checked_joint_vector(model, qdddd, f, "qdddd")),
                           Vector(detail::checked_joint_vector(model, deflection, f, "deflection")));
  return {data.tau_m, data.theta, data.thetad, data.thetadd};
}

/// The total energy of the elastic-joint model: the links' kinetic and potential energy, the
/// rotors' kinetic energy 1/2 thetad^T B thetad and the springs' 1/2 (theta - q)^T K (theta - q)
/// (Spong 1987, eqs. (3)-(5)); a rigid joint has neither (its rotor is the model's armature,
/// in the links' kinetic energy). Without friction, damping and motor torque it is constant; in
/// general d/dt E = tau_m^T thetad - (thetad - qd)^T D (thetad - qd) - qd^T f(qd).
template <typename Model>
typename Model::Scalar elastic_energy(const Model& model, const ElasticJoints<Model>& elastic,
                                      ElasticData<Model>& data, const typename Model::Vector& q,
                                      const typename Model::Vector& qd,
                                      const typename Model::Vector& theta,
                                      const typename Model::Vector& thetad) {
  using Scalar = typename Model::Scalar;
  Scalar motors(0);
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    if (elastic.rigid(i)) continue;
    const Scalar e = theta[i] - q[i];
    motors += elastic.rotor_inertia[i] * thetad[i] * thetad[i] + elastic.stiffness[i] * e * e;
  }
  return kinetic_energy(model, data.link, q, qd) + potential_energy(model, data.link, q) +
         Scalar(0.5) * motors;
}

}  // namespace chaindyn
