/// @file
/// The lecture notes' pick-and-place object, shared by the payload examples (not part of the
/// chaindyn library).
#pragma once

#include <chaindyn/model/payload.hpp>

namespace example_support {

/// A 0.851 kg box, 6 x 6 x 12 cm, held with its centre of mass 10 cm beyond the flange on the
/// flange's z axis (link 7's frame is the flange frame of robots::kuka_iiwa()); the inertia of
/// a uniform box about its centre, m (b^2 + c^2) / 12, ...
inline chaindyn::Payload<double> notes_object() {
  const double m = 0.851, a = 0.06, b = 0.06, c = 0.12;
  chaindyn::Payload<double> p;
  p.mass = m;
  p.com = Eigen::Vector3d(0, 0, 0.10);
  p.inertia = Eigen::Vector3d(m / 12 * (b * b + c * c), m / 12 * (a * a + c * c),
                              m / 12 * (a * a + b * b))
                  .asDiagonal();
  return p;
}

}  // namespace example_support
