/// @file
/// The two-link arm the simulation, identification and DH tests share: Saha's planar arm of
/// uniform rods, m1 = 3 kg, m2 = 1 kg, a1 = 2 m, a2 = 1 m, g = 9.81 (robots::two_link_arm()'s
/// numbers), as the Lagrangian closed form; its to_chain() is the chain.
#pragma once

#include <chaindyn/closed_form/two_link_arm.hpp>

namespace chaindyn::test {

inline closed_form::TwoLinkArm<double> two_link_rods() {
  return closed_form::TwoLinkArm<double>::uniform_rods(3, 1, 2, 1, 9.81);
}

}  // namespace chaindyn::test
