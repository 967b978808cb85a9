/// @file
/// From a URDF document to the serial chain it describes (chaindyn::urdf::describe): the tree
/// checks, the merging of fixed joints and the choice of the path from the root to the tip.
/// Independent of the Chain type; urdf.hpp turns a Description into a Chain.
#pragma once

#include "chaindyn/urdf/document.hpp"

#include <cstddef>
#include <map>
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
/// inertia and that of links fixed to it are not part of the chain) to its tip link.
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
};

namespace detail {

inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

inline bool moving(const JointRecord& j) { return j.type != JointType::fixed; }

inline const char* type_name(JointType t) {
  switch (t) {
    case JointType::revolute: return "revolute";
    case JointType::continuous: return "continuous";
    case JointType::prismatic: return "prismatic";
    case JointType::fixed: return "fixed";
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

/// The tree of a document, checked: every joint's links exist, every link has at most one
/// parent joint, no cycles, a single root.
struct Tree {
  std::vector<std::size_t> parent_joint;  ///< per link, npos for the root
  std::vector<std::size_t> parent_index;  ///< per joint, its parent link's index
  std::vector<std::size_t> child_index;   ///< per joint, its child link's index
  std::vector<std::vector<std::size_t>> child_joints;  ///< per link, in document order
  std::size_t root = npos;
  std::map<std::string, std::size_t> link_index;
};

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

/// Every link's body (the link it is welded to by fixed joints: the nearest ancestor-or-self
/// that is the root or the child of a moving joint) and its pose in that body's frame.
struct Bodies {
  std::vector<std::size_t> body;
  std::vector<Transform<double>> pose;
  std::vector<std::size_t> order;  ///< links in breadth-first order from the root
};

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

/// The mass, centre of mass and inertia about it (body frame) of every link welded to `body`.
inline void merge_inertia(const Document& d, const Bodies& b, std::size_t body, Link<double>& out) {
  Inertia<double> sum;
  std::size_t parts = 0;
  for (const std::size_t l : b.order) {
    if (b.body[l] != body) continue;
    const LinkRecord& r = d.links[l];
    if (r.mass == 0.0 && r.inertia.cwiseAbs().maxCoeff() == 0.0) continue;
    ++parts;
    // RBDA eq. (2.66): inertias add once they are expressed about one point in one frame.
    sum += Inertia<double>::from_com(r.mass, r.com, r.inertia).transformed_by(b.pose[l]);
  }
  const LinkRecord& own = d.links[body];
  if (parts <= 1 && (own.mass != 0.0 || own.inertia.cwiseAbs().maxCoeff() != 0.0)) {
    // the link alone: its own numbers, untouched by a round trip through the origin
    out.mass = own.mass;
    out.com = own.com;
    out.inertia = own.inertia;
    return;
  }
  out.mass = sum.mass;
  out.com = sum.com();
  out.inertia = sum.inertia_about_com();
  out.inertia = (0.5 * (out.inertia + out.inertia.transpose())).eval();
}

inline Description describe(const Document& d, std::string_view tip) {
  const Place robot{quoted("robot", d.robot_name), d.robot_line};
  // each link's own inertial, checked where it is written
  for (const LinkRecord& r : d.links) {
    if (!r.has_inertial) continue;
    Link<double> l;
    l.mass = r.mass;
    l.com = r.com;
    l.inertia = r.inertia;
    try {
      chaindyn::detail::validate_link(l, "<inertial>");
    } catch (const ModelError& e) {
      fail(link_place(r), model_error_text(e));
    }
  }
  const Tree t = check_tree(d);
  const Bodies b = weld_fixed_joints(d, t);

  // the moving joints, base to tip
  std::vector<std::size_t> path;
  std::size_t tip_link = npos;
  if (!tip.empty()) {
    const auto it = t.link_index.find(std::string(tip));
    if (it == t.link_index.end()) {
      fail(robot, "the tip link '", std::string(tip), "' is not defined");
    }
    tip_link = it->second;
    for (std::size_t body = b.body[tip_link]; body != t.root;) {
      const std::size_t j = t.parent_joint[body];
      path.push_back(j);
      body = b.body[t.parent_index[j]];
    }
    path = std::vector<std::size_t>(path.rbegin(), path.rend());
  } else {
    std::vector<std::vector<std::size_t>> moving_children(d.links.size());
    for (std::size_t j = 0; j < d.joints.size(); ++j) {
      if (moving(d.joints[j])) moving_children[b.body[t.parent_index[j]]].push_back(j);
    }
    std::size_t body = t.root;
    while (!moving_children[body].empty()) {
      const std::vector<std::size_t>& next = moving_children[body];
      if (next.size() > 1) {
        const JointRecord& j1 = d.joints[next[0]];
        const JointRecord& j2 = d.joints[next[1]];
        const std::size_t at = t.parent_index[next[1]];
        const std::string welded =
            at == body ? std::string()
                       : " (fixed to link '" + d.links[body].name + "')";
        fail(link_place(d.links[at]), "the tree branches", welded, ": joint '", j1.name,
             "' (line ", j1.line, ", to link '", j1.child, "') and joint '", j2.name, "' (line ",
             j2.line, ", to link '", j2.child, "')", next.size() > 2 ? " (and more)" : "",
             " both continue the chain; name the tip link to choose one");
      }
      path.push_back(next[0]);
      body = t.child_index[next[0]];
    }
    tip_link = body;
  }

  Description out;
  out.robot_name = d.robot_name;
  out.robot_line = d.robot_line;
  out.root_link = d.links[t.root].name;
  out.tip_link = d.links[tip_link].name;
  for (const std::size_t j : path) {
    const JointRecord& jr = d.joints[j];
    const std::size_t child = t.child_index[j];
    const std::size_t parent = t.parent_index[j];
    ChainJoint cj;
    cj.type = jr.type;
    cj.kind = jr.type == JointType::prismatic ? JointKind::prismatic : JointKind::revolute;
    cj.line = jr.line;
    cj.link_line = d.links[child].line;
    Link<double>& l = cj.link;
    l.name = d.links[child].name;
    l.joint_name = jr.name;
    l.placement = b.pose[parent] * jr.origin;
    l.axis = jr.axis.normalized();
    merge_inertia(d, b, child, l);
    l.dynamics = jr.dynamics;
    l.limits = jr.limits;
    try {
      chaindyn::detail::validate_link(l, quoted("link", l.name) + " (line " + std::to_string(cj.link_line) +
                           ", with the links fixed to it)");
    } catch (const ModelError& e) {
      fail(joint_place(jr), model_error_text(e));
    }
    out.joints.push_back(std::move(cj));
  }
  // the links welded to the root or to a chain link: named frames, poses in the body's frame
  std::vector<std::size_t> chain_index(d.links.size(), npos);
  for (std::size_t k = 0; k < path.size(); ++k) chain_index[t.child_index[path[k]]] = k;
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

/// Reads a URDF and returns the chain from its root link to `tip` (default: the single leaf of
/// the tree of moving joints), independent of any Chain type: the moving joints with their
/// placements, axes as written, merged inertias, dynamics, limits and names. Throws ParseError.
inline Description describe(std::string_view xml, std::string_view tip = {}) {
  return detail::describe(detail::read_document(xml), tip);
}

}  // namespace chaindyn::urdf
