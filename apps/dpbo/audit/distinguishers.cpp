#include "distinguishers.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::audit {

namespace {

// Quantiles of the pooled selection half where value thresholds are placed; both tails reach
// far enough for the events that bounded noise makes impossible in one world.
constexpr double kQuantiles[] = {0.0005, 0.002, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.998, 0.9995};
// An ordinal feature with at most this many distinct values gets a threshold at each of them.
constexpr std::size_t kMaxDistinctThresholds = 64;
// Likelihood-ratio sets {code : p̂(code) > r·q̂(code)} for these r.
constexpr double kRatios[] = {1.0, 2.0, 4.0, 16.0, 256.0};
// Counts are smoothed by this much when estimating a code's ratio, so that a code seen once in
// one world and never in the other is not taken for an infinite ratio.
constexpr double kSmoothing = 0.5;

// A candidate before its code set (for InSet) is built: just enough to rank it and rebuild it.
struct Candidate {
    std::size_t coordinate = 0;
    std::size_t feature = 0;
    Event::Rule rule = Event::Rule::Above;
    double parameter = 0.0;  // the threshold, or the ratio r of an InSet event
    bool first_over_second = true;
    PrivacyLowerBound bound;
};

arma::vec feature_column(const arma::mat& samples, std::size_t column, const Feature& feature) {
    arma::vec out(samples.n_rows);
    for (arma::uword i = 0; i < samples.n_rows; ++i) out(i) = feature.of(samples(i, column));
    return out;
}

std::vector<double> thresholds(const arma::vec& first, const arma::vec& second) {
    arma::vec pooled = arma::sort(arma::join_cols(first, second));
    pooled = pooled.elem(arma::find_finite(pooled));
    if (pooled.is_empty()) return {};
    const arma::vec distinct = arma::unique(pooled);
    if (distinct.n_elem <= kMaxDistinctThresholds) return arma::conv_to<std::vector<double>>::from(distinct);
    std::vector<double> out;
    for (const double q : kQuantiles)
        out.push_back(pooled(static_cast<arma::uword>(q * static_cast<double>(pooled.n_elem - 1))));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// Codes whose smoothed frequency in `over` exceeds `ratio` times that in `under`.
std::vector<double> ratio_set(const std::map<double, std::pair<std::size_t, std::size_t>>& counts, bool first_over,
                              double ratio, double n_first, double n_second) {
    std::vector<double> codes;
    for (const auto& [code, pair] : counts) {
        const double over = static_cast<double>(first_over ? pair.first : pair.second);
        const double under = static_cast<double>(first_over ? pair.second : pair.first);
        const double n_over = first_over ? n_first : n_second;
        const double n_under = first_over ? n_second : n_first;
        if (over > 0.0 && (over + kSmoothing) / n_over > ratio * (under + kSmoothing) / n_under) codes.push_back(code);
    }
    return codes;  // std::map keeps them sorted
}

// The selection half is split once more: events are shaped (thresholds placed, likelihood-ratio
// sets chosen) on its first part and scored on its second. Scoring a set on the samples it was
// chosen from would rank first the sets of codes that happened to appear in one world only — with
// 16 low bits and a few thousand samples, nearly every code.
class Learner {
public:
    Learner(const arma::mat& first, const arma::mat& second, const std::vector<std::string>& names,
            const SelectionSettings& settings)
        : shape_first_(first.rows(0, first.n_rows / 2 - 1)),
          shape_second_(second.rows(0, second.n_rows / 2 - 1)),
          first_(first.rows(first.n_rows / 2, first.n_rows - 1)),
          second_(second.rows(second.n_rows / 2, second.n_rows - 1)),
          names_(names),
          settings_(settings),
          features_(audited_features()) {}

    std::vector<Distinguisher> learn() {
        for (std::size_t j = 0; j < first_.n_cols; ++j)
            for (std::size_t f = 0; f < features_.size(); ++f) score_feature(j, f);
        std::vector<Distinguisher> kept;
        for (const bool direction : {true, false}) {
            keep_best(
                direction, [](const Candidate& c) { return c.bound.epsilon; }, kept);
            if (settings_.rank_by_mu)
                keep_best(
                    direction, [](const Candidate& c) { return c.bound.mu; }, kept);
        }
        return kept;
    }

private:
    void score(std::size_t j, std::size_t f, Event::Rule rule, double parameter, std::size_t in_first,
               std::size_t in_second) {
        const std::size_t n_first = first_.n_rows;
        const std::size_t n_second = second_.n_rows;
        // Only the direction in which the event is the more likely can give a positive bound.
        const bool first_over = static_cast<double>(in_first) * static_cast<double>(n_second) >
                                static_cast<double>(in_second) * static_cast<double>(n_first);
        const EventCounts counts = first_over ? EventCounts{in_first, n_first, in_second, n_second}
                                              : EventCounts{in_second, n_second, in_first, n_first};
        if (counts.in_p * counts.trials_q <= counts.in_q * counts.trials_p) return;
        candidates_.push_back(
            {j, f, rule, parameter, first_over, privacy_lower_bound(counts, settings_.delta, settings_.alpha)});
    }

    void score_feature(std::size_t j, std::size_t f) {
        const Feature& feature = features_[f];
        const arma::vec shape_a = feature_column(shape_first_, j, feature);
        const arma::vec shape_b = feature_column(shape_second_, j, feature);
        const arma::vec a = feature_column(first_, j, feature);
        const arma::vec b = feature_column(second_, j, feature);
        if (feature.ordinal()) {
            const arma::vec sorted_a = arma::sort(a);
            const arma::vec sorted_b = arma::sort(b);
            const auto at_most = [](const arma::vec& sorted, double t) {
                return static_cast<std::size_t>(std::upper_bound(sorted.begin(), sorted.end(), t) - sorted.begin());
            };
            for (const double t : thresholds(shape_a, shape_b)) {
                const std::size_t a_low = at_most(sorted_a, t);
                const std::size_t b_low = at_most(sorted_b, t);
                score(j, f, Event::Rule::AtMost, t, a_low, b_low);
                score(j, f, Event::Rule::Above, t, a.n_elem - a_low, b.n_elem - b_low);
            }
        }
        if (feature.categorical()) {
            const auto shape_counts = code_counts(shape_a, shape_b);
            const auto counts = code_counts(a, b);
            for (const bool first_over : {true, false})
                for (const double r : kRatios) {
                    std::size_t in_a = 0, in_b = 0;
                    for (const double code : ratio_set(shape_counts, first_over, r, shape_a.n_elem, shape_b.n_elem)) {
                        const auto found = counts.find(code);
                        if (found == counts.end()) continue;
                        in_a += found->second.first;
                        in_b += found->second.second;
                    }
                    score(j, f, Event::Rule::InSet, r, in_a, in_b);
                }
        }
    }

    static std::map<double, std::pair<std::size_t, std::size_t>> code_counts(const arma::vec& a, const arma::vec& b) {
        std::map<double, std::pair<std::size_t, std::size_t>> counts;
        for (const double x : a) ++counts[x].first;
        for (const double x : b) ++counts[x].second;
        return counts;
    }

    template <class Score>
    void keep_best(bool first_over, Score by, std::vector<Distinguisher>& kept) {
        std::vector<const Candidate*> in_direction;
        for (const auto& c : candidates_)
            if (c.first_over_second == first_over) in_direction.push_back(&c);
        const std::size_t keep = std::min(settings_.keep_per_direction, in_direction.size());
        std::partial_sort(in_direction.begin(), in_direction.begin() + static_cast<std::ptrdiff_t>(keep),
                          in_direction.end(), [&](const Candidate* x, const Candidate* y) { return by(*x) > by(*y); });
        for (std::size_t i = 0; i < keep; ++i) {
            Distinguisher d{build(*in_direction[i]), first_over, in_direction[i]->bound};
            const bool duplicate = std::any_of(kept.begin(), kept.end(), [&](const Distinguisher& k) {
                return k.first_over_second == d.first_over_second && k.event.description == d.event.description;
            });
            if (!duplicate) kept.push_back(std::move(d));
        }
    }

    Event build(const Candidate& c) const {
        Event event;
        event.coordinate = c.coordinate;
        event.feature = features_[c.feature];
        event.rule = c.rule;
        const std::string subject = fmt::format("{} {}", names_[c.coordinate], event.feature.name());
        if (c.rule == Event::Rule::InSet) {
            const arma::vec a = feature_column(shape_first_, c.coordinate, event.feature);
            const arma::vec b = feature_column(shape_second_, c.coordinate, event.feature);
            event.codes = ratio_set(code_counts(a, b), c.first_over_second, c.parameter, a.n_elem, b.n_elem);
            event.description = fmt::format(
                "{} in a likelihood-ratio set of {} code{} (ratio > {:g} on the "
                "selection half)",
                subject, event.codes.size(), event.codes.size() == 1 ? "" : "s", c.parameter);
        } else {
            event.threshold = c.parameter;
            event.description =
                fmt::format("{} {} {:.17g}", subject, c.rule == Event::Rule::Above ? ">" : "<=", c.parameter);
        }
        return event;
    }

    arma::mat shape_first_, shape_second_;  // where events are shaped
    arma::mat first_, second_;              // where they are scored
    const std::vector<std::string>& names_;
    SelectionSettings settings_;
    std::vector<Feature> features_;
    std::vector<Candidate> candidates_;
};

}  // namespace

bool Event::contains(double x) const {
    const double v = feature.of(x);
    switch (rule) {
        case Rule::Above:
            return v > threshold;
        case Rule::AtMost:
            return v <= threshold;
        case Rule::InSet:
            return std::binary_search(codes.begin(), codes.end(), v);
    }
    return false;
}

std::vector<Distinguisher> learn_distinguishers(const arma::mat& first, const arma::mat& second,
                                                const std::vector<std::string>& coordinate_names,
                                                const SelectionSettings& settings) {
    if (first.n_cols != second.n_cols || coordinate_names.size() != first.n_cols || first.n_rows < 2 ||
        second.n_rows < 2)
        throw RunError(
            fmt::format("learn_distinguishers: samples of {}×{} and {}×{} with {} coordinate names; need "
                        "at least 2 samples per world (to shape and to score events), the same columns, "
                        "one name each",
                        first.n_rows, first.n_cols, second.n_rows, second.n_cols, coordinate_names.size()));
    return Learner(first, second, coordinate_names, settings).learn();
}

}  // namespace dpbo::audit
