/// @file
/// The exceptions chaindyn throws, and the one helper that formats and throws them. Floor 0:
/// includes nothing of chaindyn, so every room may include it.
///
/// The policy (docs/conventions.md, "Errors"):
///   ModelError        a model that cannot be right: construction, setters, builders, payloads
///                     (and urdf::ParseError, a ModelError, for a file the parser refuses);
///   IndexError        a link or joint index out of range, wherever it enters;
///   ArgumentError     a run-time argument of a call that is invalid: a non-finite number, a
///                     size that does not match, an option out of its range;
///   IntegrationError  an integration that fails while it runs (step-size underflow, too many
///                     steps).
/// The first three are std::invalid_argument / std::out_of_range, the last a std::runtime_error,
/// so code that catches the standard types keeps working. Every message starts with
/// "chaindyn: " (urdf::ParseError with "chaindyn::urdf: ") and names the offending value.
/// The in-place algorithms of a compile-time chain are noexcept: they check nothing and throw
/// nothing. A ChainX's check the sizes of their arguments against the model (ArgumentError).
#pragma once

#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <string>

namespace chaindyn {

/// A model (link, joint, payload, DH row, gravity) that cannot be right.
class ModelError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A link (or joint) index out of range.
class IndexError : public std::out_of_range {
 public:
  using std::out_of_range::out_of_range;
};

/// An invalid run-time argument of a call (not of a model).
class ArgumentError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A numerical integration that failed while running.
class IntegrationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {

/// The arguments streamed into one string, after `prefix`.
template <typename... Args>
std::string format_message(const char* prefix, const Args&... args) {
  std::ostringstream os;
  os << prefix;
  (os << ... << args);
  return os.str();
}

#if defined(__GNUC__) || defined(__clang__)
#define CHAINDYN_DETAIL_COLD __attribute__((noinline, cold))
#else
#define CHAINDYN_DETAIL_COLD
#endif

/// Throws E("chaindyn: " + the arguments streamed). Out of line and cold: the algorithms that
/// check their arguments keep the message formatting out of their code (and a flattened
/// algorithm, config.hpp's CHAINDYN_GNU_FLATTEN, does not inline it).
template <typename E, typename... Args>
[[noreturn]] CHAINDYN_DETAIL_COLD void throw_error(const Args&... args) {
  throw E(format_message("chaindyn: ", args...));
}

template <typename... Args>
[[noreturn]] void throw_model_error(const Args&... args) {
  throw_error<ModelError>(args...);
}

/// Throws IndexError unless i < n: "<what> index i is out of range for a chain of n links".
inline void check_index(std::size_t i, std::size_t n, const char* what = "link") {
  if (i >= n) {
    throw_error<IndexError>(what, " index ", i, " is out of range for a chain of ", n, " links");
  }
}

}  // namespace detail
}  // namespace chaindyn
