/// @file
/// The chain types the property tests run over: every joint type (RevoluteX/Y/Z,
/// PrismaticX/Y/Z, and the run-time-axis Revolute and Prismatic), Placed joints of every
/// rotation pattern (signed axes, about one axis, any) on fixed and run-time axes, and every
/// walk (Chain's fold, ChainN's fold up to ChainN::unroll_limit joints, ChainN's loop beyond
/// it, ChainX's run-time joints), with a one-joint chain for the edge case. Five types, not
/// more: each one multiplies the compile time of every property (docs/architecture.md,
/// "Tests"). random_model makes a random model of any of them.
#pragma once

#include "support/test_support.hpp"

#include <chaindyn/chaindyn.hpp>

#include <cstddef>
#include <iterator>
#include <random>
#include <tuple>
#include <vector>

namespace chaindyn::test {

template <typename S>
using MixedChains = std::tuple<
    Chain<S, PrismaticY>,  //
    Chain<S, PrismaticZ, Placed<Revolute, SignedAxes<-2, 1, 3>, Offset<false, true, false>>,
          RevoluteX, Placed<PrismaticY, SignedAxes<1, -3, 2>, NoOffset>,
          Placed<RevoluteZ, AboutAxis<0>, Offset<true, false, true>>, PrismaticX,
          Placed<Prismatic, AnyRotation, Offset<false, false, true>>, RevoluteY>,
    ChainN<S, 6, RevoluteY>,  // folded: 6 <= unroll_limit (8 for an axis in the type)
    ChainN<S, 7, Revolute>,   // looped: a run-time axis unrolls up to 4 joints only
    ChainX<S>>;               // run-time joints: kMixedChainXKinds

static_assert(ChainN<double, 6, RevoluteY>::unroll_limit >= 6 &&
                  ChainN<double, 7, Revolute>::unroll_limit < 7,
              "MixedChains must cover both ChainN walks");

/// The joints of MixedChains' ChainX: both kinds, each about z (ChainX runs RevoluteZ's and
/// PrismaticZ's code for it) and about a random axis (Revolute's and Prismatic's).
inline constexpr JointKind kMixedChainXKinds[] = {
    JointKind::revolute,  JointKind::prismatic, JointKind::revolute,
    JointKind::revolute,  JointKind::prismatic, JointKind::revolute,
    JointKind::prismatic, JointKind::revolute,  JointKind::revolute};
inline constexpr bool kMixedChainXAboutZ[] = {true,  false, false, false, true,
                                              false, false, true,  false};

/// The joint count of a MixedChains type (its ChainX: 9).
template <typename Model>
inline constexpr int joints_of =
    Model::nq == Eigen::Dynamic ? int(std::size(kMixedChainXKinds)) : Model::nq;

/// A random ChainX<Scalar> of the first `count` joints of kMixedChainXKinds (at most all 9).
template <typename Scalar = double>
ChainX<Scalar> random_mixed_chain_x(std::mt19937& gen, bool joint_dynamics,
                                    std::size_t count = std::size(kMixedChainXKinds)) {
  std::vector<Link<double>> links;
  std::vector<JointKind> kinds;
  for (std::size_t i = 0; i < count; ++i) {
    links.push_back(random_link(gen, joint_dynamics));
    if (kMixedChainXAboutZ[i]) links.back().axis = Eigen::Vector3d::UnitZ();
    kinds.push_back(kMixedChainXKinds[i]);
  }
  return ChainX<Scalar>(cast_links<Scalar>(links), kinds);
}

/// A random model of a MixedChains type (random_links; the ChainX with kMixedChainXKinds).
template <typename Model>
Model random_model(std::mt19937& gen, bool joint_dynamics = false) {
  if constexpr (Model::nq == Eigen::Dynamic) {
    return random_mixed_chain_x<typename Model::Scalar>(gen, joint_dynamics);
  } else {
    return Model(cast_links<typename Model::Scalar>(random_links<Model>(gen, joint_dynamics)));
  }
}

}  // namespace chaindyn::test
