/// @file
/// From a URDF document to the serial chain it describes (chaindyn::urdf::describe): the tree
/// checks, the merging of fixed joints, the choice of the path from the root to the tip, the
/// checks of what the chain uses (the inertia policy) and the report of what it does not use.
/// Independent of the Chain type; urdf.hpp turns a Description into a Chain.
#pragma once

#include "chaindyn/urdf/document.hpp"
#include "chaindyn/urdf/report.hpp"
#include "chaindyn/spatial/symmetric_eigen.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chaindyn::urdf {

/// One moving joint of the chain, base to tip, as the URDF gives it after merging fixed joints.
struct ChainJoint {
  JointType type = JointType::revolute;  ///< revolute, continuous or prismatic
  JointKind kind = JointKind::revolute;  ///< continuous is revolute
  int line = 0;                          ///< line of the <joint> element
  int link_line = 0;                     ///< line of the child <link> element
  /// The joint and its child link in chaindyn's terms: `placement` is the joint frame in the
  /// parent link frame (fixed joints between the two composed in), `axis` the URDF axis as
  /// written, normalized (joint frame), `mass`/`com`/`inertia` the child link's with every link
  /// fixed to it merged in (link frame), `dynamics` damping and friction, `limits` the
  /// <limit> (nullopt if absent; -inf/+inf bounds for continuous joints), `name` the child link's
  /// name and `joint_name` the joint's.
  Link<double> link;
};

/// A link of the file that is welded to the chain (by fixed joints, or being a chain link
/// itself): it becomes a named frame of the Chain (urdf::build), e.g. tool0, flange,
/// iiwa_link_ee, panda_hand.
struct LinkFrame {
  /// Value of `body` for a link welded to the root link.
  static constexpr std::size_t base = static_cast<std::size_t>(-1);
  std::string name;               ///< the URDF link's name
  std::size_t body = base;        ///< index into Description::joints, or base
  Transform<double> pose;         ///< its pose in that chain link's URDF frame (or the root's)
  int line = 0;                   ///< line of the <link> element
};

/// The chain a URDF describes, from its root link (the base, fixed to the world: its own
/// inertia and that of links fixed to it are not part of the chain) to its tip link, with the
/// parser's report on the file.
struct Description {
  std::string robot_name;
  int robot_line = 0;
  std::string root_link;
  std::string tip_link;  ///< as the caller named it, or the default leaf
  std::vector<ChainJoint> joints;
  /// Every link welded to the chain -- the root link and the links fixed to it (body = base),
  /// each chain link (pose identity) and the links fixed to it -- in breadth-first order from
  /// the root. Links welded to bodies off the chain (branches not taken) are not in it.
  std::vector<LinkFrame> frames;
  /// What the parser left out, ignored, repaired or kept (Report; in line order).
  Report report;
  /// The checks build() asks of the chain's constructor: physical_inertia off when a
  /// non-physical inertia was kept (InertiaPolicy::accept), regular off when no link of the
  /// chain has mass or inertia (a kinematics-only load: the chain's has_dynamics() is false).
  ModelChecks checks;
};

/// The tree of a document (urdf::Document), checked by detail::check_tree: every joint's links
/// exist, every link has at most one parent joint, no cycles, a single root. Indices are into
/// Document::links and Document::joints; Tree::none (detail::npos) marks the root's parent.
struct Tree {
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> parent_joint;  ///< per link, none for the root
  std::vector<std::size_t> parent_index;  ///< per joint, its parent link's index
  std::vector<std::size_t> child_index;   ///< per joint, its child link's index
  std::vector<std::vector<std::size_t>> child_joints;  ///< per link, in document order
  std::size_t root = none;
  std::map<std::string, std::size_t> link_index;
};

/// Every link's body (the link it is welded to by fixed joints: the nearest ancestor-or-self
/// that is the root or the child of a moving joint) and its pose in that body's frame, per
/// link of a Document (detail::weld_fixed_joints).
struct Bodies {
  std::vector<std::size_t> body;
  std::vector<Transform<double>> pose;
  std::vector<std::size_t> order;  ///< links in breadth-first order from the root
};

namespace detail {

inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

inline bool moving(const JointRecord& j) { return j.type != JointType::fixed; }
/// Whether a chain can hold the joint (floating and planar joints it cannot).
inline bool supported(const JointRecord& j) {
  return j.type != JointType::floating && j.type != JointType::planar;
}

inline const char* type_name(JointType t) {
  switch (t) {
    case JointType::revolute: return "revolute";
    case JointType::continuous: return "continuous";
    case JointType::prismatic: return "prismatic";
    case JointType::fixed: return "fixed";
    case JointType::floating: return "floating";
    case JointType::planar: return "planar";
  }
  return "?";
}

/// The text of a ModelError without its "chaindyn: " prefix, to be placed in a ParseError.
inline std::string model_error_text(const ModelError& e) {
  std::string s = e.what();
  const std::string prefix = "chaindyn: ";
  if (s.compare(0, prefix.size(), prefix) == 0) s.erase(0, prefix.size());
  return s;
}

inline Place link_place(const LinkRecord& l) { return Place{quoted("link", l.name), l.line}; }
inline Place joint_place(const JointRecord& j) { return Place{quoted("joint", j.name), j.line}; }

inline Tree check_tree(const Document& d) {
  const Place robot{quoted("robot", d.robot_name), d.robot_line};
  if (d.links.empty()) fail(robot, "has no <link>");
  Tree t;
  for (std::size_t i = 0; i < d.links.size(); ++i) {
    const auto [it, inserted] = t.link_index.emplace(d.links[i].name, i);
    if (!inserted) {
      fail(link_place(d.links[i]), "is defined twice (lines ", d.links[it->second].line, " and ",
           d.links[i].line, ")");
    }
  }
  {
    std::map<std::string, std::size_t> joint_index;
    for (std::size_t j = 0; j < d.joints.size(); ++j) {
      const auto [it, inserted] = joint_index.emplace(d.joints[j].name, j);
      if (!inserted) {
        fail(joint_place(d.joints[j]), "is defined twice (lines ", d.joints[it->second].line,
             " and ", d.joints[j].line, ")");
      }
    }
  }
  const std::size_t n = d.links.size();
  t.parent_joint.assign(n, npos);
  t.child_joints.assign(n, {});
  for (std::size_t j = 0; j < d.joints.size(); ++j) {
    const JointRecord& jr = d.joints[j];
    const auto p = t.link_index.find(jr.parent);
    if (p == t.link_index.end()) {
      fail(joint_place(jr), "parent link '", jr.parent, "' is not defined");
    }
    const auto c = t.link_index.find(jr.child);
    if (c == t.link_index.end()) {
      fail(joint_place(jr), "child link '", jr.child, "' is not defined");
    }
    if (p->second == c->second) {
      fail(joint_place(jr), "joints form a cycle: link '", jr.parent, "' is its own parent");
    }
    const std::size_t other = t.parent_joint[c->second];
    if (other != npos) {
      fail(joint_place(jr), "link '", jr.child, "' has two parent joints, '", d.joints[other].name,
           "' (line ", d.joints[other].line, ") and '", jr.name, "' (line ", jr.line,
           "): a URDF is a tree");
    }
    t.parent_joint[c->second] = j;
    t.parent_index.push_back(p->second);
    t.child_index.push_back(c->second);
    t.child_joints[p->second].push_back(j);
  }
  // Cycles: with at most one parent per link, walk up from every link; meeting a link of the
  // current walk again closes a cycle. Iterative, O(links).
  std::vector<char> state(n, 0);  // 0 unseen, 1 on the current walk, 2 done
  std::vector<std::size_t> walk;
  for (std::size_t s = 0; s < n; ++s) {
    walk.clear();
    std::size_t cur = s;
    bool cycle = false;
    while (true) {
      if (state[cur] == 1) {
        cycle = true;
        break;
      }
      if (state[cur] == 2) break;
      state[cur] = 1;
      walk.push_back(cur);
      if (t.parent_joint[cur] == npos) break;
      cur = t.parent_index[t.parent_joint[cur]];
    }
    if (cycle) {
      std::string text = "link '" + d.links[cur].name + "'";
      std::size_t k = cur;
      do {
        const JointRecord& jr = d.joints[t.parent_joint[k]];
        text += " <- joint '" + jr.name + "' <- link '" + jr.parent + "'";
        k = t.parent_index[t.parent_joint[k]];
      } while (k != cur);
      fail(joint_place(d.joints[t.parent_joint[cur]]), "joints form a cycle: ", text);
    }
    for (const std::size_t w : walk) state[w] = 2;
  }
  std::vector<std::size_t> roots;
  for (std::size_t i = 0; i < n; ++i) {
    if (t.parent_joint[i] == npos) roots.push_back(i);
  }
  if (roots.size() != 1) {  // without cycles there is at least one
    const LinkRecord& a = d.links[roots[0]];
    const LinkRecord& b = d.links[roots[1]];
    fail(robot, "no single root: links '", a.name, "' (line ", a.line, ") and '", b.name,
         "' (line ", b.line, ") both have no parent joint", roots.size() > 2 ? " (and more)" : "");
  }
  t.root = roots[0];
  return t;
}

inline Bodies weld_fixed_joints(const Document& d, const Tree& t) {
  const std::size_t n = d.links.size();
  Bodies b;
  b.body.assign(n, npos);
  b.pose.assign(n, Transform<double>::Identity());
  b.order.reserve(n);
  b.order.push_back(t.root);
  b.body[t.root] = t.root;
  for (std::size_t k = 0; k < b.order.size(); ++k) {
    const std::size_t l = b.order[k];
    for (const std::size_t j : t.child_joints[l]) {
      const std::size_t c = t.child_index[j];
      if (moving(d.joints[j])) {
        b.body[c] = c;
      } else {
        b.body[c] = b.body[l];
        b.pose[c] = b.pose[l] * d.joints[j].origin;
      }
      b.order.push_back(c);
    }
  }
  return b;
}

/// Whether a link's <inertial> holds anything (a mass or an inertia that is not zero).
inline bool has_mass(const LinkRecord& r) {
  return r.mass != 0.0 || r.inertia.cwiseAbs().maxCoeff() != 0.0;
}

inline std::string number_text(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

/// The physical rule a link's own <inertial> breaks (empty if none): a negative mass, an
/// inertia that is not positive semi-definite or breaks the triangle inequality.
inline std::string own_problem(const LinkRecord& r) {
  if (r.mass < 0.0) return "mass is negative (" + number_text(r.mass) + " kg)";
  return chaindyn::detail::inertia_problem(r.inertia);
}

/// "'a' (line 3), 'b' (line 9)", at most `max` names, then "and k more".
inline std::string link_list(const Document& d, const std::vector<std::size_t>& links,
                             std::size_t max = 8) {
  std::string out;
  for (std::size_t k = 0; k < links.size() && k < max; ++k) {
    const LinkRecord& r = d.links[links[k]];
    out += (k ? ", '" : "'") + r.name + "' (line " + std::to_string(r.line) + ")";
  }
  if (links.size() > max) out += " and " + std::to_string(links.size() - max) + " more";
  return out;
}

/// The links welded to `body` (itself included) whose <inertial> holds anything, in
/// breadth-first order.
inline std::vector<std::size_t> body_parts(const Document& d, const Bodies& b, std::size_t body) {
  std::vector<std::size_t> parts;
  for (const std::size_t l : b.order) {
    if (b.body[l] == body && has_mass(d.links[l])) parts.push_back(l);
  }
  return parts;
}

/// The mass, centre of mass and inertia about it (body frame) of the links `parts` welded to
/// `body`.
inline void merge_inertia(const Document& d, const Bodies& b, std::size_t body,
                          const std::vector<std::size_t>& parts, Link<double>& out) {
  const LinkRecord& own = d.links[body];
  if (parts.size() == 1 && parts.front() == body) {
    // the link alone: its own numbers, untouched by a round trip through the origin
    out.mass = own.mass;
    out.com = own.com;
    out.inertia = own.inertia;
    return;
  }
  Inertia<double> sum;
  for (const std::size_t l : parts) {
    const LinkRecord& r = d.links[l];
    // RBDA eq. (2.66): inertias add once they are expressed about one point in one frame.
    sum += Inertia<double>::from_com(r.mass, r.com, r.inertia).transformed_by(b.pose[l]);
  }
  out.mass = sum.mass;
  out.com = sum.com();
  out.inertia = sum.inertia_about_com();
  out.inertia = (0.5 * (out.inertia + out.inertia.transpose())).eval();
}

/// The smallest s >= 0 for which I + s 1 satisfies the triangle inequality of principal moments
/// (and so is positive semi-definite): with the moments l1 <= l2 <= l3, s = max(0, l3 - l1 - l2)
/// ((l1 + s) + (l2 + s) >= l3 + s; then l1 + s >= l3 - l2 >= 0).
inline double repair_shift(const Eigen::Matrix3d& inertia) {
  // principal moments, ascending
  const Eigen::Vector3d l = chaindyn::detail::symmetric_eigen<3>(inertia).values;
  return std::max(0.0, l[2] - l[0] - l[1]);
}

/// Levenshtein distance of two names, ignoring case (for "did you mean" hints).
inline std::size_t name_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      const std::size_t next = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = row[j];
      row[j] = next;
    }
  }
  return row[b.size()];
}

/// What a tip name that is no link is: a joint's name (then its child link), and the closest
/// link names, as a message tail.
inline std::string tip_hint(const Document& d, std::string_view tip) {
  std::ostringstream os;
  for (const JointRecord& j : d.joints) {
    if (j.name == tip) {
      os << ": it is the name of a joint (line " << j.line << "); a tip is a link, e.g. that "
         << "joint's child link '" << j.child << "'";
      return os.str();
    }
  }
  std::vector<std::pair<std::size_t, std::string_view>> ranked;
  for (const LinkRecord& l : d.links) ranked.emplace_back(name_distance(tip, l.name), l.name);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  os << "; the closest link names: ";
  for (std::size_t k = 0; k < ranked.size() && k < 3; ++k) {
    os << (k ? ", '" : "'") << ranked[k].second << "'";
  }
  return os.str();
}

/// The moving joints from the root to the tip link (named, or the single leaf), in order;
/// sets `tip_link`.
inline std::vector<std::size_t> chain_path(const Document& d, const Tree& t, const Bodies& b,
                                           std::string_view tip, std::size_t& tip_link) {
  const Place robot{quoted("robot", d.robot_name), d.robot_line};
  const std::string not_supported =
      "' is not supported on a chain (chaindyn models serial chains of revolute, continuous, "
      "prismatic and fixed joints on a base fixed to the world)";
  std::vector<std::size_t> path;
  if (!tip.empty()) {
    const auto it = t.link_index.find(std::string(tip));
    if (it == t.link_index.end()) {
      fail(robot, "the tip link '", std::string(tip), "' is not defined", tip_hint(d, tip));
    }
    tip_link = it->second;
    for (std::size_t body = b.body[tip_link]; body != t.root;) {
      const std::size_t j = t.parent_joint[body];
      if (!supported(d.joints[j])) {
        fail(joint_place(d.joints[j]), "joint type '", type_name(d.joints[j].type), not_supported,
             ", and it lies on the path from the root link '", d.links[t.root].name,
             "' to the tip link '", std::string(tip), "'. Name a tip link before it, or make its "
             "child link '", d.joints[j].child, "' the root of the file (remove the joint and "
             "the links above it)");
      }
      path.push_back(j);
      body = b.body[t.parent_index[j]];
    }
    return std::vector<std::size_t>(path.rbegin(), path.rend());
  }
  // the single leaf: follow the supported moving joints; floating and planar joints are left
  // out where a supported joint continues the chain
  std::vector<std::vector<std::size_t>> next_supported(d.links.size());
  std::vector<std::vector<std::size_t>> next_other(d.links.size());
  for (std::size_t j = 0; j < d.joints.size(); ++j) {
    if (!moving(d.joints[j])) continue;
    (supported(d.joints[j]) ? next_supported : next_other)[b.body[t.parent_index[j]]].push_back(j);
  }
  std::size_t body = t.root;
  while (true) {
    const std::vector<std::size_t>& next = next_supported[body];
    if (next.size() > 1) {
      const JointRecord& j1 = d.joints[next[0]];
      const JointRecord& j2 = d.joints[next[1]];
      const std::size_t at = t.parent_index[next[1]];
      const std::string welded =
          at == body ? std::string() : " (fixed to link '" + d.links[body].name + "')";
      fail(link_place(d.links[at]), "the tree branches", welded, ": joint '", j1.name, "' (line ",
           j1.line, ", to link '", j1.child, "') and joint '", j2.name, "' (line ", j2.line,
           ", to link '", j2.child, "')", next.size() > 2 ? " (and more)" : "",
           " both continue the chain; name the tip link to choose one, or load the whole tree "
           "(urdf::load_tree)");
    }
    if (next.empty()) {
      if (!next_other[body].empty()) {
        const JointRecord& j = d.joints[next_other[body].front()];
        fail(joint_place(j), "joint type '", type_name(j.type), not_supported,
             ", and it is the only joint that continues the chain from link '",
             d.links[body].name, "'. Name a tip link before it (e.g. '", d.links[body].name,
             "'), or make its child link '", j.child,
             "' the root of the file (remove the joint and the links above it)");
      }
      break;
    }
    path.push_back(next[0]);
    body = t.child_index[next[0]];
  }
  tip_link = body;
  return path;
}

/// The inertia of chain joint `cj` (its child link `child` with the links `parts` welded to
/// it): a negative mass is an error; a non-physical inertia is refused, repaired or kept as the
/// policy says; parts that are non-physical alone in a physical merged body are reported.
template <typename Out>
void check_chain_inertia(const Document& d, const JointRecord& jr, std::size_t child,
                         const std::vector<std::size_t>& parts, InertiaPolicy policy,
                         Link<double>& l, Out& out, const char* where = "on the chain") {
  const LinkRecord& own = d.links[child];
  const Place at = link_place(own);
  std::vector<std::size_t> welded;
  for (const std::size_t p : parts) {
    if (p != child) welded.push_back(p);
  }
  const std::string body =
      welded.empty() ? std::string("<inertial>")
                     : "the merged body of this chain link and the links fixed to it (" +
                           link_list(d, welded) + ")";
  const std::string on_chain = std::string("The link is ") + where + " (joint '" +
                               jr.name + "', line " + std::to_string(jr.line) + ")";
  if (l.mass < 0.0) {
    fail(at, body, ": mass is negative (", l.mass, " kg). ", on_chain,
         ": correct the file (no InertiaPolicy repairs a negative mass)");
  }
  const std::string problem = chaindyn::detail::inertia_problem(l.inertia);
  if (problem.empty()) {
    // the merged body is physical: parts that are not, alone, are reported
    if (!welded.empty()) {
      for (const std::size_t p : parts) {
        const std::string own_rule = own_problem(d.links[p]);
        if (own_rule.empty()) continue;
        out.report.diagnostics.push_back(Diagnostic{
            Diagnostic::Severity::warning, Diagnostic::Kind::welded_inertia, d.links[p].line,
            quoted("link", d.links[p].name),
            "its own <inertial> (" + number_text(d.links[p].mass) + " kg): " + own_rule +
                "; it is " + (p == child ? "chain link '" : "fixed to chain link '") +
                own.name + "', whose merged body (" + number_text(l.mass) +
                " kg), the one the chain uses, is physical: used as merged, nothing changed"});
      }
    }
    return;
  }
  switch (policy) {
    case InertiaPolicy::strict:
      fail(at, body, ": ", problem, ". ", on_chain,
           ": correct the file, or load with LoadOptions::inertia = InertiaPolicy::repair (adds "
           "the smallest s 1 that makes it physical, reported) or InertiaPolicy::accept (keeps it "
           "as written, reported)");
    case InertiaPolicy::repair: {
      const double s = repair_shift(l.inertia);
      l.inertia += s * Eigen::Matrix3d::Identity();
      out.report.diagnostics.push_back(Diagnostic{
          Diagnostic::Severity::warning, Diagnostic::Kind::inertia_repaired, own.line,
          quoted("link", own.name),
          body + ": " + problem + "; repaired (InertiaPolicy::repair): s = " + number_text(s) +
              " kg m^2 added to the diagonal (the smallest shift that restores the triangle "
              "inequality and positive semi-definiteness), now " +
              chaindyn::detail::format_matrix(l.inertia) +
              " about the centre of mass; mass and centre of mass unchanged"});
      return;
    }
    case InertiaPolicy::accept:
      out.checks.physical_inertia = false;
      out.report.diagnostics.push_back(Diagnostic{
          Diagnostic::Severity::warning, Diagnostic::Kind::inertia_accepted, own.line,
          quoted("link", own.name),
          body + ": " + problem +
              "; kept as written (InertiaPolicy::accept): the dynamics use it as given"});
      return;
  }
}

/// Joint `jr` of a chain or a tree (URDF `<joint>` from link `parent` to link `child`) as a
/// ChainJoint: the child link placed in the frame of the body its parent is welded to, the axis
/// normalized, the welded links' inertias merged and checked by the policy (`where`: "on the
/// chain", "in the tree"), the link validated, a `<mimic>` reported (`model`: "chain", "tree").
template <typename Out>
ChainJoint moved_link(const Document& d, const Bodies& b, const JointRecord& jr,
                      std::size_t child, std::size_t parent, InertiaPolicy policy, Out& out,
                      const char* where, const char* model) {
  if (!(jr.axis.norm() > 1e-12)) {
    fail(Place{joint_place(jr).element, jr.axis_line > 0 ? jr.axis_line : jr.line},
         "<axis xyz> is zero");
  }
  ChainJoint cj;
  cj.type = jr.type;
  cj.kind = jr.type == JointType::prismatic ? JointKind::prismatic : JointKind::revolute;
  cj.line = jr.line;
  cj.link_line = d.links[child].line;
  Link<double>& l = cj.link;
  l.name = d.links[child].name;
  l.joint_name = jr.name;
  l.placement = b.pose[parent] * jr.origin;
  // scaled by its largest entry before normalizing: (1e300, 1e300, 0) must not overflow to 0
  const double largest_entry = jr.axis.cwiseAbs().maxCoeff();
  l.axis = largest_entry > 0.0 ? Eigen::Vector3d((jr.axis / largest_entry).normalized())
                               : jr.axis;
  const std::vector<std::size_t> parts = body_parts(d, b, child);
  merge_inertia(d, b, child, parts, l);
  check_chain_inertia(d, jr, child, parts, policy, l, out, where);
  l.dynamics = jr.dynamics;
  l.limits = jr.limits;
  try {
    // the inertia's physics are checked above, by the policy
    chaindyn::detail::validate_link(l, quoted("link", l.name) + " (line " +
                                           std::to_string(cj.link_line) +
                                           ", with the links fixed to it)",
                                    false);
  } catch (const ModelError& e) {
    fail(joint_place(jr), model_error_text(e));
  }
  if (jr.mimic_line > 0) {
    out.report.diagnostics.push_back(Diagnostic{
        Diagnostic::Severity::warning, Diagnostic::Kind::mimic, jr.mimic_line,
        quoted("joint", jr.name),
        "<mimic joint='" + jr.mimic_joint + "'" +
            (jr.mimic_multiplier.empty() ? "" : " multiplier='" + jr.mimic_multiplier + "'") +
            (jr.mimic_offset.empty() ? "" : " offset='" + jr.mimic_offset + "'") +
            "> is not modelled: the " + std::string(model) +
            " has it as an independent joint (its own q, qd, qdd "
            "and torque); impose q = multiplier q_mimicked + offset yourself"});
  }
  return cj;
}

/// Reports what the chain does not use: the root link's inertia and that of the links fixed to
/// it, the moving joints off the path with their subtrees, and non-physical inertias there.
inline void report_off_chain(const Document& d, const Tree& t, const Bodies& b,
                             const std::vector<std::size_t>& path,
                             const std::vector<std::size_t>& chain_index, Description& out) {
  const std::size_t n = d.links.size();
  std::vector<char> on_path(d.joints.size(), 0);
  for (const std::size_t j : path) on_path[j] = 1;
  const auto kept = [&](std::size_t link) {
    return b.body[link] == t.root || chain_index[b.body[link]] != npos;
  };
  // per link: the joint off the path whose subtree holds it (npos: the link is kept)
  std::vector<std::size_t> dropped_by(n, npos);
  std::vector<std::size_t> roots;  // those joints, breadth-first
  for (const std::size_t l : b.order) {
    if (l == t.root) continue;
    const std::size_t j = t.parent_joint[l];
    const std::size_t p = t.parent_index[j];
    if (dropped_by[p] != npos) {
      dropped_by[l] = dropped_by[p];
    } else if (!kept(l)) {
      dropped_by[l] = j;
      roots.push_back(j);
    }
  }
  const std::string chain = "the chain from link '" + out.root_link + "' to link '" +
                            out.tip_link + "'";
  for (const std::size_t j : roots) {
    const JointRecord& jr = d.joints[j];
    std::vector<std::size_t> links;
    for (const std::size_t l : b.order) {
      if (dropped_by[l] == j) links.push_back(l);
    }
    const std::string type = supported(jr)
                                 ? std::string(type_name(jr.type)) + " joint"
                                 : std::string(type_name(jr.type)) +
                                       " joint (not supported on a chain)";
    // the subtree: its links, and one joint fewer than links inside it
    const std::string what =
        links.size() == 1
            ? "link " + link_list(d, links)
            : std::to_string(links.size()) + " links (" + link_list(d, links) + ") and " +
                  std::to_string(links.size() - 1) +
                  (links.size() == 2 ? " joint" : " joints") + " among them";
    out.report.diagnostics.push_back(Diagnostic{
        Diagnostic::Severity::note, Diagnostic::Kind::off_chain, jr.line, quoted("joint", jr.name),
        type + " off " + chain + ": left out, with " + what});
  }
  for (const std::size_t l : b.order) {
    const LinkRecord& r = d.links[l];
    if (!has_mass(r)) continue;
    const std::string rule = own_problem(r);
    if (b.body[l] == t.root) {
      const std::string what =
          l == t.root ? std::string("the root link is the base, fixed to the world")
                      : "fixed to the root link '" + d.links[t.root].name +
                            "', it is part of the base, fixed to the world";
      out.report.diagnostics.push_back(Diagnostic{
          rule.empty() ? Diagnostic::Severity::note : Diagnostic::Severity::warning,
          Diagnostic::Kind::base_inertia, r.line, quoted("link", r.name),
          rule.empty() ? what + ": its inertia (" + number_text(r.mass) +
                             " kg) is not part of the chain"
                       : "<inertial>: " + rule + ": ignored (" + what +
                             ": its inertia is not part of the chain)"});
    } else if (dropped_by[l] != npos && !rule.empty()) {
      out.report.diagnostics.push_back(Diagnostic{
          Diagnostic::Severity::warning, Diagnostic::Kind::off_chain_inertia, r.line,
          quoted("link", r.name),
          "<inertial>: " + rule + ": ignored (the link is off " + chain +
              ", left out with joint '" + d.joints[dropped_by[l]].name + "')"});
    }
  }
}

inline Description describe(const Document& d, const LoadOptions& options) {
  const Place robot{quoted("robot", d.robot_name), d.robot_line};
  const Tree t = check_tree(d);
  const Bodies b = weld_fixed_joints(d, t);
  std::size_t tip_link = npos;
  const std::vector<std::size_t> path = chain_path(d, t, b, options.tip, tip_link);

  Description out;
  out.robot_name = d.robot_name;
  out.robot_line = d.robot_line;
  out.root_link = d.links[t.root].name;
  out.tip_link = d.links[tip_link].name;
  std::vector<std::size_t> chain_index(d.links.size(), npos);
  for (std::size_t k = 0; k < path.size(); ++k) chain_index[t.child_index[path[k]]] = k;

  bool any_mass = false;
  for (const std::size_t j : path) {
    const JointRecord& jr = d.joints[j];
    const std::size_t child = t.child_index[j];
    const std::size_t parent = t.parent_index[j];
    ChainJoint cj = moved_link(d, b, jr, child, parent, options.inertia, out, "on the chain",
                               "chain");
    const Link<double>& l = cj.link;
    any_mass = any_mass || l.mass != 0.0 || l.inertia.cwiseAbs().maxCoeff() != 0.0;
    out.joints.push_back(std::move(cj));
  }
  if (!path.empty() && !any_mass) {
    out.checks.regular = false;
    out.report.diagnostics.push_back(Diagnostic{
        Diagnostic::Severity::warning, Diagnostic::Kind::kinematics_only, d.robot_line,
        quoted("robot", d.robot_name),
        "no link of the chain from link '" + out.root_link + "' to link '" + out.tip_link +
            "' has mass or inertia (no <inertial>, or only zeros): loaded for kinematics only. "
            "forward_kinematics, frame_pose and jacobian are exact; the dynamics (rnea, crba, "
            "aba, ...) mean nothing on this model, whose has_dynamics() is false"});
  }
  report_off_chain(d, t, b, path, chain_index, out);
  std::stable_sort(out.report.diagnostics.begin(), out.report.diagnostics.end(),
                   [](const Diagnostic& x, const Diagnostic& y) { return x.line < y.line; });

  // the links welded to the root or to a chain link: named frames, poses in the body's frame
  for (const std::size_t l : b.order) {
    const std::size_t body = b.body[l];
    if (body != t.root && chain_index[body] == npos) continue;
    LinkFrame f;
    f.name = d.links[l].name;
    f.body = body == t.root ? LinkFrame::base : chain_index[body];
    f.pose = b.pose[l];
    f.line = d.links[l].line;
    out.frames.push_back(std::move(f));
  }
  return out;
}

}  // namespace detail

/// Reads a URDF and returns the chain from its root link to `options.tip` (default: the single
/// leaf of the tree of moving joints), independent of any Chain type: the moving joints with
/// their placements, axes as written, merged inertias (checked, repaired or kept as
/// `options.inertia` says), dynamics, limits and names, and `report`, what the parser left
/// out, ignored, repaired or kept. Throws ParseError.
inline Description describe(std::string_view xml, const LoadOptions& options) {
  return detail::describe(detail::read_document(xml), options);
}

/// describe with the default options (InertiaPolicy::strict) and the tip link `tip`.
inline Description describe(std::string_view xml, std::string_view tip = {}) {
  LoadOptions options;
  options.tip = std::string(tip);
  return describe(xml, options);
}

}  // namespace chaindyn::urdf
