#pragma once
// Finds plugins at run time, checks them, and creates modules. A broken file is refused with its
// path and reason; it never stops the good plugins from loading.
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dpbo/module_factory.hpp"
#include "dpbo/plugin.hpp"

namespace dpbo {

struct SearchDirectory {
    std::filesystem::path path;
    std::string origin;  // "--plugin-path", "DPBO_PLUGIN_PATH", "next to the executable"
};

struct LoadedPlugin {
    // Declared first so it is destroyed last: the manifest's code lives in the library.
    std::shared_ptr<void> library;
    Manifest manifest;
    std::filesystem::path path;
    std::string compiler;
};

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

    // Loads every *.so in each directory (sorted by name, not recursive). The first module with a
    // given kind and name wins; later ones are refused as duplicates.
    void load(const std::vector<SearchDirectory>& directories);
    void load_file(const std::filesystem::path& file);

    const std::vector<LoadedPlugin>& plugins() const { return plugins_; }
    const std::vector<RefusedFile>& refused() const { return refused_; }
    const std::vector<SearchDirectory>& searched() const { return searched_; }

    const LoadedPlugin* find(ModuleKind kind, const std::string& name) const;
    // Throws ValidationError naming the closest known module and every directory searched.
    const LoadedPlugin& require(ModuleKind kind, const std::string& name) const;
    // Finds a module by name whatever its kind; throws ValidationError if absent or ambiguous.
    const LoadedPlugin& require_any(const std::string& name) const;

    // Validates `raw` against the schema, calls the factory and keeps the library loaded for as
    // long as the returned object lives. A factory that throws something other than
    // ValidationError is reported as RunError naming the module and its file.
    std::shared_ptr<Module> create(ModuleKind kind, const std::string& name,
                                   const std::map<std::string, std::string>& raw) override;

    // A description of the search for error messages: each directory, its origin and state.
    std::string describe_search() const;

private:
    std::vector<LoadedPlugin> plugins_;
    std::vector<RefusedFile> refused_;
    std::vector<SearchDirectory> searched_;
};

}  // namespace dpbo
