#include "report/figure_text.hpp"

#include <fmt/format.h>

namespace dpbo::cli::report {

namespace {

std::string pointer_text(const json& result, const std::string& pointer) {
    json::json_pointer at;
    try {
        at = json::json_pointer(pointer);
    } catch (const json::exception&) {
        return "?";
    }
    if (!result.contains(at)) return "?";
    const json& value = result.at(at);
    if (value.is_number()) return fmt::format("{:g}", value.get<double>());
    if (value.is_string()) return value.get<std::string>();
    if (value.is_null()) return "?";
    return value.dump();
}

}  // namespace

std::string fill_placeholders(const std::string& text, const ReportFolder& folder, std::size_t folders_on_figure) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
            out += c;
            ++i;
            continue;
        }
        const std::size_t close = c == '{' ? text.find('}', i) : std::string::npos;
        if (close == std::string::npos) {
            out += c;
            continue;
        }
        const std::string name = text.substr(i + 1, close - i - 1);
        if (name == "folder")
            out += folder.label;
        else if (name == "repeats")
            out += std::to_string(folder.read.results.size());
        else if (name == "folders")
            out += std::to_string(folders_on_figure);
        else if (!name.empty() && name.front() == '/')
            out += pointer_text(folder.first(), name);
        else
            out += text.substr(i, close - i + 1);
        i = close;
    }
    return out;
}

std::string axis_label(const std::string& label, const std::string& unit, bool log) {
    if (unit.empty()) return log ? label + " [log scale]" : label;
    return fmt::format("{} [{}{}]", label, unit, log ? ", log scale" : "");
}

}  // namespace dpbo::cli::report
