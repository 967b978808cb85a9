// A consumer of an installed chaindyn: find_package(chaindyn) + chaindyn::chaindyn.
#include <chaindyn/chaindyn.hpp>
#include <chaindyn/version.hpp>  // generated from project(VERSION)

#include <cstring>

#include <iostream>

int main() {
  // The generated version header must say what the package / project says.
  if (std::strcmp(chaindyn::version, CHAINDYN_EXPECTED_VERSION) != 0) {
    std::cerr << "chaindyn::version is " << chaindyn::version << ", expected "
              << CHAINDYN_EXPECTED_VERSION << '\n';
    return 1;
  }
  chaindyn::Link<double> upper;
  upper.mass = 1.0;
  upper.com = {0.5, 0.0, 0.0};
  chaindyn::Link<double> lower = upper;
  lower.placement = chaindyn::Transform<double>::Translation({1.0, 0.0, 0.0});

  const chaindyn::Chain<double, chaindyn::RevoluteZ, chaindyn::RevoluteZ> arm({upper, lower});
  const Eigen::Vector2d q(0.3, -0.2), qd(0.5, 1.0), qdd(0.1, -0.4);
  const Eigen::Vector2d tau = chaindyn::rnea(arm, q, qd, qdd);
  std::cout << "chaindyn " << chaindyn::version << " (installed): tau = " << tau.transpose()
            << '\n';
  return 0;
}
