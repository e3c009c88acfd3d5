#pragma once
// LIBSVM a9a (UCI Adult), as DPareto's Adult oracles read it: the training split (the learner's
// private data) and the test split, both shipped with logreg-validation (share/dpbo/data) unless
// the user names other files, every row scaled by the public bound 1/√14 (an a9a row has at most 14
// ones) so ‖x‖ ≤ 1.
#include <cstdint>
#include <string>

#include "dpbo/parameters.hpp"
#include "libsvm_reader.hpp"

namespace dpbo::plugin_data {

inline constexpr std::size_t kAdultFeatures = 123;
inline constexpr double kAdultSquaredNormBound = 14.0;

// The file named by `file_key`, or the shipped `shipped_name` when the user gave none (RunError
// naming `owner` and the key to set when the shipped file is missing).
std::string data_path(const ParameterSet& parameters, const std::string& file_key, const std::string& shipped_name,
                      const std::string& owner);

// training_records, test_records (defaults: all of a9a and a9a.t), training_file and test_file.
void add_adult_split_parameters(ParameterSchema& schema, std::int64_t least_training_rows);

struct AdultSplit {
    SparseRows training;
    SparseRows test;
    std::string description;  // one line for SensitiveData::data_description (no figure from the rows)
};

// Reads and scales both splits as the parameters say (errors name `owner`, the key and the file).
AdultSplit load_adult_split(const ParameterSet& parameters, const std::string& owner);

}  // namespace dpbo::plugin_data
