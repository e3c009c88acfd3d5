#include "report/gnuplot.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "bounded_input.hpp"
#include "dpbo/errors.hpp"
#include "unnamed_temporary_file.hpp"

extern char** environ;

namespace dpbo::cli::report {

namespace fs = std::filesystem;

namespace {

// Okabe & Ito's palette, told apart by people with colour-vision deficiencies; yellow left out, too
// light on white.
constexpr const char* kPalette[] = {"0072B2", "D55E00", "009E73", "CC79A7", "E69F00", "56B4E9", "000000"};

// A file without a name (unnamed_temporary_file.hpp) that gnuplot, started by this
// process, finds at /dev/fd/N: a killed report leaves nothing in /tmp.
class UnnamedFile {
public:
    UnnamedFile() : fd_(open_unnamed_temporary_file("dpbo-report", true)) {
        if (fd_ < 0)
            throw RunError(fmt::format("report: cannot create a temporary file for gnuplot: {}", std::strerror(errno)));
    }
    ~UnnamedFile() { ::close(fd_); }
    UnnamedFile(const UnnamedFile&) = delete;
    UnnamedFile& operator=(const UnnamedFile&) = delete;
    int fd() const { return fd_; }
    fs::path path() const { return fmt::format("/dev/fd/{}", fd_); }

    void write(const std::string& text) const {
        for (std::size_t written = 0; written < text.size();) {
            const ssize_t n = ::pwrite(fd_, text.data() + written, text.size() - written, static_cast<off_t>(written));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) throw RunError(fmt::format("report: cannot write gnuplot's file: {}", std::strerror(errno)));
            written += static_cast<std::size_t>(n);
        }
    }
    // What it holds, from its start, up to input.max_bytes (a RunError past that: the file is gnuplot's).
    std::string read(const bounded_input::Input& input) const {
        if (::lseek(fd_, 0, SEEK_SET) != 0)
            throw RunError(fmt::format("{}: cannot read it ({})", input.name, std::strerror(errno)));
        try {
            return bounded_input::read_all(fd_, input);
        } catch (const ValidationError& e) {
            throw RunError(e.what());
        }
    }

private:
    int fd_;
};

// A gnuplot single-quoted string: only the quote itself needs escaping (doubled).
std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) {
        if (c == '\'')
            out += "''";
        else if (c == '\n')
            out += ' ';
        else
            out += c;
    }
    return out + "'";
}

std::string number(double value) { return std::isfinite(value) ? fmt::format("{}", value) : std::string("NaN"); }

// A colour with transparency, as gnuplot writes it: #AARRGGBB with AA = 255 × (1 − opacity).
std::string colour(int index, double opacity) {
    const auto transparency = static_cast<int>(std::lround(255.0 * (1.0 - opacity)));
    return fmt::format("#{:02X}{}", transparency, kPalette[index % std::size(kPalette)]);
}

// Faint lines fade with their number, so that a hundred repeats read as a band, not a blot.
double faint_opacity(std::size_t faint_lines) {
    return std::clamp(1.2 / std::sqrt(static_cast<double>(std::max<std::size_t>(faint_lines, 1))), 0.06, 0.35);
}

std::string figure_script(const Figure& figure, const fs::path& data, const fs::path& svg) {
    // The key sits below the plot, an entry per line, and the drawing grows to hold it: long legends
    // beside the plot would squeeze it, and gnuplot drops a key wider than the canvas.
    const auto keyed =
        std::count_if(figure.series.begin(), figure.series.end(), [](const Series& s) { return !s.legend.empty(); });
    std::string script = "reset\n";
    script += fmt::format(
        "set terminal svg size 900,{} dynamic enhanced font 'Helvetica,14' linewidth 1 background rgb 'white'\n",
        430 + 22 * keyed);
    script += fmt::format("set output {}\n", quoted(svg.string()));
    script += fmt::format("set title {} noenhanced\n", quoted(figure.title));
    script += fmt::format("set xlabel {} noenhanced\n", quoted(figure.x_label));
    script += fmt::format("set ylabel {} noenhanced\n", quoted(figure.y_label));
    script += "set grid lc rgb '#DDDDDD' lw 1\nset border lc rgb '#555555'\n";
    script +=
        "set key below left Left reverse maxcols 1 noenhanced samplen 3 spacing 1.1\nset tics nomirror\nset mxtics\nset mytics\n";
    for (const auto& [log, axis] : {std::pair{figure.log_x, 'x'}, std::pair{figure.log_y, 'y'}}) {
        if (!log) continue;
        script += fmt::format("set logscale {} 10\nset format {} '10^{{%L}}'\n", axis, axis);
    }
    // Points at a folder's setting (ε, r) sit on the extreme x values: a margin keeps them off the border.
    if (std::any_of(figure.series.begin(), figure.series.end(),
                    [](const Series& s) { return s.style == SeriesStyle::points || s.style == SeriesStyle::marker; }))
        script += "set offsets graph 0.05, graph 0.05, 0, 0\n";
    std::map<int, std::size_t> faint_per_colour;
    for (const Series& s : figure.series)
        if (s.style == SeriesStyle::faint) ++faint_per_colour[s.colour];
    std::vector<std::string> elements;
    for (std::size_t i = 0; i < figure.series.size(); ++i) {
        const Series& s = figure.series[i];
        const std::string source = fmt::format("{} index {} using 1:2", i == 0 ? quoted(data.string()) : "''", i);
        const std::string title = s.legend.empty() ? "notitle" : "title " + quoted(s.legend);
        switch (s.style) {
            case SeriesStyle::faint:
                elements.push_back(fmt::format("{} {} with lines lw 1 lc rgb '{}'", source, title,
                                               colour(s.colour, faint_opacity(faint_per_colour[s.colour]))));
                break;
            case SeriesStyle::bold:
                elements.push_back(
                    fmt::format("{} {} with lines lw 3 lc rgb '{}'", source, title, colour(s.colour, 1.0)));
                break;
            case SeriesStyle::path:
                elements.push_back(fmt::format("{} {} with linespoints lw 1.5 pt 7 ps 0.45 lc rgb '{}'", source, title,
                                               colour(s.colour, 0.85)));
                elements.push_back(
                    fmt::format("'' index {} every ::0::0 using 1:2 notitle with points pt 6 ps 1.6 lw 2 "
                                "lc rgb '{}'",
                                i, colour(s.colour, 1.0)));
                break;
            case SeriesStyle::front:
                elements.push_back(
                    fmt::format("{} {} with steps lw 2 lc rgb '{}'", source, title, colour(s.colour, 0.8)));
                elements.push_back(fmt::format("'' index {} using 1:2 notitle with points pt 7 ps 0.6 lc rgb '{}'", i,
                                               colour(s.colour, 0.8)));
                break;
            case SeriesStyle::points:
                elements.push_back(
                    fmt::format("{} {} with points pt 7 ps 0.7 lc rgb '{}'", source, title, colour(s.colour, 0.45)));
                break;
            case SeriesStyle::marker:
                elements.push_back(fmt::format("{} {} with linespoints lw 3 pt 5 ps 1.2 lc rgb '{}'", source, title,
                                               colour(s.colour, 1.0)));
                break;
        }
    }
    script += "plot " + fmt::format("{}", fmt::join(elements, ", \\\n     ")) + "\nunset output\n";
    return script;
}

std::string figure_data(const Figure& figure) {
    std::string out;
    for (const Series& s : figure.series) {
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
            out += fmt::format("{} {}\n", number(s.x[i]), number(s.y[i]));
        out += "\n\n";
    }
    return out;
}

// An SVG gnuplot drew: a few megabytes for the largest traces dpbo writes.
constexpr std::size_t kMaxFigureBytes = std::size_t{256} << 20;

std::string log_tail(const UnnamedFile& log) {
    // Only its end is read: gnuplot may have written a great deal before it failed.
    std::string text = bounded_input::read_tail(log.fd(), 2001);
    if (text.size() > 2000) text = "…" + text.substr(text.size() - 2000);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text.empty() ? "(no message)" : text;
}

// Runs `program script`, its output and errors into `log`; the exit status, or throws when it
// cannot be started.
int run_gnuplot(const std::string& program, const fs::path& script, const UnnamedFile& log) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, log.fd(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, log.fd(), STDERR_FILENO);
    std::string script_path = script.string();
    std::string program_name = program;
    char* argv[] = {program_name.data(), script_path.data(), nullptr};
    pid_t pid = 0;
    const int spawned = ::posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        throw RunError(
            fmt::format("report: cannot run gnuplot ('{}'): {}; the report draws its figures with "
                        "gnuplot's svg terminal: install Debian's gnuplot-nox (cmake/setup.sh does) or "
                        "set DPBO_GNUPLOT to its path",
                        program, std::strerror(spawned)));
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw RunError(fmt::format("report: waiting for gnuplot failed: {}", std::strerror(errno)));
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace

std::string gnuplot_program() {
    const char* chosen = std::getenv("DPBO_GNUPLOT");
    return chosen != nullptr && *chosen != '\0' ? chosen : "gnuplot";
}

std::vector<std::string> render_svg(const std::vector<Figure>& figures) {
    if (figures.empty()) return {};
    std::string script = "set encoding utf8\n";
    std::vector<std::unique_ptr<UnnamedFile>> data;
    std::vector<std::unique_ptr<UnnamedFile>> outputs;
    for (const Figure& figure : figures) {
        data.push_back(std::make_unique<UnnamedFile>());
        outputs.push_back(std::make_unique<UnnamedFile>());
        data.back()->write(figure_data(figure));
        script += figure_script(figure, data.back()->path(), outputs.back()->path());
    }
    const UnnamedFile script_file;
    const UnnamedFile log;
    script_file.write(script);
    const std::string program = gnuplot_program();
    const int status = run_gnuplot(program, script_file.path(), log);
    if (status != 0)
        throw RunError(fmt::format("report: gnuplot ('{}') failed with exit status {} drawing the figures: {}", program,
                                   status, log_tail(log)));
    std::vector<std::string> svgs;
    for (std::size_t f = 0; f < outputs.size(); ++f) {
        std::string svg =
            outputs[f]->read({fmt::format("report: gnuplot's figure {}", f), "an SVG figure", kMaxFigureBytes});
        const std::size_t start = svg.find("<svg");
        if (start == std::string::npos || svg.find("</svg>") == std::string::npos)
            throw RunError(fmt::format("report: gnuplot ('{}') left figure {} without a complete <svg> element: {}",
                                       program, f, log_tail(log)));
        svgs.push_back(svg.substr(start));
    }
    return svgs;
}

}  // namespace dpbo::cli::report
