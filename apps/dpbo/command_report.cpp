// dpbo report: a self-contained HTML page comparing one or several result folders and study files —
// a comparison table first, ε spent over each run, a slice per hyperparameter, the
// privacy statement in plain words, the job, the headline figures and the traces drawn as the
// papers draw them, evaluation-only quantities marked.
#include <sys/stat.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bounded_input.hpp"
#include "cli.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/result_io.hpp"
#include "report/declared_figures.hpp"
#include "report/gnuplot.hpp"
#include "report/html_page.hpp"
#include "report/path_figures.hpp"
#include "report/privacy_figures.hpp"
#include "report/report_folder.hpp"
#include "report/slice_figures.hpp"
#include "report/trace_figures.hpp"

namespace dpbo::cli {

namespace fs = std::filesystem;

namespace {

// The traces every result has, then the figures the algorithms declare in their results: the
// comparisons across folders (a run per method, ε or r), then each folder's own (with the path of
// its iterates, when it has one in two dimensions). A section with no figure is not drawn.
std::vector<report::FigureSection> figure_sections(const std::vector<report::ReportFolder>& folders) {
    std::vector<report::FigureSection> sections;
    sections.push_back({"Privacy spent over the run", report::privacy_figures(folders), {}});
    sections.push_back({"Slices: value against each hyperparameter", report::slice_figures(folders), {}});
    sections.push_back({"Traces over the run", report::trace_figures(folders), {}});
    report::DeclaredFigures declared = report::declared_figures(folders);
    sections.push_back(
        {"Comparisons across folders, as the algorithms declare them", std::move(declared.across_folders), {}});
    for (std::size_t f = 0; f < folders.size(); ++f) {
        const report::ReportFolder& folder = folders[f];
        report::FigureSection own{fmt::format("{}'s own figures: {}", folder.algorithm(), folder.label),
                                  std::move(declared.per_folder[f]),
                                  {}};
        for (report::Figure& figure : report::path_figures(folder)) own.figures.push_back(std::move(figure));
        sections.push_back(std::move(own));
    }
    return sections;
}

// An --out that cannot be written is the user's to fix: refused before any drawing.
void check_writable(const fs::path& out) {
    const fs::path parent = out.parent_path().empty() ? fs::path(".") : out.parent_path();
    if (fs::is_directory(out))
        throw ValidationError(
            fmt::format("report: --out '{}' is a folder; expected the HTML file to write", out.string()));
    // The page replaces --out by a rename: a device (/dev/null), FIFO or socket there would be replaced
    // by a file, not written to.
    struct stat status {};
    if (::stat(out.c_str(), &status) == 0 && !S_ISREG(status.st_mode))
        throw ValidationError(fmt::format(
            "report: --out '{}' is not a regular file (it is {}); expected the HTML file to write (a new name or a "
            "file to replace)",
            out.string(), bounded_input::file_kind(status.st_mode)));
    if (!fs::is_directory(parent))
        throw ValidationError(fmt::format("report: cannot write --out '{}': its folder '{}' does not exist",
                                          out.string(), parent.string()));
}

}  // namespace

int command_report(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::vector<std::string> folders;
    std::string out = "report.html";
    po::options_description options("options");
    options.add_options()("folder", po::value(&folders),
                          "result folders (a run's --out) or study files (dpbo study create), one or several")(
        "out", po::value(&out)->default_value(out),
        "the HTML file to write (self-contained; figures drawn by gnuplot, $DPBO_GNUPLOT or gnuplot on the PATH)");
    options.add(common_options(common));
    po::positional_options_description positional;
    positional.add("folder", -1);
    parse_command(arguments, options, &positional);
    if (common.help) {
        print_help("dpbo report FOLDER|STUDY... [--out report.html]", options,
                   "Writes a self-contained HTML page comparing result folders and studies: first a table of each "
                   "one's best hyperparameters by name, released value with its noise and a warning where the noise "
                   "dominates, privacy spent and evaluations; then ε spent over each run, a slice per "
                   "hyperparameter, the privacy statements, the jobs, the traces and each algorithm's own figures.");
        return kSuccess;
    }
    if (folders.empty())
        throw ValidationError(
            "report needs at least one result folder or study file: dpbo report FOLDER|STUDY... [--out report.html]");
    check_writable(out);

    PluginRegistry registry;
    const std::vector<report::ReportFolder> read =
        report::read_report_folders(folders, registry, [&] { load_plugins(registry, common); });
    std::vector<report::FigureSection> sections = figure_sections(read);
    std::vector<report::Figure> all;
    for (const auto& section : sections) all.insert(all.end(), section.figures.begin(), section.figures.end());
    const std::vector<std::string> svgs = report::render_svg(all);
    std::size_t next = 0;
    for (auto& section : sections)
        for (std::size_t f = 0; f < section.figures.size(); ++f) section.svgs.push_back(svgs[next++]);
    const std::string page = report::page_html(read, sections);
    try {
        write_file_atomically(out, page);
    } catch (const std::exception& e) {
        throw ValidationError(fmt::format("report: cannot write --out '{}': {}", out, e.what()));
    }
    if (common.json) {
        print_json({{"out", out}, {"folders", folders}, {"figures", all.size()}, {"bytes", page.size()}});
    } else {
        std::cout << fmt::format("{}: {} figure(s) for {} folder(s), {:.1f} kB\n", out, all.size(), folders.size(),
                                 static_cast<double>(page.size()) / 1024.0);
    }
    return kSuccess;
}

}  // namespace dpbo::cli
