#include "dpbo/host/output_folder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "bounded_input.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/result_io.hpp"

namespace dpbo {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

// A temporary of one of the files dpbo writes into a folder, left by a run killed mid-write.
// Algorithms add files of their own names (RunResult::files), so any target name counts.
bool is_temporary(const std::string& name) {
    const std::size_t mark = name.rfind(".tmp.");
    return mark != std::string::npos && mark > 0 && is_atomic_write_temporary(name, name.substr(0, mark));
}

std::vector<std::string> entries_of(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string listing(const std::vector<std::string>& names) {
    constexpr std::size_t kShown = 6;
    std::vector<std::string> shown(names.begin(),
                                   names.begin() + static_cast<std::ptrdiff_t>(std::min(kShown, names.size())));
    return names.size() > kShown ? fmt::format("{}, … ({} entries)", fmt::join(shown, ", "), names.size())
                                 : fmt::format("{}", fmt::join(shown, ", "));
}

// Nothing when `file` is not JSON; a ValidationError naming it when it is no regular file (a FIFO
// would block) or is larger than any dpbo writes.
std::optional<json> read_json(const fs::path& dir, const fs::path& file, const std::string& expected) {
    const std::string text = bounded_input::read_file(
        file.string(),
        {fmt::format("--out '{}': '{}'", dir.string(), file.string()), expected, bounded_input::kResultFileBytes});
    json parsed = json::parse(text, nullptr, false);
    if (parsed.is_discarded()) return std::nullopt;
    return parsed;
}

// Every leaf of a JSON value by its dotted path, for naming the settings in which two jobs differ.
void flatten(const json& value, const std::string& path, std::map<std::string, std::string>& out) {
    if (value.is_object() && !value.empty()) {
        for (const auto& [key, child] : value.items()) flatten(child, path.empty() ? key : path + "." + key, out);
        return;
    }
    out[path] = value.dump();
}

std::string differences(const json& ours, const json& theirs) {
    std::map<std::string, std::string> a, b;
    flatten(ours, "", a);
    flatten(theirs, "", b);
    std::vector<std::string> lines;
    for (const auto& [key, value] : a) {
        const auto it = b.find(key);
        const std::string other = it == b.end() ? "not set" : it->second;
        if (other != value) lines.push_back(fmt::format("{} = {} here, {} there", key, value, other));
    }
    for (const auto& [key, value] : b)
        if (a.count(key) == 0) lines.push_back(fmt::format("{} not set here, {} there", key, value));
    constexpr std::size_t kShown = 8;
    if (lines.size() > kShown) {
        const std::size_t more = lines.size() - kShown;
        lines.resize(kShown);
        lines.push_back(fmt::format("and {} more", more));
    }
    return fmt::format("{}", fmt::join(lines, "; "));
}

// Whether two jobs differ in a setting of how much a run does or spends (--budget, an algorithm's
// budget or iterations), as when a user asks a finished run's folder for a longer run.
bool differs_in_length(const json& ours, const json& theirs) {
    std::map<std::string, std::string> a, b;
    flatten(ours, "", a);
    flatten(theirs, "", b);
    const auto is_length = [](const std::string& key) {
        return key.ends_with(".budget") || key.ends_with(".iterations");
    };
    for (const auto& [key, value] : a)
        if (is_length(key) && (b.count(key) == 0 || b[key] != value)) return true;
    for (const auto& [key, value] : b)
        if (is_length(key) && a.count(key) == 0) return true;
    return false;
}

std::string record_text(const json& identity) {
    json record;
    record["format"] = "dpbo job record";
    record["format_version"] = OutputFolder::kFormatVersion;
    record["dpbo_version"] = DPBO_VERSION;
    record["identity"] = identity;
    return record.dump(2) + "\n";
}

// A folder written before job records existed holds only result.json/trace.csv (one repeat) or
// repeat-NNN/ folders of them. It is adopted when every result in it is this job's, for the repeat
// its place says, and nothing else is there; otherwise this throws, naming what does not fit.
void check_adoptable(const fs::path& dir, const json& identity, const std::vector<std::string>& names) {
    const json& job = identity["job"];
    const std::size_t repeats = identity["repeats"].get<std::size_t>();
    const auto not_ours = [&](const std::string& why) {
        return ValidationError(
            fmt::format("--out '{}' holds {} and no dpbo job record ({}): {}; it is not dpbo's "
                        "folder for this job, so nothing was written; choose another --out",
                        dir.string(), listing(names), OutputFolder::kRecordName, why));
    };
    std::size_t results = 0;
    const auto check_result = [&](const fs::path& file, std::size_t repeat) {
        const auto result = read_json(dir, file, "a dpbo result");
        if (!result || !result->is_object() || !result->contains("job"))
            throw not_ours(fmt::format("{} is not a dpbo result", file.string()));
        if ((*result)["job"] != job)
            throw ValidationError(
                fmt::format("--out '{}' holds the results of a different job ({}); settings that differ: "
                            "{}; choose another --out",
                            dir.string(), file.string(), differences(job, (*result)["job"])));
        if (result->value("repeat", json(0)) != json(repeat))
            throw not_ours(fmt::format("{} is repeat {}, not repeat {}", file.string(),
                                       result->value("repeat", json(0)).dump(), repeat));
        ++results;
    };
    const auto check_repeat_files = [&](const fs::path& folder, std::size_t repeat) {
        for (const std::string& name : entries_of(folder)) {
            if (name == "trace.csv" || name == OutputFolder::kLockName || is_temporary(name)) continue;
            if (name == "result.json" && fs::is_regular_file(folder / name)) {
                check_result(folder / name, repeat);
                continue;
            }
            throw not_ours(fmt::format("dpbo never writes {}", (folder / name).string()));
        }
    };
    if (repeats == 1) {
        check_repeat_files(dir, 1);
    } else {
        for (const std::string& name : names) {
            if (name == OutputFolder::kLockName || is_temporary(name)) continue;
            unsigned number = 0;
            const bool repeat_folder =
                name.size() >= 10 && name.rfind("repeat-", 0) == 0 &&
                std::all_of(name.begin() + 7, name.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
                fs::is_directory(dir / name);
            if (repeat_folder) number = static_cast<unsigned>(std::stoul(name.substr(7)));
            if (!repeat_folder || number == 0 || number > repeats)
                throw not_ours(fmt::format("{} is not a repeat folder of a job of {} repeats", name, repeats));
            check_repeat_files(dir / name, number);
        }
    }
    if (results == 0) throw not_ours("it holds no result of this job");
}

// Whether `dir` may be used for the job: throws ValidationError naming the folder when not;
// returns true when the record is already there.
bool check_folder(const fs::path& dir, const json& identity) {
    std::error_code ec;
    const fs::file_status link = fs::symlink_status(dir, ec);
    if (fs::is_symlink(link) && !fs::exists(dir, ec))
        throw ValidationError(
            fmt::format("--out '{}' is a symbolic link to '{}', which does not exist; create the "
                        "folder it points to or choose another --out",
                        dir.string(), fs::read_symlink(dir, ec).string()));
    if (!fs::exists(dir, ec)) return false;
    if (!fs::is_directory(dir, ec))
        throw ValidationError(fmt::format("--out '{}' exists and is not a folder; choose another --out", dir.string()));
    std::vector<std::string> names;
    try {
        names = entries_of(dir);
    } catch (const fs::filesystem_error& e) {
        throw ValidationError(fmt::format("--out '{}': cannot list the folder ({})", dir.string(), e.code().message()));
    }
    const fs::path record_file = dir / OutputFolder::kRecordName;
    if (std::find(names.begin(), names.end(), OutputFolder::kRecordName) == names.end()) {
        const bool empty = std::all_of(names.begin(), names.end(), [](const std::string& name) {
            return name == OutputFolder::kLockName || is_temporary(name);
        });
        if (!empty) check_adoptable(dir, identity, names);
        return false;
    }
    const auto record = read_json(dir, record_file, "a dpbo job record");
    if (!record || !record->is_object() || record->value("format", json("")) != json("dpbo job record") ||
        !(*record)["format_version"].is_number_integer() || !record->contains("identity"))
        throw ValidationError(
            fmt::format("--out '{}': {} is not a dpbo job record; the folder was left untouched; "
                        "choose another --out",
                        dir.string(), record_file.string()));
    const int version = (*record)["format_version"].get<int>();
    if (version > OutputFolder::kFormatVersion)
        throw ValidationError(
            fmt::format("--out '{}': {} has format version {}, written by a later dpbo ({}); this "
                        "dpbo reads version {}; choose another --out",
                        dir.string(), record_file.string(), version, record->value("dpbo_version", json("?")).dump(),
                        OutputFolder::kFormatVersion));
    const json& theirs = (*record)["identity"];
    if (theirs != identity) {
        const std::string differ = differences(identity, theirs);
        // Asked to extend a run: what a user trying it needs to hear is why it cannot be done.
        const bool larger_budget = differs_in_length(identity, theirs);
        throw ValidationError(fmt::format(
            "--out '{}' holds a different job (its record {}); settings that differ: {}; choose another --out, or "
            "repeat that job's settings to resume it{}",
            dir.string(), record_file.string(), differ,
            larger_budget
                ? ". A run is not extended with another budget or iteration count: its journal, which could replay "
                  "its releases without drawing new noise, is removed once its result is written (it holds the "
                  "objective's unprivatised answers), and an algorithm may have chosen its earlier steps for the "
                  "total (DP-GIBO's noise per step depends on T); the longer job runs in another folder and is "
                  "charged in full. A tuning meant to be extended runs as a study: 'dpbo study extend' gives it "
                  "more budget in the same file"
                : ""));
    }
    return true;
}

// The pid the holder wrote into the lock file, for the refusal.
std::string holder_pid(int fd) {
    char buffer[32] = {};
    const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
    std::string text = n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text.empty() ? "unknown" : text;
}

void remove_temporaries(const fs::path& dir) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (is_temporary(name)) fs::remove(entry.path(), ec);
        if (name.rfind("repeat-", 0) == 0 && entry.is_directory(ec))
            for (const auto& inner : fs::directory_iterator(entry.path(), ec))
                if (is_temporary(inner.path().filename().string())) fs::remove(inner.path(), ec);
    }
}

// Locks DIR/job.lock and returns its descriptor. A run that gives up before writing anything
// removes a lock file it created (abandon()); a run that opened that file just before holds a lock on
// a file no longer in the folder, so the lock counts only once the locked file is still the one the
// folder names — otherwise open the new one and try again.
//
// Returns −1, saying why in `unwritable`, when this user may not open the lock file for writing (the
// folder is another user's, or on a read-only file system).
int take_lock(const fs::path& dir, std::string& unwritable) {
    const fs::path lock_file = dir / OutputFolder::kLockName;
    constexpr int kAttempts = 100;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        const int fd = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS)) {
            unwritable =
                fmt::format("cannot open its lock file '{}' for writing: {}", lock_file.string(), std::strerror(errno));
            return -1;
        }
        if (fd < 0)
            throw RunError(fmt::format("cannot open the lock file '{}': {}", lock_file.string(), std::strerror(errno)));
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int reason = errno;
            const std::string pid = holder_pid(fd);
            ::close(fd);
            if (reason == EWOULDBLOCK)
                throw ValidationError(
                    fmt::format("--out '{}' is in use by another dpbo run (pid {}, holding {}); one "
                                "run at a time writes a folder: wait for it to finish, then run "
                                "again to keep its results, or choose another --out",
                                dir.string(), pid, lock_file.string()));
            throw RunError(fmt::format("cannot lock '{}': {}", lock_file.string(), std::strerror(reason)));
        }
        struct stat held {
        }, named{};
        if (::fstat(fd, &held) == 0 && ::stat(lock_file.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
            held.st_ino == named.st_ino)
            return fd;
        ::close(fd);
    }
    throw RunError(fmt::format("cannot lock '{}': the file was replaced {} times while locking it", lock_file.string(),
                               kAttempts));
}

}  // namespace

OutputFolder::OutputFolder(fs::path dir, const std::string& identity_json) : dir_(std::move(dir)) {
    const json identity = json::parse(identity_json);
    // First without the lock and without writing, so a folder that is not ours stays untouched.
    check_folder(dir_, identity);
    std::error_code ec;
    // A folder this user cannot write (another user's finished results, a read-only mount) is opened
    // without the lock and without writing anything: the runner reports the results in it when the
    // job is finished, and refuses the job, naming the folder, when it is not.
    if (fs::exists(dir_, ec) && ::access(dir_.c_str(), W_OK) != 0) {
        read_only_reason_ = fmt::format("this user may not write it: {}", std::strerror(errno));
        return;
    }
    created_folder_ = !fs::exists(dir_, ec);
    created_lock_ = !fs::exists(dir_ / kLockName, ec);
    fs::create_directories(dir_, ec);
    if (ec) throw RunError(fmt::format("cannot create the output folder '{}': {}", dir_.string(), ec.message()));

    lock_fd_ = take_lock(dir_, read_only_reason_);
    if (lock_fd_ < 0) return;
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(lock_fd_, 0) != 0 || ::pwrite(lock_fd_, pid.data(), pid.size(), 0) < 0) {
        // The pid is only for the message another run prints; the lock itself holds.
    }
    try {
        // Again under the lock: another run may have written the folder in between.
        const bool has_record = check_folder(dir_, identity);
        remove_temporaries(dir_);
        if (!has_record) write_file_atomically(dir_ / kRecordName, record_text(identity));
        wrote_record_ = !has_record;
    } catch (...) {
        ::close(lock_fd_);
        lock_fd_ = -1;
        throw;
    }
}

void OutputFolder::abandon() {
    std::error_code ec;
    if (wrote_record_) fs::remove(dir_ / kRecordName, ec);
    if (created_lock_) fs::remove(dir_ / kLockName, ec);
    if (lock_fd_ >= 0) ::close(lock_fd_);
    lock_fd_ = -1;
    if (created_folder_ && fs::is_empty(dir_, ec)) fs::remove(dir_, ec);
}

OutputFolder::~OutputFolder() {
    if (lock_fd_ >= 0) ::close(lock_fd_);
}

}  // namespace dpbo
