/// @file
/// libFuzzer target over chaindyn's URDF parser: any byte string must either build a chain or
/// throw chaindyn::urdf::ParseError / chaindyn::ModelError, never crash, hang, leak or trip a
/// sanitizer. Built two ways (tests/CMakeLists.txt):
///   - with clang's -fsanitize=fuzzer (the `fuzz` stage of scripts/test runs it for a bounded
///     time over tests/fuzz/corpus + tests/data/urdf);
///   - with any compiler and CHAINDYN_FUZZ_STANDALONE: a main() that runs every file given on
///     the command line once. ctest runs that over tests/fuzz/regressions, the inputs that once
///     broke the parser.
#include "chaindyn/urdf.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

namespace {

template <typename Chain>
void try_parse(std::string_view xml, std::string_view tip) {
  try {
    const Chain chain = chaindyn::urdf::parse<Chain>(xml, tip);
    // A chain that parsed is valid: its first link must be usable.
    if (!(chain.link(0).mass >= 0.0)) std::terminate();
  } catch (const chaindyn::urdf::ParseError&) {
  } catch (const chaindyn::ModelError&) {
  }
}

void parse_all(std::string_view xml) {
  using namespace chaindyn;
  // The joint count and kinds decide how far a parse gets; try the common shapes, with the
  // fixed-axis joint (frames rotated onto z) and the run-time axis joint.
  try_parse<ChainN<double, 1, RevoluteZ>>(xml, {});
  try_parse<ChainN<double, 2, RevoluteZ>>(xml, {});
  try_parse<ChainN<double, 2, Revolute>>(xml, {});
  try_parse<ChainN<double, 3, RevoluteZ>>(xml, {});
  try_parse<Chain<double, RevoluteZ, PrismaticZ>>(xml, {});
  try_parse<Chain<double, Prismatic, Revolute, Revolute>>(xml, {});
  try_parse<ChainN<double, 6, RevoluteZ>>(xml, {});
  try_parse<ChainN<double, 7, RevoluteZ>>(xml, {});
  try_parse<ChainN<double, 7, Revolute>>(xml, {});
  // A named tip selects a path in a tree; "link2" and "tip" are names the corpus uses.
  try_parse<ChainN<double, 2, RevoluteZ>>(xml, "link2");
  try_parse<ChainN<double, 1, RevoluteZ>>(xml, "tip");
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
