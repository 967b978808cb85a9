/// @file
/// Moved to chaindyn/closed_form/euler_lagrange.hpp (kept for one release).
#pragma once

#include "chaindyn/closed_form/euler_lagrange.hpp"
