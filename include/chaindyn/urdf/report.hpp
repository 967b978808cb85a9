/// @file
/// How the URDF parser loads (urdf::LoadOptions: the tip link and the inertia policy) and what
/// it tells about the file (urdf::Report: what was left out, ignored, repaired or kept, each
/// with its XML line). docs/urdf.md has the table of what is checked and what is ignored.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace chaindyn::urdf {

/// What the parser does with an inertia on the chain that is not physical (not positive
/// semi-definite, or principal moments breaking the triangle inequality I1 + I2 >= I3). Only the
/// rigid body a chain link is made of -- its <inertial> with the links fixed to it merged in --
/// is checked; inertias the chain does not use (the root link's, links off the chain) are
/// reported, never refused.
enum class InertiaPolicy {
  /// Refuse it: ParseError naming the link, its line and the rule (the default).
  strict,
  /// Make it physical by the smallest shift s >= 0 of the diagonal, I + s 1, after which the
  /// principal moments satisfy the triangle inequality (which implies positive
  /// semi-definiteness), and report the link, the rule and s. The mass and centre of mass are
  /// kept.
  repair,
  /// Keep it as written and report it (the chain is built with ModelChecks::physical_inertia
  /// off): what KDL and Pinocchio do.
  accept,
};

inline const char* policy_name(InertiaPolicy p) {
  switch (p) {
    case InertiaPolicy::strict: return "strict";
    case InertiaPolicy::repair: return "repair";
    case InertiaPolicy::accept: return "accept";
  }
  return "?";
}

/// The policy named `name` ("strict", "repair" or "accept", as policy_name gives them) into
/// `out`; false (and `out` unchanged) for any other name. For command lines and configuration.
inline bool policy_from_name(const std::string& name, InertiaPolicy& out) {
  for (const InertiaPolicy p :
       {InertiaPolicy::strict, InertiaPolicy::repair, InertiaPolicy::accept}) {
    if (name == policy_name(p)) {
      out = p;
      return true;
    }
  }
  return false;
}

/// How to load a URDF (urdf::parse, load and describe overloads taking it).
struct LoadOptions {
  /// The tip link of the chain; empty: the single leaf of the tree of moving joints.
  std::string tip;
  /// What to do with a non-physical inertia on the chain (strict: refuse).
  InertiaPolicy inertia = InertiaPolicy::strict;
};

/// One finding of the parser about a file it loaded.
struct Diagnostic {
  /// note: information (something the chain does not use); warning: something non-physical
  /// or not modelled was met, and the message says what was done with it.
  enum class Severity { note, warning };
  /// What was found (docs/urdf.md, "What is checked").
  enum class Kind {
    off_chain,          ///< a moving joint off the root-to-tip path, with its subtree: left out
    base_inertia,       ///< the root link, or a link fixed to it, has an inertia: not in the chain
    off_chain_inertia,  ///< a link off the chain has a non-physical inertia: ignored
    welded_inertia,     ///< a link fixed to a chain link is non-physical alone, the merged body is not
    inertia_repaired,   ///< a chain link's non-physical inertia was repaired (InertiaPolicy::repair)
    inertia_accepted,   ///< a chain link's non-physical inertia was kept (InertiaPolicy::accept)
    kinematics_only,    ///< no mass on the chain: loaded for kinematics (has_dynamics() false)
    mimic,              ///< a <mimic> joint on the chain: loaded as an independent joint
    massless_joint,     ///< a tree's joint that moves no mass (urdf::MasslessPolicy says what was done)
    floating_base,      ///< how urdf::load_floating made the floating base (its joint, the world link)
  };
  Severity severity = Severity::note;
  Kind kind = Kind::off_chain;
  int line = 0;         ///< the XML line of the element (1-based), 0 if none
  std::string element;  ///< e.g. "link 'base'", "joint 'object_joint'", "robot 'iiwa14'"
  std::string message;  ///< what was found and what was done, one line
};

inline const char* severity_name(Diagnostic::Severity s) {
  return s == Diagnostic::Severity::warning ? "warning" : "note";
}

/// The parser's findings on a file it loaded: everything it left out, ignored, repaired or
/// accepted, in line order. Printable (operator<<): one line per finding,
///     iiwa.urdf:36: warning: link 'base': ...
/// (`file` empty: "line 36: warning: ..."). Errors are not in it: they throw ParseError.
struct Report {
  std::string file;  ///< the path given to load(), empty for parse()
  std::vector<Diagnostic> diagnostics;

  bool empty() const noexcept { return diagnostics.empty(); }
  /// How many findings of that severity.
  std::size_t count(Diagnostic::Severity s) const noexcept {
    std::size_t n = 0;
    for (const Diagnostic& d : diagnostics) n += d.severity == s;
    return n;
  }
  /// How many findings of that kind.
  std::size_t count(Diagnostic::Kind k) const noexcept {
    std::size_t n = 0;
    for (const Diagnostic& d : diagnostics) n += d.kind == k;
    return n;
  }
  std::size_t warnings() const noexcept { return count(Diagnostic::Severity::warning); }
  std::size_t notes() const noexcept { return count(Diagnostic::Severity::note); }
};

/// One line, without a newline: "<file>:<line>: <severity>: <element>: <message>" (control
/// characters, which a link name may hold, shown as '?').
inline std::string to_string(const Diagnostic& d, const std::string& file = {}) {
  std::ostringstream os;
  if (!file.empty()) {
    os << file << ':';
    if (d.line > 0) os << d.line << ':';
    os << ' ';
  } else if (d.line > 0) {
    os << "line " << d.line << ": ";
  }
  os << severity_name(d.severity) << ": ";
  if (!d.element.empty()) os << d.element << ": ";
  os << d.message;
  std::string line = os.str();
  for (char& c : line) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return line;
}

/// Every finding, one per line (nothing for an empty report).
inline std::ostream& operator<<(std::ostream& os, const Report& r) {
  for (const Diagnostic& d : r.diagnostics) os << to_string(d, r.file) << '\n';
  return os;
}

inline std::string to_string(const Report& r) {
  std::ostringstream os;
  os << r;
  return os.str();
}

}  // namespace chaindyn::urdf
