/// @file
/// Many states per call, opt-in beside the core umbrella: batch::rnea, aba, crba,
/// rnea_derivatives, aba_derivatives, frame_pose and jacobian over the columns of
/// Eigen::Matrix<double, N, Eigen::Dynamic>, W states per SIMD pack (batch/pack.hpp) and the
/// columns split over threads (batch::Workspace); rnea, aba, crba and jacobian on a moving base
/// too (batch/floating.hpp). See docs/batch.md.
#pragma once

#include "chaindyn/batch/aba.hpp"
#include "chaindyn/batch/columns.hpp"
#include "chaindyn/batch/crba.hpp"
#include "chaindyn/batch/derivatives.hpp"
#include "chaindyn/batch/floating.hpp"
#include "chaindyn/batch/kinematics.hpp"
#include "chaindyn/batch/pack.hpp"
#include "chaindyn/batch/rnea.hpp"
#include "chaindyn/batch/worker_pool.hpp"
#include "chaindyn/batch/workspace.hpp"
