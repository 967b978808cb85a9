/// @file
/// A built-in Universal Robots UR5 (CB3): six revolute joints from UR's standard DH table, UR's
/// link masses and centres of mass, and inertia tensors approximated by cylinders.
///
///     const auto arm = chaindyn::robots::ur5();             // Ur5<double>
///     const auto tool0 = forward_kinematics(arm, q).back() * chaindyn::robots::ur5_flange();
///
/// ## Sources
///
/// Kinematics: Universal Robots, "DH Parameters for calculations of kinematics and dynamics"
/// (universal-robots.com/articles/ur/application-installation/dh-parameters-for-calculations-
/// of-kinematics-and-dynamics/), and the CB3 user manual's appendix "Robot DH Parameter",
/// Table "Denavit-Hartenberg parameters for the UR5 serie 3": standard DH, theta = 0 for all
/// joints, d1 = 0.089159, a2 = -0.425, a3 = -0.39225, d4 = 0.10915, d5 = 0.09465, d6 = 0.0823 m,
/// alpha = (pi/2, 0, 0, pi/2, -pi/2, 0).
///
/// Masses and centres of mass: UR's same article (UR5 rows, "Dynamics: Mass [kg], Center of
/// Mass [m]"), in the DH frame i of each link: masses 3.7, 8.393, 2.33, 1.219, 1.219, 0.1879 kg.
/// As the current article lists only the e-Series, the numbers were read from the copy in
/// Universal_Robots_ROS2_Description (github.com/UniversalRobots, file
/// config/ur5/physical_parameters.yaml, commit 3426d674), which cites that article and maps
/// each centre of mass to its own link frames ("model.x", "-model.z", ...).
///
/// Inertia tensors: UR does not publish them for the UR5. We use the ROS description's cylinder
/// approximation (same file, "tensor", "generated using cylinder approximation"), a diagonal
/// tensor about the centre of mass with the cylinder's axis along that file's link z (links
/// 1, 4, 5, 6) or, rotated by its inertial pitch pi/2, along x (links 2, 3). Turned into DH
/// frame axes with the file's own axis map (e.g. shoulder: its (x, y, z) = DH (x, -z, y)), the
/// cylinder axis is DH y for links 1, 4, 5, DH x for links 2, 3 and DH z for link 6.
///
/// Position limits: +-2 pi for every joint (UR5 CB3 datasheet: +-360 degrees).
///
/// ## What is approximated or left out
///
/// The inertia tensors (cylinders, not CAD or identified values); no joint friction, damping or
/// rotor inertia (UR publishes none); the base link (fixed, not part of the chain). Gravity is
/// the default (0, 0, -9.81) m/s^2 in UR's DH base frame (z up along joint 1; UR's controller
/// "base" frame is this one turned by pi about z).
///
/// ## Zero configuration
///
/// At q = 0 the arm is stretched out along the base -x axis; the tool flange (DH frame 6) is at
/// (a2 + a3, -(d4 + d6), d1 - d5) = (-0.81725, -0.19145, -0.005491) m with axes
/// x6 = (1, 0, 0), y6 = (0, 0, 1), z6 = (0, -1, 0).
#pragma once

#include "chaindyn/builders/dh.hpp"

#include <array>
#include <cstddef>

namespace chaindyn::robots {

/// The UR5's chain type: six joints about the z axes of their joint frames, each placed by a signed
/// axis permutation and its offsets (joints/placed.hpp).
template <typename Scalar = double>
using Ur5 = Chain<Scalar,
                 Placed<RevoluteZ, SignedAxes<1, 2, 3>, Offset<false, false, true>>,
                 Placed<RevoluteZ, SignedAxes<1, 3, -2>, NoOffset>,
                 Placed<RevoluteZ, SignedAxes<1, 2, 3>, Offset<true, false, false>>,
                 Placed<RevoluteZ, SignedAxes<1, 2, 3>, Offset<true, false, true>>,
                 Placed<RevoluteZ, SignedAxes<1, 3, -2>, Offset<false, true, false>>,
                 Placed<RevoluteZ, SignedAxes<1, -3, 2>, Offset<false, true, false>>>;

namespace detail::ur5 {

inline constexpr double kHalfPi = 1.57079632679489661923;

struct Record {
  const char* name;
  double a, d, alpha;     ///< standard DH a_i, d_i (m), alpha_i (rad); theta_i = q_i
  double mass;            ///< kg
  double com[3];          ///< m, in DH frame i
  double moments[3];      ///< kg m^2, about the centre of mass, DH frame i axes (cylinders)
};

// clang-format off
inline constexpr Record kLinks[6] = {
    {"shoulder_link",  0,        0.089159, kHalfPi,  3.7,    {0, -0.02561, 0.00193},
     {0.014972358333333331, 0.01040625, 0.014972358333333331}},
    {"upper_arm_link", -0.425,   0,        0,        8.393,  {0.2125, 0, 0.11336},
     {0.0151074, 0.13388583541666665, 0.13388583541666665}},
    {"forearm_link",   -0.39225, 0,        0,        2.33,   {0.15, 0, 0.0265},
     {0.004095, 0.031216803515624995, 0.031216803515624995}},
    {"wrist_1_link",   0,        0.10915,  kHalfPi,  1.219,  {0, -0.0018, 0.01634},
     {0.002013889583333333, 0.0021942, 0.002013889583333333}},
    {"wrist_2_link",   0,        0.09465,  -kHalfPi, 1.219,  {0, 0.0018, 0.01634},
     {0.0018310395833333333, 0.0021942, 0.0018310395833333333}},
    {"wrist_3_link",   0,        0.0823,   0,        0.1879, {0, 0, -0.001159},
     {8.062475833333332e-05, 8.062475833333332e-05, 0.0001321171875}},
};
// clang-format on

}  // namespace detail::ur5

/// Joint position limits (rad): +-2 pi for every joint.
inline constexpr std::array<double, 6> ur5_position_limits = {
    6.283185307179586, 6.283185307179586, 6.283185307179586,
    6.283185307179586, 6.283185307179586, 6.283185307179586};

/// UR's standard-DH table with the masses, centres of mass and cylinder inertias in DH frame i.
template <typename Scalar = double>
std::array<DHRow<Scalar>, 6> ur5_dh_rows() {
  std::array<DHRow<Scalar>, 6> rows;
  for (std::size_t i = 0; i < 6; ++i) {
    const detail::ur5::Record& r = detail::ur5::kLinks[i];
    rows[i] = DHRow<Scalar>::revolute(Scalar(r.a), Scalar(r.alpha), Scalar(r.d))
                  .with_inertia(Scalar(r.mass),
                                Vector3<Scalar>(Scalar(r.com[0]), Scalar(r.com[1]),
                                                Scalar(r.com[2])),
                                Vector3<Scalar>(Scalar(r.moments[0]), Scalar(r.moments[1]),
                                                Scalar(r.moments[2]))
                                    .asDiagonal()
                                    .toDenseMatrix())
                  .named(r.name);
  }
  return rows;
}

/// The UR5's DH frame 6 (the tool flange) in its last link frame (see builders/dh.hpp: the
/// standard form's constant Tx(a6) Rx(alpha6), here the identity since a6 = alpha6 = 0).
template <typename Scalar = double>
Transform<Scalar> ur5_flange() {
  return dh::standard_links(ur5_dh_rows<Scalar>()).flange;
}

/// The Universal Robots UR5 (UR's DH table and masses, cylinder inertias), gravity
/// (0, 0, -9.81).
template <typename Scalar = double>
Ur5<Scalar> ur5() {
  return dh::standard<Ur5<Scalar>>(ur5_dh_rows<Scalar>()).chain;
}

}  // namespace chaindyn::robots
