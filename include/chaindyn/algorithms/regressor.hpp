/// @file
/// Moved to chaindyn/identification/regressor.hpp (kept for one release).
#pragma once

#include "chaindyn/identification/regressor.hpp"
