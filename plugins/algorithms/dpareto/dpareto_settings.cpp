#include "dpareto_settings.hpp"

#include <cmath>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/errors.hpp"

namespace dpbo::dpareto {

namespace {

constexpr const char* kOwner = "algorithm 'dpareto'";

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream stream(text);
    std::string part;
    while (std::getline(stream, part, ',')) {
        const auto first = part.find_first_not_of(" \t");
        const auto last = part.find_last_not_of(" \t");
        parts.push_back(first == std::string::npos ? "" : part.substr(first, last - first + 1));
    }
    return parts;
}

std::vector<OutputTransform> transforms_from(const std::string& text) {
    std::vector<OutputTransform> transforms;
    for (const std::string& name : split(text)) {
        if (name == "log")
            transforms.push_back(OutputTransform::Log);
        else if (name == "logit")
            transforms.push_back(OutputTransform::Logit);
        else if (name == "identity")
            transforms.push_back(OutputTransform::Identity);
        else
            throw ValidationError(
                fmt::format("{}: output_transforms = '{}': '{}' is not a transform; expected two of "
                            "log, logit, identity separated by a comma (e.g. log,logit)",
                            kOwner, text, name));
    }
    if (transforms.size() != 2)
        throw ValidationError(
            fmt::format("{}: output_transforms = '{}' names {} transform(s); expected one per output "
                        "of the two (e.g. log,logit)",
                        kOwner, text, transforms.size()));
    return transforms;
}

}  // namespace

ParameterSchema schema() {
    // Paper: k₀ = 16 seed points and 256 iterations (Section 5, Table 2).
    ParameterSchema schema = bo_loop_schema(16 + 256, 16);
    add_batch_key(schema);
    schema
        .text("reference", std::string("10,1"),
              "the anti-ideal point v† in the objective's units, two numbers (paper: 10,1 for ε and error), used by "
              "the acquisition and for every reported hypervolume; or 'adaptive': the acquisition uses GPflowOpt's "
              "max(front) + 2·range/|front| on the modelled values (what the authors' code ran), while the reports "
              "still use 10,1")
        .text("distributions", std::nullopt,
              "how the k₀ seed points are drawn, as the random baseline draws them: 'NAME:KIND(ARGS); ...' with "
              "KIND uniform, normal(MEAN, STDDEV) or shifted-exponential(RATE, SHIFT), accepted inside the "
              "dimension's bounds (the paper's Tables 3-4); default: uniform on each dimension's scale")
        .choice("plateau", {"random", "acquisition"}, "random",
                "what to evaluate when no point the optimiser examined has a positive HVPoI (every predicted mean "
                "dominated: HVPoI is 0 there): random draws a point as the seed points are drawn (what GPflowOpt's "
                "random-candidate optimiser did in effect); acquisition keeps the optimiser's zero-score point, "
                "often an evaluated one again")
        .text("output_transforms", std::string("log,logit"),
              "what the GP of each output models: log (ε), logit (error, an output in [0, 1]) or identity")
        .real("logit_margin", {.fallback = 1e-6,
                               .lower = 0.0,
                               .upper = 0.5,
                               .lower_inclusive = false,
                               .upper_inclusive = false,
                               .doc = "a logit output is modelled at its value clamped to [c, 1 − c] (an error of "
                                      "exactly 0 or 1 has no logit); the front and reports keep the observed value"});
    return schema;
}

Settings settings_from(const ParameterSet& parameters) {
    Settings settings;
    settings.loop = bo_loop_settings(parameters);
    settings.batch = batch_setting(parameters);
    settings.random_on_plateau = parameters.text("plateau") == "random";
    settings.loop.output_transforms = transforms_from(parameters.text("output_transforms"));
    settings.loop.logit_margin = parameters.real("logit_margin");
    if (parameters.has("distributions")) settings.distributions = parameters.text("distributions");
    const std::string reference = parameters.text("reference");
    settings.reference = {10.0, 1.0};  // v† of the paper (Section 4), for the reports of an adaptive run
    if (reference == "adaptive") {
        settings.adaptive_reference = true;
    } else {
        const std::vector<std::string> parts = split(reference);
        if (parts.size() != 2)
            throw ValidationError(
                fmt::format("{}: reference = '{}'; expected two numbers separated by a comma (e.g. "
                            "10,1) or 'adaptive'",
                            kOwner, reference));
        for (std::size_t j = 0; j < 2; ++j) {
            std::size_t used = 0;
            double value = 0.0;
            try {
                value = std::stod(parts[j], &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != parts[j].size() || parts[j].empty() || !std::isfinite(value))
                throw ValidationError(
                    fmt::format("{}: reference = '{}': '{}' is not a finite number; expected two "
                                "numbers separated by a comma (e.g. 10,1) or 'adaptive'",
                                kOwner, reference, parts[j]));
            settings.reference(j) = value;
        }
    }
    settings.loop.reference = settings.reference;
    settings.loop.adaptive_reference = settings.adaptive_reference;
    return settings;
}

void check_against(const Settings& settings, const Objective& objective) {
    const std::vector<Output> outputs = objective.outputs();
    if (outputs.size() != 2) {
        std::vector<std::string> names;
        for (const Output& output : outputs) names.push_back(output.name);
        throw ValidationError(
            fmt::format("{} needs an objective with exactly 2 outputs (a privacy loss and an error); "
                        "{} declares {}: {}",
                        kOwner, objective.describe_origin(), outputs.size(), fmt::join(names, ", ")));
    }
    for (std::size_t j = 0; j < 2; ++j) {
        const double r = settings.reference(j);
        const OutputTransform transform = settings.loop.output_transforms[j];
        const bool minimised = outputs[j].sense == Sense::Minimise;
        bool fits = std::isfinite(r);
        std::string expected = "finite";
        if (transform == OutputTransform::Log) {
            fits = fits && r > 0.0;
            expected = "finite and > 0 (the log output's values are)";
        } else if (transform == OutputTransform::Logit) {
            fits = fits && (minimised ? r > 0.0 && r <= 1.0 : r >= 0.0 && r < 1.0);
            expected = minimised ? "in (0, 1]: worse than the best error 0" : "in [0, 1): worse than the best value 1";
        }
        if (!fits)
            throw ValidationError(
                fmt::format("{}: reference = {},{}: entry {} for output '{}' ({}, {} transform) is "
                            "{}; expected {}",
                            kOwner, settings.reference(0), settings.reference(1), j, outputs[j].name,
                            to_string(outputs[j].sense), to_string(transform), r, expected));
    }
}

}  // namespace dpbo::dpareto
