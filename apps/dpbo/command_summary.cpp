// dpbo summary: what a finished job's repeats found, side by side — the median, spread and count of
// every scalar it released or reported for evaluation, and the privacy statement they share. The
// numbers the README quotes come from here.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::cli {

namespace {

namespace fs = std::filesystem;

// The repeats of one output folder: DIR/result.json alone, or DIR/repeat-NNN/result.json.
std::vector<fs::path> result_files(const fs::path& folder) {
    if (!fs::is_directory(folder))
        throw ValidationError(fmt::format("summary: '{}' is not a folder; expected a run's --out folder", folder.string()));
    std::vector<fs::path> files;
    if (fs::is_regular_file(folder / "result.json")) files.push_back(folder / "result.json");
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_directory() && name.rfind("repeat-", 0) == 0 && fs::is_regular_file(entry.path() / "result.json"))
            files.push_back(entry.path() / "result.json");
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        throw ValidationError(fmt::format("summary: '{}' holds no result.json and no repeat-*/result.json; expected a "
                                          "run's --out folder",
                                          folder.string()));
    }
    return files;
}

json read_result(const fs::path& file) {
    std::ifstream in(file);
    if (!in) throw RunError(fmt::format("summary: cannot open '{}'", file.string()));
    try {
        return json::parse(in);
    } catch (const json::exception& e) {
        throw RunError(fmt::format("summary: '{}' is not valid JSON: {}", file.string(), e.what()));
    }
}

struct Spread {
    std::size_t count = 0;
    double median = 0.0, mean = 0.0, min = 0.0, max = 0.0;
};

Spread spread(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    Spread s;
    s.count = values.size();
    const std::size_t mid = values.size() / 2;
    s.median = values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
    for (double v : values) s.mean += v / static_cast<double>(values.size());
    s.min = values.front();
    s.max = values.back();
    return s;
}

// Scalars of one section ("released" or "evaluation_only"), by name, across repeats.
std::map<std::string, std::vector<double>> scalars(const std::vector<json>& results, const char* section) {
    std::map<std::string, std::vector<double>> found;
    for (const json& result : results) {
        if (!result.contains(section)) continue;
        for (const auto& [name, entry] : result[section].items())
            if (entry.contains("value") && entry["value"].is_number()) found[name].push_back(entry["value"].get<double>());
    }
    return found;
}

}  // namespace

int command_summary(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string folder;
    po::options_description options("dpbo summary FOLDER");
    options.add_options()("folder", po::value(&folder), "a run's --out folder");
    options.add(common_options(common));
    po::positional_options_description positional;
    positional.add("folder", 1);
    parse_command(arguments, options, &positional);
    if (common.help) {
        std::cout << options << "\n";
        return kSuccess;
    }
    if (folder.empty()) throw ValidationError("summary needs a folder: dpbo summary FOLDER (a run's --out folder)");

    std::vector<json> results;
    for (const fs::path& file : result_files(folder)) results.push_back(read_result(file));
    const json& first = results.front();
    std::vector<std::string> headlines;
    for (const json& result : results) {
        const std::string headline = result.value("/privacy/headline"_json_pointer, std::string("?"));
        if (std::find(headlines.begin(), headlines.end(), headline) == headlines.end()) headlines.push_back(headline);
    }

    json out{{"folder", folder},
             {"repeats", results.size()},
             {"algorithm", first.value("/job/algorithm/name"_json_pointer, std::string("?"))},
             {"objective", first.value("/job/objective/name"_json_pointer, std::string("?"))},
             {"privacy", headlines}};
    for (const char* section : {"released", "evaluation_only"}) {
        json values = json::object();
        for (const auto& [name, list] : scalars(results, section)) {
            const Spread s = spread(list);
            values[name] = {{"count", s.count}, {"median", s.median}, {"mean", s.mean}, {"min", s.min}, {"max", s.max}};
        }
        out[section] = values;
    }
    if (common.json) {
        print_json(out);
        return kSuccess;
    }
    std::cout << fmt::format("{}: {} on {}, {} repeat(s); privacy: {}\n", folder, out["algorithm"].get<std::string>(),
                             out["objective"].get<std::string>(), results.size(), fmt::join(headlines, " | "));
    for (const char* section : {"released", "evaluation_only"}) {
        if (out[section].empty()) continue;
        std::cout << fmt::format("{}:\n", std::string(section) == "released" ? "released" : "evaluation only (not released)");
        for (const auto& [name, s] : out[section].items()) {
            std::cout << fmt::format("  {:<26} median {:.6g}   mean {:.6g}   range [{:.6g}, {:.6g}]   n = {}\n", name,
                                     s["median"].get<double>(), s["mean"].get<double>(), s["min"].get<double>(),
                                     s["max"].get<double>(), s["count"].get<std::size_t>());
        }
    }
    return kSuccess;
}

}  // namespace dpbo::cli
