/// @file
/// chaindyn: rigid-body dynamics of serial manipulators. The core umbrella.
///
///     tau = M(q) qdd + C(q, qd) qd + g(q) + eps(qd)          (eps: joint friction)
///
/// rnea (tau from qdd), crba (M), aba (qdd from tau), nonlinear_effects (C qd + g),
/// gravity_torques (g), coriolis_matrix (C), christoffel_symbols, forward_dynamics_crba (the
/// O(n^3) reference), forward_kinematics, frame_pose, jacobian, jdot_qd,
/// joint_torques_from_wrench, frame_velocity, frame_acceleration, frame_classical_acceleration,
/// jacobian_time_derivative, kinetic_energy, potential_energy, inverse_mass_matrix,
/// rnea_derivatives, aba_derivatives; task-space dynamics (operational_space_inertia,
/// operational_space_dynamics, dynamically_consistent_inverse, null_space_projector); DH builders in chaindyn::dh; built-in robots in
/// chaindyn::robots.
///
/// The opt-in rooms beside it (docs/architecture.md): chaindyn/simulation.hpp (integrators,
/// simulate, trajectories), chaindyn/closed_form.hpp (Lagrangian closed forms and the
/// Euler-Lagrange engine), chaindyn/identification.hpp (regressor, payload identification),
/// chaindyn/urdf.hpp (URDF parser, needs tinyxml2); chaindyn/all.hpp is all but the parser.
/// Conventions: docs/conventions.md.
#pragma once

#include "chaindyn/config.hpp"
#include "chaindyn/error.hpp"

#include "chaindyn/spatial/inertia.hpp"
#include "chaindyn/spatial/motion.hpp"
#include "chaindyn/spatial/transform.hpp"

#include "chaindyn/joints/prismatic.hpp"
#include "chaindyn/joints/revolute.hpp"
#include "chaindyn/joints/any_joint.hpp"

#include "chaindyn/model/chain.hpp"
#include "chaindyn/model/data.hpp"
#include "chaindyn/model/link.hpp"
#include "chaindyn/model/payload.hpp"
#include "chaindyn/model/per_link.hpp"
#include "chaindyn/model/scalar_cast.hpp"
#include "chaindyn/model/tree.hpp"
#include "chaindyn/model/floating_base.hpp"

#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/algorithms/aba_derivatives.hpp"
#include "chaindyn/algorithms/coriolis.hpp"
#include "chaindyn/algorithms/crba.hpp"
#include "chaindyn/algorithms/elastic_joints.hpp"
#include "chaindyn/algorithms/energy.hpp"
#include "chaindyn/algorithms/floating_base.hpp"
#include "chaindyn/algorithms/floating_base_derivatives.hpp"
#include "chaindyn/algorithms/forward_dynamics_crba.hpp"
#include "chaindyn/algorithms/forward_kinematics.hpp"
#include "chaindyn/algorithms/frame_motion.hpp"
#include "chaindyn/algorithms/frames.hpp"
#include "chaindyn/algorithms/friction.hpp"
#include "chaindyn/algorithms/friction_models.hpp"
#include "chaindyn/algorithms/inverse_mass_matrix.hpp"
#include "chaindyn/algorithms/jacobian.hpp"
#include "chaindyn/algorithms/nonlinear_effects.hpp"
#include "chaindyn/algorithms/operational_space.hpp"
#include "chaindyn/algorithms/rnea.hpp"
#include "chaindyn/algorithms/rnea_derivatives.hpp"

#include "chaindyn/builders/dh.hpp"
#include "chaindyn/robots/kuka_iiwa.hpp"
#include "chaindyn/robots/panda.hpp"
#include "chaindyn/robots/puma560.hpp"
#include "chaindyn/robots/two_link_arm.hpp"
#include "chaindyn/robots/ur5.hpp"
