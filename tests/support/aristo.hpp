/// @file
/// Course data, not a robot: the lecture notes' ARISTO 6-DOF arm, the two rows of its DH table the
/// notes show (kinematics only). Used by tests/test_robots_builtin.cpp.
///
/// ## Source and what is missing
///
/// The seeds (Saha, "Robot Dynamics: Euler-Lagrange", slides "Inverse Dynamics of 6-DOF Aristo
/// Robot" and "Simulation of Aristo Robot") show a RoboAnalyzer screenshot of the ARISTO's
/// "D-H Parameters" table. RoboAnalyzer (S. K. Saha, IIT Delhi) uses the standard DH form
/// (joint offset b = d, joint angle theta, link length a, twist alpha). The screenshot shows two
/// rows completely:
///
///     joint 1: revolute, b = 0.322 m, theta variable, a = 0,     alpha = 90 deg
///     joint 2: revolute, b = 0,       theta variable, a = 0.3 m, alpha = 0
///
/// with initial joint values 0 and 90 deg and final values 60 and 60 deg. Row 3 is cut off
/// (revolute, b = 0 is legible; a and alpha are not) and rows 4-6 and all link masses and
/// inertias are not shown. We did not find a citable source for the rest of the table (Saha's
/// *Introduction to Robotics* describes the ARISTO, but its table was not available to us), so
/// chaindyn gives exactly these two rows, as DH rows without inertia, for kinematics:
///
///     const auto rows = chaindyn::test::aristo_seed_rows();
///     const auto frame2 = chaindyn::dh::standard_pose(rows, Eigen::Vector2d(0, M_PI / 2));
///     // frame 2 at (0, 0, 0.622): the upper arm points straight up
///
/// A chain needs the links' inertias: add them with DHRow::with_inertia and call
/// dh::standard<ChainN<double, 2, RevoluteZ>>(rows).
#pragma once

#include "chaindyn/builders/dh.hpp"

#include <array>

namespace chaindyn::test {

/// Rows 1 and 2 of the ARISTO's RoboAnalyzer DH table (standard form), as the seeds show them;
/// no inertias (see the file comment).
template <typename Scalar = double>
std::array<DHRow<Scalar>, 2> aristo_seed_rows() {
  const Scalar half_pi = Scalar(1.57079632679489661923);
  return {DHRow<Scalar>::revolute(Scalar(0), half_pi, Scalar(0.322)).named("aristo_link1"),
          DHRow<Scalar>::revolute(Scalar(0.3), Scalar(0), Scalar(0)).named("aristo_link2")};
}

/// The seeds' initial and final joint values of joints 1 and 2 (rad): (0, 90 deg), (60, 60 deg).
inline constexpr std::array<double, 2> aristo_seed_initial = {0, 1.57079632679489661923};
inline constexpr std::array<double, 2> aristo_seed_final = {1.04719755119659774615,
                                                            1.04719755119659774615};

}  // namespace chaindyn::test
