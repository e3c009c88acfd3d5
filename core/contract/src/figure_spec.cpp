#include "dpbo/figure_spec.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

namespace {

constexpr std::pair<FigureSource, const char*> kSources[] = {
    {FigureSource::trace, "trace"}, {FigureSource::result, "result"}, {FigureSource::front, "front"}};
constexpr std::pair<FigureScope, const char*> kScopes[] = {{FigureScope::folder, "folder"},
                                                           {FigureScope::across_folders, "across folders"}};

bool id_character(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

// Every '{' opens a placeholder closed by a '}' (or is doubled), every lone '}' is doubled: a text
// the report could not fill in is refused when declared, not when drawn.
void check_placeholders(const std::string& figure, const char* field, const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '{') {
            if (i + 1 < text.size() && text[i + 1] == '{') {
                ++i;
                continue;
            }
            const std::size_t close = text.find('}', i);
            if (close == std::string::npos || text.find('{', i + 1) < close)
                throw ValidationError(
                    fmt::format("figure '{}': its {} '{}' opens a placeholder at character {} and "
                                "does not close it; expected {{name}} or {{{{ for a brace",
                                figure, field, text, i));
            i = close;
        } else if (text[i] == '}') {
            if (i + 1 < text.size() && text[i + 1] == '}') {
                ++i;
                continue;
            }
            throw ValidationError(
                fmt::format("figure '{}': its {} '{}' has a lone '}}' at character {}; expected }}}} "
                            "for a brace",
                            figure, field, text, i));
        }
    }
}

void check_pointer(const std::string& figure, std::size_t index, const char* axis, const std::string& pointer) {
    if (pointer.empty() || pointer.front() != '/')
        throw ValidationError(
            fmt::format("figure '{}': series {} reads result.json at {} '{}'; expected a JSON "
                        "pointer starting with '/', e.g. /evaluation_only/simple_regret/value",
                        figure, index + 1, axis, pointer));
}

}  // namespace

const char* to_string(FigureSource source) {
    for (const auto& [value, name] : kSources)
        if (value == source) return name;
    return "?";
}

FigureSource figure_source_from_string(const std::string& text) {
    for (const auto& [value, name] : kSources)
        if (text == name) return value;
    throw ValidationError(fmt::format("figure series source '{}' is not one of: trace, result, front", text));
}

const char* to_string(FigureScope scope) {
    for (const auto& [value, name] : kScopes)
        if (value == scope) return name;
    return "?";
}

FigureScope figure_scope_from_string(const std::string& text) {
    for (const auto& [value, name] : kScopes)
        if (text == name) return value;
    throw ValidationError(fmt::format("figure scope '{}' is not one of: folder, across folders", text));
}

void validate(const FigureSpec& figure) {
    if (figure.id.empty() || !std::all_of(figure.id.begin(), figure.id.end(), id_character))
        throw ValidationError(
            fmt::format("figure id '{}' (titled '{}'): expected lower case letters, digits, '-', "
                        "'_' or '.', not empty",
                        figure.id, figure.title));
    if (figure.title.empty()) throw ValidationError(fmt::format("figure '{}' has no title", figure.id));
    if (figure.series.empty()) throw ValidationError(fmt::format("figure '{}' has no series to draw", figure.id));
    for (const auto& [field, text] : {std::pair{"title", &figure.title}, std::pair{"caption", &figure.caption},
                                      std::pair{"x label", &figure.x.label}, std::pair{"y label", &figure.y.label},
                                      std::pair{"x unit", &figure.x.unit}, std::pair{"y unit", &figure.y.unit}})
        check_placeholders(figure.id, field, *text);
    for (std::size_t i = 0; i < figure.series.size(); ++i) {
        const FigureSeries& s = figure.series[i];
        check_placeholders(figure.id, "legend", s.legend);
        check_placeholders(figure.id, "repeat legend", s.repeat_legend);
        if (s.y.empty())
            throw ValidationError(fmt::format("figure '{}': series {} names no y to read", figure.id, i + 1));
        if (s.source != FigureSource::front && s.x.empty())
            throw ValidationError(
                fmt::format("figure '{}': series {} ({}) names no x to read", figure.id, i + 1, to_string(s.source)));
        if (s.source == FigureSource::result) {
            check_pointer(figure.id, i, "x", s.x);
            check_pointer(figure.id, i, "y", s.y);
        }
        if (s.source == FigureSource::front) check_pointer(figure.id, i, "y", s.y);
    }
}

}  // namespace dpbo
