/// @file
/// The URDF parser (optional; CMake target chaindyn::urdf, needs tinyxml2): builds the Chain
/// type the caller names from a URDF document.
///
///     using Arm = chaindyn::ChainN<double, 7, chaindyn::RevoluteZ>;
///     const Arm arm = chaindyn::urdf::load<Arm>("iiwa14.urdf");            // root to the leaf
///     const Arm arm2 = chaindyn::urdf::parse<Arm>(xml_text, "iiwa_link_7");  // root to a tip
///
/// - The chain is the path of moving joints from the root link (the base, fixed to the world)
///   to the tip link; without a tip, the tree must have a single leaf (a branch is an error
///   naming it); with a tip, moving joints off the path are left out.
/// - Fixed joints are merged: a link welded by fixed joints to a chain link adds its inertia to
///   that link's, and fixed joints between two moving joints compose into the second one's
///   placement (those before the first moving joint into the first one's).
/// - `continuous` is revolute; `floating` and `planar` joints are refused on the path and left
///   out elsewhere.
/// - Only what the chain uses is checked: the rigid body of each chain link (its <inertial>
///   with the links fixed to it merged in). The root link's inertia and everything off the path
///   are reported (urdf::Report), not refused. A non-physical inertia on the chain is refused,
///   repaired or kept as LoadOptions::inertia says (InertiaPolicy: strict, repair, accept). A
///   chain without any mass loads for kinematics only (Chain::has_dynamics() false).
///
///     chaindyn::urdf::LoadOptions options;
///     options.tip = "panda_hand";
///     options.inertia = chaindyn::urdf::InertiaPolicy::repair;
///     chaindyn::urdf::Report report;
///     const Arm arm3 = chaindyn::urdf::load<Arm>("panda.urdf", options, &report);
///     std::cout << report;   // one line per finding: file:line: warning: link 'x': ...
/// - Joint slots with the axis in their type (RevoluteZ, PrismaticX, ...) accept any URDF axis:
///   the joint frame is turned by the rotation R_a that takes the type's axis e_K to the URDF
///   axis a (rotation_onto below), so q means the same motion; the next placement, the link's
///   centre of mass and inertia are re-expressed in the turned link frame. Run-time-axis slots
///   (Revolute, Prismatic) take the axis as written.
/// - Errors: ParseError (a chaindyn::ModelError) naming the element and the XML line.
/// - The whole tree: load_tree (urdf/tree.hpp); on a free-flying base: load_floating; the
///   joints' springs of chaindyn's `<chaindyn:elastic>` elements: load_elastic (urdf/elastic.hpp).
/// docs/urdf.md describes all of this at length.
#pragma once

#include "chaindyn/urdf/build.hpp"
#include "chaindyn/urdf/description.hpp"
#include "chaindyn/urdf/document.hpp"
#include "chaindyn/urdf/elastic.hpp"
#include "chaindyn/urdf/error.hpp"
#include "chaindyn/urdf/report.hpp"
#include "chaindyn/urdf/tree.hpp"
