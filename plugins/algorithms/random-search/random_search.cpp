// Random search: draws from the objective's space — uniform, or per-dimension distributions such as
// DPareto's Tables 3–4 — the baseline every comparison needs.
// The points never depend on observed values, so a single privatised release of all k values
// (see search_release) makes the best point private as post-processing.
#include <cstddef>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "memory_bound.hpp"
#include "search_memory.hpp"
#include "sampling_distributions.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/bo/search_release.hpp"
#include "dpbo/space.hpp"

namespace {

constexpr const char* kOwner = "algorithm 'random-search'";

class RandomSearch final : public dpbo::Algorithm {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema
            .integer("budget",
                     {.fallback = 50, .lower = 1, .unit = "evaluations", .doc = "number of points drawn and evaluated"})
            .integer("batch", {.fallback = 10,
                               .lower = 1,
                               .unit = "points",
                               .doc = "points per evaluation call (one trace row each)"})
            .text("distributions", std::nullopt,
                  "per-dimension sampling distributions, 'NAME:KIND(ARGS); ...' with KIND uniform, "
                  "normal(MEAN, STDDEV) or shifted-exponential(RATE, SHIFT), each accepted only inside the "
                  "dimension's bounds and rounded when integer (DPareto, Tables 3-4); unnamed dimensions "
                  "and the default: uniform on the dimension's scale")
            .real_list("reference", std::nullopt,
                       "objectives with two outputs: the reference (anti-ideal) point, in the outputs' units, "
                       "for the front's exact hypervolume after every batch (DPareto: 10, 1)")
            .real("value_sensitivity", {.lower = 0.0,
                                        .lower_inclusive = false,
                                        .doc = "most one objective value can change when one record is replaced; "
                                               "required with a mechanism, refused without one"});
        return schema;
    }

    explicit RandomSearch(const dpbo::ParameterSet& parameters)
        : budget_(static_cast<std::size_t>(parameters.integer("budget"))),
          batch_(static_cast<std::size_t>(parameters.integer("batch"))),
          distributions_(parameters.has("distributions") ? std::optional<std::string>(parameters.text("distributions"))
                                                         : std::nullopt),
          reference_(parameters.has("reference")
                         ? std::optional<arma::rowvec>(arma::rowvec(parameters.real_list("reference")))
                         : std::nullopt),
          value_sensitivity_(parameters.has("value_sensitivity")
                                 ? std::optional<double>(parameters.real("value_sensitivity"))
                                 : std::nullopt) {}

    std::vector<dpbo::Role> roles() const override {
        return {{.name = "mechanism",
                 .kind = dpbo::ModuleKind::Mechanism,
                 .doc = "privatises the released values; without one nothing is private"}};
    }

    dpbo::RunResult run(dpbo::RunContext& context) override {
        const dpbo::SearchSpace& space = context.objective.space();
        // Without a mechanism the search keeps only its best point so far: only the trace (a row per
        // batch) grows with the budget. A mechanism releases all the values at once, so it keeps them all.
        const bool is_private = context.role<dpbo::Mechanism>("mechanism") != nullptr;
        dpbo::memory::require(kOwner,
                              fmt::format("budget = {} in {} dimensions with batch = {}{}", budget_, space.dim(),
                                          batch_, is_private ? " and a mechanism" : ""),
                              dpbo::memory::search_bytes({.points = static_cast<double>(budget_),
                                                          .batch = static_cast<double>(batch_),
                                                          .dim = static_cast<double>(space.dim()),
                                                          .keeps_every_point = is_private,
                                                          .released_numbers_per_point = is_private ? 1.0 : 0.0}),
                              is_private
                                  ? "a mechanism releases all the values at once, so every point and value is kept"
                                  : "one batch at a time, and a trace row per batch");
        dpbo::ExperimentRng& rng = context.rng;
        // Parsed before the first evaluation, so a bad specification costs nothing.
        std::optional<dpbo::sampling::Distributions> distributions;
        if (distributions_) distributions.emplace(space, *distributions_, fmt::format("{}: distributions", kOwner));
        return dpbo::run_data_independent_search(
            context, {.owner = kOwner,
                      .point_count = budget_,
                      .batch_size = batch_,
                      .points =
                          [&space, &rng, &distributions](std::size_t /*first*/, std::size_t count) {
                              return distributions ? distributions->sample(count, rng) : space.sample(count, rng);
                          },
                      .value_sensitivity = value_sensitivity_,
                      .completion_reason = "budget",
                      .reference = reference_});
    }

private:
    std::size_t budget_;
    std::size_t batch_;
    std::optional<std::string> distributions_;
    std::optional<arma::rowvec> reference_;
    std::optional<double> value_sensitivity_;
};

}  // namespace

DPBO_PLUGIN(RandomSearch, "random-search", "1.0.0",
            "random search over a box (uniform or per-dimension distributions) or a candidate set; best "
            "point (one output) or Pareto front (several) released, "
            "privately when a mechanism is attached",
            "Bergstra & Bengio (2012), JMLR 13; Avent et al. (2020), §4.3 and Tables 3-4")
