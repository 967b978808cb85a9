/// @file
/// What every joint type shares: its kind, its slot in a chain type and the checks of the axis a
/// link gives it.
#pragma once

#include "chaindyn/error.hpp"
#include "chaindyn/spatial/inertia.hpp"
#include "chaindyn/spatial/sincos.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace chaindyn {

enum class JointKind { revolute, prismatic };

/// What each joint kind is, in one table (one row per JointKind, in its order): the builders,
/// the URDF parser, the regularity check and the tools read these instead of switching on the
/// kind. A new 1-DoF kind adds a row (docs/extending.md).
struct JointKindInfo {
  JointKind kind;
  const char* name;        ///< in messages, URDF reports and Python ("revolute")
  bool rotates;            ///< S = (a; 0), a rotation about the axis; else (0; a), a translation
  const char* type_z;      ///< the joint type with the axis z in its type ("RevoluteZ")
  const char* type_axis;   ///< the joint type with the axis given per link ("Revolute")
};
inline constexpr JointKindInfo joint_kinds[] = {
    {JointKind::revolute, "revolute", true, "RevoluteZ", "Revolute"},
    {JointKind::prismatic, "prismatic", false, "PrismaticZ", "Prismatic"},
};

/// The row of `k` in joint_kinds.
constexpr const JointKindInfo& kind_info(JointKind k) { return joint_kinds[int(k)]; }

inline const char* kind_name(JointKind k) { return kind_info(k).name; }

/// What a joint of a chain type is, as its model's static members say: its kind, and the
/// coordinate axis fixed in its type (0: x, 1: y, 2: z) or -1 when the axis is given per link
/// at run time (Revolute, Prismatic). A chain type lists them with `joint_slots()`.
struct JointSlot {
  JointKind kind = JointKind::revolute;
  int axis = -1;
};

/// The slot of a joint model type (Joint::model<Scalar>).
template <typename JointModel>
constexpr JointSlot slot_of() {
  return JointSlot{JointModel::kind, JointModel::fixed_axis};
}

namespace detail {

template <typename Scalar>
std::string format_vector(const Vector3<Scalar>& v) {
  std::ostringstream os;
  os << '(' << scalar_value(v.x()) << ", " << scalar_value(v.y()) << ", " << scalar_value(v.z())
     << ')';
  return os.str();
}

/// A runtime axis: present, finite and non-zero; returned normalized.
template <typename Scalar>
Vector3<Scalar> checked_unit_axis(const std::optional<Vector3<Scalar>>& axis,
                                  const std::string& where, const char* kind) {
  if (!axis) {
    throw_model_error(where, ": a ", kind, " joint needs an axis (Link::axis is empty)");
  }
  const Vector3<Scalar>& a = *axis;
  double largest = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double c = scalar_value(a[k]);
    if (!std::isfinite(c)) {
      throw_model_error(where, ": joint axis ", format_vector(a), " is not finite");
    }
    largest = std::max(largest, std::abs(c));
  }
  double scaled2 = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double c = largest > 0.0 ? scalar_value(a[k]) / largest : 0.0;
    scaled2 += c * c;
  }
  if (!(largest * std::sqrt(scaled2) > 1e-12)) {
    throw_model_error(where, ": joint axis ", format_vector(a), " is zero");
  }
  // scaled by its largest entry first, so that the squared norm of (1e300, 1e300, 0) does not
  // overflow to a zero axis
  using std::sqrt;
  const Vector3<Scalar> s = a / Scalar(largest);
  return s / sqrt(s.squaredNorm());
}

/// An axis given to a joint whose axis is in its type must be that axis (any positive length).
template <int K, typename Scalar>
void check_fixed_axis(const std::optional<Vector3<Scalar>>& axis, const std::string& where,
                      const char* kind) {
  if (!axis) return;
  const Vector3<Scalar> a = checked_unit_axis(axis, where, kind);
  const double along = scalar_value(a[K]);
  if (!(std::abs(along - 1.0) < 1e-9)) {
    static constexpr const char* names[] = {"X", "Y", "Z"};
    throw_model_error(where, ": joint axis ", format_vector(*axis), " given to a ", kind,
                      names[K], " joint, whose axis is ", names[K],
                      "; use ", kind, " for an arbitrary axis");
  }
}

}  // namespace detail
}  // namespace chaindyn
