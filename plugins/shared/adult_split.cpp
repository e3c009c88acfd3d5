#include "adult_split.hpp"

#include <fmt/format.h>

#include "shipped_data.hpp"

namespace dpbo::plugin_data {

std::string data_path(const ParameterSet& parameters, const std::string& file_key, const std::string& shipped_name,
                      const std::string& owner) {
    return parameters.has(file_key)
               ? parameters.text(file_key)
               : shipped_data_file(shipped_name, owner, fmt::format("set {} to a LIBSVM file", file_key));
}

void add_adult_split_parameters(ParameterSchema& schema, std::int64_t least_training_rows) {
    schema
        .integer("training_records", {.fallback = 32561,
                                      .lower = least_training_rows,
                                      .unit = "rows",
                                      .doc = "first rows of the training file used (a9a: 32561)"})
        .integer(
            "test_records",
            {.fallback = 16281, .lower = 1, .unit = "rows", .doc = "first rows of the test file used (a9a.t: 16281)"})
        .text("training_file", std::nullopt, "LIBSVM training file (default: the shipped a9a)")
        .text("test_file", std::nullopt, "LIBSVM test file (default: the shipped a9a.t)");
}

AdultSplit load_adult_split(const ParameterSet& parameters, const std::string& owner) {
    const auto training_rows = static_cast<std::size_t>(parameters.integer("training_records"));
    const auto test_rows = static_cast<std::size_t>(parameters.integer("test_records"));
    const std::string training_path = data_path(parameters, "training_file", "a9a.gz", owner);
    const std::string test_path = data_path(parameters, "test_file", "a9a.t.gz", owner);
    AdultSplit split;
    split.training =
        read_libsvm(training_path, "training_file", training_rows, "training_records", kAdultFeatures, owner);
    split.test = read_libsvm(test_path, "test_file", test_rows, "test_records", kAdultFeatures, owner);
    scale_to_unit_norm(split.training, kAdultSquaredNormBound, training_path, owner);
    scale_to_unit_norm(split.test, kAdultSquaredNormBound, test_path, owner);
    split.description = fmt::format(
        "LIBSVM a9a (UCI Adult, rows scaled by the public bound 1/√14): the learner trains on {} rows of {} (the "
        "private data, one person per row) and is tested on {} rows of {}",
        training_rows, parameters.has("training_file") ? training_path : "a9a", test_rows,
        parameters.has("test_file") ? test_path : "a9a.t");
    return split;
}

}  // namespace dpbo::plugin_data
