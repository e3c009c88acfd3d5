#include "table_rows.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <set>
#include <system_error>
#include <unordered_set>

#include <fmt/format.h>

#include "data_file_lines.hpp"
#include "shipped_data.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/parameters.hpp"

namespace dpbo::plugin_data {

std::vector<std::string> split_csv_fields(const std::string& line, char delimiter, const std::string& where) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == delimiter) {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    if (quoted)
        throw ValidationError(
            fmt::format("{}: a quote opened in field {} is never closed; expected \"...\" around "
                        "a field (a quote inside one written \"\")",
                        where, fields.size()));
    for (auto& field : fields) {
        const auto first = field.find_first_not_of(" \t");
        const auto last = field.find_last_not_of(" \t");
        field = first == std::string::npos ? "" : field.substr(first, last - first + 1);
    }
    return fields;
}

std::optional<double> finite_number(const std::string& text) {
    double value = 0.0;
    const auto* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
    return value;
}

std::vector<Dimension> parse_bounds(const std::string& text, const std::vector<std::string>& names,
                                    const std::string& owner, const std::string& key) {
    std::vector<std::string> pairs;
    std::string current;
    for (const char c : text + ",") {
        if (c == ',') {
            pairs.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (pairs.size() != names.size())
        throw ValidationError(
            fmt::format("{}: {} = '{}' gives {} ranges for the {} columns ({}); expected one lo:hi "
                        "per column",
                        owner, key, text, pairs.size(), names.size(), fmt::join(names, ", ")));
    std::vector<Dimension> bounds;
    for (std::size_t j = 0; j < pairs.size(); ++j) {
        const auto colon = pairs[j].find(':');
        const auto lo = colon == std::string::npos ? std::nullopt : finite_number(pairs[j].substr(0, colon));
        const auto hi = colon == std::string::npos ? std::nullopt : finite_number(pairs[j].substr(colon + 1));
        if (!lo || !hi || *lo >= *hi)
            throw ValidationError(
                fmt::format("{}: {} has '{}' for column '{}'; expected lo:hi with finite lo < hi "
                            "(the range the data owner declares for it, not read from the data)",
                            owner, key, pairs[j], names[j]));
        bounds.push_back({names[j], *lo, *hi});
    }
    return bounds;
}

void add_shipped_table_parameters(ParameterSchema& schema, const std::string& data_file_doc) {
    schema.text("data_file", std::nullopt, data_file_doc);
    add_noise_parameter(schema);
}

std::string shipped_or_given_file(const ParameterSet& parameters, const std::string& shipped,
                                  const std::string& owner) {
    if (parameters.has("data_file")) return parameters.text("data_file");
    return shipped_data_file(shipped, owner, "set data_file to a copy in the same schema");
}

TableRows read_table(const TableSpec& spec) {
    // A path the user gave that is not there is a mistake in the configuration, not a failed run.
    std::error_code error;
    if (!std::filesystem::exists(spec.file, error))
        throw ValidationError(fmt::format("{}: {} = '{}': no such file; expected a CSV file with a header line",
                                          spec.owner, spec.setting, spec.file));
    DataFileLines lines(spec.file, {spec.owner, spec.setting, "a CSV file with a header line"});
    std::string line;
    const auto where = [&](std::size_t number) {
        return fmt::format("{}: {} '{}' line {}", spec.owner, spec.setting, spec.file, number);
    };
    if (!lines.next(line))
        throw ValidationError(
            fmt::format("{}: {} '{}' is empty; expected a header line", spec.owner, spec.setting, spec.file));
    const std::vector<std::string> header = split_csv_fields(line, spec.delimiter, where(1));
    // `key` is the parameter that named the column; empty when the objective's own schema needs it.
    const auto column_of = [&](const std::string& name, const std::string& key) {
        const auto found = std::find(header.begin(), header.end(), name);
        if (found == header.end()) {
            // A name differing only in case is the likeliest slip (Income for income); else the nearest.
            const auto same_letters = std::find_if(header.begin(), header.end(), [&](const std::string& h) {
                return std::equal(h.begin(), h.end(), name.begin(), name.end(), [](char x, char y) {
                    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
                });
            });
            const auto near =
                same_letters != header.end() ? std::optional<std::string>(*same_letters) : closest_match(name, header);
            const std::string asked =
                key.empty() ? fmt::format("needs a column '{}'", name) : fmt::format("{} names column '{}'", key, name);
            throw ValidationError(fmt::format(
                "{}: {}, but the header (line 1) of {} '{}' has none{}; its columns: {} "
                "(delimiter '{}')",
                spec.owner, asked, spec.setting, spec.file, near ? fmt::format(" (did you mean '{}'?)", *near) : "",
                fmt::join(header, ", "), spec.delimiter));
        }
        return static_cast<std::size_t>(found - header.begin());
    };
    std::vector<std::size_t> feature_columns;
    for (const auto& f : spec.features) feature_columns.push_back(column_of(f.name, spec.columns_key));
    const std::size_t response_column = column_of(spec.response, spec.response_key);
    // A plain index (npos: no divisor) rather than an optional, which GCC's -Wmaybe-uninitialized misreads.
    const std::size_t divisor_column =
        spec.response_divisor.empty() ? std::string::npos : column_of(spec.response_divisor, "");

    TableRows out;
    std::vector<double> values;
    std::vector<double> responses;
    std::unordered_set<std::string> seen;
    const std::size_t d = spec.features.size();
    while (lines.next(line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const std::vector<std::string> fields = split_csv_fields(line, spec.delimiter, where(lines.line_number()));
        if (fields.size() != header.size())
            throw ValidationError(fmt::format("{} has {} fields; the header has {}", where(lines.line_number()),
                                              fields.size(), header.size()));
        // The features, the response and its divisor as numbers; nullopt for NA or an empty field.
        const auto read = [&](std::size_t column) -> std::optional<double> {
            const std::string& text = fields[column];
            if (text.empty() || text == "NA") {
                if (spec.drop_unusable) return std::nullopt;
                const std::string hint =
                    spec.drop_key.empty() ? "" : fmt::format(" (set {} = drop to drop such rows)", spec.drop_key);
                throw ValidationError(fmt::format("{}, column '{}': {} where a number was expected{}",
                                                  where(lines.line_number()), header[column],
                                                  text.empty() ? "an empty field" : "'NA'", hint));
            }
            const auto value = finite_number(text);
            if (!value)
                throw ValidationError(fmt::format("{}, column '{}': '{}' is not a finite number",
                                                  where(lines.line_number()), header[column], text));
            return value;
        };
        const auto unusable = [&](const std::string& why) {
            if (!spec.drop_unusable) throw ValidationError(fmt::format("{}: {}", where(lines.line_number()), why));
            ++out.dropped;
        };
        arma::rowvec row(d);
        bool missing = false;
        bool clipped = false;
        for (std::size_t j = 0; j < d; ++j) {
            const auto value = read(feature_columns[j]);
            if (!value) {
                missing = true;
                break;
            }
            row(j) = std::clamp(*value, spec.features[j].lower, spec.features[j].upper);
            clipped = clipped || row(j) != *value;
        }
        std::optional<double> response = missing ? std::nullopt : read(response_column);
        if (response && divisor_column != std::string::npos) {
            const auto divisor = read(divisor_column);
            if (!divisor) {
                response.reset();
            } else if (!(*divisor > 0.0)) {
                // A ratio over a non-positive amount (nothing funded) is no return.
                unusable(fmt::format("column '{}' is {}; expected > 0 to divide the response", spec.response_divisor,
                                     *divisor));
                continue;
            } else {
                *response /= *divisor;
            }
        }
        if (!response) {
            ++out.dropped;
            continue;
        }
        if (spec.transform == ResponseTransform::Log) {
            if (!(*response > 0.0)) {
                unusable(
                    fmt::format("column '{}': the response {} has no logarithm (transform = log needs responses "
                                "> 0){}",
                                spec.response, *response,
                                spec.drop_key.empty() || spec.drop_unusable
                                    ? std::string()
                                    : fmt::format("; set {} = drop to drop such rows", spec.drop_key)));
                continue;
            }
            *response = std::log(*response);
        }
        if (!seen.insert(released_rows::row_key(row)).second) {
            ++out.duplicates;
            continue;
        }
        out.clipped += clipped ? 1 : 0;
        values.insert(values.end(), row.begin(), row.end());
        responses.push_back(*response);
    }
    if (responses.empty())
        throw ValidationError(fmt::format("{}: {} '{}' has no usable row", spec.owner, spec.setting, spec.file));
    out.rows = arma::mat(values.data(), d, responses.size()).t();
    out.responses = arma::vec(responses);
    return out;
}

TableObjective::TableObjective(TableRows table, std::vector<Dimension> features, double noise_stddev, std::string owner,
                               std::string description, Sense sense)
    : space_(SearchSpace::candidates_within(table.rows, std::move(features))),
      responses_(std::move(table.responses)),
      index_(table.rows),
      noise_stddev_(noise_stddev),
      owner_(std::move(owner)),
      description_(std::move(description)),
      sense_(sense),
      clipped_(table.clipped),
      dropped_(table.dropped),
      duplicates_(table.duplicates) {}

Evaluations TableObjective::evaluate(const arma::mat& points, const EvaluationRequest& request) {
    if (request.per_record)
        throw ValidationError(fmt::format("{}: per-record values were asked; a row has one response", owner_));
    Evaluations evaluations;
    evaluations.points = points;
    evaluations.candidate_rows = index_.rows_of(points, owner_);
    evaluations.values = responses_.elem(evaluations.candidate_rows);
    return evaluations;
}

std::optional<KnownOptimum> TableObjective::known_optimum() const {
    const double optimum = sense_ == Sense::Maximise ? responses_.max() : responses_.min();
    const arma::uvec best = arma::find(responses_ == optimum);
    return KnownOptimum{optimum, space_.candidate_rows().rows(best)};
}

std::vector<ReleasedValue> TableObjective::reference_values() const {
    return {{"rows", "rows kept", arma::mat{static_cast<double>(responses_.n_elem)}},
            {"rows_clipped", "rows with a feature clipped to its declared bounds",
             arma::mat{static_cast<double>(clipped_)}},
            {"rows_dropped", "rows dropped as unusable (NA, or a response with no logarithm)",
             arma::mat{static_cast<double>(dropped_)}},
            {"rows_duplicated", "rows dropped because their features repeat an earlier row's",
             arma::mat{static_cast<double>(duplicates_)}}};
}

}  // namespace dpbo::plugin_data
