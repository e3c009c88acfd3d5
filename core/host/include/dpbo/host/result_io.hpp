#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <armadillo>

#include <nlohmann/json.hpp>

#include "dpbo/privacy_statement.hpp"
#include "dpbo/result.hpp"
#include "dpbo/space.hpp"

namespace dpbo {

// Writes to a temporary file in the same directory, flushes, then renames over the target, so a
// reader never sees a half-written file. Throws RunError naming the file on failure.
void write_file_atomically(const std::filesystem::path& target, const std::string& content);

// Whether `file_name` is a temporary that write_file_atomically left behind (killed before its
// rename) while writing a file named `target_name`.
bool is_atomic_write_temporary(const std::string& file_name, const std::string& target_name);

std::string trace_to_csv(const Trace& trace);

// The search space's dimensions by name, with their scale when it is a box (result.json's
// objective.dimensions), for labelling points wherever they are shown. No bounds: an objective may
// set them from its data, and the labels need none.
nlohmann::ordered_json search_space_dimensions_json(const SearchSpace& space);

// A privacy statement as result.json writes it (notion, parameters, scope, released, assumptions).
nlohmann::ordered_json privacy_statement_json(const PrivacyStatement& statement);

// A run's statement as its result writes it: with a user's seed the noise protects nothing, so a
// private claim is headlined not private and kept as "hypothetical".
nlohmann::ordered_json run_privacy_json(const PrivacyStatement& statement, const std::optional<std::uint64_t>& seed);
// The same for people to read.
std::string run_privacy_text(const PrivacyStatement& statement, const std::optional<std::uint64_t>& seed);

// A scalar, a row, a column or rows of numbers.
nlohmann::ordered_json matrix_json(const arma::mat& m);
// Named values as result.json lists them: {name: {value, description}}.
nlohmann::ordered_json released_values_json(const std::vector<ReleasedValue>& values);

}  // namespace dpbo
