#pragma once
// Checks shared by the `dpbo report` tests: the page's figure data read back, every <svg> checked to be
// well-formed XML, and every plotted series compared with the result files it names.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace dpbo::test::report {

using nlohmann::json;
namespace fs = std::filesystem;

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline void write_text(const fs::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary);
    out << text;
}

// trace.csv by column name, "nan" as NaN.
inline std::map<std::string, std::vector<double>> read_csv(const fs::path& file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> names;
    std::stringstream header(line);
    for (std::string cell; std::getline(header, cell, ',');) names.push_back(cell);
    std::map<std::string, std::vector<double>> columns;
    while (std::getline(in, line)) {
        std::stringstream row(line);
        std::size_t c = 0;
        for (std::string cell; std::getline(row, cell, ','); ++c)
            columns[names.at(c)].push_back(cell == "nan" ? NAN : std::strtod(cell.c_str(), nullptr));
    }
    return columns;
}

inline bool valid_reference(const std::string& text, std::size_t amp) {
    const std::size_t semi = text.find(';', amp);
    if (semi == std::string::npos || semi - amp > 10) return false;
    const std::string name = text.substr(amp + 1, semi - amp - 1);
    if (name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos") return true;
    if (name.size() > 1 && name[0] == '#')
        return std::all_of(name.begin() + 1, name.end(), [](char c) { return std::isxdigit(c) || c == 'x'; });
    return false;
}

inline bool valid_text(const std::string& text, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i)
        if (text[i] == '&' && !valid_reference(text, i)) return false;
    return true;
}

// An XML well-formedness check sufficient for one SVG document: tags balance and nest, attributes
// are quoted, comments, CDATA and processing instructions close, references are XML's, one root.
inline std::string xml_problem(const std::string& xml) {
    std::vector<std::string> open;
    std::size_t i = 0, roots = 0;
    const auto name_end = [&](std::size_t at) {
        while (at < xml.size() && !std::isspace(static_cast<unsigned char>(xml[at])) && xml[at] != '>' &&
               xml[at] != '/' && xml[at] != '=')
            ++at;
        return at;
    };
    while (i < xml.size()) {
        const std::size_t lt = xml.find('<', i);
        const std::size_t text_end = lt == std::string::npos ? xml.size() : lt;
        if (!valid_text(xml, i, text_end)) return "bad character reference in text";
        if (open.empty() && xml.find_first_not_of(" \t\r\n", i) < text_end) return "text outside the root";
        if (lt == std::string::npos) break;
        const auto skip_to = [&](const char* end) -> bool {
            const std::size_t at = xml.find(end, lt);
            if (at == std::string::npos) return false;
            i = at + std::string(end).size();
            return true;
        };
        if (xml.compare(lt, 4, "<!--") == 0) {
            if (!skip_to("-->")) return "unclosed comment";
        } else if (xml.compare(lt, 9, "<![CDATA[") == 0) {
            if (!skip_to("]]>")) return "unclosed CDATA";
        } else if (xml.compare(lt, 2, "<?") == 0) {
            if (!skip_to("?>")) return "unclosed processing instruction";
        } else if (xml.compare(lt, 2, "<!") == 0) {
            if (!skip_to(">")) return "unclosed declaration";
        } else if (xml.compare(lt, 2, "</") == 0) {
            const std::size_t end = name_end(lt + 2);
            const std::string name = xml.substr(lt + 2, end - lt - 2);
            const std::size_t gt = xml.find_first_not_of(" \t\r\n", end);
            if (gt == std::string::npos || xml[gt] != '>') return "bad end tag " + name;
            if (open.empty() || open.back() != name)
                return "end tag </" + name + "> does not match <" + (open.empty() ? "" : open.back()) + ">";
            open.pop_back();
            i = gt + 1;
        } else {
            std::size_t at = name_end(lt + 1);
            const std::string name = xml.substr(lt + 1, at - lt - 1);
            if (name.empty()) return "empty tag name";
            if (open.empty() && ++roots > 1) return "more than one root element";
            while (true) {
                at = xml.find_first_not_of(" \t\r\n", at);
                if (at == std::string::npos) return "unclosed tag <" + name + ">";
                if (xml.compare(at, 2, "/>") == 0) {
                    i = at + 2;
                    break;
                }
                if (xml[at] == '>') {
                    open.push_back(name);
                    i = at + 1;
                    break;
                }
                const std::size_t attribute_end = name_end(at);
                if (attribute_end == at) return "bad attribute in <" + name + ">";
                at = xml.find_first_not_of(" \t\r\n", attribute_end);
                if (at == std::string::npos || xml[at] != '=') return "attribute without value in <" + name + ">";
                at = xml.find_first_not_of(" \t\r\n", at + 1);
                if (at == std::string::npos || (xml[at] != '"' && xml[at] != '\'')) return "unquoted attribute";
                const std::size_t close = xml.find(xml[at], at + 1);
                if (close == std::string::npos) return "unclosed attribute value";
                if (xml.substr(at + 1, close - at - 1).find('<') != std::string::npos) return "'<' in an attribute";
                if (!valid_text(xml, at + 1, close)) return "bad character reference in an attribute";
                at = close + 1;
            }
        }
    }
    if (!open.empty()) return "unclosed element <" + open.back() + ">";
    return roots == 1 ? "" : "no root element";
}

// The page as an HTML document: xml_problem over it once HTML's own leniencies are made XML — the
// doctype dropped, void elements (<meta>, <br>, …) closed, <style> and <script> bodies (not markup)
// emptied. Tags must still balance and nest, attributes be quoted, references be valid.
inline std::string html_problem(std::string html) {
    const std::size_t root = html.find("<html");
    if (html.rfind("<!DOCTYPE html>", 0) != 0 || root == std::string::npos) return "no <!DOCTYPE html> and <html>";
    html = html.substr(root);
    // Tags built piece by piece: "<" + name trips GCC 12's false -Wrestrict warning (its bug 105329).
    const auto tag = [](const char* start, const std::string& name, const char* end) {
        std::string text(start);
        text += name;
        text += end;
        return text;
    };
    for (const std::string raw : {"style", "script"})
        for (std::size_t at = html.find(tag("<", raw, "")); at != std::string::npos;
             at = html.find(tag("<", raw, ""), at + 1)) {
            const std::size_t body = html.find('>', at) + 1, end = html.find(tag("</", raw, ">"), body);
            if (end == std::string::npos) return tag("unclosed <", raw, ">");
            html.erase(body, end - body);
        }
    for (const std::string element : {"meta", "br", "hr", "img", "input", "link", "wbr", "col"})
        for (std::size_t at = html.find(tag("<", element, "")); at != std::string::npos;
             at = html.find(tag("<", element, ""), at + 1)) {
            const char next = html[at + 1 + element.size()];
            if (next != ' ' && next != '>' && next != '/') continue;
            const std::size_t gt = html.find('>', at);
            if (gt == std::string::npos) return tag("unclosed <", element, ">");
            if (html[gt - 1] != '/') html.insert(gt, 1, '/');
        }
    return xml_problem(html);
}

inline std::vector<std::string> between(const std::string& text, const std::string& start, const std::string& end,
                                        bool keep_markers) {
    std::vector<std::string> found;
    for (std::size_t at = text.find(start); at != std::string::npos; at = text.find(start, at + 1)) {
        const std::size_t stop = text.find(end, at);
        REQUIRE(stop != std::string::npos);
        found.push_back(keep_markers ? text.substr(at, stop + end.size() - at)
                                     : text.substr(at + start.size(), stop - at - start.size()));
    }
    return found;
}

inline std::vector<json> figure_data(const std::string& html) {
    std::vector<json> figures;
    for (const std::string& text :
         between(html, "<script type=\"application/json\" class=\"figure-data\">", "</script>", false))
        figures.push_back(json::parse(text));
    return figures;
}

inline double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// The series' numbers against the file's: the same doubles, null where the file has NaN.
inline void check_numbers(const json& plotted, const std::vector<double>& expected) {
    REQUIRE(plotted.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        CAPTURE(i);
        if (std::isnan(expected[i]))
            CHECK(plotted[i].is_null());
        else
            CHECK(plotted[i].get<double>() == expected[i]);
    }
}

inline fs::path repeat_folder(const fs::path& folder, int repeat) {
    char name[32];
    std::snprintf(name, sizeof name, "repeat-%03d", repeat);
    return fs::is_directory(folder / name) ? folder / name : folder;
}

// Every repeat's result.json of a folder, in repeat order.
inline std::vector<json> repeat_results(const fs::path& folder) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder))
        if (entry.path().filename().string().rfind("repeat-", 0) == 0) files.push_back(entry.path() / "result.json");
    std::sort(files.begin(), files.end());
    if (files.empty()) files.push_back(folder / "result.json");
    std::vector<json> results;
    for (const fs::path& file : files) results.push_back(json::parse(read_text(file)));
    return results;
}

// A front: the k×2 matrix at the series' JSON pointer in the repeat's result.json (a released front,
// as the algorithm declared it), sorted by its first column.
inline void check_front(const json& series, const fs::path& folder) {
    const json result = json::parse(read_text(repeat_folder(folder, series["repeat"].get<int>()) / "result.json"));
    CHECK(series["x_column"] == series["y_column"]);
    const json::json_pointer at(series["y_column"].get<std::string>());
    REQUIRE(result.contains(at));
    std::vector<std::pair<double, double>> points;
    for (const json& p : result.at(at)) points.emplace_back(p[0], p[1]);
    std::sort(points.begin(), points.end());
    std::vector<double> x, y;
    for (const auto& [a, b] : points) {
        x.push_back(a);
        y.push_back(b);
    }
    REQUIRE_FALSE(x.empty());
    check_numbers(series["x"], x);
    check_numbers(series["y"], y);
}

// One point per repeat, read at the series' JSON pointers.
inline void check_repeat_points(const json& series, const fs::path& folder) {
    const json::json_pointer x(series["x_column"].get<std::string>()), y(series["y_column"].get<std::string>());
    std::vector<double> xs, ys;
    for (const json& result : repeat_results(folder)) {
        xs.push_back(result.at(x).get<double>());
        ys.push_back(result.at(y).get<double>());
    }
    check_numbers(series["x"], xs);
    check_numbers(series["y"], ys);
}

// One point per folder it names: the medians over that folder's repeats at the JSON pointers.
inline void check_folder_medians(const json& series, const std::map<std::string, fs::path>& folders) {
    const json::json_pointer x(series["x_column"].get<std::string>()), y(series["y_column"].get<std::string>());
    std::vector<double> xs, ys;
    REQUIRE(series.contains("folders"));
    for (const json& label : series["folders"]) {
        std::vector<double> fx, fy;
        for (const json& result : repeat_results(folders.at(label.get<std::string>()))) {
            fx.push_back(result.at(x).get<double>());
            fy.push_back(result.at(y).get<double>());
        }
        xs.push_back(median(fx));
        ys.push_back(median(fy));
    }
    CHECK(std::is_sorted(xs.begin(), xs.end()));
    check_numbers(series["x"], xs);
    check_numbers(series["y"], ys);
}

// ε (or μ) spent over the run: a repeat's result.json privacy_over_run points, release by release.
inline void check_privacy_over_run(const json& series, const fs::path& folder) {
    const fs::path result_file = repeat_folder(folder, series["repeat"].get<int>()) / "result.json";
    const json result = json::parse(read_text(result_file));
    const std::string unit =
        series["y_column"].get<std::string>().substr(std::string("/privacy_over_run/points/").size());
    std::vector<double> xs, ys;
    for (const json& point : result.at("privacy_over_run").at("points")) {
        xs.push_back(point.at("release").get<double>());
        ys.push_back(point.at(unit).get<double>());
    }
    check_numbers(series["x"], xs);
    check_numbers(series["y"], ys);
}

// Every series of every figure: a repeat's series are its trace columns, a median's the median over
// the folder's repeats row by row (of those that reached the row); fronts, per-repeat points and
// per-folder medians are checked against result.json (check_front, check_repeat_points,
// check_folder_medians).
inline void check_series_against_files(const std::vector<json>& figures,
                                       const std::map<std::string, fs::path>& folders) {
    for (const json& figure : figures) {
        CAPTURE(figure["title"].get<std::string>());
        for (const json& series : figure["series"]) {
            const fs::path folder =
                series["kind"] == "folder medians" ? fs::path() : folders.at(series["folder"].get<std::string>());
            const std::string x = series["x_column"], y = series["y_column"];
            CAPTURE(series["kind"].get<std::string>());
            CAPTURE(y);
            if (series["kind"] == "front") {
                check_front(series, folder);
                continue;
            }
            if (series["kind"] == "repeats") {
                check_repeat_points(series, folder);
                continue;
            }
            if (series["kind"] == "folder medians") {
                check_folder_medians(series, folders);
                continue;
            }
            if (series["kind"] == "privacy over run") {
                check_privacy_over_run(series, folder);
                continue;
            }
            if (series["kind"] == "repeat") {
                const auto columns = read_csv(repeat_folder(folder, series["repeat"].get<int>()) / "trace.csv");
                check_numbers(series["x"], columns.at(x));
                check_numbers(series["y"], columns.at(y));
                continue;
            }
            REQUIRE(series["kind"] == "median");
            std::vector<std::map<std::string, std::vector<double>>> repeats;
            for (const auto& entry : fs::directory_iterator(folder))
                if (entry.path().filename().string().rfind("repeat-", 0) == 0)
                    repeats.push_back(read_csv(entry.path() / "trace.csv"));
            if (repeats.empty()) repeats.push_back(read_csv(folder / "trace.csv"));
            for (const auto& [column, plotted] : {std::pair{x, series["x"]}, std::pair{y, series["y"]}}) {
                std::size_t rows = 0;
                for (const auto& r : repeats) rows = std::max(rows, r.at(column).size());
                std::vector<double> expected;
                for (std::size_t row = 0; row < rows; ++row) {
                    std::vector<double> values;
                    for (const auto& r : repeats)
                        if (row < r.at(column).size() && !std::isnan(r.at(column)[row]))
                            values.push_back(r.at(column)[row]);
                    expected.push_back(values.empty() ? NAN : median(values));
                }
                check_numbers(plotted, expected);
            }
        }
    }
}

inline void check_every_svg(const std::string& html, std::size_t figures) {
    const std::vector<std::string> svgs = between(html, "<svg", "</svg>", true);
    CHECK(svgs.size() == figures);
    for (const std::string& svg : svgs) {
        CHECK(xml_problem(svg) == "");
        CHECK_FALSE(contains(svg, "<script"));  // a drawing, nothing to execute
    }
    // Self-contained: nothing fetched when the page is viewed.
    CHECK_FALSE(contains(html, "src="));
    CHECK_FALSE(contains(html, "<link"));
    CHECK_FALSE(contains(html, "@import"));
    CHECK_FALSE(contains(html, "url("));
}

inline const json* figure_plotting(const std::vector<json>& figures, const std::string& y_column) {
    for (const json& figure : figures)
        for (const json& series : figure["series"])
            if (series["y_column"] == y_column) return &figure;
    return nullptr;
}

inline std::string run_ok(const std::vector<std::string>& arguments) {
    const auto r = run_dpbo(arguments);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    return r.out;
}

}  // namespace dpbo::test::report
