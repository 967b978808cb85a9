// The one translation unit that holds Catch2's main(): compiled once as an OBJECT library and
// linked into every test executable (it takes ~20 s to compile, so never more than once).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
