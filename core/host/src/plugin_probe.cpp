#include "dpbo/host/plugin_probe.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

#include <boost/dll/runtime_symbol_info.hpp>
#include <fmt/format.h>

#include "dpbo/host/plugin_library.hpp"

extern char** environ;

namespace dpbo {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

fs::path probe_program_path() {
    std::error_code ec;
    const fs::path library = boost::dll::this_line_location(ec);
    return (ec ? fs::path() : library.parent_path()) / "dpbo" / "dpbo-probe";
}

namespace {

// What a plugin may print is kept for the refusal only as far as it helps: the last few hundred
// characters, printable ones only (a plugin's output may be binary).
constexpr std::size_t kKeptOutput = 16 * 1024;
constexpr std::size_t kQuotedOutput = 300;

std::string printable_tail(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '\n') {
            if (!out.empty() && out.back() != ' ') out += " | ";
        } else if (c >= 0x20 && c < 0x7f) {
            out += c;
        } else if (c != '\r') {
            out += '?';
        }
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '|')) out.pop_back();
    if (out.size() > kQuotedOutput) out = "..." + out.substr(out.size() - kQuotedOutput);
    return out;
}

std::string describe_signal(int number) {
    const char* abbreviation = ::sigabbrev_np(number);
    const char* description = ::strsignal(number);
    return fmt::format("SIG{} ({})", abbreviation != nullptr ? abbreviation : std::to_string(number).c_str(),
                       description != nullptr ? description : "unknown signal");
}

class Pipe {
public:
    Pipe() {
        if (::pipe2(ends_, O_CLOEXEC) != 0) ends_[0] = ends_[1] = -1;
    }
    ~Pipe() {
        close_read();
        close_write();
    }
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
    bool ok() const { return ends_[0] >= 0; }
    int read_end() const { return ends_[0]; }
    int write_end() const { return ends_[1]; }
    void close_read() { close_end(0); }
    void close_write() { close_end(1); }

private:
    void close_end(int i) {
        if (ends_[i] >= 0) ::close(ends_[i]);
        ends_[i] = -1;
    }
    int ends_[2];
};

// The probe's environment: the caller's, with one BLAS thread (the probe computes nothing, and
// OpenBLAS would otherwise start a thread per core as libdpbo loads).
std::vector<std::string> probe_environment() {
    std::vector<std::string> out;
    bool blas_set = false;
    for (char** entry = environ; *entry != nullptr; ++entry) {
        out.emplace_back(*entry);
        if (out.back().rfind("OPENBLAS_NUM_THREADS=", 0) == 0) blas_set = true;
    }
    if (!blas_set) out.emplace_back("OPENBLAS_NUM_THREADS=1");
    return out;
}

class Probe {
public:
    Probe(const fs::path& program, const fs::path& file, const std::vector<std::string>& environment,
          Clock::time_point deadline)
        : file_(file), deadline_(deadline) {
        if (!report_.ok() || !errors_.ok()) {
            finish_with(fmt::format("cannot be probed: {}", std::strerror(errno)));
            return;
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, errors_.write_end(), 2);
        posix_spawn_file_actions_adddup2(&actions, report_.write_end(), 3);
        // Its own process group, so a plugin that forks cannot leave a child holding the pipes open.
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attributes, 0);
        std::string program_text = program.string();
        std::string file_text = file.string();
        char* argv[] = {program_text.data(), file_text.data(), nullptr};
        std::vector<std::string> env_copy = environment;
        std::vector<char*> envp;
        for (auto& entry : env_copy) envp.push_back(entry.data());
        envp.push_back(nullptr);
        const int spawned = ::posix_spawn(&pid_, program_text.c_str(), &actions, &attributes, argv, envp.data());
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        report_.close_write();
        errors_.close_write();
        if (spawned != 0) {
            pid_ = -1;
            finish_with(fmt::format("cannot be probed: cannot start the probe program {}: {}", program_text,
                                    std::strerror(spawned)));
        }
    }

    ~Probe() {
        if (pid_ > 0) stop();
    }
    Probe(const Probe&) = delete;
    Probe& operator=(const Probe&) = delete;

    bool finished() const { return result_.has_value(); }
    json take_result() { return std::move(*result_); }
    Clock::time_point deadline() const { return deadline_; }

    // The descriptors to wait on, with the sinks they fill.
    void add_to(std::vector<pollfd>& fds, std::vector<std::pair<Probe*, int>>& owners) {
        for (const int fd : {report_.read_end(), errors_.read_end()}) {
            if (fd < 0) continue;
            fds.push_back({fd, POLLIN, 0});
            owners.emplace_back(this, fd);
        }
    }

    void read_from(int fd) {
        char buffer[4096];
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
        Pipe& pipe = fd == report_.read_end() ? report_ : errors_;
        std::string& sink = fd == report_.read_end() ? report_text_ : error_text_;
        if (n <= 0) {
            pipe.close_read();
            return;
        }
        sink.append(buffer, static_cast<std::size_t>(n));
        if (sink.size() > 2 * kKeptOutput) sink.erase(0, sink.size() - kKeptOutput);
    }

    // Decides once both pipes are closed and the process has ended, or the time is up.
    void check(Clock::time_point now, std::chrono::duration<double> timeout) {
        if (finished()) return;
        if (report_.read_end() < 0 && errors_.read_end() < 0) {
            int status = 0;
            const pid_t ended = ::waitpid(pid_, &status, WNOHANG);
            if (ended == pid_) {
                pid_ = -1;
                return finish_with_status(status);
            }
        }
        if (now >= deadline_) {
            stop();
            result_ = json{{"refused", fmt::format("timed out after {:g} s while {}; the probe was killed (a static "
                                                   "initialiser or schema() that never returns; DPBO_PROBE_TIMEOUT "
                                                   "sets the limit)",
                                                   timeout.count(), describe_step(last_step()))},
                           {"timed_out_after", timeout.count()}};
        }
    }

    bool waiting_for_exit() const { return !finished() && report_.read_end() < 0 && errors_.read_end() < 0; }

private:
    void stop() {
        ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
        report_.close_read();
        errors_.close_read();
    }

    void finish_with(std::string reason) { result_ = json{{"refused", std::move(reason)}}; }

    std::vector<std::string> report_lines() const {
        std::vector<std::string> lines;
        std::size_t start = 0;
        while (start < report_text_.size()) {
            const std::size_t end = report_text_.find('\n', start);
            if (end == std::string::npos) break;  // an unfinished line was cut off by the crash
            lines.push_back(report_text_.substr(start, end - start));
            start = end + 1;
        }
        return lines;
    }

    std::optional<PluginStep> reported_step() const {
        std::optional<PluginStep> step;
        for (const auto& line : report_lines()) {
            if (line == "step loading")
                step = PluginStep::Loading;
            else if (line == "step header")
                step = PluginStep::CheckingHeader;
            else if (line == "step manifest")
                step = PluginStep::ReadingManifest;
        }
        return step;
    }

    PluginStep last_step() const { return reported_step().value_or(PluginStep::Loading); }

    std::string printed() const {
        const std::string tail = printable_tail(error_text_);
        return tail.empty() ? "" : fmt::format("; it printed: {}", tail);
    }

    void finish_with_status(int status) {
        for (const auto& line : report_lines()) {
            if (line.rfind("result ", 0) != 0) continue;
            json result = json::parse(line.substr(7), nullptr, false);
            const bool well_formed = result.is_object() && (result.contains("manifest") || result.contains("refused"));
            if (well_formed) return void(result_ = std::move(result));
            return finish_with(fmt::format("cannot be probed: the probe's report is malformed{}", printed()));
        }
        const auto step = reported_step();
        if (!step) {
            // The probe ended before it reached the plugin: the probe program itself is broken.
            return finish_with(fmt::format("cannot be probed: the probe program ended ({}) before loading it{}",
                                           WIFSIGNALED(status) ? describe_signal(WTERMSIG(status))
                                                               : fmt::format("exit status {}", WEXITSTATUS(status)),
                                           printed()));
        }
        if (WIFSIGNALED(status))
            return finish_with(fmt::format("crashed with {} while {}{}", describe_signal(WTERMSIG(status)),
                                           describe_step(*step), printed()));
        finish_with(
            fmt::format("exited while loading (exit status {}, while {}); a plugin must not end the "
                        "process{}",
                        WEXITSTATUS(status), describe_step(*step), printed()));
    }

    fs::path file_;
    Clock::time_point deadline_;
    Pipe report_;
    Pipe errors_;
    pid_t pid_ = -1;
    std::string report_text_;
    std::string error_text_;
    std::optional<json> result_;
};

std::size_t parallel_probes() {
    const unsigned cores = std::thread::hardware_concurrency();
    return std::clamp<std::size_t>(cores + 1, 2, 8);
}

}  // namespace

std::vector<json> probe_plugin_files(const fs::path& program, const std::vector<fs::path>& files,
                                     std::chrono::duration<double> timeout) {
    std::vector<json> results(files.size());
    const std::vector<std::string> environment = probe_environment();
    std::vector<std::pair<std::size_t, std::unique_ptr<Probe>>> running;
    std::size_t next = 0;
    while (next < files.size() || !running.empty()) {
        while (next < files.size() && running.size() < parallel_probes()) {
            const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(timeout);
            running.emplace_back(next, std::make_unique<Probe>(program, files[next], environment, deadline));
            ++next;
        }
        std::vector<pollfd> fds;
        std::vector<std::pair<Probe*, int>> owners;
        auto wake = Clock::time_point::max();
        bool someone_exiting = false;
        for (auto& [index, probe] : running) {
            probe->add_to(fds, owners);
            wake = std::min(wake, probe->deadline());
            someone_exiting = someone_exiting || probe->waiting_for_exit();
        }
        auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(wake - Clock::now()).count() + 1;
        // A process that closed its pipes is about to end; look again soon rather than at the deadline.
        if (someone_exiting) wait = std::min<long long>(wait, 2);
        wait = std::clamp<long long>(wait, 0, 1000);
        if (::poll(fds.data(), fds.size(), static_cast<int>(wait)) > 0) {
            for (std::size_t i = 0; i < fds.size(); ++i)
                if (fds[i].revents != 0) owners[i].first->read_from(owners[i].second);
        }
        const auto now = Clock::now();
        for (auto it = running.begin(); it != running.end();) {
            it->second->check(now, timeout);
            if (it->second->finished()) {
                results[it->first] = it->second->take_result();
                it = running.erase(it);
            } else {
                ++it;
            }
        }
    }
    return results;
}

}  // namespace dpbo
