/// @file
/// Placed<Joint, Rotation, Offset>: a joint whose placement (the pose of its joint frame in the
/// parent link frame) has a structure stated in its type, so that every transform between the
/// link and its parent skips the zeros and unit entries at compile time (spatial/pattern.hpp).
///
///     // KUKA iiwa joint 2: placed by Rx(90 deg) Rz(180 deg) at 0.2025 m along z
///     using J2 = Placed<RevoluteZ, SignedAxes<-1, 3, 2>, Offset<false, false, true>>;
///
/// The chain checks each link's placement against the pattern when it is built: an entry the
/// pattern says is 0, 1 or -1 must be within kPatternTolerance of it (ModelError otherwise,
/// naming the link and the entry), and is then set to that value exactly in the placement the
/// algorithms read (Chain::placement; the links as given are kept). chaindyn-urdf2cpp and
/// detail::placement_type_name find the pattern of a placement.
///
/// The link transform liMi = placement * J(q) has a pattern too (link_pattern_t): for a
/// revolute joint about coordinate axis K, column K of the rotation is the placement's column K
/// and the other two columns mix the placement's two other columns; a prismatic joint along K
/// keeps the placement's rotation and moves the translation along its column K. Joints whose
/// axis is given at run time keep their placement's translation pattern only (revolute).
#pragma once

#include "chaindyn/joints/joint_common.hpp"
#include "chaindyn/spatial/pattern.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace chaindyn {

/// How close (absolute) a placement entry must be to the 0, 1 or -1 its pattern states.
inline constexpr double kPatternTolerance = 1e-12;

namespace detail {

/// The pattern of liMi = placement * J(q) for a joint model JM placed with pattern PP.
template <typename JM, typename PP>
struct LinkPatternOf {
  static constexpr std::array<signed char, 9> rotation = [] {
    std::array<signed char, 9> out = PP::rotation;
    constexpr int k = JM::fixed_axis;
    if (JM::kind == JointKind::revolute) {
      if (k < 0) {
        for (signed char& e : out) e = 2;
      } else {
        const int i = (k + 1) % 3, j = (k + 2) % 3;
        for (int r = 0; r < 3; ++r) {
          const bool any = PP::rotation[std::size_t(3 * r + i)] != 0 ||
                           PP::rotation[std::size_t(3 * r + j)] != 0;
          out[std::size_t(3 * r + i)] = out[std::size_t(3 * r + j)] = any ? 2 : 0;
        }
      }
    }
    return out;
  }();
  static constexpr std::array<bool, 3> translation = [] {
    std::array<bool, 3> out = PP::translation;
    constexpr int k = JM::fixed_axis;
    if (JM::kind == JointKind::prismatic) {
      for (int r = 0; r < 3; ++r) {
        if (k < 0 || PP::rotation[std::size_t(3 * r + k)] != 0) out[std::size_t(r)] = true;
      }
    }
    return out;
  }();
};

/// A joint model (revolute.hpp, prismatic.hpp) whose placement has the pattern
/// TransformPattern<Rotation, Offset>.
template <typename JM, typename Scalar, typename Rotation, typename Off>
struct PlacedModel : JM {
  using PlacementPattern = TransformPattern<Rotation, Off>;
  using LinkPattern = LinkPatternOf<JM, PlacementPattern>;

  PlacedModel() = default;
  PlacedModel(const std::optional<Vector3<Scalar>>& axis, const std::string& where)
      : JM(axis, where) {}

  /// Checks `placement` against the pattern and sets the entries it states exactly (see the
  /// file comment); throws ModelError naming `where` and the entry.
  static void conform(Transform<Scalar>& placement, const std::string& where) {
    static const char* const axis_names[] = {"x", "y", "z"};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        const signed char e = PlacementPattern::rotation[std::size_t(3 * r + c)];
        if (e == 2) continue;
        Scalar& x = placement.rotation(r, c);
        if (!(std::abs(scalar_value(x) - double(e)) <= kPatternTolerance)) {
          std::ostringstream os;
          os << "placement rotation entry (" << r << ", " << c << ") is " << scalar_value(x)
             << ", where the joint type's placement pattern states " << int(e)
             << " (to within " << kPatternTolerance
             << "); use AnyRotation, or a pattern that fits";
          throw_model_error(where, ": ", os.str());
        }
        x = Scalar(double(e));
      }
    }
    for (int k = 0; k < 3; ++k) {
      if (PlacementPattern::translation[std::size_t(k)]) continue;
      Scalar& x = placement.translation[k];
      if (!(std::abs(scalar_value(x)) <= kPatternTolerance)) {
        std::ostringstream os;
        os << "placement translation " << axis_names[k] << " is " << scalar_value(x)
           << ", where the joint type's Offset states 0; use AnyOffset, or an Offset that fits";
        throw_model_error(where, ": ", os.str());
      }
      x = Scalar(0);
    }
  }

  /// placement * J(q), computing only the entries the link pattern leaves free.
  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement,
                                                const Scalar& q) const noexcept {
    Scalar s, c;
    sincos_library(q, s, c);
    return pose(placement, q, s, c);
  }
  CHAINDYN_ALWAYS_INLINE Transform<Scalar> pose(const Transform<Scalar>& placement,
                                                const Scalar& q, const Scalar& s,
                                                const Scalar& c) const noexcept {
    using PP = PlacementPattern;
    constexpr int k = JM::fixed_axis;
    if constexpr (k < 0) {
      return JM::pose(placement, q, s, c);
    } else {
      const Matrix3<Scalar>& r = placement.rotation;
      const Vector3<Scalar>& p = placement.translation;
      Transform<Scalar> out;
      if constexpr (JM::kind == JointKind::revolute) {
        // placement * Rot_K(q): column K kept, columns i, j mixed (RevoluteFixedModel::pose)
        constexpr int i = (k + 1) % 3;
        constexpr int j = (k + 2) % 3;
        for3([&](auto row) CHAINDYN_ALWAYS_INLINE {
          out.rotation(int(row), k) = value_of<Scalar>(rot<PP, row, k>(r));
          out.rotation(int(row), i) =
              value_of<Scalar>(sadd(smul(c, rot<PP, row, i>(r)), smul(s, rot<PP, row, j>(r))));
          out.rotation(int(row), j) =
              value_of<Scalar>(ssub(smul(c, rot<PP, row, j>(r)), smul(s, rot<PP, row, i>(r))));
          out.translation[int(row)] = value_of<Scalar>(tr<PP, row>(p));
        });
      } else {
        // placement * Trans(q e_K) (PrismaticFixedModel::pose)
        for3([&](auto row) CHAINDYN_ALWAYS_INLINE {
          for3([&](auto col) CHAINDYN_ALWAYS_INLINE {
            out.rotation(int(row), int(col)) = value_of<Scalar>(rot<PP, row, col>(r));
          });
          out.translation[int(row)] =
              value_of<Scalar>(sadd(tr<PP, row>(p), smul(rot<PP, row, k>(r), q)));
        });
      }
      return out;
    }
  }
};

template <typename JM, typename = void>
struct has_placement_pattern : std::false_type {};
template <typename JM>
struct has_placement_pattern<JM, std::void_t<typename JM::PlacementPattern>> : std::true_type {};

template <typename JM, typename = void>
struct link_pattern {
  using type = DensePattern;
};
template <typename JM>
struct link_pattern<JM, std::void_t<typename JM::LinkPattern>> {
  using type = typename JM::LinkPattern;
};
/// The pattern of link i's transform liMi for its joint model (dense unless Placed).
template <typename JM>
using link_pattern_t = typename link_pattern<JM>::type;

/// The link pattern of a revolute joint about z whose placement maps z to +-e_R: column z of
/// the placement rotation is +-e_R and row R is (0, 0, +-1), as for most joints of a URDF arm.
/// Then liMi = placement * Rz(q) has row R = (0, 0, +-1) and column z zero elsewhere; the other
/// rows are (x, x, 0). The +-1 is read, not assumed (one pattern for both signs). The
/// translation is dense. A joint type that states no placement (RevoluteZ, AnyJoint about z)
/// has it found in the placement when its chain is built (conform_axis_row).
template <int R>
struct AxisRowPattern {
  static constexpr std::array<signed char, 9> rotation = [] {
    std::array<signed char, 9> e{};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) e[std::size_t(3 * r + c)] = (r == R) == (c == 2) ? 2 : 0;
    }
    return e;
  }();
  static constexpr std::array<bool, 3> translation = {true, true, true};
};

/// A type as a value (for the pattern a visitor is called with).
template <typename T>
struct PatternTag {
  using type = T;
};

/// f(PatternTag<AxisRowPattern<r>>) for r = 0, 1, 2, f(PatternTag<Otherwise>) for any other r:
/// one switch.
template <typename Otherwise, typename F>
inline CHAINDYN_ALWAYS_INLINE auto with_axis_row_pattern(int r, F&& f) {
  switch (r) {
    case 0:
      return f(PatternTag<AxisRowPattern<0>>{});
    case 1:
      return f(PatternTag<AxisRowPattern<1>>{});
    case 2:
      return f(PatternTag<AxisRowPattern<2>>{});
    default:
      break;
  }
  return f(PatternTag<Otherwise>{});
}

/// For a revolute joint about z: when column z of `placement`'s rotation is +-e_r to within
/// kPatternTolerance (the joint's axis is a coordinate axis of the parent link), sets that
/// column and row r of the other two columns exactly (+-1 and zeros) and returns r: the link
/// transforms may then take the kernels of AxisRowPattern<r>. Otherwise leaves the placement as
/// it is and returns -1 (dense kernels).
template <typename Scalar>
inline int conform_axis_row(Transform<Scalar>& placement) noexcept {
  Matrix3<Scalar>& m = placement.rotation;
  const auto near = [](const Scalar& x, double v) {
    return std::abs(scalar_value(x) - v) <= kPatternTolerance;
  };
  for (int r = 0; r < 3; ++r) {
    const double sign = scalar_value(m(r, 2)) > 0.0 ? 1.0 : -1.0;
    bool fits = near(m(r, 2), sign) && near(m(r, 0), 0.0) && near(m(r, 1), 0.0);
    for (int o = 0; o < 3 && fits; ++o) fits = o == r || near(m(o, 2), 0.0);
    if (!fits) continue;
    for (int o = 0; o < 3; ++o) m(o, 2) = Scalar(o == r ? sign : 0.0);
    m(r, 0) = m(r, 1) = Scalar(0.0);
    return r;
  }
  return -1;
}

/// Whether a compile-time chain finds an AxisRowPattern in the placement of a joint of model
/// JM when it is built (ChainStorage::axis_row): a revolute joint about z whose type states no
/// placement pattern (RevoluteZ; a Placed joint states its own).
template <typename JM>
constexpr bool takes_axis_row() {
  if constexpr (has_placement_pattern<JM>::value || JM::fixed_axis != 2) {
    return false;
  } else {
    return JM::kind == JointKind::revolute;
  }
}

template <typename Model, typename = void>
struct has_axis_rows : std::false_type {};
template <typename Model>
struct has_axis_rows<Model, std::void_t<decltype(std::declval<const Model&>().axis_row(
                                std::size_t()))>> : std::true_type {};

/// f(PatternTag<the pattern of link i's transform liMi>) for joint i of `model` (`joint`: its
/// joint model): the joint type's (link_pattern_t) where it states one (Placed); for a joint
/// that takes_axis_row, the AxisRowPattern its chain found in link i's placement, chosen by one
/// switch; dense otherwise. (A run-time joint, AnyJointModel, carries its own: any_joint.hpp.)
/// For a transform applied to many vectors, the pattern is chosen once, outside their loop.
template <typename Model, typename JM, typename F>
inline CHAINDYN_ALWAYS_INLINE auto with_link_pattern(const Model& model, std::size_t i,
                                                     const JM&, F&& f) {
  if constexpr (takes_axis_row<JM>() && has_axis_rows<Model>::value) {
    return with_axis_row_pattern<link_pattern_t<JM>>(model.axis_row(i), std::forward<F>(f));
  } else {
    (void)model;
    (void)i;
    return f(PatternTag<link_pattern_t<JM>>{});
  }
}

// The transforms between link i and its parent for joint i of `model` (`joint`: its joint
// model): Featherstone's Xup[i] = liMi.act_inv (motions parent -> link) and its dual
// Xup[i]^T = liMi.act (forces link -> parent), with the pattern of liMi that with_link_pattern
// chooses: the joint type's, the AxisRowPattern its chain found (takes_axis_row: a RevoluteZ
// joint of a compile-time chain), or a run-time joint's own (AnyJointModel): one switch per
// transform where the pattern is known at run time only.

/// Xup_i m: a motion in the parent's coordinates in link i's.
template <typename Model, typename JM, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Motion<Scalar> to_link(const Model& model, std::size_t i,
                                                     const JM& joint,
                                                     const Transform<Scalar>& limi,
                                                     const Motion<Scalar>& m) {
  return with_link_pattern(model, i, joint, [&](auto p) CHAINDYN_ALWAYS_INLINE {
    return act_inv<typename decltype(p)::type>(limi, m);
  });
}
/// Xup_i (0; l): a motion with no angular part (the base acceleration, -gravity) in link i's
/// coordinates: (0; R^T l), the pattern's zeros skipped.
template <typename Model, typename JM, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Vector3<Scalar> linear_to_link(const Model& model, std::size_t i,
                                                             const JM& joint,
                                                             const Transform<Scalar>& limi,
                                                             const Vector3<Scalar>& l) {
  return with_link_pattern(model, i, joint, [&](auto p) CHAINDYN_ALWAYS_INLINE {
    return mul_transpose<typename decltype(p)::type>(limi.rotation, l);
  });
}
/// Xup_i^T f: a force in link i's coordinates in the parent's.
template <typename Model, typename JM, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Force<Scalar> to_parent(const Model& model, std::size_t i,
                                                      const JM& joint,
                                                      const Transform<Scalar>& limi,
                                                      const Force<Scalar>& f) {
  return with_link_pattern(model, i, joint, [&](auto p) CHAINDYN_ALWAYS_INLINE {
    return act<typename decltype(p)::type>(limi, f);
  });
}
/// out = base + Xup_i^T I Xup_i, each entry of `out` stored once (CRBA's composite inertia of
/// the parent, I^c_p = I_p + Xup_i^T I^c_i Xup_i); `out` may alias `base`, not `in`.
template <typename Model, typename JM, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE void to_parent_plus(const Model& model, std::size_t i,
                                                  const JM& joint,
                                                  const Transform<Scalar>& limi,
                                                  const Inertia<Scalar>& in,
                                                  const Inertia<Scalar>& base,
                                                  Inertia<Scalar>& out) {
  with_link_pattern(model, i, joint, [&](auto p) CHAINDYN_ALWAYS_INLINE {
    transform_inertia_into<typename decltype(p)::type>(in, limi, base, out);
  });
}

/// Whether compose takes a pattern known at run time only (a run-time joint's, or the one a
/// compile-time chain found for a RevoluteZ joint): with clang++. With g++ the switch made the
/// base-coordinate passes slower than the dense product (docs/benchmarks.md, "AxisRowPattern").
inline constexpr bool kPatternedCompose = kClangCompiler;

/// oMp * liMi: link i's pose in the base frame from its parent's (where kPatternedCompose with
/// the pattern with_link_pattern chooses, otherwise with the joint type's: dense unless Placed).
template <typename Model, typename JM, typename Scalar>
inline CHAINDYN_ALWAYS_INLINE Transform<Scalar> compose(const Model& model, std::size_t i,
                                                        const JM& joint,
                                                        const Transform<Scalar>& parent,
                                                        const Transform<Scalar>& limi) {
  if constexpr (kPatternedCompose) {
    return with_link_pattern(model, i, joint, [&](auto p) CHAINDYN_ALWAYS_INLINE {
      return compose<typename decltype(p)::type>(parent, limi);
    });
  } else {
    (void)model;
    (void)i;
    (void)joint;
    return compose<link_pattern_t<JM>>(parent, limi);
  }
}

/// The C++ type of a placement rotation's pattern: SignedAxes<...> when every entry is within
/// `tolerance` of 0 or +-1 (a proper rotation), AboutAxis<K> for a rotation about coordinate
/// axis K, else AnyRotation.
inline std::string rotation_pattern_name(const Eigen::Matrix3d& r, double tolerance = kPatternTolerance) {
  const auto near = [&](double x, double v) { return std::abs(x - v) <= tolerance; };
  int axes[3] = {0, 0, 0};
  bool signed_axes = true;
  for (int c = 0; c < 3 && signed_axes; ++c) {
    int found = 0;
    for (int row = 0; row < 3; ++row) {
      const double x = r(row, c);
      if (near(x, 1.0) || near(x, -1.0)) {
        if (found) signed_axes = false;
        found = (x > 0 ? 1 : -1) * (row + 1);
      } else if (!near(x, 0.0)) {
        signed_axes = false;
      }
    }
    if (!found) signed_axes = false;
    axes[c] = found;
  }
  if (signed_axes && r.determinant() > 0.0) {
    std::ostringstream os;
    os << "chaindyn::SignedAxes<" << axes[0] << ", " << axes[1] << ", " << axes[2] << ">";
    return os.str();
  }
  for (int k = 0; k < 3; ++k) {
    bool about = near(r(k, k), 1.0);
    for (int m = 0; m < 3 && about; ++m) {
      if (m != k && !(near(r(k, m), 0.0) && near(r(m, k), 0.0))) about = false;
    }
    if (about) return "chaindyn::AboutAxis<" + std::to_string(k) + ">";
  }
  return "chaindyn::AnyRotation";
}

/// The C++ type of a placement translation's pattern: Offset<x, y, z> with false where the
/// component is within `tolerance` of zero.
inline std::string offset_pattern_name(const Eigen::Vector3d& p, double tolerance = kPatternTolerance) {
  std::string out = "chaindyn::Offset<";
  for (int k = 0; k < 3; ++k) {
    out += std::abs(p[k]) <= tolerance ? "false" : "true";
    out += k < 2 ? ", " : ">";
  }
  return out;
}

}  // namespace detail

/// Joint `Joint` (RevoluteZ, PrismaticX, Revolute, ...) whose placement has the structure
/// Rotation (SignedAxes<...>, AboutAxis<K>, AnyRotation) and Offset (Offset<x, y, z>,
/// AnyOffset, NoOffset); see the file comment.
template <typename Joint, typename Rotation, typename Off = AnyOffset>
struct Placed {
  template <typename Scalar>
  using model =
      detail::PlacedModel<typename Joint::template model<Scalar>, Scalar, Rotation, Off>;
};

}  // namespace chaindyn
