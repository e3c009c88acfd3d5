#pragma once
// The one header a plugin author needs for registration. A plugin is a shared library that
// defines one module class and ends with one line:
//
//   DPBO_PLUGIN(MyMechanism, "my-mechanism", "1.0.0", "one-line summary", "paper, section")
//
// The class must provide `static dpbo::ParameterSchema schema()` and a constructor taking
// `const dpbo::ParameterSet&` (values already validated against that schema).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <boost/dll/alias.hpp>

#include "dpbo/abi.hpp"
#include "dpbo/module.hpp"
#include "dpbo/parameters.hpp"

namespace dpbo {

struct Manifest {
    ModuleKind kind = ModuleKind::Objective;
    std::string name;
    std::string version;
    std::string summary;
    std::string reference;  // the paper and section implemented
    ParameterSchema schema;
    std::function<std::unique_ptr<Module>(const ParameterSet&)> factory;
};

// Plain-data header at a fixed layout for every ABI version: the host reads magic and
// abi_version before it calls anything else in the library.
struct PluginHeader {
    std::uint32_t magic;
    std::uint32_t abi_version;
    const char* compiler;
    Manifest (*manifest)();
};

using PluginEntry = const PluginHeader*();
inline constexpr const char* kPluginEntrySymbol = "dpbo_plugin";

template <class Module>
Manifest make_manifest(std::string name, std::string version, std::string summary,
                       std::string reference) {
    Manifest manifest;
    manifest.kind = Module::static_kind;
    manifest.name = std::move(name);
    manifest.version = std::move(version);
    manifest.summary = std::move(summary);
    manifest.reference = std::move(reference);
    manifest.schema = Module::schema();
    manifest.factory = [](const ParameterSet& parameters) -> std::unique_ptr<dpbo::Module> {
        return std::make_unique<Module>(parameters);
    };
    return manifest;
}

}  // namespace dpbo

#define DPBO_DETAIL_STR2(x) #x
#define DPBO_DETAIL_STR(x) DPBO_DETAIL_STR2(x)
#define DPBO_COMPILER_ID "g++ " DPBO_DETAIL_STR(__GNUC__) "." DPBO_DETAIL_STR(__GNUC_MINOR__)

#define DPBO_PLUGIN(ModuleClass, name, version, summary, reference)                              \
    namespace dpbo_plugin_registration {                                                       \
    ::dpbo::Manifest make_plugin_manifest() {                                                    \
        return ::dpbo::make_manifest<ModuleClass>(name, version, summary, reference);            \
    }                                                                                            \
    const ::dpbo::PluginHeader plugin_header{::dpbo::kPluginMagic, ::dpbo::kAbiVersion,          \
                                             DPBO_COMPILER_ID, &make_plugin_manifest};           \
    const ::dpbo::PluginHeader* plugin_entry() { return &plugin_header; }                        \
    }                                                                                            \
    BOOST_DLL_ALIAS(dpbo_plugin_registration::plugin_entry, dpbo_plugin)
