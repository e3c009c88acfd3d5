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

#include <armadillo>
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

// What must agree between the host's build and a plugin's beyond kAbiVersion, because each of
// them changes the layout of types that cross the boundary without changing a mangled name, so
// the dynamic loader cannot notice: Armadillo's release (its matrices are inline templates), the
// width of arma::uword (every stored dimension; ARMA_64BIT_WORD or ARMA_32BIT_WORD), and which of
// libstdc++'s two ABIs std::string and std::list follow (_GLIBCXX_USE_CXX11_ABI).
struct BuildSignature {
    std::uint32_t armadillo_major;
    std::uint32_t armadillo_minor;
    std::uint32_t armadillo_patch;
    std::uint32_t armadillo_word_bits;
    std::uint32_t libstdcxx_cxx11_abi;  // 1 or 0; kNotLibstdcxx for another standard library
};

inline constexpr std::uint32_t kNotLibstdcxx = 0xFFFFFFFFU;

// Plain-data header. magic and abi_version come first at a layout fixed for every ABI version:
// the host reads them before anything else, and reads the rest (laid out as this abi_version
// says) only when abi_version is its own; it compares `build` before it calls anything in the
// library.
struct PluginHeader {
    std::uint32_t magic;
    std::uint32_t abi_version;
    BuildSignature build;
    const char* compiler;
    Manifest (*manifest)();
};

using PluginEntry = const PluginHeader*();
inline constexpr const char* kPluginEntrySymbol = "dpbo_plugin";

template <class Module>
Manifest make_manifest(std::string name, std::string version, std::string summary, std::string reference) {
    Manifest manifest;
    manifest.kind = Module::static_kind;
    manifest.name = std::move(name);
    manifest.version = std::move(version);
    manifest.summary = std::move(summary);
    manifest.reference = std::move(reference);
    manifest.schema = Module::schema();
    // A class whose capabilities depend on its parameters (an objective that is a box or a finite
    // set by its settings) chooses the class to build in a static create(parameters).
    manifest.factory = [](const ParameterSet& parameters) -> std::unique_ptr<dpbo::Module> {
        if constexpr (requires { Module::create(parameters); })
            return Module::create(parameters);
        else
            return std::make_unique<Module>(parameters);
    };
    return manifest;
}

}  // namespace dpbo

#define DPBO_DETAIL_STR2(x) #x
#define DPBO_DETAIL_STR(x) DPBO_DETAIL_STR2(x)
#define DPBO_COMPILER_ID "g++ " DPBO_DETAIL_STR(__GNUC__) "." DPBO_DETAIL_STR(__GNUC_MINOR__)

#if defined(_GLIBCXX_USE_CXX11_ABI)
#define DPBO_DETAIL_CXX11_ABI static_cast<std::uint32_t>(_GLIBCXX_USE_CXX11_ABI)
#else
#define DPBO_DETAIL_CXX11_ABI ::dpbo::kNotLibstdcxx
#endif

// The BuildSignature of the translation unit that expands it. A macro, not an inline constant: an
// inline variable may be merged across shared libraries by the dynamic loader, and the plugin
// would then report the host's values instead of its own.
#define DPBO_BUILD_SIGNATURE                                                             \
    ::dpbo::BuildSignature {                                                             \
        ARMA_VERSION_MAJOR, ARMA_VERSION_MINOR, ARMA_VERSION_PATCH,                      \
            static_cast<std::uint32_t>(sizeof(::arma::uword) * 8), DPBO_DETAIL_CXX11_ABI \
    }

#define DPBO_PLUGIN(ModuleClass, name, version, summary, reference)                                           \
    namespace dpbo_plugin_registration {                                                                      \
    ::dpbo::Manifest make_plugin_manifest() {                                                                 \
        return ::dpbo::make_manifest<ModuleClass>(name, version, summary, reference);                         \
    }                                                                                                         \
    const ::dpbo::PluginHeader plugin_header{::dpbo::kPluginMagic, ::dpbo::kAbiVersion, DPBO_BUILD_SIGNATURE, \
                                             DPBO_COMPILER_ID, &make_plugin_manifest};                        \
    const ::dpbo::PluginHeader* plugin_entry() { return &plugin_header; }                                     \
    }                                                                                                         \
    BOOST_DLL_ALIAS(dpbo_plugin_registration::plugin_entry, dpbo_plugin)
