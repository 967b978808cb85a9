/// @file
/// The planar two-link arm of Saha's lecture notes (ch8fdyn2: uniform rods m1 = 3 kg, m2 = 1 kg,
/// a1 = 2 m, a2 = 1 m, g = 9.81 m/s^2) as a built-in robot. The arm moves in the vertical x-y
/// plane, gravity (0, -9.81, 0), q1 from the horizontal, q2 relative to link 1. Its Lagrangian
/// closed form (M, C, g, energies) is closed_form::TwoLinkArm, built from the same numbers by
/// robots::two_link_arm_closed_form() (chaindyn/closed_form/two_link_arm.hpp).
#pragma once

#include "chaindyn/model/chain.hpp"

#include <array>
#include <string>
#include <utility>

namespace chaindyn::robots {

/// The planar two-link arm's chain type: two joints about z.
template <typename Scalar = double>
using TwoLinkPlanar = Chain<Scalar, RevoluteZ, RevoluteZ>;

/// The built-in arm's numbers: Saha's uniform rods (masses kg, lengths m, gravity m/s^2).
template <typename Scalar = double>
struct TwoLinkArmRods {
  Scalar m1 = Scalar(3);
  Scalar m2 = Scalar(1);
  Scalar a1 = Scalar(2);
  Scalar a2 = Scalar(1);
  Scalar g = Scalar(9.81);
};

namespace detail {

/// A straight link of a planar mechanism moving about its joint's z axis: the link frame's x
/// axis runs along the link, the centre of mass sits at (d, 0, 0), and the rotational inertia
/// about the centre of mass is diag(0, I_c, I_c) (a thin rod's: no inertia about its own
/// axis; I_c about the joint axis z). A point mass is I_c = 0.
template <typename Scalar>
Link<Scalar> planar_link(std::string name, const Transform<Scalar>& placement,
                         const Scalar& mass, const Scalar& d, const Scalar& inertia_about_com) {
  Link<Scalar> link;
  link.name = std::move(name);
  link.placement = placement;
  link.mass = mass;
  link.com = Vector3<Scalar>(d, Scalar(0), Scalar(0));
  link.inertia = Matrix3<Scalar>::Zero();
  link.inertia(1, 1) = inertia_about_com;
  link.inertia(2, 2) = inertia_about_com;
  return link;
}

}  // namespace detail

/// A planar two-link arm as a chain, gravity (0, -g, 0): joint 1 at the base origin with the
/// identity placement, joint 2 at (a1, 0, 0) in link 1's frame; link i's centre of mass at
/// (d_i, 0, 0) and rotational inertia about it diag(0, I_i, I_i) (thin rods along x).
/// (closed_form::TwoLinkArm::to_chain builds its chain here.)
template <typename Scalar>
TwoLinkPlanar<Scalar> two_link_planar_chain(const Scalar& m1, const Scalar& m2, const Scalar& a1,
                                            const Scalar& d1, const Scalar& d2, const Scalar& I1,
                                            const Scalar& I2, const Scalar& g) {
  const std::array<Link<Scalar>, 2> links = {
      detail::planar_link<Scalar>("link1", Transform<Scalar>::Identity(), m1, d1, I1),
      detail::planar_link<Scalar>(
          "link2", Transform<Scalar>::Translation(Vector3<Scalar>(a1, Scalar(0), Scalar(0))), m2,
          d2, I2)};
  return TwoLinkPlanar<Scalar>(links, Vector3<Scalar>(Scalar(0), -g, Scalar(0)));
}

/// The two-link arm as a chain (uniform rods: d_i = a_i / 2, I_i = m_i a_i^2 / 12; gravity
/// (0, -9.81, 0)).
template <typename Scalar = double>
TwoLinkPlanar<Scalar> two_link_arm() {
  const TwoLinkArmRods<Scalar> r;
  return two_link_planar_chain<Scalar>(r.m1, r.m2, r.a1, r.a1 / Scalar(2), r.a2 / Scalar(2),
                                       r.m1 * r.a1 * r.a1 / Scalar(12),
                                       r.m2 * r.a2 * r.a2 / Scalar(12), r.g);
}

}  // namespace chaindyn::robots
