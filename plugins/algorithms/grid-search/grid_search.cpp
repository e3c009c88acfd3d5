// Grid search: a full factorial grid over a box, or every row of a finite candidate set. Like
// random search its points never depend on observed values, so it shares the release in
// search_release: one privatised release of all k values, the best point as post-processing.
// The grid is enumerated a batch at a time, never held whole: without a mechanism a grid of any
// size runs in the memory of one batch.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/bo/front_figures.hpp"
#include "dpbo/bo/search_release.hpp"
#include "dpbo/space.hpp"
#include "memory_bound.hpp"
#include "search_memory.hpp"

namespace {

constexpr const char* kOwner = "algorithm 'grid-search'";
// The most points a grid may have, as SearchSpace::grid allows; stated in the schema, so that
// max_points above it is refused by name before anything runs.
constexpr std::int64_t kLargestGrid = 50'000'000;

class GridSearch final : public dpbo::Algorithm {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema
            .integer("per_dimension", {.fallback = 7,
                                       .lower = 2,
                                       .unit = "levels",
                                       .doc = "grid levels per box dimension (not for finite candidate sets, "
                                              "whose rows are all evaluated)"})
            .integer("max_points", {.fallback = 100'000,
                                    .lower = 1,
                                    .upper = kLargestGrid,
                                    .unit = "evaluations",
                                    .doc = "refuse a grid with more points than this"})
            .integer("batch", {.fallback = 10,
                               .lower = 1,
                               .unit = "points",
                               .doc = "points per evaluation call (one trace row each)"})
            .real_list("reference", std::nullopt,
                       "objectives with two outputs: the reference (anti-ideal) point, in the outputs' units, "
                       "for the front's exact hypervolume after every batch (DPareto: 10, 1)")
            .real("value_sensitivity", {.lower = 0.0,
                                        .lower_inclusive = false,
                                        .doc = "most one objective value can change when one record is replaced; "
                                               "required with a mechanism, refused without one"});
        return schema;
    }

    explicit GridSearch(const dpbo::ParameterSet& parameters)
        : per_dimension_(static_cast<std::size_t>(parameters.integer("per_dimension"))),
          per_dimension_given_(parameters.given_by_user("per_dimension")),
          max_points_(static_cast<std::size_t>(parameters.integer("max_points"))),
          batch_(static_cast<std::size_t>(parameters.integer("batch"))),
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
        const std::size_t point_count = grid_size(space);
        check_memory(context, point_count);
        dpbo::RunResult result = dpbo::run_data_independent_search(
            context, {.owner = kOwner,
                      .point_count = point_count,
                      .batch_size = batch_,
                      .points = [this, &space](std::size_t first, std::size_t count) -> arma::mat {
                          return grid_rows(space, first, count);
                      },
                      .value_sensitivity = value_sensitivity_,
                      .completion_reason = "grid complete",
                      .reference = reference_});
        // Over two outputs, a fine grid's front stands for the exact one: the report's key says so.
        result.figures =
            dpbo::front_figures(context.objective.outputs(),
                                "grid-search — a fine grid stands for the near-exact front", reference_.has_value());
        return result;
    }

private:
    // Points first … first+count−1 of the grid, the very rows (bit for bit) of SearchSpace::grid:
    // point i's level in dimension j is digit j of i in base per_dimension, lowest first.
    arma::mat grid_rows(const dpbo::SearchSpace& space, std::size_t first, std::size_t count) const {
        if (space.is_finite()) return space.candidate_rows().rows(first, first + count - 1);
        arma::mat unit(count, space.dim());
        for (std::size_t i = 0; i < count; ++i) {
            std::size_t index = first + i;
            for (std::size_t j = 0; j < space.dim(); ++j) {
                unit(i, j) = static_cast<double>(index % per_dimension_) / static_cast<double>(per_dimension_ - 1);
                index /= per_dimension_;
            }
        }
        return space.from_unit(unit);
    }

    // Refused before the first evaluation, naming the keys that make it large; a grid without a
    // mechanism holds one batch at a time, so only the trace (a row per batch) grows with it.
    void check_memory(const dpbo::RunContext& context, std::size_t point_count) const {
        const dpbo::SearchSpace& space = context.objective.space();
        const bool is_private = context.role<dpbo::Mechanism>("mechanism") != nullptr;
        const std::string size = space.is_finite() ? fmt::format("the finite set's {} candidates", point_count)
                                                   : fmt::format("per_dimension = {} in {} dimensions ({} points)",
                                                                 per_dimension_, space.dim(), point_count);
        dpbo::memory::require(kOwner,
                              fmt::format("{} with batch = {}{}", size, batch_, is_private ? " and a mechanism" : ""),
                              dpbo::memory::search_bytes({.points = static_cast<double>(point_count),
                                                          .batch = static_cast<double>(batch_),
                                                          .dim = static_cast<double>(space.dim()),
                                                          .keeps_every_point = is_private,
                                                          .released_numbers_per_point = is_private ? 1.0 : 0.0}),
                              is_private ? "a mechanism releases all the values at once, so every point and value "
                                           "is kept"
                                         : "one batch at a time, and a trace row per batch");
    }

    std::size_t grid_size(const dpbo::SearchSpace& space) const {
        if (space.is_finite()) {
            const std::size_t rows = space.candidate_rows().n_rows;
            if (per_dimension_given_) {
                throw dpbo::ValidationError(
                    fmt::format("{}: per_dimension = {} applies to boxes only; the objective's space is a "
                                "finite set of {} candidates, all of which are evaluated — remove "
                                "per_dimension",
                                kOwner, per_dimension_, rows));
            }
            if (rows > max_points_) {
                throw dpbo::ValidationError(
                    fmt::format("{}: the objective's finite set has {} candidates, more than max_points = {}; "
                                "raise max_points (at most {})",
                                kOwner, rows, max_points_, kLargestGrid));
            }
            return rows;
        }
        const std::size_t dim = space.dim();
        if (!fits(dim)) {
            throw dpbo::ValidationError(fmt::format(
                "{}: per_dimension = {} in {} dimensions gives {}^{} = {} grid points, more "
                "than max_points = {}; lower per_dimension or raise max_points (at most {})",
                kOwner, per_dimension_, dim, per_dimension_, dim, grid_size_text(dim), max_points_, kLargestGrid));
        }
        std::size_t size = 1;
        for (std::size_t i = 0; i < dim; ++i) size *= per_dimension_;
        return size;
    }

    // per_dimension^dim ≤ max_points, multiplied out with an early exit so it cannot overflow.
    bool fits(std::size_t dim) const {
        std::size_t size = 1;
        for (std::size_t i = 0; i < dim; ++i) {
            if (size > max_points_ / per_dimension_) return false;
            size *= per_dimension_;
        }
        return true;
    }

    // Exact while a double holds the integer exactly (below 2^53), scientific beyond.
    std::string grid_size_text(std::size_t dim) const {
        const double size = std::pow(static_cast<double>(per_dimension_), static_cast<double>(dim));
        return size < 0x1p53 ? fmt::format("{:.0f}", size) : fmt::format("{:.3e}", size);
    }

    std::size_t per_dimension_;
    bool per_dimension_given_;
    std::size_t max_points_;
    std::size_t batch_;
    std::optional<arma::rowvec> reference_;
    std::optional<double> value_sensitivity_;
};

}  // namespace

DPBO_PLUGIN(GridSearch, "grid-search", "1.0.0",
            "full factorial grid over a box (or every candidate of a finite set); best point "
            "released, privately when a mechanism is attached",
            "the grid-search baseline of DPareto (Avent et al. 2020), §4.3")
