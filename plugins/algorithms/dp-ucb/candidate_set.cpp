#include "candidate_set.hpp"

#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bounded_input.hpp"
#include "dp_ucb_settings.hpp"
#include "dpbo/bo/acquisition_optimiser.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"
#include "memory_bound.hpp"

namespace dpbo::dp_ucb {

namespace {

// Data files are read line by line; a longer line is not a candidate file (README: data files).
constexpr std::size_t kMaxLineBytes = 1u << 20;

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r");
    return text.substr(first, last - first + 1);
}

// The memory Λ costs over T observations: the posterior's |Λ| × T factor, Λ itself and a few
// |Λ|-vectors (mean, variance, scores).
void require_memory(std::size_t count, std::size_t dim, std::size_t budget, const std::string& setting) {
    const double bytes = static_cast<double>(count) * static_cast<double>(budget + dim + 6) * sizeof(double);
    dpbo::memory::require(
        kOwner, setting, bytes,
        fmt::format("the posterior over |Λ| candidates holds |Λ| × (T + d + 6) doubles, T = {}", budget));
}

}  // namespace

arma::mat read_candidate_csv(const std::string& path, const dpbo::SearchSpace& space) {
    const std::size_t dim = space.dim();
    const bounded_input::InputFile file(
        path, {fmt::format("{}: candidates file '{}'", kOwner, path),
               "'objective', 'grid', 'quasi-random' or a CSV file of candidates, one a line", kMaxLineBytes});
    bounded_input::LineReader lines(file.fd(),
                                    {fmt::format("{}: candidates file '{}'", kOwner, path),
                                     "one candidate a line, its coordinates separated by commas", kMaxLineBytes});
    const arma::rowvec lower = space.lower();
    const arma::rowvec upper = space.upper();
    std::vector<double> values;
    for (std::string line; lines.next(line);) {
        const std::size_t line_number = lines.line_number();
        const auto where = [&] { return fmt::format("{}: candidates file '{}', line {}", kOwner, path, line_number); };
        const std::string_view content = trim(line);
        if (content.empty() || content.front() == '#') continue;
        std::size_t column = 0;
        std::size_t start = 0;
        while (true) {
            const std::size_t comma = content.find(',', start);
            const std::string_view field =
                trim(content.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
            double value = 0.0;
            const auto [end, status] = std::from_chars(field.data(), field.data() + field.size(), value);
            if (field.empty() || status != std::errc() || end != field.data() + field.size() || !std::isfinite(value))
                throw dpbo::ValidationError(
                    fmt::format("{}, column {}: '{}' is not a finite number", where(), column + 1, field));
            if (column < dim && (value < lower(column) || value > upper(column)))
                throw dpbo::ValidationError(fmt::format("{}, column {}: {} lies outside the objective's box [{}, {}]",
                                                        where(), column + 1, value, lower(column), upper(column)));
            values.push_back(value);
            ++column;
            if (comma == std::string_view::npos) break;
            start = comma + 1;
        }
        if (column != dim)
            throw dpbo::ValidationError(fmt::format("{}: {} column{}; the objective's space has dimension {}", where(),
                                                    column, column == 1 ? "" : "s", dim));
    }
    if (values.empty())
        throw dpbo::ValidationError(fmt::format("{}: candidates file '{}' holds no candidate", kOwner, path));
    // Filled row by row: transpose of the d × |Λ| column-major layout.
    return arma::mat(values.data(), dim, values.size() / dim).t();
}

CandidateSet build_candidate_set(const DpUcbSettings& s, const dpbo::Objective& objective) {
    const dpbo::SearchSpace& space = objective.space();
    const std::size_t dim = space.dim();
    CandidateSet set;
    if (s.candidates == "objective") {
        if (!space.is_finite())
            throw dpbo::ValidationError(fmt::format(
                "{}: candidates = objective needs an objective with a finite set of points, but its space is a "
                "box; set candidates to grid, quasi-random or the path of a CSV file",
                kOwner));
        // The rows come with their status. Sensitive rows as Λ would make λ̃ a row of the data, released as
        // it is, and γ_T, the Laplace scale and |Λ| figures of the data, all stated without noise; the
        // guarantee (Kusner et al. 2015) holds for a Λ fixed independently of the data only.
        const dpbo::CandidateRows candidates = dpbo::require<dpbo::FiniteCandidates>(objective, kOwner).candidates();
        if (candidates.sensitive())
            throw dpbo::ValidationError(fmt::format(
                "{}: algorithm.candidates = objective would make Λ the rows of {}, which are sensitive data: λ̃ "
                "would be one of them, released as it is, and the statement's γ_T, Laplace scale and candidate "
                "count would be computed from them, while the guarantee assumes Λ fixed independently of the "
                "data. Search such rows with po-gp-ucb (its curator releases them privately first) or over rows "
                "already released (--objective curator)",
                kOwner, objective.describe_origin()));
        require_memory(candidates.rows.n_rows, dim, s.budget, "the objective's candidate set");
        set.rows = candidates.rows;
        set.description = fmt::format("the objective's own finite set of {} points", set.rows.n_rows);
        return set;
    }
    if (space.is_finite())
        throw dpbo::ValidationError(fmt::format(
            "{}: candidates = {} is for objectives over a box, but this objective's space is a finite set of {} "
            "points; use candidates = objective",
            kOwner, s.candidates, space.candidate_rows().n_rows));
    if (s.candidates == "grid") {
        const double count = std::pow(static_cast<double>(s.per_dimension), static_cast<double>(dim));
        require_memory(static_cast<std::size_t>(std::min(count, 1e18)), dim, s.budget,
                       fmt::format("per_dimension = {} in {} dimensions", s.per_dimension, dim));
        set.rows = space.grid(s.per_dimension);
        set.description = fmt::format("a grid of {} points per dimension over the objective's box ({} points)",
                                      s.per_dimension, set.rows.n_rows);
    } else if (s.candidates == "quasi-random") {
        require_memory(s.candidate_count, dim, s.budget, fmt::format("candidate_count = {}", s.candidate_count));
        // Its own generator, seeded by a public setting: Λ is the same for every dataset.
        dpbo::ExperimentRng rng(s.candidate_seed);
        set.rows = space.from_unit(dpbo::halton_points(s.candidate_count, dim, rng));
        set.description = fmt::format("{} randomly shifted Halton points over the objective's box (candidate_seed {})",
                                      s.candidate_count, s.candidate_seed);
    } else {
        set.rows = read_candidate_csv(s.candidates, space);
        require_memory(set.rows.n_rows, dim, s.budget, fmt::format("candidates file '{}'", s.candidates));
        set.description = fmt::format("the {} candidates of file '{}'", set.rows.n_rows, s.candidates);
    }
    return set;
}

}  // namespace dpbo::dp_ucb
