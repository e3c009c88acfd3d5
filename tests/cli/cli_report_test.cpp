// `dpbo report` end to end: real runs, the page built from their folders, every figure checked to be
// well-formed SVG and to plot exactly the numbers of the result files it came from.
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

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;
using nlohmann::json;

namespace fs = std::filesystem;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void write_text(const fs::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary);
    out << text;
}

// trace.csv by column name, "nan" as NaN.
std::map<std::string, std::vector<double>> read_csv(const fs::path& file) {
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

bool valid_reference(const std::string& text, std::size_t amp) {
    const std::size_t semi = text.find(';', amp);
    if (semi == std::string::npos || semi - amp > 10) return false;
    const std::string name = text.substr(amp + 1, semi - amp - 1);
    if (name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos") return true;
    if (name.size() > 1 && name[0] == '#')
        return std::all_of(name.begin() + 1, name.end(), [](char c) { return std::isxdigit(c) || c == 'x'; });
    return false;
}

bool valid_text(const std::string& text, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i)
        if (text[i] == '&' && !valid_reference(text, i)) return false;
    return true;
}

// An XML well-formedness check sufficient for one SVG document: tags balance and nest, attributes
// are quoted, comments, CDATA and processing instructions close, references are XML's, one root.
std::string xml_problem(const std::string& xml) {
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

std::vector<std::string> between(const std::string& text, const std::string& start, const std::string& end,
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

std::vector<json> figure_data(const std::string& html) {
    std::vector<json> figures;
    for (const std::string& text :
         between(html, "<script type=\"application/json\" class=\"figure-data\">", "</script>", false))
        figures.push_back(json::parse(text));
    return figures;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// The series' numbers against the file's: the same doubles, null where the file has NaN.
void check_numbers(const json& plotted, const std::vector<double>& expected) {
    REQUIRE(plotted.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        CAPTURE(i);
        if (std::isnan(expected[i])) CHECK(plotted[i].is_null());
        else CHECK(plotted[i].get<double>() == expected[i]);
    }
}

fs::path repeat_folder(const fs::path& folder, int repeat) {
    char name[32];
    std::snprintf(name, sizeof name, "repeat-%03d", repeat);
    return fs::is_directory(folder / name) ? folder / name : folder;
}

// Every series of every figure: a repeat's series are its trace columns, a median's the median over
// the folder's repeats row by row (of those that reached the row).
void check_series_against_files(const std::vector<json>& figures, const std::map<std::string, fs::path>& folders) {
    for (const json& figure : figures) {
        CAPTURE(figure["title"].get<std::string>());
        for (const json& series : figure["series"]) {
            const fs::path folder = folders.at(series["folder"].get<std::string>());
            const std::string x = series["x_column"], y = series["y_column"];
            CAPTURE(series["kind"].get<std::string>());
            CAPTURE(y);
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
                        if (row < r.at(column).size() && !std::isnan(r.at(column)[row])) values.push_back(r.at(column)[row]);
                    expected.push_back(values.empty() ? NAN : median(values));
                }
                check_numbers(plotted, expected);
            }
        }
    }
}

void check_every_svg(const std::string& html, std::size_t figures) {
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

const json* figure_plotting(const std::vector<json>& figures, const std::string& y_column) {
    for (const json& figure : figures)
        for (const json& series : figure["series"])
            if (series["y_column"] == y_column) return &figure;
    return nullptr;
}

std::string run_ok(const std::vector<std::string>& arguments) {
    const auto r = run_dpbo(arguments);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    return r.out;
}

}  // namespace

TEST_CASE("cli report: DP-GIBO beside random search; every figure is well-formed SVG plotting the result files' numbers") {
    TemporaryDirectory dir;
    const fs::path gibo = fs::path(dir.path()) / "gibo", search = fs::path(dir.path()) / "search";
    run_ok({"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set", "objective.dim=2", "--set",
            "algorithm.iterations=12", "--seed", "1", "--repeat", "3", "--out", gibo.string()});
    run_ok({"run", "--algorithm", "random-search", "--objective", "normal-location", "--set", "objective.dim=2",
            "--set", "algorithm.budget=40", "--seed", "1", "--repeat", "4", "--out", search.string()});
    const fs::path page = fs::path(dir.path()) / "page.html";
    const std::string out = run_ok({"report", gibo.string(), search.string(), "--out", page.string(), "--json"});
    CHECK(json::parse(out)["out"] == page.string());
    const std::string html = read_text(page);
    REQUIRE(contains(html, "<!DOCTYPE html>"));
    const std::vector<json> figures = figure_data(html);
    CHECK(json::parse(out)["figures"] == figures.size());
    check_every_svg(html, figures.size());
    check_series_against_files(figures, {{"gibo", gibo}, {"search", search}});

    // Regret: both folders in one figure, on a log scale, each repeat plus a median per folder.
    const json* regret = figure_plotting(figures, "simple_regret");
    REQUIRE(regret != nullptr);
    CHECK((*regret)["log_y"] == true);
    std::map<std::string, int> repeats, medians;
    for (const json& series : (*regret)["series"])
        ++(series["kind"] == "median" ? medians : repeats)[series["folder"].get<std::string>()];
    CHECK(repeats == std::map<std::string, int>{{"gibo", 3}, {"search", 4}});
    CHECK(medians == std::map<std::string, int>{{"gibo", 1}, {"search", 1}});
    CHECK(contains((*regret)["x_label"].get<std::string>(), "evaluations"));

    // DP-GIBO's own: the bias proxy against the noise norm per iteration, and the 2-D path.
    const json* bias = figure_plotting(figures, "gradient_trace");
    REQUIRE(bias != nullptr);
    bool noise = false;
    for (const json& series : (*bias)["series"]) {
        CHECK(series["x_column"] == "iteration");
        noise = noise || series["y_column"] == "noise_norm";
    }
    CHECK(noise);
    CHECK((*bias)["log_y"] == true);
    const json* path = figure_plotting(figures, "theta[1]");
    REQUIRE(path != nullptr);
    CHECK((*path)["series"].size() == 3);
    CHECK((*path)["series"][0]["x_column"] == "theta[0]");
    // Random search has no path: no figure draws its folder's points.
    for (const json& series : (*path)["series"]) CHECK(series["folder"] == "gibo");
}

TEST_CASE("cli report: the page states the privacy guarantee in plain words and marks evaluation-only quantities") {
    TemporaryDirectory dir;
    const fs::path seeded = fs::path(dir.path()) / "seeded", secret = fs::path(dir.path()) / "secret";
    run_ok({"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set", "algorithm.iterations=6",
            "--seed", "3", "--repeat", "3", "--out", seeded.string()});
    run_ok({"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set", "algorithm.iterations=6",
            "--out", secret.string()});
    const fs::path page = fs::path(dir.path()) / "page.html";
    run_ok({"report", seeded.string(), secret.string(), "--out", page.string()});
    const std::string html = read_text(page);
    const auto folder_section = [&](const std::string& label) {
        const std::size_t at = html.find("<h2>" + label + ": dp-gibo");
        REQUIRE(at != std::string::npos);
        return html.substr(at, html.find("</section>", at) - at);
    };
    // Seeded: not private, with the claim it would carry and why it does not hold.
    const std::string seeded_text = folder_section("seeded");
    CHECK(contains(seeded_text, "Not private as run:"));
    CHECK(contains(seeded_text, "--seed 3"));
    CHECK(contains(seeded_text, "With fresh secret noise"));
    CHECK(contains(seeded_text, "Guarantee: 1-GDP"));
    // Secret noise: the guarantee itself — protected unit, neighbouring relation, (ε, δ), releases, assumptions.
    const std::string secret_text = folder_section("secret");
    CHECK_FALSE(contains(secret_text, "Not private"));
    CHECK(contains(secret_text, "Guarantee: 1-GDP"));
    CHECK(contains(secret_text, "(ε = 4.377, δ = 1e-05)-DP"));
    CHECK(contains(secret_text, "What is protected: one record of the objective&#39;s sensitive data"));
    CHECK(contains(secret_text, "neighbouring datasets: replace one record"));
    CHECK(contains(secret_text, "What was released:"));
    CHECK(contains(secret_text, "It holds under these assumptions:"));

    // The headline table: evaluation-only scalars under their own marked heading, medians as summary computes.
    const std::size_t table = html.find("<table class=\"headline\">");
    REQUIRE(table != std::string::npos);
    const std::string rows = html.substr(table, html.find("</table>", table) - table);
    CHECK(contains(rows, "evaluation only (not released): median over repeats"));
    const std::size_t regret_row = rows.find("<tr class=\"evaluation-only\"><th>simple_regret");
    REQUIRE(regret_row != std::string::npos);
    std::vector<double> regrets;
    for (int repeat = 1; repeat <= 3; ++repeat)
        regrets.push_back(json::parse(read_text(repeat_folder(seeded, repeat) / "result.json"))["evaluation_only"]
                              ["simple_regret"]["value"]
                                  .get<double>());
    const std::size_t cell = rows.find("data-median=\"", regret_row) + 13;
    CHECK(std::strtod(rows.c_str() + cell, nullptr) == median(regrets));

    // Figures: evaluation-only columns marked in titles and legends, released ones not.
    const std::vector<json> figures = figure_data(html);
    check_every_svg(html, figures.size());
    check_series_against_files(figures, {{"seeded", seeded}, {"secret", secret}});
    const json* distance = figure_plotting(figures, "distance_to_optimum");
    REQUIRE(distance != nullptr);
    CHECK(contains((*distance)["title"].get<std::string>(), "evaluation only (not released)"));
    const json* bias = figure_plotting(figures, "gradient_trace");
    REQUIRE(bias != nullptr);
    CHECK(contains((*bias)["title"].get<std::string>(), "partly evaluation only (not released)"));
    for (const json& series : (*bias)["series"]) {
        const bool noise = series["y_column"] == "noise_norm";
        CHECK(series["evaluation_only"] == noise);
        if (series["kind"] == "median")
            CHECK(contains(series["legend"].get<std::string>(), "evaluation only (not released)") == noise);
    }
    // The marks reach the drawing itself, not only the data beside it.
    CHECK(contains(html, "<text>DP-GIBO on seeded: bias proxy and privacy noise per iteration — partly evaluation "
                         "only (not released)</text>"));
}

TEST_CASE("cli report: bad input is refused naming the folder or file and what was expected, exit 2") {
    TemporaryDirectory dir;
    const fs::path run = fs::path(dir.path()) / "run";
    run_ok({"run", "--algorithm", "random-search", "--objective", "normal-location", "--set", "algorithm.budget=20",
            "--seed", "1", "--out", run.string()});
    const fs::path page = fs::path(dir.path()) / "page.html";
    const auto refused = [&](const std::vector<std::string>& arguments, const std::vector<std::string>& said) {
        const auto r = run_dpbo(arguments);
        CAPTURE(r.err);
        CHECK(r.exit_code == 2);
        for (const std::string& part : said) CHECK(contains(r.err, part));
        CHECK_FALSE(fs::exists(page));
    };
    SUBCASE("no folder") { refused({"report", "--out", page.string()}, {"report needs at least one folder"}); }
    SUBCASE("a folder without result.json") {
        const fs::path empty = fs::path(dir.path()) / "empty";
        fs::create_directory(empty);
        refused({"report", empty.string(), "--out", page.string()},
                {empty.string(), "holds no result.json", "expected a run's --out folder"});
    }
    SUBCASE("a corrupt result.json") {
        const std::string text = read_text(run / "result.json");
        write_text(run / "result.json", text.substr(0, text.size() / 2));
        refused({"report", run.string(), "--out", page.string()}, {(run / "result.json").string(), "not valid JSON"});
    }
    SUBCASE("a trace.csv whose columns differ from result.json's") {
        const std::string text = read_text(run / "trace.csv");
        const std::size_t at = text.find("simple_regret");
        write_text(run / "trace.csv", text.substr(0, at) + "regret_simple" + text.substr(at + 13));
        refused({"report", run.string(), "--out", page.string()},
                {(run / "trace.csv").string(), "regret_simple", "declares", "simple_regret"});
    }
    SUBCASE("a trace.csv cell that is not a number") {
        std::string text = read_text(run / "trace.csv");
        text[text.rfind(',') + 1] = 'x';
        write_text(run / "trace.csv", text);
        refused({"report", run.string(), "--out", page.string()}, {(run / "trace.csv").string(), "expected a number"});
    }
    SUBCASE("an --out in a folder that does not exist") {
        const fs::path nowhere = fs::path(dir.path()) / "missing" / "page.html";
        refused({"report", run.string(), "--out", nowhere.string()}, {nowhere.string(), "does not exist"});
    }
    SUBCASE("an --out that is a folder") {
        refused({"report", run.string(), "--out", dir.path()}, {dir.path(), "is a folder"});
    }
}

TEST_CASE("cli report: gnuplot missing or failing is named in the error, and no page is left") {
    TemporaryDirectory dir;
    const fs::path run = fs::path(dir.path()) / "run";
    run_ok({"run", "--algorithm", "random-search", "--objective", "normal-location", "--set", "algorithm.budget=20",
            "--seed", "1", "--out", run.string()});
    const fs::path page = fs::path(dir.path()) / "page.html";
    const auto missing = run_dpbo({"report", run.string(), "--out", page.string()},
                                  {{"DPBO_GNUPLOT", "/nonexistent/gnuplot"}});
    CHECK(missing.exit_code == 1);
    CHECK(contains(missing.err, "cannot run gnuplot ('/nonexistent/gnuplot')"));
    CHECK(contains(missing.err, "gnuplot-nox"));
    const auto failing = run_dpbo({"report", run.string(), "--out", page.string()}, {{"DPBO_GNUPLOT", "false"}});
    CHECK(failing.exit_code == 1);
    CHECK(contains(failing.err, "gnuplot ('false') failed with exit status 1"));
    CHECK_FALSE(fs::exists(page));
    // And with gnuplot, the same folder reports (the refusals above were gnuplot's, not the folder's).
    run_ok({"report", run.string(), "--out", page.string()});
    CHECK(fs::exists(page));
}
