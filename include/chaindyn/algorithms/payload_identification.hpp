/// @file
/// Moved to chaindyn/identification/payload_identification.hpp (kept for one release).
#pragma once

#include "chaindyn/identification/payload_identification.hpp"
