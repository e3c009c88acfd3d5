#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>

#include <fmt/format.h>

#include "dpbo/privacy_ledger.hpp"
#include "dpbo/result.hpp"

namespace dpbo::cli {

std::optional<double> released_best_so_far(const Trace& trace) {
    if (trace.rows().empty()) return std::nullopt;
    for (const char* name : {"best_value", "best_true_value_so_far"}) {
        const auto& columns = trace.columns();
        const auto column =
            std::find_if(columns.begin(), columns.end(), [&](const TraceColumn& c) { return c.name == name; });
        if (column == columns.end() || column->evaluation_only) continue;
        return trace.rows().back()[static_cast<std::size_t>(column - columns.begin())];
    }
    return std::nullopt;
}

ProgressBar::ProgressBar(std::string label) : enabled_(isatty(STDERR_FILENO) == 1), label_(std::move(label)) {}

void ProgressBar::on_start(std::size_t planned_iterations) { planned_ = planned_iterations; }

std::string ProgressBar::spent_text() {
    if (ledger_ == nullptr) return {};
    const std::size_t charges = ledger_->charges();
    if (spent_charges_ == charges) return spent_;
    spent_charges_ = charges;
    if (charges == 0) {
        spent_ = "spent nothing yet";
    } else {
        try {
            spent_ = fmt::format("spent {}", ledger_->spent().headline());
        } catch (const std::exception&) {
            // The line is a convenience: a total the accountant cannot state now is left out of it,
            // and the run's statement reports it (or the failure) at the end.
            spent_.clear();
        }
    }
    if (!spent_.empty() && ledger_->budget()) spent_ += fmt::format(" of {}", ledger_->budget()->text());
    return spent_;
}

void ProgressBar::on_iteration(std::size_t /*iteration*/, const Trace& trace) {
    if (!enabled_) return;
    ++done_;
    best_ = released_best_so_far(trace);
    // At most ~20 redraws a second: cheap iterations must not be slowed by the terminal. The last
    // iteration is drawn at once, or by on_finish when the run stops before it.
    const auto now = std::chrono::steady_clock::now();
    if (done_ < planned_ && now - last_draw_ < std::chrono::milliseconds(50)) return;
    last_draw_ = now;
    draw();
}

void ProgressBar::draw() {
    drawn_ = done_;
    constexpr std::size_t width = 30;
    const std::size_t filled = planned_ == 0 ? 0 : std::min(width, width * done_ / planned_);
    std::string line = fmt::format("{} [{}{}] {}/{}", label_, std::string(filled, '#'),
                                   std::string(width - filled, ' '), done_, planned_);
    if (best_) line += fmt::format("  best {:.6g}", *best_);
    if (const std::string spent = spent_text(); !spent.empty()) line += "  " + spent;
    drawn_width_ = std::max(drawn_width_, line.size());
    std::fprintf(stderr, "\r%-*s", static_cast<int>(drawn_width_), line.c_str());
    std::fflush(stderr);
}

void ProgressBar::on_finish() {
    if (!enabled_ || planned_ == 0) return;
    // The ledger is still the repeat's here (the runner takes it back after on_finish).
    if (drawn_ != done_) draw();
    std::fprintf(stderr, "\n");
}

}  // namespace dpbo::cli
