/// @file
/// The Lagrangian closed-form models, chaindyn::closed_form: SimplePendulum, OneLinkArm
/// (CompoundPendulum), TwoLinkArm, SphericalPendulum. Each gives M, C (Christoffel form), g,
/// inverse and forward dynamics, energies and to_chain(), the same system as a Chain.
/// The models, their conventions and the errata of the lecture notes they come from: docs/closed_forms.md.
#pragma once

#include "chaindyn/closed_form/one_link_arm.hpp"
#include "chaindyn/closed_form/simple_pendulum.hpp"
#include "chaindyn/closed_form/spherical_pendulum.hpp"
#include "chaindyn/closed_form/two_link_arm.hpp"
