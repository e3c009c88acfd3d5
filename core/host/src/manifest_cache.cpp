#include "dpbo/host/manifest_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include <boost/dll/runtime_symbol_info.hpp>
#include <fmt/format.h>

#include "bounded_input.hpp"
#include "dpbo/abi.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/result_io.hpp"

namespace dpbo {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr int kFormat = 1;
// Far above any real cache (a few kB per plugin); a larger file is not ours to parse.
constexpr std::size_t kLargestCache = 32 * 1024 * 1024;

std::string identity_text(const fs::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return fmt::format("{}:missing", path.string());
    return fmt::format("{}:{}:{}:{}:{}.{}", path.string(), info.st_dev, info.st_ino, info.st_size, info.st_mtim.tv_sec,
                       info.st_mtim.tv_nsec);
}

json identity_json(const FileIdentity& identity) {
    return {{"device", identity.device},
            {"inode", identity.inode},
            {"size", identity.size},
            {"mtime_ns", identity.mtime_ns}};
}

json read_document(const fs::path& file) {
    // Read whole, then parsed from memory: several times faster than parsing from the stream, and
    // every dpbo command that loads plugins reads this file. A cache that cannot be read (missing,
    // not a regular file, too large to be ours) is no cache: the manifests are probed again.
    std::error_code ec;
    if (!fs::exists(file, ec)) return nullptr;
    try {
        return json::parse(bounded_input::read_file(file.string(), {file.string(), "a manifest cache", kLargestCache}),
                           nullptr, false);
    } catch (const std::exception&) {
        return nullptr;
    }
}

}  // namespace

ManifestCache::ManifestCache(fs::path file, std::string host) : file_(std::move(file)), host_(std::move(host)) {
    if (file_.empty()) return;
    read_entries(read_document(file_));
}

ManifestCache::ManifestCache(const json& document, std::string host) : host_(std::move(host)) {
    read_entries(document);
}

json ManifestCache::document_for(const std::vector<fs::path>& paths) const {
    json entries = json::object();
    for (const fs::path& path : paths)
        if (const auto found = entries_.find(path.string()); found != entries_.end())
            entries[path.string()] = found->second;
    return {{"format", kFormat}, {"entries", entries}};
}

void ManifestCache::read_entries(const json& document) {
    if (!document.is_object() || document.value("format", json()) != kFormat) return;
    const auto entries = document.find("entries");
    if (entries == document.end() || !entries->is_object()) return;
    for (const auto& [path, entry] : entries->items())
        if (entry.is_object()) entries_.emplace(path, entry);
}

fs::path ManifestCache::default_file() {
    // The XDG base directory specification: a relative XDG_CACHE_HOME is to be ignored.
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/')
        return fs::path(xdg) / "dpbo" / "plugin-manifests.json";
    if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/')
        return fs::path(home) / ".cache" / "dpbo" / "plugin-manifests.json";
    return {};
}

std::string ManifestCache::host_identity(const fs::path& probe_program) {
    std::error_code ec;
    const fs::path library = boost::dll::this_line_location(ec);
    const char* library_path = std::getenv("LD_LIBRARY_PATH");
    return fmt::format("abi {}; {}; {}; LD_LIBRARY_PATH={}", kAbiVersion, identity_text(library),
                       identity_text(probe_program), library_path != nullptr ? library_path : "");
}

std::optional<json> ManifestCache::find(const fs::path& path, const FileIdentity& identity,
                                        double timeout_seconds) const {
    const auto found = entries_.find(path.string());
    if (found == entries_.end()) return std::nullopt;
    const json& entry = found->second;
    if (entry.value("host", json()) != host_ || entry.value("file", json()) != identity_json(identity))
        return std::nullopt;
    const auto result = entry.find("result");
    if (result == entry.end() || !result->is_object()) return std::nullopt;
    // A probe cut short by a shorter limit than today's might have finished now.
    if (const auto limit = result->find("timed_out_after"); limit != result->end()) {
        if (!limit->is_number() || limit->get<double>() < timeout_seconds) return std::nullopt;
    }
    return *result;
}

void ManifestCache::store(const fs::path& path, const FileIdentity& identity, const json& result) {
    entries_[path.string()] = {{"host", host_}, {"file", identity_json(identity)}, {"result", result}};
    changed_ = true;
}

void ManifestCache::save() const {
    if (file_.empty() || !changed_) return;
    json entries = json::object();
    for (const auto& [path, entry] : entries_) {
        std::error_code ec;
        if (fs::symlink_status(path, ec).type() != fs::file_type::not_found) entries[path] = entry;
    }
    const std::string text =
        json{{"format", kFormat}, {"entries", entries}}.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";

    // Written without a name and renamed over the cache (result_io.hpp): a reader sees the old file or
    // the new, never half, and a killed process leaves no temporary beside it. A cache that cannot be
    // written is only slower next time.
    try {
        write_file_atomically(file_, text);
    } catch (const RunError&) {
    }
}

}  // namespace dpbo
