// A minimal log-log line plot written as a standalone SVG file (standard library only), for the
// op_count program. (examples/support/svg_plot.hpp has a logarithmic y axis only; this needs
// both axes logarithmic.) Decade grid lines labelled 10^k on both axes, one polyline with
// markers per series, a legend.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace chaindyn::op_count {

struct LogLogSeries {
  std::string label;
  std::vector<double> x, y;  ///< points with x <= 0 or y <= 0 are left out
  std::string color;
  bool dashed = false;
};

inline std::string svg_escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

/// Writes the plot to `path`; throws std::runtime_error if the file cannot be written.
inline void write_loglog_svg(const std::string& path, const std::string& title,
                             const std::string& x_label, const std::string& y_label,
                             const std::vector<LogLogSeries>& series) {
  const double width = 820, height = 500, left = 80, right = 250, top = 40, bottom = 60;
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const LogLogSeries& s : series) {
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (s.x[i] > 0 && s.y[i] > 0) {
        x0 = std::min(x0, std::log10(s.x[i]));
        x1 = std::max(x1, std::log10(s.x[i]));
        y0 = std::min(y0, std::log10(s.y[i]));
        y1 = std::max(y1, std::log10(s.y[i]));
      }
    }
  }
  if (!(x1 >= x0) || !(y1 >= y0)) throw std::runtime_error("write_loglog_svg: no positive data");
  // x: the data range (powers of two read better than padded decades); y: whole decades.
  y0 = std::floor(y0);
  y1 = std::max(std::ceil(y1), y0 + 1);
  if (x1 == x0) x1 = x0 + 1;
  const double pw = width - left - right, ph = height - top - bottom;
  const auto px = [&](double lx) { return left + (lx - x0) / (x1 - x0) * pw; };
  const auto py = [&](double ly) { return top + (y1 - ly) / (y1 - y0) * ph; };
  const auto num = [](double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", v);
    return std::string(b);
  };

  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" viewBox=\"0 0 " << width << ' ' << height
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << num(left + pw / 2) << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">"
    << svg_escape(title) << "</text>\n";
  // y decades (and 2x, 5x minor lines)
  for (int e = int(y0); e <= int(y1); ++e) {
    o << "<line x1=\"" << num(left) << "\" x2=\"" << num(left + pw) << "\" y1=\"" << num(py(e))
      << "\" y2=\"" << num(py(e)) << "\" stroke=\"#bbb\"/>\n"
      << "<text x=\"" << num(left - 6) << "\" y=\"" << num(py(e) + 4)
      << "\" text-anchor=\"end\">1e" << e << "</text>\n";
    for (const double m : {2.0, 5.0}) {
      const double ly = e + std::log10(m);
      if (e < int(y1)) {
        o << "<line x1=\"" << num(left) << "\" x2=\"" << num(left + pw) << "\" y1=\""
          << num(py(ly)) << "\" y2=\"" << num(py(ly)) << "\" stroke=\"#eee\"/>\n";
      }
    }
  }
  // x ticks at powers of two inside the range
  for (int k = int(std::ceil(x0 / std::log10(2.0) - 1e-9)); k * std::log10(2.0) <= x1 + 1e-9; ++k) {
    const double lx = k * std::log10(2.0);
    o << "<line x1=\"" << num(px(lx)) << "\" x2=\"" << num(px(lx)) << "\" y1=\"" << num(top)
      << "\" y2=\"" << num(top + ph) << "\" stroke=\"#ddd\"/>\n"
      << "<text x=\"" << num(px(lx)) << "\" y=\"" << num(top + ph + 18)
      << "\" text-anchor=\"middle\">" << (1L << k) << "</text>\n";
  }
  o << "<rect x=\"" << num(left) << "\" y=\"" << num(top) << "\" width=\"" << num(pw)
    << "\" height=\"" << num(ph) << "\" fill=\"none\" stroke=\"black\"/>\n"
    << "<text x=\"" << num(left + pw / 2) << "\" y=\"" << num(height - 15)
    << "\" text-anchor=\"middle\">" << svg_escape(x_label) << "</text>\n"
    << "<text transform=\"translate(18," << num(top + ph / 2)
    << ") rotate(-90)\" text-anchor=\"middle\">" << svg_escape(y_label) << "</text>\n";
  // series and legend
  for (std::size_t s = 0; s < series.size(); ++s) {
    const LogLogSeries& se = series[s];
    const std::string dash = se.dashed ? " stroke-dasharray=\"7,4\"" : "";
    o << "<polyline fill=\"none\" stroke=\"" << se.color << "\" stroke-width=\"2\"" << dash
      << " points=\"";
    for (std::size_t i = 0; i < se.x.size(); ++i) {
      if (se.x[i] > 0 && se.y[i] > 0) {
        o << num(px(std::log10(se.x[i]))) << ',' << num(py(std::log10(se.y[i]))) << ' ';
      }
    }
    o << "\"/>\n";
    for (std::size_t i = 0; i < se.x.size(); ++i) {
      if (se.x[i] > 0 && se.y[i] > 0) {
        o << "<circle cx=\"" << num(px(std::log10(se.x[i]))) << "\" cy=\""
          << num(py(std::log10(se.y[i]))) << "\" r=\"3\" fill=\"" << se.color << "\"/>\n";
      }
    }
    const double ly = top + 12 + 20 * double(s);
    o << "<line x1=\"" << num(left + pw + 12) << "\" x2=\"" << num(left + pw + 40) << "\" y1=\""
      << num(ly) << "\" y2=\"" << num(ly) << "\" stroke=\"" << se.color
      << "\" stroke-width=\"2\"" << dash << "/>\n"
      << "<text x=\"" << num(left + pw + 46) << "\" y=\"" << num(ly + 4) << "\">"
      << svg_escape(se.label) << "</text>\n";
  }
  o << "</svg>\n";
  std::ofstream f(path);
  f << o.str();
  if (!f) throw std::runtime_error("write_loglog_svg: cannot write " + path);
}

}  // namespace chaindyn::op_count
