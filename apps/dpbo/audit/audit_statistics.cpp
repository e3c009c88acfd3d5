#include "audit_statistics.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::audit {

std::size_t evaluation_half(std::size_t runs) { return runs - runs / 2; }

double bound_level(double confidence, std::size_t events) {
    return (1.0 - confidence) / (2.0 * static_cast<double>(std::max<std::size_t>(events, 1)));
}

std::size_t most_events(const StatisticsSettings& settings) {
    return 2 * settings.keep_per_direction * (settings.gdp ? 2 : 1);
}

AuditStatistics audit_statistics(const arma::mat& first, const arma::mat& second,
                                 const std::vector<std::string>& coordinate_names, const StatisticsSettings& settings) {
    if (first.n_rows < 4 || second.n_rows < 4 || first.n_cols != second.n_cols)
        throw RunError(
            fmt::format("audit_statistics: samples of {}×{} and {}×{}; need at least 4 rows per world "
                        "(to shape, score and evaluate events) and the same columns",
                        first.n_rows, first.n_cols, second.n_rows, second.n_cols));
    const arma::uword select_first = first.n_rows / 2;
    const arma::uword select_second = second.n_rows / 2;
    const arma::mat evaluate_first = first.rows(select_first, first.n_rows - 1);
    const arma::mat evaluate_second = second.rows(select_second, second.n_rows - 1);

    // A coordinate equal to one value throughout both selection halves offers no event.
    std::vector<arma::uword> varying;
    for (arma::uword j = 0; j < first.n_cols; ++j) {
        const double reference = first(0, j);
        const auto constant = [&](const arma::mat& m, arma::uword rows) {
            for (arma::uword i = 0; i < rows; ++i)
                if (!(m(i, j) == reference)) return false;
            return true;
        };
        if (!constant(first, select_first) || !constant(second, select_second)) varying.push_back(j);
    }
    const std::vector<arma::uword> audited(
        varying.begin(),
        varying.begin() + static_cast<std::ptrdiff_t>(std::min(varying.size(), settings.max_coordinates)));
    std::vector<std::string> audited_names;
    for (const auto j : audited) audited_names.push_back(coordinate_names.at(j));
    const arma::uvec columns = arma::conv_to<arma::uvec>::from(audited);

    SelectionSettings selection;
    selection.delta = settings.delta;
    selection.alpha = 1.0 - settings.confidence;
    selection.keep_per_direction = settings.keep_per_direction;
    selection.rank_by_mu = settings.gdp;
    std::vector<Distinguisher> kept;
    if (!audited.empty()) {
        kept = learn_distinguishers(first.submat(arma::regspace<arma::uvec>(0, select_first - 1), columns),
                                    second.submat(arma::regspace<arma::uvec>(0, select_second - 1), columns),
                                    audited_names, selection);
        for (auto& d : kept) d.event.coordinate = audited[d.event.coordinate];
    }

    AuditStatistics out;
    out.coordinates = first.n_cols;
    out.varying_coordinates = varying.size();
    out.audited_coordinates = audited.size();
    out.evaluation_samples = std::min(evaluate_first.n_rows, evaluate_second.n_rows);
    out.alpha_per_bound = bound_level(settings.confidence, kept.size());
    out.detectable = largest_detectable(out.evaluation_samples, settings.delta, out.alpha_per_bound);
    for (auto& d : kept) {
        const auto count = [&](const arma::mat& samples) {
            std::size_t in = 0;
            for (arma::uword i = 0; i < samples.n_rows; ++i) in += d.event.contains(samples(i, d.event.coordinate));
            return in;
        };
        const std::size_t in_first = count(evaluate_first);
        const std::size_t in_second = count(evaluate_second);
        const EventCounts counts =
            d.first_over_second ? EventCounts{in_first, evaluate_first.n_rows, in_second, evaluate_second.n_rows}
                                : EventCounts{in_second, evaluate_second.n_rows, in_first, evaluate_first.n_rows};
        Finding finding{std::move(d), counts, privacy_lower_bound(counts, settings.delta, out.alpha_per_bound)};
        out.findings.push_back(std::move(finding));
    }
    if (out.findings.empty()) {
        // Nothing differed between the worlds on the selection half: report an empty event.
        out.findings.push_back({Distinguisher{Event{0,
                                                    {},
                                                    Event::Rule::InSet,
                                                    0.0,
                                                    {},
                                                    "no event: the worlds' "
                                                    "selection halves did not differ"},
                                              true,
                                              {}},
                                EventCounts{0, out.evaluation_samples, 0, out.evaluation_samples},
                                PrivacyLowerBound{}});
    }
    for (std::size_t i = 0; i < out.findings.size(); ++i) {
        if (out.findings[i].bound.epsilon > out.findings[out.best_epsilon].bound.epsilon) out.best_epsilon = i;
        if (out.findings[i].bound.mu > out.findings[out.best_mu].bound.mu) out.best_mu = i;
    }
    return out;
}

}  // namespace dpbo::audit
