#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace dpbo {

// Event: a kind of privacy event a plugin adds (event_kind.hpp).
enum class ModuleKind {
    Objective,
    Surrogate,
    Acquisition,
    Mechanism,
    Selection,
    Accountant,
    Algorithm,
    RowRelease,
    Event
};

std::string_view to_string(ModuleKind kind);
std::optional<ModuleKind> module_kind_from_string(std::string_view text);

class PluginRegistry;

// Where a module came from: the name it was created under and the plugin file that holds it. The
// registry sets it on every module it creates, so a module's failures can name both (a module
// built directly, outside the registry, has an empty origin).
struct ModuleOrigin {
    std::string name;
    std::filesystem::path file;
};

// Root of every module interface. Destructors are defined out of line in libdpbo so each
// interface has one vtable and typeinfo for the whole process.
class Module {
public:
    virtual ~Module();
    virtual ModuleKind kind() const = 0;

    const ModuleOrigin& origin() const { return origin_; }
    // "objective 'branin' (from /path/objective-branin.so)", or the kind alone without an origin.
    std::string describe_origin() const;

    Module() = default;
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;

private:
    // Only the registry knows where a module came from; a plugin cannot claim another's origin.
    friend class PluginRegistry;
    ModuleOrigin origin_;
};

}  // namespace dpbo
