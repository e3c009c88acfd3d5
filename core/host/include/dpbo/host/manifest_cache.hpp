#pragma once
// Probe results kept between runs, so that `dpbo list` does not start a probe per plugin every
// time, and so that a command can find the file of a module it names (find_module) by reading this
// one file. An entry is used only for the same file (path, device, inode, size, modification time in
// ns) probed by the same host (libdpbo and probe program, by the same identity, and the same
// LD_LIBRARY_PATH); a timed-out probe is retried when the time limit is now longer. The file lives
// in $XDG_CACHE_HOME/dpbo (or ~/.cache/dpbo), is replaced atomically, and is only an optimisation:
// a missing, corrupt or unwritable cache is ignored, and an entry that does not parse is probed
// again. The registry still checks, when it loads a library, that it is the module probed.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpbo/host/plugin_file.hpp"

namespace dpbo {

class ManifestCache {
public:
    // `file` empty: nothing is read or written. `host` identifies the program doing the probing.
    // A cache held in memory only (a document written by document_for), never saved.
    ManifestCache(const nlohmann::json& document, std::string host);
    ManifestCache(std::filesystem::path file, std::string host);

    // $XDG_CACHE_HOME/dpbo/plugin-manifests-3, else $HOME/.cache/dpbo/...; empty without either.
    static std::filesystem::path default_file();
    // The identity of this libdpbo, of `probe_program` and of the library search path.
    static std::string host_identity(const std::filesystem::path& probe_program);

    std::optional<nlohmann::json> find(const std::filesystem::path& path, const FileIdentity& identity,
                                       double timeout_seconds) const;
    // For the same current entry as find: the name of the module the file declares, empty for a
    // file the probe refused, without parsing the probe's result.
    std::optional<std::string> find_module(const std::filesystem::path& path, const FileIdentity& identity,
                                           double timeout_seconds) const;
    void store(const std::filesystem::path& path, const FileIdentity& identity, const nlohmann::json& result);
    // Writes the file if anything was stored, dropping entries of files that no longer exist.
    // Failures are ignored.
    void save() const;
    // The entries of `paths` as a document the in-memory constructor reads: a caller that loads the
    // same few plugins again and again keeps these instead of reading the whole cache each time.
    nlohmann::json document_for(const std::vector<std::filesystem::path>& paths) const;

private:
    void read_entries(nlohmann::json document);
    // The file's text (manifest_cache.cpp describes its format).
    void read_file_entries(const std::string& text);
    const nlohmann::json* current_entry(const std::filesystem::path& path, const FileIdentity& identity,
                                        double timeout_seconds) const;
    // The module a probe's result declares; empty for a refusal.
    static std::string module_of(const nlohmann::json& result);

    std::filesystem::path file_;
    std::string host_;
    std::map<std::string, nlohmann::json> entries_;
    bool changed_ = false;
};

}  // namespace dpbo
