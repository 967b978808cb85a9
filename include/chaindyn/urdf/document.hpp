/// @file
/// Reading a URDF document (tinyxml2) into plain records of its links and joints, checking
/// every value it reads. The kinematic tree is checked in description.hpp.
///
/// What is read (everything else, e.g. visual, collision, transmission, gazebo, is ignored):
///   <robot name>
///     <link name>
///       <inertial> <origin xyz rpy/> <mass value/> <inertia ixx ixy ixz iyy iyz izz/> </inertial>
///     <joint name type>
///       <parent link/> <child link/> <origin xyz rpy/> <axis xyz/>
///       <limit lower upper effort velocity/> <dynamics damping friction/>
///       <mimic joint multiplier offset/>  (only to say, in the report, that it is not modelled)
/// Defaults as the URDF specification gives them: origin xyz = rpy = 0, axis (1, 0, 0), limit
/// lower = upper = 0, dynamics damping = friction = 0. A link without <inertial> is massless.
#pragma once

#include "chaindyn/model/link.hpp"
#include "chaindyn/urdf/error.hpp"

#include <tinyxml2.h>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace chaindyn::urdf {

/// URDF joint types. `floating` and `planar` joints are read so that the tree is complete; a
/// chain cannot hold them (an error when one lies on the root-to-tip path, left out otherwise).
enum class JointType { revolute, continuous, prismatic, fixed, floating, planar };

/// The parsed document, public so that tools can show a file's whole tree (chaindyn-urdf-info):
/// the records of its links and joints as read and checked value by value, before the tree
/// checks (urdf::Tree) and before any chain is chosen.
///
/// One <link>: its inertial, turned into the link frame (com = inertial origin, inertia =
/// R I R^T with R the inertial origin's rotation); `line` is the element's line in the file.
struct LinkRecord {
  std::string name;
  int line = 0;
  bool has_inertial = false;  ///< an <inertial> element (possibly all zeros)
  double mass = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

/// One <joint>, as written (origin, axis, limits, dynamics, mimic); `line` its line.
struct JointRecord {
  std::string name;
  int line = 0;
  JointType type = JointType::fixed;
  std::string parent, child;
  Transform<double> origin;
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();
  int axis_line = 0;  ///< line of the <axis> element (0: none; a zero axis is refused on the chain)
  JointDynamics<double> dynamics;
  std::optional<JointLimits<double>> limits;
  /// <mimic joint multiplier offset>, as written (not interpreted: reported on the chain).
  std::string mimic_joint;
  std::string mimic_multiplier, mimic_offset;
  int mimic_line = 0;  ///< 0: no <mimic>
  /// chaindyn's extension element <chaindyn:elastic stiffness damping rotor_inertia> (an
  /// elastic joint: urdf::load_elastic), as written; elastic_line 0: none.
  double elastic_stiffness = 0, elastic_damping = 0, elastic_rotor_inertia = 0;
  int elastic_line = 0;
};

/// The records of a document, in document order (read by detail::read_document).
struct Document {
  std::string robot_name;
  int robot_line = 0;
  std::vector<LinkRecord> links;
  std::vector<JointRecord> joints;
};

namespace detail {

inline std::string quoted(std::string_view kind, std::string_view name) {
  std::string out(kind);
  out += " '";
  out.append(name.data(), name.size());
  out += '\'';
  return out;
}

/// An attribute value shown in a message, cut to a readable length.
inline std::string shown(const char* value) {
  constexpr std::size_t max = 60;
  std::string s(value);
  if (s.size() > max) s = s.substr(0, max) + "...";
  return s;
}

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Parses exactly `count` whitespace-separated finite numbers (C locale, as std::from_chars;
/// a leading '+' is accepted). Returns false on anything else.
inline bool parse_numbers(const char* text, int count, double* out) {
  const char* p = text;
  const char* const end = text + std::char_traits<char>::length(text);
  for (int k = 0; k < count; ++k) {
    while (p != end && is_space(*p)) ++p;
    if (p != end && *p == '+') ++p;
    double v = 0;
    const std::from_chars_result r = std::from_chars(p, end, v, std::chars_format::general);
    if (r.ec != std::errc() || !std::isfinite(v)) return false;
    if (r.ptr != end && !is_space(*r.ptr)) return false;
    out[k] = v;
    p = r.ptr;
  }
  while (p != end && is_space(*p)) ++p;
  return p == end;
}

/// Reads `count` numbers from attribute `attr` of element `e` (the place names the owner of
/// `e` for the message); `required` says whether a missing attribute is an error, otherwise the
/// values in `out` stay as they are.
inline void read_numbers(const tinyxml2::XMLElement* e, const char* attr, int count, double* out,
                         bool required, const Place& where) {
  const char* text = e->Attribute(attr);
  if (!text) {
    if (required) fail(where, '<', e->Name(), "> has no attribute '", attr, "'");
    return;
  }
  if (!parse_numbers(text, count, out)) {
    const std::string expected =
        count == 1 ? std::string("a finite number") : std::to_string(count) + " finite numbers";
    fail(Place{where.element, e->GetLineNum()}, '<', e->Name(), "> attribute ", attr, "=\"",
         shown(text), "\" is not ", expected);
  }
}

inline double read_number(const tinyxml2::XMLElement* e, const char* attr, double fallback,
                          bool required, const Place& where) {
  double v = fallback;
  read_numbers(e, attr, 1, &v, required, where);
  return v;
}

/// An <origin xyz rpy> child of `parent` (identity if absent).
inline Transform<double> read_origin(const tinyxml2::XMLElement* parent, const Place& where) {
  const tinyxml2::XMLElement* o = parent->FirstChildElement("origin");
  if (!o) return Transform<double>::Identity();
  double xyz[3] = {0, 0, 0};
  double rpy[3] = {0, 0, 0};
  read_numbers(o, "xyz", 3, xyz, false, where);
  read_numbers(o, "rpy", 3, rpy, false, where);
  return Transform<double>::FromRPY(rpy[0], rpy[1], rpy[2], Eigen::Vector3d(xyz[0], xyz[1], xyz[2]));
}

/// The one child element `name` of `parent`, or null; a second one is an error.
inline const tinyxml2::XMLElement* single_child(const tinyxml2::XMLElement* parent,
                                                const char* name, const Place& where) {
  const tinyxml2::XMLElement* c = parent->FirstChildElement(name);
  if (c) {
    if (const tinyxml2::XMLElement* d = c->NextSiblingElement(name)) {
      fail(where, "two <", name, "> elements (lines ", c->GetLineNum(), " and ", d->GetLineNum(),
           ")");
    }
  }
  return c;
}

/// A required non-empty name attribute.
inline std::string read_name(const tinyxml2::XMLElement* e, const char* attr,
                             const Place& where) {
  const char* v = e->Attribute(attr);
  if (!v || !*v) fail(where, '<', e->Name(), "> has no (or an empty) attribute '", attr, "'");
  return v;
}

inline LinkRecord read_link(const tinyxml2::XMLElement* e) {
  LinkRecord l;
  l.line = e->GetLineNum();
  l.name = read_name(e, "name", Place{"link", l.line});
  const Place where{quoted("link", l.name), l.line};
  const tinyxml2::XMLElement* inertial = single_child(e, "inertial", where);
  if (!inertial) return l;
  l.has_inertial = true;
  const Transform<double> frame = read_origin(inertial, where);
  const tinyxml2::XMLElement* mass = single_child(inertial, "mass", where);
  if (!mass) fail(Place{where.element, inertial->GetLineNum()}, "<inertial> has no <mass>");
  l.mass = read_number(mass, "value", 0, true, Place{where.element, mass->GetLineNum()});
  const tinyxml2::XMLElement* in = single_child(inertial, "inertia", where);
  if (!in) fail(Place{where.element, inertial->GetLineNum()}, "<inertial> has no <inertia>");
  const Place at{where.element, in->GetLineNum()};
  const double ixx = read_number(in, "ixx", 0, true, at);
  const double ixy = read_number(in, "ixy", 0, true, at);
  const double ixz = read_number(in, "ixz", 0, true, at);
  const double iyy = read_number(in, "iyy", 0, true, at);
  const double iyz = read_number(in, "iyz", 0, true, at);
  const double izz = read_number(in, "izz", 0, true, at);
  Eigen::Matrix3d tensor;
  tensor << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
  // The tensor is given in the inertial frame's axes: turn it into the link frame's.
  l.com = frame.translation;
  l.inertia = frame.rotation * tensor * frame.rotation.transpose();
  l.inertia = (0.5 * (l.inertia + l.inertia.transpose())).eval();
  return l;
}

inline JointRecord read_joint(const tinyxml2::XMLElement* e) {
  JointRecord j;
  j.line = e->GetLineNum();
  j.name = read_name(e, "name", Place{"joint", j.line});
  const Place where{quoted("joint", j.name), j.line};
  const std::string type = read_name(e, "type", where);
  if (type == "revolute") {
    j.type = JointType::revolute;
  } else if (type == "continuous") {
    j.type = JointType::continuous;
  } else if (type == "prismatic") {
    j.type = JointType::prismatic;
  } else if (type == "fixed") {
    j.type = JointType::fixed;
  } else if (type == "floating") {
    j.type = JointType::floating;
  } else if (type == "planar") {
    j.type = JointType::planar;
  } else {
    fail(where, "unknown joint type '", shown(type.c_str()),
         "' (URDF types: revolute, continuous, prismatic, fixed, floating, planar)");
  }
  const tinyxml2::XMLElement* parent = single_child(e, "parent", where);
  if (!parent) fail(where, "has no <parent>");
  j.parent = read_name(parent, "link", Place{where.element, parent->GetLineNum()});
  const tinyxml2::XMLElement* child = single_child(e, "child", where);
  if (!child) fail(where, "has no <child>");
  j.child = read_name(child, "link", Place{where.element, child->GetLineNum()});
  j.origin = read_origin(e, where);
  // axis, limits and dynamics mean nothing to a fixed joint, and a chain cannot hold a floating
  // or planar one
  if (j.type == JointType::fixed || j.type == JointType::floating ||
      j.type == JointType::planar) {
    return j;
  }

  if (const tinyxml2::XMLElement* axis = single_child(e, "axis", where)) {
    double a[3] = {1, 0, 0};
    read_numbers(axis, "xyz", 3, a, false, where);
    j.axis = Eigen::Vector3d(a[0], a[1], a[2]);
    j.axis_line = axis->GetLineNum();
  }
  if (const tinyxml2::XMLElement* mimic = e->FirstChildElement("mimic")) {
    const auto text = [mimic](const char* attr) {
      const char* v = mimic->Attribute(attr);
      return v ? shown(v) : std::string();
    };
    j.mimic_joint = text("joint");
    j.mimic_multiplier = text("multiplier");
    j.mimic_offset = text("offset");
    j.mimic_line = mimic->GetLineNum();
  }
  if (const tinyxml2::XMLElement* limit = single_child(e, "limit", where)) {
    const Place at{where.element, limit->GetLineNum()};
    JointLimits<double> l;
    l.lower = read_number(limit, "lower", 0, false, at);
    l.upper = read_number(limit, "upper", 0, false, at);
    l.effort = read_number(limit, "effort", 0, true, at);
    l.velocity = read_number(limit, "velocity", 0, true, at);
    if (j.type == JointType::continuous) {
      l.lower = -std::numeric_limits<double>::infinity();
      l.upper = std::numeric_limits<double>::infinity();
    }
    j.limits = l;
  }
  if (const tinyxml2::XMLElement* dyn = single_child(e, "dynamics", where)) {
    const Place at{where.element, dyn->GetLineNum()};
    j.dynamics.damping = read_number(dyn, "damping", 0, false, at);
    j.dynamics.friction = read_number(dyn, "friction", 0, false, at);
  }
  if (const tinyxml2::XMLElement* el = single_child(e, "chaindyn:elastic", where)) {
    const Place at{where.element, el->GetLineNum()};
    j.elastic_stiffness = read_number(el, "stiffness", 0, true, at);
    j.elastic_damping = read_number(el, "damping", 0, false, at);
    j.elastic_rotor_inertia = read_number(el, "rotor_inertia", 0, true, at);
    j.elastic_line = el->GetLineNum();
  }
  return j;
}

/// Parses the XML text and reads every <link> and <joint> child of <robot>.
inline Document read_document(std::string_view xml) {
  tinyxml2::XMLDocument doc;
  // tinyxml2 stops at a NUL byte; say so rather than parse a silently shortened document
  const std::size_t nul = xml.find('\0');
  if (nul != std::string_view::npos) {
    int line = 1;
    for (std::size_t i = 0; i < nul; ++i) line += xml[i] == '\n';
    fail(Place{"", line}, "malformed XML: NUL byte at offset ", nul);
  }
  if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
    const char* why = doc.ErrorStr();
    fail(Place{"", doc.ErrorLineNum()}, "malformed XML: ", why ? why : "unknown error");
  }
  const tinyxml2::XMLElement* robot = doc.RootElement();
  if (!robot) fail(Place{}, "malformed XML: no root element");
  if (std::string_view(robot->Name()) != "robot") {
    fail(Place{"", robot->GetLineNum()}, "the root element is <", shown(robot->Name()),
         ">, not <robot>");
  }
  Document d;
  d.robot_line = robot->GetLineNum();
  if (const char* name = robot->Attribute("name")) d.robot_name = name;
  for (const tinyxml2::XMLElement* e = robot->FirstChildElement("link"); e;
       e = e->NextSiblingElement("link")) {
    d.links.push_back(read_link(e));
  }
  for (const tinyxml2::XMLElement* e = robot->FirstChildElement("joint"); e;
       e = e->NextSiblingElement("joint")) {
    d.joints.push_back(read_joint(e));
  }
  return d;
}

}  // namespace detail
}  // namespace chaindyn::urdf
