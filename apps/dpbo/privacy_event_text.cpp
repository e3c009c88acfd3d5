#include "privacy_event_text.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "job_options.hpp"

namespace dpbo::cli {

namespace {

std::size_t parse_count(const std::string& text, const std::string& where) {
    const double value = parse_finite_number(text, where);
    if (value < 1 || std::floor(value) != value || value > 1e15)
        throw ValidationError(fmt::format("{}: '{}' is not a whole number >= 1", where, text));
    return static_cast<std::size_t>(value);
}

// The key=value pairs of one event, each read once by the kind's builder.
class Fields {
public:
    Fields(std::string event_text, std::string kind, std::map<std::string, std::string> values)
        : text_(std::move(event_text)), kind_(std::move(kind)), values_(std::move(values)) {}

    void allow_only(const std::vector<std::string>& keys) const {
        for (const auto& [key, value] : values_) {
            if (std::find(keys.begin(), keys.end(), key) == keys.end())
                throw ValidationError(fmt::format("--event '{}': kind '{}' has no key '{}'; its keys: {}", text_, kind_,
                                                  key, fmt::join(keys, ", ")));
        }
    }
    const std::string& raw(const std::string& key) const {
        const auto it = values_.find(key);
        if (it == values_.end())
            throw ValidationError(fmt::format("--event '{}': kind '{}' needs key '{}'", text_, kind_, key));
        return it->second;
    }
    double number(const std::string& key) const { return parse_finite_number(raw(key), where(key)); }
    bool has(const std::string& key) const { return values_.count(key) > 0; }
    // A key with a short alias (sampling_rate / q): exactly one of the two must be given.
    double number_or_alias(const std::string& key, const std::string& alias) const {
        if (has(key) && has(alias))
            throw ValidationError(fmt::format("--event '{}': keys '{}' and '{}' name the same value; give one", text_,
                                              key, alias));
        return number(has(alias) ? alias : key);
    }
    std::size_t count(const std::string& key) const { return parse_count(raw(key), where(key)); }
    template <class Enum>
    Enum choice(const std::string& key, const std::vector<std::pair<std::string, Enum>>& options) const {
        const std::string& value = raw(key);
        std::vector<std::string> names;
        for (const auto& [name, option] : options) {
            if (name == value) return option;
            names.push_back(name);
        }
        throw ValidationError(fmt::format("{}: '{}' is not allowed; allowed: {}", where(key), value, fmt::join(names, ", ")));
    }

private:
    std::string where(const std::string& key) const { return fmt::format("--event '{}' key '{}'", text_, key); }
    std::string text_, kind_;
    std::map<std::string, std::string> values_;
};

using Builder = std::function<PrivacyEvent::Mechanism(const Fields&)>;

const std::vector<std::pair<PrivacyEventKind, std::pair<std::vector<std::string>, Builder>>>& builders() {
    using Sub = SubsampledGaussianEvent;
    static const std::vector<std::pair<PrivacyEventKind, std::pair<std::vector<std::string>, Builder>>> table = {
        {PrivacyEventKind::Gaussian,
         {{"sigma", "sensitivity"},
          [](const Fields& f) { return GaussianEvent{f.number("sigma"), f.number("sensitivity")}; }}},
        {PrivacyEventKind::Gdp, {{"mu"}, [](const Fields& f) { return GdpEvent{f.number("mu")}; }}},
        {PrivacyEventKind::Laplace,
         {{"scale", "sensitivity"},
          [](const Fields& f) { return LaplaceEvent{f.number("scale"), f.number("sensitivity")}; }}},
        {PrivacyEventKind::Exponential,
         {{"epsilon", "quality_sensitivity"},
          [](const Fields& f) { return ExponentialEvent{f.number("epsilon"), f.number("quality_sensitivity")}; }}},
        // q and sigma are short aliases of sampling_rate and noise_multiplier; neighbouring defaults to
        // the relation the sampling's bound is proved for (poisson: add-remove-one; without
        // replacement: replace-one), and an accountant refuses a mismatch by name.
        {PrivacyEventKind::SubsampledGaussian,
         {{"sampling_rate", "q", "noise_multiplier", "sigma", "steps", "sampling", "neighbouring"},
          [](const Fields& f) {
              const auto sampling = f.choice<Sub::Sampling>(
                  "sampling", {{"poisson", Sub::Sampling::Poisson},
                               {"fixed-size-without-replacement", Sub::Sampling::FixedSizeWithoutReplacement},
                               {"without-replacement", Sub::Sampling::FixedSizeWithoutReplacement}});
              const auto neighbouring =
                  f.has("neighbouring")
                      ? f.choice<Sub::Neighbouring>("neighbouring",
                                                    {{"add-remove-one", Sub::Neighbouring::AddRemoveOne},
                                                     {"replace-one", Sub::Neighbouring::ReplaceOne}})
                      : (sampling == Sub::Sampling::Poisson ? Sub::Neighbouring::AddRemoveOne
                                                            : Sub::Neighbouring::ReplaceOne);
              return Sub{f.number_or_alias("sampling_rate", "q"), f.number_or_alias("noise_multiplier", "sigma"),
                         f.count("steps"), sampling, neighbouring};
          }}},
        {PrivacyEventKind::PureDp, {{"epsilon"}, [](const Fields& f) { return PureDpEvent{f.number("epsilon")}; }}},
        {PrivacyEventKind::ApproxDp,
         {{"epsilon", "delta"},
          [](const Fields& f) { return ApproxDpEvent{f.number("epsilon"), f.number("delta")}; }}},
    };
    return table;
}

}  // namespace

PrivacyEvent parse_privacy_event(const std::string& text) {
    const auto colon = text.find(':');
    if (colon == std::string::npos || colon == 0)
        throw ValidationError(fmt::format("--event '{}' is not of the form KIND:key=value,...[xREPEATS]", text));
    const std::string kind = text.substr(0, colon);
    std::string body = text.substr(colon + 1);
    PrivacyEvent event;
    if (const auto x = body.rfind('x'); x != std::string::npos && body.find('=', x) == std::string::npos) {
        event.repetitions = parse_count(body.substr(x + 1), fmt::format("--event '{}' repetitions", text));
        body = body.substr(0, x);
    }
    std::map<std::string, std::string> values;
    std::size_t start = 0;
    // Every comma separates two items, so "mu=1," has an empty second item, refused below.
    while (!body.empty()) {
        const std::size_t end = std::min(body.find(',', start), body.size());
        const std::string item = body.substr(start, end - start);
        const auto eq = item.find('=');
        if (item.empty())
            throw ValidationError(fmt::format("--event '{}': item {} is empty (a stray comma?); expected key=value", text,
                                              values.size() + 1));
        if (eq == std::string::npos || eq == 0)
            throw ValidationError(fmt::format("--event '{}': '{}' is not key=value", text, item));
        if (!values.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
            throw ValidationError(fmt::format("--event '{}': key '{}' is given twice", text, item.substr(0, eq)));
        if (end == body.size()) break;
        start = end + 1;
    }
    std::vector<std::string_view> kinds;
    for (const auto& [candidate, entry] : builders()) {
        kinds.push_back(to_string(candidate));
        if (to_string(candidate) != kind) continue;
        const Fields fields(text, kind, values);
        fields.allow_only(entry.first);
        event.mechanism = entry.second(fields);
        event.validate();
        return event;
    }
    throw ValidationError(
        fmt::format("--event '{}': unknown kind '{}'; allowed kinds: {}", text, kind, fmt::join(kinds, ", ")));
}

}  // namespace dpbo::cli
