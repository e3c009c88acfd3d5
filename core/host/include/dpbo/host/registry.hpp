#pragma once
// Finds plugins at run time, checks them, and creates modules. A broken file is refused with its
// path and reason; it never stops the good plugins from loading, and cannot take the host down:
//   1. each *.so is checked before anything loads it (a regular, readable, 64-bit ELF shared
//      object for this machine, as long as its ELF headers say; plugin_file.hpp);
//   2. its manifest is read by the probe program in a child process with a time limit
//      (plugin_probe.hpp), or taken from the cache of earlier probes (manifest_cache.hpp);
//   3. a library is loaded into this process only when a module is first created from it, so a
//      command loads the files of the modules it uses and no other (`dpbo list` loads none);
//      with load_on_demand, even the files' checks and manifests wait until a module is asked for;
//   4. creating a module runs inside a ModuleCallGuard (module_call_guard.hpp).
#include <chrono>
#include <deque>
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
    // What load() finds, for a command that asks for its modules by name (`dpbo run`): when the
    // manifest cache holds a current entry for every *.so in `directories`, nothing is checked or
    // read yet; a lookup by name (find, require, require_any, create) then takes in the first file
    // whose cached manifest declares that name, and a lookup that still misses, or any listing
    // (plugins, refused), takes in every file, so the answers and the error messages are load()'s.
    // (The one difference: modules taken in by name are listed first.)
    // A file the cache does not know, or knows in another version, makes this load() at once.
    void load_on_demand(const std::vector<SearchDirectory>& directories);
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

    // Every module and every refusal (after load_on_demand, every file is taken in first; the files
    // taken in by name then come first, the others in search order). A deque: a LoadedPlugin a
    // lookup returned stays where it is while later lookups take in more files.
    const std::deque<LoadedPlugin>& plugins();
    const std::vector<RefusedFile>& refused();
    const std::vector<SearchDirectory>& searched() const { return searched_; }
    // The plugin files loaded into this process so far, in the order they were loaded.
    std::vector<std::filesystem::path> loaded_files() const;

    // Not const: after load_on_demand a lookup may take in the file it needs.
    const LoadedPlugin* find(ModuleKind kind, const std::string& name);
    // Throws ValidationError naming the closest known module and every directory searched.
    const LoadedPlugin& require(ModuleKind kind, const std::string& name);
    // Finds a module by name whatever its kind; throws ValidationError if absent or ambiguous.
    const LoadedPlugin& require_any(const std::string& name);

    // Loads the module's library if this is its first module (RunError if the file changed since
    // it was probed or fails to load), validates `raw` against the schema, calls the factory and
    // keeps the library loaded for as long as the returned object lives. A factory that throws
    // anything but ValidationError is reported as RunError naming the module and its file.
    std::shared_ptr<Module> create(ModuleKind kind, const std::string& name,
                                   const std::map<std::string, std::string>& raw) override;

    // A description of the search for error messages: each directory, its origin and state.
    std::string describe_search() const;

private:
    // A file found by load_on_demand and not yet taken in: its cached module's name, empty for a
    // file the cache says is refused.
    struct DeferredFile {
        std::filesystem::path path;
        std::string module;
    };

    // The *.so files of `directories`, in search order; records them as searched.
    std::vector<std::filesystem::path> files_in(const std::vector<SearchDirectory>& directories);
    void load_with_cache(const std::vector<std::filesystem::path>& files, ManifestCache& cache);
    const LoadedPlugin* find_taken_in(ModuleKind kind, const std::string& name) const;
    // Takes in the first deferred file whose cached manifest declares `name`; false if none does.
    bool take_in_deferred(const std::string& name);
    // Takes in every deferred file, in search order.
    void take_in_all_deferred();
    std::shared_ptr<const OpenedPlugin> open_in_process(const LoadedPlugin& plugin);

    std::optional<std::chrono::duration<double>> probe_timeout_;
    std::vector<std::pair<std::filesystem::path, std::shared_ptr<const OpenedPlugin>>> opened_;
    std::deque<LoadedPlugin> plugins_;
    std::vector<RefusedFile> refused_;
    std::vector<SearchDirectory> searched_;
    std::vector<DeferredFile> deferred_;
    // The cache's entries for the deferred files, read once (ManifestCache's in-memory form).
    nlohmann::json deferred_manifests_;
};

}  // namespace dpbo
