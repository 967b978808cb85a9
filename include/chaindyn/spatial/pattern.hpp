/// @file
/// Structural patterns of rigid transforms, and the transform kernels that skip what a pattern
/// says is zero.
///
/// Robot description files place most joints by right-angle rotations and offsets along one
/// axis (URDF `rpy="1.5707963 0 0" xyz="0 0 0.2"`; DH tables' alpha = +-90 deg and offsets
/// along x and z): measured on the iiwa, 42 % of RNEA's flops and 41 % of CRBA's have an exact 0
/// or +-1 operand (docs/benchmarks.md). A pattern states that structure in a type, so the
/// kernels below drop those operations at compile time, as generated code does by constant
/// folding (RobCoGen, Frigerio et al. 2016), while the numbers stay in the model.
///
/// A pattern type P has two constant arrays: `P::rotation[3 * r + c]` is the code of rotation
/// entry (r, c) and `P::translation[k]` says whether translation component k may be non-zero.
/// Codes: 0 (exactly zero), 1 (exactly one), -1 (exactly minus one), 2 (any value).
///
/// Inside the kernels an entry is a value of one of the structural types Zero, One, MinusOne
/// (no run-time number) or a Scalar; `smul`, `sadd`, `ssub`, `sneg` combine them so that a
/// product with Zero vanishes and One multiplies nothing. Where every entry is a Scalar the
/// kernels do the same operations in the same order as Transform's (spatial/transform.hpp);
/// with clang++ they may fuse a product into the sum that takes it where Transform's round it
/// first (CHAINDYN_FP_CONTRACT_BEGIN, config.hpp).
#pragma once

#include "chaindyn/spatial/inertia.hpp"

#include <array>
#include <type_traits>
#include <utility>

// With clang++ a product and the sum that takes it fuse (config.hpp): smul and sadd are
// separate functions.
CHAINDYN_FP_CONTRACT_BEGIN

namespace chaindyn {

/// A rotation whose column c is the signed coordinate axis `A_c` (1: +x, 2: +y, 3: +z, -1: -x,
/// ...): a signed permutation, e.g. SignedAxes<1, 3, -2> = Rx(+90 deg) (column 1 is +z, column 2
/// is -y). Only proper rotations (determinant +1).
template <int A0, int A1, int A2>
struct SignedAxes {
  static_assert(A0 != 0 && A1 != 0 && A2 != 0 && A0 >= -3 && A0 <= 3 && A1 >= -3 && A1 <= 3 &&
                    A2 >= -3 && A2 <= 3,
                "SignedAxes: each column is +-1 (x), +-2 (y) or +-3 (z)");
  static_assert((A0 > 0 ? A0 : -A0) != (A1 > 0 ? A1 : -A1) &&
                    (A0 > 0 ? A0 : -A0) != (A2 > 0 ? A2 : -A2) &&
                    (A1 > 0 ? A1 : -A1) != (A2 > 0 ? A2 : -A2),
                "SignedAxes: the three columns are three different axes");
  static constexpr std::array<signed char, 9> entries = [] {
    std::array<signed char, 9> e{};
    const int a[3] = {A0, A1, A2};
    for (int c = 0; c < 3; ++c) {
      const int row = (a[c] > 0 ? a[c] : -a[c]) - 1;
      e[std::size_t(3 * row + c)] = static_cast<signed char>(a[c] > 0 ? 1 : -1);
    }
    return e;
  }();
  // det = sign of the permutation times the product of the signs.
  static_assert([] {
    const int a[3] = {A0, A1, A2};
    int m[3][3] = {};
    for (int c = 0; c < 3; ++c) m[(a[c] > 0 ? a[c] : -a[c]) - 1][c] = a[c] > 0 ? 1 : -1;
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
               m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
               m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]) ==
           1;
  }(), "SignedAxes: not a proper rotation (determinant -1)");
};

/// A rotation about coordinate axis K (0: x, 1: y, 2: z) by any angle: entry (K, K) is one, the
/// other entries of row and column K are zero (e.g. a DH table's Rx(alpha)).
template <int K>
struct AboutAxis {
  static_assert(K >= 0 && K < 3, "AboutAxis: axis index is 0 (x), 1 (y) or 2 (z)");
  static constexpr std::array<signed char, 9> entries = [] {
    std::array<signed char, 9> e{};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        e[std::size_t(3 * r + c)] =
            static_cast<signed char>(r == K && c == K ? 1 : (r == K || c == K ? 0 : 2));
      }
    }
    return e;
  }();
};

/// A rotation without known structure.
struct AnyRotation {
  static constexpr std::array<signed char, 9> entries = {2, 2, 2, 2, 2, 2, 2, 2, 2};
};

/// A translation whose components x, y, z may be non-zero where the flag is true and are zero
/// where it is false (Offset<false, false, true>: along z only).
template <bool X, bool Y, bool Z>
struct Offset {
  static constexpr std::array<bool, 3> entries = {X, Y, Z};
};
using AnyOffset = Offset<true, true, true>;
using NoOffset = Offset<false, false, false>;

namespace detail {

/// The pattern of a transform with rotation structure R and translation structure T.
template <typename R, typename T>
struct TransformPattern {
  static constexpr std::array<signed char, 9> rotation = R::entries;
  static constexpr std::array<bool, 3> translation = T::entries;
};
using DensePattern = TransformPattern<AnyRotation, AnyOffset>;

template <typename P>
constexpr bool is_dense_pattern() {
  for (signed char e : P::rotation) {
    if (e != 2) return false;
  }
  for (bool t : P::translation) {
    if (!t) return false;
  }
  return true;
}

// --- Structural values --------------------------------------------------------------------

struct Zero {};
struct One {};
struct MinusOne {};

template <typename T>
inline constexpr bool is_zero_v = std::is_same_v<T, Zero>;
template <typename T>
inline constexpr bool is_unit_v = std::is_same_v<T, One> || std::is_same_v<T, MinusOne>;

/// The value as a Scalar.
template <typename Scalar, typename T>
inline CHAINDYN_ALWAYS_INLINE Scalar value_of(const T& x) {
  if constexpr (is_zero_v<T>) {
    return Scalar(0);
  } else if constexpr (std::is_same_v<T, One>) {
    return Scalar(1);
  } else if constexpr (std::is_same_v<T, MinusOne>) {
    return Scalar(-1);
  } else {
    return x;
  }
}

template <typename T>
inline CHAINDYN_ALWAYS_INLINE auto sneg(const T& a) {
  if constexpr (is_zero_v<T>) {
    return Zero{};
  } else if constexpr (std::is_same_v<T, One>) {
    return MinusOne{};
  } else if constexpr (std::is_same_v<T, MinusOne>) {
    return One{};
  } else {
    return T(-a);
  }
}

template <typename A, typename B>
inline CHAINDYN_ALWAYS_INLINE auto smul(const A& a, const B& b) {
  if constexpr (is_zero_v<A> || is_zero_v<B>) {
    return Zero{};
  } else if constexpr (std::is_same_v<A, One>) {
    return b;
  } else if constexpr (std::is_same_v<A, MinusOne>) {
    return sneg(b);
  } else if constexpr (std::is_same_v<B, One>) {
    return a;
  } else if constexpr (std::is_same_v<B, MinusOne>) {
    return sneg(a);
  } else {
    return A(a * b);
  }
}

template <typename A, typename B>
inline CHAINDYN_ALWAYS_INLINE auto sadd(const A& a, const B& b) {
  static_assert(!(is_unit_v<A> && is_unit_v<B>), "a sum of two structural units");
  if constexpr (is_zero_v<A>) {
    return b;
  } else if constexpr (is_zero_v<B>) {
    return a;
  } else if constexpr (is_unit_v<A>) {
    return B(value_of<B>(a) + b);
  } else if constexpr (is_unit_v<B>) {
    return A(a + value_of<A>(b));
  } else {
    return A(a + b);
  }
}

template <typename A, typename B>
inline CHAINDYN_ALWAYS_INLINE auto ssub(const A& a, const B& b) {
  static_assert(!(is_unit_v<A> && is_unit_v<B>), "a difference of two structural units");
  if constexpr (is_zero_v<B>) {
    return a;
  } else if constexpr (is_zero_v<A>) {
    return sneg(b);
  } else if constexpr (is_unit_v<A>) {
    return B(value_of<B>(a) - b);
  } else if constexpr (is_unit_v<B>) {
    return A(a - value_of<A>(b));
  } else {
    return A(a - b);
  }
}

/// a0 b0 + a1 b1 + a2 b2, summed left to right.
template <typename A0, typename B0, typename A1, typename B1, typename A2, typename B2>
inline CHAINDYN_ALWAYS_INLINE auto sdot(const A0& a0, const B0& b0, const A1& a1, const B1& b1,
                                 const A2& a2, const B2& b2) {
  return sadd(sadd(smul(a0, b0), smul(a1, b1)), smul(a2, b2));
}

/// Rotation entry (r, c) of m as the pattern states it.
template <typename P, int R, int C, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE auto rot(const Matrix3<Scalar>& m) {
  constexpr signed char e = P::rotation[std::size_t(3 * R + C)];
  if constexpr (e == 0) {
    return Zero{};
  } else if constexpr (e == 1) {
    return One{};
  } else if constexpr (e == -1) {
    return MinusOne{};
  } else {
    return Scalar(m(R, C));
  }
}

/// Translation component k of p as the pattern states it.
template <typename P, int K, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE auto tr(const Vector3<Scalar>& p) {
  if constexpr (P::translation[std::size_t(K)]) {
    return Scalar(p[K]);
  } else {
    return Zero{};
  }
}

/// Calls f(integral_constant<int, 0>), ..., f(integral_constant<int, 2>).
template <typename F>
inline CHAINDYN_ALWAYS_INLINE void for3(F&& f) {
  f(std::integral_constant<int, 0>{});
  f(std::integral_constant<int, 1>{});
  f(std::integral_constant<int, 2>{});
}

/// Row r of R v (R as P states it).
template <typename P, int R, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE auto mul_row(const Matrix3<Scalar>& m, const Vector3<Scalar>& v) {
  return sdot(rot<P, R, 0>(m), v.x(), rot<P, R, 1>(m), v.y(), rot<P, R, 2>(m), v.z());
}
/// Row c of R^T v.
template <typename P, int C, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE auto mul_transpose_row(const Matrix3<Scalar>& m, const Vector3<Scalar>& v) {
  return sdot(rot<P, 0, C>(m), v.x(), rot<P, 1, C>(m), v.y(), rot<P, 2, C>(m), v.z());
}
template <typename P, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> mul(const Matrix3<Scalar>& m, const Vector3<Scalar>& v) {
  return make3<Scalar>(value_of<Scalar>(mul_row<P, 0>(m, v)),
                       value_of<Scalar>(mul_row<P, 1>(m, v)),
                       value_of<Scalar>(mul_row<P, 2>(m, v)));
}
template <typename P, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> mul_transpose(const Matrix3<Scalar>& m,
                                                     const Vector3<Scalar>& v) {
  return make3<Scalar>(value_of<Scalar>(mul_transpose_row<P, 0>(m, v)),
                       value_of<Scalar>(mul_transpose_row<P, 1>(m, v)),
                       value_of<Scalar>(mul_transpose_row<P, 2>(m, v)));
}

/// Component k of p x w (p the translation as P states it), cross3's operation order.
template <typename P, int K, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE auto cross_row(const Vector3<Scalar>& p, const Vector3<Scalar>& w) {
  constexpr int i = (K + 1) % 3;
  constexpr int j = (K + 2) % 3;
  return ssub(smul(tr<P, i>(p), w[j]), smul(tr<P, j>(p), w[i]));
}

/// a + p x w and a - p x w, component by component (nothing added where p x w is zero).
template <typename P, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> plus_cross(const Vector3<Scalar>& a,
                                                  const Vector3<Scalar>& p,
                                                  const Vector3<Scalar>& w) {
  return make3<Scalar>(value_of<Scalar>(sadd(a.x(), cross_row<P, 0>(p, w))),
                       value_of<Scalar>(sadd(a.y(), cross_row<P, 1>(p, w))),
                       value_of<Scalar>(sadd(a.z(), cross_row<P, 2>(p, w))));
}
template <typename P, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> minus_cross(const Vector3<Scalar>& a,
                                                   const Vector3<Scalar>& p,
                                                   const Vector3<Scalar>& w) {
  return make3<Scalar>(value_of<Scalar>(ssub(a.x(), cross_row<P, 0>(p, w))),
                       value_of<Scalar>(ssub(a.y(), cross_row<P, 1>(p, w))),
                       value_of<Scalar>(ssub(a.z(), cross_row<P, 2>(p, w))));
}

// --- Transform operations with a pattern (Transform's act/act_inv/..., same formulas) -------

/// Motion in A -> B: (R^T w; R^T (v - p x w)).
template <typename P, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Motion<Scalar> act_inv(const Transform<Scalar>& x, const Motion<Scalar>& m) {
  if constexpr (is_dense_pattern<P>()) {
    return x.act_inv(m);
  } else {
    const Vector3<Scalar> v = minus_cross<P>(m.linear, x.translation, m.angular);
    return Motion<Scalar>(mul_transpose<P>(x.rotation, m.angular),
                          mul_transpose<P>(x.rotation, v));
  }
}

/// Force in B -> A: (R n + p x R f; R f).
template <typename P, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Force<Scalar> act(const Transform<Scalar>& x, const Force<Scalar>& f) {
  if constexpr (is_dense_pattern<P>()) {
    return x.act(f);
  } else {
    const Vector3<Scalar> lin = mul<P>(x.rotation, f.linear);
    return Force<Scalar>(plus_cross<P>(mul<P>(x.rotation, f.angular), x.translation, lin), lin);
  }
}

/// Motion in B -> A: (R w; R v + p x R w).
template <typename P, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Motion<Scalar> act(const Transform<Scalar>& x, const Motion<Scalar>& m) {
  if constexpr (is_dense_pattern<P>()) {
    return x.act(m);
  } else {
    const Vector3<Scalar> w = mul<P>(x.rotation, m.angular);
    return Motion<Scalar>(w, plus_cross<P>(mul<P>(x.rotation, m.linear), x.translation, w));
  }
}

/// Entry (I, J) of a b with b as P states it (detail::mul's order), and row I of a p + t.
template <typename P, int I, int J, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Scalar mul_entry(const Matrix3<Scalar>& a, const Matrix3<Scalar>& b) {
  return value_of<Scalar>(
      sdot(a(I, 0), rot<P, 0, J>(b), a(I, 1), rot<P, 1, J>(b), a(I, 2), rot<P, 2, J>(b)));
}
template <typename P, int I, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Scalar affine_row(const Matrix3<Scalar>& a, const Vector3<Scalar>& p,
                                                const Vector3<Scalar>& t) {
  return value_of<Scalar>(
      sadd(sdot(a(I, 0), tr<P, 0>(p), a(I, 1), tr<P, 1>(p), a(I, 2), tr<P, 2>(p)), t[I]));
}

/// ab * bc, the pose of C in A, with bc as P states it (ab dense).
template <typename P, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Transform<Scalar> compose(const Transform<Scalar>& ab,
                                                        const Transform<Scalar>& bc) {
  if constexpr (is_dense_pattern<P>()) {
    return ab * bc;
  } else {
    const Matrix3<Scalar>& a = ab.rotation;
    const Matrix3<Scalar>& b = bc.rotation;
    Transform<Scalar> out;  // entry by entry: g++ may leave a comma initializer's calls out of line
    out.rotation(0, 0) = mul_entry<P, 0, 0>(a, b);
    out.rotation(0, 1) = mul_entry<P, 0, 1>(a, b);
    out.rotation(0, 2) = mul_entry<P, 0, 2>(a, b);
    out.rotation(1, 0) = mul_entry<P, 1, 0>(a, b);
    out.rotation(1, 1) = mul_entry<P, 1, 1>(a, b);
    out.rotation(1, 2) = mul_entry<P, 1, 2>(a, b);
    out.rotation(2, 0) = mul_entry<P, 2, 0>(a, b);
    out.rotation(2, 1) = mul_entry<P, 2, 1>(a, b);
    out.rotation(2, 2) = mul_entry<P, 2, 2>(a, b);
    out.translation[0] = affine_row<P, 0>(a, bc.translation, ab.translation);
    out.translation[1] = affine_row<P, 1>(a, bc.translation, ab.translation);
    out.translation[2] = affine_row<P, 2>(a, bc.translation, ab.translation);
    return out;
  }
}

/// out = base + X^* in X^{-1}: the inertia `in`, expressed in frame B, expressed in A given
/// x = pose of B in A, with x as P states it (Inertia::transformed_by's formulas, RBDA eq. 2.66,
///   h' = R h + m p,  I_O' = R I_O R^T + (m p.p + 2 p.Rh) 1 - (m p p^T + p Rh^T + Rh p^T)),
/// plus `base`. Every entry of `out` is stored once, with its final value: CRBA's
/// I^c_p = I_p + X^* I^c_i X^{-1} (RBDA Table 6.2) needs no temporary inertia and no read-back
/// of `out`, which g++ turns into stack copies and failed store-to-load forwards. `out` may
/// alias `base` but not `in`.
template <typename P, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void transform_inertia_into(const Inertia<Scalar>& in,
                                                          const Transform<Scalar>& x,
                                                          const Inertia<Scalar>& base,
                                                          Inertia<Scalar>& out) {
  const auto put = [](Scalar& dst, const Scalar& base_entry, const auto& value)
                       CHAINDYN_ALWAYS_INLINE { dst = base_entry + value_of<Scalar>(value); };
  // every pattern, the dense one included (the arithmetic of Inertia::transformed_by)
  const Matrix3<Scalar>& r = x.rotation;
  const Vector3<Scalar>& p = x.translation;
  const Scalar m = in.mass;
  const Vector3<Scalar> rh = mul<P>(r, in.first_moment);
  // m p, by component (zero where p is)
  const auto mp = [&](auto k) CHAINDYN_ALWAYS_INLINE { return smul(tr<P, k>(p), m); };
  const std::integral_constant<int, 0> k0;
  const std::integral_constant<int, 1> k1;
  const std::integral_constant<int, 2> k2;
  const auto diag = sadd(
      sdot(tr<P, 0>(p), mp(k0), tr<P, 1>(p), mp(k1), tr<P, 2>(p), mp(k2)),
      smul(Scalar(2), sdot(tr<P, 0>(p), rh[0], tr<P, 1>(p), rh[1], tr<P, 2>(p), rh[2])));
  // R I_O R^T: t = R I_O, then out(i, j) = t(i, .) . R(j, .) for j >= i (rotate_symmetric)
  const Matrix3<Scalar>& s = in.rotational;
  Matrix3<Scalar> t;
  for3([&](auto j) CHAINDYN_ALWAYS_INLINE {
    for3([&](auto i) CHAINDYN_ALWAYS_INLINE {
      t(int(i), int(j)) = value_of<Scalar>(sdot(rot<P, i, 0>(r), s(0, int(j)), rot<P, i, 1>(r),
                                               s(1, int(j)), rot<P, i, 2>(r), s(2, int(j))));
    });
  });
  // every read of `in` is above this line: `out` may be stored from here on
  put(out.mass, base.mass, m);
  for3([&](auto k) CHAINDYN_ALWAYS_INLINE {
    put(out.first_moment[int(k)], base.first_moment[int(k)],
        sadd(rh[int(k)], smul(m, tr<P, k>(p))));
  });
  for3([&](auto i) CHAINDYN_ALWAYS_INLINE {
    for3([&](auto j) CHAINDYN_ALWAYS_INLINE {
      if constexpr (j >= i) {
        const auto rot_ij =
            sdot(t(int(i), 0), rot<P, j, 0>(r), t(int(i), 1), rot<P, j, 1>(r), t(int(i), 2),
                 rot<P, j, 2>(r));
        // m p_i p_j + p_i Rh_j + Rh_i p_j
        const auto shift = sadd(sadd(smul(mp(i), tr<P, j>(p)), smul(tr<P, i>(p), rh[int(j)])),
                                smul(rh[int(i)], tr<P, j>(p)));
        const auto value = ssub(rot_ij, shift);
        if constexpr (i == j) {
          put(out.rotational(int(i), int(i)), base.rotational(int(i), int(i)), sadd(value, diag));
        } else {
          const Scalar v = value_of<Scalar>(value);
          put(out.rotational(int(i), int(j)), base.rotational(int(i), int(j)), v);
          put(out.rotational(int(j), int(i)), base.rotational(int(j), int(i)), v);
        }
      }
    });
  });
}

}  // namespace detail
}  // namespace chaindyn

CHAINDYN_FP_CONTRACT_END
