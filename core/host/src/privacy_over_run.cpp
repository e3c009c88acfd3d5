#include "dpbo/host/privacy_over_run.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_statement.hpp"

namespace dpbo {

namespace {

using json = nlohmann::ordered_json;

// The δ a curve of ε is stated at: the final statement's own, so that its last point is the
// headline's ε; nothing when the statement has no ε to speak of (μ-GDP without equivalents).
std::optional<double> stated_delta(const PrivacyStatement& final_statement) {
    if (final_statement.notion == PrivacyNotion::PureDP) return 0.0;
    if (final_statement.notion == PrivacyNotion::ApproxDP) return final_statement.delta;
    if (!final_statement.equivalent_epsilon_delta.empty())
        return final_statement.equivalent_epsilon_delta.front().second;
    return std::nullopt;
}

// The names of the released values whose numbers this release put out, all of them, exactly: how a
// reader finds the noise on a released value. Names only: the numbers are in "released" already.
json released_as(const LedgerEntry& entry, const std::vector<ReleasedValue>& released) {
    std::vector<double> made(entry.released.begin(), entry.released.end());
    std::sort(made.begin(), made.end());
    json names = json::array();
    for (const ReleasedValue& value : released) {
        if (value.value.is_empty()) continue;
        const bool all_made = std::all_of(value.value.begin(), value.value.end(),
                                          [&](double x) { return std::binary_search(made.begin(), made.end(), x); });
        if (all_made) names.push_back(value.name);
    }
    return names;
}

// The noise a release added, as its event states it; nothing for events that are not additive
// noise of a known law (a selection, a direct charge).
std::optional<json> additive_noise(const LedgerEntry& entry, std::size_t release,
                                   const std::vector<ReleasedValue>& released) {
    json noise{{"release", release}, {"what", entry.event.what}};
    if (const auto* laplace = entry.event.as<LaplaceEvent>()) {
        noise["distribution"] = "laplace";
        noise["scale"] = laplace->scale;
        noise["standard_deviation"] = std::sqrt(2.0) * laplace->scale;
    } else if (const auto* gaussian = entry.event.as<GaussianEvent>()) {
        noise["distribution"] = "gaussian";
        noise["standard_deviation"] = gaussian->sigma;
    } else {
        return std::nullopt;
    }
    noise["released_as"] = released_as(entry, released);
    return noise;
}

}  // namespace

json privacy_over_run_json(const std::vector<LedgerEntry>& log, const Accountant& empty,
                           const std::vector<ReleasedValue>& released) {
    if (log.empty()) return nullptr;
    std::unique_ptr<Accountant> whole = empty.clone();
    for (const LedgerEntry& entry : log) whole->compose(entry.event);
    const PrivacyStatement final_statement = whole->total();
    const std::optional<double> delta = stated_delta(final_statement);
    const bool by_mu = !delta && final_statement.notion == PrivacyNotion::GaussianDP;
    const std::size_t count = log.size();
    const std::size_t points = std::min(count, kPrivacyOverRunPoints);

    json out{{"delta", delta ? json(*delta) : json(nullptr)}, {"releases", count}};
    json curve = json::array();
    json noise = json::array();
    std::unique_ptr<Accountant> prefix = empty.clone();
    std::size_t next_point = 0;  // index into the evenly spaced releases at which a point is taken
    for (std::size_t k = 0; k < count; ++k) {
        prefix->compose(log[k].event);
        if (auto added = additive_noise(log[k], k + 1, released)) noise.push_back(std::move(*added));
        // Point i is taken after release ceil((i + 1) · count / points): the last is the whole run.
        const std::size_t due = ((next_point + 1) * count + points - 1) / points;
        if (k + 1 != due || (!delta && !by_mu)) continue;
        ++next_point;
        json point{{"release", k + 1}};
        // Pure ε-DP has no δ to ask at (accountants take δ in (0, 1)): its total is the ε.
        if (delta)
            point["epsilon"] = *delta > 0.0 ? prefix->epsilon_for_delta(*delta) : prefix->total().epsilon;
        else
            point["mu"] = prefix->total().mu;
        curve.push_back(std::move(point));
    }
    out["points"] = std::move(curve);
    out["noise"] = std::move(noise);
    return out;
}

}  // namespace dpbo
