/// @file
/// The planar two-link arm of Saha's lecture notes (ch8fdyn2: uniform rods m1 = 3 kg, m2 = 1 kg,
/// a1 = 2 m, a2 = 1 m, g = 9.81 m/s^2) as a built-in robot: the chain of
/// closed_form::TwoLinkArm::uniform_rods(3, 1, 2, 1).to_chain(), so its Lagrangian closed form
/// (M, C, g, energies) is closed_form::TwoLinkArm. The arm moves in the vertical x-y plane,
/// gravity (0, -9.81, 0), q1 from the horizontal, q2 relative to link 1 (see
/// closed_form/two_link_arm.hpp).
#pragma once

#include "chaindyn/closed_form/two_link_arm.hpp"

namespace chaindyn::robots {

/// The planar two-link arm's chain type: two joints about z.
template <typename Scalar = double>
using TwoLinkPlanar = typename closed_form::TwoLinkArm<Scalar>::ChainType;

/// The two-link arm's closed form (uniform rods 3 kg x 2 m and 1 kg x 1 m).
template <typename Scalar = double>
closed_form::TwoLinkArm<Scalar> two_link_arm_closed_form() {
  return closed_form::TwoLinkArm<Scalar>::uniform_rods(Scalar(3), Scalar(1), Scalar(2),
                                                       Scalar(1), Scalar(9.81));
}

/// The two-link arm as a chain (gravity (0, -9.81, 0)).
template <typename Scalar = double>
TwoLinkPlanar<Scalar> two_link_arm() {
  return two_link_arm_closed_form<Scalar>().to_chain();
}

}  // namespace chaindyn::robots
