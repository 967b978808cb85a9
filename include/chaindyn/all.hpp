/// @file
/// Everything but the URDF parser: the core umbrella and the opt-in rooms (simulation,
/// closed forms and the Euler-Lagrange engine, identification). For quick programs and
/// notebooks; a controller that needs only the dynamics includes chaindyn/chaindyn.hpp.
#pragma once

#include "chaindyn/chaindyn.hpp"
#include "chaindyn/closed_form.hpp"
#include "chaindyn/identification.hpp"
#include "chaindyn/simulation.hpp"
