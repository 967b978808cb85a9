/// @file
/// chaindyn-urdf-info: what a URDF holds, as chaindyn sees it -- for choosing the chain type,
/// the joint count and the tip before writing code.
///
///     chaindyn-urdf-info robot.urdf [--tip LINK] [--inertia strict|repair|accept]
///                       [--massless kinematics|armature|refuse]
///
/// Prints the tree of links and joints; every chain from the root link to a leaf of the tree of
/// moving joints (and to each link where that tree branches), with its joint count and joint
/// types, the suggested chain type (`ChainN<double, N, RevoluteZ>` or `Chain<double, ...>`, axes
/// turned onto z: the fastest joint types) and the `urdf::load` call that loads it (with the
/// --inertia policy given); and for each chain the parser's report (docs/urdf.md): what it
/// leaves out, ignores, repairs or keeps, or the error that refuses it. Each chain is built as
/// `load` builds it, so a chain shown with a load call loads (a moving link without mass, e.g.
/// a gripper finger, is refused by the model's checks, and said so). With --tip, only the
/// chain to that link. Without --tip, last, the whole tree as urdf::load_tree builds it: every
/// moving joint in joint order with its parent, the compile-time Tree type, the load_tree call
/// (with the --inertia and --massless policies given) and its report, or the error.
///
/// Exit status: 0 when the main chain loads -- the one `load` builds without a tip (the single
/// leaf), or, in a file without a single leaf, some chain shown (its tip is then to be named) --
/// even if another candidate chain is refused; with --tip, when that chain loads. 1 when it
/// does not, or the file is refused; 2 on a usage error.
#include "chaindyn/urdf.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace urdf = chaindyn::urdf;
using urdf::detail::npos;

const char* const kUsage =
    "usage: chaindyn-urdf-info robot.urdf [--tip LINK] [--inertia strict|repair|accept]\n"
    "                          [--massless kinematics|armature|refuse]\n";

struct Options {
  std::string path;
  urdf::LoadOptions load;
  urdf::MasslessPolicy massless = urdf::MasslessPolicy::kinematics;
};

bool parse_args(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--tip") {
      if (i + 1 >= argc) return false;
      o.load.tip = argv[++i];
      if (o.load.tip.empty()) return false;
    } else if (a == "--inertia") {
      if (i + 1 >= argc) return false;
      if (!urdf::policy_from_name(argv[++i], o.load.inertia)) return false;
    } else if (a == "--massless") {
      if (i + 1 >= argc) return false;
      if (!urdf::massless_policy_from_name(argv[++i], o.massless)) return false;
    } else if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (!a.empty() && a[0] == '-') {
      return false;
    } else if (o.path.empty()) {
      o.path = a;
    } else {
      return false;
    }
  }
  return !o.path.empty();
}

/// A name as printed: control characters shown as '?'.
std::string shown(const std::string& s) {
  std::string out = s;
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return out;
}

std::string number(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

/// The tree, one link per line, indented by depth: "link  <- joint (type, axis ...)  mass".
void print_tree(const urdf::Document& d, const urdf::Tree& t, std::ostream& out) {
  out << "tree (each link with the joint that leads to it):\n";
  std::vector<std::pair<std::size_t, int>> stack{{t.root, 0}};
  while (!stack.empty()) {
    const auto [l, depth] = stack.back();
    stack.pop_back();
    const urdf::LinkRecord& r = d.links[l];
    out << "  " << std::string(std::size_t(2 * depth), ' ') << shown(r.name);
    const std::size_t j = t.parent_joint[l];
    if (j == npos) {
      out << "  (root: the base, fixed to the world)";
    } else {
      const urdf::JointRecord& jr = d.joints[j];
      out << "  <- " << shown(jr.name) << " (" << urdf::detail::type_name(jr.type);
      if (urdf::detail::moving(jr) && urdf::detail::supported(jr)) {
        out << ", axis " << number(jr.axis[0]) << ' ' << number(jr.axis[1]) << ' '
            << number(jr.axis[2]);
      }
      if (jr.mimic_line > 0) out << ", mimics " << shown(jr.mimic_joint);
      out << ')';
    }
    if (urdf::detail::has_mass(r)) out << "  " << number(r.mass) << " kg";
    out << '\n';
    const std::vector<std::size_t>& children = t.child_joints[l];
    for (std::size_t k = children.size(); k-- > 0;) {
      stack.emplace_back(t.child_index[children[k]], depth + 1);
    }
  }
}

/// A tip to show: the link, and whether the tree of moving joints branches there.
struct Tip {
  std::size_t link;
  bool branch;
};

/// The tips of every chain: the leaves of the tree of moving joints a chain can hold
/// (revolute, continuous, prismatic; floating and planar joints end a chain), and the links
/// where that tree branches, depth first in document order.
std::vector<Tip> chain_tips(const urdf::Document& d, const urdf::Tree& t,
                            const urdf::Bodies& b) {
  std::vector<std::vector<std::size_t>> next(d.links.size());
  for (std::size_t j = 0; j < d.joints.size(); ++j) {
    const urdf::JointRecord& jr = d.joints[j];
    if (urdf::detail::moving(jr) && urdf::detail::supported(jr)) {
      next[b.body[t.parent_index[j]]].push_back(j);
    }
  }
  std::vector<Tip> tips;
  std::vector<std::size_t> stack{t.root};
  while (!stack.empty()) {
    const std::size_t body = stack.back();
    stack.pop_back();
    if (next[body].empty()) {
      if (body != t.root) tips.push_back(Tip{body, false});
      continue;
    }
    if (next[body].size() > 1) tips.push_back(Tip{t.parent_index[next[body].front()], true});
    for (std::size_t k = next[body].size(); k-- > 0;) {
      stack.push_back(t.child_index[next[body][k]]);
    }
  }
  return tips;
}

/// "chaindyn::ChainN<double, 7, chaindyn::RevoluteZ>" or "chaindyn::Chain<double, ...>".
std::string chain_type(const urdf::Description& c) {
  std::vector<std::string> types;
  for (const urdf::ChainJoint& j : c.joints) {
    types.push_back(j.kind == chaindyn::JointKind::prismatic ? "chaindyn::PrismaticZ"
                                                              : "chaindyn::RevoluteZ");
  }
  bool same = true;
  for (const std::string& s : types) same = same && s == types.front();
  if (same) {
    return "chaindyn::ChainN<double, " + std::to_string(types.size()) + ", " + types.front() + ">";
  }
  std::string out = "chaindyn::Chain<double";
  for (const std::string& s : types) out += ", " + s;
  return out + ">";
}

/// "7 revolute, 1 prismatic" (URDF types, in order of first appearance).
std::string type_counts(const urdf::Description& c) {
  std::vector<std::pair<std::string, int>> counts;
  for (const urdf::ChainJoint& j : c.joints) {
    const std::string name = urdf::detail::type_name(j.type);
    bool found = false;
    for (auto& [n, k] : counts) {
      if (n == name) {
        ++k;
        found = true;
      }
    }
    if (!found) counts.emplace_back(name, 1);
  }
  std::string out;
  for (const auto& [n, k] : counts) out += (out.empty() ? "" : ", ") + std::to_string(k) + " " + n;
  return out;
}

/// A parser message with the file's path in place of its "chaindyn::urdf: " prefix.
std::string with_path(std::string message, const std::string& path) {
  const std::string prefix = "chaindyn::urdf: ";
  if (message.compare(0, prefix.size(), prefix) == 0) message.replace(0, prefix.size(), path + ": ");
  return message;
}

/// The C++ call that loads the chain of `path` to `tip_name` (none: the default tip) with the
/// inertia policy of `o`, as the user would write it.
std::string load_call(const std::string& type, const Options& o, const std::string& tip_name,
                      bool default_tip) {
  std::string call = "chaindyn::urdf::load<" + type + ">(\"" + shown(o.path) + "\"";
  const std::string tip = default_tip ? std::string() : shown(tip_name);
  if (o.load.inertia == urdf::InertiaPolicy::strict) {
    if (!tip.empty()) call += ", \"" + tip + "\"";
  } else {
    call += std::string(", chaindyn::urdf::LoadOptions{\"") + tip +
            "\", chaindyn::urdf::InertiaPolicy::" + urdf::policy_name(o.load.inertia) + "}";
  }
  return call + ")";
}

/// One chain: its joints, types, the chain type to use, the load call and the report (or the
/// error). Returns false on an error.
bool print_chain(const std::string& text, const Options& o, const std::string& tip_name,
                 const std::string& label, bool default_tip, std::ostream& out) {
  urdf::LoadOptions load = o.load;
  load.tip = tip_name;
  out << "\n" << label << " " << shown(tip_name);
  try {
    urdf::Description c = urdf::describe(text, load);
    c.report.file = o.path;
    out << ": " << c.joints.size() << " moving joint" << (c.joints.size() == 1 ? "" : "s");
    if (!c.joints.empty()) out << " (" << type_counts(c) << ")";
    out << ", from link '" << shown(c.root_link) << "'" << (default_tip ? " (the single leaf: the default tip)" : "") << "\n";
    if (c.joints.empty()) {
      out << "  no moving joint: not a chain\n";
      return true;
    }
    out << "  joints: ";
    double mass = 0;
    for (std::size_t i = 0; i < c.joints.size(); ++i) {
      const urdf::ChainJoint& j = c.joints[i];
      out << (i ? ", " : "") << shown(j.link.joint_name) << " (" << urdf::detail::type_name(j.type)
          << ")";
      mass += j.link.mass;
    }
    out << "\n";
    std::string welded;
    for (const urdf::LinkFrame& f : c.frames) {
      if (f.body + 1 == c.joints.size() && f.name != c.joints.back().link.name) {
        welded += (welded.empty() ? "" : ", ") + shown(f.name);
      }
    }
    out << "  tip body: " << shown(c.joints.back().link.name);
    if (!welded.empty()) out << " (fixed to it, also valid tips and frames: " << welded << ")";
    out << "\n";
    out << "  mass on the chain: " << number(mass) << " kg"
        << (c.checks.regular ? "" : " (kinematics only: has_dynamics() will be false)") << "\n";
    // the chain as load builds it: the model's own checks (a joint that moves no mass) too
    try {
      (void)urdf::parse_any(text, load);
    } catch (const chaindyn::ModelError& e) {
      out << "  not loadable: the chain's model refuses it\n    error: "
          << shown(with_path(e.what(), o.path)) << "\n";
      if (std::string(e.what()).find("moves no") != std::string::npos) {
        out << "    (a moving link without mass, e.g. a gripper finger: name a tip before it "
               "with --tip, or give the link its <inertial>)\n";
      }
      return false;
    }
    const std::string type = chain_type(c);
    out << "  type: " << type << "\n";
    out << "  load: " << load_call(type, o, tip_name, default_tip) << "\n";
    out << "  report: " << c.report.warnings() << " warning" << (c.report.warnings() == 1 ? "" : "s")
        << ", " << c.report.notes() << " note" << (c.report.notes() == 1 ? "" : "s")
        << " (--inertia " << urdf::policy_name(o.load.inertia) << ")\n";
    for (const urdf::Diagnostic& d : c.report.diagnostics) {
      out << "    " << urdf::to_string(d, c.report.file) << "\n";
    }
    return true;
  } catch (const chaindyn::ModelError& e) {
    const std::string message = with_path(e.what(), o.path);
    out << ": refused\n    error: " << shown(message) << "\n";
    if (message.find("InertiaPolicy::repair") != std::string::npos) {
      out << "    (here: --inertia repair or --inertia accept)\n";
    }
    return false;
  }
}

/// The whole tree (urdf::load_tree): its joints in joint order with their parents, the
/// compile-time type, the load_tree call and the report, or the error. Returns false on an
/// error.
bool print_whole_tree(const std::string& text, const Options& o, std::ostream& out) {
  urdf::TreeLoadOptions load;
  load.inertia = o.load.inertia;
  load.massless = o.massless;
  out << "\nwhole tree (urdf::load_tree: every moving joint, depth first, parents before "
         "children)";
  try {
    urdf::TreeDescription t = urdf::describe_tree(text, load);
    t.report.file = o.path;
    (void)urdf::build_tree(t);  // as load_tree builds it: the model's own checks too
    std::size_t roots = 0;
    double mass = 0;
    for (std::size_t i = 0; i < t.joints.size(); ++i) {
      roots += t.parents[i] == chaindyn::no_parent;
      mass += t.joints[i].link.mass;
    }
    out << ": " << t.joints.size() << " moving joint" << (t.joints.size() == 1 ? "" : "s") << ", "
        << roots << " on the base, mass " << number(mass) << " kg\n";
    for (std::size_t i = 0; i < t.joints.size(); ++i) {
      const urdf::ChainJoint& j = t.joints[i];
      out << "  " << i << "  " << shown(j.link.joint_name) << " ("
          << urdf::detail::type_name(j.type) << ") -> " << shown(j.link.name) << ", parent ";
      if (t.parents[i] == chaindyn::no_parent) {
        out << "the base";
      } else {
        out << t.parents[i] << " (" << shown(t.joints[t.parents[i]].link.joint_name) << ")";
      }
      if (std::find(t.massless.begin(), t.massless.end(), i) != t.massless.end()) {
        out << "  [moves no mass]";
      }
      out << "\n";
    }
    const std::string type = urdf::tree_type_name(t);
    std::string options;
    if (load.inertia != urdf::InertiaPolicy::strict ||
        load.massless != urdf::MasslessPolicy::kinematics) {
      options = std::string(", chaindyn::urdf::TreeLoadOptions{chaindyn::urdf::InertiaPolicy::") +
                urdf::policy_name(load.inertia) + ", chaindyn::urdf::MasslessPolicy::" +
                urdf::massless_policy_name(load.massless) + "}";
    }
    out << "  type: " << type << " (at run time: chaindyn::TreeX<double>)\n";
    out << "  load: chaindyn::urdf::load_tree(\"" << shown(o.path) << "\"" << options
        << ")  (load_tree<type>(...) for the compile-time tree)\n";
    if (!t.checks.regular) {
      out << "  has_dynamics() false: a joint moves no mass (--massless armature regularises "
             "it)\n";
    }
    out << "  report: " << t.report.warnings() << " warning"
        << (t.report.warnings() == 1 ? "" : "s") << ", " << t.report.notes() << " note"
        << (t.report.notes() == 1 ? "" : "s") << " (--inertia "
        << urdf::policy_name(load.inertia) << ", --massless "
        << urdf::massless_policy_name(load.massless) << ")\n";
    for (const urdf::Diagnostic& d : t.report.diagnostics) {
      out << "    " << urdf::to_string(d, t.report.file) << "\n";
    }
    return true;
  } catch (const chaindyn::ModelError& e) {
    out << ": refused\n    error: " << shown(with_path(e.what(), o.path)) << "\n";
    return false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse_args(argc, argv, o)) {
    std::cerr << kUsage;
    return 2;
  }
  std::ostringstream out;
  bool ok = true;
  try {
    const std::string text = urdf::detail::read_file(o.path);
    const urdf::Document d = urdf::detail::read_document(text);
    const urdf::Tree t = urdf::detail::check_tree(d);
    const urdf::Bodies b = urdf::detail::weld_fixed_joints(d, t);
    int counts[6] = {};
    for (const urdf::JointRecord& j : d.joints) ++counts[int(j.type)];
    out << "robot '" << shown(d.robot_name) << "' (" << shown(o.path) << "): " << d.links.size()
        << " links, " << d.joints.size() << " joints";
    const urdf::JointType all[] = {urdf::JointType::revolute, urdf::JointType::continuous,
                                   urdf::JointType::prismatic, urdf::JointType::fixed,
                                   urdf::JointType::floating, urdf::JointType::planar};
    std::string list;
    for (const urdf::JointType type : all) {
      if (counts[int(type)] == 0) continue;
      list += (list.empty() ? "" : ", ") + std::to_string(counts[int(type)]) + " " +
              urdf::detail::type_name(type);
    }
    out << (list.empty() ? "" : " (" + list + ")") << "\n\n";
    print_tree(d, t, out);

    if (!o.load.tip.empty()) {
      out << "\nthe chain to the tip given (--tip):";
      ok = print_chain(text, o, o.load.tip, "chain to", false, out);
    } else {
      bool main_ok = false, any_ok = false;
      const std::vector<Tip> tips = chain_tips(d, t, b);
      // the default tip (urdf::load without one), if the file has one
      std::string default_tip;
      try {
        default_tip = urdf::describe(text, o.load).tip_link;
      } catch (const chaindyn::ModelError&) {
      }
      out << "\nchains from the root link to each leaf of the tree of moving joints and to each "
             "link where it branches (chaindyn-urdf-info FILE --tip LINK for one):";
      if (tips.empty()) out << "\n  none: the file has no revolute, continuous or prismatic joint\n";
      for (const Tip& tip : tips) {
        const std::string& name = d.links[tip.link].name;
        const bool is_default = !tip.branch && name == default_tip;
        const bool loads =
            print_chain(text, o, name, tip.branch ? "branch point" : "leaf", is_default, out);
        any_ok = any_ok || loads;
        main_ok = main_ok || (is_default && loads);
      }
      ok = tips.empty() || (default_tip.empty() ? any_ok : main_ok);
      print_whole_tree(text, o, out);
    }
  } catch (const chaindyn::ModelError& e) {
    std::cout << out.str();
    std::cerr << "chaindyn-urdf-info: " << shown(e.what()) << '\n';
    return 1;
  }
  std::cout << out.str();
  return ok ? 0 : 1;
}
