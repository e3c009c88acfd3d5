#pragma once
// A progress bar on stderr for interactive runs; silent when stderr is not a terminal, so logs and
// CI output stay clean.
#include <chrono>
#include <cstddef>
#include <string>

#include "dpbo/observer.hpp"

namespace dpbo::cli {

class ProgressBar final : public RunObserver {
public:
    explicit ProgressBar(std::string label);
    void on_start(std::size_t planned_iterations) override;
    void on_iteration(std::size_t iteration, const Trace& trace) override;
    void on_finish() override;

private:
    bool enabled_;
    std::string label_;
    std::size_t planned_ = 0;
    std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace dpbo::cli
