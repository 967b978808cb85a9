/// @file
/// Identification, opt-in beside the core umbrella (it brings in <Eigen/SVD>): the
/// inverse-dynamics regressor (tau = Y pi, linear in 10 inertial parameters per link) and
/// PayloadIdentification (least-squares mass, centre of mass and inertia of a grasped object
/// from measured torques). See docs/identification.md.
#pragma once

#include "chaindyn/identification/base_parameters.hpp"
#include "chaindyn/identification/excitation.hpp"
#include "chaindyn/identification/floating_regressor.hpp"
#include "chaindyn/identification/friction_identification.hpp"
#include "chaindyn/identification/pseudo_inertia.hpp"
#include "chaindyn/identification/online_payload.hpp"
#include "chaindyn/identification/payload_identification.hpp"
#include "chaindyn/identification/regressor.hpp"
#include "chaindyn/identification/robot_identification.hpp"
