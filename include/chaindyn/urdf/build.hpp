/// @file
/// From a URDF Description to a Chain: the joint slots of the Chain type, the turn of each
/// joint frame onto the type's axis (rotation_onto), make_links, build, parse and load.
/// Included through chaindyn/urdf.hpp, which documents the rules.
#pragma once

#include "chaindyn/model/chain.hpp"
#include "chaindyn/urdf/description.hpp"
#include "chaindyn/urdf/error.hpp"
#include "chaindyn/urdf/report.hpp"

#include <array>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace chaindyn::urdf {

/// What a joint slot of a Chain type accepts (chaindyn::JointSlot: the joint kind, and the axis
/// fixed in the type, 0: x, 1: y, 2: z, or -1 for a run-time axis).
using JointSlot = chaindyn::JointSlot;

/// The rotation R_a with R_a e_K = a (a a unit vector), by which a joint slot with its axis e_K
/// in the type turns the URDF joint frame:
/// - if a . e_K >= 0, the minimal rotation (about e_K x a, by the angle between them):
///       R_a = 1 + [v]x + [v]x^2 / (1 + c),   v = e_K x a,  c = e_K . a
///   (1 when a = e_K, so a URDF axis that already is the type's leaves every number unchanged);
/// - otherwise the half-turn H about the next coordinate axis e_{(K+1) mod 3} (about x for a z
///   joint: H = diag(1, -1, -1)), which takes e_K to -e_K, followed by the minimal rotation from
///   -e_K to a (the same formula with -e_K). For a = -e_K that is H alone.
/// Both branches divide by at least 1, so R_a is accurate to rounding for every axis.
inline Eigen::Matrix3d rotation_onto(int K, const Eigen::Vector3d& a) {
  const auto minimal = [](const Eigen::Vector3d& from, const Eigen::Vector3d& to) {
    const Eigen::Vector3d v = from.cross(to);
    const double c = from.dot(to);
    const Eigen::Matrix3d vx = chaindyn::detail::skew(v);
    return Eigen::Matrix3d(Eigen::Matrix3d::Identity() + vx + vx * vx / (1.0 + c));
  };
  const Eigen::Vector3d e = Eigen::Vector3d::Unit(K);
  if (a.dot(e) >= 0.0) return minimal(e, a);
  Eigen::Matrix3d h = -Eigen::Matrix3d::Identity();
  h((K + 1) % 3, (K + 1) % 3) = 1.0;
  return minimal(-e, a) * h;
}

/// The joint slots of a Chain type (Chain<Scalar, Joints...> or ChainN<Scalar, N, Joint>).
template <typename ChainType>
std::vector<JointSlot> joint_slots() {
  const auto slots = ChainType::joint_slots();
  return std::vector<JointSlot>(slots.begin(), slots.end());
}

/// The joint slots a ChainX is built with from a Description: each joint's own kind, and its
/// axis turned onto z (as for RevoluteZ / PrismaticZ slots: rotation_onto), the axis for which
/// the ChainX's joints take the code of the fixed-axis joint types.
inline std::vector<JointSlot> joint_slots(const Description& d) {
  std::vector<JointSlot> out;
  for (const ChainJoint& j : d.joints) out.push_back(JointSlot{j.kind, 2});
  return out;
}

/// The links of a chain with the given joint slots, built from a Description: checks the joint
/// count and each joint's kind against the slots, and for a slot with its axis in the type
/// turns the joint frame so that the URDF axis becomes that axis (see rotation_onto). Throws
/// ParseError. (For generators and fuzzers; `build` is this plus the Chain constructor.)
inline std::vector<Link<double>> make_links(const Description& d,
                                            const std::vector<JointSlot>& slots);

namespace detail {

/// make_links, and the turn R_a given to each link frame (identity where none: chain link
/// frame = URDF link frame * turns[i]).
inline std::vector<Link<double>> make_links(const Description& d,
                                            const std::vector<JointSlot>& slots,
                                            std::vector<Eigen::Matrix3d>& turns) {
  using detail::fail;
  using detail::Place;
  const Place robot{detail::quoted("robot", d.robot_name), d.robot_line};
  if (d.joints.size() != slots.size()) {
    std::string names;
    for (std::size_t i = 0; i < d.joints.size() && i < 12; ++i) {
      names += (i ? ", '" : "'") + d.joints[i].link.joint_name + "'";
    }
    if (d.joints.size() > 12) names += ", ...";
    fail(robot, "the chain from link '", d.root_link, "' to link '", d.tip_link, "' has ",
         d.joints.size(), " moving joints", d.joints.empty() ? "" : " (", names,
         d.joints.empty() ? "" : ")", " but the Chain type has ", slots.size());
  }
  std::vector<Link<double>> links;
  links.reserve(slots.size());
  // R_prev: the turn given to the previous link frame; the next placement is re-expressed in
  // the turned frame: placement' = R_prev^T placement.
  Eigen::Matrix3d r_prev = Eigen::Matrix3d::Identity();
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const ChainJoint& cj = d.joints[i];
    const Place here{detail::quoted("joint", cj.link.joint_name), cj.line};
    if (cj.kind != slots[i].kind) {
      fail(here, "a ", detail::type_name(cj.type), " joint given for joint ", i,
           " of the Chain type, which is ", kind_name(slots[i].kind));
    }
    Link<double> l = cj.link;
    l.placement = Transform<double>(r_prev.transpose() * l.placement.rotation,
                                    r_prev.transpose() * l.placement.translation);
    if (slots[i].axis >= 0) {
      const Eigen::Vector3d a = l.axis->normalized();
      if (a == Eigen::Vector3d::Unit(slots[i].axis)) {
        r_prev.setIdentity();
      } else {
        // link frame' = link frame * R_a: placement' = placement R_a, and what is expressed
        // in the link frame (centre of mass, inertia) turns by R_a^T.
        const Eigen::Matrix3d ra = rotation_onto(slots[i].axis, a);
        l.placement.rotation = (l.placement.rotation * ra).eval();
        l.com = (ra.transpose() * l.com).eval();
        l.inertia = (ra.transpose() * l.inertia * ra).eval();
        l.inertia = (0.5 * (l.inertia + l.inertia.transpose())).eval();
        r_prev = ra;
      }
      l.axis.reset();
    } else {
      r_prev.setIdentity();
    }
    turns.push_back(r_prev);
    links.push_back(std::move(l));
  }
  return links;
}

}  // namespace detail

inline std::vector<Link<double>> make_links(const Description& d,
                                            const std::vector<JointSlot>& slots) {
  std::vector<Eigen::Matrix3d> turns;
  return detail::make_links(d, slots, turns);
}

/// The Chain of type ChainType from a Description, with the file's frames: link_frame(i) is the
/// URDF frame of chain link i in the chain's (possibly turned) link frame, and every link of
/// Description::frames is a named frame (the chain links, the links fixed to them such as
/// tool0, and the root link and links fixed to it as base frames). The chain is built with
/// d.checks (a kinematics-only load: has_dynamics() false; accepted inertias kept). ChainType
/// may be a ChainX: it takes the file's joint count, kinds and axes (build_any). Throws
/// ParseError.
template <typename ChainType>
ChainType build(const Description& d) {
  using Scalar = typename ChainType::Scalar;
  constexpr bool runtime_sized = ChainType::nq == Eigen::Dynamic;
  std::vector<Eigen::Matrix3d> turns;
  std::vector<JointSlot> slots;
  if constexpr (runtime_sized) {
    if (d.joints.empty()) {
      detail::fail(detail::Place{detail::quoted("robot", d.robot_name), d.robot_line},
                   "the chain from link '", d.root_link, "' to link '", d.tip_link,
                   "' has no moving joint");
    }
    slots = joint_slots(d);
  } else {
    slots = joint_slots<ChainType>();
  }
  std::vector<Link<double>> links = detail::make_links(d, slots, turns);
  if constexpr (runtime_sized) {
    for (Link<double>& l : links) l.axis = Eigen::Vector3d::UnitZ();  // turned onto z
  }
  PerLinkArray<Link<Scalar>, ChainType::nq> cast;
  chaindyn::detail::resize_per_link(cast, links.size());
  for (std::size_t i = 0; i < cast.size(); ++i) cast[i] = cast_link<Scalar>(links[i]);
  try {
    ChainType chain = [&] {
      if constexpr (runtime_sized) {
        std::vector<JointKind> kinds;
        for (const JointSlot& s : slots) kinds.push_back(s.kind);
        return ChainType(cast, kinds, default_gravity<Scalar>(), d.checks);
      } else {
        return ChainType(cast, default_gravity<Scalar>(), d.checks);
      }
    }();
    // The frame API speaks the file's frames: URDF link frame = chain link frame * R_a^T.
    for (std::size_t i = 0; i < cast.size(); ++i) {
      if (turns[i] != Eigen::Matrix3d::Identity()) {
        chain.set_link_frame(i, cast_transform<Scalar>(Transform<double>(
                                    turns[i].transpose(), Eigen::Vector3d::Zero())));
      }
    }
    for (const LinkFrame& f : d.frames) {
      const Transform<Scalar> pose = cast_transform<Scalar>(f.pose);
      if (f.body == LinkFrame::base) {
        chain.add_base_frame(f.name, pose);
      } else {
        chain.add_frame(f.name, f.body, pose);
      }
    }
    return chain;
  } catch (const ParseError&) {
    throw;
  } catch (const ModelError& e) {
    detail::fail(detail::Place{detail::quoted("robot", d.robot_name), d.robot_line},
                 detail::model_error_text(e));
  }
}

/// Parses URDF text into a chain of type ChainType (Chain<Scalar, Joints...> or
/// ChainN<Scalar, N, Joint>), from the root link to `options.tip` (default: the single leaf),
/// with `options.inertia` deciding what a non-physical inertia on the chain does (strict:
/// refused). `report`, if given, receives what the parser left out, ignored, repaired or kept
/// (untouched if it throws). Throws ParseError (and nothing else but std::bad_alloc) on any
/// input.
template <typename ChainType>
ChainType parse(std::string_view xml, const LoadOptions& options, Report* report = nullptr) {
  Description d = describe(xml, options);
  ChainType chain = build<ChainType>(d);
  if (report) *report = std::move(d.report);
  return chain;
}

/// parse with the default options (InertiaPolicy::strict) and the tip link `tip` (empty: the
/// single leaf). ChainType may be ChainX<Scalar> (parse_any).
template <typename ChainType>
ChainType parse(std::string_view xml, std::string_view tip = {}) {
  LoadOptions options;
  options.tip = std::string(tip);
  return parse<ChainType>(xml, options);
}

namespace detail {

/// The text of the file at `path`; ParseError if it cannot be read.
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ParseError("chaindyn::urdf: " + path + ": cannot open the file", 0, std::string());
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    throw ParseError("chaindyn::urdf: " + path + ": cannot read the file", 0, std::string());
  }
  return text.str();
}

/// A ParseError of the file at `path`: the same error, its message naming the file.
[[noreturn]] inline void rethrow_in_file(const ParseError& e, const std::string& path) {
  const std::string prefix = "chaindyn::urdf: ";
  std::string message = e.what();
  if (message.compare(0, prefix.size(), prefix) == 0) message.erase(0, prefix.size());
  throw ParseError(prefix + path + ": " + message, e.line(), e.element());
}

}  // namespace detail

/// Reads the URDF file at `path` and parses it (see parse); error messages name the file, and
/// so does the report (Report::file).
template <typename ChainType>
ChainType load(const std::string& path, const LoadOptions& options, Report* report = nullptr) {
  const std::string text = detail::read_file(path);
  try {
    ChainType chain = parse<ChainType>(text, options, report);
    if (report) report->file = path;
    return chain;
  } catch (const ParseError& e) {
    detail::rethrow_in_file(e, path);
  }
}

/// load with the default options (InertiaPolicy::strict) and the tip link `tip`.
template <typename ChainType>
ChainType load(const std::string& path, std::string_view tip = {}) {
  LoadOptions options;
  options.tip = std::string(tip);
  return load<ChainType>(path, options);
}

/// describe the file at `path` (see describe); errors and the report name the file.
inline Description describe_file(const std::string& path, const LoadOptions& options = {}) {
  const std::string text = detail::read_file(path);
  try {
    Description d = describe(text, options);
    d.report.file = path;
    return d;
  } catch (const ParseError& e) {
    detail::rethrow_in_file(e, path);
  }
}

/// The chain of any URDF, sized at run time: a ChainX with the file's joint count and joint
/// kinds, from the root link to `tip` (default: the single leaf), with the file's named frames.
/// Each joint frame is turned so that the URDF axis is z, as for a ChainN<double, n,
/// RevoluteZ> (the link frames the user sees, the named frames and payloads stay the file's:
/// Chain::link_frame), and the joints then run RevoluteZ's / PrismaticZ's code. The caller
/// names no joint count or type. Throws ParseError (a ModelError) naming the file, the element
/// and the line.
template <typename Scalar = double>
ChainX<Scalar> load_any(const std::string& path, std::string_view tip = {}) {
  return load<ChainX<Scalar>>(path, tip);
}

/// parse for any URDF text: the ChainX of the file (see load_any).
template <typename Scalar = double>
ChainX<Scalar> parse_any(std::string_view xml, std::string_view tip = {}) {
  return parse<ChainX<Scalar>>(xml, tip);
}

/// load_any with options (tip, inertia policy) and the report (see load).
template <typename Scalar = double>
ChainX<Scalar> load_any(const std::string& path, const LoadOptions& options,
                        Report* report = nullptr) {
  return load<ChainX<Scalar>>(path, options, report);
}

/// parse_any with options (tip, inertia policy) and the report (see parse).
template <typename Scalar = double>
ChainX<Scalar> parse_any(std::string_view xml, const LoadOptions& options,
                         Report* report = nullptr) {
  return parse<ChainX<Scalar>>(xml, options, report);
}

}  // namespace chaindyn::urdf
