/// @file
/// chaindyn-urdf2cpp: turns a URDF into a C++ header that builds the same chain without XML at
/// run time (for controllers that must not parse files, or ship without tinyxml2).
///
///     chaindyn-urdf2cpp robot.urdf [--tip LINK] [--name NAME] [--namespace NS]
///                       [--runtime-axes] [--inertia strict|repair|accept] > robot.hpp
///
/// The header defines, in namespace NS (default `robots`):
///     template <typename Scalar = double> using NAME_chain = chaindyn::Chain<Scalar, ...>;
///     template <typename Scalar = double> std::array<chaindyn::Link<Scalar>, N> NAME_links();
///     template <typename Scalar = double> NAME_chain<Scalar> NAME();   // with the file's frames
/// NAME defaults to the URDF robot name made into an identifier. Joint types: RevoluteZ /
/// PrismaticZ with every axis turned onto z exactly as chaindyn::urdf::parse does for those
/// types (the fastest joints), or, with --runtime-axes, Revolute / Prismatic with the axes as
/// written; each wrapped in chaindyn::Placed with the structure of its placement (a signed
/// axis permutation, a rotation about one axis, the zero components of the offset: see
/// chaindyn/joints/placed.hpp; entries within 1e-12 of 0 or +-1 count as such), so that the
/// algorithms skip those operations, unless --no-placement-types. The numbers are printed with 17 significant digits, so the generated chain equals
/// urdf::parse's bit for bit, link frames and named frames (tool0, ...) included
/// (tests/CMakeLists.txt checks this on the test URDFs). The parser's report (what it left out,
/// ignored, repaired or kept; docs/urdf.md) heads the header as comments; --inertia chooses the
/// policy for a non-physical inertia on the chain (default strict: refused). A chain built with
/// relaxed checks (an inertia kept by --inertia accept, a kinematics-only file) is built with the
/// same chaindyn::ModelChecks in NAME().
///
/// --tree: the whole tree of the file (urdf::describe_tree; every moving joint, depth first)
/// instead of one chain: `template <typename Scalar = double> using NAME_tree =
/// chaindyn::Tree<Scalar, chaindyn::Parents<...>, ...>`, NAME_links() in joint order, and
/// NAME() building the tree urdf::parse_tree<NAME_tree<>> builds, with the same joint types and
/// placement types; --massless chooses the policy for joints that move no mass.
///
/// Exit status: 0 on success, 1 on a URDF error (message on stderr, with the line), 2 on a
/// usage error.
#include "chaindyn/urdf.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

const char* const kUsage =
    "usage: chaindyn-urdf2cpp robot.urdf [--tip LINK] [--name NAME] [--namespace NS] "
    "[--runtime-axes] [--no-placement-types] [--inertia strict|repair|accept]\n"
    "       chaindyn-urdf2cpp robot.urdf --tree [--name NAME] [--namespace NS] [--runtime-axes]\n"
    "                         [--no-placement-types] [--inertia strict|repair|accept]\n"
    "                         [--massless kinematics|armature|refuse] > robot.hpp\n";

struct Options {
  std::string path;
  std::string tip;
  std::string name;
  std::string ns = "robots";
  bool runtime_axes = false;
  bool placement_types = true;
  chaindyn::urdf::InertiaPolicy inertia = chaindyn::urdf::InertiaPolicy::strict;
  bool tree = false;
  chaindyn::urdf::MasslessPolicy massless = chaindyn::urdf::MasslessPolicy::kinematics;
};

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (const char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

/// "iiwa14-v1.2" -> "iiwa14_v1_2"; a leading digit gets a '_' in front.
std::string identifier_from(const std::string& s) {
  std::string out;
  for (const char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (out.empty()) out = "robot";
  if (std::isdigit(static_cast<unsigned char>(out[0]))) out.insert(out.begin(), '_');
  return out;
}

/// A C++ string literal with the characters a URDF name may hold escaped.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// Text for a // comment: control characters (a URDF name may hold a newline, which would end
/// the comment) shown as '?', and backslashes (one at the end of a line would continue the
/// comment onto the next) written as "\x5c".
std::string comment(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '\\') {
      out += "\\x5c";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += '?';
    } else {
      out += c;
    }
  }
  return out;
}

/// A double as a Scalar expression that reproduces it exactly.
std::string number(double x) {
  if (std::isinf(x)) {
    return x > 0 ? "std::numeric_limits<Scalar>::infinity()"
                 : "-std::numeric_limits<Scalar>::infinity()";
  }
  if (x == 0.0) return std::signbit(x) ? "Scalar(-0.0)" : "Scalar(0)";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return "Scalar(" + s + ")";
}

template <typename Derived>
std::string vector3(const Eigen::MatrixBase<Derived>& v) {
  return "chaindyn::Vector3<Scalar>(" + number(v[0]) + ", " + number(v[1]) + ", " +
         number(v[2]) + ")";
}

std::string matrix3(const Eigen::Matrix3d& m, const std::string& indent) {
  std::ostringstream os;
  os << "(chaindyn::Matrix3<Scalar>() <<";
  for (int r = 0; r < 3; ++r) {
    os << '\n' << indent << "    ";
    for (int c = 0; c < 3; ++c) {
      os << number(m(r, c)) << (r == 2 && c == 2 ? ")" : c == 2 ? "," : ", ");
    }
  }
  os << ".finished()";
  return os.str();
}

bool parse_args(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    if (a == "--tip") {
      if (!value(o.tip)) return false;
    } else if (a == "--name") {
      if (!value(o.name) || !is_identifier(o.name)) return false;
    } else if (a == "--namespace") {
      if (!value(o.ns) || !is_identifier(o.ns)) return false;
    } else if (a == "--runtime-axes") {
      o.runtime_axes = true;
    } else if (a == "--tree") {
      o.tree = true;
    } else if (a == "--massless") {
      std::string p;
      if (!value(p)) return false;
      if (!chaindyn::urdf::massless_policy_from_name(p, o.massless)) return false;
    } else if (a == "--no-placement-types") {
      o.placement_types = false;
    } else if (a == "--inertia") {
      std::string p;
      if (!value(p)) return false;
      if (!chaindyn::urdf::policy_from_name(p, o.inertia)) return false;
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

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw chaindyn::urdf::ParseError("chaindyn::urdf: " + path + ": cannot open the file", 0, {});
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void emit_link(const chaindyn::Link<double>& l, std::size_t i, int line, std::ostream& out);
void emit_model_end(const Options& o, const std::string& robot_name, const std::string& what,
                    const std::string& name, const chaindyn::ModelChecks& checks,
                    const std::vector<Eigen::Matrix3d>& turns,
                    const std::vector<chaindyn::urdf::LinkFrame>& frames, std::ostream& out);

void emit(const Options& o, const chaindyn::urdf::Description& d, std::ostream& out) {
  using chaindyn::JointKind;
  using chaindyn::urdf::JointSlot;
  std::vector<JointSlot> slots;
  std::vector<std::string> types;
  for (const auto& j : d.joints) {
    JointSlot s;
    s.kind = j.kind;
    s.axis = o.runtime_axes ? -1 : 2;
    slots.push_back(s);
    const chaindyn::JointKindInfo& info = chaindyn::kind_info(j.kind);
    types.push_back(std::string("chaindyn::") + (o.runtime_axes ? info.type_axis : info.type_z));
  }
  std::vector<Eigen::Matrix3d> turns;
  const std::vector<chaindyn::Link<double>> links =
      chaindyn::urdf::detail::make_links(d, slots, turns);
  const std::size_t n = links.size();
  const std::string name = o.name.empty() ? identifier_from(d.robot_name) : o.name;

  // Each joint placed with its placement's structure (joints/placed.hpp), unless asked not to.
  if (o.placement_types) {
    for (std::size_t i = 0; i < n; ++i) {
      types[i] = "chaindyn::Placed<" + types[i] + ", " +
                 chaindyn::detail::rotation_pattern_name(links[i].placement.rotation) + ", " +
                 chaindyn::detail::offset_pattern_name(links[i].placement.translation) + ">";
    }
  }
  bool homogeneous = true;
  for (const auto& t : types) homogeneous = homogeneous && t == types.front();

  out << "// Generated by chaindyn-urdf2cpp from " << comment(o.path) << " (robot '"
      << comment(d.robot_name) << "', chain from link '" << comment(d.root_link) << "' to link '"
      << comment(d.tip_link) << "', " << n << " joints"
      << (o.runtime_axes ? ", run-time axes" : ", axes turned onto z") << ").\n"
      << "// Do not edit: regenerate with chaindyn-urdf2cpp.\n//\n"
      << "// chaindyn::urdf report (--inertia " << chaindyn::urdf::policy_name(o.inertia)
      << "): " << d.report.warnings() << " warning" << (d.report.warnings() == 1 ? "" : "s")
      << ", " << d.report.notes() << " note" << (d.report.notes() == 1 ? "" : "s") << "\n";
  for (const chaindyn::urdf::Diagnostic& diag : d.report.diagnostics) {
    out << "//   " << comment(chaindyn::urdf::to_string(diag, o.path)) << "\n";
  }
  out << "#pragma once\n\n"
      << "#include \"chaindyn/model/chain.hpp\"\n\n"
      << "#include <array>\n#include <limits>\n\n"
      << "namespace " << o.ns << " {\n\n"
      << "/// The chain type of '" << comment(d.robot_name) << "'.\n"
      << "template <typename Scalar = double>\n"
      << "using " << name << "_chain = ";
  if (homogeneous) {
    out << "chaindyn::ChainN<Scalar, " << n << ", " << types.front() << ">;\n\n";
  } else {
    out << "chaindyn::Chain<Scalar";
    for (const auto& t : types) out << ",\n    " << t;
    out << ">;\n\n";
  }
  out << "/// The links of '" << comment(d.robot_name) << "', base to tip (chaindyn::Link: joint placement in\n"
      << "/// the parent link frame, mass, centre of mass and inertia about it in link axes).\n"
      << "template <typename Scalar = double>\n"
      << "std::array<chaindyn::Link<Scalar>, " << n << "> " << name << "_links() {\n"
      << "  std::array<chaindyn::Link<Scalar>, " << n << "> links;\n";
  for (std::size_t i = 0; i < n; ++i) emit_link(links[i], i, d.joints[i].line, out);
  emit_model_end(o, d.robot_name, "chain", name, d.checks, turns, d.frames, out);
}

void emit_link(const chaindyn::Link<double>& l, std::size_t i, int line, std::ostream& out) {
  const std::string ind = "  ";
  {
    const std::string li = "links[" + std::to_string(i) + "]";
    out << "\n" << ind << "// joint " << quoted(l.joint_name) << " (line " << line
        << "), link " << quoted(l.name) << "\n";
    out << ind << li << ".name = " << quoted(l.name) << ";\n";
    out << ind << li << ".joint_name = " << quoted(l.joint_name) << ";\n";
    out << ind << li << ".placement = chaindyn::Transform<Scalar>(\n"
        << ind << "    " << matrix3(l.placement.rotation, ind) << ",\n"
        << ind << "    " << vector3(l.placement.translation) << ");\n";
    if (l.axis) out << ind << li << ".axis = " << vector3(*l.axis) << ";\n";
    out << ind << li << ".mass = " << number(l.mass) << ";\n";
    out << ind << li << ".com = " << vector3(l.com) << ";\n";
    out << ind << li << ".inertia = " << matrix3(l.inertia, ind) << ";\n";
    out << ind << li << ".dynamics.damping = " << number(l.dynamics.damping) << ";\n";
    out << ind << li << ".dynamics.friction = " << number(l.dynamics.friction) << ";\n";
    out << ind << li << ".dynamics.armature = " << number(l.dynamics.armature) << ";\n";
    if (l.limits) {
      out << ind << li << ".limits = chaindyn::JointLimits<Scalar>{" << number(l.limits->lower)
          << ", " << number(l.limits->upper) << ", " << number(l.limits->velocity) << ", "
          << number(l.limits->effort) << "};\n";
    }
  }
}

/// The end of NAME_links() and the function NAME() that builds the model (`what`: "chain" or
/// "tree", also the variable's name) with its checks, link frames and named frames.
void emit_model_end(const Options& o, const std::string& robot_name, const std::string& what,
                    const std::string& name, const chaindyn::ModelChecks& checks,
                    const std::vector<Eigen::Matrix3d>& turns,
                    const std::vector<chaindyn::urdf::LinkFrame>& frames, std::ostream& out) {
  const std::string ind = "  ";
  const std::size_t n = turns.size();
  out << "  return links;\n}\n\n"
      << "/// '" << comment(robot_name) << "' as a " << what << " (default gravity (0, 0, -9.81) m/s^2), with the\n"
      << "/// file's frames as urdf::" << (what == "chain" ? "parse" : "parse_tree")
      << " gives them: each link's URDF frame (link_frame) and the\n"
      << "/// named frames of the links welded to the " << what << " (model.frame(\"name\")).\n"
      << "template <typename Scalar = double>\n"
      << name << "_" << what << "<Scalar> " << name << "() {\n";
  if (checks.physical_inertia && checks.regular) {
    out << "  " << name << "_" << what << "<Scalar> " << what << "(" << name << "_links<Scalar>());\n";
  } else {
    out << "  chaindyn::ModelChecks checks;\n";
    if (!checks.physical_inertia) {
      out << "  checks.physical_inertia = false;  // an inertia kept as written (--inertia accept): "
             "see the report above\n";
    }
    if (!checks.regular) {
      out << (what == "chain" ? "  checks.regular = false;  // no mass on the chain: kinematics only, "
                                "has_dynamics() is false\n"
                              : "  checks.regular = false;  // a joint moves no mass (--massless "
                                "kinematics): has_dynamics() is false\n");
    }
    out << "  " << name << "_" << what << "<Scalar> " << what << "(" << name
        << "_links<Scalar>(), chaindyn::default_gravity<Scalar>(), checks);\n";
  }
  const auto transform = [&](const chaindyn::Transform<double>& t) {
    return "chaindyn::Transform<Scalar>(\n" + ind + "    " + matrix3(t.rotation, ind) + ",\n" +
           ind + "    " + vector3(t.translation) + ")";
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (turns[i] == Eigen::Matrix3d::Identity()) continue;
    out << ind << what << ".set_link_frame(" << i << ", "
        << transform(chaindyn::Transform<double>(turns[i].transpose(), Eigen::Vector3d::Zero()))
        << ");\n";
  }
  for (const chaindyn::urdf::LinkFrame& f : frames) {
    if (f.body == chaindyn::urdf::LinkFrame::base) {
      out << ind << what << ".add_base_frame(" << quoted(f.name) << ", " << transform(f.pose)
          << ");\n";
    } else {
      out << ind << what << ".add_frame(" << quoted(f.name) << ", " << f.body << ", "
          << transform(f.pose) << ");\n";
    }
  }
  out << "  return " << what << ";\n"
      << "}\n\n"
      << "}  // namespace " << o.ns << "\n";
}

/// --tree: the whole tree (urdf::describe_tree) as a chaindyn::Tree type, its links and NAME().
void emit_tree(const Options& o, const chaindyn::urdf::TreeDescription& d, std::ostream& out) {
  using chaindyn::urdf::JointSlot;
  std::vector<JointSlot> slots;
  std::vector<std::string> types;
  for (const auto& j : d.joints) {
    slots.push_back(JointSlot{j.kind, o.runtime_axes ? -1 : 2});
    const chaindyn::JointKindInfo& info = chaindyn::kind_info(j.kind);
    types.push_back(std::string("chaindyn::") + (o.runtime_axes ? info.type_axis : info.type_z));
  }
  std::vector<Eigen::Matrix3d> turns;
  const std::vector<chaindyn::Link<double>> links =
      chaindyn::urdf::make_tree_links(d, slots, turns);
  const std::size_t n = links.size();
  const std::string name = o.name.empty() ? identifier_from(d.robot_name) : o.name;
  if (o.placement_types) {
    for (std::size_t i = 0; i < n; ++i) {
      types[i] = "chaindyn::Placed<" + types[i] + ", " +
                 chaindyn::detail::rotation_pattern_name(links[i].placement.rotation) + ", " +
                 chaindyn::detail::offset_pattern_name(links[i].placement.translation) + ">";
    }
  }
  out << "// Generated by chaindyn-urdf2cpp --tree from " << comment(o.path) << " (robot '"
      << comment(d.robot_name) << "', the whole tree from link '" << comment(d.root_link)
      << "', " << n << " joints"
      << (o.runtime_axes ? ", run-time axes" : ", axes turned onto z") << ").\n"
      << "// Do not edit: regenerate with chaindyn-urdf2cpp.\n//\n"
      << "// chaindyn::urdf report (--inertia " << chaindyn::urdf::policy_name(o.inertia)
      << ", --massless " << chaindyn::urdf::massless_policy_name(o.massless)
      << "): " << d.report.warnings() << " warning" << (d.report.warnings() == 1 ? "" : "s")
      << ", " << d.report.notes() << " note" << (d.report.notes() == 1 ? "" : "s") << "\n";
  for (const chaindyn::urdf::Diagnostic& diag : d.report.diagnostics) {
    out << "//   " << comment(chaindyn::urdf::to_string(diag, o.path)) << "\n";
  }
  out << "#pragma once\n\n"
      << "#include \"chaindyn/model/tree.hpp\"\n\n"
      << "#include <array>\n#include <limits>\n\n"
      << "namespace " << o.ns << " {\n\n"
      << "/// The tree type of '" << comment(d.robot_name) << "': joint i's parent is the i-th entry of\n"
      << "/// Parents (-1: the base); joints depth first, parents before children.\n"
      << "template <typename Scalar = double>\n"
      << "using " << name << "_tree = chaindyn::Tree<Scalar, chaindyn::Parents<";
  for (std::size_t i = 0; i < n; ++i) {
    out << (i ? ", " : "") << (d.parents[i] == chaindyn::no_parent ? -1L : long(d.parents[i]));
  }
  out << ">";
  for (const auto& t : types) out << ",\n    " << t;
  out << ">;\n\n";
  out << "/// The links of '" << comment(d.robot_name) << "', in joint order (chaindyn::Link: joint placement in\n"
      << "/// the parent link frame, mass, centre of mass and inertia about it in link axes).\n"
      << "template <typename Scalar = double>\n"
      << "std::array<chaindyn::Link<Scalar>, " << n << "> " << name << "_links() {\n"
      << "  std::array<chaindyn::Link<Scalar>, " << n << "> links;\n";
  for (std::size_t i = 0; i < n; ++i) emit_link(links[i], i, d.joints[i].line, out);
  emit_model_end(o, d.robot_name, "tree", name, d.checks, turns, d.frames, out);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse_args(argc, argv, o)) {
    std::cerr << kUsage;
    return 2;
  }
  if (o.tree && !o.tip.empty()) {
    std::cerr << "chaindyn-urdf2cpp: --tree takes the whole tree: no --tip\n" << kUsage;
    return 2;
  }
  try {
    if (o.tree) {
      chaindyn::urdf::TreeLoadOptions load;
      load.inertia = o.inertia;
      load.massless = o.massless;
      const chaindyn::urdf::TreeDescription d =
          chaindyn::urdf::describe_tree(read_file(o.path), load);
      (void)chaindyn::urdf::build_tree(d);  // the model's own checks, as parse_tree makes them
      std::ostringstream header;
      emit_tree(o, d, header);
      std::cout << header.str();
      return 0;
    }
    chaindyn::urdf::LoadOptions load;
    load.tip = o.tip;
    load.inertia = o.inertia;
    const chaindyn::urdf::Description d = chaindyn::urdf::describe(read_file(o.path), load);
    std::ostringstream header;
    emit(o, d, header);
    std::cout << header.str();
    return 0;
  } catch (const chaindyn::ModelError& e) {
    std::cerr << "chaindyn-urdf2cpp: " << o.path << ": " << e.what() << '\n';
    return 1;
  }
}
