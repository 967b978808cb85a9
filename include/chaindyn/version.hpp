/// @file
/// The library version.
#pragma once

#define CHAINDYN_VERSION_MAJOR 0
#define CHAINDYN_VERSION_MINOR 1
#define CHAINDYN_VERSION_PATCH 0

namespace chaindyn {
inline constexpr const char* version = "0.1.0";
}  // namespace chaindyn
