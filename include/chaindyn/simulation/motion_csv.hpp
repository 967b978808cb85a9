/// @file
/// write_motion_csv(): a simulation's motion as a CSV file, a header `t_s,q1,...,qN` and one row
/// per sample, every number to the digits that read back exactly (max_digits10). The file the
/// robot viewer plays: `chaindyn-view robot.urdf --motion run.csv` writes the browser page
/// (docs/python.md, "The robot in the browser").
#pragma once

#include "chaindyn/error.hpp"
#include "chaindyn/simulation/simulate.hpp"

#include <fstream>
#include <limits>
#include <ostream>
#include <string>

namespace chaindyn {

/// Writes the motion of `run` (its times and joint positions) to `os` as CSV.
template <typename Vector>
void write_motion_csv(std::ostream& os, const SimulationResultOf<Vector>& run) {
  using Scalar = typename Vector::Scalar;
  const auto n = run.q.empty() ? Eigen::Index(0) : run.q.front().size();
  const auto precision = os.precision(std::numeric_limits<Scalar>::max_digits10);
  os << "t_s";
  for (Eigen::Index i = 0; i < n; ++i) os << ",q" << i + 1;
  os << '\n';
  for (std::size_t k = 0; k < run.size(); ++k) {
    os << run.t[k];
    for (Eigen::Index i = 0; i < n; ++i) os << ',' << run.q[k][i];
    os << '\n';
  }
  os.precision(precision);
}

/// Writes the motion of `run` to the file `path` as CSV; ArgumentError when the file cannot be
/// written.
template <typename Vector>
void write_motion_csv(const std::string& path, const SimulationResultOf<Vector>& run) {
  std::ofstream os(path);
  if (os) write_motion_csv(os, run);
  if (!os) detail::throw_error<ArgumentError>("cannot write the motion file '", path, "'");
}

}  // namespace chaindyn
