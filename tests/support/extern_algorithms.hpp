/// @file
/// The chain types most test sources run the algorithms on (test::MixedChains<double>, its
/// ChainX among them, and the built-in iiwa), declared as compiled elsewhere
/// (chaindyn/instantiate.hpp): chaindyn_tests precompiles this header into every source, and
/// tests/instantiations/*.cpp compile the algorithms of these types once, instead of once per
/// unity group. A type used in one source only is not worth it.
#pragma once

#include "support/chains.hpp"

#include <chaindyn/instantiate.hpp>
#include <chaindyn/robots/kuka_iiwa.hpp>

// test::MixedChains<double> (support/chains.hpp) and the built-in iiwa
CHAINDYN_EXTERN_ALGORITHMS(std::tuple_element_t<0, chaindyn::test::MixedChains<double>>);
CHAINDYN_EXTERN_ALGORITHMS(std::tuple_element_t<1, chaindyn::test::MixedChains<double>>);
CHAINDYN_EXTERN_ALGORITHMS(std::tuple_element_t<2, chaindyn::test::MixedChains<double>>);
CHAINDYN_EXTERN_ALGORITHMS(std::tuple_element_t<3, chaindyn::test::MixedChains<double>>);
CHAINDYN_EXTERN_ALGORITHMS(std::tuple_element_t<4, chaindyn::test::MixedChains<double>>);
CHAINDYN_EXTERN_ALGORITHMS(chaindyn::robots::KukaIiwa<double>);
CHAINDYN_EXTERN_MODEL_CONSTRUCTION(double);
CHAINDYN_EXTERN_KUKA_IIWA();
