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
        detail::add3_packed(detail::mul(rotational, m.angular),
                            detail::cross3(first_moment, m.linear)),
        detail::make3<Scalar>(mass * m.linear.x() - hw.x(), mass * m.linear.y() - hw.y(),
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
    detail::for_upper3([&](const int i, const int j) CHAINDYN_ALWAYS_INLINE {
      const Scalar t = mp[i] * p[j] + p[i] * rh[j] + rh[i] * p[j];
      if (j != i) {
        out.rotational(i, j) -= t;
        out.rotational(j, i) -= t;
      } else {
        out.rotational(i, i) += diag - t;
      }
    });
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

/// A symmetric 3x3 matrix by its six distinct entries, the upper triangle row by row:
///     [ s0 s1 s2 ]
///     [ s1 s3 s4 ]
///     [ s2 s4 s5 ]
/// The angular and linear blocks of an articulated-body inertia (RBDA sec. 7.2: IA is
/// symmetric) are kept so, which saves a third of their stores and of the work of the sums and
/// rank-one updates ABA's second pass makes of them.
template <typename Scalar>
struct Symmetric3 {
  Scalar s[6] = {Scalar(0), Scalar(0), Scalar(0), Scalar(0), Scalar(0), Scalar(0)};

  /// Where entry (i, j) of the matrix is kept in s.
  static constexpr CHAINDYN_ALWAYS_INLINE int index(int i, int j) noexcept {
    return i <= j ? 3 * i - i * (i - 1) / 2 + (j - i) : 3 * j - j * (j - 1) / 2 + (i - j);
  }

  CHAINDYN_ALWAYS_INLINE Symmetric3() {}
  /// The upper triangle of m (m is taken to be symmetric).
  CHAINDYN_ALWAYS_INLINE static Symmetric3 from_upper(const Matrix3<Scalar>& m) {
    Symmetric3 out;
    detail::for_upper3([&](const int i, const int j) CHAINDYN_ALWAYS_INLINE {
      out.s[index(i, j)] = m(i, j);
    });
    return out;
  }

  CHAINDYN_ALWAYS_INLINE Scalar& operator()(int i, int j) { return s[index(i, j)]; }
  CHAINDYN_ALWAYS_INLINE const Scalar& operator()(int i, int j) const { return s[index(i, j)]; }

  /// Column (= row) k.
  CHAINDYN_ALWAYS_INLINE Vector3<Scalar> col(int k) const {
    return Vector3<Scalar>(s[index(0, k)], s[index(1, k)], s[index(2, k)]);
  }

  /// S v: nine products, as for a full matrix.
  CHAINDYN_ALWAYS_INLINE Vector3<Scalar> operator*(const Vector3<Scalar>& v) const {
    return detail::make3<Scalar>(s[0] * v.x() + s[1] * v.y() + s[2] * v.z(),
                                 s[1] * v.x() + s[3] * v.y() + s[4] * v.z(),
                                 s[2] * v.x() + s[4] * v.y() + s[5] * v.z());
  }

  CHAINDYN_ALWAYS_INLINE Symmetric3& operator+=(const Symmetric3& o) {
    for (int k = 0; k < 6; ++k) s[k] += o.s[k];
    return *this;
  }

  CHAINDYN_ALWAYS_INLINE Matrix3<Scalar> matrix() const {
    Matrix3<Scalar> out;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) out(i, j) = s[index(i, j)];
    }
    return out;
  }
};

/// A rigid body's inertia by its centre of mass: mass m, centre of mass c and the rotational
/// inertia I_C about c (symmetric), in the axes of the frame it is given in. Every chain keeps
/// its links' inertias in this form too (ChainBase::inertia_in), because it is the cheaper one
/// to express in another frame, which rnea_derivatives, aba, crba and the Coriolis matrix do
/// for every link and call (RBDA eq. 2.66 taken at the centre of mass): for x = (R, p) the pose
/// of this frame in frame A,
///     c' = R c + p,   h' = m c',   I_O' = R I_C R^T + m ((c' . c') 1 - c' c'^T),
/// 66 multiplications and 50 additions, against 85 and 68 for Inertia::transformed_by (which
/// shifts I_O about the old origin). `diagonal` says that I_C's products of inertia are exactly
/// zero (a URDF inertia without products of inertia, as every link of the built-in iiwa's): then
/// (R I_C R^T)_ij = sum_k I_kk R_ik R_jk, 48 multiplications and 32 additions in all. It is
/// only set for a floating-point Scalar (an automatic-differentiation scalar may carry
/// derivatives in a product of inertia whose value is zero).
template <typename Scalar>
struct ComInertia {
  Scalar mass = Scalar(0);
  Vector3<Scalar> com = Vector3<Scalar>::Zero();  ///< c
  Symmetric3<Scalar> rotational;                   ///< I_C, about c
  bool diagonal = false;                           ///< I_C's off-diagonal entries are 0

  ComInertia() = default;
  /// From the URDF-style triple (as Inertia::from_com; inertia_about_com taken as symmetric).
  ComInertia(const Scalar& m, const Vector3<Scalar>& c, const Matrix3<Scalar>& inertia_about_com)
      : mass(m), com(c), rotational(Symmetric3<Scalar>::from_upper(inertia_about_com)) {
    if constexpr (std::is_floating_point<Scalar>::value) {
      diagonal = rotational(0, 1) == Scalar(0) && rotational(0, 2) == Scalar(0) &&
                 rotational(1, 2) == Scalar(0);
    }
  }
  /// The same inertia as `i` (a massless body keeps c = 0 and I_C = I_O, which the formulas
  /// above then turn exactly as transformed_by does).
  explicit ComInertia(const Inertia<Scalar>& i)
      : ComInertia(i.mass, i.com(), i.inertia_about_com()) {}

  /// The body's inertia about the origin of frame A, in A's axes, given `x` the pose of this
  /// inertia's frame in A: X^* I X^{-1}, as Inertia::transformed_by (equal up to rounding).
  CHAINDYN_ALWAYS_INLINE Inertia<Scalar> expressed_in(const Transform<Scalar>& x) const {
    const Matrix3<Scalar>& r = x.rotation;
    const Vector3<Scalar> c = detail::add3_packed(detail::mul(r, com), x.translation);
    const Vector3<Scalar> mc = detail::make3<Scalar>(mass * c.x(), mass * c.y(), mass * c.z());
    const Scalar cmc = c.x() * mc.x() + c.y() * mc.y() + c.z() * mc.z();
    Matrix3<Scalar> rotated;  // R I_C R^T, upper triangle
    if (diagonal) {
      Matrix3<Scalar> rd;  // R diag(I_C)
      for (int k = 0; k < 3; ++k) {
        const Scalar d = rotational(k, k);
        for (int i = 0; i < 3; ++i) rd(i, k) = r(i, k) * d;
      }
      detail::for_upper3([&](const int i, const int j) CHAINDYN_ALWAYS_INLINE {
        rotated(i, j) = rd(i, 0) * r(j, 0) + rd(i, 1) * r(j, 1) + rd(i, 2) * r(j, 2);
      });
    } else {
      rotated = detail::rotate_symmetric(r, rotational.matrix());
    }
    Inertia<Scalar> out;
    out.mass = mass;
    out.first_moment = mc;
    // plus the shift to A's origin, m ((c'.c') 1 - c' c'^T)
    detail::for_upper3([&](const int i, const int j) CHAINDYN_ALWAYS_INLINE {
      if (i == j) {
        out.rotational(i, i) = rotated(i, i) + (cmc - mc[i] * c[i]);
      } else {
        const Scalar t = rotated(i, j) - mc[i] * c[j];
        out.rotational(i, j) = t;
        out.rotational(j, i) = t;
      }
    });
    return out;
  }
};

// With clang++ ABA's articulated-inertia products fuse their multiply-adds (config.hpp); the
// rigid Inertia's stay apart (fused, clang++'s crba and rnea_derivatives ran slower).
CHAINDYN_FP_CONTRACT_BEGIN
/// A general symmetric spatial inertia, the articulated-body inertia of ABA (RBDA sec. 7.2):
///     IA = [ A   B ]    A, C symmetric 3x3 (Symmetric3: six numbers each); f = IA m maps a
///          [ B^T C ]    motion to a force.
template <typename Scalar>
struct ArticulatedInertia {
  Symmetric3<Scalar> A;                          ///< angular-angular
  Matrix3<Scalar> B = Matrix3<Scalar>::Zero();  ///< angular-linear
  Symmetric3<Scalar> C;                          ///< linear-linear

  CHAINDYN_ALWAYS_INLINE ArticulatedInertia() {}
  /// A rigid body's inertia as an articulated inertia: A = I_O, B = [h]x, C = m 1.
  CHAINDYN_ALWAYS_INLINE explicit ArticulatedInertia(const Inertia<Scalar>& i)
      : A(Symmetric3<Scalar>::from_upper(i.rotational)), B(detail::skew(i.first_moment)) {
    C.s[0] = C.s[3] = C.s[5] = i.mass;
  }

  CHAINDYN_ALWAYS_INLINE Force<Scalar> operator*(const Motion<Scalar>& m) const {
    // Eigen's sums, not detail::add3: written out, g++'s aba is slower (docs/benchmarks.md)
    return Force<Scalar>(A * m.angular + detail::mul(B, m.linear),
                         detail::mul_transpose(B, m.angular) + C * m.linear);
  }

  CHAINDYN_ALWAYS_INLINE ArticulatedInertia& operator+=(const ArticulatedInertia& o) {
    A += o.A;
    for (int k = 0; k < 9; ++k) B.data()[k] += o.B.data()[k];
    C += o.C;
    return *this;
  }

  /// IA + I for a rigid body's inertia I (RBDA Table 7.1, IA_i = I_i + sum of the children's
  /// Ia): A += I_O, B += [h]x, C += m 1. Fifteen additions; the structural zeros of I skipped.
  CHAINDYN_ALWAYS_INLINE ArticulatedInertia& operator+=(const Inertia<Scalar>& i) {
    detail::for_upper3([&](const int r, const int c) CHAINDYN_ALWAYS_INLINE {
      A(r, c) += i.rotational(r, c);
    });
    detail::add_skew(B, i.first_moment);
    C.s[0] += i.mass;
    C.s[3] += i.mass;
    C.s[5] += i.mass;
    return *this;
  }

  /// out = IA - U U^T / d, the articulated inertia Ia a link passes to its parent (RBDA
  /// Table 7.1), with inv_d = 1 / d: the upper triangles of A and C only (12 products fewer
  /// than the full blocks). `out` may be this inertia.
  CHAINDYN_ALWAYS_INLINE void subtract_outer(const Force<Scalar>& u, const Scalar& inv_d,
                                             ArticulatedInertia& out) const {
#if defined(__clang__)
    // U U^T first, then one multiply-subtract by 1 / d: the products do not wait for the
    // division, which ends ABA's tip-to-base dependency chain (g++ makes slower code of this
    // form, hence the #if; docs/benchmarks.md)
    detail::for_upper3([&](const int i, const int j) CHAINDYN_ALWAYS_INLINE {
      const int k = Symmetric3<Scalar>::index(i, j);
      out.A.s[k] = A.s[k] - (u.angular[i] * u.angular[j]) * inv_d;
      out.C.s[k] = C.s[k] - (u.linear[i] * u.linear[j]) * inv_d;
    });
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 3; ++i) out.B(i, j) = B(i, j) - (u.angular[i] * u.linear[j]) * inv_d;
    }
#else
    const Vector3<Scalar> ua(u.angular.x() * inv_d, u.angular.y() * inv_d,
                             u.angular.z() * inv_d);
    const Vector3<Scalar> ul(u.linear.x() * inv_d, u.linear.y() * inv_d, u.linear.z() * inv_d);
    detail::for_upper3([&](const int i, const int j) CHAINDYN_ALWAYS_INLINE {
      const int k = Symmetric3<Scalar>::index(i, j);
      out.A.s[k] = A.s[k] - ua[i] * u.angular[j];
      out.C.s[k] = C.s[k] - ul[i] * u.linear[j];
    });
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 3; ++i) out.B(i, j) = B(i, j) - ua[i] * u.linear[j];
    }
#endif
  }
  /// In place: IA -= U U^T / d.
  CHAINDYN_ALWAYS_INLINE void subtract_outer(const Force<Scalar>& u, const Scalar& inv_d) {
    subtract_outer(u, inv_d, *this);
  }

  /// The inertia expressed in frame A given `x`, the pose of this frame in A: X^* IA X^{-1}.
  /// Rotating gives A' = R A R^T, B' = R B R^T, C' = R C R^T; shifting the origin by p with
  /// P = [p]x then gives (T^* IA' T^{-1}, T = [1 0; P 1]):
  ///   A'' = A' - B' P + P B'^T - P C' P,   B'' = B' + P C',   C'' = C'.
  CHAINDYN_ALWAYS_INLINE ArticulatedInertia transformed_by(const Transform<Scalar>& x) const {
    const Matrix3<Scalar>& r = x.rotation;
    const Vector3<Scalar>& p = x.translation;
    const Matrix3<Scalar> c = detail::rotate_symmetric(r, C.matrix());
    const Matrix3<Scalar> b = detail::rotate(r, B);
    const Matrix3<Scalar> pc = detail::skew_mul(p, c);            // P C'
    const Matrix3<Scalar> pbt = detail::skew_mul_transpose(p, b);  // P B'^T
    // P (P C')^T = P C'^T P^T = -P C' P (C' symmetric, P^T = -P)
    const Matrix3<Scalar> pcp = detail::skew_mul_transpose(p, pc);
    const Matrix3<Scalar> a = detail::rotate_symmetric(r, A.matrix());
    ArticulatedInertia out;
    detail::for_upper3([&](const int i, const int j) CHAINDYN_ALWAYS_INLINE {
      // A'' = A' + P B'^T + (P B'^T)^T - P C' P
      out.A(i, j) = a(i, j) + pbt(i, j) + pbt(j, i) + pcp(i, j);
      out.C(i, j) = c(i, j);
    });
    out.B = b + pc;
    return out;
  }

  Eigen::Matrix<Scalar, 6, 6> matrix() const {
    Eigen::Matrix<Scalar, 6, 6> out;
    out << A.matrix(), B, B.transpose(), C.matrix();
    return out;
  }
};
CHAINDYN_FP_CONTRACT_END

}  // namespace chaindyn
