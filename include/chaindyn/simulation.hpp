/// @file
/// Simulation, opt-in beside the core umbrella: trajectories (cycloidal, quintic, trapezoidal), integrators (semi-implicit
/// Euler, RK4, adaptive Dormand-Prince RK45 with dense output) and simulate() (aba under a
/// controller), write_motion_csv() (a run as the CSV file the robot viewer plays). See
/// docs/simulation.md.
#pragma once

#include "chaindyn/simulation/integrators.hpp"
#include "chaindyn/simulation/motion_csv.hpp"
#include "chaindyn/simulation/simulate.hpp"
#include "chaindyn/simulation/simulate_elastic.hpp"
#include "chaindyn/simulation/simulate_lugre.hpp"
#include "chaindyn/simulation/trajectories.hpp"
