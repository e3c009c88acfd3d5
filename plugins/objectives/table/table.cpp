// Any user CSV of rows and a response as a maximised objective over its rows: PO-GP-UCB's curator
// data in general. The feature columns come with the ranges the data owner declares for them, from
// which a row release scales the rows (never from the rows themselves).
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "table_rows.hpp"

namespace {

constexpr const char* kOwner = "objective 'table'";

std::vector<std::string> split_names(const std::string& text) {
    std::vector<std::string> names;
    std::string current;
    for (const char c : text + ",") {
        if (c == ',') {
            if (current.empty())
                throw dpbo::ValidationError(
                    fmt::format("{}: columns = '{}' has an empty name; expected names separated "
                                "by commas",
                                kOwner, text));
            if (std::find(names.begin(), names.end(), current) != names.end())
                throw dpbo::ValidationError(
                    fmt::format("{}: columns = '{}' names '{}' twice; expected each feature "
                                "column once",
                                kOwner, text, current));
            names.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    return names;
}

// The schema has no required text parameter, so the four a table cannot do without are checked here,
// all at once, rather than one "optional and not given" at a time.
void require_keys(const dpbo::ParameterSet& p) {
    std::vector<std::string> missing;
    for (const char* key : {"file", "columns", "response", "bounds"})
        if (!p.has(key)) missing.emplace_back(key);
    if (!missing.empty())
        throw dpbo::ValidationError(fmt::format(
            "{}: {} not given; a table needs file (the CSV), columns (its feature columns), response (its response "
            "column) and bounds (lo:hi per feature column, the ranges the data owner declares)",
            kOwner, fmt::join(missing, ", ")));
}

dpbo::plugin_data::TableSpec spec_from(const dpbo::ParameterSet& p) {
    require_keys(p);
    dpbo::plugin_data::TableSpec spec;
    spec.owner = kOwner;
    spec.setting = "file";
    spec.file = p.text("file");
    const std::vector<std::string> names = split_names(p.text("columns"));
    spec.features = dpbo::plugin_data::parse_bounds(p.text("bounds"), names, kOwner, "bounds");
    spec.response = p.text("response");
    spec.transform = p.text("transform") == "log" ? dpbo::plugin_data::ResponseTransform::Log
                                                  : dpbo::plugin_data::ResponseTransform::None;
    const std::string delimiter = p.text("delimiter");
    if (delimiter.size() != 1)
        throw dpbo::ValidationError(fmt::format("{}: delimiter = '{}'; expected one character", kOwner, delimiter));
    spec.delimiter = delimiter[0];
    spec.drop_unusable = p.text("unusable") == "drop";
    spec.columns_key = "columns";
    spec.response_key = "response";
    spec.drop_key = "unusable";
    return spec;
}

class Table final : public dpbo::plugin_data::TableObjective {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema
            .text("file", std::nullopt,
                  "required: CSV file (plain or gzip) with a header line; one row per individual; a field may be "
                  "quoted (\"a,b\", a quote inside written \"\")")
            .text("columns", std::nullopt,
                  "required: the feature columns, by header name, comma-separated (e.g. income,age); a row is "
                  "addressed by its features, so of rows whose features repeat (after clipping) the first is kept "
                  "and the others are dropped, counted under reference values (rows_duplicated)")
            .text("response", std::nullopt, "required: the response column, by header name: the value a row is worth")
            .text("bounds", std::nullopt,
                  "required: lo:hi per feature column, comma-separated: the ranges the data owner declares, "
                  "independently of the data (a row release scales from them); values outside are clipped to them, "
                  "counted under reference values (rows_clipped)")
            .choice("transform", {"none", "log"}, "none",
                    "the response as read, or its logarithm (PO-GP-UCB's real "
                    "datasets are log-transformed)")
            .choice("unusable", {"refuse", "drop"}, "refuse",
                    "a row with NA or an empty field in a used column, or a response ≤ 0 under transform = log: "
                    "refuse the file naming the line, or drop the row (counted under reference values)")
            .text("delimiter", ",", "the field separator, one character");
        dpbo::add_noise_parameter(schema);
        return schema;
    }

    explicit Table(const dpbo::ParameterSet& p) : Table(spec_from(p), p.real("noise_stddev")) {}

private:
    Table(const dpbo::plugin_data::TableSpec& spec, double noise)
        : TableObjective(
              dpbo::plugin_data::read_table(spec), spec.features, noise, kOwner,
              fmt::format("rows of {} (features {}; response {}{})", spec.file, describe_features(spec), spec.response,
                          spec.transform == dpbo::plugin_data::ResponseTransform::Log ? ", log" : "")) {}

    static std::string describe_features(const dpbo::plugin_data::TableSpec& spec) {
        std::vector<std::string> parts;
        for (const auto& f : spec.features)
            parts.push_back(fmt::format("{} in [{:g}, {:g}]", f.name, f.lower, f.upper));
        return fmt::format("{}", fmt::join(parts, ", "));
    }
};

}  // namespace

DPBO_PLUGIN(Table, "table", "1.0.0",
            "any CSV of rows and a response, maximised over its rows (PO-GP-UCB's curator data); declared column "
            "bounds",
            "Kharkovskii, Dai & Low (2020), §2 (the curator's dataset)")
