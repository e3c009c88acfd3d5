#include "dpbo/host/registry.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>

#include <boost/dll/shared_library.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/errors.hpp"

namespace dpbo {

namespace fs = std::filesystem;

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

bool has_elf_header(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    return in.gcount() == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
}

std::string describe_cxx11_abi(std::uint32_t flag) {
    if (flag == kNotLibstdcxx) return "a standard library other than libstdc++";
    return fmt::format("_GLIBCXX_USE_CXX11_ABI={}", flag);
}

// Every field in which the plugin's build differs from this dpbo's, each with both values and
// what the plugin must be rebuilt with; empty when they agree.
std::vector<std::string> build_mismatches(const BuildSignature& plugin) {
    const BuildSignature host = DPBO_BUILD_SIGNATURE;
    std::vector<std::string> mismatches;
    if (plugin.armadillo_major != host.armadillo_major || plugin.armadillo_minor != host.armadillo_minor ||
        plugin.armadillo_patch != host.armadillo_patch) {
        mismatches.push_back(fmt::format(
            "built with Armadillo {}.{}.{}, this dpbo with Armadillo {}.{}.{} (ARMA_VERSION_*); rebuild it against "
            "the Armadillo this dpbo was built with",
            plugin.armadillo_major, plugin.armadillo_minor, plugin.armadillo_patch, host.armadillo_major,
            host.armadillo_minor, host.armadillo_patch));
    }
    if (plugin.armadillo_word_bits != host.armadillo_word_bits) {
        mismatches.push_back(fmt::format(
            "built with {}-bit Armadillo words (arma::uword), this dpbo with {}-bit words; rebuild it with the same "
            "ARMA_64BIT_WORD / ARMA_32BIT_WORD setting",
            plugin.armadillo_word_bits, host.armadillo_word_bits));
    }
    if (plugin.libstdcxx_cxx11_abi != host.libstdcxx_cxx11_abi) {
        mismatches.push_back(fmt::format("built with libstdc++ dual ABI {}, this dpbo with {}; rebuild it with {}",
                                         describe_cxx11_abi(plugin.libstdcxx_cxx11_abi),
                                         describe_cxx11_abi(host.libstdcxx_cxx11_abi),
                                         describe_cxx11_abi(host.libstdcxx_cxx11_abi)));
    }
    return mismatches;
}

bool valid_module_name(const std::string& name) {
    static const std::regex pattern("[a-z0-9][a-z0-9-]*");
    return std::regex_match(name, pattern);
}

}  // namespace

void PluginRegistry::load(const std::vector<SearchDirectory>& directories) {
    for (const auto& directory : directories) {
        searched_.push_back(directory);
        std::error_code ec;
        if (!fs::is_directory(directory.path, ec)) continue;
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(directory.path, ec)) {
            if (entry.path().extension() == ".so" && entry.is_regular_file(ec)) files.push_back(entry.path());
        }
        std::sort(files.begin(), files.end());
        for (const auto& file : files) load_file(file);
    }
}

void PluginRegistry::load_file(const fs::path& file) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(file, ec);
    const fs::path path = ec ? file : canonical;
    // The same file reached through two search directories is one plugin, not a duplicate.
    for (const auto& loaded : plugins_)
        if (loaded.path == path) return;
    for (const auto& refused : refused_)
        if (refused.path == path) return;

    const auto refuse = [&](std::string reason) { refused_.push_back({path, std::move(reason)}); };

    if (!has_elf_header(path)) return refuse("not a shared library (no ELF header)");

    auto library = std::make_shared<boost::dll::shared_library>();
    boost::dll::fs::error_code load_error;
    ::dlerror();
    library->load(path, load_error, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    if (load_error || !library->is_loaded()) {
        const char* why = ::dlerror();
        return refuse(fmt::format("cannot be loaded: {}", why != nullptr ? why : load_error.message()));
    }
    if (!library->has(kPluginEntrySymbol))
        return refuse(fmt::format("not a dpbo plugin: no entry symbol '{}' (declare the module with DPBO_PLUGIN)",
                                  kPluginEntrySymbol));

    const PluginHeader* header = nullptr;
    try {
        header = library->get_alias<PluginEntry>(kPluginEntrySymbol)();
    } catch (const std::exception& e) {
        return refuse(fmt::format("its entry symbol failed: {}", e.what()));
    }
    if (header == nullptr || header->magic != kPluginMagic)
        return refuse(fmt::format("entry symbol '{}' does not return a dpbo plugin header", kPluginEntrySymbol));
    if (header->abi_version != kAbiVersion)
        return refuse(fmt::format("built for plugin ABI version {}, this dpbo uses version {}; rebuild it against "
                                  "this dpbo SDK",
                                  header->abi_version, kAbiVersion));
    if (const auto mismatches = build_mismatches(header->build); !mismatches.empty())
        return refuse(fmt::format("{}", fmt::join(mismatches, "; ")));

    Manifest manifest;
    try {
        manifest = header->manifest();
    } catch (const std::exception& e) {
        return refuse(fmt::format("its manifest factory threw: {}", e.what()));
    } catch (...) {
        return refuse("its manifest factory threw a non-standard exception");
    }
    if (!valid_module_name(manifest.name))
        return refuse(fmt::format("module name '{}' is invalid; expected lower-case letters, digits and '-'",
                                  manifest.name));
    if (!manifest.factory) return refuse(fmt::format("module '{}' has no factory", manifest.name));
    for (const auto& loaded : plugins_)
        if (loaded.manifest.name == manifest.name)
            return refuse(fmt::format("duplicate module name '{}': already provided by {}", manifest.name,
                                      loaded.path.string()));

    plugins_.push_back({library, std::move(manifest), path, header->compiler != nullptr ? header->compiler : ""});
}

const LoadedPlugin* PluginRegistry::find(ModuleKind kind, const std::string& name) const {
    for (const auto& plugin : plugins_)
        if (plugin.manifest.kind == kind && plugin.manifest.name == name) return &plugin;
    return nullptr;
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

const LoadedPlugin& PluginRegistry::require(ModuleKind kind, const std::string& name) const {
    if (const auto* plugin = find(kind, name)) return *plugin;
    std::vector<std::string> same_kind;
    for (const auto& plugin : plugins_) {
        if (plugin.manifest.kind == kind) same_kind.push_back(plugin.manifest.name);
        if (plugin.manifest.name == name)
            throw ValidationError(fmt::format("'{}' is a {}, not a {}", name, to_string(plugin.manifest.kind),
                                              to_string(kind)));
    }
    const auto near = closest_match(name, same_kind);
    throw ValidationError(fmt::format("unknown {} '{}'{}; known {}s: {}\n{}", to_string(kind), name,
                                      near ? fmt::format(" (did you mean '{}'?)", *near) : "", to_string(kind),
                                      same_kind.empty() ? "none" : fmt::format("{}", fmt::join(same_kind, ", ")),
                                      describe_search()));
}

const LoadedPlugin& PluginRegistry::require_any(const std::string& name) const {
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
    const ParameterSet parameters = validate_parameters(plugin.manifest.schema, raw, owner);
    const auto failed = [&](const std::string& why) {
        return RunError(fmt::format("{} (from {}) could not be created: {}", owner, plugin.path.string(), why));
    };
    std::unique_ptr<Module> module;
    try {
        module = plugin.manifest.factory(parameters);
    } catch (const ValidationError& e) {
        const std::string what = e.what();
        if (what.rfind(owner, 0) == 0) throw;
        throw ValidationError(fmt::format("{}: {}", owner, what));
    } catch (const std::exception& e) {
        throw failed(e.what());
    } catch (...) {
        throw failed("a non-standard exception");
    }
    if (!module) throw failed("its factory returned nothing");
    if (module->kind() != kind)
        throw failed(fmt::format("its factory made a {}, the manifest says {}", to_string(module->kind()),
                                 to_string(kind)));
    module->origin_ = ModuleOrigin{name, plugin.path};
    // The deleter holds the library: the module's code stays mapped until the module is gone.
    std::shared_ptr<void> library = plugin.library;
    return std::shared_ptr<Module>(module.release(), [library](Module* m) { delete m; });
}

}  // namespace dpbo
