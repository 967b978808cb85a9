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
/// about the centre of mass in the inertial frame's axes (ixx .. izz). We use the source's
/// numbers unchanged, with one deliberate exception: the SDF writes the right angles of the
/// link orientations rounded, as 1.5708 and -3.14159; we use pi/2 and -pi. The joint axes,
/// which the SDF gives as exact unit vectors in the model frame, are then the z axes of the
/// link frames to rounding (the rounded values would tilt them by 3.7e-6 rad). The model
/// constructor checks this: each link's axis is the source axis mapped into the link frame, and
/// a RevoluteZ joint refuses an axis that is not z. The table below holds the masses, centres
/// of mass and moments as the source writes them, and the placements and axes as the
/// conversion below gives them in double (printed exactly; the source's poses are listed beside
/// the table, and tests/test_robots.cpp repeats the conversion and compares bit for bit).
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
///     every inertial rpy of this source is zero, so R_F = 1 and the tensor is the source's
///     diag(ixx, iyy, izz) exactly)
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

/// The iiwa's chain type: seven joints about the z axes of their joint frames, each placed by a
/// signed axis permutation and an offset along one axis (joints/placed.hpp: the algorithms skip
/// the zeros and ones of these placements).
template <typename Scalar = double>
using KukaIiwa = Chain<Scalar,
                 Placed<RevoluteZ, SignedAxes<1, 2, 3>, Offset<false, false, true>>,
                 Placed<RevoluteZ, SignedAxes<-1, 3, 2>, Offset<false, false, true>>,
                 Placed<RevoluteZ, SignedAxes<-1, 3, 2>, Offset<false, true, false>>,
                 Placed<RevoluteZ, SignedAxes<1, 3, -2>, Offset<false, false, true>>,
                 Placed<RevoluteZ, SignedAxes<-1, 3, 2>, Offset<false, true, false>>,
                 Placed<RevoluteZ, SignedAxes<1, 3, -2>, Offset<false, false, true>>,
                 Placed<RevoluteZ, SignedAxes<-1, 3, 2>, Offset<false, true, false>>>;

namespace detail::iiwa7 {

/// One link and its parent joint. mass, com and the moments are the source's numbers unchanged
/// (every inertial rpy and product of inertia of the source is zero, so the tensor in link
/// axes is diag(ixx, iyy, izz)). placement and axis are the conversion's results (file
/// comment: placement_i = X_{i-1}^-1 X_i, axis_i = R(X_i)^T a_i, computed in double with
/// Transform::FromRPY from the source's poses with pi/2 and -pi), printed to 17 significant
/// digits so that they read back as the same doubles: sin(-pi) = -1.2246467991473532e-16 and
/// cos(pi/2) = 6.123233995736766e-17 leave entries of order 1e-16 where a right angle has a
/// zero. Plain numbers, so that the iiwa costs no Eigen code to compile;
/// tests/test_robots.cpp recomputes every one from the source's poses and compares bit for bit.
struct LinkRecord {
  const char* name;
  double rotation[9];     ///< placement rotation, row by row
  double translation[3];  ///< placement translation (m)
  double axis[3];         ///< joint axis in the joint frame (z, to rounding)
  double mass;            ///< kg
  double com[3];          ///< m, link frame (the source's <inertial><pose> xyz)
  double ixx, iyy, izz;   ///< kg m^2, about the centre of mass, link-frame axes
};

// The source's link poses in the model frame at q = 0 (xyz; rpy with the SDF's rounded values
// replaced by pi/2 and -pi, see the file comment) and joint axes in the model frame:
//   link 1: z 0.1575, rpy (0, 0, 0),          axis (0, 0, 1)
//   link 2: z 0.3405, rpy (pi/2, 0, -pi),     axis (0, 1, 0)     SDF: 1.5708 0 -3.14159
//   link 3: z 0.5245, rpy (0, 0, 0),          axis (0, 0, 1)
//   link 4: z 0.74,   rpy (pi/2, 0, 0),       axis (0, -1, 0)    SDF: 1.5708 0 0
//   link 5: z 0.924,  rpy (0, 0, -pi),        axis (0, 0, 1)     SDF: 0 0 -3.14159
//   link 6: z 1.1395, rpy (pi/2, 0, -pi),     axis (0, 1, 0)     SDF: 1.5708 0 -3.14159
//   link 7: z 1.22,   rpy (0, 0, 0),          axis (0, 0, 1)
// (x = y = 0 for every link.)
// clang-format off
inline constexpr LinkRecord kLinks[7] = {
    {"iiwa_link_1",
     {1, 0, 0,
      0, 1, 0,
      0, 0, 1},
     {0, 0, 0.1575},
     {0, 0, 1},
     2.7025, {0, -0.0347, 0.113}, 0.0171, 0.0163, 0.006},
    {"iiwa_link_2",
     {-1, 2.4651903288156619e-32, -1.2246467991473532e-16,
      -1.2246467991473532e-16, -2.2204460492503131e-16, 1,
      0, 1, 2.2204460492503131e-16},
     {0, 0, 0.18300000000000002},
     {-1.2246467991473532e-16, -2.2204460492503131e-16, 1},
     2.7258, {0.000, 0.0668, 0.0344}, 0.0170, 0.0162, 0.0061},
    {"iiwa_link_3",
     {-1, -1.2246467991473532e-16, 0,
      2.4651903288156619e-32, -2.2204460492503131e-16, 1,
      -1.2246467991473532e-16, 1, 2.2204460492503131e-16},
     {0, 0.18399999999999994, 4.0856207306205748e-17},
     {0, 0, 1},
     3.175, {0, 0.0296, 0.1265}, 0.025, 0.0238, 0.0076},
    {"iiwa_link_4",
     {1, 0, 0,
      0, 2.2204460492503131e-16, -1,
      0, 1, 2.2204460492503131e-16},
     {0, 0, 0.21550000000000002},
     {0, -2.2204460492503131e-16, 1},
     2.73, {0, 0.067, 0.034}, 0.017, 0.0162, 0.0061},
    {"iiwa_link_5",
     {-1, 1.2246467991473532e-16, 0,
      -2.7192621468937821e-32, -2.2204460492503131e-16, 1,
      1.2246467991473532e-16, 1, 2.2204460492503131e-16},
     {0, 0.18400000000000005, 4.0856207306205772e-17},
     {-0.0, 0, 1},
     1.69, {0.0001, 0.021, 0.076}, 0.01, 0.0087, 0.00449},
    {"iiwa_link_6",
     {1, 2.5407181807812022e-33, 0,
      0, 2.2204460492503131e-16, -1,
      0, 1, 2.2204460492503131e-16},
     {0, 0, 0.21549999999999991},
     {-1.2246467991473532e-16, -2.2204460492503131e-16, 1},
     1.8, {0, 0.0026, 0.0005}, 0.0051, 0.0049, 0.0035},
    {"iiwa_link_7",
     {-1, -1.2246467991473532e-16, 0,
      2.4651903288156619e-32, -2.2204460492503131e-16, 1,
      -1.2246467991473532e-16, 1, 2.2204460492503131e-16},
     {0, 0.080500000000000016, 1.7874590696465024e-17},
     {0, 0, 1},
     0.4, {0, 0, 0.0294}, 0.0004, 0.0004, 0.0005},
};
// clang-format on

}  // namespace detail::iiwa7

/// Symmetric position limits of joints 1..7 (rad; the joint range is [-limit, +limit]), from the
/// same source.
inline constexpr std::array<double, 7> kuka_iiwa_position_limits = {
    2.96706, 2.0944, 2.96706, 2.0944, 2.96706, 2.0944, 3.05433};

/// The seven links of the iiwa 7 R800 (iiwa_link_1 .. iiwa_link_7), base to flange, in chaindyn's
/// description (see the file comment for the source and the conversion): the double table
/// converted to Scalar entry by entry.
template <typename Scalar = double>
std::array<Link<Scalar>, 7> kuka_iiwa_links() {
  std::array<Link<Scalar>, 7> out;
  for (std::size_t i = 0; i < 7; ++i) {
    const detail::iiwa7::LinkRecord& r = detail::iiwa7::kLinks[i];
    Link<Scalar>& c = out[i];
    c.name = r.name;
    Matrix3<Scalar> rotation;
    Matrix3<Scalar> inertia;
    Vector3<Scalar> translation, axis, com;
    for (int row = 0; row < 3; ++row) {
      for (int col = 0; col < 3; ++col) {
        rotation(row, col) = Scalar(r.rotation[3 * row + col]);
        inertia(row, col) = Scalar(0);
      }
      translation[row] = Scalar(r.translation[row]);
      axis[row] = Scalar(r.axis[row]);
      com[row] = Scalar(r.com[row]);
    }
    inertia(0, 0) = Scalar(r.ixx);
    inertia(1, 1) = Scalar(r.iyy);
    inertia(2, 2) = Scalar(r.izz);
    c.placement = Transform<Scalar>(rotation, translation);
    c.axis = axis;
    c.mass = Scalar(r.mass);
    c.com = com;
    c.inertia = inertia;
  }
  return out;
}

/// The KUKA LBR iiwa 7 R800 (Drake's iiwa7 model), gravity (0, 0, -9.81) m/s^2.
template <typename Scalar = double>
KukaIiwa<Scalar> kuka_iiwa() {
  return KukaIiwa<Scalar>(kuka_iiwa_links<Scalar>());
}

}  // namespace chaindyn::robots
