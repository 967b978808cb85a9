/// @file
/// Transforms, links and payloads in another scalar type: cast_transform, cast_link,
/// cast_payload (what Chain::cast uses; it carries the link frames and named frames with
/// cast_transform).
#pragma once

#include "chaindyn/model/payload.hpp"

#include <type_traits>

namespace chaindyn {

namespace detail {

/// One number in another scalar type: direct conversion where the types allow it (double to
/// long double, float or AutoDiffScalar, and back between the built-in types), otherwise
/// through the value (an AutoDiffScalar's derivatives are dropped).
template <typename To, typename From>
To scalar_cast(const From& x) {
  if constexpr (std::is_constructible_v<To, const From&>) {
    return To(x);
  } else {
    return To(scalar_value(x));
  }
}

template <typename To, typename Derived>
Eigen::Matrix<To, Derived::RowsAtCompileTime, Derived::ColsAtCompileTime> matrix_cast(
    const Eigen::MatrixBase<Derived>& m) {
  Eigen::Matrix<To, Derived::RowsAtCompileTime, Derived::ColsAtCompileTime> out(m.rows(),
                                                                                m.cols());
  for (Eigen::Index j = 0; j < m.cols(); ++j) {
    for (Eigen::Index i = 0; i < m.rows(); ++i) out(i, j) = scalar_cast<To>(m(i, j));
  }
  return out;
}

}  // namespace detail

/// A transform in another scalar type, number by number.
template <typename To, typename From>
Transform<To> cast_transform(const Transform<From>& t) {
  return Transform<To>(detail::matrix_cast<To>(t.rotation), detail::matrix_cast<To>(t.translation));
}

/// A link in another scalar type (e.g. double to float, long double or an AutoDiffScalar), every
/// member carried (name, placement, axis, inertial parameters, joint dynamics, limits, joint
/// name), number by number (see detail::scalar_cast).
template <typename To, typename From>
Link<To> cast_link(const Link<From>& l) {
  Link<To> out;
  out.name = l.name;
  out.placement = cast_transform<To>(l.placement);
  if (l.axis) out.axis = detail::matrix_cast<To>(*l.axis);
  out.mass = detail::scalar_cast<To>(l.mass);
  out.com = detail::matrix_cast<To>(l.com);
  out.inertia = detail::matrix_cast<To>(l.inertia);
  out.dynamics.damping = detail::scalar_cast<To>(l.dynamics.damping);
  out.dynamics.friction = detail::scalar_cast<To>(l.dynamics.friction);
  out.dynamics.armature = detail::scalar_cast<To>(l.dynamics.armature);
  if (l.limits) {
    JointLimits<To> lim;
    lim.lower = detail::scalar_cast<To>(l.limits->lower);
    lim.upper = detail::scalar_cast<To>(l.limits->upper);
    lim.velocity = detail::scalar_cast<To>(l.limits->velocity);
    lim.effort = detail::scalar_cast<To>(l.limits->effort);
    out.limits = lim;
  }
  out.joint_name = l.joint_name;
  return out;
}

/// A payload in another scalar type, number by number.
template <typename To, typename From>
Payload<To> cast_payload(const Payload<From>& p) {
  Payload<To> out;
  out.mass = detail::scalar_cast<To>(p.mass);
  out.com = detail::matrix_cast<To>(p.com);
  out.inertia = detail::matrix_cast<To>(p.inertia);
  return out;
}

}  // namespace chaindyn
