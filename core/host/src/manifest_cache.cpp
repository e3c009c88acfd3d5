#include "dpbo/host/manifest_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>

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

// The file (format 3) is one line of JSON, the index, followed by the probes' results as JSON texts
// one after another. The index names, for each plugin file, its identity, the host that probed it
// (a number into the index's list of hosts), the module it declares and where its result's text
// lies (offset and length after the index line). Every command that loads plugins reads the file
// to find the modules it names, and parsing the results' texts as JSON strings (format 2, a
// 150 kB file) was a tenth of a trivial `dpbo run`; the index is a sixth of that, and only the
// results a command uses are parsed, when used. In memory, and in the documents document_for
// gives (which studies record), an entry stays format 2's: host, file, module, result as text;
// format 1 (every result a tree) is still read from such documents.
constexpr int kFileFormat = 3;
constexpr int kFormat = 2;
constexpr int kTreeFormat = 1;
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

std::string read_text(const fs::path& file) {
    // A cache that cannot be read (missing, not a regular file, too large to be ours) is no cache:
    // the manifests are probed again.
    std::error_code ec;
    if (!fs::exists(file, ec)) return {};
    try {
        return bounded_input::read_file(file.string(), {file.string(), "a manifest cache", kLargestCache});
    } catch (const std::exception&) {
        return {};
    }
}

// A number that indexes something of `size` elements, or nullopt.
std::optional<std::size_t> index_below(const json& value, std::size_t size) {
    if (!value.is_number_unsigned()) return std::nullopt;
    const auto number = value.get<std::uint64_t>();
    return number < size ? std::optional<std::size_t>(static_cast<std::size_t>(number)) : std::nullopt;
}

}  // namespace

ManifestCache::ManifestCache(fs::path file, std::string host) : file_(std::move(file)), host_(std::move(host)) {
    if (file_.empty()) return;
    read_file_entries(read_text(file_));
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

void ManifestCache::read_entries(json document) {
    if (!document.is_object()) return;
    const json format = document.value("format", json());
    if (format != kFormat && format != kTreeFormat) return;
    const auto entries = document.find("entries");
    if (entries == document.end() || !entries->is_object()) return;
    for (auto& [path, entry] : entries->items())
        if (entry.is_object()) entries_.emplace(path, std::move(entry));
}

void ManifestCache::read_file_entries(const std::string& text) {
    // Anything that is not this format, or an entry that points outside the results, is skipped:
    // those files are probed again.
    const std::size_t line_end = text.find('\n');
    if (line_end == std::string::npos) return;
    const json index = json::parse(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(line_end), nullptr, false);
    if (!index.is_object() || index.value("format", json()) != kFileFormat) return;
    const auto hosts = index.find("hosts");
    const auto entries = index.find("entries");
    if (hosts == index.end() || !hosts->is_array() || entries == index.end() || !entries->is_object()) return;
    const std::string_view results = std::string_view(text).substr(line_end + 1);
    for (const auto& [path, entry] : entries->items()) {
        if (!entry.is_object()) continue;
        const auto host = index_below(entry.value("host", json()), hosts->size());
        const json span = entry.value("result", json());
        if (!host || !(*hosts)[*host].is_string() || !span.is_array() || span.size() != 2) continue;
        const auto offset = index_below(span[0], results.size() + 1);
        const auto length = offset ? index_below(span[1], results.size() - *offset + 1) : std::nullopt;
        if (!length) continue;
        json kept = {{"host", (*hosts)[*host]},
                     {"file", entry.value("file", json())},
                     {"result", std::string(results.substr(*offset, *length))}};
        if (const auto module = entry.find("module"); module != entry.end()) kept["module"] = *module;
        entries_.emplace(path, std::move(kept));
    }
}

fs::path ManifestCache::default_file() {
    // A file of its own for each format: a dpbo that writes another format shares the folder and
    // would otherwise replace the other's cache on every run, each probing every plugin again.
    constexpr const char* kName = "plugin-manifests-3";
    // The XDG base directory specification: a relative XDG_CACHE_HOME is to be ignored.
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/')
        return fs::path(xdg) / "dpbo" / kName;
    if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/')
        return fs::path(home) / ".cache" / "dpbo" / kName;
    return {};
}

std::string ManifestCache::host_identity(const fs::path& probe_program) {
    std::error_code ec;
    const fs::path library = boost::dll::this_line_location(ec);
    const char* library_path = std::getenv("LD_LIBRARY_PATH");
    return fmt::format("abi {}; {}; {}; LD_LIBRARY_PATH={}", kAbiVersion, identity_text(library),
                       identity_text(probe_program), library_path != nullptr ? library_path : "");
}

namespace {

// An entry's result as a tree: format 2 holds its text, format 1 the tree itself.
std::optional<json> result_of(const json& entry) {
    const auto result = entry.find("result");
    if (result == entry.end()) return std::nullopt;
    json tree = result->is_string() ? json::parse(result->get_ref<const std::string&>(), nullptr, false) : *result;
    if (!tree.is_object()) return std::nullopt;
    return tree;
}

}  // namespace

const json* ManifestCache::current_entry(const fs::path& path, const FileIdentity& identity,
                                         double timeout_seconds) const {
    const auto found = entries_.find(path.string());
    if (found == entries_.end()) return nullptr;
    const json& entry = found->second;
    if (entry.value("host", json()) != host_ || entry.value("file", json()) != identity_json(identity)) return nullptr;
    // A probe cut short by a shorter limit than today's might have finished now. Only a timed-out
    // probe's (short) result says so: the others are not parsed here.
    const auto result = entry.find("result");
    if (result == entry.end()) return nullptr;
    if (!result->is_string() || result->get_ref<const std::string&>().find("timed_out_after") != std::string::npos) {
        const auto tree = result_of(entry);
        if (!tree) return nullptr;
        if (const auto limit = tree->find("timed_out_after"); limit != tree->end())
            if (!limit->is_number() || limit->get<double>() < timeout_seconds) return nullptr;
    }
    return &entry;
}

std::optional<json> ManifestCache::find(const fs::path& path, const FileIdentity& identity,
                                        double timeout_seconds) const {
    const json* entry = current_entry(path, identity, timeout_seconds);
    return entry != nullptr ? result_of(*entry) : std::nullopt;
}

std::optional<std::string> ManifestCache::find_module(const fs::path& path, const FileIdentity& identity,
                                                      double timeout_seconds) const {
    const json* entry = current_entry(path, identity, timeout_seconds);
    if (entry == nullptr) return std::nullopt;
    if (const auto module = entry->find("module"); module != entry->end() && module->is_string())
        return module->get<std::string>();
    // A format 1 entry names its module only inside the result.
    const auto result = result_of(*entry);
    if (!result) return std::nullopt;
    return module_of(*result);
}

std::string ManifestCache::module_of(const json& result) {
    const auto manifest = result.find("manifest");
    if (manifest == result.end() || !manifest->is_object()) return {};
    const auto name = manifest->find("name");
    return name != manifest->end() && name->is_string() ? name->get<std::string>() : std::string();
}

void ManifestCache::store(const fs::path& path, const FileIdentity& identity, const json& result) {
    entries_[path.string()] = {{"host", host_},
                               {"file", identity_json(identity)},
                               {"module", module_of(result)},
                               {"result", result.dump(-1, ' ', false, json::error_handler_t::replace)}};
    changed_ = true;
}

void ManifestCache::save() const {
    if (file_.empty() || !changed_) return;
    json hosts = json::array();
    std::map<std::string, std::size_t> host_numbers;
    json entries = json::object();
    std::string results;
    for (const auto& [path, entry] : entries_) {
        std::error_code ec;
        if (fs::symlink_status(path, ec).type() == fs::file_type::not_found) continue;
        const std::string host = entry.value("host", std::string());
        const auto [known, added] = host_numbers.emplace(host, host_numbers.size());
        if (added) hosts.push_back(host);
        const json& result = entry.value("result", json());
        const std::string text = result.is_string() ? result.get<std::string>()
                                                    : result.dump(-1, ' ', false, json::error_handler_t::replace);
        json indexed = {
            {"host", known->second}, {"file", entry.value("file", json())}, {"result", {results.size(), text.size()}}};
        if (const auto module = entry.find("module"); module != entry.end()) indexed["module"] = *module;
        entries[path] = std::move(indexed);
        results += text;
    }
    const std::string text = json{{"format", kFileFormat}, {"hosts", hosts}, {"entries", entries}}.dump(
                                 -1, ' ', false, json::error_handler_t::replace) +
                             "\n" + results;

    // Written without a name and renamed over the cache (result_io.hpp): a reader sees the old file or
    // the new, never half, and a killed process leaves no temporary beside it. A cache that cannot be
    // written is only slower next time.
    try {
        write_file_atomically(file_, text);
    } catch (const RunError&) {
    }
}

}  // namespace dpbo
