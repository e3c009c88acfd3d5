#include "report/report_folder.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/host/figure_spec_json.hpp"
#include "report/study_source.hpp"

namespace dpbo::cli::report {

namespace fs = std::filesystem;

int ReportFolder::repeat_number(std::size_t index) const {
    const json& result = read.results[index];
    if (result.contains("repeat") && result["repeat"].is_number_integer()) return result["repeat"].get<int>();
    return static_cast<int>(index) + 1;
}

bool ReportFolder::has_column(const std::string& name) const {
    if (traces.empty()) return false;
    for (const auto& trace : traces)
        if (!trace || trace->column(name) == nullptr) return false;
    return true;
}

bool ReportFolder::is_evaluation_only(const std::string& name) const {
    for (const auto& trace : traces)
        if (trace && trace->is_evaluation_only(name)) return true;
    return false;
}

std::vector<std::string> ReportFolder::dimension_names() const {
    std::vector<std::string> names;
    const json& objective = first().contains("objective") ? first()["objective"] : json();
    if (objective.is_object() && objective.contains("dimensions") && objective["dimensions"].is_array()) {
        for (const json& dimension : objective["dimensions"])
            if (dimension.is_object() && dimension.contains("name") && dimension["name"].is_string())
                names.push_back(dimension["name"].get<std::string>());
        return names;
    }
    for (std::size_t i = 0; has_column(fmt::format("x[{}]", i)) || has_column(fmt::format("theta[{}]", i)); ++i)
        names.push_back(fmt::format("x[{}]", i));
    return names;
}

std::optional<std::size_t> ReportFolder::coordinate_of(const std::string& column) const {
    for (const char* prefix : {"x[", "theta["}) {
        const std::string start = prefix;
        if (column.rfind(start, 0) != 0 || column.back() != ']') continue;
        const std::string digits = column.substr(start.size(), column.size() - start.size() - 1);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
        return static_cast<std::size_t>(std::stoull(digits));
    }
    return std::nullopt;
}

std::string ReportFolder::column_label(const std::string& column) const {
    const std::optional<std::size_t> coordinate = coordinate_of(column);
    const std::vector<std::string> names = dimension_names();
    if (!coordinate || *coordinate >= names.size()) return column;
    const json& dimension = first()["objective"]["dimensions"][*coordinate];
    const bool log = dimension.is_object() && dimension.value("scale", std::string()) == "log";
    return names[*coordinate] + (log ? " [log scale]" : "");
}

namespace {

std::string folder_name(const std::string& given) {
    const fs::path normal = fs::path(given).lexically_normal();
    const std::string name = (normal.has_filename() ? normal : normal.parent_path()).filename().string();
    return name.empty() || name == "." || name == ".." ? given : name;
}

}  // namespace

std::vector<ReportFolder> read_report_folders(const std::vector<std::string>& folders, PluginRegistry& registry,
                                              const std::function<void()>& load_plugins) {
    std::vector<ReportFolder> read;
    std::map<std::string, int> names;
    for (const std::string& given : folders) ++names[folder_name(given)];
    bool loaded = false;
    for (const std::string& given : folders) {
        const std::string label = names[folder_name(given)] > 1 ? given : folder_name(given);
        if (!fs::exists(given))
            throw ValidationError(fmt::format(
                "report: '{}' does not exist; expected a run's --out folder or a study file (dpbo study create)",
                given));
        if (fs::is_regular_file(given)) {
            if (!loaded) load_plugins();
            loaded = true;
            read.push_back(read_study(given, label, registry));
            continue;
        }
        ReportFolder folder;
        folder.label = label;
        folder.read = read_result_folder(given, "report");
        for (std::size_t i = 0; i < folder.read.results.size(); ++i)
            folder.traces.push_back(read_trace(folder.read.files[i], folder.read.results[i]));
        if (folder.first().contains("figures"))
            folder.figures = figures_from_json(folder.first()["figures"], folder.read.files.front().string());
        read.push_back(std::move(folder));
    }
    return read;
}

}  // namespace dpbo::cli::report
