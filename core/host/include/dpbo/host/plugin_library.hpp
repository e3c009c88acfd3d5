#pragma once
// Loads one plugin file into this process and reads its manifest, checking everything the plugin
// contract promises on the way (entry symbol, header magic, ABI version, build signature, a
// manifest function, a valid module name, a factory). Run by the probe program (a crash there
// cannot reach the host) and by the registry when a module is first created from the file.
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include <boost/dll/shared_library.hpp>

#include "dpbo/plugin.hpp"

namespace dpbo {

// The file is not a usable dpbo plugin; what() says why, in a phrase that follows the file name.
class PluginRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct OpenedPlugin {
    // Declared first so it is destroyed last: the manifest's factory is code in the library.
    std::shared_ptr<boost::dll::shared_library> library;
    Manifest manifest;
    std::string compiler;
};

// The steps of opening a plugin, reported before each starts so that a crash can be placed.
enum class PluginStep { Loading, CheckingHeader, ReadingManifest };

// "running its static initialisers (loading the library)", "reading its manifest", ...
const char* describe_step(PluginStep step);

// Lower-case letters, digits and '-', not starting with '-'.
bool valid_module_name(const std::string& name);

// Throws PluginRefused for anything wrong with the file, including an exception of any type
// escaping its static initialisers or its manifest function.
OpenedPlugin open_plugin(const std::filesystem::path& path, const std::function<void(PluginStep)>& on_step = {});

}  // namespace dpbo
