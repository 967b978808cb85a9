/// @file
/// libFuzzer target over chaindyn's URDF parser: any byte string must either build a chain with
/// finite dynamics or throw chaindyn::urdf::ParseError (a chaindyn::ModelError), never crash,
/// hang, leak or trip a sanitizer -- under each inertia policy (strict, repair, accept), with
/// the report printed. Built two ways (tests/CMakeLists.txt):
///   - with clang's -fsanitize=fuzzer (the `fuzz` stage of scripts/test runs it for a bounded
///     time over tests/fuzz/corpus + tests/data/urdf);
///   - with any compiler and CHAINDYN_FUZZ_STANDALONE: a main() that runs every file given on
///     the command line once. ctest runs that over tests/fuzz/regressions, the inputs that once
///     broke the parser.
#include "chaindyn/algorithms/rnea.hpp"
#include "chaindyn/urdf.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// Results go here so that the dynamics are computed. (Huge but finite URDF numbers may
// overflow to inf: that is arithmetic, not a parser fault, so values are not checked.)
volatile double sink = 0.0;

template <typename Chain>
void try_parse(std::string_view xml, std::string_view tip) {
  try {
    const Chain chain = chaindyn::urdf::parse<Chain>(xml, tip);
    // A chain that parsed is valid: run its dynamics (under the sanitizers).
    const typename Chain::Vector q = Chain::Vector::Constant(0.3);
    sink = chaindyn::rnea(chain, q, q, q)[0];
  } catch (const chaindyn::urdf::ParseError&) {
  }
}

/// The same with LoadOptions and a Report: a policy that repairs or keeps a non-physical
/// inertia must still give a chain the algorithms run on; the report must print.
template <typename Chain>
void try_parse(std::string_view xml, std::string_view tip, chaindyn::urdf::InertiaPolicy policy) {
  chaindyn::urdf::LoadOptions options;
  options.tip = std::string(tip);
  options.inertia = policy;
  chaindyn::urdf::Report report;
  try {
    const Chain chain = chaindyn::urdf::parse<Chain>(xml, options, &report);
    const typename Chain::Vector q = Chain::Vector::Constant(0.3);
    sink = chaindyn::rnea(chain, q, q, q)[0] + double(chain.has_dynamics());
    sink = double(chaindyn::urdf::to_string(report).size());
  } catch (const chaindyn::urdf::ParseError&) {
  }
}

/// A chain of n revolute joints with z axes, from make_links' output.
template <int N>
void try_chain(const std::vector<chaindyn::Link<double>>& links,
               const chaindyn::ModelChecks& checks) {
  using Chain = chaindyn::ChainN<double, N, chaindyn::RevoluteZ>;
  std::array<chaindyn::Link<double>, N> a;
  for (int i = 0; i < N; ++i) a[std::size_t(i)] = links[std::size_t(i)];
  try {
    const Chain chain(a, chaindyn::default_gravity<double>(), checks);
    const typename Chain::Vector q = Chain::Vector::Constant(0.3);
    sink = chaindyn::rnea(chain, q, q, q)[0];
  } catch (const chaindyn::ModelError&) {
  }
}

template <int... N>
void try_chains(const std::vector<chaindyn::Link<double>>& links,
                const chaindyn::ModelChecks& checks, std::integer_sequence<int, N...>) {
  ((links.size() == std::size_t(N) ? try_chain<N>(links, checks) : void()), ...);
}

void parse_all(std::string_view xml) {
  using namespace chaindyn;
  // Past the joint count: describe the tree, then build the links for exactly the joints it
  // has, with axes turned onto z and with run-time axes, and a chain when they are revolute.
  for (const auto policy : {urdf::InertiaPolicy::repair, urdf::InertiaPolicy::accept}) {
    urdf::LoadOptions options;
    options.inertia = policy;
    try {
      sink = double(urdf::to_string(urdf::describe(xml, options).report).size());
    } catch (const urdf::ParseError&) {
    }
  }
  try {
    const urdf::Description d = urdf::describe(xml);
    std::vector<urdf::JointSlot> onto_z, runtime;
    bool all_revolute = true;
    for (const auto& j : d.joints) {
      onto_z.push_back(urdf::JointSlot{j.kind, 2});
      runtime.push_back(urdf::JointSlot{j.kind, -1});
      all_revolute = all_revolute && j.kind == JointKind::revolute;
    }
    const std::vector<Link<double>> links = urdf::make_links(d, onto_z);
    urdf::make_links(d, runtime);
    if (all_revolute) try_chains(links, d.checks, std::integer_sequence<int, 1, 2, 3, 6, 7>{});
  } catch (const urdf::ParseError&) {
  }
  // The typed entry points, with the default leaf and with a named tip ("link2" and "tip" are
  // names the seed corpus uses).
  try_parse<ChainN<double, 2, RevoluteZ>>(xml, {});
  try_parse<Chain<double, Prismatic, Revolute, Revolute>>(xml, {});
  try_parse<ChainN<double, 7, Revolute>>(xml, {});
  try_parse<ChainN<double, 2, RevoluteZ>>(xml, "link2");
  try_parse<Chain<double, PrismaticZ>>(xml, "tip");
  // The options: repair and accept (strict is the default above), to the default leaf and to
  // a tip.
  try_parse<ChainN<double, 2, RevoluteZ>>(xml, {}, urdf::InertiaPolicy::repair);
  try_parse<ChainN<double, 7, RevoluteZ>>(xml, {}, urdf::InertiaPolicy::accept);
  try_parse<ChainN<double, 2, Revolute>>(xml, "link2", urdf::InertiaPolicy::accept);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  parse_all(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}

#ifdef CHAINDYN_FUZZ_STANDALONE
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
  int ran = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::cerr << "fuzz_urdf: cannot read " << argv[i] << '\n';
      return 2;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    ++ran;
  }
  std::cout << "fuzz_urdf: " << ran << " inputs ran without a crash\n";
  return ran > 0 ? 0 : 2;
}
#endif
