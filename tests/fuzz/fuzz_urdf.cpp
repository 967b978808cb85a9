/// @file
/// libFuzzer target over chaindyn's URDF parser: any byte string must either build a chain with
/// finite dynamics or throw chaindyn::urdf::ParseError (a chaindyn::ModelError), never crash,
/// hang, leak or trip a sanitizer -- under each inertia policy (strict, repair, accept), with
/// the report printed; through the compile-time entry points (parse<Chain>) and the run-time
/// ones (urdf::parse_any, urdf::load_any), whose ChainX then runs rnea, aba (when it has
/// dynamics), the Jacobian and every named frame's pose: each result is finite unless the
/// file's numbers are extreme, or the call throws a chaindyn error; and the whole-tree entry
/// points (urdf::parse_tree under each MasslessPolicy, describe_tree, make_tree_links,
/// parse_floating). Built two ways (tests/fuzz/fuzz.cmake):
///   - with clang's -fsanitize=fuzzer (the `fuzz` stage of scripts/test runs it for a bounded
///     time over tests/fuzz/corpus + tests/data/urdf);
///   - with any compiler and CHAINDYN_FUZZ_STANDALONE: a main() that runs every file given on
///     the command line once. ctest runs that over tests/fuzz/regressions, the inputs that once
///     broke the parser.
#include "chaindyn/algorithms/aba.hpp"
#include "chaindyn/algorithms/frames.hpp"
#include "chaindyn/algorithms/jacobian.hpp"
#include "chaindyn/algorithms/rnea.hpp"
#include "chaindyn/urdf.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
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

/// True when a number of the model is beyond what double arithmetic carries through a few
/// products (|x| > 1e100 or 0 < |x| < 1e-100): its dynamics may overflow to inf or divide by
/// a pivot that underflowed, which is arithmetic, not a fault of the library.
bool extreme(const chaindyn::ChainX<double>& chain) {
  const auto out = [](double x) {
    const double a = std::abs(x);
    return a > 1e100 || (a != 0 && a < 1e-100);
  };
  const auto any_out = [&](const auto& m) {
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      for (Eigen::Index c = 0; c < m.cols(); ++c) {
        if (out(m(r, c))) return true;
      }
    }
    return false;
  };
  for (const auto& l : chain.links()) {
    if (out(l.mass) || any_out(l.com) || any_out(l.inertia) ||
        any_out(l.placement.translation) || out(l.dynamics.damping) ||
        out(l.dynamics.friction) || out(l.dynamics.armature)) {
      return true;
    }
  }
  return false;
}

/// A finite result, unless the model is extreme; else the fuzzer stops on this input.
template <typename M>
void expect_finite(const M& m, bool may_overflow, const char* what) {
  if (!m.allFinite() && !may_overflow) {
    std::fprintf(stderr, "fuzz_urdf: %s of a parsed ChainX is not finite\n", what);
    std::abort();
  }
  sink = m.size() > 0 ? double(m(0, 0)) : 0.0;
}

/// What a program does with urdf::parse_any / load_any's chain: the dynamics when it has them,
/// the Jacobian of its last link and the pose of each named frame, at one fixed state. A
/// chaindyn error (ArgumentError, IndexError, ModelError) is an answer; anything else escapes
/// to libFuzzer as a crash.
void run_chain(const chaindyn::ChainX<double>& chain) {
  using namespace chaindyn;
  const Eigen::Index n = Eigen::Index(chain.links().size());
  if (n == 0) return;
  const bool may_overflow = extreme(chain);
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(n, -0.7, 0.9);
  const Eigen::VectorXd qd = Eigen::VectorXd::Constant(n, 0.3);
  try {
    if (chain.has_dynamics()) {
      const Eigen::VectorXd tau = rnea(chain, q, qd, qd);
      expect_finite(tau, may_overflow, "rnea");
      expect_finite(aba(chain, q, qd, tau), may_overflow, "aba");
    }
    expect_finite(jacobian(chain, q, std::size_t(n - 1)), may_overflow, "jacobian");
    for (const auto& f : chain.frames()) {
      expect_finite(frame_pose(chain, q, f.frame).translation, may_overflow, "frame_pose");
    }
  } catch (const ArgumentError&) {
  } catch (const IndexError&) {
  } catch (const ModelError&) {
  }
}

/// urdf::parse_any under each policy (with the report printed), and load_any of the same bytes
/// written to a file (`path`; empty: not written).
void try_any(std::string_view xml, const std::string& path) {
  using namespace chaindyn;
  try {
    run_chain(urdf::parse_any(xml));
  } catch (const urdf::ParseError&) {
  }
  for (const auto policy : {urdf::InertiaPolicy::repair, urdf::InertiaPolicy::accept}) {
    urdf::LoadOptions options;
    options.inertia = policy;
    urdf::Report report;
    try {
      run_chain(urdf::parse_any(xml, options, &report));
      sink = double(urdf::to_string(report).size());
    } catch (const urdf::ParseError&) {
    }
  }
  try {
    run_chain(urdf::parse_any(xml, "link2"));
  } catch (const urdf::ParseError&) {
  }
  if (path.empty()) return;
  try {
    urdf::LoadOptions options;
    options.inertia = urdf::InertiaPolicy::accept;
    urdf::Report report;
    run_chain(urdf::load_any(path, options, &report));
    sink = double(report.file.size());
  } catch (const urdf::ParseError&) {
  }
}

/// A file of this process's own for load_any (libFuzzer may run several jobs side by side).
const std::string& scratch_path() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/chaindyn_fuzz_urdf_" +
           std::to_string(reinterpret_cast<std::uintptr_t>(&sink) ^ std::uintptr_t(std::rand())) +
           ".urdf";
  }();
  return path;
}

/// urdf::parse_tree (the whole tree) under each massless policy and two inertia policies, with
/// the report printed, and the tree's link data made with run-time axes: a TreeX or a
/// ParseError, never a crash.
void try_tree(std::string_view xml) {
  using namespace chaindyn;
  for (const auto massless : {urdf::MasslessPolicy::kinematics, urdf::MasslessPolicy::armature,
                              urdf::MasslessPolicy::refuse}) {
    for (const auto inertia : {urdf::InertiaPolicy::strict, urdf::InertiaPolicy::accept}) {
      urdf::TreeLoadOptions options;
      options.massless = massless;
      options.inertia = inertia;
      urdf::Report report;
      try {
        const TreeX<double> tree = urdf::parse_tree(xml, options, &report);
        sink = double(tree.joint_count() + tree.frames().size()) +
               double(urdf::to_string(report).size());
      } catch (const urdf::ParseError&) {
      }
    }
  }
  try {
    const urdf::TreeDescription d = urdf::describe_tree(xml);
    std::vector<urdf::JointSlot> runtime;
    for (const auto& j : d.joints) runtime.push_back(urdf::JointSlot{j.kind, -1});
    std::vector<Eigen::Matrix3d> turns;
    sink = double(urdf::make_tree_links(d, runtime, turns).size()) +
           double(urdf::tree_type_name(d).size());
  } catch (const urdf::ParseError&) {
  }
  // the same file on a free-flying base
  for (const auto inertia : {urdf::InertiaPolicy::strict, urdf::InertiaPolicy::repair}) {
    urdf::TreeLoadOptions options;
    options.inertia = inertia;
    options.massless = urdf::MasslessPolicy::armature;
    urdf::Report report;
    try {
      const FloatingBase<TreeX<double>> robot = urdf::parse_floating(xml, options, &report);
      sink = double(robot.joint_count()) + robot.base_inertia().mass +
             double(urdf::to_string(report).size());
    } catch (const urdf::ParseError&) {
    }
  }
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
  // The run-time entry points, and load_any through a file.
  std::string path = scratch_path();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(xml.data(), std::streamsize(xml.size()));
    if (!out) path.clear();
  }
  try_any(xml, path);
  if (!path.empty()) std::remove(path.c_str());
  try_tree(xml);
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
