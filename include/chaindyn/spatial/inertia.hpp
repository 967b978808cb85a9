/// @file
/// Rigid-body spatial inertia (RBDA sec. 2.13) and the articulated-body inertia of ABA
/// (RBDA sec. 7.2).
#pragma once

#include "chaindyn/spatial/transform.hpp"

namespace chaindyn {

/// The spatial inertia of a rigid body about the origin O of the frame it is expressed in.
///
/// Stored as mass m, first moment h = m c (c: centre of mass) and rotational inertia I_O about
/// O, so that (RBDA eq. 2.63)
///     I = [ I_O    [h]x ]      I_O = I_C - m [c]x [c]x   (parallel axis)
///         [ [h]x^T  m 1 ]
/// Construct it with from_com() from the URDF-style triple (mass, centre of mass, rotational
/// inertia about the centre of mass in the frame's axes).
template <typename Scalar>
struct Inertia {
  Scalar mass = Scalar(0);
  Vector3<Scalar> first_moment = Vector3<Scalar>::Zero();   ///< h = m c
  Matrix3<Scalar> rotational = Matrix3<Scalar>::Zero();     ///< I_O, about the frame origin

  CHAINDYN_ALWAYS_INLINE Inertia() {}

  static Inertia Zero() { return Inertia(); }

  static Inertia from_com(const Scalar& m, const Vector3<Scalar>& com,
                          const Matrix3<Scalar>& inertia_about_com) {
    Inertia out;
    out.mass = m;
    out.first_moment = m * com;
    // I_O = I_C - (m [c]x) [c]x with the kernels, not an Eigen product expression (model
    // construction is compiled in every translation unit that builds a chain). The grouping
    // (m [c]x) [c]x is the one Eigen gave m * ([c]x * [c]x) (it moves the scalar into the
    // product's left factor), and each entry sums one or two non-zero products, whose order
    // does not matter: the same bits as before.
    const Matrix3<Scalar> cx = detail::skew(com);
    Matrix3<Scalar> mcx;
    for (int k = 0; k < 9; ++k) mcx.data()[k] = m * cx.data()[k];
    const Matrix3<Scalar> mcxcx = detail::mul(mcx, cx);
    for (int k = 0; k < 9; ++k) {
      out.rotational.data()[k] = inertia_about_com.data()[k] - mcxcx.data()[k];
    }
    return out;
  }

  /// Centre of mass; the origin for a massless body.
  Vector3<Scalar> com() const {
    if (detail::scalar_value(mass) == 0.0) return Vector3<Scalar>::Zero();
    return first_moment / mass;
  }
  /// Rotational inertia about the centre of mass.
  Matrix3<Scalar> inertia_about_com() const {
    if (detail::scalar_value(mass) == 0.0) return rotational;
    const Matrix3<Scalar> hx = detail::skew(first_moment);
    return rotational + (hx * hx) / mass;
  }

  /// I m: the momentum of the body moving with m (RBDA eq. 2.63).
  CHAINDYN_ALWAYS_INLINE Force<Scalar> operator*(const Motion<Scalar>& m) const {
    const Vector3<Scalar> hw = detail::cross3(first_moment, m.angular);
    return Force<Scalar>(
        detail::add3(detail::mul(rotational, m.angular), detail::cross3(first_moment, m.linear)),
        Vector3<Scalar>(mass * m.linear.x() - hw.x(), mass * m.linear.y() - hw.y(),
                        mass * m.linear.z() - hw.z()));
  }

  CHAINDYN_ALWAYS_INLINE Inertia& operator+=(const Inertia& o) {
    mass += o.mass;
    // entry by entry: g++ 12 calls Eigen's 3x3 += out of line in the hot loops
    for (int k = 0; k < 3; ++k) first_moment[k] += o.first_moment[k];
    for (int k = 0; k < 9; ++k) rotational.data()[k] += o.rotational.data()[k];
    return *this;
  }
  friend Inertia operator+(Inertia a, const Inertia& b) { return a += b; }

  /// The same body's inertia expressed in frame A, given `x` the pose of this frame in A:
  /// X^* I X^{-1}. With c' = p + R c:
  ///   h' = R h + m p,   I_O' = R I_O R^T - m [p]x[p]x - [p]x[R h]x - [R h]x[p]x.
  CHAINDYN_ALWAYS_INLINE Inertia transformed_by(const Transform<Scalar>& x) const {
    Inertia out;
    out.mass = mass;
    const Vector3<Scalar> rh = detail::mul(x.rotation, first_moment);
    const Vector3<Scalar>& p = x.translation;
    out.first_moment = rh + mass * p;
    // [a]x[b]x = b a^T - (a . b) 1 turns the shift into
    //   -m [p]x[p]x - [p]x[Rh]x - [Rh]x[p]x = (m p.p + 2 p.Rh) 1 - (m p p^T + p Rh^T + Rh p^T)
    const Vector3<Scalar> mp = mass * p;
    const Scalar diag = p.dot(mp) + Scalar(2) * p.dot(rh);
    out.rotational = detail::rotate_symmetric(x.rotation, rotational);
    for (int i = 0; i < 3; ++i) {
      for (int j = i; j < 3; ++j) {
        const Scalar t = mp[i] * p[j] + p[i] * rh[j] + rh[i] * p[j];
        out.rotational(i, j) -= t;
        if (j != i) out.rotational(j, i) -= t;
      }
      out.rotational(i, i) += diag;
    }
    return out;
  }

  /// The 6x6 matrix (for tests and users; the algorithms never build it).
  Eigen::Matrix<Scalar, 6, 6> matrix() const {
    Eigen::Matrix<Scalar, 6, 6> out;
    const Matrix3<Scalar> hx = detail::skew(first_moment);
    out << rotational, hx, hx.transpose(), mass * Matrix3<Scalar>::Identity();
    return out;
  }
};

/// A general symmetric spatial inertia, the articulated-body inertia of ABA (RBDA sec. 7.2):
///     IA = [ A   B ]    A, C symmetric 3x3; f = IA m maps a motion to a force.
///          [ B^T C ]
template <typename Scalar>
struct ArticulatedInertia {
  Matrix3<Scalar> A = Matrix3<Scalar>::Zero();  ///< angular-angular
  Matrix3<Scalar> B = Matrix3<Scalar>::Zero();  ///< angular-linear
  Matrix3<Scalar> C = Matrix3<Scalar>::Zero();  ///< linear-linear

  CHAINDYN_ALWAYS_INLINE ArticulatedInertia() {}
  /// A rigid body's inertia as an articulated inertia: A = I_O, B = [h]x, C = m 1.
  CHAINDYN_ALWAYS_INLINE explicit ArticulatedInertia(const Inertia<Scalar>& i)
      : A(i.rotational), B(detail::skew(i.first_moment)),
        C(i.mass * Matrix3<Scalar>::Identity()) {}

  CHAINDYN_ALWAYS_INLINE Force<Scalar> operator*(const Motion<Scalar>& m) const {
    return Force<Scalar>(detail::mul(A, m.angular) + detail::mul(B, m.linear),
                         detail::mul_transpose(B, m.angular) + detail::mul(C, m.linear));
  }

  CHAINDYN_ALWAYS_INLINE ArticulatedInertia& operator+=(const ArticulatedInertia& o) {
    A += o.A;
    B += o.B;
    C += o.C;
    return *this;
  }

  /// IA - U U^T / d, the articulated inertia passed to the parent (RBDA Table 7.1).
  CHAINDYN_ALWAYS_INLINE void subtract_outer(const Force<Scalar>& u, const Scalar& inv_d) {
    const Vector3<Scalar> ua = u.angular * inv_d;
    const Vector3<Scalar> ul = u.linear * inv_d;
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 3; ++i) {
        A(i, j) -= ua[i] * u.angular[j];
        B(i, j) -= ua[i] * u.linear[j];
        C(i, j) -= ul[i] * u.linear[j];
      }
    }
  }

  /// The inertia expressed in frame A given `x`, the pose of this frame in A: X^* IA X^{-1}.
  /// Rotating gives A' = R A R^T, B' = R B R^T, C' = R C R^T; shifting the origin by p with
  /// P = [p]x then gives (T^* IA' T^{-1}, T = [1 0; P 1]):
  ///   A'' = A' - B' P + P B'^T - P C' P,   B'' = B' + P C',   C'' = C'.
  CHAINDYN_ALWAYS_INLINE ArticulatedInertia transformed_by(const Transform<Scalar>& x) const {
    const Matrix3<Scalar>& r = x.rotation;
    const Vector3<Scalar>& p = x.translation;
    ArticulatedInertia out;
    out.C = detail::rotate_symmetric(r, C);
    const Matrix3<Scalar> b = detail::rotate(r, B);
    const Matrix3<Scalar> pc = detail::skew_mul(p, out.C);                            // P C'
    const Matrix3<Scalar> pbt = detail::skew_mul_transpose(p, b);  // P B'^T
    // P (P C')^T = P C'^T P^T = -P C' P (C' symmetric, P^T = -P)
    const Matrix3<Scalar> pcp = detail::skew_mul_transpose(p, pc);
    out.A = detail::rotate_symmetric(r, A);
    for (int i = 0; i < 3; ++i) {
      for (int j = i; j < 3; ++j) {
        // A'' = A' + P B'^T + (P B'^T)^T - P C' P
        out.A(i, j) += pbt(i, j) + pbt(j, i) + pcp(i, j);
        out.A(j, i) = out.A(i, j);
      }
    }
    out.B = b + pc;
    return out;
  }

  Eigen::Matrix<Scalar, 6, 6> matrix() const {
    Eigen::Matrix<Scalar, 6, 6> out;
    out << A, B, B.transpose(), C;
    return out;
  }
};

}  // namespace chaindyn
