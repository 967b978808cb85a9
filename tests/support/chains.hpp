/// @file
/// The chain types the property tests run over: 1 to 12 joints, every joint type, both the
/// folded (Chain) and the looped (ChainN) forms.
#pragma once

#include <chaindyn/chaindyn.hpp>

#include <tuple>

namespace chaindyn::test {

template <typename S>
using MixedChains = std::tuple<
    Chain<S, RevoluteZ>,                                                        //
    Chain<S, PrismaticX, RevoluteY>,                                            //
    Chain<S, RevoluteZ, RevoluteY, PrismaticX>,                                 //
    Chain<S, Revolute, PrismaticY, RevoluteX, Prismatic>,                       //
    Chain<S, RevoluteZ, RevoluteY, RevoluteY, RevoluteZ, RevoluteY, RevoluteZ>,  //
    Chain<S, PrismaticZ, Revolute, RevoluteX, PrismaticY, RevoluteZ, Revolute, PrismaticX,
          RevoluteY, Prismatic>,
    Chain<S, RevoluteZ, RevoluteX, RevoluteY, Revolute, PrismaticZ, RevoluteZ, PrismaticX,
          RevoluteY, Revolute, RevoluteZ, Prismatic, RevoluteX>,
    ChainN<S, 7, Revolute>,     //
    ChainN<S, 12, RevoluteZ>,   //
    ChainN<S, 3, Prismatic>>;

}  // namespace chaindyn::test
