#pragma once
// Finds plugins at run time, checks them, and creates modules. A broken file is refused with its
// path and reason; it never stops the good plugins from loading, and cannot take the host down:
//   1. each *.so is checked before anything loads it (a regular, readable, 64-bit ELF shared
//      object for this machine, as long as its ELF headers say; plugin_file.hpp);
//   2. its manifest is read by the probe program in a child process with a time limit
//      (plugin_probe.hpp), or taken from the cache of earlier probes (manifest_cache.hpp);
//   3. a library is loaded into this process only when a module is first created from it, so a
//      command loads the files of the modules it uses and no other (`dpbo list` loads none);
//   4. creating a module runs inside a ModuleCallGuard (module_call_guard.hpp).
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpbo/host/plugin_file.hpp"
#include "dpbo/module_factory.hpp"
#include "dpbo/plugin.hpp"

namespace dpbo {

struct SearchDirectory {
    std::filesystem::path path;
    std::string origin;  // "--plugin-path", "DPBO_PLUGIN_PATH", "next to the executable"
};

// A plugin file the registry knows, with its manifest as the probe read it. The manifest has no
// factory: the library is loaded into this process when a module is first created from it.
struct LoadedPlugin {
    Manifest manifest;
    std::filesystem::path path;
    std::string compiler;
    FileIdentity identity;  // the file probed; a file changed since is not loaded
};

class ManifestCache;
struct OpenedPlugin;

struct RefusedFile {
    std::filesystem::path path;
    std::string reason;
};

// Search order: explicit directories, then DPBO_PLUGIN_PATH (colon-separated), then
// <executable dir>/../lib/dpbo/plugins. Missing directories are kept (and reported as missing).
std::vector<SearchDirectory> plugin_search_path(const std::vector<std::string>& explicit_dirs,
                                                const std::filesystem::path& executable);

class PluginRegistry final : public ModuleFactory {
public:
    PluginRegistry() = default;
    ~PluginRegistry() override;

    // Finds every *.so in each directory (sorted by name, not recursive; directories, FIFOs, links
    // named *.so are refused, saying what they are), probes them and records each module or refusal.
    // The first module with a given name wins; later ones are refused as duplicates. Throws
    // ValidationError when DPBO_PROBE_TIMEOUT is set to something other than a number of seconds.
    void load(const std::vector<SearchDirectory>& directories);
    void load_file(const std::filesystem::path& file);
    // Several files at once: the manifest cache is read once for all of them.
    void load_files(const std::vector<std::filesystem::path>& files);
    // The same with `cached` (from cached_manifests) standing in for the manifest cache: a file
    // whose entry no longer matches it is probed. For a caller that loads the same few plugins in
    // every process (an ask/tell study), whose start-up the whole cache's parsing would dominate.
    void load_files(const std::vector<std::filesystem::path>& files, const nlohmann::json& cached);
    // The manifest cache's entries for `files`, for load_files above.
    nlohmann::json cached_manifests(const std::vector<std::filesystem::path>& files) const;

    // How long the probe may take over one file: this, else DPBO_PROBE_TIMEOUT (seconds, e.g. 0.5),
    // else 5 s. A probe that takes longer is killed and the file refused.
    void set_probe_timeout(std::chrono::duration<double> limit) { probe_timeout_ = limit; }
    std::chrono::duration<double> probe_timeout() const;

    const std::vector<LoadedPlugin>& plugins() const { return plugins_; }
    const std::vector<RefusedFile>& refused() const { return refused_; }
    const std::vector<SearchDirectory>& searched() const { return searched_; }
    // The plugin files loaded into this process so far, in the order they were loaded.
    std::vector<std::filesystem::path> loaded_files() const;

    const LoadedPlugin* find(ModuleKind kind, const std::string& name) const;
    // Throws ValidationError naming the closest known module and every directory searched.
    const LoadedPlugin& require(ModuleKind kind, const std::string& name) const;
    // Finds a module by name whatever its kind; throws ValidationError if absent or ambiguous.
    const LoadedPlugin& require_any(const std::string& name) const;

    // Loads the module's library if this is its first module (RunError if the file changed since
    // it was probed or fails to load), validates `raw` against the schema, calls the factory and
    // keeps the library loaded for as long as the returned object lives. A factory that throws
    // anything but ValidationError is reported as RunError naming the module and its file.
    std::shared_ptr<Module> create(ModuleKind kind, const std::string& name,
                                   const std::map<std::string, std::string>& raw) override;

    // A description of the search for error messages: each directory, its origin and state.
    std::string describe_search() const;

private:
    void load_with_cache(const std::vector<std::filesystem::path>& files, ManifestCache& cache);
    std::shared_ptr<const OpenedPlugin> open_in_process(const LoadedPlugin& plugin);

    std::optional<std::chrono::duration<double>> probe_timeout_;
    std::vector<std::pair<std::filesystem::path, std::shared_ptr<const OpenedPlugin>>> opened_;
    std::vector<LoadedPlugin> plugins_;
    std::vector<RefusedFile> refused_;
    std::vector<SearchDirectory> searched_;
};

}  // namespace dpbo
