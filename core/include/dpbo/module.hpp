#pragma once
#include <string>
#include <string_view>
#include <optional>

namespace dpbo {

enum class ModuleKind { Objective, Surrogate, Acquisition, Mechanism, Selection, Accountant, Algorithm };

std::string_view to_string(ModuleKind kind);
std::optional<ModuleKind> module_kind_from_string(std::string_view text);

// Root of every module interface. Destructors are defined out of line in libdpbo so each
// interface has one vtable and typeinfo for the whole process.
class Module {
public:
    virtual ~Module();
    virtual ModuleKind kind() const = 0;

    Module() = default;
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;
};

}  // namespace dpbo
