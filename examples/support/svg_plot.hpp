/// @file
/// A small SVG line-plot writer for the examples (not part of the chaindyn library): several
/// series, axes with ticks and labels, a legend, a title, linear or logarithmic y axis; writes a
/// standalone .svg file that any browser shows. Only the C++17 standard library.
///
///     example_support::LinePlot plot("Joint angles", "t [s]", "q [rad]");
///     plot.add("q1", t, q1).add("q2", t, q2, {example_support::Dash::dashed});
///     plot.write("chaindyn_output/angles.svg");       // throws std::runtime_error on failure
///
/// Robust against what simulations produce: non-finite points (NaN, inf; on a log axis also
/// values <= 0) break a line instead of corrupting the file, a constant series gets a
/// non-degenerate range, and every label is XML-escaped. xml_well_formed() checks a written
/// file (the examples call it after each write).
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace example_support {

enum class Dash { solid, dashed, dotted, dash_dot };

/// How a series is drawn. An empty color takes the next one of the palette.
/// `{Dash::dashed}` gives a dashed line, `{Dash::solid, false, true}` markers only.
struct Style {
  Style(Dash dash_ = Dash::solid, bool line_ = true, bool markers_ = false,
        std::string color_ = std::string())
      : dash(dash_), line(line_), markers(markers_), color(std::move(color_)) {}

  Dash dash;
  bool line;           ///< connect the points
  bool markers;        ///< draw a small circle at each point
  std::string color;   ///< any SVG color ("#1f77b4", "black"); empty: the next of the palette
  double width = 1.8;  ///< line width in px
};

namespace detail {

/// Escapes the five characters XML reserves, so any label can go into text or an attribute.
inline std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

/// printf-style formatting into a std::string (the "C" locale's '.' decimal point: the
/// examples never call setlocale).
template <typename... Args>
std::string format(const char* fmt, Args... args) {
  char buffer[64];
  const int n = std::snprintf(buffer, sizeof buffer, fmt, args...);
  return n < 0 ? std::string() : std::string(buffer, std::size_t(std::min(n, 63)));
}

/// A coordinate in px with two decimals (enough for a 1/100 px resolution, keeps files small).
inline std::string px(double v) { return format("%.2f", v); }

/// The "nice" number nearest to x: 1, 2 or 5 times a power of ten. P. S. Heckbert, "Nice
/// numbers for graph labels", Graphics Gems, Academic Press 1990, pp. 61-63.
inline double nice_number(double x) {
  const double exponent = std::floor(std::log10(x));
  const double fraction = x / std::pow(10.0, exponent);
  const double nice = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10;
  return nice * std::pow(10.0, exponent);
}

/// Ticks of a linear axis over [lo, hi] (hi > lo): a nice spacing giving about `target`
/// ticks (range / (target - 1) rounded to a nice number), and the digits after the point
/// that show that spacing exactly.
struct LinearTicks {
  double step;
  int decimals;
};

inline LinearTicks linear_ticks(double lo, double hi, int target) {
  LinearTicks t;
  t.step = nice_number((hi - lo) / (target - 1));
  t.decimals = std::max(0, int(-std::floor(std::log10(t.step) + 1e-9)));
  return t;
}

/// A non-degenerate range: a constant (or empty) data range becomes one around the value.
inline std::pair<double, double> widen(double lo, double hi) {
  if (hi > lo) return {lo, hi};
  const double pad = lo == 0 ? 1.0 : 0.5 * std::abs(lo);
  return {lo - pad, hi + pad};
}

/// A tick label: fixed notation with `decimals` digits for readable magnitudes, else
/// scientific; "-0" printed as "0".
inline std::string tick_label(double v, double step, int decimals) {
  if (std::abs(v) < 1e-9 * step) v = 0;
  const double magnitude = std::max(std::abs(v), step);
  if (magnitude >= 1e5 || magnitude < 1e-3) return format("%.3g", v);
  return format("%.*f", decimals, v);
}

inline const char* dash_array(Dash d) {
  switch (d) {
    case Dash::dashed: return "7,4";
    case Dash::dotted: return "2,3";
    case Dash::dash_dot: return "8,3,2,3";
    case Dash::solid: break;
  }
  return "";
}

/// Okabe and Ito's colour-blind-safe palette (Color Universal Design, 2002), the yellow last
/// (it is faint on white).
inline const std::vector<std::string>& palette() {
  static const std::vector<std::string> colors = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                  "#E69F00", "#56B4E9", "#000000", "#F0E442"};
  return colors;
}

}  // namespace detail

/// A 2D line plot: add series, then write() or svg().
class LinePlot {
 public:
  LinePlot(std::string title, std::string x_label, std::string y_label)
      : title_(std::move(title)), x_label_(std::move(x_label)), y_label_(std::move(y_label)) {}

  /// Adds a series (x and y of equal length); an empty label keeps it out of the legend.
  /// Returns *this for chaining.
  LinePlot& add(std::string label, std::vector<double> x, std::vector<double> y,
                Style style = {}) {
    if (x.size() != y.size()) {
      throw std::invalid_argument("LinePlot::add: series '" + label + "' has " +
                                  std::to_string(x.size()) + " x values but " +
                                  std::to_string(y.size()) + " y values");
    }
    if (style.color.empty()) {  // the palette's colours in turn, over the uncoloured series
      style.color = detail::palette()[palette_next_++ % detail::palette().size()];
    }
    series_.push_back(Series{std::move(label), std::move(x), std::move(y), std::move(style)});
    return *this;
  }

  /// A logarithmic y axis (for errors and drifts); points with y <= 0 are left out.
  LinePlot& log_y(bool on = true) {
    log_y_ = on;
    return *this;
  }
  /// Fixes the x range instead of fitting it to the data.
  LinePlot& x_range(double lo, double hi) {
    x_fixed_ = {lo, hi};
    has_x_fixed_ = true;
    return *this;
  }
  /// Fixes the y range (on a log axis: the values, not their logarithms).
  LinePlot& y_range(double lo, double hi) {
    y_fixed_ = {lo, hi};
    has_y_fixed_ = true;
    return *this;
  }
  /// The same length per px on both axes (a path in a plane; linear axes only). The ranges
  /// widen to fit the plot area.
  LinePlot& equal_aspect(bool on = true) {
    equal_aspect_ = on;
    return *this;
  }
  /// Canvas size in px (default 720 x 420).
  LinePlot& size(int width, int height) {
    width_ = std::max(width, 200);
    height_ = std::max(height, 150);
    return *this;
  }

  /// The whole SVG document.
  std::string svg() const {
    using detail::px;
    using detail::xml_escape;
    // Data ranges over usable points.
    double x_lo = inf(), x_hi = -inf(), y_lo = inf(), y_hi = -inf();
    for (const Series& s : series_) {
      for (std::size_t i = 0; i < s.x.size(); ++i) {
        if (!usable(s.x[i], s.y[i])) continue;
        if (has_x_fixed_ && (s.x[i] < x_fixed_.first || s.x[i] > x_fixed_.second)) continue;
        x_lo = std::min(x_lo, s.x[i]);
        x_hi = std::max(x_hi, s.x[i]);
        const double y = transform_y(s.y[i]);
        y_lo = std::min(y_lo, y);
        y_hi = std::max(y_hi, y);
      }
    }
    if (!(x_lo <= x_hi)) x_lo = 0, x_hi = 1;  // no usable point at all
    if (!(y_lo <= y_hi)) y_lo = 0, y_hi = 1;

    // Axis ranges: x spans the data exactly (time axes start and end at the run's ends), y the
    // data with 5% margins; fixed ranges as given. Ticks at multiples of a nice spacing.
    double ax_lo, ax_hi, ay_lo, ay_hi;
    std::tie(ax_lo, ax_hi) = detail::widen(has_x_fixed_ ? x_fixed_.first : x_lo,
                                           has_x_fixed_ ? x_fixed_.second : x_hi);
    if (has_y_fixed_) {
      std::tie(ay_lo, ay_hi) =
          detail::widen(transform_y(y_fixed_.first), transform_y(y_fixed_.second));
      if (!std::isfinite(ay_lo) || !std::isfinite(ay_hi)) {
        throw std::invalid_argument(
            "LinePlot::y_range: bounds must be finite (and > 0 on a log axis)");
      }
    } else {
      std::tie(ay_lo, ay_hi) = detail::widen(y_lo, y_hi);
      if (log_y_ && ay_hi - ay_lo < 1) {  // at least one decade, so that a tick shows
        const double mid = 0.5 * (ay_lo + ay_hi);
        ay_lo = mid - 0.5, ay_hi = mid + 0.5;
      }
      const double margin = 0.05 * (ay_hi - ay_lo);
      ay_lo -= margin, ay_hi += margin;
    }
    using Ticks = std::vector<std::pair<double, std::string>>;  // (axis value, label)
    const auto linear = [](double lo, double hi, int target) {
      const detail::LinearTicks t = detail::linear_ticks(lo, hi, target);
      Ticks ticks;
      const double first = std::ceil(lo / t.step - 1e-9), last = std::floor(hi / t.step + 1e-9);
      for (double k = first; k <= last; k += 1) {
        ticks.emplace_back(k * t.step, detail::tick_label(k * t.step, t.step, t.decimals));
      }
      return ticks;
    };
    Ticks x_ticks = linear(ax_lo, ax_hi, 7);
    const auto make_y_ticks = [&] {
      if (!log_y_) return linear(ay_lo, ay_hi, 6);
      Ticks ticks;  // decades, every second (third...) one when there are many
      const double first = std::ceil(ay_lo - 1e-9), last = std::floor(ay_hi + 1e-9);
      const int every = std::max(1, int(last - first + 8) / 8);
      for (double e = first; e <= last; e += 1) {
        const long k = std::lround(e);
        if (k % every == 0) ticks.emplace_back(e, detail::format("1e%ld", k));
      }
      return ticks;
    };
    Ticks y_ticks = make_y_ticks();

    // Layout; text widths estimated at 0.6 em per character.
    const double font = 13, char_w = 0.6 * font;
    std::size_t longest_label = 0;
    for (const Series& s : series_) longest_label = std::max(longest_label, s.label.size());
    const auto left_margin = [&] {
      std::size_t longest_tick = 0;
      for (const auto& t : y_ticks) longest_tick = std::max(longest_tick, t.second.size());
      return 30 + char_w * double(longest_tick) + 12;
    };
    double left = left_margin();
    double right = 24;
    const double top = title_.empty() ? 20 : 42, bottom = 58;
    const double ph = std::max(50.0, height_ - top - bottom);
    const auto pw = [&] { return std::max(50.0, width_ - left - right); };
    const auto sx = [&](double x) { return left + (x - ax_lo) / (ax_hi - ax_lo) * pw(); };
    const auto sy = [&](double y) { return top + ph - (y - ay_lo) / (ay_hi - ay_lo) * ph; };

    // Equal aspect: the axis with fewer units per px widens about its centre (twice, as the
    // tick labels' width moves the plot area's left edge).
    for (int pass = 0; pass < 2 && equal_aspect_ && !log_y_; ++pass) {
      const double ux = (ax_hi - ax_lo) / pw(), uy = (ay_hi - ay_lo) / ph;
      if (ux > uy) {
        const double mid = 0.5 * (ay_lo + ay_hi), half = 0.5 * ux * ph;
        ay_lo = mid - half, ay_hi = mid + half;
      } else {
        const double mid = 0.5 * (ax_lo + ax_hi), half = 0.5 * uy * pw();
        ax_lo = mid - half, ax_hi = mid + half;
      }
      x_ticks = linear(ax_lo, ax_hi, 7);
      y_ticks = make_y_ticks();
      left = left_margin();
    }

    // Legend box inside the plot area, in the corner that covers the fewest data points. If
    // every corner covers some, the y range (when free) grows upwards by up to a third to make
    // room; a legend too tall for that goes right of the plot area, or below it when wide.
    const double legend_w = 34 + char_w * double(longest_label) + 12;
    std::size_t legend_entries = 0;  // series with an empty label stay out of the legend
    for (const Series& s : series_) legend_entries += !s.label.empty();
    const double legend_h = 20 * double(legend_entries) + 6;
    double legend_x = 0, legend_y = 0, canvas_h = height_;
    const auto place_legend = [&] {
      const double xs[2] = {left + pw() - legend_w - 8, left + 8};
      const double ys[2] = {top + 8, top + ph - legend_h - 8};
      std::size_t best = std::numeric_limits<std::size_t>::max();
      for (const double cy : ys) {
        for (const double cx : xs) {
          std::size_t covered = 0;
          for (const Series& s : series_) {
            for (std::size_t i = 0; i < s.x.size(); ++i) {
              if (!usable(s.x[i], s.y[i]) || s.x[i] < ax_lo || s.x[i] > ax_hi) continue;
              const double x = sx(s.x[i]), y = sy(transform_y(s.y[i]));
              covered += x >= cx - 4 && x <= cx + legend_w + 4 && y >= cy - 4 &&
                         y <= cy + legend_h + 4;
            }
          }
          if (covered < best) best = covered, legend_x = cx, legend_y = cy;
        }
      }
      return best;
    };
    if (legend_entries > 0 && place_legend() > 0) {
      const double growth = ph / (ph - legend_h - 16);
      if (!has_y_fixed_ && !equal_aspect_ && legend_h + 16 < ph && growth < 1.34) {
        ay_hi = ay_lo + (ay_hi - ay_lo) * growth;
        y_ticks = make_y_ticks();
        left = left_margin();
        place_legend();
      } else if (legend_w <= 0.3 * width_) {
        right = 24 + legend_w;
        legend_x = left + pw() + 12;
        legend_y = top;
      } else {  // a wide legend goes below the axis label; the canvas grows to hold it
        legend_x = left;
        legend_y = top + ph + bottom;
        canvas_h += legend_h + 10;
      }
    }
    const double plot_w = pw();

    std::ostringstream o;
    o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width_ << "\" height=\""
      << canvas_h << "\" viewBox=\"0 0 " << width_ << ' ' << canvas_h
      << "\" font-family=\"sans-serif\" font-size=\"" << font << "\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<defs><clipPath id=\"plot-area\"><rect x=\"" << px(left) << "\" y=\"" << px(top)
      << "\" width=\"" << px(plot_w) << "\" height=\"" << px(ph) << "\"/></clipPath></defs>\n";
    if (!title_.empty()) {
      o << "<text x=\"" << px(width_ / 2.0) << "\" y=\"26\" text-anchor=\"middle\" "
        << "font-size=\"15\" font-weight=\"bold\">" << xml_escape(title_) << "</text>\n";
    }
    // Grid, ticks and tick labels.
    o << "<g stroke=\"#e0e0e0\" stroke-width=\"1\">\n";
    for (const auto& t : x_ticks) {
      o << "<line x1=\"" << px(sx(t.first)) << "\" y1=\"" << px(top) << "\" x2=\""
        << px(sx(t.first)) << "\" y2=\"" << px(top + ph) << "\"/>\n";
    }
    for (const auto& t : y_ticks) {
      o << "<line x1=\"" << px(left) << "\" y1=\"" << px(sy(t.first)) << "\" x2=\""
        << px(left + plot_w) << "\" y2=\"" << px(sy(t.first)) << "\"/>\n";
    }
    o << "</g>\n<g fill=\"#333333\">\n";
    for (const auto& t : x_ticks) {
      o << "<text x=\"" << px(sx(t.first)) << "\" y=\"" << px(top + ph + 18)
        << "\" text-anchor=\"middle\">" << xml_escape(t.second) << "</text>\n";
    }
    for (const auto& t : y_ticks) {
      o << "<text x=\"" << px(left - 8) << "\" y=\"" << px(sy(t.first) + 4.5)
        << "\" text-anchor=\"end\">" << xml_escape(t.second) << "</text>\n";
    }
    o << "</g>\n";
    // Axis box and axis labels.
    o << "<rect x=\"" << px(left) << "\" y=\"" << px(top) << "\" width=\"" << px(plot_w)
      << "\" height=\"" << px(ph) << "\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1\"/>\n";
    o << "<text x=\"" << px(left + plot_w / 2) << "\" y=\"" << px(top + ph + bottom - 14)
      << "\" text-anchor=\"middle\">" << xml_escape(x_label_) << "</text>\n";
    const double ylx = 18, yly = top + ph / 2;
    o << "<text x=\"" << px(ylx) << "\" y=\"" << px(yly) << "\" text-anchor=\"middle\" "
      << "transform=\"rotate(-90 " << px(ylx) << ' ' << px(yly) << ")\">" << xml_escape(y_label_)
      << "</text>\n";

    // Series, clipped to the plot area.
    o << "<g clip-path=\"url(#plot-area)\" fill=\"none\" stroke-linejoin=\"round\">\n";
    for (const Series& s : series_) {
      const std::string color = xml_escape(s.style.color);
      if (s.style.line) {
        // One polyline per run of usable points.
        std::string points;
        std::size_t count = 0;
        const auto flush = [&] {
          if (count >= 2) {
            o << "<polyline stroke=\"" << color << "\" stroke-width=\"" << px(s.style.width)
              << '"';
            if (s.style.dash != Dash::solid) {
              o << " stroke-dasharray=\"" << detail::dash_array(s.style.dash) << '"';
            }
            o << " points=\"" << points << "\"/>\n";
          }
          points.clear();
          count = 0;
        };
        // Points outside the x range are left out, but for the neighbours of visible ones
        // (the clip path cuts those segments at the frame).
        const auto inside = [&](std::size_t i) { return s.x[i] >= ax_lo && s.x[i] <= ax_hi; };
        for (std::size_t i = 0; i < s.x.size(); ++i) {
          const bool near = inside(i) || (i > 0 && inside(i - 1)) ||
                            (i + 1 < s.x.size() && inside(i + 1));
          if (!usable(s.x[i], s.y[i]) || !near) {
            flush();
            continue;
          }
          if (count > 0) points += ' ';
          points += px(clamp_px(sx(s.x[i]))) + ',' + px(clamp_px(sy(transform_y(s.y[i]))));
          ++count;
        }
        flush();
      }
      if (s.style.markers) {
        o << "<g fill=\"" << color << "\" stroke=\"none\">\n";
        for (std::size_t i = 0; i < s.x.size(); ++i) {
          if (!usable(s.x[i], s.y[i]) || s.x[i] < ax_lo || s.x[i] > ax_hi) continue;
          o << "<circle cx=\"" << px(clamp_px(sx(s.x[i]))) << "\" cy=\""
            << px(clamp_px(sy(transform_y(s.y[i])))) << "\" r=\"2.6\"/>\n";
        }
        o << "</g>\n";
      }
    }
    o << "</g>\n";

    // Legend.
    if (legend_entries > 0) {
      o << "<g>\n<rect x=\"" << px(legend_x) << "\" y=\"" << px(legend_y) << "\" width=\""
        << px(legend_w) << "\" height=\"" << px(legend_h)
        << "\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#bbbbbb\"/>\n";
      const double lx = legend_x + 6;
      double ly = legend_y + 13;
      for (const Series& s : series_) {
        if (s.label.empty()) continue;
        const std::string color = xml_escape(s.style.color);
        if (s.style.line) {
          o << "<line x1=\"" << px(lx) << "\" y1=\"" << px(ly) << "\" x2=\"" << px(lx + 26)
            << "\" y2=\"" << px(ly) << "\" stroke=\"" << color << "\" stroke-width=\""
            << px(s.style.width) << '"';
          if (s.style.dash != Dash::solid) {
            o << " stroke-dasharray=\"" << detail::dash_array(s.style.dash) << '"';
          }
          o << "/>\n";
        }
        if (s.style.markers) {
          o << "<circle cx=\"" << px(lx + 13) << "\" cy=\"" << px(ly) << "\" r=\"2.6\" fill=\""
            << color << "\"/>\n";
        }
        o << "<text x=\"" << px(lx + 34) << "\" y=\"" << px(ly + 4.5) << "\">"
          << xml_escape(s.label) << "</text>\n";
        ly += 20;
      }
      o << "</g>\n";
    }
    o << "</svg>\n";
    return o.str();
  }

  /// Writes svg() to `path`; throws std::runtime_error if the file cannot be written.
  void write(const std::string& path) const {
    const std::string text = svg();
    std::ofstream file(path, std::ios::binary);
    file << text;
    file.close();
    if (!file) throw std::runtime_error("LinePlot::write: cannot write " + path);
  }

 private:
  struct Series {
    std::string label;
    std::vector<double> x, y;
    Style style;
  };

  static double inf() { return std::numeric_limits<double>::infinity(); }
  double transform_y(double y) const {
    return log_y_ ? (y > 0 ? std::log10(y) : std::numeric_limits<double>::quiet_NaN()) : y;
  }
  bool usable(double x, double y) const {
    return std::isfinite(x) && std::isfinite(y) && (!log_y_ || y > 0);
  }
  /// Points far outside a fixed range stay at a finite, printable coordinate (the clip path
  /// hides them).
  static double clamp_px(double v) { return std::max(-1e5, std::min(1e5, v)); }

  std::string title_, x_label_, y_label_;
  std::vector<Series> series_;
  bool log_y_ = false;
  bool equal_aspect_ = false;
  std::size_t palette_next_ = 0;
  bool has_x_fixed_ = false, has_y_fixed_ = false;
  std::pair<double, double> x_fixed_{0, 1}, y_fixed_{0, 1};
  int width_ = 720, height_ = 420;
};

/// A minimal well-formedness check of an XML document (the subset LinePlot writes, and a bit
/// more): one root element, every start tag closed by a matching end tag in order, attribute
/// values quoted, no unescaped '<' or '&' in text or attribute values, entities among the five
/// predefined ones or numeric. Returns an empty string when well formed, else what is wrong.
/// Not a validating parser; `xmllint --noout file.svg` is the complete check.
inline std::string xml_well_formed(const std::string& doc) {
  std::vector<std::string> open;
  bool root_seen = false;
  std::size_t i = 0;
  const auto is_name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' ||
           c == '.';
  };
  const auto check_entity = [&](std::size_t at) -> bool {  // doc[at] == '&'
    const std::size_t semi = doc.find(';', at);
    if (semi == std::string::npos || semi - at > 10) return false;
    const std::string name = doc.substr(at + 1, semi - at - 1);
    if (name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos") {
      return true;
    }
    return name.size() >= 2 && name[0] == '#';
  };
  const auto where = [&](std::size_t at) { return " at offset " + std::to_string(at); };
  while (i < doc.size()) {
    const char c = doc[i];
    if (c == '&') {
      if (!check_entity(i)) return "bad entity" + where(i);
      ++i;
      continue;
    }
    if (c != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(c))) {
        return "text outside the root element" + where(i);
      }
      ++i;
      continue;
    }
    if (doc.compare(i, 5, "<?xml") == 0) {  // declaration: only at the start
      if (i != 0) return "XML declaration not at the start" + where(i);
      const std::size_t end = doc.find("?>", i);
      if (end == std::string::npos) return "unterminated XML declaration";
      i = end + 2;
      continue;
    }
    if (doc.compare(i, 4, "<!--") == 0) {
      const std::size_t end = doc.find("-->", i);
      if (end == std::string::npos) return "unterminated comment" + where(i);
      i = end + 3;
      continue;
    }
    if (doc.compare(i, 2, "</") == 0) {
      std::size_t j = i + 2;
      while (j < doc.size() && is_name_char(doc[j])) ++j;
      const std::string name = doc.substr(i + 2, j - i - 2);
      while (j < doc.size() && std::isspace(static_cast<unsigned char>(doc[j]))) ++j;
      if (j >= doc.size() || doc[j] != '>') return "malformed end tag" + where(i);
      if (open.empty() || open.back() != name) {
        return "end tag </" + name + "> does not match" +
               (open.empty() ? std::string(" any open element") : " <" + open.back() + ">") +
               where(i);
      }
      open.pop_back();
      i = j + 1;
      continue;
    }
    // Start or empty-element tag.
    std::size_t j = i + 1;
    while (j < doc.size() && is_name_char(doc[j])) ++j;
    const std::string name = doc.substr(i + 1, j - i - 1);
    if (name.empty()) return "'<' not starting a tag" + where(i);
    if (open.empty() && root_seen) return "second root element <" + name + ">" + where(i);
    bool empty_element = false;
    for (;;) {
      while (j < doc.size() && std::isspace(static_cast<unsigned char>(doc[j]))) ++j;
      if (j >= doc.size()) return "unterminated tag <" + name + ">";
      if (doc[j] == '>') break;
      if (doc.compare(j, 2, "/>") == 0) {
        empty_element = true;
        ++j;
        break;
      }
      const std::size_t attr = j;
      while (j < doc.size() && is_name_char(doc[j])) ++j;
      if (j == attr) return "malformed attribute in <" + name + ">" + where(j);
      if (j >= doc.size() || doc[j] != '=') {
        return "attribute without '=' in <" + name + ">" + where(j);
      }
      ++j;
      if (j >= doc.size() || (doc[j] != '"' && doc[j] != '\'')) {
        return "unquoted attribute value in <" + name + ">" + where(j);
      }
      const char quote = doc[j++];
      while (j < doc.size() && doc[j] != quote) {
        if (doc[j] == '<') return "'<' in an attribute value of <" + name + ">" + where(j);
        if (doc[j] == '&' && !check_entity(j)) return "bad entity" + where(j);
        ++j;
      }
      if (j >= doc.size()) return "unterminated attribute value in <" + name + ">";
      ++j;
    }
    if (open.empty()) root_seen = true;
    if (!empty_element) open.push_back(name);
    i = j + 1;
  }
  if (!open.empty()) return "element <" + open.back() + "> not closed";
  if (!root_seen) return "no root element";
  return std::string();
}

/// Reads the file at `path` and checks it with xml_well_formed(); empty string when fine.
inline std::string xml_file_well_formed(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return "cannot read " + path;
  std::ostringstream text;
  text << file.rdbuf();
  return xml_well_formed(text.str());
}

}  // namespace example_support
