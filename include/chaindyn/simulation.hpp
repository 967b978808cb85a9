/// @file
/// Simulation, opt-in beside the core umbrella: trajectories (cycloidal, quintic, trapezoidal), integrators (semi-implicit
/// Euler, RK4, adaptive Dormand-Prince RK45 with dense output) and simulate() (aba under a
/// controller). See docs/simulation.md.
#pragma once

#include "chaindyn/simulation/integrators.hpp"
#include "chaindyn/simulation/simulate.hpp"
#include "chaindyn/simulation/trajectories.hpp"
