#include "dpbo/host/plugin_library.hpp"

#include <dlfcn.h>

#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/module_call_guard.hpp"

namespace dpbo {

namespace fs = std::filesystem;

namespace {

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

}  // namespace

bool valid_module_name(const std::string& name) {
    static const std::regex pattern("[a-z0-9][a-z0-9-]*");
    return std::regex_match(name, pattern);
}

const char* describe_step(PluginStep step) {
    switch (step) {
        case PluginStep::Loading:
            return "running its static initialisers (loading the library)";
        case PluginStep::CheckingHeader:
            return "reading its plugin header";
        case PluginStep::ReadingManifest:
            return "reading its manifest";
    }
    return "loading it";
}

OpenedPlugin open_plugin(const fs::path& path, const std::function<void(PluginStep)>& on_step) {
    const auto step = [&](PluginStep s) {
        if (on_step) on_step(s);
    };
    OpenedPlugin out;
    out.library = std::make_shared<boost::dll::shared_library>();

    step(PluginStep::Loading);
    boost::dll::fs::error_code load_error;
    ::dlerror();
    try {
        out.library->load(path, load_error, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    } catch (...) {
        // In case an exception from a static initialiser comes out of the loader (glibc's sends it
        // to std::terminate, which the probe program reports instead).
        throw PluginRefused(fmt::format("its static initialiser threw {}", describe_current_exception()));
    }
    if (load_error || !out.library->is_loaded()) {
        const char* why = ::dlerror();
        throw PluginRefused(fmt::format("cannot be loaded: {}", why != nullptr ? why : load_error.message()));
    }

    step(PluginStep::CheckingHeader);
    if (!out.library->has(kPluginEntrySymbol))
        throw PluginRefused(fmt::format("not a dpbo plugin: no entry symbol '{}' (declare the module with DPBO_PLUGIN)",
                                        kPluginEntrySymbol));
    const PluginHeader* header = nullptr;
    try {
        header = out.library->get_alias<PluginEntry>(kPluginEntrySymbol)();
    } catch (...) {
        throw PluginRefused(fmt::format("its entry symbol failed: {}", describe_current_exception()));
    }
    if (header == nullptr || header->magic != kPluginMagic)
        throw PluginRefused(fmt::format("entry symbol '{}' does not return a dpbo plugin header", kPluginEntrySymbol));
    if (header->abi_version != kAbiVersion)
        throw PluginRefused(
            fmt::format("built for plugin ABI version {}, this dpbo uses version {}; rebuild it "
                        "against this dpbo SDK",
                        header->abi_version, kAbiVersion));
    if (const auto mismatches = build_mismatches(header->build); !mismatches.empty())
        throw PluginRefused(fmt::format("{}", fmt::join(mismatches, "; ")));
    if (header->manifest == nullptr)
        throw PluginRefused(
            "its plugin header's manifest function is a null pointer (declare the module with "
            "DPBO_PLUGIN)");
    out.compiler = header->compiler != nullptr ? header->compiler : "";

    step(PluginStep::ReadingManifest);
    try {
        out.manifest = header->manifest();
    } catch (const std::exception& e) {
        throw PluginRefused(fmt::format("its manifest factory threw: {}", e.what()));
    } catch (...) {
        throw PluginRefused(fmt::format("its manifest factory threw {}", describe_current_exception()));
    }
    if (!valid_module_name(out.manifest.name))
        throw PluginRefused(
            fmt::format("module name '{}' is invalid; expected lower-case letters, digits and '-'", out.manifest.name));
    if (!out.manifest.factory) throw PluginRefused(fmt::format("module '{}' has no factory", out.manifest.name));
    return out;
}

}  // namespace dpbo
