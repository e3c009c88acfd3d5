#include "dpbo/host/figure_spec_json.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

using json = nlohmann::ordered_json;

namespace {

json axis_json(const FigureAxis& axis) { return {{"label", axis.label}, {"unit", axis.unit}, {"log", axis.log}}; }

// Reads one key of a figure's object, naming the file, the figure and the key when it is absent or
// not of the type expected.
class Reader {
public:
    Reader(const json& object, std::string where) : object_(object), where_(std::move(where)) {
        if (!object_.is_object()) throw ValidationError(fmt::format("{}: expected an object", where_));
    }
    std::string text(const char* key, bool required = true) const {
        const json* value = find(key, required);
        if (value == nullptr) return {};
        if (!value->is_string()) throw wrong(key, "a string", *value);
        return value->get<std::string>();
    }
    bool flag(const char* key) const {
        const json* value = find(key, false);
        if (value == nullptr) return false;
        if (!value->is_boolean()) throw wrong(key, "true or false", *value);
        return value->get<bool>();
    }
    const json& child(const char* key) const { return *find(key, true); }
    const std::string& where() const { return where_; }

private:
    const json* find(const char* key, bool required) const {
        const auto it = object_.find(key);
        if (it != object_.end()) return &*it;
        if (required) throw ValidationError(fmt::format("{}: no \"{}\"", where_, key));
        return nullptr;
    }
    ValidationError wrong(const char* key, const char* expected, const json& value) const {
        return ValidationError(fmt::format("{}: \"{}\" is {}; expected {}", where_, key, value.dump(), expected));
    }
    const json& object_;
    std::string where_;
};

FigureAxis axis_from(const Reader& figure, const char* key) {
    const Reader axis(figure.child(key), fmt::format("{}, axis \"{}\"", figure.where(), key));
    return {.label = axis.text("label"), .unit = axis.text("unit", false), .log = axis.flag("log")};
}

FigureSeries series_from(const json& value, const std::string& where) {
    const Reader series(value, where);
    FigureSeries s;
    try {
        s.source = figure_source_from_string(series.text("source"));
    } catch (const ValidationError& e) {
        throw ValidationError(fmt::format("{}: {}", where, e.what()));
    }
    s.x = series.text("x", false);
    s.y = series.text("y");
    s.legend = series.text("legend", false);
    s.repeat_legend = series.text("repeat_legend", false);
    s.evaluation_only = series.flag("evaluation_only");
    return s;
}

}  // namespace

json figures_json(const std::vector<FigureSpec>& figures) {
    json out = json::array();
    for (const FigureSpec& figure : figures) {
        validate(figure);
        json series = json::array();
        for (const FigureSeries& s : figure.series) {
            json entry = {{"source", to_string(s.source)}, {"x", s.x}, {"y", s.y}, {"legend", s.legend}};
            if (!s.repeat_legend.empty()) entry["repeat_legend"] = s.repeat_legend;
            if (s.evaluation_only) entry["evaluation_only"] = true;
            series.push_back(std::move(entry));
        }
        out.push_back({{"id", figure.id},
                       {"title", figure.title},
                       {"caption", figure.caption},
                       {"scope", to_string(figure.scope)},
                       {"evaluation_only", figure.evaluation_only},
                       {"x", axis_json(figure.x)},
                       {"y", axis_json(figure.y)},
                       {"series", std::move(series)}});
    }
    return out;
}

std::vector<FigureSpec> figures_from_json(const json& figures, const std::string& where) {
    if (!figures.is_array())
        throw ValidationError(fmt::format("{}: \"figures\" is {}; expected a list of figures", where,
                                          figures.is_object() ? "an object" : figures.dump()));
    std::vector<FigureSpec> out;
    for (std::size_t i = 0; i < figures.size(); ++i) {
        const Reader figure(figures[i], fmt::format("{}: figures[{}]", where, i));
        FigureSpec spec;
        spec.id = figure.text("id");
        spec.title = figure.text("title");
        spec.caption = figure.text("caption", false);
        try {
            spec.scope = figure_scope_from_string(figure.text("scope"));
        } catch (const ValidationError& e) {
            throw ValidationError(fmt::format("{}: {}", figure.where(), e.what()));
        }
        spec.evaluation_only = figure.flag("evaluation_only");
        spec.x = axis_from(figure, "x");
        spec.y = axis_from(figure, "y");
        const json& series = figure.child("series");
        if (!series.is_array())
            throw ValidationError(fmt::format("{}: \"series\" is {}; expected a list", figure.where(), series.dump()));
        for (std::size_t s = 0; s < series.size(); ++s)
            spec.series.push_back(series_from(series[s], fmt::format("{}, series[{}]", figure.where(), s)));
        try {
            validate(spec);
        } catch (const ValidationError& e) {
            throw ValidationError(fmt::format("{}: {}", where, e.what()));
        }
        out.push_back(std::move(spec));
    }
    return out;
}

}  // namespace dpbo
