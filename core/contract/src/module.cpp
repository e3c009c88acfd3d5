// ModuleKind names and the root interface's out-of-line destructor (one vtable and typeinfo per
// interface, in libdpbo; each interface's defaults live in a source of its own).
#include <array>
#include <utility>

#include <fmt/format.h>

#include "dpbo/module.hpp"
#include "dpbo/module_factory.hpp"

namespace dpbo {

namespace {
constexpr std::array<std::pair<ModuleKind, std::string_view>, 9> kKindNames{{
    {ModuleKind::Objective, "objective"},
    {ModuleKind::Surrogate, "surrogate"},
    {ModuleKind::Acquisition, "acquisition"},
    {ModuleKind::Mechanism, "mechanism"},
    {ModuleKind::Selection, "selection"},
    {ModuleKind::Accountant, "accountant"},
    {ModuleKind::Algorithm, "algorithm"},
    {ModuleKind::RowRelease, "row-release"},
    {ModuleKind::Event, "event"},
}};
}  // namespace

std::string_view to_string(ModuleKind kind) {
    for (const auto& [k, name] : kKindNames)
        if (k == kind) return name;
    return "unknown";
}

std::optional<ModuleKind> module_kind_from_string(std::string_view text) {
    for (const auto& [k, name] : kKindNames)
        if (name == text) return k;
    return std::nullopt;
}

Module::~Module() = default;

std::string Module::describe_origin() const {
    if (origin_.name.empty()) return std::string(to_string(kind()));
    if (origin_.file.empty()) return fmt::format("{} '{}'", to_string(kind()), origin_.name);
    return fmt::format("{} '{}' (from {})", to_string(kind()), origin_.name, origin_.file.string());
}
ModuleFactory::~ModuleFactory() = default;

}  // namespace dpbo
