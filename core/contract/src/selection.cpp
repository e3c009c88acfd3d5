// The Selection interface's out-of-line parts: the one path from scores to a private choice.
#include "dpbo/selection.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/run_journal.hpp"

namespace dpbo {

Selection::~Selection() = default;

std::size_t Selection::select(const arma::vec& scores, PrivacyLedger& ledger, const std::string& what) const {
    if (scores.is_empty())
        throw RunError(fmt::format("{}: selection '{}' was given no scores to choose from", ledger.owner(), what));
    const std::size_t entry = charge(ledger, what);
    if (auto recorded = ledger.replayed(entry)) {
        const arma::vec& index = recorded->released;
        if (index.n_elem != 1 || !(index(0) >= 0.0 && index(0) < static_cast<double>(scores.n_elem)))
            throw RunError(
                fmt::format("{}: selection '{}' in the run's journal is not an index of the {} scores "
                            "given now; the journal belongs to another run",
                            ledger.owner(), what, scores.n_elem));
        return static_cast<std::size_t>(index(0));
    }
    const std::size_t chosen = choose(scores, ledger.noise_for(entry));
    if (chosen >= scores.n_elem) {
        throw RunError(
            fmt::format("{}: selection '{}' chose index {} of {} scores", ledger.owner(), what, chosen, scores.n_elem));
    }
    ledger.record_release(entry, arma::vec{static_cast<double>(chosen)});
    return chosen;
}

}  // namespace dpbo
