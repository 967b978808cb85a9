/// @file
/// A built-in Franka Emika Panda: seven revolute joints from Franka's modified (Craig) DH
/// table, with the inertial parameters identified by Gaz et al. (2019).
///
///     const auto arm = chaindyn::robots::panda();          // Panda<double>
///     const auto flange = forward_kinematics(arm, q).back() * chaindyn::robots::panda_flange();
///
/// ## Sources
///
/// Kinematics: Franka Emika, "Robot and interface specifications", section "Denavit–Hartenberg
/// parameters" (frankaemika.github.io/docs/control_parameters.html): the modified (Craig)
/// table, per joint i = 1..7 (a_{i-1}, d_i, alpha_{i-1}), and the flange row (a = 0,
/// d = 0.107 m, alpha = 0, theta = 0). The same table is in Load_Franka_DH.m of the paper's
/// code, github.com/marcocognetti/FrankaEmikaPandaDynModel (matlab/utils), commit 04d453de.
/// Position limits: the same Franka page, "Limits for Panda" (q_min, q_max).
///
/// Dynamics: C. Gaz, M. Cognetti, A. Oliva, P. Robuffo Giordano, A. De Luca, "Dynamic
/// Identification of the Franka Emika Panda Robot With Retrieval of Feasible Parameters Using
/// Penalty-Based Optimization", IEEE Robotics and Automation Letters 4(4):4147-4154, 2019; the
/// retrieved (physically feasible) parameter set of the supplementary material, Tables VIII
/// (masses, centres of mass) and IX (inertia tensors about the centres of mass), as transcribed
/// in the authors' matlab/ConvertDynPars2VREP/DynPars2VREP.m of the repository above (commit
/// 04d453de). All are expressed in Franka's (Craig) link frames, which are chaindyn's link
/// frames here (see builders/dh.hpp), so they are used unchanged. Link 7 ends at the flange;
/// no hand is attached.
///
/// ## What is approximated or left out
///
/// - Gaz et al. identify a friction model tau_f = phi1 / (1 + exp(-phi2 (qd + phi3))) - ... that
///   is not viscous + Coulomb: the joint dynamics are left zero (no damping, friction, armature;
///   the paper's model has no separate rotor inertia either, it is in the identified links).
/// - Some parameters do not influence the joint torques (e.g. link 1's centre-of-mass height
///   and its inertia about horizontal axes); their retrieved values are feasible but arbitrary.
/// - Gravity is the default (0, 0, -9.81) m/s^2 (base z up).
///
/// ## Zero configuration
///
/// At q = 0 the flange is at (0.088, 0, 0.926) m (0.333 + 0.316 + 0.384 - 0.107 up, 0.0825 -
/// 0.0825 + 0.088 forward) with its z axis pointing down: flange orientation Rx(pi). (q = 0 is
/// outside joint 4's range [-3.0718, -0.0698]; it is the table's reference, not a pose the
/// robot can reach.)
#pragma once

#include "chaindyn/builders/dh.hpp"

#include <array>
#include <cstddef>

namespace chaindyn::robots {

/// The Panda's chain type: seven joints about the z axes of their (Craig) frames, each placed by a
/// signed axis permutation (alpha = 0 or +-90 deg) and its offsets (joints/placed.hpp).
template <typename Scalar = double>
using Panda = Chain<Scalar,
                 Placed<RevoluteZ, SignedAxes<1, 2, 3>, Offset<false, false, true>>,
                 Placed<RevoluteZ, SignedAxes<1, -3, 2>, NoOffset>,
                 Placed<RevoluteZ, SignedAxes<1, 3, -2>, Offset<false, true, false>>,
                 Placed<RevoluteZ, SignedAxes<1, 3, -2>, Offset<true, false, false>>,
                 Placed<RevoluteZ, SignedAxes<1, -3, 2>, Offset<true, true, false>>,
                 Placed<RevoluteZ, SignedAxes<1, 3, -2>, NoOffset>,
                 Placed<RevoluteZ, SignedAxes<1, 3, -2>, Offset<true, false, false>>>;

namespace detail::panda {

inline constexpr double kHalfPi = 1.57079632679489661923;

struct Record {
  const char* name;
  double a, d, alpha;          ///< Franka's a_{i-1} (m), d_i (m), alpha_{i-1} (rad); theta = 0
  double mass;                 ///< kg (Gaz et al., Table VIII)
  double com[3];               ///< m, link frame i (Table VIII)
  double ixx, ixy, ixz, iyy, iyz, izz;  ///< kg m^2 about the centre of mass (Table IX)
};

// clang-format off
inline constexpr Record kLinks[7] = {
    {"panda_link1", 0,       0.333,  0,        4.970684,  {3.875e-03, 2.081e-03, 0},
     7.0337e-01, -1.3900e-04, 6.7720e-03, 7.0661e-01, 1.9169e-02, 9.1170e-03},
    {"panda_link2", 0,       0,      -kHalfPi, 0.646926,  {-3.141e-03, -2.872e-02, 3.495e-03},
     7.9620e-03, -3.9250e-03, 1.0254e-02, 2.8110e-02, 7.0400e-04, 2.5995e-02},
    {"panda_link3", 0,       0.316,  kHalfPi,  3.228604,  {2.7518e-02, 3.9252e-02, -6.6502e-02},
     3.7242e-02, -4.7610e-03, -1.1396e-02, 3.6155e-02, -1.2805e-02, 1.0830e-02},
    {"panda_link4", 0.0825,  0,      kHalfPi,  3.587895,  {-5.317e-02, 1.04419e-01, 2.7454e-02},
     2.5853e-02, 7.7960e-03, -1.3320e-03, 1.9552e-02, 8.6410e-03, 2.8323e-02},
    {"panda_link5", -0.0825, 0.384,  -kHalfPi, 1.225946,  {-1.1953e-02, 4.1065e-02, -3.8437e-02},
     3.5549e-02, -2.1170e-03, -4.0370e-03, 2.9474e-02, 2.2900e-04, 8.6270e-03},
    {"panda_link6", 0,       0,      kHalfPi,  1.666555,  {6.0149e-02, -1.4117e-02, -1.0517e-02},
     1.9640e-03, 1.0900e-04, -1.1580e-03, 4.3540e-03, 3.4100e-04, 5.4330e-03},
    {"panda_link7", 0.088,   0,      kHalfPi,  7.35522e-01, {1.0517e-02, -4.252e-03, 6.1597e-02},
     1.2516e-02, -4.2800e-04, -1.1960e-03, 1.0027e-02, -7.4100e-04, 4.8150e-03},
};
// clang-format on

/// The flange row of Franka's table: d = 0.107 m along link 7's z.
inline constexpr double kFlangeD = 0.107;

}  // namespace detail::panda

/// Joint position limits (rad), Franka's "Limits for Panda": q_min and q_max per joint.
inline constexpr std::array<double, 7> panda_position_lower = {
    -2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973};
inline constexpr std::array<double, 7> panda_position_upper = {
    2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973};

/// Franka's modified-DH table with Gaz et al.'s inertias, one row per joint (see the file
/// comment); feed it to dh::modified or use it for pure kinematics (dh::modified_pose).
template <typename Scalar = double>
std::array<DHRow<Scalar>, 7> panda_dh_rows() {
  std::array<DHRow<Scalar>, 7> rows;
  for (std::size_t i = 0; i < 7; ++i) {
    const detail::panda::Record& r = detail::panda::kLinks[i];
    Matrix3<Scalar> inertia;
    inertia << Scalar(r.ixx), Scalar(r.ixy), Scalar(r.ixz),  //
        Scalar(r.ixy), Scalar(r.iyy), Scalar(r.iyz),         //
        Scalar(r.ixz), Scalar(r.iyz), Scalar(r.izz);
    rows[i] = DHRow<Scalar>::revolute(Scalar(r.a), Scalar(r.alpha), Scalar(r.d))
                  .with_inertia(Scalar(r.mass),
                                Vector3<Scalar>(Scalar(r.com[0]), Scalar(r.com[1]),
                                                Scalar(r.com[2])),
                                inertia)
                  .named(r.name);
  }
  return rows;
}

/// The flange frame in link 7's frame: Tz(0.107 m) (Franka's flange row).
template <typename Scalar = double>
Transform<Scalar> panda_flange() {
  return Transform<Scalar>::Translation(
      Vector3<Scalar>(Scalar(0), Scalar(0), Scalar(detail::panda::kFlangeD)));
}

/// The Franka Emika Panda (Franka's kinematics, Gaz et al.'s dynamics), gravity (0, 0, -9.81).
template <typename Scalar = double>
Panda<Scalar> panda() {
  return dh::modified<Panda<Scalar>>(panda_dh_rows<Scalar>()).chain;
}

}  // namespace chaindyn::robots
