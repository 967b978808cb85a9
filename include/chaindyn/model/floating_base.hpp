/// @file
/// A base that moves: FloatingBase<Tree>, a free-flying base body (6 degrees of freedom) that
/// carries a fixed-base model (a Chain, ChainX, Tree or TreeX) as its tree, and the operations
/// of its configuration space (integrate, difference, normalize, random configurations).
/// docs/floating_base.md.
///
/// Conventions (docs/floating_base.md):
/// - q = [p; quaternion; q_tree], nq = 7 + n: p the base origin in the world frame, the
///   quaternion (x, y, z, w) the base orientation (Eigen's coefficient order; unit);
/// - v = [omega; v_O; qd_tree], nv = 6 + n: the base body's spatial velocity in its own
///   coordinates about its origin, [angular; linear] like every Motion (docs/conventions.md);
///   accelerations likewise ([base spatial acceleration in base coordinates; qdd]) and forces
///   ([wrench on the base in base coordinates about its origin, [moment; force]; tau]);
/// - the tree's base frame is the base body's frame; the tree's gravity is the world's.
#pragma once

#include "chaindyn/model/data.hpp"
#include "chaindyn/model/link.hpp"
#include "chaindyn/model/root_motion.hpp"

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

/// A free-flying base body carrying a fixed-base model `Tree` (Chain, ChainN, ChainX, Tree or
/// TreeX) whose base frame is the base body's frame: q = [p; quaternion; q_tree] (nq = 7 + n),
/// v = [omega; v_O; qd_tree] (nv = 6 + n), the base velocity in base coordinates
/// (docs/floating_base.md). The algorithms (algorithms/floating_base.hpp) run the tree's own
/// passes with the base's motion as their root state (RBDA ch. 9).
///
///     Link<double> body;  body.mass = 500.0;  body.inertia = Eigen::Vector3d(50, 50, 40).asDiagonal();
///     FloatingBase<KukaIiwa<double>> satellite(body, robots::kuka_iiwa());
template <typename TreeModel>
class FloatingBase {
 public:
  using Tree = TreeModel;
  using Scalar = typename Tree::Scalar;
  using Base = FreeFlyer<Scalar>;
  /// The tree's joint count (Eigen::Dynamic for a ChainX or TreeX).
  static constexpr int n = Tree::nq;
  static constexpr int nq = n == Eigen::Dynamic ? Eigen::Dynamic : n + 7;
  static constexpr int nv = n == Eigen::Dynamic ? Eigen::Dynamic : n + 6;
  /// Configurations (nq entries).
  using ConfigVector = Eigen::Matrix<Scalar, nq, 1>;
  /// Velocities, accelerations, generalized forces (nv entries).
  using TangentVector = Eigen::Matrix<Scalar, nv, 1>;
  using Matrix = Eigen::Matrix<Scalar, nv, nv>;

  /// The base body (its link's mass, com and inertia; placement and joint fields are unused)
  /// and the tree on it. Throws ModelError for a bad base body (as a chain's links) or one
  /// without positive mass and positive-definite rotational inertia (a free body must have
  /// both for the base's inertia to be invertible).
  FloatingBase(const Link<Scalar>& base_body, Tree tree)
      : tree_(std::move(tree)),
        base_inertia_(Inertia<Scalar>::from_com(base_body.mass, base_body.com, base_body.inertia)) {
    detail::validate_link(base_body, "floating base body");
    const Eigen::Matrix3d in =
        base_body.inertia.unaryExpr([](const Scalar& x) { return detail::scalar_value(x); });
    if (!(detail::scalar_value(base_body.mass) > 0.0) ||
        in.llt().info() != Eigen::Success) {
      detail::throw_model_error("floating base body: mass ", detail::scalar_value(base_body.mass),
                                " and inertia ", detail::format_matrix(in),
                                " must be positive (definite)");
    }
  }

  const Tree& tree() const noexcept { return tree_; }
  /// The base body's spatial inertia in its frame, about its origin.
  const Inertia<Scalar>& base_inertia() const noexcept { return base_inertia_; }
  /// Gravity in the world frame (the tree's).
  const Vector3<Scalar>& gravity() const noexcept { return tree_.gravity(); }
  /// The tree's joint count.
  std::size_t joint_count() const noexcept { return detail::joint_count(tree_); }
  Eigen::Index nq_size() const noexcept { return Eigen::Index(joint_count()) + 7; }
  Eigen::Index nv_size() const noexcept { return Eigen::Index(joint_count()) + 6; }

  /// The neutral configuration: the base at the world origin, unrotated; q_tree = 0.
  ConfigVector neutral() const {
    ConfigVector q = ConfigVector::Zero(nq_size());
    q[6] = Scalar(1);
    return q;
  }

 private:
  Tree tree_;
  Inertia<Scalar> base_inertia_;
};

/// The workspace of a FloatingBase: the tree's Data and the base's quantities. Fixed-size for a
/// compile-time tree; sized when made (`Data<Robot> data(robot)`) for a ChainX/TreeX.
template <typename Tree>
struct Data<FloatingBase<Tree>> {
  using Model = FloatingBase<Tree>;
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
  /// v, a - a_g, the wrench f the tree and the base body need (rnea), IA and pA (aba).
  detail::RootedData<Tree> tree;
  typename Tree::Vector q, qd, qdd;  ///< the tree's parts of q, v, a of the last call
  Transform<Scalar> oMb;           ///< the base pose in the world frame
  Inertia<Scalar> Ic0;             ///< the whole system's inertia in base coordinates (crba,
                                   ///< rnea_free_base, centroidal_momentum)
  TangentVector tau;               ///< generalized forces (rnea, rnea_free_base, nonlinear
                                   ///< effects, gravity_torques): [base wrench; tau_tree]
  TangentVector a;                 ///< generalized accelerations (aba, forward_dynamics_crba,
                                   ///< rnea_free_base): [base acceleration; qdd]
  Matrix M;                        ///< the mass matrix, (6 + n) x (6 + n) (crba)
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
    tau = a = TangentVector::Zero(k + 6);
    M = L = Matrix::Zero(k + 6, k + 6);
    J_tree = Eigen::Matrix<Scalar, 6, Tree::nq>::Zero(6, k);
    Ag = Eigen::Matrix<Scalar, 6, Model::nv>::Zero(6, k + 6);
  }
};

}  // namespace chaindyn
