/// @file
/// chaindyn: rigid-body dynamics of serial manipulators. The umbrella header.
///
///     tau = M(q) qdd + C(q, qd) qd + g(q) + eps(qd)          (eps: joint friction)
///
/// rnea (tau from qdd), crba (M), aba (qdd from tau), nonlinear_effects (C qd + g),
/// gravity_torques (g), forward_dynamics_crba (the O(n^3) reference), forward_kinematics,
/// kinetic_energy, potential_energy; the Lagrangian closed forms in chaindyn::closed_form;
/// built-in robots in chaindyn::robots.
/// Conventions: docs/conventions.md.
#pragma once

#include "chaindyn/version.hpp"

#include "chaindyn/spatial/inertia.hpp"
#include "chaindyn/spatial/motion.hpp"
#include "chaindyn/spatial/transform.hpp"

#include "chaindyn/joints/prismatic.hpp"
#include "chaindyn/joints/revolute.hpp"

#include "chaindyn/model/chain.hpp"
#include "chaindyn/model/data.hpp"
#include "chaindyn/model/error.hpp"
#include "chaindyn/model/link.hpp"

#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/algorithms/crba.hpp"
#include "chaindyn/algorithms/energy.hpp"
#include "chaindyn/algorithms/forward_dynamics_crba.hpp"
#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/algorithms/friction.hpp"
#include "chaindyn/algorithms/nonlinear_effects.hpp"
#include "chaindyn/algorithms/rnea.hpp"

#include "chaindyn/closed_form/closed_form.hpp"
#include "chaindyn/robots/kuka_iiwa.hpp"
