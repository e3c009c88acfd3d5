#include "dpbo/host/batch_slices.hpp"

#include <algorithm>
#include <type_traits>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"

namespace dpbo {

std::vector<BatchSlice> batch_slices(std::size_t points, std::size_t workers) {
    const std::size_t slices = std::max<std::size_t>(1, std::min(workers, points));
    std::vector<BatchSlice> out;
    std::size_t first = 0;
    for (std::size_t s = 0; s < slices; ++s) {
        const std::size_t count = points / slices + (s < points % slices ? 1 : 0);
        out.push_back({first, count});
        first += count;
    }
    return out;
}

std::uint64_t slice_seed(std::uint64_t base, std::size_t slice) { return sub_seed(base, slice); }

std::vector<PrivacyNoiseSource> slice_trial_noise_sources(const EvaluationRequest& request, std::size_t slices) {
    std::vector<PrivacyNoiseSource> out;
    if (request.trial_noise == nullptr) return out;
    PrivacyNoiseSource keys = *request.trial_noise;
    out.reserve(slices);
    for (std::size_t s = 0; s < slices; ++s) out.push_back(keys.derive());
    return out;
}

Evaluations merge_slices(const arma::mat& points, const std::vector<BatchSlice>& slices,
                         const std::vector<Evaluations>& parts, const std::string& who) {
    for (std::size_t s = 0; s < slices.size(); ++s)
        if (parts[s].values.n_rows != slices[s].count)
            throw RunError(fmt::format("{} returned {} values for a slice of {} points", who, parts[s].values.n_rows,
                                       slices[s].count));
    const auto join = [&](auto member) {
        std::decay_t<decltype(parts.front().*member)> out;
        for (const Evaluations& part : parts) out = arma::join_cols(out, part.*member);
        return out;
    };
    Evaluations merged;
    merged.points = points;
    merged.values = join(&Evaluations::values);
    merged.per_record = join(&Evaluations::per_record);
    merged.auxiliary = join(&Evaluations::auxiliary);
    // The contract allows no candidate rows at all; a mix of slices with and without them is no row per point.
    if (std::all_of(parts.begin(), parts.end(),
                    [](const Evaluations& e) { return e.candidate_rows.n_elem == e.values.n_rows; }))
        merged.candidate_rows = join(&Evaluations::candidate_rows);
    for (const Evaluations& part : parts)
        merged.trial_events.insert(merged.trial_events.end(), part.trial_events.begin(), part.trial_events.end());
    return merged;
}

}  // namespace dpbo
