#pragma once
// A progress line on stderr for interactive runs: the iterations done, the best value so far where
// the run releases it, and the privacy spent so far from the repeat's ledger. Silent when stderr is
// not a terminal, so logs and CI output stay clean.
//
// The line is itself a release to the terminal, so it shows only what the run releases anyway: the
// best value so far only from a trace column that is not evaluation-only (a released column, or any
// column of a run that claims no privacy), and the privacy spent, which is composed from the events
// charged — chosen from released values only — as the result's statement is at the end.
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "dpbo/host/ledger_watcher.hpp"
#include "dpbo/observer.hpp"

namespace dpbo::cli {

class ProgressBar final : public RunObserver, public LedgerWatcher {
public:
    explicit ProgressBar(std::string label);
    void on_start(std::size_t planned_iterations) override;
    void on_iteration(std::size_t iteration, const Trace& trace) override;
    void on_finish() override;
    void watch_ledger(const PrivacyLedger* ledger) override { ledger_ = ledger; }

private:
    void draw();
    // "spent 0.42-GDP of mu=1", refreshed only when a charge was made since the last draw (an
    // accountant's total may cost more than a redraw).
    std::string spent_text();

    bool enabled_;
    std::string label_;
    std::size_t planned_ = 0;
    // Iterations reported so far (algorithms number them from 0 or from 1; the line counts them).
    std::size_t done_ = 0;
    std::size_t drawn_ = 0;       // done_ when the line was last drawn
    std::optional<double> best_;  // the released best so far at the last iteration
    std::chrono::steady_clock::time_point last_draw_{};
    const PrivacyLedger* ledger_ = nullptr;
    std::optional<std::size_t> spent_charges_;  // the charges spent_ was composed from
    std::string spent_;
    std::size_t drawn_width_ = 0;  // the longest line drawn, to clear what a shorter one leaves
};

// The best value so far that the trace releases: the last entry of its released best-so-far column
// ("best_value" of the BO loop, "best_true_value_so_far" of a search), or nothing when the trace has
// no such column or it is evaluation-only (a private run's exact values).
std::optional<double> released_best_so_far(const Trace& trace);

}  // namespace dpbo::cli
