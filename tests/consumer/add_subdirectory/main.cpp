// A consumer that adds chaindyn with add_subdirectory() + chaindyn::chaindyn.
#include <chaindyn/chaindyn.hpp>

#include <iostream>

int main() {
  chaindyn::Link<double> upper;
  upper.mass = 1.0;
  upper.com = {0.5, 0.0, 0.0};
  chaindyn::Link<double> lower = upper;
  lower.placement = chaindyn::Transform<double>::Translation({1.0, 0.0, 0.0});

  const chaindyn::Chain<double, chaindyn::RevoluteZ, chaindyn::RevoluteZ> arm({upper, lower});
  const Eigen::Vector2d q(0.3, -0.2), qd(0.5, 1.0), qdd(0.1, -0.4);
  const Eigen::Vector2d tau = chaindyn::rnea(arm, q, qd, qdd);
  std::cout << "chaindyn " << chaindyn::version << " (add_subdirectory): tau = " << tau.transpose()
            << '\n';
  return 0;
}
