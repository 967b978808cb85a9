/// @file
/// The Lagrangian room, opt-in beside the core umbrella: the closed-form models of
/// chaindyn::closed_form (simple and compound pendulum / one-link arm, two-link planar arm,
/// spherical pendulum) and the Euler-Lagrange engine that derives the equations of motion of
/// any Lagrangian by automatic differentiation (chaindyn::lagrange). See docs/closed_forms.md
/// and docs/lagrange.md.
#pragma once

#include "chaindyn/closed_form/closed_form.hpp"
#include "chaindyn/closed_form/euler_lagrange.hpp"
