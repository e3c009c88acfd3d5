#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

namespace dpbo::cli {

ProgressBar::ProgressBar(std::string label) : enabled_(isatty(STDERR_FILENO) == 1), label_(std::move(label)) {}

void ProgressBar::on_start(std::size_t planned_iterations) { planned_ = planned_iterations; }

void ProgressBar::on_iteration(std::size_t iteration, const Trace& /*trace*/) {
    if (!enabled_) return;
    // At most ~20 redraws a second: cheap iterations must not be slowed by the terminal.
    const auto now = std::chrono::steady_clock::now();
    if (iteration < planned_ && now - last_draw_ < std::chrono::milliseconds(50)) return;
    last_draw_ = now;
    constexpr std::size_t width = 30;
    const std::size_t filled = planned_ == 0 ? 0 : std::min(width, width * iteration / planned_);
    std::fprintf(stderr, "\r%s [%s%s] %zu/%zu", label_.c_str(), std::string(filled, '#').c_str(),
                 std::string(width - filled, ' ').c_str(), iteration, planned_);
    std::fflush(stderr);
}

void ProgressBar::on_finish() {
    if (enabled_ && planned_ > 0) std::fprintf(stderr, "\n");
}

}  // namespace dpbo::cli
