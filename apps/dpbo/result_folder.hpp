#pragma once
// Reading a finished job's output folder, shared by the commands that look at results after the
// fact (`dpbo summary`, `dpbo report`): its repeats' result.json files, checked to be dpbo results of
// one job, and the spread of their scalars over repeats.
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cli.hpp"

namespace dpbo::cli {

// `command` prefixes every error ("summary: '…' is not a folder…"), so that a user knows which
// command refused which file.

// The repeats of one output folder: DIR/result.json alone, or DIR/repeat-NNN/result.json, sorted.
std::vector<std::filesystem::path> result_files(const std::filesystem::path& folder, const std::string& command);

// One result.json, refused unless it is a JSON object with the algorithm's, the objective's and the
// privacy statement's names every dpbo result carries.
json read_result(const std::filesystem::path& file, const std::string& command);

struct ResultFolder {
    std::filesystem::path folder;
    std::vector<std::filesystem::path> files;  // one per repeat, as result_files orders them
    std::vector<json> results;                 // parallel to files
};

// Every repeat of a folder, refused when they are results of different jobs: medians over repeats
// of different jobs would mean nothing (a folder mixed by an older dpbo).
ResultFolder read_result_folder(const std::filesystem::path& folder, const std::string& command);

// The distinct privacy headlines of the repeats, in order of first appearance.
std::vector<std::string> privacy_headlines(const std::vector<json>& results);

struct Spread {
    std::size_t count = 0;
    double median = 0.0, mean = 0.0, min = 0.0, max = 0.0;
};

// Of a non-empty list.
Spread spread(std::vector<double> values);

// The numeric scalars of one section ("released" or "evaluation_only"), by name, across repeats.
std::map<std::string, std::vector<double>> scalars(const std::vector<json>& results, const char* section);

}  // namespace dpbo::cli
