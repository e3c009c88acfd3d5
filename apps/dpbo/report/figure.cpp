#include "report/figure.hpp"

#include <cmath>

namespace dpbo::cli::report {

namespace {

bool drawable(double value, bool log_scale) { return std::isfinite(value) && (!log_scale || value > 0.0); }

bool any_positive(const Figure& figure, bool x_axis) {
    for (const Series& s : figure.series)
        for (double v : x_axis ? s.x : s.y)
            if (std::isfinite(v) && v > 0.0) return true;
    return false;
}

}  // namespace

bool has_drawable_point(const Figure& figure) {
    for (const Series& s : figure.series)
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
            if (drawable(s.x[i], figure.log_x) && drawable(s.y[i], figure.log_y)) return true;
    return false;
}

void settle_log_scales(Figure& figure) {
    if (figure.log_x && !any_positive(figure, true)) figure.log_x = false;
    if (figure.log_y && !any_positive(figure, false)) figure.log_y = false;
}

}  // namespace dpbo::cli::report
