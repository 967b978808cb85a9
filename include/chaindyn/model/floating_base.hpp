/// @file
/// A base that moves: FloatingBase<Tree, BaseJoint>, a base body that carries a fixed-base model
/// (a Chain, ChainX, Tree or TreeX) as its tree and moves relative to the world through its base
/// joint: FreeFlyer (the default: 6 degrees of freedom) or PlanarBase (x, y, yaw: a wheeled
/// base on level ground; PlanarBaseRobot<Tree>); the operations of their configuration spaces
/// (integrate, difference, normalize, random configurations). docs/floating_base.md.
///
/// Conventions (docs/floating_base.md):
/// - q = [q_base; q_tree]: FreeFlyer [p; quaternion (x, y, z, w)] (nq = 7 + n), p the base
///   origin in the world frame, the unit quaternion the base orientation (Eigen's coefficient
///   order); PlanarBase [x; y; yaw] (nq = 3 + n), the base origin in the world's x-y plane and
///   the base's turn about the world's z axis;
/// - v = [v_base; qd_tree]: the base body's velocity in its own coordinates about its origin:
///   FreeFlyer [omega; v_O] (nv = 6 + n, [angular; linear] like every Motion,
///   docs/conventions.md), PlanarBase [v_x; v_y; omega_z] (nv = 3 + n); accelerations likewise
///   (the time derivatives of v's base part) and forces ([the wrench on the base, or its x, y
///   force and z moment for PlanarBase, in base coordinates about its origin; tau]);
/// - a base joint's motion subspace S (6 x nv of the base) is constant in base coordinates:
///   the base body's spatial velocity is S v_base, its acceleration S vdot_base;
/// - the tree's base frame is the base body's frame; the tree's gravity is the world's.
#pragma once

#include "chaindyn/model/data.hpp"
#include "chaindyn/model/link.hpp"
#include "chaindyn/model/root_motion.hpp"
#include "chaindyn/model/scalar_cast.hpp"

#include <Eigen/Cholesky>

#include <cmath>
#include <random>
#include <type_traits>

namespace chaindyn {

namespace detail {

/// Rodrigues-type coefficients of a rotation vector phi, |phi| = theta, with their series near
/// 0 (the closed forms lose digits there): a = sin(theta) / theta, b = (1 - cos(theta)) /
/// theta^2, c = (theta - sin(theta)) / theta^3.
template <typename Scalar>
void so3_coefficients(const Scalar& theta2, Scalar& a, Scalar& b, Scalar& c) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  if (theta2 < Scalar(1e-8)) {
    a = Scalar(1) - theta2 / Scalar(6);
    b = Scalar(0.5) - theta2 / Scalar(24);
    c = Scalar(1) / Scalar(6) - theta2 / Scalar(120);
  } else {
    const Scalar theta = sqrt(theta2);
    const Scalar s = sin(theta), co = cos(theta);
    a = s / theta;
    b = (Scalar(1) - co) / theta2;
    c = (theta - s) / (theta2 * theta);
  }
}

/// The unit quaternion (x, y, z, w) of the rotation by the rotation vector phi (exp).
template <typename Scalar>
Eigen::Matrix<Scalar, 4, 1> quaternion_exp(const Vector3<Scalar>& phi) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  const Scalar theta2 = phi.squaredNorm();
  Scalar s, w;
  if (theta2 < Scalar(1e-8)) {
    s = Scalar(0.5) - theta2 / Scalar(48);  // sin(theta / 2) / theta
    w = Scalar(1) - theta2 / Scalar(8);
  } else {
    const Scalar theta = sqrt(theta2);
    s = sin(theta / 2) / theta;
    w = cos(theta / 2);
  }
  Eigen::Matrix<Scalar, 4, 1> out;
  out << s * phi, w;
  return out;
}

/// The rotation vector of a unit quaternion (x, y, z, w) (log), the shorter of its two
/// rotations (angle in [0, pi]).
template <typename Scalar>
Vector3<Scalar> quaternion_log(const Eigen::Matrix<Scalar, 4, 1>& quat) {
  using std::atan2;
  using std::sqrt;
  const Scalar sign = quat[3] < Scalar(0) ? Scalar(-1) : Scalar(1);
  const Vector3<Scalar> u = sign * quat.template head<3>();
  const Scalar w = sign * quat[3];
  const Scalar s2 = u.squaredNorm();
  if (s2 < Scalar(1e-10)) {
    // theta / s = 2 atan2(s, w) / s = (2 / w) (1 - s^2 / (3 w^2)) + O(s^4)
    return (Scalar(2) / w) * (Scalar(1) - s2 / (Scalar(3) * w * w)) * u;
  }
  const Scalar s = sqrt(s2);
  return (Scalar(2) * atan2(s, w) / s) * u;
}

/// The Hamilton product a b of quaternions (x, y, z, w).
template <typename Scalar>
Eigen::Matrix<Scalar, 4, 1> quaternion_product(const Eigen::Matrix<Scalar, 4, 1>& a,
                                               const Eigen::Matrix<Scalar, 4, 1>& b) {
  const Vector3<Scalar> av = a.template head<3>(), bv = b.template head<3>();
  Eigen::Matrix<Scalar, 4, 1> out;
  out << a[3] * bv + b[3] * av + av.cross(bv), a[3] * b[3] - av.dot(bv);
  return out;
}

/// The rotation matrix of a unit quaternion (x, y, z, w): R = 1 + 2 w [u]x + 2 [u]x^2.
template <typename Scalar>
Matrix3<Scalar> quaternion_matrix(const Eigen::Matrix<Scalar, 4, 1>& quat) {
  const Scalar x = quat[0], y = quat[1], z = quat[2], w = quat[3];
  const Scalar one(1), two(2);
  Matrix3<Scalar> r;
  r << one - two * (y * y + z * z), two * (x * y - w * z), two * (x * z + w * y),
      two * (x * y + w * z), one - two * (x * x + z * z), two * (y * z - w * x),
      two * (x * z - w * y), two * (y * z + w * x), one - two * (x * x + y * y);
  return r;
}

}  // namespace detail

/// The free-flyer base joint: the configuration space SE(3) as [p; quaternion (x, y, z, w)]
/// (nq = 7), its tangent the body twist [omega; v_O] in base coordinates (nv = 6).
template <typename Scalar>
struct FreeFlyer {
  static constexpr int nq = 7;
  static constexpr int nv = 6;
  /// The same joint in scalar S (FloatingBase::cast).
  template <typename S>
  using rebind = FreeFlyer<S>;
  using Config = Eigen::Matrix<Scalar, 7, 1>;
  using Tangent = Eigen::Matrix<Scalar, 6, 1>;

  /// The identity pose: p = 0, quaternion (0, 0, 0, 1).
  static Config neutral() {
    Config q = Config::Zero();
    q[6] = Scalar(1);
    return q;
  }

  /// The base pose in the world frame, (R(quaternion), p). The quaternion is taken as unit.
  template <typename Q>
  static Transform<Scalar> pose(const Eigen::MatrixBase<Q>& q) {
    const Eigen::Matrix<Scalar, 4, 1> quat = q.template segment<4>(3);
    return Transform<Scalar>(detail::quaternion_matrix(quat), q.template head<3>());
  }

  /// q (+) v: the pose reached from q by moving with the constant body twist v for a unit
  /// time, M(q) exp(v) (the exponential map of SE(3): R exp([omega]x), p + R V(omega) v_O with
  /// V = 1 + b [omega]x + c [omega]x^2, detail::so3_coefficients). The quaternion is
  /// renormalized: a unit quaternion stays unit to rounding.
  template <typename Q, typename V>
  static Config integrate(const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v) {
    Scalar a, b, c;
    const Vector3<Scalar> w = v.template head<3>(), u = v.template tail<3>();
    detail::so3_coefficients(w.squaredNorm(), a, b, c);
    const Vector3<Scalar> step = u + b * w.cross(u) + c * w.cross(w.cross(u));
    const Eigen::Matrix<Scalar, 4, 1> quat = q.template segment<4>(3);
    Config out;
    out.template head<3>() = q.template head<3>() + detail::quaternion_matrix(quat) * step;
    Eigen::Matrix<Scalar, 4, 1> next = detail::quaternion_product(quat, detail::quaternion_exp(w));
    out.template segment<4>(3) = next / next.norm();
    return out;
  }

  /// q1 (-) q0: the body twist v with integrate(q0, v) = q1, log(M(q0)^-1 M(q1)) (the shorter
  /// rotation: angle <= pi). v_O = V(omega)^-1 R0^T (p1 - p0), V^-1 = 1 - [omega]x / 2 +
  /// (1 - a / (2 b)) / theta^2 [omega]x^2.
  template <typename Q0, typename Q1>
  static Tangent difference(const Eigen::MatrixBase<Q0>& q0, const Eigen::MatrixBase<Q1>& q1) {
    const Eigen::Matrix<Scalar, 4, 1> a0 = q0.template segment<4>(3), a1 = q1.template segment<4>(3);
    Eigen::Matrix<Scalar, 4, 1> inv0 = a0;
    inv0.template head<3>() = -inv0.template head<3>();
    const Vector3<Scalar> w = detail::quaternion_log(detail::quaternion_product(inv0, a1));
    const Vector3<Scalar> d =
        detail::quaternion_matrix(a0).transpose() * (q1.template head<3>() - q0.template head<3>());
    const Scalar theta2 = w.squaredNorm();
    Scalar k;
    if (theta2 < Scalar(1e-8)) {
      k = Scalar(1) / Scalar(12) + theta2 / Scalar(720);
    } else {
      Scalar a, b, c;
      detail::so3_coefficients(theta2, a, b, c);
      k = (Scalar(1) - a / (Scalar(2) * b)) / theta2;
    }
    Tangent out;
    out << w, d - Scalar(0.5) * w.cross(d) + k * w.cross(w.cross(d));
    return out;
  }

  /// The motion subspace S = 1 (6 x 6): the base's spatial velocity is v itself.
  template <typename V>
  static Motion<Scalar> motion(const Eigen::MatrixBase<V>& v) {
    return Motion<Scalar>(v.template head<3>(), v.template segment<3>(3));
  }
  /// S tau: the wrench of the base's generalized forces tau.
  template <typename V>
  static Force<Scalar> force(const Eigen::MatrixBase<V>& tau) {
    return Force<Scalar>(tau.template head<3>(), tau.template segment<3>(3));
  }
  /// S^T f and S^T m: the base's coordinates of a wrench and of a spatial motion.
  static Tangent project(const Force<Scalar>& f) { return f.vector(); }
  static Tangent project(const Motion<Scalar>& m) { return m.vector(); }
  /// S^T X S and X S of a 6 x 6 matrix (base coordinates): X itself.
  static const Eigen::Matrix<Scalar, 6, 6>& project(const Eigen::Matrix<Scalar, 6, 6>& x) { return x; }
  static const Eigen::Matrix<Scalar, 6, 6>& columns(const Eigen::Matrix<Scalar, 6, 6>& x) { return x; }

  /// Throws ArgumentError unless q's quaternion (entries 3..6) has norm 1 to 1e-6 (the
  /// returning forms; in place, q is taken as given).
  template <typename Q>
  static void check_configuration(const char* function, const Eigen::MatrixBase<Q>& q) {
    const double norm = std::sqrt(detail::scalar_value(q.template segment<4>(3).squaredNorm()));
    if (!(std::abs(norm - 1.0) <= 1e-6)) {
      detail::throw_error<ArgumentError>(
          function, ": q's base quaternion (q[3..6], x y z w) has norm ", norm,
          "; a unit quaternion is expected (normalize(model, q))");
    }
  }

  /// Scales the quaternion to unit norm. Throws ArgumentError for a zero (or non-finite) one.
  template <typename Q>
  static void normalize(Eigen::MatrixBase<Q>& q) {
    const Scalar norm = q.template segment<4>(3).norm();
    if (!(detail::scalar_value(norm) > 0.0) || !std::isfinite(detail::scalar_value(norm))) {
      detail::throw_error<ArgumentError>("normalize: q's base quaternion has norm ",
                                         detail::scalar_value(norm), "; it cannot be normalized");
    }
    q.template segment<4>(3) /= norm;
  }

  /// A random pose: the position uniform in the box [-position_bound, position_bound]^3, the
  /// orientation uniform on SO(3) (a normalized 4-D Gaussian).
  template <typename Generator>
  static Config random(Generator& gen, const Scalar& position_bound) {
    std::uniform_real_distribution<double> box(-1.0, 1.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    Config q;
    for (int k = 0; k < 3; ++k) q[k] = position_bound * Scalar(box(gen));
    Eigen::Vector4d quat;
    do {
      for (int k = 0; k < 4; ++k) quat[k] = normal(gen);
    } while (quat.norm() < 1e-6);
    quat.normalize();
    for (int k = 0; k < 4; ++k) q[3 + k] = Scalar(quat[k]);
    return q;
  }

  /// Throws ModelError unless the base body has a positive mass and a positive-definite
  /// rotational inertia (a free body needs both for its inertia to be invertible).
  static void validate_body(const Link<Scalar>& body) {
    const Eigen::Matrix3d in =
        body.inertia.unaryExpr([](const Scalar& x) { return detail::scalar_value(x); });
    if (!(detail::scalar_value(body.mass) > 0.0) || in.llt().info() != Eigen::Success) {
      detail::throw_model_error("floating base body: mass ", detail::scalar_value(body.mass),
                                " and inertia ", detail::format_matrix(in),
                                " must be positive (definite)");
    }
  }
};

namespace detail {
/// yaw wrapped into [-pi, pi) (by a multiple of 2 pi found in double: any scalar type).
template <typename Scalar>
Scalar wrap_angle(const Scalar& yaw) {
  constexpr double kTwoPi = 6.283185307179586476925;
  const double turns = std::floor((scalar_value(yaw) + 0.5 * kTwoPi) / kTwoPi);
  return turns == 0.0 ? yaw : Scalar(yaw - Scalar(turns * kTwoPi));
}
}  // namespace detail

/// The planar base joint: a base that moves on level ground (a wheeled base), its origin in the
/// world's x-y plane and turned about the world's z axis (gravity along -z, as usual). The
/// configuration space SE(2) as [x; y; yaw] (nq = 3), its tangent the base's planar body
/// velocity [v_x; v_y; omega_z] in base coordinates (nv = 3, the base's forward and sideways
/// speed and its turn rate: what a wheeled base's odometry measures). Its generalized forces
/// are [f_x; f_y; tau_z], the force and the moment about the vertical axis through the base
/// origin that the wheels apply to the base, in base coordinates. Motion subspace: the
/// columns (linear x, linear y, angular z) of the identity. yaw is an angle on the real line:
/// integrate adds to it (a turning base's yaw grows past pi), difference takes the shorter turn,
/// normalize wraps it into [-pi, pi).
template <typename Scalar>
struct PlanarBase {
  static constexpr int nq = 3;
  static constexpr int nv = 3;
  /// The same joint in scalar S (FloatingBase::cast).
  template <typename S>
  using rebind = PlanarBase<S>;
  using Config = Vector3<Scalar>;
  using Tangent = Vector3<Scalar>;

  /// The base at the world origin, facing the world's x axis: [0; 0; 0].
  static Config neutral() { return Config::Zero(); }

  /// The base pose in the world frame: (R_z(yaw), (x, y, 0)).
  template <typename Q>
  static Transform<Scalar> pose(const Eigen::MatrixBase<Q>& q) {
    using std::cos;
    using std::sin;
    const Scalar c = cos(q[2]), s = sin(q[2]);
    Matrix3<Scalar> r;
    r << c, -s, Scalar(0), s, c, Scalar(0), Scalar(0), Scalar(0), Scalar(1);
    return Transform<Scalar>(r, Vector3<Scalar>(q[0], q[1], Scalar(0)));
  }

  /// q (+) v: the pose reached from q by moving with the constant body velocity v for a unit
  /// time, the exponential map of SE(2): yaw + omega, and the origin moved by R(yaw) V(omega)
  /// (v_x, v_y), V = [a, -b; b, a], a = sin(omega) / omega, b = (1 - cos(omega)) / omega (an
  /// arc of a circle; a straight line for omega = 0). Exact for a constant body velocity.
  template <typename Q, typename V>
  static Config integrate(const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v) {
    using std::cos;
    using std::sin;
    const Scalar w = v[2];
    Scalar a, b;
    if (w * w < Scalar(1e-8)) {
      a = Scalar(1) - w * w / Scalar(6);
      b = w / Scalar(2) - w * w * w / Scalar(24);
    } else {
      a = sin(w) / w;
      b = (Scalar(1) - cos(w)) / w;
    }
    const Scalar dx = a * v[0] - b * v[1], dy = b * v[0] + a * v[1];
    const Scalar c = cos(q[2]), s = sin(q[2]);
    return Config(q[0] + c * dx - s * dy, q[1] + s * dx + c * dy, q[2] + w);
  }

  /// q1 (-) q0: the body velocity v with integrate(q0, v) = q1 up to a whole turn of yaw, the
  /// log of M(q0)^-1 M(q1) with the shorter turn (omega in [-pi, pi)): (v_x, v_y) =
  /// V(omega)^-1 R(yaw0)^T (p1 - p0), V^-1 = [c, omega / 2; -omega / 2, c],
  /// c = (omega / 2) cot(omega / 2).
  template <typename Q0, typename Q1>
  static Tangent difference(const Eigen::MatrixBase<Q0>& q0, const Eigen::MatrixBase<Q1>& q1) {
    using std::cos;
    using std::sin;
    using std::tan;
    const Scalar w = detail::wrap_angle(Scalar(q1[2] - q0[2]));
    const Scalar c0 = cos(q0[2]), s0 = sin(q0[2]);
    const Scalar ex = q1[0] - q0[0], ey = q1[1] - q0[1];
    const Scalar dx = c0 * ex + s0 * ey, dy = -s0 * ex + c0 * ey;
    const Scalar h = w / Scalar(2);
    const Scalar c = w * w < Scalar(1e-8) ? Scalar(1) - w * w / Scalar(12) : Scalar(h / tan(h));
    return Tangent(c * dx + h * dy, -h * dx + c * dy, w);
  }

  /// The motion subspace S: v = [v_x; v_y; omega_z] is the spatial velocity
  /// (0, 0, omega_z; v_x, v_y, 0).
  template <typename V>
  static Motion<Scalar> motion(const Eigen::MatrixBase<V>& v) {
    return Motion<Scalar>(Vector3<Scalar>(Scalar(0), Scalar(0), v[2]),
                          Vector3<Scalar>(v[0], v[1], Scalar(0)));
  }
  /// S tau: the wrench (0, 0, tau_z; f_x, f_y, 0) of the base's generalized forces.
  template <typename V>
  static Force<Scalar> force(const Eigen::MatrixBase<V>& tau) {
    return Force<Scalar>(Vector3<Scalar>(Scalar(0), Scalar(0), tau[2]),
                         Vector3<Scalar>(tau[0], tau[1], Scalar(0)));
  }
  /// S^T f: a wrench's x, y force and z moment; S^T m: a motion's v_x, v_y, omega_z.
  static Tangent project(const Force<Scalar>& f) { return Tangent(f.linear[0], f.linear[1], f.angular[2]); }
  static Tangent project(const Motion<Scalar>& m) { return Tangent(m.linear[0], m.linear[1], m.angular[2]); }
  /// S^T X S (3 x 3) and X S (6 x 3) of a 6 x 6 matrix in base coordinates.
  static Eigen::Matrix<Scalar, 3, 3> project(const Eigen::Matrix<Scalar, 6, 6>& x) {
    constexpr int k[3] = {3, 4, 2};
    Eigen::Matrix<Scalar, 3, 3> out;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) out(i, j) = x(k[i], k[j]);
    }
    return out;
  }
  static Eigen::Matrix<Scalar, 6, 3> columns(const Eigen::Matrix<Scalar, 6, 6>& x) {
    Eigen::Matrix<Scalar, 6, 3> out;
    out << x.col(3), x.col(4), x.col(2);
    return out;
  }

  /// Every [x; y; yaw] is a configuration: nothing to check beyond finite entries.
  template <typename Q>
  static void check_configuration(const char*, const Eigen::MatrixBase<Q>&) noexcept {}

  /// Wraps yaw into [-pi, pi) (the same pose). Throws ArgumentError for a non-finite yaw.
  template <typename Q>
  static void normalize(Eigen::MatrixBase<Q>& q) {
    if (!std::isfinite(detail::scalar_value(q[2]))) {
      detail::throw_error<ArgumentError>("normalize: q's base yaw (q[2]) is ",
                                         detail::scalar_value(q[2]), "; it cannot be normalized");
    }
    q[2] = detail::wrap_angle(Scalar(q[2]));
  }

  /// A random pose: x, y uniform in [-position_bound, position_bound], yaw uniform in
  /// [-pi, pi).
  template <typename Generator>
  static Config random(Generator& gen, const Scalar& position_bound) {
    std::uniform_real_distribution<double> box(-1.0, 1.0);
    Config q;
    q[0] = position_bound * Scalar(box(gen));
    q[1] = position_bound * Scalar(box(gen));
    q[2] = Scalar(3.14159265358979323846 * box(gen));
    return q;
  }

  /// Throws ModelError unless the base body has a positive mass and a positive moment of
  /// inertia about the vertical axis through its centre of mass (S^T I_0 S positive definite).
  static void validate_body(const Link<Scalar>& body) {
    const double m = detail::scalar_value(body.mass), izz = detail::scalar_value(body.inertia(2, 2));
    if (!(m > 0.0) || !(izz > 0.0)) {
      detail::throw_model_error("planar base body: mass ", m, " and inertia about the vertical axis ",
                                izz, " must be positive");
    }
  }
};

namespace detail {
template <typename Tree, typename Derived>
void check_floating_size(const char* function, const char* name,
                         const Eigen::MatrixBase<Derived>& v, Eigen::Index expected,
                         const char* what) {
  if (v.size() != expected || (v.rows() != 1 && v.cols() != 1)) {
    throw_error<ArgumentError>(function, ": ", name, " has ", v.size(), " entries (", v.rows(),
                               " x ", v.cols(), "); the floating-base model has ", what, " = ",
                               expected);
  }
}
}  // namespace detail

/// A base body carrying a fixed-base model `Tree` (Chain, ChainN, ChainX, Tree or TreeX) whose
/// base frame is the base body's frame, moving relative to the world through its base joint:
/// - FreeFlyer (the default): a free-flying base, q = [p; quaternion; q_tree] (nq = 7 + n),
///   v = [omega; v_O; qd_tree] (nv = 6 + n);
/// - PlanarBase: a base on level ground (PlanarBaseRobot<Tree>), q = [x; y; yaw; q_tree]
///   (nq = 3 + n), v = [v_x; v_y; omega_z; qd_tree] (nv = 3 + n);
/// the base velocity in base coordinates (docs/floating_base.md). The algorithms
/// (algorithms/floating_base.hpp) run the tree's own passes with the base's motion as their
/// root state (RBDA ch. 9), the same code for both base joints.
///
///     Link<double> body;  body.mass = 500.0;  body.inertia = Eigen::Vector3d(50, 50, 40).asDiagonal();
///     FloatingBase<KukaIiwa<double>> satellite(body, robots::kuka_iiwa());
///     PlanarBaseRobot<KukaIiwa<double>> mobile(body, robots::kuka_iiwa());
template <typename TreeModel, typename BaseJoint = FreeFlyer<typename TreeModel::Scalar>>
class FloatingBase {
 public:
  using Tree = TreeModel;
  using Scalar = typename Tree::Scalar;
  using Base = BaseJoint;
  static_assert(std::is_same_v<typename Base::Config, Eigen::Matrix<Scalar, Base::nq, 1>>,
                "FloatingBase: the base joint's scalar is the tree's");
  /// The tree's joint count (Eigen::Dynamic for a ChainX or TreeX).
  static constexpr int n = Tree::nq;
  static constexpr int nq = n == Eigen::Dynamic ? Eigen::Dynamic : n + Base::nq;
  static constexpr int nv = n == Eigen::Dynamic ? Eigen::Dynamic : n + Base::nv;
  /// Configurations (nq entries).
  using ConfigVector = Eigen::Matrix<Scalar, nq, 1>;
  /// Velocities, accelerations, generalized forces (nv entries).
  using TangentVector = Eigen::Matrix<Scalar, nv, 1>;
  using Matrix = Eigen::Matrix<Scalar, nv, nv>;

  /// The base body (its link's mass, com and inertia; placement and joint fields are unused)
  /// and the tree on it. Throws ModelError for a bad base body (as a chain's links) or one whose
  /// inertia along the base joint's motion is not invertible: a free-flyer's needs a positive
  /// mass and a positive-definite rotational inertia, a planar base's a positive mass and a
  /// positive moment of inertia about the vertical axis.
  FloatingBase(const Link<Scalar>& base_body, Tree tree)
      : tree_(std::move(tree)),
        base_inertia_(Inertia<Scalar>::from_com(base_body.mass, base_body.com, base_body.inertia)) {
    detail::validate_link(base_body, "floating base body");
    Base::validate_body(base_body);
  }

  const Tree& tree() const noexcept { return tree_; }
  /// The base body's spatial inertia in its frame, about its origin.
  const Inertia<Scalar>& base_inertia() const noexcept { return base_inertia_; }
  /// Gravity in the world frame (the tree's).
  const Vector3<Scalar>& gravity() const noexcept { return tree_.gravity(); }
  /// The tree's joint count.
  std::size_t joint_count() const noexcept { return detail::joint_count(tree_); }
  Eigen::Index nq_size() const noexcept { return Eigen::Index(joint_count()) + Base::nq; }
  Eigen::Index nv_size() const noexcept { return Eigen::Index(joint_count()) + Base::nv; }

  /// The neutral configuration: the base at the world origin, unrotated; q_tree = 0.
  ConfigVector neutral() const {
    ConfigVector q = ConfigVector::Zero(nq_size());
    q.template head<Base::nq>() = Base::neutral();
    return q;
  }

  /// The same model in scalar NewScalar: the tree's cast (Chain::cast) on the base body's
  /// inertia, number by number (batch::Workspace runs a FloatingBase of packs).
  template <typename NewScalar>
  auto cast() const {
    using NewTree = std::decay_t<decltype(tree_.template cast<NewScalar>())>;
    using Out = FloatingBase<NewTree, typename Base::template rebind<NewScalar>>;
    Inertia<NewScalar> inertia;
    inertia.mass = detail::scalar_cast<NewScalar>(base_inertia_.mass);
    inertia.first_moment = detail::matrix_cast<NewScalar>(base_inertia_.first_moment);
    inertia.rotational = detail::matrix_cast<NewScalar>(base_inertia_.rotational);
    return Out(typename Out::CastTag{}, tree_.template cast<NewScalar>(), inertia);
  }

 private:
  template <typename, typename>
  friend class FloatingBase;
  struct CastTag {};
  // A cast's model: the base inertia taken as it is (validated in the model it came from).
  FloatingBase(CastTag, Tree tree, const Inertia<Scalar>& inertia)
      : tree_(std::move(tree)), base_inertia_(inertia) {}

  Tree tree_;
  Inertia<Scalar> base_inertia_;
};

/// A tree on a planar base (x, y, yaw: a wheeled base on level ground), e.g. a mobile
/// manipulator: FloatingBase with the PlanarBase joint.
///
///     Link<double> cart;  cart.mass = 40.0;  cart.inertia = Eigen::Vector3d(1.5, 2.0, 3.0).asDiagonal();
///     PlanarBaseRobot<robots::Ur5<double>> mobile(cart, robots::ur5());
template <typename Tree>
using PlanarBaseRobot = FloatingBase<Tree, PlanarBase<typename Tree::Scalar>>;

/// The workspace of a FloatingBase: the tree's Data and the base's quantities. Fixed-size for a
/// compile-time tree; sized when made (`Data<Robot> data(robot)`) for a ChainX/TreeX.
template <typename Tree, typename BaseJoint>
struct Data<FloatingBase<Tree, BaseJoint>> {
  using Model = FloatingBase<Tree, BaseJoint>;
  using Scalar = typename Tree::Scalar;
  using TangentVector = typename Model::TangentVector;
  using Matrix = typename Model::Matrix;

  Data() : tree() {
    static_assert(Tree::nq != Eigen::Dynamic,
                  "Data of a FloatingBase on a ChainX/TreeX: make it with the model");
    resize(std::size_t(Tree::nq));
  }
  explicit Data(const Model& model) : tree(model.tree()) {
    resize(model.joint_count());
  }

  std::size_t size() const noexcept { return tree.size(); }

  /// The tree's workspace (its passes' intermediates) and, as tree.root, the base's motion:
  /// v, a - a_g, the wrench f the tree and the base body need (rnea: all six components; a
  /// planar base's generalized forces are its x, y force and z moment, the rest is what the
  /// ground supplies), IA and pA (aba).
  detail::RootedData<Tree, BaseJoint> tree;
  typename Tree::Vector q, qd, qdd;  ///< the tree's parts of q, v, a of the last call
  Transform<Scalar> oMb;           ///< the base pose in the world frame
  Inertia<Scalar> Ic0;             ///< the whole system's inertia in base coordinates (crba,
                                   ///< rnea_free_base, centroidal_momentum)
  TangentVector tau;               ///< generalized forces (rnea, rnea_free_base, nonlinear
                                   ///< effects, gravity_torques): [base forces; tau_tree]
  TangentVector a;                 ///< generalized accelerations (aba, forward_dynamics_crba,
                                   ///< rnea_free_base): [base acceleration; qdd]
  Matrix M;                        ///< the mass matrix, nv x nv (crba)
  Matrix L;                        ///< its Cholesky factor L L^T = M (forward_dynamics_crba)
  Eigen::Matrix<Scalar, 6, Tree::nq> J_tree;  ///< the tree's columns of a Jacobian (jacobian)
  Eigen::Matrix<Scalar, 6, Model::nv> Ag;  ///< centroidal momentum matrix (centroidal_momentum_matrix)
  Eigen::Matrix<Scalar, 6, 1> hg = Eigen::Matrix<Scalar, 6, 1>::Zero();  ///< centroidal momentum
  Vector3<Scalar> com = Vector3<Scalar>::Zero();  ///< the system's centre of mass (world)
  Scalar mass = Scalar(0);                        ///< the system's mass
  Scalar kinetic_energy = Scalar(0);
  Scalar potential_energy = Scalar(0);

 private:
  void resize(std::size_t n) {
    const auto k = Eigen::Index(n);
    q = qd = qdd = Tree::Vector::Zero(k);
    const Eigen::Index nv = k + BaseJoint::nv;
    tau = a = TangentVector::Zero(nv);
    M = L = Matrix::Zero(nv, nv);
    J_tree = Eigen::Matrix<Scalar, 6, Tree::nq>::Zero(6, k);
    Ag = Eigen::Matrix<Scalar, 6, Model::nv>::Zero(6, nv);
  }
};

}  // namespace chaindyn
