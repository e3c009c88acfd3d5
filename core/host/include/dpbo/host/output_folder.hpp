#pragma once
// A job's output folder. A folder is dpbo's only when it holds dpbo's job record (job.json: the
// job's identity — every module with its parameters, the seed, the budget, the repeat count and the
// folder layout — and the record's format version); any other non-empty folder is refused untouched.
// One run at a time writes a folder: the holder keeps an exclusive flock on job.lock, and a second
// run is refused, naming the holder's pid. Temporary files a killed run left are removed. A folder
// this user may not write (another user's, a read-only mount) is opened read-only: no lock, nothing
// written; only a finished job's results can be reported from it.
#include <filesystem>
#include <string>

namespace dpbo {

class OutputFolder {
public:
    // The record's file name and its format version (a record of a later version is refused).
    static constexpr const char* kRecordName = "job.json";
    static constexpr const char* kLockName = "job.lock";
    static constexpr int kFormatVersion = 1;

    // Opens `dir` for the job whose identity is `identity_json` (a JSON object: "job" as written into
    // each result.json, "repeats", "layout"). Throws ValidationError, leaving the folder untouched,
    // when `dir` is a dangling symbolic link or not a folder, holds files without a job record
    // (unless they are all results of this very job written before job records existed: such a
    // folder is adopted), holds another job's record (naming the settings that differ), or is
    // locked by another run (naming its pid). Otherwise creates the folder, takes the lock, removes
    // stale temporaries and writes the record if it was missing. The lock is held until destruction.
    // A folder that exists but cannot be written, or whose lock file cannot be opened for writing,
    // is opened read-only instead (read_only()).
    OutputFolder(std::filesystem::path dir, const std::string& identity_json);
    ~OutputFolder();
    OutputFolder(const OutputFolder&) = delete;
    OutputFolder& operator=(const OutputFolder&) = delete;

    const std::filesystem::path& path() const { return dir_; }

    // Opened without the lock because this user may not write the folder; nothing may be written.
    bool read_only() const { return !read_only_reason_.empty(); }
    // Why: "this user may not write it: Permission denied", or about the lock file.
    const std::string& read_only_reason() const { return read_only_reason_; }

    // For a job refused after the folder was opened (a module's check at the start of its run) and
    // before any result was written: removes what opening added (the record, the lock file, the
    // folder when it was created and is empty again) and releases the lock, so the refusal leaves
    // the folder as it found it.
    void abandon();

private:
    std::filesystem::path dir_;
    int lock_fd_ = -1;
    bool created_folder_ = false;
    bool created_lock_ = false;
    bool wrote_record_ = false;
    std::string read_only_reason_;
};

}  // namespace dpbo
