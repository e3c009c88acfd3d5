#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "dpbo/privacy_statement.hpp"
#include "dpbo/result.hpp"

namespace dpbo {

// Writes to a temporary file in the same directory, flushes, then renames over the target, so a
// reader never sees a half-written file. Throws RunError naming the file on failure.
void write_file_atomically(const std::filesystem::path& target, const std::string& content);

// Whether `file_name` is a temporary that write_file_atomically left behind (killed before its
// rename) while writing a file named `target_name`.
bool is_atomic_write_temporary(const std::string& file_name, const std::string& target_name);

std::string trace_to_csv(const Trace& trace);

// A privacy statement as result.json writes it (notion, parameters, scope, released, assumptions).
nlohmann::ordered_json privacy_statement_json(const PrivacyStatement& statement);

}  // namespace dpbo
