// op_count: exact operation counts of chaindyn's algorithms and of the O(n^4) Lagrange-Euler
// baseline (with the counting scalar), the textbook's closed-form counts beside them, and a
// timing sweep of O(n) against O(n^3) / O(n^4) over the chain length with the crossover.
// Prints markdown tables; writes CSV files (scripts/plot.py DIR draws their two log-log plots).
//
//     op_count [--quick] [--no-timing] [--repetitions R] [--seconds S] [--out DIR]
//
//   --quick        n <= 8 only, one short timing repetition (the ctest runs this)
//   --no-timing    counts only
//   --repetitions  timing repetitions per cell, interleaved (default 51); median and fastest
//   --seconds      target seconds per timed batch (default 0.002)
//   --out DIR      where op_counts.csv and op_count_timing.csv go (default: the current
//                  directory)
//
// Exit status 1 if a closed-form count formula does not reproduce a measured count, or the
// reference counts of the textbook table (Hollerbach 1980 at n = 6) are mistyped.
#include "op_count/op_count.hpp"

#include <chaindyn/config.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace chaindyn::op_count;

namespace {

bool g_fit_failed = false;  ///< a count series no polynomial reproduces

// --- exact rational polynomial fits of counts over n -----------------------------------------

struct Fraction {
  long long num = 0, den = 1;
  Fraction(long long n = 0, long long d = 1) : num(n), den(d) { normalize(); }
  void normalize() {
    if (den < 0) {
      num = -num;
      den = -den;
    }
    const long long g = std::gcd(num < 0 ? -num : num, den);
    if (g > 1) {
      num /= g;
      den /= g;
    }
  }
  friend Fraction operator+(Fraction a, Fraction b) {
    return Fraction(a.num * b.den + b.num * a.den, a.den * b.den);
  }
  friend Fraction operator-(Fraction a, Fraction b) {
    return Fraction(a.num * b.den - b.num * a.den, a.den * b.den);
  }
  friend Fraction operator*(Fraction a, Fraction b) { return Fraction(a.num * b.num, a.den * b.den); }
  friend Fraction operator/(Fraction a, Fraction b) { return Fraction(a.num * b.den, a.den * b.num); }
  friend bool operator==(Fraction a, Fraction b) { return a.num == b.num && a.den == b.den; }
};

/// Coefficients c_0..c_d of the polynomial through the first d+1 points (Newton's divided
/// differences, exact), if it reproduces every point.
std::optional<std::vector<Fraction>> fit_exact(const std::vector<std::pair<int, long long>>& pts,
                                               int degree) {
  if (int(pts.size()) < degree + 2) return std::nullopt;  // keep one point to check
  const int m = degree + 1;
  std::vector<Fraction> dd(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) dd[std::size_t(i)] = Fraction(pts[std::size_t(i)].second);
  for (int level = 1; level < m; ++level) {
    for (int i = m - 1; i >= level; --i) {
      dd[std::size_t(i)] = (dd[std::size_t(i)] - dd[std::size_t(i - 1)]) /
                           Fraction(pts[std::size_t(i)].first - pts[std::size_t(i - level)].first);
    }
  }
  // Newton form -> monomial coefficients.
  std::vector<Fraction> c(static_cast<std::size_t>(m));
  for (int i = m - 1; i >= 0; --i) {
    // c := c * (x - x_i) + dd_i
    std::vector<Fraction> next(static_cast<std::size_t>(m));
    for (int k = 0; k < m; ++k) {
      if (k + 1 < m) next[std::size_t(k + 1)] = next[std::size_t(k + 1)] + c[std::size_t(k)];
      next[std::size_t(k)] = next[std::size_t(k)] - c[std::size_t(k)] * Fraction(pts[std::size_t(i)].first);
    }
    next[0] = next[0] + dd[std::size_t(i)];
    c = next;
  }
  for (const auto& [n, y] : pts) {
    Fraction v, p(1);
    for (const Fraction& ck : c) {
      v = v + ck * p;
      p = p * Fraction(n);
    }
    if (!(v == Fraction(y))) return std::nullopt;
  }
  return c;
}

std::string format_fraction(Fraction f) {
  if (f.den == 1) return std::to_string(f.num);
  return std::to_string(f.num) + "/" + std::to_string(f.den);
}

std::string format_polynomial(const std::vector<Fraction>& c) {
  std::string out;
  for (int k = int(c.size()) - 1; k >= 0; --k) {
    Fraction ck = c[std::size_t(k)];
    if (ck.num == 0) continue;
    const bool negative = ck.num < 0;
    if (negative) ck.num = -ck.num;
    out += out.empty() ? (negative ? "-" : "") : (negative ? " - " : " + ");
    const bool one = ck.num == 1 && ck.den == 1;
    if (k == 0 || !one) out += format_fraction(ck);
    if (k >= 1) out += (k == 0 || !one ? " n" : "n");
    if (k >= 2) out += "^" + std::to_string(k);
  }
  return out.empty() ? "0" : out;
}

/// The lowest-degree exact fit over the points with lo <= n < hi, else over lo + 1 <= n < hi
/// (the first joint is sometimes cheaper), each checked on a point it was not fitted through;
/// empty when none up to degree 4.
std::optional<std::string> fit_range(const std::vector<std::pair<int, long long>>& all, int lo,
                                     int hi) {
  for (int n0 = lo; n0 <= lo + 1; ++n0) {
    std::vector<std::pair<int, long long>> pts;
    for (const auto& p : all) {
      if (p.first >= n0 && p.first < hi) pts.push_back(p);
    }
    for (int d = 0; d <= 4 && pts.size() >= std::size_t(d) + 2; ++d) {
      if (const auto c = fit_exact(pts, d)) {
        return format_polynomial(*c) + (n0 > lo ? " (n >= " + std::to_string(n0) + ")" : "");
      }
    }
  }
  return std::nullopt;
}

/// The chain lengths at which an algorithm's code changes at compile time, so that its counts
/// are one polynomial per range of n: crba's coordinates (CHAINDYN_CRBA_BASE_COORDINATES_FROM)
/// and forward_dynamics_crba's unrolled Cholesky (up to 16 joints, forward_dynamics_crba.hpp).
std::vector<int> switch_points(const std::string& algorithm) {
  constexpr int kCrba = CHAINDYN_CRBA_BASE_COORDINATES_FROM;
  if (algorithm == "crba") return {kCrba};
  if (algorithm == "forward_dynamics_crba") return {kCrba, 17};
  return {};
}

/// The lowest-degree exact fit over every n. For an algorithm with switch points that has
/// none, one per range between them; a range with too few measured n to check a fit (fewer
/// than 6) says so. Sets g_fit_failed when a series (or a range with enough points) has none.
std::string exact_formula(const std::vector<std::pair<int, long long>>& all,
                          const std::vector<int>& switches = {}) {
  constexpr int kAll = 1 << 30;
  if (const auto f = fit_range(all, 1, kAll)) return *f;
  if (switches.empty()) {
    g_fit_failed = true;
    return "(no polynomial of degree <= 4)";
  }
  std::vector<int> bounds = {1};
  bounds.insert(bounds.end(), switches.begin(), switches.end());
  bounds.push_back(kAll);
  std::string out;
  for (std::size_t r = 0; r + 1 < bounds.size(); ++r) {
    const int lo = bounds[r], hi = bounds[r + 1];
    const std::string range =
        hi == kAll ? "n >= " + std::to_string(lo)
                   : (lo > 1 ? std::to_string(lo) + " <= " : std::string()) + "n < " +
                         std::to_string(hi);
    std::size_t measured = 0;
    for (const auto& p : all) measured += p.first >= lo && p.first < hi ? 1 : 0;
    if (!out.empty()) out += "; ";
    if (const auto f = fit_range(all, lo, hi)) {
      out += *f + " (" + range + ")";
    } else if (measured < 6) {
      out += "(" + range + ": " + std::to_string(measured) + " measured n, too few to fit)";
    } else {
      g_fit_failed = true;
      out += "(" + range + ": no polynomial of degree <= 4)";
    }
  }
  return out;
}

// --- the textbook's closed forms ---------------------------------------------------------------

/// J. M. Hollerbach, "A recursive Lagrangian formulation of manipulator dynamics and a
/// comparative study of dynamics formulation complexity", IEEE Trans. Systems, Man, and
/// Cybernetics 10(11):730-736, 1980, Table I. Coefficients as quoted in the literature that cites
/// the table (not checked against a copy of the paper here; see docs/benchmarks.md).
struct TextbookFormula {
  const char* name;
  const char* mul_text;
  const char* add_text;
  double (*mul)(double);
  double (*add)(double);
  long long quoted_mul6, quoted_add6;  ///< the n = 6 figures the table prints (0: none quoted)
};

const TextbookFormula kTextbook[] = {
    {"Lagrange-Euler, Uicker/Kahn 4x4 (Hollerbach 1980)",
     "32 1/2 n^4 + 86 5/12 n^3 + 171 1/4 n^2 + 53 1/3 n - 128",
     "25 n^4 + 66 1/3 n^3 + 129 1/2 n^2 + 42 1/3 n - 96",
     [](double n) { return 32.5 * n * n * n * n + (86 + 5.0 / 12) * n * n * n + 171.25 * n * n + (53 + 1.0 / 3) * n - 128; },
     [](double n) { return 25 * n * n * n * n + (66 + 1.0 / 3) * n * n * n + 129.5 * n * n + (42 + 1.0 / 3) * n - 96; },
     66271, 51548},
    {"Lagrange-Euler (Fu, Gonzalez, Lee 1987, Table 3.2)",
     "128/3 n^4 + 512/3 n^3 + 739/3 n^2 + 160/3 n",
     "98/3 n^4 + 781/6 n^3 + 559/3 n^2 + 245/6 n",
     [](double n) { return (128 * n * n * n * n + 512 * n * n * n + 739 * n * n + 160 * n) / 3; },
     [](double n) { return (196 * n * n * n * n + 781 * n * n * n + 1118 * n * n + 245 * n) / 6; },
     0, 0},
    {"recursive Newton-Euler, Luh/Walker/Paul (Hollerbach 1980)", "150 n - 48", "131 n - 48",
     [](double n) { return 150 * n - 48; }, [](double n) { return 131 * n - 48; }, 852, 738},
};

// --- tables ------------------------------------------------------------------------------------

const CountRow* find(const std::vector<CountRow>& rows, const std::string& joint, int n,
                     const std::string& algorithm) {
  for (const CountRow& r : rows) {
    if (r.joint == joint && r.n == n && r.algorithm == algorithm) return &r;
  }
  return nullptr;
}

std::string thousands(double v) {
  const long long x = std::llround(v);
  std::string s = std::to_string(x < 0 ? -x : x);
  for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(std::size_t(i), ",");
  return (x < 0 ? "-" : "") + s;
}

std::string other_ops(const Counts& c) {
  std::ostringstream o;
  bool first = true;
  const auto item = [&](std::uint64_t v, const char* name) {
    if (v == 0) return;
    o << (first ? "" : ", ") << v << ' ' << name;
    first = false;
  };
  item(c.div, "div");
  item(c.sqrt, "sqrt");
  item(c.sin, "sin");
  item(c.cos, "cos");
  return first ? "-" : o.str();
}

const char* const kAlgorithms[] = {"rnea",
                                   "crba",
                                   "aba",
                                   "forward_dynamics_crba",
                                   "nonlinear_effects",
                                   "gravity_torques",
                                   "lagrange_euler",
                                   "lagrange_euler_mass_matrix"};

void print_table_n6(const std::vector<CountRow>& rows) {
  std::cout << "\n### Operations per call: n = 6 (ChainN<Counted, 6, RevoluteZ>) and the iiwa (n = 7)\n\n"
               "| algorithm | mul (n=6) | add (n=6) | other (n=6) | of mul+add trivial (n=6) | mul (iiwa) | add (iiwa) | other (iiwa) |\n"
               "|---|---:|---:|---|---:|---:|---:|---|\n";
  for (const char* a : kAlgorithms) {
    const CountRow* r6 = find(rows, "RevoluteZ", 6, a);
    const CountRow* ri = find(rows, "iiwa", 7, a);
    if (!r6 || !ri) continue;
    std::cout << "| " << a << " | " << thousands(double(r6->counts.mul)) << " | "
              << thousands(double(r6->counts.add)) << " | " << other_ops(r6->counts) << " | "
              << thousands(double(r6->counts.trivial)) << " | " << thousands(double(ri->counts.mul))
              << " | " << thousands(double(ri->counts.add)) << " | " << other_ops(ri->counts)
              << " |\n";
  }
  for (const TextbookFormula& f : kTextbook) {
    std::cout << "| " << f.name << ": formula | " << thousands(f.mul(6)) << " | "
              << thousands(f.add(6)) << " | | | " << thousands(f.mul(7)) << " | "
              << thousands(f.add(7)) << " | |\n";
    if (f.quoted_mul6 != 0) {
      std::cout << "| " << f.name << ": printed n = 6 figures | " << thousands(double(f.quoted_mul6))
                << " | " << thousands(double(f.quoted_add6)) << " | | | | | |\n";
    }
  }
  std::cout << "\n`other`: divisions, square roots, sin, cos (every sin/cos here comes in a "
               "same-argument pair, one sincos call). `trivial`: additions and multiplications "
               "with an operand exactly 0 (or a factor +-1), i.e. structural zeros.\n";
  const CountRow* le = find(rows, "RevoluteZ", 6, "lagrange_euler");
  const CountRow* rn = find(rows, "RevoluteZ", 6, "rnea");
  const CountRow* cr = find(rows, "RevoluteZ", 6, "crba");
  const CountRow* lm = find(rows, "RevoluteZ", 6, "lagrange_euler_mass_matrix");
  if (le && rn && cr && lm) {
    std::printf("\nAt n = 6: Lagrange-Euler / rnea = %.1fx multiplications, %.1fx additions; "
                "Lagrange-Euler D(q) / crba = %.1fx multiplications.\n",
                double(le->counts.mul) / double(rn->counts.mul),
                double(le->counts.add) / double(rn->counts.add),
                double(lm->counts.mul) / double(cr->counts.mul));
  }
}

std::uint64_t flops_of(const Counts& c) { return c.flops(); }

/// (n, count) of one algorithm on one joint type, by n; `field` a Counts member or flops_of.
template <typename Field>
std::vector<std::pair<int, long long>> series(const std::vector<CountRow>& rows,
                                              const std::string& joint, const std::string& alg,
                                              Field field) {
  std::vector<std::pair<int, long long>> pts;
  for (const CountRow& r : rows) {
    if (r.joint == joint && r.algorithm == alg) {
      pts.emplace_back(r.n, (long long)(std::invoke(field, r.counts)));
    }
  }
  std::sort(pts.begin(), pts.end());
  return pts;
}

/// Prints the exact formulas (sets g_fit_failed when a series has none).
void print_formulas(const std::vector<CountRow>& rows) {
  std::cout << "\n### Exact counts as functions of n (fitted exactly through the measured n, "
               "checked on every other measured n)\n\n"
               "| joint | algorithm | multiplications | additions | divisions | sqrt | sin + cos |\n"
               "|---|---|---|---|---|---|---|\n";
  for (const char* joint : {"RevoluteZ", "Revolute"}) {
    for (const char* a : kAlgorithms) {
      if (series(rows, joint, a, &Counts::mul).empty()) continue;
      const std::vector<int> at = switch_points(a);
      std::cout << "| " << joint << " | " << a << " | "
                << exact_formula(series(rows, joint, a, &Counts::mul), at) << " | "
                << exact_formula(series(rows, joint, a, &Counts::add), at) << " | "
                << exact_formula(series(rows, joint, a, &Counts::div), at) << " | "
                << exact_formula(series(rows, joint, a, &Counts::sqrt), at) << " | ";
      auto trig = series(rows, joint, a, &Counts::sin);
      const auto cosines = series(rows, joint, a, &Counts::cos);
      for (std::size_t i = 0; i < trig.size(); ++i) trig[i].second += cosines[i].second;
      std::cout << exact_formula(trig, at) << " |\n";
    }
  }
}

void print_flops_over_n(const std::vector<CountRow>& rows, const std::string& joint) {
  std::vector<int> ns;
  for (const CountRow& r : rows) {
    if (r.joint == joint && std::find(ns.begin(), ns.end(), r.n) == ns.end()) ns.push_back(r.n);
  }
  std::sort(ns.begin(), ns.end());
  std::cout << "\n### Floating-point operations (mul + add + div + sqrt) per call, ChainN<Counted, n, "
            << joint << ">\n\n| algorithm |";
  for (int n : ns) std::cout << " n=" << n << " |";
  std::cout << "\n|---|";
  for (std::size_t i = 0; i < ns.size(); ++i) std::cout << "---:|";
  std::cout << '\n';
  for (const char* a : kAlgorithms) {
    if (series(rows, joint, a, &Counts::mul).empty()) continue;
    std::cout << "| " << a << " |";
    for (int n : ns) {
      const CountRow* r = find(rows, joint, n, a);
      std::cout << ' ' << (r ? thousands(double(r->counts.flops())) : "") << " |";
    }
    std::cout << '\n';
  }
}

/// The first n of `ns` from which `fast` stays below `slow` (by flops or ns), or 0 if never.
template <typename Value>
int crossover(const std::vector<int>& ns, Value fast, Value slow) {
  int from = 0;
  for (int n : ns) {
    const double f = fast(n), s = slow(n);
    if (!(f > 0) || !(s > 0)) continue;
    if (f < s) {
      if (from == 0) from = n;
    } else {
      from = 0;
    }
  }
  return from;
}

std::string from_text(int n) {
  if (n == 0) return "at no n of the range";
  if (n == 1) return "at every n";
  return "from n = " + std::to_string(n);
}

std::optional<std::vector<Fraction>> flops_fit(const std::vector<std::pair<int, long long>>& all) {
  for (int n0 = 1; n0 <= 2; ++n0) {
    std::vector<std::pair<int, long long>> pts;
    for (const auto& p : all) {
      if (p.first >= n0) pts.push_back(p);
    }
    for (int d = 0; d <= 4; ++d) {
      if (auto c = fit_exact(pts, d)) return c;
    }
  }
  return std::nullopt;
}

double evaluate(const std::vector<Fraction>& c, int n) {
  double v = 0, p = 1;
  for (const Fraction& ck : c) {
    v += double(ck.num) / double(ck.den) * p;
    p *= n;
  }
  return v;
}

/// Log-log interpolation of where slow/fast crosses 1 between the last n with fast >= slow and
/// the next one; 0 when fast is ahead from the first n.
double crossover_interpolated(const std::vector<int>& ns, const std::map<int, double>& fast,
                              const std::map<int, double>& slow) {
  double at = 0;
  for (std::size_t i = 0; i + 1 < ns.size(); ++i) {
    const int a = ns[i], b = ns[i + 1];
    if (!fast.count(a) || !slow.count(a) || !fast.count(b) || !slow.count(b)) continue;
    const double ra = std::log(slow.at(a) / fast.at(a)), rb = std::log(slow.at(b) / fast.at(b));
    if (ra <= 0 && rb > 0) {
      const double t = -ra / (rb - ra);
      at = std::exp(std::log(double(a)) + t * (std::log(double(b)) - std::log(double(a))));
    }
  }
  return at;
}

bool check_textbook() {
  bool ok = true;
  for (const TextbookFormula& f : kTextbook) {
    if (f.quoted_add6 != 0 && std::llround(f.add(6)) != f.quoted_add6) {
      std::cout << "note: " << f.name << ": the additions formula gives " << thousands(f.add(6))
                << " at n = 6, the table prints " << thousands(double(f.quoted_add6)) << '\n';
    }
    if (f.quoted_mul6 != 0 && std::llround(f.mul(6)) != f.quoted_mul6) {
      std::cout << "note: " << f.name << ": the multiplications formula gives "
                << thousands(f.mul(6)) << " at n = 6, the table prints "
                << thousands(double(f.quoted_mul6)) << '\n';
    }
  }
  // The Newton-Euler row must reproduce its own n = 6 figures (guards against typos here).
  ok = ok && std::llround(kTextbook[2].mul(6)) == 852 && std::llround(kTextbook[2].add(6)) == 738;
  ok = ok && std::llround(kTextbook[0].add(6)) == 51548;
  return ok;
}

void write_counts_csv(const std::string& path, const std::vector<CountRow>& rows) {
  std::ofstream f(path);
  f << "joint,n,algorithm,mul,add,div,sqrt,sin,cos,sincos_pairs,neg,trivial,flops\n";
  for (const CountRow& r : rows) {
    const Counts& c = r.counts;
    f << r.joint << ',' << r.n << ',' << r.algorithm << ',' << c.mul << ',' << c.add << ','
      << c.div << ',' << c.sqrt << ',' << c.sin << ',' << c.cos << ',' << c.sincos_pairs << ','
      << c.neg << ',' << c.trivial << ',' << c.flops() << '\n';
  }
  if (!f) throw std::runtime_error("cannot write " + path);
}

struct Args {
  bool quick = false, timing = true;
  int repetitions = 51;
  double seconds = 0.002;
  std::string out = ".";
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << s << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (s == "--quick") {
      a.quick = true;
    } else if (s == "--no-timing") {
      a.timing = false;
    } else if (s == "--repetitions") {
      a.repetitions = std::max(1, std::atoi(value().c_str()));
    } else if (s == "--seconds") {
      a.seconds = std::atof(value().c_str());
    } else if (s == "--out") {
      a.out = value();
    } else {
      std::cerr << "usage: op_count [--quick] [--no-timing] [--repetitions R] [--seconds S] "
                   "[--out DIR]\n";
      std::exit(2);
    }
  }
  if (a.quick) {
    a.repetitions = 1;
    a.seconds = std::min(a.seconds, 0.001);
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  std::vector<CountRow> rows = count_chaindyn(args.quick);
  const std::vector<CountRow> le = count_lagrange_euler(args.quick);
  rows.insert(rows.end(), le.begin(), le.end());

  std::cout << "## Operation counts (exact, counting scalar)\n";
  print_table_n6(rows);
  const bool textbook_ok = check_textbook();
  print_formulas(rows);
  print_flops_over_n(rows, "RevoluteZ");

  // Count-based crossovers (exact, noise-free): the flops of each algorithm as an exact
  // polynomial in n, compared at every n = 1..128. A series that is piecewise in n (crba,
  // forward_dynamics_crba: switch_points) has no one polynomial: its measured counts are used,
  // so its comparisons are at the measured n only (crossover skips the n without a count).
  const auto flop_polynomial = [&](const char* alg) {
    const auto measured = series(rows, "RevoluteZ", alg, flops_of);
    return [poly = flops_fit(measured), measured](int n) {
      if (poly) return evaluate(*poly, n);
      for (const auto& [m, flops] : measured) {
        if (m == n) return double(flops);
      }
      return 0.0;
    };
  };
  std::vector<int> all_n(128);
  std::iota(all_n.begin(), all_n.end(), 1);
  std::cout << "\nBy flops (exact polynomials, n = 1..128; a series piecewise in n at its "
               "measured n only): aba needs fewer than "
               "forward_dynamics_crba "
            << from_text(crossover(all_n, flop_polynomial("aba"),
                                   flop_polynomial("forward_dynamics_crba")))
            << "; rnea fewer than lagrange_euler "
            << from_text(crossover(all_n, flop_polynomial("rnea"), flop_polynomial("lagrange_euler")))
            << "; crba fewer than lagrange_euler_mass_matrix "
            << from_text(crossover(all_n, flop_polynomial("crba"),
                                   flop_polynomial("lagrange_euler_mass_matrix")))
            << ".\n";

  write_counts_csv(args.out + "/op_counts.csv", rows);
  if (args.timing) {
    const std::vector<TimingRow> t = time_sweep(args.quick, args.repetitions, args.seconds);
    std::map<std::string, std::map<int, double>> ns_of, min_of;
    std::vector<int> tn;
    for (const TimingRow& r : t) {
      ns_of[r.algorithm][r.n] = r.median_ns;
      min_of[r.algorithm][r.n] = r.min_ns;
      if (std::find(tn.begin(), tn.end(), r.n) == tn.end()) tn.push_back(r.n);
    }
    std::sort(tn.begin(), tn.end());
    std::cout << "\n## Timing: median ns per call, ChainN<double, n, RevoluteZ> ("
              << args.repetitions << " interleaved repetitions of ~" << args.seconds
              << " s each per cell)\n\n| algorithm |";
    for (int n : tn) std::cout << " n=" << n << " |";
    std::cout << "\n|---|";
    for (std::size_t i = 0; i < tn.size(); ++i) std::cout << "---:|";
    std::cout << '\n';
    const auto row = [&](const std::string& name, auto value) {
      std::cout << "| " << name << " |";
      for (int n : tn) {
        const double v = value(n);
        char b[32];
        if (v > 0) {
          std::snprintf(b, sizeof b, v < 100 ? " %.1f |" : " %.0f |", v);
        } else {
          std::snprintf(b, sizeof b, " |");
        }
        std::cout << b;
      }
      std::cout << '\n';
    };
    const auto get = [&](const std::string& a) {
      return [&ns_of, a](int n) {
        const auto it = ns_of[a].find(n);
        return it == ns_of[a].end() ? 0.0 : it->second;
      };
    };
    for (const char* a : {"rnea", "crba", "aba", "forward_dynamics_crba", "lagrange_euler"}) {
      row(a, get(a));
    }
    const auto ratio = [&](const std::string& slow, const std::string& fast) {
      return [get, slow, fast](int n) {
        const double s = get(slow)(n), f = get(fast)(n);
        return s > 0 && f > 0 ? s / f : 0.0;
      };
    };
    row("forward_dynamics_crba / aba", ratio("forward_dynamics_crba", "aba"));
    row("lagrange_euler / rnea", ratio("lagrange_euler", "rnea"));
    const auto fastest = [&](const std::string& a) {
      return [&min_of, a](int n) {
        const auto it = min_of[a].find(n);
        return it == min_of[a].end() ? 0.0 : it->second;
      };
    };
    std::cout << "\nFastest repetition, ns per call (interference only adds time):\n\n| algorithm |";
    for (int n : tn) std::cout << " n=" << n << " |";
    std::cout << "\n|---|";
    for (std::size_t i = 0; i < tn.size(); ++i) std::cout << "---:|";
    std::cout << '\n';
    for (const char* a : {"rnea", "crba", "aba", "forward_dynamics_crba", "lagrange_euler"}) {
      row(a, fastest(a));
    }
    const auto fastest_ratio = [&](const std::string& slow, const std::string& fast) {
      return [fastest, slow, fast](int n) {
        const double s = fastest(slow)(n), f = fastest(fast)(n);
        return s > 0 && f > 0 ? s / f : 0.0;
      };
    };
    row("forward_dynamics_crba / aba", fastest_ratio("forward_dynamics_crba", "aba"));
    row("lagrange_euler / rnea", fastest_ratio("lagrange_euler", "rnea"));
    std::cout << "\nMeasured medians (n = " << tn.front() << ".." << tn.back()
              << "): aba is faster than forward_dynamics_crba "
              << from_text(crossover(tn, get("aba"), get("forward_dynamics_crba")));
    const double at = crossover_interpolated(tn, ns_of["aba"], ns_of["forward_dynamics_crba"]);
    if (at > 0) std::printf(" (the log-log interpolated crossing is at n = %.1f)", at);
    std::cout << "; rnea is faster than lagrange_euler "
              << from_text(crossover(tn, get("rnea"), get("lagrange_euler")))
              << ". Fastest repetitions: aba is faster than forward_dynamics_crba "
              << from_text(crossover(tn, fastest("aba"), fastest("forward_dynamics_crba")));
    const double at_min = crossover_interpolated(tn, min_of["aba"], min_of["forward_dynamics_crba"]);
    if (at_min > 0) std::printf(" (interpolated crossing at n = %.1f)", at_min);
    std::cout << "; rnea is faster than lagrange_euler "
              << from_text(crossover(tn, fastest("rnea"), fastest("lagrange_euler"))) << ".\n";

    std::ofstream f(args.out + "/op_count_timing.csv");
    f << "algorithm,n,median_ns,min_ns,repetitions,calls_per_repetition\n";
    for (const TimingRow& r : t) {
      f << r.algorithm << ',' << r.n << ',' << r.median_ns << ',' << r.min_ns << ',' << r.repetitions << ','
        << r.calls_per_repetition << '\n';
    }
  }
  if (g_fit_failed) {
    std::cerr << "op_count: a count series is not reproduced by a polynomial in n\n";
    return 1;
  }
  if (!textbook_ok) {
    std::cerr << "op_count: textbook reference figures inconsistent\n";
    return 1;
  }
  return 0;
}
