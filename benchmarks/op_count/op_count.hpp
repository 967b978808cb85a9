// The parts of the op_count program (op_count.cpp: main, tables, CSV files; counts.cpp: exact
// operation counts with the counting scalar; timing.cpp: chrono timings in double), in three
// translation units so that they compile in parallel.
#pragma once

#include "op_count/counting_scalar.hpp"

#include <string>
#include <vector>

namespace chaindyn::op_count {

/// The exact operations of one call of `algorithm` on a chain of n joints of type `joint`.
struct CountRow {
  std::string joint;      ///< "RevoluteZ", "Revolute" (ChainN<Counted, n, ...>) or "iiwa"
  int n = 0;
  std::string algorithm;  ///< rnea, crba, aba, forward_dynamics_crba, nonlinear_effects,
                          ///< gravity_torques, lagrange_euler, lagrange_euler_mass_matrix
  Counts counts;
};

/// chaindyn's six algorithms on ChainN<Counted, n, RevoluteZ> and <..., Revolute> for
/// n = 1..8, 16, 32, 64, 128 (quick: n = 1..8), and on the iiwa.
std::vector<CountRow> count_chaindyn(bool quick);

/// The Lagrange-Euler baseline (full inverse dynamics and mass matrix alone) on
/// ChainN<Counted, n, RevoluteZ> for n = 1..8, 12, 16, 24, 32 (quick: n = 1..7), and the iiwa.
std::vector<CountRow> count_lagrange_euler(bool quick);

/// Median wall-clock time per call (double, in-place forms, precomputed random states).
struct TimingRow {
  std::string algorithm;
  int n = 0;
  double median_ns = 0;
  double min_ns = 0;  ///< the fastest repetition (interference only ever adds time)
  int repetitions = 0;
  long calls_per_repetition = 0;
};

/// rnea, aba, forward_dynamics_crba and crba on ChainN<double, n, RevoluteZ> for
/// n = 1, 2, 4, ..., 128, and the Lagrange-Euler baseline for n = 1, 2, 4, ..., 64; the
/// repetitions interleave all cells. quick: n <= 8, one short repetition.
std::vector<TimingRow> time_sweep(bool quick, int repetitions, double seconds_per_cell);

}  // namespace chaindyn::op_count
