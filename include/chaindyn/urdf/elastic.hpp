/// @file
/// Elastic joints from a URDF: chaindyn's extension element `<chaindyn:elastic>` inside a
/// `<joint>` gives the joint's spring (Spong's reduced model, model/elastic_joints.hpp):
///
///     <joint name="iiwa_joint_1" type="revolute"> ...
///       <chaindyn:elastic stiffness="20000" damping="5" rotor_inertia="0.4"/>
///     </joint>
///
/// stiffness K (N m/rad or N/m, required, > 0), damping D (N m s/rad, optional, default 0,
/// >= 0), rotor_inertia B reflected to the joint (kg m^2 or kg, required, > 0); a joint without
/// the element is rigid (its rotor inertia, if any, is the model's armature). URDF tools
/// ignore elements they do not know (the `chaindyn:` prefix keeps it apart, as Drake's
/// `drake:` elements). urdf::load_elastic reads them for a model loaded from the same file,
/// matching the model's joints by name (Link::joint_name). docs/elastic_joints.md.
#pragma once

#include "chaindyn/model/elastic_joints.hpp"
#include "chaindyn/urdf/build.hpp"
#include "chaindyn/urdf/description.hpp"
#include "chaindyn/urdf/error.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <string_view>

namespace chaindyn::urdf {

/// The ElasticJoints of `model` (loaded from this URDF text: load, load_any, load_tree) from the
/// `<chaindyn:elastic>` element of each of its joints, found by name (Link::joint_name); a
/// joint without one is rigid (stiffness +inf: ElasticJoints). Throws ParseError naming the
/// joint (a joint the file does not have, a value out of range).
template <typename Model>
ElasticJoints<Model> parse_elastic(std::string_view xml, const Model& model) {
  using Vector = typename Model::Vector;
  using Scalar = typename Model::Scalar;
  const Document d = detail::read_document(xml);
  const detail::Place robot{detail::quoted("robot", d.robot_name), d.robot_line};
  const auto n = Eigen::Index(chaindyn::detail::joint_count(model));
  Vector k(n), damping(n), b(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const std::string& name = model.link(std::size_t(i)).joint_name;
    const JointRecord* jr = nullptr;
    for (const JointRecord& j : d.joints) {
      if (!name.empty() && j.name == name) jr = &j;
    }
    if (!jr) {
      detail::fail(robot, "the model's joint ", i,
                   name.empty() ? std::string(" has no name (Link::joint_name)")
                                : " '" + name + "' is not in the file",
                   ": load the model from this file to read its elastic joints");
    }
    const detail::Place at{detail::quoted("joint", jr->name),
                           jr->elastic_line > 0 ? jr->elastic_line : jr->line};
    if (jr->elastic_line == 0) {  // a rigid joint
      k[i] = Scalar(std::numeric_limits<double>::infinity());
      damping[i] = Scalar(0);
      b[i] = Scalar(0);
      continue;
    }
    if (!(jr->elastic_stiffness > 0.0)) {
      detail::fail(at, "<chaindyn:elastic> stiffness ", jr->elastic_stiffness,
                   " is not positive");
    }
    if (!(jr->elastic_damping >= 0.0)) {
      detail::fail(at, "<chaindyn:elastic> damping ", jr->elastic_damping, " is negative");
    }
    if (!(jr->elastic_rotor_inertia > 0.0)) {
      detail::fail(at, "<chaindyn:elastic> rotor_inertia ", jr->elastic_rotor_inertia,
                   " is not positive");
    }
    k[i] = Scalar(jr->elastic_stiffness);
    damping[i] = Scalar(jr->elastic_damping);
    b[i] = Scalar(jr->elastic_rotor_inertia);
  }
  return ElasticJoints<Model>(model, k, damping, b);
}

/// parse_elastic of the file at `path`; errors name the file.
template <typename Model>
ElasticJoints<Model> load_elastic(const std::string& path, const Model& model) {
  const std::string text = detail::read_file(path);
  try {
    return parse_elastic(text, model);
  } catch (const ParseError& e) {
    detail::rethrow_in_file(e, path);
  }
}

}  // namespace chaindyn::urdf
