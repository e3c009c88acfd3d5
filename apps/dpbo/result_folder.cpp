#include "result_folder.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "bounded_input.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::cli {

namespace fs = std::filesystem;

std::vector<fs::path> result_files(const fs::path& folder, const std::string& command) {
    if (!fs::is_directory(folder))
        throw ValidationError(
            fmt::format("{}: '{}' is not a folder; expected a run's --out folder", command, folder.string()));
    std::vector<fs::path> files;
    if (fs::is_regular_file(folder / "result.json")) files.push_back(folder / "result.json");
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_directory() && name.rfind("repeat-", 0) == 0 && fs::is_regular_file(entry.path() / "result.json"))
            files.push_back(entry.path() / "result.json");
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        throw ValidationError(
            fmt::format("{}: '{}' holds no result.json and no repeat-*/result.json; expected a "
                        "run's --out folder",
                        command, folder.string()));
    }
    return files;
}

namespace {

// The text at `pointer` in a result, which every result.json dpbo writes has; a file without it is
// not one of dpbo's results, and is refused naming the file and the field.
void require_text(const json& result, const char* pointer, const fs::path& file, const std::string& command) {
    const json::json_pointer where(pointer);
    if (!result.contains(where) || !result[where].is_string())
        throw ValidationError(fmt::format("{}: '{}' is not a dpbo result: {} is {}; expected text", command,
                                          file.string(), pointer,
                                          result.contains(where) ? result[where].type_name() : "missing"));
}

}  // namespace

json read_result(const fs::path& file, const std::string& command) {
    const std::string text = bounded_input::read_file(
        file.string(),
        {fmt::format("{}: '{}'", command, file.string()), "a dpbo result", bounded_input::kResultFileBytes},
        bounded_input::Unopenable::RunFailure);
    json result;
    try {
        result = json::parse(text);
    } catch (const json::parse_error& e) {
        // The byte offset, not the parser's message: that quotes the file's bytes, which may be binary.
        throw ValidationError(
            fmt::format("{}: '{}' is not valid JSON (parse error at byte {})", command, file.string(), e.byte));
    }
    if (!result.is_object())
        throw ValidationError(fmt::format("{}: '{}' is not a dpbo result: it holds a JSON {}, expected an object",
                                          command, file.string(), result.type_name()));
    for (const char* pointer : {"/job/algorithm/name", "/job/objective/name", "/privacy/headline"})
        require_text(result, pointer, file, command);
    return result;
}

ResultFolder read_result_folder(const fs::path& folder, const std::string& command) {
    ResultFolder read;
    read.folder = folder;
    read.files = result_files(folder, command);
    for (const fs::path& file : read.files) read.results.push_back(read_result(file, command));
    for (std::size_t i = 1; i < read.results.size(); ++i)
        if (read.results[i]["job"] != read.results.front()["job"])
            throw ValidationError(
                fmt::format("{}: '{}' and '{}' are results of different jobs; {} each job's folder "
                            "on its own",
                            command, read.files.front().string(), read.files[i].string(),
                            command == "summary" ? "summarise" : "pass"));
    return read;
}

std::vector<std::string> privacy_headlines(const std::vector<json>& results) {
    std::vector<std::string> headlines;
    for (const json& result : results) {
        const std::string headline = result["privacy"]["headline"].get<std::string>();
        if (std::find(headlines.begin(), headlines.end(), headline) == headlines.end()) headlines.push_back(headline);
    }
    return headlines;
}

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

std::map<std::string, std::vector<double>> scalars(const std::vector<json>& results, const char* section) {
    std::map<std::string, std::vector<double>> found;
    for (const json& result : results) {
        if (!result.contains(section)) continue;
        for (const auto& [name, entry] : result[section].items())
            if (entry.contains("value") && entry["value"].is_number())
                found[name].push_back(entry["value"].get<double>());
    }
    return found;
}

}  // namespace dpbo::cli
