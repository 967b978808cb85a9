/// @file
/// The whole tree of a URDF: every moving joint of the file in one model (a TreeX, or a
/// compile-time Tree whose parents and joint types match the file): urdf::describe_tree,
/// build_tree, parse_tree, load_tree. The chain loaders (urdf::load, load_any) keep one
/// root-to-tip path; these load every branch. docs/urdf.md ("The whole tree").
///
///     chaindyn::TreeX<double> panda = chaindyn::urdf::load_tree("panda.urdf");  // 9 joints
///     std::size_t f = panda.joint_index("panda_finger_joint1");
///
/// - Joint order: depth-first from the root link, the children of a link in document order
///   (parents before children; each branch a contiguous run of indices).
/// - Fixed joints are merged as for chains (urdf.hpp); every link welded to the root or to a
///   moving link is a named frame of the tree.
/// - `floating` and `planar` joints cannot be in the model (fixed base, one-degree-of-freedom
///   joints): each is left out with what hangs on it, and reported.
/// - A joint that moves no mass (a gripper finger without <inertial>) is kept as the file has
///   it, with the policy TreeLoadOptions::massless: kinematics (default), armature or refuse.
#pragma once

#include "chaindyn/model/floating_base.hpp"
#include "chaindyn/model/tree.hpp"
#include "chaindyn/urdf/build.hpp"
#include "chaindyn/urdf/description.hpp"
#include "chaindyn/urdf/error.hpp"
#include "chaindyn/urdf/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace chaindyn::urdf {

/// What a tree load does with a moving joint whose articulated-body pivot vanishes -- it moves
/// no mass, e.g. a gripper finger without <inertial> (the model's regularity check,
/// docs/conventions.md "Model validation"). Every policy reports each such joint
/// (Diagnostic::Kind::massless_joint).
enum class MasslessPolicy {
  /// Keep the file's numbers. The tree is built with ModelChecks::regular off, so its
  /// has_dynamics() is false: the kinematics (poses, Jacobians) and the algorithms that do not
  /// divide by a joint's inertia -- rnea, gravity_torques, nonlinear_effects, crba (a singular
  /// M), the energies, the regressor -- are exact; aba, forward_dynamics_crba,
  /// inverse_mass_matrix and simulate divide by zero there (the default).
  kinematics,
  /// Give each such joint the armature TreeLoadOptions::armature (kg m^2 for a revolute
  /// joint, kg for a prismatic one): M gains it on that joint's diagonal entry, the tree is
  /// regular and every algorithm runs; the joint's torque gains armature * qdd.
  armature,
  /// Refuse the file: ParseError naming the first such joint.
  refuse,
};

inline const char* massless_policy_name(MasslessPolicy p) {
  switch (p) {
    case MasslessPolicy::kinematics: return "kinematics";
    case MasslessPolicy::armature: return "armature";
    case MasslessPolicy::refuse: return "refuse";
  }
  return "?";
}

/// The policy named `name` ("kinematics", "armature", "refuse") into `out`; false (and `out`
/// unchanged) for any other name.
inline bool massless_policy_from_name(const std::string& name, MasslessPolicy& out) {
  for (const MasslessPolicy p :
       {MasslessPolicy::kinematics, MasslessPolicy::armature, MasslessPolicy::refuse}) {
    if (name == massless_policy_name(p)) {
      out = p;
      return true;
    }
  }
  return false;
}

/// How to load a whole tree (describe_tree, parse_tree, load_tree).
struct TreeLoadOptions {
  /// What a non-physical inertia of a link of the tree does (InertiaPolicy; strict: refuse).
  InertiaPolicy inertia = InertiaPolicy::strict;
  /// What a joint that moves no mass does (MasslessPolicy; kinematics: kept, reported).
  MasslessPolicy massless = MasslessPolicy::kinematics;
  /// The armature MasslessPolicy::armature gives each such joint (> 0).
  double armature = 1e-3;
};

/// The tree a URDF describes, independent of any model type: every moving joint the model can
/// hold, in joint order (depth-first from the root link, the children of a link in document
/// order; parents before children), each with its parent, and the parser's report.
struct TreeDescription {
  std::string robot_name;
  int robot_line = 0;
  std::string root_link;
  /// The moving joints in joint order: placement in the parent link's URDF frame (fixed joints
  /// composed in), axis as written (normalized), merged inertia, dynamics (armature added by
  /// MasslessPolicy::armature), limits, names (as Description::joints).
  std::vector<ChainJoint> joints;
  /// parents[i]: joint i's parent joint (the joint whose link i hangs on, through fixed
  /// joints), no_parent for a joint on the root link or a link fixed to it.
  std::vector<std::size_t> parents;
  /// The joints whose articulated-body pivot vanishes (they move no mass), ascending, as the
  /// file has them (before MasslessPolicy::armature).
  std::vector<std::size_t> massless;
  /// Every link welded to the root or to a moving link (LinkFrame::body: the joint index, or
  /// LinkFrame::base), breadth-first from the root: the named frames of the tree.
  std::vector<LinkFrame> frames;
  Report report;
  /// physical_inertia off when a non-physical inertia was kept (InertiaPolicy::accept);
  /// regular off when a joint moves no mass under MasslessPolicy::kinematics.
  ModelChecks checks;
};

namespace detail {

/// Reports what the tree does not hold: the root link's inertia and that of links fixed to it,
/// and each floating or planar joint left out with its subtree (non-physical inertias there
/// as warnings).
inline void report_off_tree(const Document& d, const Tree& t, const Bodies& b,
                            const std::vector<std::size_t>& dropped_by, bool floating,
                            TreeDescription& out) {
  std::vector<std::size_t> roots;  // the joints left out, breadth-first
  for (const std::size_t l : b.order) {
    if (l == t.root) continue;
    const std::size_t j = t.parent_joint[l];
    if (dropped_by[l] == j) roots.push_back(j);
  }
  for (const std::size_t j : roots) {
    const JointRecord& jr = d.joints[j];
    std::vector<std::size_t> links;
    for (const std::size_t l : b.order) {
      if (dropped_by[l] == j) links.push_back(l);
    }
    const std::string what =
        links.size() == 1
            ? "link " + link_list(d, links)
            : std::to_string(links.size()) + " links (" + link_list(d, links) + ") and " +
                  std::to_string(links.size() - 1) +
                  (links.size() == 2 ? " joint" : " joints") + " among them";
    out.report.diagnostics.push_back(Diagnostic{
        Diagnostic::Severity::note, Diagnostic::Kind::off_chain, jr.line, quoted("joint", jr.name),
        std::string(type_name(jr.type)) +
            " joint: not supported in a tree model (one-degree-of-freedom joints on a base "
            "fixed to the world): left out, with " + what});
  }
  for (const std::size_t l : b.order) {
    const LinkRecord& r = d.links[l];
    if (!has_mass(r)) continue;
    const std::string rule = own_problem(r);
    if (dropped_by[l] == npos && b.body[l] == t.root) {
      if (floating) continue;  // the floating base body's inertia (describe_floating)
      const std::string what =
          l == t.root ? std::string("the root link is the base, fixed to the world")
                      : "fixed to the root link '" + d.links[t.root].name +
                            "', it is part of the base, fixed to the world";
      out.report.diagnostics.push_back(Diagnostic{
          rule.empty() ? Diagnostic::Severity::note : Diagnostic::Severity::warning,
          Diagnostic::Kind::base_inertia, r.line, quoted("link", r.name),
          rule.empty() ? what + ": its inertia (" + number_text(r.mass) +
                             " kg) is not part of the tree"
                       : "<inertial>: " + rule + ": ignored (" + what +
                             ": its inertia is not part of the tree)"});
    } else if (dropped_by[l] != npos && !rule.empty()) {
      out.report.diagnostics.push_back(Diagnostic{
          Diagnostic::Severity::warning, Diagnostic::Kind::off_chain_inertia, r.line,
          quoted("link", r.name),
          "<inertial>: " + rule + ": ignored (left out with joint '" +
              d.joints[dropped_by[l]].name + "')"});
    }
  }
}

/// The joints of `out` whose articulated-body pivot vanishes at every configuration the
/// model's regularity check tries (chaindyn::detail::find_singular_joint, the same check a
/// model's constructor makes), ascending.
inline std::vector<std::size_t> singular_joints(const TreeDescription& out) {
  const std::size_t n = out.joints.size();
  std::vector<chaindyn::detail::PivotJoint> js(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Link<double>& l = out.joints[i].link;
    js[i] = chaindyn::detail::pivot_joint(JointSlot{out.joints[i].kind, -1}, l,
                                          Inertia<double>::from_com(l.mass, l.com, l.inertia),
                                          l.dynamics.armature);
    js[i].parent = out.parents[i] == no_parent ? -1 : int(out.parents[i]);
  }
  std::vector<std::size_t> found;
  if (chaindyn::detail::find_singular_joint(js.data(), int(n)) < 0) return found;
  for (std::size_t i = 0; i < n; ++i) {
    if (js[i].vanishes) found.push_back(i);
  }
  return found;
}

/// The tree of the links below t.root (the file's root link, or the base link of a floating
/// base: `floating`, whose body's inertia is then not reported as left out).
inline TreeDescription describe_tree(const Document& d, const TreeLoadOptions& options,
                                     const Tree& t, bool floating) {
  const Place robot{quoted("robot", d.robot_name), d.robot_line};
  if (options.massless == MasslessPolicy::armature &&
      !(options.armature > 0.0 && std::isfinite(options.armature))) {
    fail(robot, "TreeLoadOptions::armature is ", options.armature,
         ": MasslessPolicy::armature needs a finite armature > 0");
  }
  const Bodies b = weld_fixed_joints(d, t);
  TreeDescription out;
  out.robot_name = d.robot_name;
  out.robot_line = d.robot_line;
  out.root_link = d.links[t.root].name;

  // Joint order: depth-first from the root, children in document order (a stack, pushed in
  // reverse). index[link]: the joint index of a moving joint's child link; dropped_by[link]:
  // the floating or planar joint whose subtree holds it.
  std::vector<std::size_t> index(d.links.size(), npos), dropped_by(d.links.size(), npos);
  std::vector<std::size_t> joint_of;  // per joint index, the URDF joint
  std::vector<std::size_t> stack{t.root};
  while (!stack.empty()) {
    const std::size_t l = stack.back();
    stack.pop_back();
    if (l != t.root) {
      const std::size_t j = t.parent_joint[l];
      const std::size_t p = t.parent_index[j];
      if (dropped_by[p] != npos) {
        dropped_by[l] = dropped_by[p];
      } else if (moving(d.joints[j]) && !supported(d.joints[j])) {
        dropped_by[l] = j;
      } else if (moving(d.joints[j])) {
        index[l] = joint_of.size();
        joint_of.push_back(j);
      }
    }
    const std::vector<std::size_t>& children = t.child_joints[l];
    for (std::size_t k = children.size(); k-- > 0;) stack.push_back(t.child_index[children[k]]);
  }

  for (std::size_t i = 0; i < joint_of.size(); ++i) {
    const JointRecord& jr = d.joints[joint_of[i]];
    const std::size_t child = t.child_index[joint_of[i]];
    const std::size_t parent = t.parent_index[joint_of[i]];
    ChainJoint cj =
        moved_link(d, b, jr, child, parent, options.inertia, out, "in the tree", "tree");
    const std::size_t body = b.body[parent];
    out.parents.push_back(body == t.root ? no_parent : index[body]);
    out.joints.push_back(std::move(cj));
  }
  if (out.joints.empty()) {
    const std::vector<std::size_t>& first = t.child_joints[t.root];
    const bool floating_root = !floating && first.size() == 1 &&
                               d.joints[first.front()].type == JointType::floating;
    fail(robot, "the tree from link '", out.root_link, "' has no revolute, continuous or "
         "prismatic joint",
         floating_root ? " (its joint '" + d.joints[first.front()].name +
                             "' is floating: urdf::load_floating loads the robot on a "
                             "free-flying base)"
                       : std::string());
  }

  out.massless = singular_joints(out);
  for (const std::size_t i : out.massless) {
    ChainJoint& cj = out.joints[i];
    const bool prismatic = cj.kind == JointKind::prismatic;
    const std::string what =
        std::string("the ") + (prismatic ? "prismatic" : "revolute") + " joint to link '" +
        cj.link.name + "' moves no " +
        (prismatic ? "mass along its axis" : "inertia about its axis") + " (link '" +
        cj.link.name + "': " + number_text(cj.link.mass) +
        " kg, with the links after it), so its articulated-body pivot vanishes and the mass "
        "matrix is singular";
    switch (options.massless) {
      case MasslessPolicy::refuse:
        fail(Place{quoted("joint", cj.link.joint_name), cj.line}, what,
             ". Load with TreeLoadOptions::massless = MasslessPolicy::kinematics (kept, "
             "has_dynamics() false) or MasslessPolicy::armature (a small armature on the "
             "joint), or give the link an <inertial>");
      case MasslessPolicy::kinematics:
        out.checks.regular = false;
        out.report.diagnostics.push_back(Diagnostic{
            Diagnostic::Severity::warning, Diagnostic::Kind::massless_joint, cj.line,
            quoted("joint", cj.link.joint_name),
            what + ": kept (MasslessPolicy::kinematics): poses, Jacobians, rnea and crba are "
                   "exact; aba and forward dynamics divide by zero on this joint (the tree's "
                   "has_dynamics() is false; MasslessPolicy::armature regularises it)"});
        break;
      case MasslessPolicy::armature:
        cj.link.dynamics.armature += options.armature;
        out.report.diagnostics.push_back(Diagnostic{
            Diagnostic::Severity::warning, Diagnostic::Kind::massless_joint, cj.line,
            quoted("joint", cj.link.joint_name),
            what + ": given the armature " + number_text(options.armature) +
                (prismatic ? " kg" : " kg m^2") +
                " (MasslessPolicy::armature): every algorithm runs; the joint's torque "
                "includes armature * qdd"});
        break;
    }
  }

  report_off_tree(d, t, b, dropped_by, floating, out);
  std::stable_sort(out.report.diagnostics.begin(), out.report.diagnostics.end(),
                   [](const Diagnostic& x, const Diagnostic& y) { return x.line < y.line; });

  for (const std::size_t l : b.order) {
    if (dropped_by[l] != npos) continue;
    const std::size_t body = b.body[l];
    LinkFrame f;
    f.name = d.links[l].name;
    f.body = body == t.root ? LinkFrame::base : index[body];
    f.pose = b.pose[l];
    f.line = d.links[l].line;
    out.frames.push_back(std::move(f));
  }
  return out;
}

}  // namespace detail

/// Reads a URDF and returns its whole tree, independent of any model type: every revolute,
/// continuous and prismatic joint in joint order (depth-first, parents before children) with
/// its parent, placements, axes as written, merged inertias (checked, repaired or kept as
/// `options.inertia` says), the joints that move no mass (`options.massless`), the named
/// frames, and the report. Throws ParseError.
inline TreeDescription describe_tree(std::string_view xml, const TreeLoadOptions& options = {}) {
  const Document d = detail::read_document(xml);
  return detail::describe_tree(d, options, detail::check_tree(d), false);
}

/// describe_tree of the file at `path`; errors and the report name the file.
inline TreeDescription describe_tree_file(const std::string& path,
                                          const TreeLoadOptions& options = {}) {
  const std::string text = detail::read_file(path);
  try {
    TreeDescription d = describe_tree(text, options);
    d.report.file = path;
    return d;
  } catch (const ParseError& e) {
    detail::rethrow_in_file(e, path);
  }
}

namespace detail {

template <typename T>
struct is_tree_x : std::false_type {};
template <typename S>
struct is_tree_x<TreeX<S>> : std::true_type {};

}  // namespace detail

/// The links of a tree with the given joint slots, built from a TreeDescription: checks the
/// joint count and each joint's kind against the slots, and for a slot with its axis in the
/// type (axis >= 0) turns the joint frame so that the URDF axis becomes that axis
/// (rotation_onto); a child's placement is re-expressed in its parent's turned frame. `turns`
/// receives the turn R_a of each link frame (identity where none: model link frame = URDF link
/// frame * turns[i]). Axes of run-time-axis slots stay as written; turned slots keep none.
/// Throws ParseError. (For generators; build_tree is this plus the model's constructor.)
inline std::vector<Link<double>> make_tree_links(const TreeDescription& d,
                                                 const std::vector<JointSlot>& slots,
                                                 std::vector<Eigen::Matrix3d>& turns) {
  const std::size_t n = d.joints.size();
  if (slots.size() != n) {
    detail::fail(detail::Place{detail::quoted("robot", d.robot_name), d.robot_line},
                 "the tree from link '", d.root_link, "' has ", n,
                 " moving joints but the model type has ", slots.size());
  }
  turns.assign(n, Eigen::Matrix3d::Identity());
  std::vector<Link<double>> links;
  for (std::size_t i = 0; i < n; ++i) {
    const ChainJoint& cj = d.joints[i];
    if (cj.kind != slots[i].kind) {
      detail::fail(detail::Place{detail::quoted("joint", cj.link.joint_name), cj.line}, "a ",
                   detail::type_name(cj.type), " joint given for joint ", i,
                   " of the model type, which is ", kind_name(slots[i].kind));
    }
    Link<double> l = cj.link;
    if (d.parents[i] != no_parent) {
      const Eigen::Matrix3d rp = turns[d.parents[i]];
      l.placement = Transform<double>(rp.transpose() * l.placement.rotation,
                                      rp.transpose() * l.placement.translation);
    }
    if (slots[i].axis >= 0) {
      const Eigen::Vector3d a = l.axis->normalized();
      if (a != Eigen::Vector3d::Unit(slots[i].axis)) {
        const Eigen::Matrix3d ra = rotation_onto(slots[i].axis, a);
        l.placement.rotation = (l.placement.rotation * ra).eval();
        l.com = (ra.transpose() * l.com).eval();
        l.inertia = (ra.transpose() * l.inertia * ra).eval();
        l.inertia = (0.5 * (l.inertia + l.inertia.transpose())).eval();
        turns[i] = ra;
      }
      l.axis.reset();
    }
    links.push_back(std::move(l));
  }
  return links;
}

/// The model of type TreeType from a TreeDescription, with the file's frames:
/// - TreeX<Scalar>: the file's joint count, kinds and parents, each joint frame turned so
///   that its axis is z (the joints then run RevoluteZ's / PrismaticZ's code);
/// - a compile-time Tree<Scalar, Parents<...>, Joints...> (or a Chain, for a file whose tree
///   is a chain in joint order): its parents must be the file's and each joint's kind must fit
///   its slot; a slot with its axis in the type turns the joint frame onto it (rotation_onto).
/// Each link whose frame was turned gets link_frame(i) = (R_a^T, 0), so the frame API speaks
/// the file's link frames; every link of TreeDescription::frames is a named frame. Built with
/// d.checks. Throws ParseError.
template <typename TreeType = TreeX<double>>
TreeType build_tree(const TreeDescription& d) {
  using Scalar = typename TreeType::Scalar;
  constexpr bool runtime_sized = detail::is_tree_x<TreeType>::value;
  static_assert(runtime_sized || TreeType::nq != Eigen::Dynamic,
                "build_tree: a TreeX or a compile-time Tree (ChainX has no parents: use "
                "TreeX)");
  const detail::Place robot{detail::quoted("robot", d.robot_name), d.robot_line};
  const std::size_t n = d.joints.size();
  std::vector<JointSlot> slots;
  if constexpr (runtime_sized) {
    for (const ChainJoint& j : d.joints) slots.push_back(JointSlot{j.kind, 2});
  } else {
    const auto fixed = TreeType::joint_slots();
    slots.assign(fixed.begin(), fixed.end());
    if (slots.size() == n) {
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t p = TreeType::parent(i);
        if (p == d.parents[i]) continue;
        const auto name = [&](std::size_t k) {
          return k == no_parent ? std::string("the base (-1)")
                                : "joint " + std::to_string(k) + " ('" +
                                      d.joints[k].link.joint_name + "')";
        };
        detail::fail(detail::Place{detail::quoted("joint", d.joints[i].link.joint_name),
                                   d.joints[i].line},
                     "joint ", i, "'s parent in the file is ", name(d.parents[i]),
                     ", in the model type ", name(p));
      }
    }
  }
  std::vector<Eigen::Matrix3d> turns;
  const std::vector<Link<double>> made = make_tree_links(d, slots, turns);
  std::vector<Link<Scalar>> links;
  std::vector<JointKind> kinds;
  for (std::size_t i = 0; i < n; ++i) {
    Link<double> l = made[i];
    if constexpr (runtime_sized) l.axis = Eigen::Vector3d::UnitZ();  // turned onto z
    kinds.push_back(d.joints[i].kind);
    links.push_back(cast_link<Scalar>(l));
  }
  try {
    TreeType tree = [&] {
      if constexpr (runtime_sized) {
        return TreeType(links, kinds, d.parents, default_gravity<Scalar>(), d.checks);
      } else {
        return TreeType(links, default_gravity<Scalar>(), d.checks);
      }
    }();
    for (std::size_t i = 0; i < n; ++i) {
      if (turns[i] != Eigen::Matrix3d::Identity()) {
        tree.set_link_frame(i, cast_transform<Scalar>(Transform<double>(
                                   turns[i].transpose(), Eigen::Vector3d::Zero())));
      }
    }
    for (const LinkFrame& f : d.frames) {
      const Transform<Scalar> pose = cast_transform<Scalar>(f.pose);
      if (f.body == LinkFrame::base) {
        tree.add_base_frame(f.name, pose);
      } else {
        tree.add_frame(f.name, f.body, pose);
      }
    }
    return tree;
  } catch (const ParseError&) {
    throw;
  } catch (const ModelError& e) {
    detail::fail(robot, detail::model_error_text(e));
  }
}

/// Parses URDF text into its whole tree (see describe_tree, build_tree): a TreeX<double> by
/// default, or the TreeType named (TreeX<Scalar>, a compile-time Tree matching the file).
/// `report`, if given, receives the report (untouched if it throws). Throws ParseError.
template <typename TreeType = TreeX<double>>
TreeType parse_tree(std::string_view xml, const TreeLoadOptions& options = {},
                    Report* report = nullptr) {
  TreeDescription d = describe_tree(xml, options);
  TreeType tree = build_tree<TreeType>(d);
  if (report) *report = std::move(d.report);
  return tree;
}

/// Reads the URDF file at `path` into its whole tree (see parse_tree); errors and the report
/// name the file.
template <typename TreeType = TreeX<double>>
TreeType load_tree(const std::string& path, const TreeLoadOptions& options = {},
                   Report* report = nullptr) {
  const std::string text = detail::read_file(path);
  try {
    TreeType tree = parse_tree<TreeType>(text, options, report);
    if (report) report->file = path;
    return tree;
  } catch (const ParseError& e) {
    detail::rethrow_in_file(e, path);
  }
}

/// A URDF on a free-flying base (describe_floating): the base body and the tree it carries.
struct FloatingDescription {
  /// The link that is the base body (with the links fixed to it).
  std::string base_link;
  int base_line = 0;
  /// The file's `<joint type="floating">` from the root link to the base link; empty when the
  /// file has none and its root link was made the base.
  std::string base_joint;
  /// The base body: the merged mass, centre of mass and inertia (about the centre of mass) of
  /// the base link and the links fixed to it, in the base link's frame; `name` is base_link.
  Link<double> base_body;
  /// The tree on the base: every moving joint below the base link (tree.root_link is the base
  /// link), its frames (those welded to the base body on LinkFrame::base) and the report of
  /// the whole file.
  TreeDescription tree;
};

namespace detail {

/// `base`: JointType::floating (a free-flyer: load_floating) or JointType::planar (load_planar).
inline FloatingDescription describe_floating(const Document& d, const TreeLoadOptions& options,
                                             JointType base = JointType::floating) {
  const bool planar = base == JointType::planar;
  const char* kind = planar ? "planar" : "floating";
  Tree t = check_tree(d);
  FloatingDescription out;
  std::vector<Diagnostic> notes;
  const LinkRecord& root = d.links[t.root];
  const std::vector<std::size_t>& first = t.child_joints[t.root];
  std::size_t floating_joint = npos;
  for (const std::size_t j : first) {
    if (d.joints[j].type == base) floating_joint = j;
    if (d.joints[j].type == (planar ? JointType::floating : JointType::planar)) {
      fail(joint_place(d.joints[j]),
           planar ? "a floating joint at the root: urdf::load_floating gives the robot a "
                    "free-flying base; load_planar a planar one"
                  : "a planar joint at the root: urdf::load_planar gives the robot a planar "
                    "base; load_floating a free-flying one");
    }
  }
  if (floating_joint != npos) {
    const JointRecord& jr = d.joints[floating_joint];
    if (first.size() > 1) {
      const std::size_t other = first.front() == floating_joint ? first[1] : first.front();
      fail(joint_place(d.joints[other]), "link '", root.name, "' holds the ", kind, " joint '",
           jr.name, "' and this joint too: the root link of a ", kind, " base's file must hold "
           "the ", kind, " joint alone (everything else hangs on the base link '", jr.child,
           "')");
    }
    t.root = t.child_index[floating_joint];
    out.base_joint = jr.name;
    if (jr.origin.rotation != Eigen::Matrix3d::Identity() || !jr.origin.translation.isZero(0.0)) {
      notes.push_back(Diagnostic{
          Diagnostic::Severity::note, Diagnostic::Kind::floating_base, jr.line,
          quoted("joint", jr.name),
          planar ? "<origin> and <axis> are not used: the base moves in the world's x-y plane, "
                   "its configuration the pose of link '" + jr.child + "' there"
                 : "<origin> is not used: the base configuration is the pose of link '" +
                       jr.child + "' in the world frame"});
    }
    if (has_mass(root)) {
      notes.push_back(Diagnostic{
          Diagnostic::Severity::note, Diagnostic::Kind::floating_base, root.line,
          quoted("link", root.name),
          "the root link, parent of the " + std::string(kind) + " joint '" + jr.name +
              "', is the world: its inertia (" + number_text(root.mass) +
              " kg) is not part of the model"});
    }
  }
  out.tree = describe_tree(d, options, t, true);
  for (Diagnostic& n : notes) out.tree.report.diagnostics.push_back(std::move(n));
  std::stable_sort(out.tree.report.diagnostics.begin(), out.tree.report.diagnostics.end(),
                   [](const Diagnostic& x, const Diagnostic& y) { return x.line < y.line; });

  const std::size_t base_link = t.root;
  const LinkRecord& own = d.links[base_link];
  out.base_link = own.name;
  out.base_line = own.line;
  const Bodies b = weld_fixed_joints(d, t);
  const std::vector<std::size_t> parts = body_parts(d, b, base_link);
  const Place place{quoted("link", own.name), own.line};
  if (parts.empty()) {
    fail(place, "the base link has no <inertial>, nor has any link fixed to it: a ", kind,
         " base body needs a positive mass and inertia");
  }
  Link<double>& body = out.base_body;
  body.name = own.name;
  merge_inertia(d, b, base_link, parts, body);
  const std::string what = std::string("the ") + kind +
                           " base body (this link with the links fixed to it: " +
                           number_text(body.mass) + " kg)";
  if (!(body.mass > 0.0)) {
    fail(place, what, ": a free body needs a positive mass and a positive-definite inertia");
  }
  const std::string problem = chaindyn::detail::inertia_problem(body.inertia);
  if (!problem.empty()) {
    switch (options.inertia) {
      case InertiaPolicy::strict:
        fail(place, what, ": ", problem, ": correct the file, or load with "
             "TreeLoadOptions::inertia = InertiaPolicy::repair or InertiaPolicy::accept");
      case InertiaPolicy::repair: {
        const double shift = repair_shift(body.inertia);
        body.inertia += shift * Eigen::Matrix3d::Identity();
        out.tree.report.diagnostics.push_back(Diagnostic{
            Diagnostic::Severity::warning, Diagnostic::Kind::inertia_repaired, own.line,
            quoted("link", own.name),
            what + ": " + problem + "; repaired (InertiaPolicy::repair): s = " +
                number_text(shift) + " kg m^2 added to the diagonal"});
        break;
      }
      case InertiaPolicy::accept:
        out.tree.report.diagnostics.push_back(Diagnostic{
            Diagnostic::Severity::warning, Diagnostic::Kind::inertia_accepted, own.line,
            quoted("link", own.name),
            what + ": " + problem + "; kept as written (InertiaPolicy::accept)"});
        break;
    }
  }
  // Positive definite by Sylvester's criterion (the leading principal minors), in closed form:
  // an Eigen LLT here would be compiled in every unit that includes the URDF parser.
  const Eigen::Matrix3d& in = body.inertia;
  if (!(in(0, 0) > 0.0 && in(0, 0) * in(1, 1) - in(1, 0) * in(0, 1) > 0.0 &&
        in.col(0).dot(in.col(1).cross(in.col(2))) > 0.0)) {
    fail(place, what, ": its inertia ", chaindyn::detail::format_matrix(body.inertia),
         " is not positive definite: a free body needs a positive-definite inertia");
  }
  return out;
}

}  // namespace detail

/// Reads a URDF as a robot on a free-flying base (FloatingBase, docs/floating_base.md):
/// - a file whose root link holds a `<joint type="floating">` alone (the root link is then the
///   world): the floating joint's child is the base link;
/// - any other file: its root link is made the base (most legged and mobile robots' files
///   have no floating joint).
/// The base body is the base link with the links fixed to it (their inertias merged; it must
/// have a positive mass and a positive-definite inertia); the tree on it is every moving joint
/// below the base link, in describe_tree's order, with `options` as for describe_tree. The
/// base configuration is the base link's pose in the world. Throws ParseError.
inline FloatingDescription describe_floating(std::string_view xml,
                                             const TreeLoadOptions& options = {}) {
  return detail::describe_floating(detail::read_document(xml), options);
}

/// The FloatingBase of `d`: the base body d.base_body and the tree build_tree<TreeType> makes
/// of d.tree (TreeX<double> by default, or a compile-time Tree matching the file), on a
/// free-flyer (or, BaseJoint = PlanarBase<Scalar>, a planar base: see build_planar). Throws
/// ParseError.
template <typename TreeType = TreeX<double>,
          typename BaseJoint = FreeFlyer<typename TreeType::Scalar>>
FloatingBase<TreeType, BaseJoint> build_floating(const FloatingDescription& d) {
  using Scalar = typename TreeType::Scalar;
  TreeType tree = build_tree<TreeType>(d.tree);
  try {
    return FloatingBase<TreeType, BaseJoint>(cast_link<Scalar>(d.base_body), std::move(tree));
  } catch (const ModelError& e) {
    detail::fail(detail::Place{detail::quoted("link", d.base_link), d.base_line},
                 detail::model_error_text(e));
  }
}

/// Parses URDF text into a robot on a free-flying base (see describe_floating,
/// build_floating). `report`, if given, receives the report. Throws ParseError.
template <typename TreeType = TreeX<double>>
FloatingBase<TreeType> parse_floating(std::string_view xml, const TreeLoadOptions& options = {},
                                      Report* report = nullptr) {
  FloatingDescription d = describe_floating(xml, options);
  FloatingBase<TreeType> robot = build_floating<TreeType>(d);
  if (report) *report = std::move(d.tree.report);
  return robot;
}

/// Reads the URDF file at `path` into a robot on a free-flying base (see parse_floating);
/// errors and the report name the file.
template <typename TreeType = TreeX<double>>
FloatingBase<TreeType> load_floating(const std::string& path, const TreeLoadOptions& options = {},
                                     Report* report = nullptr) {
  const std::string text = detail::read_file(path);
  try {
    FloatingBase<TreeType> robot = parse_floating<TreeType>(text, options, report);
    if (report) report->file = path;
    return robot;
  } catch (const ParseError& e) {
    detail::rethrow_in_file(e, path);
  }
}

/// Reads a URDF as a robot on a planar base (PlanarBaseRobot: x, y, yaw in the world's x-y
/// plane, docs/floating_base.md): a file whose root link holds a `<joint type="planar">` alone
/// (its child is the base link; the joint's origin and axis are not used: the plane is the
/// world's x-y plane), or any other file with its root link made the base (a mobile base's
/// file without the joint). The base body and the tree are as describe_floating makes them.
/// Throws ParseError.
inline FloatingDescription describe_planar(std::string_view xml,
                                           const TreeLoadOptions& options = {}) {
  return detail::describe_floating(detail::read_document(xml), options, JointType::planar);
}

/// The PlanarBaseRobot of `d` (see build_floating). Throws ParseError.
template <typename TreeType = TreeX<double>>
PlanarBaseRobot<TreeType> build_planar(const FloatingDescription& d) {
  return build_floating<TreeType, PlanarBase<typename TreeType::Scalar>>(d);
}

/// Parses URDF text into a robot on a planar base (describe_planar, build_planar).
template <typename TreeType = TreeX<double>>
PlanarBaseRobot<TreeType> parse_planar(std::string_view xml, const TreeLoadOptions& options = {},
                                       Report* report = nullptr) {
  FloatingDescription d = describe_planar(xml, options);
  PlanarBaseRobot<TreeType> robot = build_planar<TreeType>(d);
  if (report) *report = std::move(d.tree.report);
  return robot;
}

/// Reads the URDF file at `path` into a robot on a planar base (see parse_planar); errors and
/// the report name the file.
template <typename TreeType = TreeX<double>>
PlanarBaseRobot<TreeType> load_planar(const std::string& path, const TreeLoadOptions& options = {},
                                      Report* report = nullptr) {
  const std::string text = detail::read_file(path);
  try {
    PlanarBaseRobot<TreeType> robot = parse_planar<TreeType>(text, options, report);
    if (report) report->file = path;
    return robot;
  } catch (const ParseError& e) {
    detail::rethrow_in_file(e, path);
  }
}

/// The compile-time type of the tree of `d` with every axis turned onto z (the fastest joint
/// types), as C++ text: `chaindyn::Tree<double, chaindyn::Parents<-1, 0, ...>,
/// chaindyn::RevoluteZ, ..., chaindyn::PrismaticZ>`; `ChainN<double, n, RevoluteZ>` /
/// `Chain<double, ...>` when the tree is a chain in joint order. For tools.
inline std::string tree_type_name(const TreeDescription& d, const std::string& scalar = "double") {
  bool chain = true, same = true;
  for (std::size_t i = 0; i < d.joints.size(); ++i) {
    chain = chain && d.parents[i] == (i == 0 ? no_parent : i - 1);
    same = same && d.joints[i].kind == d.joints[0].kind;
  }
  const auto joint = [](JointKind k) {
    return std::string(k == JointKind::prismatic ? "chaindyn::PrismaticZ" : "chaindyn::RevoluteZ");
  };
  std::ostringstream os;
  if (chain && same) {
    os << "chaindyn::ChainN<" << scalar << ", " << d.joints.size() << ", "
       << joint(d.joints[0].kind) << ">";
    return os.str();
  }
  if (chain) {
    os << "chaindyn::Chain<" << scalar;
  } else {
    os << "chaindyn::Tree<" << scalar << ", chaindyn::Parents<";
    for (std::size_t i = 0; i < d.parents.size(); ++i) {
      os << (i ? ", " : "") << (d.parents[i] == no_parent ? -1 : long(d.parents[i]));
    }
    os << ">";
  }
  for (const ChainJoint& j : d.joints) os << ", " << joint(j.kind);
  os << ">";
  return os.str();
}

}  // namespace chaindyn::urdf
