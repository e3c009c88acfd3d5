#pragma once
// The privacy a run had spent after each of its releases, for the report's "ε spent over the run":
// the ledger's log composed again, release by release, on an empty copy of the run's own accountant,
// so each point is what the run's statement would have said had it stopped there. Nothing here
// looks at data: a release's cost and noise are parameters of its event.
#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpbo/accountant.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/result.hpp"

namespace dpbo {

// At most this many points: a run of more releases is drawn from evenly spaced ones (the last always
// among them). Each point asks the accountant for ε once, the costly part with the pld accountant.
inline constexpr std::size_t kPrivacyOverRunPoints = 64;

// {"delta": δ the ε are stated at (the final statement's; 0 for pure ε-DP; null when the final
// statement has no ε, then "mu" is given instead), "releases": number of releases, "points": [
// {"release": k (1-based), "epsilon" or "mu": spent after the first k releases}],
// "noise": [{"release": k, "what": …, "distribution": "laplace"|"gaussian", "scale" (Laplace),
// "standard_deviation": s, "released_as": the names of the `released` values all of whose numbers
// this release put out}] for the releases that added Laplace or Gaussian noise}. Null when nothing
// was charged. `empty` is the run's accountant before any charge (it is cloned, not changed).
nlohmann::ordered_json privacy_over_run_json(const std::vector<LedgerEntry>& log, const Accountant& empty,
                                             const std::vector<ReleasedValue>& released);

}  // namespace dpbo
