// The selection among repeated trials as a privacy event: its schema (the trial as event texts, K's
// distribution, what is released), its checks, its text, and the (ε, δ) statements that are theorems.
#include <cmath>
#include <limits>
#include <variant>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo {

namespace {

constexpr const char* kBest = "best";
constexpr const char* kFirstAboveThreshold = "first-above-threshold";

double up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }

std::vector<PrivacyEvent> parse_trial(const std::string& text) {
    std::vector<PrivacyEvent> out;
    std::size_t start = 0;
    int depth = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] == '(') ++depth;
        if (i < text.size() && text[i] == ')') --depth;
        if (i == text.size() || (depth == 0 && text[i] == ';')) {
            std::string one = text.substr(start, i - start);
            if (one.size() >= 2 && one.front() == '(' && one.back() == ')') one = one.substr(1, one.size() - 2);
            if (one.empty())
                throw ValidationError(fmt::format(
                    "privacy event '{}': 'trial' = '{}' has an empty event (a stray ';'?); expected event texts "
                    "joined by ';'",
                    RepeatAndSelectEvent::kind_name, text));
            out.push_back(parse_builtin_event(one));
            start = i + 1;
        }
    }
    return out;
}

// The trial's (ε, δ) by basic composition, when every event offers one.
std::optional<ApproximateDp> trial_cost(const std::vector<PrivacyEvent>& trial) {
    ApproximateDp total;
    for (const PrivacyEvent& event : trial) {
        const auto one = event.description().approximate_dp();
        if (!one) return std::nullopt;
        const double r = static_cast<double>(event.repetitions);
        total.epsilon = up(total.epsilon + up(r * one->epsilon));
        // A pure trial stays pure: 0 is exact and must not round up to the least denormal.
        if (one->delta != 0.0) total.delta = up(total.delta + up(r * one->delta));
    }
    return total;
}

// The schema's texts have no "required" flag: a missing one is refused here, by name.
const std::string& required_text(const ParameterSet& p, const char* key) {
    if (!p.has(key))
        throw ValidationError(fmt::format("privacy event '{}' needs key '{}'", RepeatAndSelectEvent::kind_name, key));
    return p.text(key);
}

bool geometric(const TrialCount& count) {
    return count.family == TrialCount::Family::TruncatedNegativeBinomial && count.eta == 1.0;
}

}  // namespace

ParameterSchema RepeatAndSelectEvent::schema() {
    ParameterSchema schema;
    schema
        .text("trial", std::nullopt,
              "the events one trial spends, as event texts joined by ';' in parentheses, e.g. "
              "(subsampled-gaussian:q=0.01,sigma=1.1,steps=10000,sampling=poisson;laplace:scale=10,sensitivity=1)")
        .text("count", std::nullopt,
              "K's distribution: fixed:k=K, geometric:mean=M, logarithmic:mean=M, (negative-binomial:mean=M,eta=E) "
              "or poisson:mean=M")
        .choice("release", {kBest, kFirstAboveThreshold}, kBest,
                "best: the best of the K trials (Papernot & Steinke 2022); first-above-threshold: the first trial "
                "whose privatised score passes the threshold (Liu & Talwar 2019, Alg. 1)");
    return schema;
}

RepeatAndSelectEvent::RepeatAndSelectEvent(std::vector<PrivacyEvent> trial_, TrialCount count_, Release release_)
    : trial(std::move(trial_)), count(count_), release(release_) {}

RepeatAndSelectEvent::RepeatAndSelectEvent(const ParameterSet& p)
    : trial(parse_trial(required_text(p, "trial"))),
      count(TrialCount::parse(required_text(p, "count"))),
      release(p.text("release") == kBest ? Release::Best : Release::FirstAboveThreshold) {}

std::string_view RepeatAndSelectEvent::kind() const { return kind_name; }

void RepeatAndSelectEvent::validate() const {
    const EventParameterCheck check(kind_name);
    if (trial.empty()) check.refuse("trial", "(no events)", "one or more event texts joined by ';'");
    for (const PrivacyEvent& event : trial) {
        try {
            event.validate();
        } catch (const ValidationError& e) {
            check.refuse("trial", event_text(event), e.what());
        }
    }
    try {
        count.validate();
    } catch (const ValidationError& e) {
        check.refuse("count", count.text(), e.what());
    }
    if (release == Release::FirstAboveThreshold) {
        // Liu & Talwar's thresholded stopping is proved for a geometric number of pure ε-DP trials.
        if (!geometric(count))
            check.refuse("count", count.text(), "geometric:mean=M with release = first-above-threshold");
        const auto cost = trial_cost(trial);
        if (!cost || cost->delta != 0.0)
            check.refuse("trial", std::get<std::string>(parameters().at("trial")),
                         "events that are each pure ε-DP (approximate_dp with delta 0) with release = "
                         "first-above-threshold");
    }
}

std::string RepeatAndSelectEvent::parameter_text() const {
    std::vector<std::string> events;
    for (const PrivacyEvent& event : trial) events.push_back(event.describe());
    return fmt::format("{}, release {}, each trial: {}", count.describe(),
                       release == Release::Best ? "the best trial" : "the first trial above the threshold",
                       fmt::join(events, "; "));
}

std::map<std::string, ParameterValue> RepeatAndSelectEvent::parameters() const {
    std::vector<std::string> texts;
    for (const PrivacyEvent& event : trial) texts.push_back(event_text(event));
    return {{"trial", fmt::format("{}", fmt::join(texts, ";"))},
            {"count", count.text()},
            {"release", std::string(to_string(release))}};
}

// The (ε, δ) statements that are theorems for this selection: a fixed k is basic composition of k
// trials; over pure ε-DP trials, thresholded stopping with a geometric K is 2ε-DP (Liu & Talwar
// 2019, Thm. 3.1), and the best of K trials with K truncated negative binomial of shape η is
// (2 + η)ε-DP (Papernot & Steinke 2022, Cor. 3; η = 1, a geometric K, gives the 3ε of Liu & Talwar
// 2019). Nothing else is stated here: the rdp accountant applies the RDP theorems.
std::optional<ApproximateDp> RepeatAndSelectEvent::approximate_dp() const {
    const auto cost = trial_cost(trial);
    if (!cost) return std::nullopt;
    if (count.family == TrialCount::Family::Fixed)
        return ApproximateDp{up(count.mean * cost->epsilon), cost->delta == 0.0 ? 0.0 : up(count.mean * cost->delta)};
    if (cost->delta != 0.0) return std::nullopt;
    if (release == Release::FirstAboveThreshold)
        return geometric(count) ? std::optional<ApproximateDp>(ApproximateDp{up(2.0 * cost->epsilon), 0.0})
                                : std::nullopt;
    if (count.family == TrialCount::Family::TruncatedNegativeBinomial)
        return ApproximateDp{up(up(2.0 + count.eta) * cost->epsilon), 0.0};
    return std::nullopt;
}

std::string_view to_string(RepeatAndSelectEvent::Release release) {
    return release == RepeatAndSelectEvent::Release::Best ? kBest : kFirstAboveThreshold;
}

}  // namespace dpbo
