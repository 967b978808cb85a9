/// @file
/// Renamed chaindyn/spatial/kernels.hpp (kept for one release).
#pragma once

#include "chaindyn/spatial/kernels.hpp"
