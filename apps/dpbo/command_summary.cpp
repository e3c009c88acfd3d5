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

// The text at `pointer` in a result, which every result.json dpbo writes has; a file without it is
// not one of dpbo's results, and is refused naming the file and the field.
std::string required_text(const json& result, const char* pointer, const fs::path& file) {
    const json::json_pointer where(pointer);
    if (!result.contains(where) || !result[where].is_string())
        throw ValidationError(fmt::format("summary: '{}' is not a dpbo result: {} is {}; expected text", file.string(),
                                          pointer, result.contains(where) ? result[where].type_name() : "missing"));
    return result[where].get<std::string>();
}

json read_result(const fs::path& file) {
    std::ifstream in(file);
    if (!in) throw RunError(fmt::format("summary: cannot open '{}'", file.string()));
    json result;
    try {
        result = json::parse(in);
    } catch (const json::exception& e) {
        throw ValidationError(fmt::format("summary: '{}' is not valid JSON: {}", file.string(), e.what()));
    }
    if (!result.is_object())
        throw ValidationError(fmt::format("summary: '{}' is not a dpbo result: it holds a JSON {}, expected an object",
                                          file.string(), result.type_name()));
    for (const char* pointer : {"/job/algorithm/name", "/job/objective/name", "/privacy/headline"})
        required_text(result, pointer, file);
    return result;
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
    const std::vector<fs::path> files = result_files(folder);
    for (const fs::path& file : files) results.push_back(read_result(file));
    // Medians over repeats of different jobs would mean nothing (a folder mixed by an older dpbo).
    for (std::size_t i = 1; i < results.size(); ++i)
        if (results[i]["job"] != results.front()["job"])
            throw ValidationError(fmt::format("summary: '{}' and '{}' are results of different jobs; summarise each "
                                              "job's folder on its own",
                                              files.front().string(), files[i].string()));
    const json& first = results.front();
    std::vector<std::string> headlines;
    for (const json& result : results) {
        const std::string headline = result["privacy"]["headline"].get<std::string>();
        if (std::find(headlines.begin(), headlines.end(), headline) == headlines.end()) headlines.push_back(headline);
    }

    json out{{"folder", folder},
             {"repeats", results.size()},
             {"algorithm", first["job"]["algorithm"]["name"]},
             {"objective", first["job"]["objective"]["name"]},
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
