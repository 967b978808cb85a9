/// @file
/// Moved to chaindyn/error.hpp (kept for one release).
#pragma once

#include "chaindyn/error.hpp"
