/// @file
/// The exception the URDF parser throws: chaindyn::urdf::ParseError.
#pragma once

#include "chaindyn/error.hpp"

#include <sstream>
#include <string>
#include <utility>

namespace chaindyn::urdf {

/// Thrown by chaindyn::urdf::parse / load / describe / make_links on any input they refuse:
/// malformed XML, a missing or non-numeric value, an unsupported joint type, a kinematic tree
/// that is not a chain to the tip, a chain that does not fit the requested Chain type, or
/// numbers the chain's own checks refuse.
///
/// It derives from chaindyn::ModelError (itself a std::invalid_argument): a URDF is model input,
/// and `catch (const chaindyn::ModelError&)` catches a bad URDF as it catches a bad hand-built
/// chain. what() reads
///     chaindyn::urdf: [<file>: ]line <n>: <element>: <what is wrong>
/// e.g. `chaindyn::urdf: line 120: joint 'iiwa_joint_3': ...`; line() and element() give the
/// two parts separately (line 0 and an empty element when the error has no place in the XML,
/// e.g. a file that cannot be opened).
class ParseError : public ModelError {
 public:
  ParseError(const std::string& message, int line, std::string element)
      : ModelError(message), line_(line), element_(std::move(element)) {}

  /// The line of the XML element at fault (1-based), 0 if none.
  int line() const noexcept { return line_; }
  /// The element at fault, e.g. "joint 'iiwa_joint_3'", "link 'base'", "robot 'iiwa14'".
  const std::string& element() const noexcept { return element_; }

 private:
  int line_;
  std::string element_;
};

namespace detail {

/// Where in the document an error is: the element's description and its line.
struct Place {
  std::string element;
  int line = 0;
};

/// Streams the arguments into one message and throws ParseError at `place`.
template <typename... Args>
[[noreturn]] void fail(const Place& place, const Args&... args) {
  std::ostringstream where;
  if (place.line > 0) where << "line " << place.line << ": ";
  if (!place.element.empty()) where << place.element << ": ";
  throw ParseError(chaindyn::detail::format_message("chaindyn::urdf: ", where.str(), args...),
                   place.line, place.element);
}

}  // namespace detail
}  // namespace chaindyn::urdf
