/// @file
/// A built-in KUKA LBR iiwa 7 R800: seven revolute joints, each about the z axis of its joint
/// frame.
///
///     const auto arm = chaindyn::robots::kuka_iiwa();   // KukaIiwa<double>
///     const auto g = chaindyn::gravity_torques(arm, q);
///
/// ## Source of the numbers
///
/// Drake (RobotLocomotion/drake on GitHub), file
///   manipulation/models/iiwa_description/iiwa7/iiwa7_no_collision.sdf
/// at commit 966464ebfb524ca78d7b360bb7ef50cc3c47b818 (SDFormat 1.7, model "iiwa7"). From it we
/// take, per link iiwa_link_1 .. iiwa_link_7: the link pose in the model frame at the zero
/// configuration (`<link><pose>`), the joint axis (`<joint><axis><xyz expressed_in="__model__">`),
/// the mass, the inertial pose in the link frame (`<inertial><pose>`) and the inertia tensor
/// about the centre of mass in the inertial frame's axes (ixx .. izz). The tables below hold the
/// source's numbers unchanged, with one deliberate exception: the SDF writes the right angles
/// of the link orientations rounded, as 1.5708 and -3.14159; we use pi/2 and -pi. The joint
/// axes, which the SDF gives as exact unit vectors in the model frame, are then exactly the z
/// axes of the link frames (the rounded values would tilt them by 3.7e-6 rad). The model
/// constructor checks this: each link's axis is the source axis mapped into the link frame, and
/// a RevoluteZ joint refuses an axis that is not z.
///
/// These are Drake's approximate mass properties for the iiwa 7, not KUKA-identified
/// parameters; identify your own arm's parameters before relying on torques to better than a
/// few percent.
///
/// ## Conversion to chaindyn's description
///
/// SDFormat poses are xyz + rpy with R = Rz(yaw) Ry(pitch) Rx(roll) (as URDF), the links' poses
/// are in the model frame, and each joint's frame is its child link's frame (no `<joint><pose>`).
/// So, with X_i the pose of link i in the model frame at q = 0 (X_0 = identity: the base
/// iiwa_link_0 has no pose) and the inertial frame F_i = (R_F, c_i) in link i:
///   - placement_i = X_{i-1}^-1 X_i  (joint i's frame in link i-1; joint 1's in the base link 0)
///   - axis_i      = R(X_i)^T a_i, a_i the source axis in the model frame (= z, see above)
///   - com_i       = c_i,  inertia_i = R_F I_F R_F^T  (the tensor turned into link-frame axes;
///     every inertial rpy of this source is zero, so R_F = 1 here, but the data path keeps it)
/// The base link 0 (3.863 kg) is fixed to the world and is not part of the chain.
///
/// ## Zero configuration
///
/// At q = 0 the arm stands straight up: every link origin is on the base z axis, at heights
/// 0.1575, 0.3405, 0.5245, 0.74, 0.924, 1.1395 and 1.22 m; link 7's origin (the flange frame of
/// this model) is 1.22 m above the base origin. Joints 1, 3, 5, 7 then turn about the vertical,
/// joints 2 and 6 about the base +y axis and joint 4 about the base -y axis. The centres of mass
/// are not all on the axes (link 5's is 0.1 mm off in x), so g(0) is small but not zero.
///
/// ## Joint dynamics, limits
///
/// The source gives damping 0 and friction 0 for every joint and no rotor inertia: the joint
/// dynamics stay zero. Position limits (symmetric, rad) are kuka_iiwa_position_limits; the
/// source's velocity (10 rad/s) and effort (300 N m) limits are uniform placeholders, not
/// KUKA's figures, and are not reproduced. Gravity is the default (0, 0, -9.81) m/s^2.
#pragma once

#include "chaindyn/model/chain.hpp"

#include <array>
#include <cstddef>

namespace chaindyn::robots {

/// The iiwa's chain type: seven joints about the z axes of their joint frames.
template <typename Scalar = double>
using KukaIiwa = ChainN<Scalar, 7, RevoluteZ>;

namespace detail::iiwa7 {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kHalfPi = kPi / 2;

/// xyz (m) and roll-pitch-yaw (rad), as an SDFormat <pose>.
struct Pose {
  double x, y, z, roll, pitch, yaw;
};

/// One link and its parent joint, in the source's terms (see the file comment).
struct LinkRecord {
  const char* name;
  Pose pose_in_model;     ///< <link><pose>: the link frame in the model frame at q = 0
  double axis_in_model[3];  ///< <joint><axis><xyz expressed_in="__model__">
  Pose inertial;          ///< <inertial><pose>: centre of mass and inertial axes in the link
  double mass;            ///< kg
  double ixx, ixy, ixz, iyy, iyz, izz;  ///< kg m^2, about the centre of mass, inertial axes
};

// clang-format off
inline constexpr LinkRecord kLinks[7] = {
    //  name           pose in model frame at q = 0 (SDF rpy in comments where rounded)
    {"iiwa_link_1", {0, 0, 0.1575, 0, 0, 0},
     {0, 0, 1},   {0, -0.0347, 0.113, 0, 0, 0},  2.7025,
     0.0171, 0, 0, 0.0163, 0, 0.006},
    {"iiwa_link_2", {0, 0, 0.3405, kHalfPi, 0, -kPi},       // SDF: 1.5708 0 -3.14159
     {0, 1, 0},   {0.000, 0.0668, 0.0344, 0, 0, 0}, 2.7258,
     0.0170, 0, 0, 0.0162, 0, 0.0061},
    {"iiwa_link_3", {0, 0, 0.5245, 0, 0, 0},
     {0, 0, 1},   {0, 0.0296, 0.1265, 0, 0, 0},  3.175,
     0.025, 0, 0, 0.0238, 0, 0.0076},
    {"iiwa_link_4", {0, 0, 0.74, kHalfPi, 0, 0},            // SDF: 1.5708 0 0
     {0, -1, 0},  {0, 0.067, 0.034, 0, 0, 0},    2.73,
     0.017, 0, 0, 0.0162, 0, 0.0061},
    {"iiwa_link_5", {0, 0, 0.924, 0, 0, -kPi},              // SDF: 0 0 -3.14159
     {0, 0, 1},   {0.0001, 0.021, 0.076, 0, 0, 0}, 1.69,
     0.01, 0, 0, 0.0087, 0, 0.00449},
    {"iiwa_link_6", {0, 0, 1.1395, kHalfPi, 0, -kPi},       // SDF: 1.5708 0 -3.14159
     {0, 1, 0},   {0, 0.0026, 0.0005, 0, 0, 0},  1.8,
     0.0051, 0, 0, 0.0049, 0, 0.0035},
    {"iiwa_link_7", {0, 0, 1.22, 0, 0, 0},
     {0, 0, 1},   {0, 0, 0.0294, 0, 0, 0},       0.4,
     0.0004, 0, 0, 0.0004, 0, 0.0005},
};
// clang-format on

inline Transform<double> to_transform(const Pose& p) {
  return Transform<double>::FromRPY(p.roll, p.pitch, p.yaw, Vector3<double>(p.x, p.y, p.z));
}

/// The links in double, converted as the file comment describes.
inline std::array<Link<double>, 7> links_double() {
  std::array<Link<double>, 7> out;
  Transform<double> parent_in_model = Transform<double>::Identity();  // link 0
  for (std::size_t i = 0; i < 7; ++i) {
    const LinkRecord& r = kLinks[i];
    const Transform<double> link_in_model = to_transform(r.pose_in_model);
    const Transform<double> inertial = to_transform(r.inertial);
    Matrix3<double> tensor;
    tensor << r.ixx, r.ixy, r.ixz,  //
        r.ixy, r.iyy, r.iyz,        //
        r.ixz, r.iyz, r.izz;
    Link<double>& l = out[i];
    l.name = r.name;
    l.placement = parent_in_model.inverse() * link_in_model;
    l.axis = link_in_model.rotation.transpose() *
             Vector3<double>(r.axis_in_model[0], r.axis_in_model[1], r.axis_in_model[2]);
    l.mass = r.mass;
    l.com = inertial.translation;
    l.inertia = inertial.rotation * tensor * inertial.rotation.transpose();
    parent_in_model = link_in_model;
  }
  return out;
}

}  // namespace detail::iiwa7

/// Symmetric position limits of joints 1..7 (rad; the joint range is [-limit, +limit]), from the
/// same source.
inline constexpr std::array<double, 7> kuka_iiwa_position_limits = {
    2.96706, 2.0944, 2.96706, 2.0944, 2.96706, 2.0944, 3.05433};

/// The seven links of the iiwa 7 R800 (iiwa_link_1 .. iiwa_link_7), base to flange, in chaindyn's
/// description (see the file comment for the source and the conversion). Computed in double and
/// converted to Scalar.
template <typename Scalar = double>
std::array<Link<Scalar>, 7> kuka_iiwa_links() {
  const std::array<Link<double>, 7> d = detail::iiwa7::links_double();
  std::array<Link<Scalar>, 7> out;
  for (std::size_t i = 0; i < 7; ++i) {
    const Link<double>& l = d[i];
    Link<Scalar>& c = out[i];
    c.name = l.name;
    c.placement = Transform<Scalar>(l.placement.rotation.template cast<Scalar>(),
                                    l.placement.translation.template cast<Scalar>());
    c.axis = l.axis->template cast<Scalar>();
    c.mass = Scalar(l.mass);
    c.com = l.com.template cast<Scalar>();
    c.inertia = l.inertia.template cast<Scalar>();
  }
  return out;
}

/// The KUKA LBR iiwa 7 R800 (Drake's iiwa7 model), gravity (0, 0, -9.81) m/s^2.
template <typename Scalar = double>
KukaIiwa<Scalar> kuka_iiwa() {
  return KukaIiwa<Scalar>(kuka_iiwa_links<Scalar>());
}

}  // namespace chaindyn::robots
