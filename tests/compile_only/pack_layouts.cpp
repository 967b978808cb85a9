// Compiled, never run: the layouts of every workspace the batch functions make, with the packs
// of an AVX-512 target (this source is compiled with -mavx512f where the compiler takes it:
// 64-byte packs, and Eigen's fixed-size storage of them 64-byte aligned). A class whose alignas
// is weaker than one of its members' alignment is ill-formed, and clang++ refuses it: each
// static_assert below instantiates the class and checks it is aligned as its packs.
#include <chaindyn/batch.hpp>
#include <chaindyn/model/floating_base.hpp>
#include <chaindyn/model/tree.hpp>
#include <chaindyn/robots/kuka_iiwa.hpp>

#include <tuple>

namespace {

using namespace chaindyn;

template <int W>
using P = batch::PackOf<W>;

/// The pack models of a double model for widths 2, 4 and 8.
template <typename Model>
using Packed = std::tuple<batch::detail::CastModel<Model, P<2>>,
                          batch::detail::CastModel<Model, P<4>>,
                          batch::detail::CastModel<Model, P<8>>>;

template <typename PackModel>
constexpr bool aligned_as_its_packs() {
  constexpr std::size_t pack = alignof(typename PackModel::Scalar);
  return alignof(Data<PackModel>) >= pack && alignof(DerivativesData<PackModel>) >= pack &&
         alignof(batch::detail::ThreadWorkspace<PackModel>) >= pack;
}

template <typename Tuple, std::size_t... I>
constexpr bool all_aligned(std::index_sequence<I...>) {
  return (aligned_as_its_packs<std::tuple_element_t<I, Tuple>>() && ...);
}

template <typename Model>
constexpr bool packs_aligned() {
  return all_aligned<Packed<Model>>(std::make_index_sequence<3>{});
}

using SmallTree = Tree<double, Parents<-1, 0, 1, 1, 3, 0, 5>, RevoluteZ, Revolute, RevoluteY,
                       Prismatic, Revolute, RevoluteX, Revolute>;

static_assert(packs_aligned<ChainX<double>>(), "ChainX's batch workspaces");
static_assert(packs_aligned<TreeX<double>>(), "TreeX's batch workspaces");
static_assert(packs_aligned<robots::KukaIiwa<double>>(), "a placed chain's batch workspaces");
static_assert(packs_aligned<ChainN<double, 7, RevoluteZ>>(), "ChainN's batch workspaces");
static_assert(packs_aligned<ChainN<double, 12, Revolute>>(), "a long ChainN's (oSF)");
static_assert(packs_aligned<SmallTree>(), "a compile-time tree's batch workspaces");
static_assert(alignof(batch::detail::ThreadWorkspace<FloatingBase<TreeX<P<8>>>>) >=
                  alignof(P<8>),
              "a moving base's batch workspace");

}  // namespace
