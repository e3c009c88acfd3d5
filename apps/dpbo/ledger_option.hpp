#pragma once
// --ledger FILE, shared by `dpbo run` and `dpbo study create`: the dataset's lifetime ledger every
// release of the job is charged to (docs/lifetime-ledger.md).
#include <filesystem>
#include <string>

#include "cli.hpp"

namespace dpbo::cli {

void add_ledger_option(po::options_description& options, std::string& text);
// The ledger given (empty when none), opened and verified once here so that a missing, damaged or
// tampered ledger is refused before anything runs; ValidationError naming the file otherwise.
std::filesystem::path read_ledger_option(const po::variables_map& given, const std::string& text);

}  // namespace dpbo::cli
