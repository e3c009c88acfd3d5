#include "dpbo/host/registry.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "dpbo/errors.hpp"
#include "dpbo/host/manifest_cache.hpp"
#include "dpbo/host/manifest_json.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/host/plugin_library.hpp"
#include "dpbo/host/plugin_probe.hpp"

namespace dpbo {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::vector<SearchDirectory> plugin_search_path(const std::vector<std::string>& explicit_dirs,
                                                const fs::path& executable) {
    std::vector<SearchDirectory> out;
    for (const auto& dir : explicit_dirs) out.push_back({dir, "--plugin-path"});
    if (const char* env = std::getenv("DPBO_PLUGIN_PATH"); env != nullptr) {
        std::string value(env);
        std::size_t start = 0;
        while (start <= value.size()) {
            const std::size_t end = std::min(value.find(':', start), value.size());
            if (end > start) out.push_back({value.substr(start, end - start), "DPBO_PLUGIN_PATH"});
            start = end + 1;
        }
    }
    if (!executable.empty()) {
        std::error_code ec;
        fs::path beside = executable.parent_path() / ".." / "lib" / "dpbo" / "plugins";
        const fs::path normal = fs::weakly_canonical(beside, ec);
        out.push_back({ec ? beside.lexically_normal() : normal, "next to the executable"});
    }
    return out;
}

PluginRegistry::~PluginRegistry() = default;

namespace {

constexpr double kDefaultProbeSeconds = 5.0;
constexpr double kLongestProbeSeconds = 3600.0;

std::chrono::duration<double> probe_timeout_from_environment() {
    const char* text = std::getenv("DPBO_PROBE_TIMEOUT");
    if (text == nullptr) return std::chrono::duration<double>(kDefaultProbeSeconds);
    const std::string value(text);
    double seconds = 0.0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() || !(seconds > 0.0) ||
        seconds > kLongestProbeSeconds)
        throw ValidationError(
            fmt::format("DPBO_PROBE_TIMEOUT='{}' is not a time limit; expected a number of seconds "
                        "above 0 and at most {:g} (e.g. 5 or 0.5): how long a plugin may take to "
                        "load and report its manifest",
                        value, kLongestProbeSeconds));
    return std::chrono::duration<double>(seconds);
}

// How the registry names a file: a plugin by its canonical path (one file reached through two
// directories is one plugin); anything else as found, since a link to /dev/zero must be reported
// as the link in the plugin folder, not as /dev/zero.
fs::path registry_path(const fs::path& file, bool usable) {
    std::error_code ec;
    const fs::path path = usable ? fs::weakly_canonical(file, ec) : fs::absolute(file, ec).lexically_normal();
    return ec ? file : path;
}

struct ProbedModule {
    Manifest manifest;
    std::string compiler;
};

// The module a probe result describes; nothing for a refusal or a manifest that does not parse.
std::optional<ProbedModule> probed_module(const json& result) {
    const auto manifest = result.find("manifest");
    if (manifest == result.end()) return std::nullopt;
    try {
        return ProbedModule{manifest_from_json(*manifest), result.value("compiler", std::string())};
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::string refusal_of(const json& result) {
    const auto reason = result.find("refused");
    if (reason != result.end() && reason->is_string()) return reason->get<std::string>();
    return "cannot be probed: its probe reported no manifest that dpbo can read";
}

}  // namespace

std::chrono::duration<double> PluginRegistry::probe_timeout() const {
    return probe_timeout_ ? *probe_timeout_ : probe_timeout_from_environment();
}

std::vector<fs::path> PluginRegistry::files_in(const std::vector<SearchDirectory>& directories) {
    std::vector<fs::path> files;
    for (const auto& directory : directories) {
        searched_.push_back(directory);
        std::error_code ec;
        if (!fs::is_directory(directory.path, ec)) continue;
        std::vector<fs::path> found;
        // Every entry named *.so, whatever it is: a directory or a FIFO with that name is refused
        // saying what it is, not passed over in silence.
        for (const auto& entry : fs::directory_iterator(directory.path, ec))
            if (entry.path().extension() == ".so") found.push_back(entry.path());
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    return files;
}

void PluginRegistry::load(const std::vector<SearchDirectory>& directories) { load_files(files_in(directories)); }

void PluginRegistry::load_on_demand(const std::vector<SearchDirectory>& directories) {
    const std::vector<fs::path> files = files_in(directories);
    ManifestCache cache(ManifestCache::default_file(), ManifestCache::host_identity(probe_program_path()));
    const double timeout = probe_timeout().count();
    std::vector<DeferredFile> deferred;
    std::vector<fs::path> paths;
    for (const fs::path& file : files) {
        const auto identity = regular_file_identity(file);
        const fs::path path = registry_path(file, identity.has_value());
        auto module = identity ? cache.find_module(path, *identity, timeout) : std::nullopt;
        // A file the cache cannot vouch for might declare any module, ahead of the ones it knows:
        // only the whole search answers as load() would.
        if (!module) {
            load_with_cache(files, cache);
            return;
        }
        deferred.push_back({path, std::move(*module)});
        paths.push_back(path);
    }
    deferred_manifests_ = cache.document_for(paths);
    deferred_.insert(deferred_.end(), deferred.begin(), deferred.end());
}

bool PluginRegistry::take_in_deferred(const std::string& name) {
    // The first file declaring the name, as load() keeps the first and refuses later ones.
    const auto first =
        std::find_if(deferred_.begin(), deferred_.end(), [&](const DeferredFile& file) { return file.module == name; });
    if (first == deferred_.end()) return false;
    const fs::path path = first->path;
    deferred_.erase(first);
    ManifestCache cache(deferred_manifests_, ManifestCache::host_identity(probe_program_path()));
    load_with_cache({path}, cache);
    return true;
}

void PluginRegistry::take_in_all_deferred() {
    if (deferred_.empty()) return;
    std::vector<fs::path> paths;
    for (const DeferredFile& file : deferred_) paths.push_back(file.path);
    deferred_.clear();
    ManifestCache cache(deferred_manifests_, ManifestCache::host_identity(probe_program_path()));
    load_with_cache(paths, cache);
}

const std::deque<LoadedPlugin>& PluginRegistry::plugins() {
    take_in_all_deferred();
    return plugins_;
}

const std::vector<RefusedFile>& PluginRegistry::refused() {
    take_in_all_deferred();
    return refused_;
}

void PluginRegistry::load_file(const fs::path& file) { load_files({file}); }

void PluginRegistry::load_files(const std::vector<fs::path>& files) {
    ManifestCache cache(ManifestCache::default_file(), ManifestCache::host_identity(probe_program_path()));
    load_with_cache(files, cache);
}

void PluginRegistry::load_files(const std::vector<fs::path>& files, const json& cached) {
    ManifestCache cache(cached, ManifestCache::host_identity(probe_program_path()));
    load_with_cache(files, cache);
}

json PluginRegistry::cached_manifests(const std::vector<fs::path>& files) const {
    return ManifestCache(ManifestCache::default_file(), ManifestCache::host_identity(probe_program_path()))
        .document_for(files);
}

void PluginRegistry::load_with_cache(const std::vector<fs::path>& files, ManifestCache& cache) {
    const auto timeout = probe_timeout();
    struct Candidate {
        fs::path path;
        PluginFileCheck check;
        json result;
    };
    std::vector<Candidate> candidates;
    const auto known = [&](const fs::path& path) {
        const auto same = [&](const auto& item) { return item.path == path; };
        return std::any_of(plugins_.begin(), plugins_.end(), same) ||
               std::any_of(refused_.begin(), refused_.end(), same) ||
               std::any_of(candidates.begin(), candidates.end(), same);
    };
    for (const auto& file : files) {
        PluginFileCheck check = check_plugin_file(file);
        const fs::path path = registry_path(file, check.usable());
        if (!known(path)) candidates.push_back({path, std::move(check), nullptr});
    }

    const fs::path probe = probe_program_path();
    std::vector<std::size_t> to_probe;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        Candidate& c = candidates[i];
        if (!c.check.usable()) continue;
        // A cached manifest that does not parse is not trusted: the file is probed again.
        if (auto cached = cache.find(c.path, c.check.identity, timeout.count());
            cached && (!cached->contains("manifest") || probed_module(*cached)))
            c.result = std::move(*cached);
        else
            to_probe.push_back(i);
    }
    if (!to_probe.empty()) {
        std::vector<fs::path> paths;
        for (const std::size_t i : to_probe) paths.push_back(candidates[i].path);
        std::vector<json> results = probe_plugin_files(probe, paths, timeout);
        for (std::size_t k = 0; k < to_probe.size(); ++k) {
            Candidate& c = candidates[to_probe[k]];
            c.result = std::move(results[k]);
            // A probe that could not run says nothing about the file: ask again next time.
            const bool probe_failed =
                c.result.contains("refused") && refusal_of(c.result).rfind("cannot be probed", 0) == 0;
            if (!probe_failed) cache.store(c.path, c.check.identity, c.result);
        }
        cache.save();
    }

    for (auto& c : candidates) {
        const auto refuse = [&](std::string reason) { refused_.push_back({c.path, std::move(reason)}); };
        if (!c.check.usable()) {
            refuse(c.check.problem);
            continue;
        }
        const auto module = probed_module(c.result);
        if (!module) {
            refuse(refusal_of(c.result));
            continue;
        }
        const std::string& name = module->manifest.name;
        if (!valid_module_name(name)) {
            refuse(fmt::format("module name '{}' is invalid; expected lower-case letters, digits and '-'", name));
            continue;
        }
        const auto same_name = std::find_if(plugins_.begin(), plugins_.end(),
                                            [&](const LoadedPlugin& p) { return p.manifest.name == name; });
        if (same_name != plugins_.end()) {
            refuse(fmt::format("duplicate module name '{}': already provided by {}", name, same_name->path.string()));
            continue;
        }
        plugins_.push_back({module->manifest, c.path, module->compiler, c.check.identity});
    }
}

std::vector<fs::path> PluginRegistry::loaded_files() const {
    std::vector<fs::path> out;
    for (const auto& [path, opened] : opened_) out.push_back(path);
    return out;
}

std::shared_ptr<const OpenedPlugin> PluginRegistry::open_in_process(const LoadedPlugin& plugin) {
    for (const auto& [path, opened] : opened_)
        if (path == plugin.path) return opened;
    const std::string file = plugin.path.string();
    const PluginFileCheck check = check_plugin_file(plugin.path);
    if (!check.usable()) throw RunError(fmt::format("{}: {}", file, check.problem));
    if (check.identity != plugin.identity)
        throw RunError(
            fmt::format("{} changed after dpbo probed it (it was rewritten or replaced while dpbo ran); "
                        "run the command again",
                        file));
    OpenedPlugin opened;
    try {
        ModuleCallGuard guard(fmt::format("plugin file {}", file), "loading it into dpbo");
        opened = open_plugin(plugin.path);
    } catch (const PluginRefused& e) {
        throw RunError(fmt::format("{}: {}", file, e.what()));
    }
    const Manifest& probed = plugin.manifest;
    if (opened.manifest.kind != probed.kind || opened.manifest.name != probed.name)
        throw RunError(fmt::format(
            "{} declares {} '{}' when loaded into dpbo, but its probe read {} '{}'; a "
            "plugin's manifest must not change from one load to the next",
            file, to_string(opened.manifest.kind), opened.manifest.name, to_string(probed.kind), probed.name));
    auto shared = std::make_shared<const OpenedPlugin>(std::move(opened));
    opened_.emplace_back(plugin.path, shared);
    return shared;
}

const LoadedPlugin* PluginRegistry::find_taken_in(ModuleKind kind, const std::string& name) const {
    for (const auto& plugin : plugins_)
        if (plugin.manifest.kind == kind && plugin.manifest.name == name) return &plugin;
    return nullptr;
}

const LoadedPlugin* PluginRegistry::find(ModuleKind kind, const std::string& name) {
    if (const auto* plugin = find_taken_in(kind, name)) return plugin;
    if (deferred_.empty()) return nullptr;
    if (take_in_deferred(name))
        if (const auto* plugin = find_taken_in(kind, name)) return plugin;
    // Not where the cache said (the file changed since), or not there at all: the whole search.
    take_in_all_deferred();
    return find_taken_in(kind, name);
}

std::string PluginRegistry::describe_search() const {
    std::string out = "directories searched:";
    if (searched_.empty()) out += " none";
    for (const auto& dir : searched_) {
        std::error_code ec;
        const bool exists = fs::is_directory(dir.path, ec);
        out += fmt::format("\n  {} ({}){}", dir.path.string(), dir.origin, exists ? "" : ": does not exist");
    }
    if (!refused_.empty()) {
        out += "\nfiles refused:";
        for (const auto& r : refused_) out += fmt::format("\n  {}: {}", r.path.string(), r.reason);
    }
    return out;
}

const LoadedPlugin& PluginRegistry::require(ModuleKind kind, const std::string& name) {
    if (const auto* plugin = find(kind, name)) return *plugin;
    std::vector<std::string> same_kind;
    for (const auto& plugin : plugins_) {
        if (plugin.manifest.kind == kind) same_kind.push_back(plugin.manifest.name);
        if (plugin.manifest.name == name)
            throw ValidationError(
                fmt::format("'{}' is a {}, not a {}", name, to_string(plugin.manifest.kind), to_string(kind)));
    }
    const auto near = closest_match(name, same_kind);
    throw ValidationError(fmt::format("unknown {} '{}'{}; known {}s: {}\n{}", to_string(kind), name,
                                      near ? fmt::format(" (did you mean '{}'?)", *near) : "", to_string(kind),
                                      same_kind.empty() ? "none" : fmt::format("{}", fmt::join(same_kind, ", ")),
                                      describe_search()));
}

const LoadedPlugin& PluginRegistry::require_any(const std::string& name) {
    if (!deferred_.empty()) {
        take_in_deferred(name);
        if (std::none_of(plugins_.begin(), plugins_.end(),
                         [&](const LoadedPlugin& plugin) { return plugin.manifest.name == name; }))
            take_in_all_deferred();
    }
    std::vector<std::string> all;
    for (const auto& plugin : plugins_) {
        if (plugin.manifest.name == name) return plugin;
        all.push_back(plugin.manifest.name);
    }
    const auto near = closest_match(name, all);
    throw ValidationError(fmt::format("unknown module '{}'{}; run 'dpbo list' to see every module\n{}", name,
                                      near ? fmt::format(" (did you mean '{}'?)", *near) : "", describe_search()));
}

std::shared_ptr<Module> PluginRegistry::create(ModuleKind kind, const std::string& name,
                                               const std::map<std::string, std::string>& raw) {
    const LoadedPlugin& plugin = require(kind, name);
    const std::string owner = fmt::format("{} '{}'", to_string(kind), name);
    const auto failed = [&](const std::string& why) {
        return RunError(fmt::format("{} (from {}) could not be created: {}", owner, plugin.path.string(), why));
    };
    const std::shared_ptr<const OpenedPlugin> opened = open_in_process(plugin);
    const ParameterSet parameters = validate_parameters(opened->manifest.schema, raw, owner);
    std::unique_ptr<Module> module;
    try {
        ModuleCallGuard guard(fmt::format("{} (from {})", owner, plugin.path.string()),
                              "being created (its constructor)");
        module = opened->manifest.factory(parameters);
    } catch (const ValidationError& e) {
        const std::string what = e.what();
        if (what.rfind(owner, 0) == 0) throw;
        throw ValidationError(fmt::format("{}: {}", owner, what));
    } catch (const std::exception& e) {
        throw failed(e.what());
    } catch (...) {
        throw failed(describe_current_exception());
    }
    if (!module) throw failed("its factory returned nothing");
    if (module->kind() != kind)
        throw failed(
            fmt::format("its factory made a {}, the manifest says {}", to_string(module->kind()), to_string(kind)));
    module->origin_ = ModuleOrigin{name, plugin.path};
    // The deleter holds the library: the module's code stays mapped until the module is gone. A
    // destructor is module code too: a crash in it is reported naming the module. (Destructors are
    // noexcept, so one that throws ends in std::terminate's abort, which the guard reports.)
    return std::shared_ptr<Module>(module.release(),
                                   [opened, who = fmt::format("{} (from {})", owner, plugin.path.string())](Module* m) {
                                       ModuleCallGuard guard(who, "being destroyed (its destructor)");
                                       delete m;
                                   });
}

}  // namespace dpbo
