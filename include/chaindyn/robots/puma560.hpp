/// @file
/// A built-in Unimation PUMA 560: the classic textbook arm with full dynamic parameters
/// (Armstrong, Khatib, Burdick 1986, as reconciled by Corke and Armstrong-Helouvry 1994),
/// standard DH, motor rotor inertias as armature.
///
///     const auto arm = chaindyn::robots::puma560();         // Puma560<double>
///
/// ## Source
///
/// P. Corke, Robotics Toolbox for MATLAB, models/mdl_puma560.m (github.com/petercorke/
/// robotics-toolbox-matlab, commit 0ed9a009), "params of 8/95", which cites P. Corke and
/// B. Armstrong-Helouvry, "A search for consensus among model parameters reported for the
/// PUMA 560 robot", Proc. IEEE ICRA 1994, pp. 1608-1613 (and B. Armstrong, O. Khatib,
/// J. Burdick, "The explicit dynamic model and inertial parameters of the PUMA 560 arm",
/// Proc. IEEE ICRA 1986). Per link: standard DH d, a, alpha (theta = q), mass m, centre of mass
/// r and principal moments I = [Ixx Iyy Izz] in DH frame i (products of inertia zero), motor
/// inertia Jm and gear ratio G; joint limits qlim (from Wang and Chen, IEEE T-RA 7(4), 1991).
///
/// ## Conversion
///
/// - Armature = Jm G^2 (the rotor inertia reflected through the gear, as the toolbox adds it to
///   M's diagonal).
/// - Link 1: the source gives m = 0 and I = diag(0, 0.35, 0) (only the moment about joint 1's
///   axis, y of DH frame 1, was identified). chaindyn refuses a tensor that breaks the triangle
///   inequality (0 + 0 < 0.35), so we use diag(0.175, 0.35, 0.175), the least symmetric
///   completion that is a physical body. Link 1 only ever rotates about its y axis (a principal
///   axis), so Ixx and Izz enter no joint torque: M, C and g are unchanged.
/// - Link 3: the source's principal moments (0.066, 0.086, 0.0125) kg m^2 break the triangle
///   inequality too (0.066 + 0.0125 < 0.086): no rigid body has them. We use the nearest
///   moments (least squares) that satisfy it, (0.0685, 0.0835, 0.015): each moved by
///   0.0025 kg m^2. This changes M and C slightly (at qn: M by up to 2.5e-3 kg m^2, see the
///   test, which checks the toolbox's figures after adding back the difference exactly, by the
///   linearity of M and C in the inertia); gravity is unaffected.
/// - d1 = 0 as in the MATLAB model (the Python toolbox's newer Puma560 puts the base at
///   d1 = 0.672 m; torques do not depend on it).
///
/// ## What is left out
///
/// The motors' viscous friction B and asymmetric Coulomb friction Tc (measured at the motor;
/// chaindyn's Coulomb model is symmetric): joint damping and friction are zero. Gravity is the
/// default (0, 0, -9.81) m/s^2 (the toolbox's gravity [0 0 9.81] is the same field, given as
/// the base acceleration).
///
/// ## Published figures this model reproduces (tests/test_robots_builtin.cpp)
///
/// The Python Robotics Toolbox's unit tests (github.com/petercorke/robotics-toolbox-python,
/// tests/test_SerialLink.py, commit b444bb92) print, at the nominal pose qn = (0, pi/4, pi, 0,
/// pi/4, 0): gravload = (0, 31.6399, 6.0351, 0, 0.0283, 0) N m, the inertia matrix M(qn) and
/// the Coriolis matrix C(qn, qd) for qd = (1, 2, 3, 1, 2, 3), to four decimals.
#pragma once

#include "chaindyn/builders/dh.hpp"

#include <array>
#include <cstddef>

namespace chaindyn::robots {

/// The PUMA 560's chain type: six joints about the z axes of their joint frames, each placed by a
/// signed axis permutation (alpha = 0 or +-90 deg) and its offsets (joints/placed.hpp).
template <typename Scalar = double>
using Puma560 = Chain<Scalar,
                 Placed<RevoluteZ, SignedAxes<1, 2, 3>, NoOffset>,
                 Placed<RevoluteZ, SignedAxes<1, 3, -2>, NoOffset>,
                 Placed<RevoluteZ, SignedAxes<1, 2, 3>, Offset<true, false, true>>,
                 Placed<RevoluteZ, SignedAxes<1, -3, 2>, Offset<true, true, false>>,
                 Placed<RevoluteZ, SignedAxes<1, 3, -2>, NoOffset>,
                 Placed<RevoluteZ, SignedAxes<1, -3, 2>, NoOffset>>;

namespace detail::puma560 {

inline constexpr double kHalfPi = 1.57079632679489661923;

struct Record {
  const char* name;
  double d, a, alpha;    ///< standard DH (m, m, rad); theta = q
  double mass;           ///< kg
  double com[3];         ///< m, DH frame i
  double moments[3];     ///< Ixx, Iyy, Izz (kg m^2) about the centre of mass, DH frame i axes
  double jm, gear;       ///< motor inertia (kg m^2), gear ratio
};

// clang-format off
inline constexpr Record kLinks[6] = {
    // link 1: the source's I = [0 0.35 0], completed to diag(0.175, 0.35, 0.175) (file comment)
    {"link1", 0,       0,      kHalfPi,  0,    {0, 0, 0},                {0.175, 0.35, 0.175},
     200e-6, -62.6111},
    {"link2", 0,       0.4318, 0,        17.4, {-0.3638, 0.006, 0.2275}, {0.13, 0.524, 0.539},
     200e-6, 107.815},
    // link 3: the source's moments (0.066, 0.086, 0.0125) moved by 0.0025 each (file comment)
    {"link3", 0.15005, 0.0203, -kHalfPi, 4.8,  {-0.0203, -0.0141, 0.070}, {0.0685, 0.0835, 0.015},
     200e-6, -53.7063},
    {"link4", 0.4318,  0,      kHalfPi,  0.82, {0, 0.019, 0},            {1.8e-3, 1.3e-3, 1.8e-3},
     33e-6, 76.0364},
    {"link5", 0,       0,      -kHalfPi, 0.34, {0, 0, 0},                {0.3e-3, 0.4e-3, 0.3e-3},
     33e-6, 71.923},
    {"link6", 0,       0,      0,        0.09, {0, 0, 0.032},            {0.15e-3, 0.15e-3, 0.04e-3},
     33e-6, 76.686},
};
// clang-format on

inline constexpr double kDeg = 3.14159265358979323846 / 180;

}  // namespace detail::puma560

/// Joint position limits (rad) from the source's qlim (degrees: [-160 160], [-45 225],
/// [-225 45], [-110 170], [-100 100], [-266 266]).
inline constexpr std::array<double, 6> puma560_position_lower = {
    -160 * detail::puma560::kDeg, -45 * detail::puma560::kDeg,  -225 * detail::puma560::kDeg,
    -110 * detail::puma560::kDeg, -100 * detail::puma560::kDeg, -266 * detail::puma560::kDeg};
inline constexpr std::array<double, 6> puma560_position_upper = {
    160 * detail::puma560::kDeg, 225 * detail::puma560::kDeg, 45 * detail::puma560::kDeg,
    170 * detail::puma560::kDeg, 100 * detail::puma560::kDeg, 266 * detail::puma560::kDeg};

/// The toolbox's named poses: qz (all zero), qr (ready, arm up), qs (stretched along x),
/// qn (nominal, non-singular).
inline constexpr std::array<double, 6> puma560_qz = {0, 0, 0, 0, 0, 0};
inline constexpr std::array<double, 6> puma560_qr = {0, detail::puma560::kHalfPi,
                                                     -detail::puma560::kHalfPi, 0, 0, 0};
inline constexpr std::array<double, 6> puma560_qs = {0, 0, -detail::puma560::kHalfPi, 0, 0, 0};
inline constexpr std::array<double, 6> puma560_qn = {
    0, detail::puma560::kHalfPi / 2, 2 * detail::puma560::kHalfPi, 0, detail::puma560::kHalfPi / 2,
    0};

/// The standard-DH table with inertias (DH frame i) and armature Jm G^2 per joint.
template <typename Scalar = double>
std::array<DHRow<Scalar>, 6> puma560_dh_rows() {
  std::array<DHRow<Scalar>, 6> rows;
  for (std::size_t i = 0; i < 6; ++i) {
    const detail::puma560::Record& r = detail::puma560::kLinks[i];
    JointDynamics<Scalar> dynamics;
    dynamics.armature = Scalar(r.jm * r.gear * r.gear);
    rows[i] = DHRow<Scalar>::revolute(Scalar(r.a), Scalar(r.alpha), Scalar(r.d))
                  .with_inertia(Scalar(r.mass),
                                Vector3<Scalar>(Scalar(r.com[0]), Scalar(r.com[1]),
                                                Scalar(r.com[2])),
                                Vector3<Scalar>(Scalar(r.moments[0]), Scalar(r.moments[1]),
                                                Scalar(r.moments[2]))
                                    .asDiagonal()
                                    .toDenseMatrix())
                  .with_dynamics(dynamics)
                  .named(r.name);
  }
  return rows;
}

/// The PUMA 560 (Corke's mdl_puma560 parameters), gravity (0, 0, -9.81). Its last link frame
/// is DH frame 6 (a6 = alpha6 = 0: the flange is the identity).
template <typename Scalar = double>
Puma560<Scalar> puma560() {
  return dh::standard<Puma560<Scalar>>(puma560_dh_rows<Scalar>()).chain;
}

}  // namespace chaindyn::robots
