// dpbo summary: what a finished job's repeats found, side by side — the median, spread and count of
// every scalar it released or reported for evaluation, and the privacy statement they share. The
// numbers the README quotes come from here.
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli.hpp"
#include "result_folder.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::cli {

int command_summary(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string folder;
    po::options_description options("options");
    options.add_options()("folder", po::value(&folder), "a run's --out folder");
    options.add(common_options(common));
    po::positional_options_description positional;
    positional.add("folder", 1);
    parse_command(arguments, options, &positional);
    if (common.help) {
        print_help("dpbo summary FOLDER [--json]", options,
                   "The median, mean and range of every scalar a finished job's repeats released or reported for "
                   "evaluation only, and their privacy statements.");
        return kSuccess;
    }
    if (folder.empty()) throw ValidationError("summary needs a folder: dpbo summary FOLDER (a run's --out folder)");

    const ResultFolder read = read_result_folder(folder, "summary");
    const std::vector<json>& results = read.results;
    const json& first = results.front();
    const std::vector<std::string> headlines = privacy_headlines(results);

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
        std::cout << fmt::format("{}:\n",
                                 std::string(section) == "released" ? "released" : "evaluation only (not released)");
        for (const auto& [name, s] : out[section].items()) {
            std::cout << fmt::format("  {:<26} median {:.6g}   mean {:.6g}   range [{:.6g}, {:.6g}]   n = {}\n", name,
                                     s["median"].get<double>(), s["mean"].get<double>(), s["min"].get<double>(),
                                     s["max"].get<double>(), s["count"].get<std::size_t>());
        }
    }
    return kSuccess;
}

}  // namespace dpbo::cli
