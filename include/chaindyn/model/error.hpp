/// @file
/// The exception model construction throws on bad input.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace chaindyn {

/// Thrown by model construction (and model setters) when an input is invalid. The message
/// names the link (index and name) and the offending value.
class ModelError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

namespace detail {

/// Streams the arguments into one message and throws ModelError with it.
template <typename... Args>
[[noreturn]] void throw_model_error(const Args&... args) {
  std::ostringstream os;
  os << "chaindyn: ";
  (os << ... << args);
  throw ModelError(os.str());
}

}  // namespace detail
}  // namespace chaindyn
