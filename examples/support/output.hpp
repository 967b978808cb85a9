/// @file
/// What the examples share (not part of the chaindyn library): the `--out DIR` argument, CSV
/// files, and the pass/fail bookkeeping that makes each example a test. The examples write
/// data only; scripts/plot.py draws the figures from their CSV files.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace example_support {

/// Parses `--out DIR` (default: ./chaindyn_output), creates the directory if missing and
/// returns its absolute path. With `urdf` given (an example that reads a robot file), also
/// `--urdf FILE`, stored there (left as it is, the example's default file, without the option).
/// `--help` prints the usage and exits; anything else is an error (std::invalid_argument).
inline std::filesystem::path output_directory(int argc, char** argv, const char* what,
                                              std::string* urdf = nullptr) {
  std::filesystem::path dir = "chaindyn_output";
  const char* usage = urdf ? "--out DIR] [--urdf FILE" : "--out DIR";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      dir = argv[++i];
    } else if (std::strncmp(argv[i], "--out=", 6) == 0) {
      dir = argv[i] + 6;
    } else if (urdf && std::strcmp(argv[i], "--urdf") == 0 && i + 1 < argc) {
      *urdf = argv[++i];
    } else if (urdf && std::strncmp(argv[i], "--urdf=", 7) == 0) {
      *urdf = argv[i] + 7;
    } else if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf("usage: %s [%s]\n  %s\n  Writes CSV files into DIR (default: "
                  "./chaindyn_output, created if missing); scripts/plot.py DIR draws the "
                  "plots.\n",
                  argv[0], usage, what);
      if (urdf) std::printf("  Reads the robot from FILE (default: %s).\n", urdf->c_str());
      std::exit(0);
    } else {
      throw std::invalid_argument(std::string("unknown argument '") + argv[i] + "' (usage: [" +
                                  usage + "])");
    }
  }
  std::filesystem::create_directories(dir);
  return std::filesystem::absolute(dir).lexically_normal();
}

/// A CSV file with a header row; numbers written with 12 significant digits. Column names end
/// in their unit, SI, '/' and '^' left out: t_s, q_rad, qd_rad_s, qdd_rad_s2, tau_Nm, x_m, dE_J.
class CsvWriter {
 public:
  CsvWriter(const std::filesystem::path& path, const std::vector<std::string>& columns)
      : path_(path), file_(path), columns_(columns.size()) {
    if (!file_) throw std::runtime_error("cannot write " + path.string());
    bool first = true;
    for (const std::string& c : columns) {
      file_ << (first ? "" : ",") << c;
      first = false;
    }
    file_ << '\n';
  }

  /// One row; as many values as columns.
  void row(const std::vector<double>& values) {
    if (values.size() != columns_) {
      throw std::invalid_argument("CsvWriter: " + std::to_string(values.size()) +
                                  " values for " + std::to_string(columns_) + " columns in " +
                                  path_.string());
    }
    char buffer[32];
    bool first = true;
    for (const double v : values) {
      std::snprintf(buffer, sizeof buffer, "%.12g", v);
      file_ << (first ? "" : ",") << buffer;
      first = false;
    }
    file_ << '\n';
  }

  /// Flushes and checks that everything was written (the destructor closes silently).
  void close() {
    file_.close();
    if (!file_) throw std::runtime_error("error writing " + path_.string());
  }

 private:
  std::filesystem::path path_;
  std::ofstream file_;
  std::size_t columns_;
};

/// Counts the checks of an example against its independent paths; main returns exit_code().
class Checks {
 public:
  /// Records `what`: passes when |error| <= tolerance (NaN fails). Prints one line.
  bool check(const std::string& what, double error, double tolerance) {
    const bool ok = error <= tolerance;  // false for NaN
    std::printf("  [%s] %s: %.2e (tolerance %.0e)\n", ok ? "ok" : "FAILED", what.c_str(), error,
                tolerance);
    if (!ok) ++failures_;
    return ok;
  }
  /// Records a condition that is not a number.
  bool require(const std::string& what, bool ok) {
    std::printf("  [%s] %s\n", ok ? "ok" : "FAILED", what.c_str());
    if (!ok) ++failures_;
    return ok;
  }
  int failures() const { return failures_; }
  int exit_code() const { return failures_ == 0 ? 0 : 1; }

 private:
  int failures_ = 0;
};

}  // namespace example_support
