#include "report/report_folder.hpp"

#include <filesystem>
#include <map>

#include "dpbo/host/figure_spec_json.hpp"

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

namespace {

std::string folder_name(const std::string& given) {
    const fs::path normal = fs::path(given).lexically_normal();
    const std::string name = (normal.has_filename() ? normal : normal.parent_path()).filename().string();
    return name.empty() || name == "." || name == ".." ? given : name;
}

}  // namespace

std::vector<ReportFolder> read_report_folders(const std::vector<std::string>& folders) {
    std::vector<ReportFolder> read;
    std::map<std::string, int> names;
    for (const std::string& given : folders) ++names[folder_name(given)];
    for (const std::string& given : folders) {
        ReportFolder folder;
        folder.label = names[folder_name(given)] > 1 ? given : folder_name(given);
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
