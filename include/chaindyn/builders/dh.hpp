/// @file
/// Denavit–Hartenberg tables to chains: the standard convention (Denavit and Hartenberg 1955,
/// as in Paul, Spong, Siciliano, Corke's `DHRobot`, UR's and RoboAnalyzer's tables) and the
/// modified one (Craig, *Introduction to Robotics*, 3rd ed., sec. 3.4; Franka's table).
///
/// With Rz, Rx rotations and Tz, Tx translations along the named axis of the current frame,
/// the pose of DH frame i in DH frame i-1 is
///
///     standard:  Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i)          joint i moves about z_{i-1}
///     modified:  Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i)  joint i moves about z_i
///
/// with theta_i = q_i + theta (revolute row) or d_i = q_i + d (prismatic row). A `DHRow` holds
/// the four numbers of one joint as the table prints them on that joint's line: for the
/// standard form (a_i, alpha_i, d_i, theta_i), for the modified form Craig's
/// (a_{i-1}, alpha_{i-1}, d_i, theta_i).
///
/// How the rows become chaindyn links (the link frame is the joint frame after the joint's
/// motion, the joint turns about / slides along z of its joint frame), see docs/dh.md:
///
/// - modified: link frame i IS Craig's frame i. placement_i = Rx(alpha) Tx(a) Rz(theta) Tz(d)
///   (theta, d the row's constants), joint motion Rz(q) or Tz(q) after it (they commute with
///   Rz(theta) Tz(d)). The row's inertia is taken as it is. flange = tool.
/// - standard: joint i turns about z_{i-1}, so link frame i is L_i = F_{i-1} Rz(theta_i) Tz(d_i)
///   and DH frame F_i = L_i E_i with the constant E_i = Tx(a_i) Rx(alpha_i). Hence
///   placement_i = E_{i-1} Rz(theta) Tz(d) (E_0 = identity: the base is DH frame 0), the row's
///   centre of mass and inertia (given in F_i) are moved into L_i (c_L = E_i c, I_L = R I R^T with
///   R = Rx(alpha_i)), and the last E_n becomes the fixed flange: DH frame n (the tool frame of
///   the table) in the last link frame, flange = E_n * tool.
///
/// Either way the table's tool frame at q is `forward_kinematics(chain, q).back() * flange`.
#pragma once

#include "chaindyn/model/chain.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <utility>

namespace chaindyn {

/// One row of a DH table: the joint's four parameters, its kind, the inertia of the link it
/// moves and its joint dynamics.
///
/// - `a`, `alpha`, `d`, `theta` (m, rad): standard form: a_i, alpha_i, d_i, theta_i; modified
///   form: a_{i-1}, alpha_{i-1}, d_i, theta_i (Craig's row i), see the file comment.
/// - revolute row: theta_i = q_i + theta (theta is the joint offset, the angle at q = 0);
///   prismatic row: d_i = q_i + d.
/// - `mass`, `com`, `inertia` (kg, m, kg m^2): the link moved by this joint, in DH frame i of
///   the table's convention (standard: the frame at the link's distal end, whose z is the next
///   joint's axis; modified: the frame at this joint); `inertia` about the centre of mass in
///   that frame's axes.
/// - `dynamics`: damping, Coulomb friction, armature of this joint (see JointDynamics).
template <typename Scalar>
struct DHRow {
  Scalar a = Scalar(0);
  Scalar alpha = Scalar(0);
  Scalar d = Scalar(0);
  Scalar theta = Scalar(0);
  JointKind kind = JointKind::revolute;
  Scalar mass = Scalar(0);
  Vector3<Scalar> com = Vector3<Scalar>::Zero();
  Matrix3<Scalar> inertia = Matrix3<Scalar>::Zero();
  JointDynamics<Scalar> dynamics;
  std::string name;

  /// A revolute row: theta_i = q_i + theta_offset.
  static DHRow revolute(const Scalar& a_, const Scalar& alpha_, const Scalar& d_,
                        const Scalar& theta_offset = Scalar(0)) {
    DHRow r;
    r.a = a_;
    r.alpha = alpha_;
    r.d = d_;
    r.theta = theta_offset;
    r.kind = JointKind::revolute;
    return r;
  }
  /// A prismatic row: d_i = q_i + d_offset.
  static DHRow prismatic(const Scalar& a_, const Scalar& alpha_, const Scalar& d_offset,
                         const Scalar& theta_ = Scalar(0)) {
    DHRow r = revolute(a_, alpha_, d_offset, theta_);
    r.kind = JointKind::prismatic;
    return r;
  }
  /// This row with the link's mass, centre of mass and inertia about it (DH frame i).
  DHRow with_inertia(const Scalar& mass_, const Vector3<Scalar>& com_,
                     const Matrix3<Scalar>& inertia_) const {
    DHRow r = *this;
    r.mass = mass_;
    r.com = com_;
    r.inertia = inertia_;
    return r;
  }
  /// This row with the joint's damping, friction and armature.
  DHRow with_dynamics(const JointDynamics<Scalar>& dynamics_) const {
    DHRow r = *this;
    r.dynamics = dynamics_;
    return r;
  }
  /// This row with a name (becomes the link's name; errors quote it).
  DHRow named(std::string name_) const {
    DHRow r = *this;
    r.name = std::move(name_);
    return r;
  }
};

/// The links a DH table describes and the fixed flange (the table's tool frame in the last link
/// frame): tool pose = oMi[N-1] * flange.
template <typename Scalar, int N>
struct DHLinks {
  PerLinkArray<Link<Scalar>, N> links;
  Transform<Scalar> flange = Transform<Scalar>::Identity();
};

/// A chain built from a DH table and its flange (tool pose = oMi[nq-1] * flange).
template <typename Model>
struct DHChain {
  Model chain;
  Transform<typename Model::Scalar> flange;

  /// The table's tool frame in the base frame, given the last link's pose (e.g.
  /// `forward_kinematics(arm.chain, q).back()` or `data.oMi[nq-1]`).
  Transform<typename Model::Scalar> tool_pose(
      const Transform<typename Model::Scalar>& last_link_pose) const {
    return last_link_pose * flange;
  }
};

namespace dh {

/// Rotation about x by `angle`.
template <typename Scalar>
Matrix3<Scalar> rot_x(const Scalar& angle) {
  using std::cos;
  using std::sin;
  const Scalar c = cos(angle), s = sin(angle);
  Matrix3<Scalar> r;
  r << Scalar(1), Scalar(0), Scalar(0),  //
      Scalar(0), c, -s,                  //
      Scalar(0), s, c;
  return r;
}

/// Rotation about z by `angle`.
template <typename Scalar>
Matrix3<Scalar> rot_z(const Scalar& angle) {
  using std::cos;
  using std::sin;
  const Scalar c = cos(angle), s = sin(angle);
  Matrix3<Scalar> r;
  r << c, -s, Scalar(0),  //
      s, c, Scalar(0),    //
      Scalar(0), Scalar(0), Scalar(1);
  return r;
}

/// Rz(theta) Tz(d): rotation about z, then translation along the new (same) z.
template <typename Scalar>
Transform<Scalar> z_screw(const Scalar& theta, const Scalar& d) {
  return Transform<Scalar>(rot_z(theta), Vector3<Scalar>(Scalar(0), Scalar(0), d));
}

/// Tx(a) Rx(alpha) (= Rx(alpha) Tx(a)).
template <typename Scalar>
Transform<Scalar> x_screw(const Scalar& a, const Scalar& alpha) {
  return Transform<Scalar>(rot_x(alpha), Vector3<Scalar>(a, Scalar(0), Scalar(0)));
}

/// Standard DH: the pose of frame i in frame i-1, Rz(theta) Tz(d) Tx(a) Rx(alpha).
template <typename Scalar>
Transform<Scalar> standard_transform(const Scalar& a, const Scalar& alpha, const Scalar& d,
                                     const Scalar& theta) {
  return z_screw(theta, d) * x_screw(a, alpha);
}

/// Modified (Craig) DH: the pose of frame i in frame i-1, Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i)
/// Tz(d_i).
template <typename Scalar>
Transform<Scalar> modified_transform(const Scalar& a, const Scalar& alpha, const Scalar& d,
                                     const Scalar& theta) {
  return x_screw(a, alpha) * z_screw(theta, d);
}

namespace detail {

using chaindyn::detail::all_finite;
using chaindyn::detail::throw_model_error;

template <typename Scalar>
std::string row_label(std::size_t i, const DHRow<Scalar>& row) {
  std::ostringstream os;
  os << "DH row " << i;
  if (!row.name.empty()) os << " ('" << row.name << "')";
  return os.str();
}

/// Non-finite numbers in a row, named (the chain checks the physics of the resulting link).
template <typename Scalar>
void check_row(std::size_t i, const DHRow<Scalar>& row) {
  using chaindyn::detail::scalar_value;
  const std::pair<const char*, double> numbers[] = {
      {"a", scalar_value(row.a)},        {"alpha", scalar_value(row.alpha)},
      {"d", scalar_value(row.d)},        {"theta", scalar_value(row.theta)},
      {"mass", scalar_value(row.mass)}};
  for (const auto& [what, value] : numbers) {
    if (!std::isfinite(value)) {
      throw_model_error(row_label(i, row), ": ", what, " is not finite (", value, ")");
    }
  }
  if (!all_finite(row.com)) {
    throw_model_error(row_label(i, row), ": centre of mass ",
                      chaindyn::detail::format_vector(row.com), " is not finite");
  }
  if (!all_finite(row.inertia)) {
    throw_model_error(row_label(i, row), ": inertia is not finite");
  }
}

/// Every row's kind matches the chain's joint there, and that joint moves about / along z.
template <typename Model, std::size_t N>
void check_joint_types(const std::array<DHRow<typename Model::Scalar>, N>& rows) {
  static_assert(int(N) == Model::nq, "a DH table has one row per joint of the chain");
  constexpr auto slots = Model::joint_slots();
  for (std::size_t i = 0; i < N; ++i) {
    const JointKind kind = slots[i].kind;
    const bool about_z = slots[i].axis < 0 || slots[i].axis == 2;  // a run-time axis takes z
    const JointKindInfo& wanted = kind_info(rows[i].kind);
    if (kind != rows[i].kind) {
      throw_model_error(row_label(i, rows[i]), ": a ", kind_name(rows[i].kind),
                        " row, but joint ", i, " of the chain type is ", kind_name(kind),
                        "; use ", wanted.type_z, " (or ", wanted.type_axis, ")");
    }
    if (!about_z) {
      throw_model_error(row_label(i, rows[i]), ": DH joints move about/along z of their frame",
                        ", but joint ", i, " of the chain type has a fixed x or y axis; use ",
                        wanted.type_z, " (or ", wanted.type_axis, ")");
    }
  }
}

template <typename Scalar>
Link<Scalar> bare_link(const DHRow<Scalar>& row, const Transform<Scalar>& placement) {
  Link<Scalar> l;
  l.name = row.name;
  l.placement = placement;
  l.axis = Vector3<Scalar>::UnitZ();
  l.mass = row.mass;
  l.com = row.com;
  l.inertia = row.inertia;
  l.dynamics = row.dynamics;
  return l;
}

}  // namespace detail

/// Links of a standard-DH table (see the file comment): link frame i is DH frame i-1 turned by
/// the joint, each row's inertia is moved from DH frame i into it, and flange = Tx(a_n)
/// Rx(alpha_n) * tool. Throws ModelError on non-finite numbers, naming the row.
namespace detail {
/// standard_links on rows[0 .. n-1], into out.links (sized n).
template <typename Scalar, typename Out>
void standard_links_into(const DHRow<Scalar>* rows, std::size_t n, const Transform<Scalar>& tool,
                         Out& out) {
  Transform<Scalar> previous_e = Transform<Scalar>::Identity();  // E_{i-1}, E_0 = 1
  for (std::size_t i = 0; i < n; ++i) {
    const DHRow<Scalar>& row = rows[i];
    detail::check_row(i, row);
    Link<Scalar> l = detail::bare_link(row, previous_e * z_screw(row.theta, row.d));
    const Transform<Scalar> e = x_screw(row.a, row.alpha);  // DH frame i in link frame i
    l.com = e.act_point(row.com);
    l.inertia = e.rotation * row.inertia * e.rotation.transpose();
    out.links[i] = l;
    previous_e = e;
  }
  out.flange = previous_e * tool;
}
/// modified_links on rows[0 .. n-1], into out.links (sized n).
template <typename Scalar, typename Out>
void modified_links_into(const DHRow<Scalar>* rows, std::size_t n, const Transform<Scalar>& tool,
                         Out& out) {
  for (std::size_t i = 0; i < n; ++i) {
    const DHRow<Scalar>& row = rows[i];
    detail::check_row(i, row);
    out.links[i] = detail::bare_link(row, modified_transform(row.a, row.alpha, row.d, row.theta));
  }
  out.flange = tool;
}
}  // namespace detail

template <typename Scalar, std::size_t N>
DHLinks<Scalar, int(N)> standard_links(const std::array<DHRow<Scalar>, N>& rows,
                                       const Transform<Scalar>& tool =
                                           Transform<Scalar>::Identity()) {
  DHLinks<Scalar, int(N)> out;
  detail::standard_links_into(rows.data(), N, tool, out);
  return out;
}

/// Links of a modified-DH (Craig) table: link frame i is Craig's frame i, placement_i =
/// Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta) Tz(d), the inertia as given, flange = tool. Throws
/// ModelError on non-finite numbers, naming the row.
template <typename Scalar, std::size_t N>
DHLinks<Scalar, int(N)> modified_links(const std::array<DHRow<Scalar>, N>& rows,
                                       const Transform<Scalar>& tool =
                                           Transform<Scalar>::Identity()) {
  DHLinks<Scalar, int(N)> out;
  detail::modified_links_into(rows.data(), N, tool, out);
  return out;
}

/// The chain `Model` (joints RevoluteZ/PrismaticZ, or Revolute/Prismatic which get the z axis)
/// of a standard-DH table, and its flange. Throws ModelError naming the row when a number is not
/// finite or a row's kind does not match the chain's joint type, and naming the link when the
/// chain refuses a link (e.g. an inertia that is not physical).
///
///     using Arm = chaindyn::ChainN<double, 2, chaindyn::RevoluteZ>;
///     const auto arm = chaindyn::dh::standard<Arm>({{
///         DHRow<double>::revolute(1.0, 0, 0).with_inertia(m1, c1, I1),
///         DHRow<double>::revolute(0.5, 0, 0).with_inertia(m2, c2, I2)}});
///     const auto tool = arm.tool_pose(forward_kinematics(arm.chain, q).back());
template <typename Model>
DHChain<Model> standard(
    const std::array<DHRow<typename Model::Scalar>, std::size_t(Model::nq)>& rows,
    const Transform<typename Model::Scalar>& tool =
        Transform<typename Model::Scalar>::Identity(),
    const Vector3<typename Model::Scalar>& gravity = default_gravity<typename Model::Scalar>()) {
  detail::check_joint_types<Model>(rows);
  const auto built = standard_links(rows, tool);
  return DHChain<Model>{Model(built.links, gravity), built.flange};
}

/// The chain `Model` of a modified-DH (Craig) table, and its flange (= tool). Errors as for
/// standard().
template <typename Model>
DHChain<Model> modified(
    const std::array<DHRow<typename Model::Scalar>, std::size_t(Model::nq)>& rows,
    const Transform<typename Model::Scalar>& tool =
        Transform<typename Model::Scalar>::Identity(),
    const Vector3<typename Model::Scalar>& gravity = default_gravity<typename Model::Scalar>()) {
  detail::check_joint_types<Model>(rows);
  const auto built = modified_links(rows, tool);
  return DHChain<Model>{Model(built.links, gravity), built.flange};
}

namespace detail {
template <typename Scalar, typename Fill>
DHChain<ChainX<Scalar>> any_chain(const std::vector<DHRow<Scalar>>& rows,
                                  const Vector3<Scalar>& gravity, Fill fill) {
  if (rows.empty()) throw_model_error("a DH table needs at least one row");
  DHLinks<Scalar, Eigen::Dynamic> built;
  built.links.resize(rows.size());
  fill(built);
  std::vector<JointKind> kinds;
  for (const DHRow<Scalar>& r : rows) kinds.push_back(r.kind);
  return DHChain<ChainX<Scalar>>{ChainX<Scalar>(built.links, kinds, gravity), built.flange};
}
}  // namespace detail

/// The runtime-sized chain (ChainX) of a standard-DH table of any length: each row's kind
/// (revolute or prismatic) and the z axis. Errors as for standard().
template <typename Scalar>
DHChain<ChainX<Scalar>> standard_any(
    const std::vector<DHRow<Scalar>>& rows,
    const Transform<Scalar>& tool = Transform<Scalar>::Identity(),
    const Vector3<Scalar>& gravity = default_gravity<Scalar>()) {
  return detail::any_chain(rows, gravity, [&](auto& built) {
    detail::standard_links_into(rows.data(), rows.size(), tool, built);
  });
}

/// The runtime-sized chain (ChainX) of a modified-DH (Craig) table of any length.
template <typename Scalar>
DHChain<ChainX<Scalar>> modified_any(
    const std::vector<DHRow<Scalar>>& rows,
    const Transform<Scalar>& tool = Transform<Scalar>::Identity(),
    const Vector3<Scalar>& gravity = default_gravity<Scalar>()) {
  return detail::any_chain(rows, gravity, [&](auto& built) {
    detail::modified_links_into(rows.data(), rows.size(), tool, built);
  });
}

namespace detail {
/// prod_i row_transform(a_i, alpha_i, d_i, theta_i) * tool with the joint coordinate added to
/// theta (revolute rows) or d (prismatic rows).
template <typename Scalar, std::size_t N, typename Derived, typename RowTransform>
Transform<Scalar> dh_pose(const std::array<DHRow<Scalar>, N>& rows,
                          const Eigen::MatrixBase<Derived>& q, const Transform<Scalar>& tool,
                          RowTransform row_transform) {
  static_assert(Derived::SizeAtCompileTime == int(N), "one coordinate per DH row");
  Transform<Scalar> x = Transform<Scalar>::Identity();
  for (std::size_t i = 0; i < N; ++i) {
    const DHRow<Scalar>& r = rows[i];
    const Scalar qi = q[Eigen::Index(i)];
    x = x * (r.kind == JointKind::revolute ? row_transform(r.a, r.alpha, r.d, r.theta + qi)
                                           : row_transform(r.a, r.alpha, r.d + qi, r.theta));
  }
  return x * tool;
}
}  // namespace detail

/// The table's tool frame at q straight from the standard-DH product
/// prod_i Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i) * tool, no chain involved (pure kinematics,
/// e.g. for a table without inertias).
template <typename Scalar, std::size_t N, typename Derived>
Transform<Scalar> standard_pose(const std::array<DHRow<Scalar>, N>& rows,
                                const Eigen::MatrixBase<Derived>& q,
                                const Transform<Scalar>& tool = Transform<Scalar>::Identity()) {
  return detail::dh_pose(rows, q, tool,
                         [](const auto&... p) { return standard_transform(p...); });
}

/// The table's tool frame at q from the modified-DH product
/// prod_i Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i) * tool.
template <typename Scalar, std::size_t N, typename Derived>
Transform<Scalar> modified_pose(const std::array<DHRow<Scalar>, N>& rows,
                                const Eigen::MatrixBase<Derived>& q,
                                const Transform<Scalar>& tool = Transform<Scalar>::Identity()) {
  return detail::dh_pose(rows, q, tool,
                         [](const auto&... p) { return modified_transform(p...); });
}

}  // namespace dh
}  // namespace chaindyn
