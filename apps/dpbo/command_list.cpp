// dpbo list: what was found, grouped by kind; what was refused and why; where it looked.
#include <iostream>

#include <fmt/format.h>

#include "cli.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::cli {

namespace {

constexpr ModuleKind kKinds[] = {ModuleKind::Algorithm,   ModuleKind::Objective,  ModuleKind::Surrogate,
                                 ModuleKind::Acquisition, ModuleKind::Mechanism,  ModuleKind::Selection,
                                 ModuleKind::RowRelease,  ModuleKind::Accountant, ModuleKind::Event};

std::optional<ModuleKind> parse_kind(const std::string& text) {
    if (text.empty()) return std::nullopt;
    // Accept the plural, as the listing prints it.
    std::string singular = text;
    if (singular.size() > 1 && singular.back() == 's') singular.pop_back();
    if (const auto kind = module_kind_from_string(singular)) return kind;
    std::vector<std::string> names;
    for (const auto k : kKinds) names.emplace_back(to_string(k));
    const auto near = closest_match(text, names);
    throw ValidationError(fmt::format("--kind '{}' is not a module kind{}; expected one of: {}", text,
                                      near ? fmt::format(" (did you mean '{}'?)", *near) : "", fmt::join(names, ", ")));
}

}  // namespace

int command_list(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string kind_text;
    po::options_description options("options");
    options.add_options()("kind", po::value(&kind_text), "only modules of this kind");
    options.add(common_options(common));
    parse_command(arguments, options);
    if (common.help) {
        print_help("dpbo list [--kind K] [--json] [--plugin-path DIR]", options,
                   "Lists every module found, grouped by kind, every plugin file refused with its reason, and the "
                   "folders searched.");
        return kSuccess;
    }
    const auto only = parse_kind(kind_text);

    PluginRegistry registry;
    load_plugins(registry, common);

    if (common.json) {
        json out;
        json modules = json::array();
        for (const auto& p : registry.plugins()) {
            if (only && p.manifest.kind != *only) continue;
            modules.push_back({{"kind", to_string(p.manifest.kind)},
                               {"name", p.manifest.name},
                               {"version", p.manifest.version},
                               {"summary", p.manifest.summary},
                               {"file", p.path.string()}});
        }
        json refused = json::array();
        for (const auto& r : registry.refused()) refused.push_back({{"file", r.path.string()}, {"reason", r.reason}});
        json searched = json::array();
        for (const auto& d : registry.searched())
            searched.push_back({{"directory", d.path.string()}, {"origin", d.origin}});
        out["modules"] = modules;
        out["refused"] = refused;
        out["searched"] = searched;
        print_json(out);
        return kSuccess;
    }

    for (const auto kind : kKinds) {
        if (only && kind != *only) continue;
        std::vector<const LoadedPlugin*> of_kind;
        for (const auto& p : registry.plugins())
            if (p.manifest.kind == kind) of_kind.push_back(&p);
        std::cout << fmt::format("{}s ({})\n", to_string(kind), of_kind.size());
        for (const auto* p : of_kind)
            std::cout << fmt::format("  {:<22} {:<8} {}\n  {:<22} {:<8} from {}\n", p->manifest.name,
                                     p->manifest.version, p->manifest.summary, "", "", p->path.string());
    }
    if (!registry.refused().empty()) {
        std::cout << fmt::format("refused files ({})\n", registry.refused().size());
        for (const auto& r : registry.refused()) std::cout << fmt::format("  {}\n    {}\n", r.path.string(), r.reason);
    }
    std::cout << "searched\n";
    for (const auto& d : registry.searched()) {
        std::error_code ec;
        std::cout << fmt::format("  {} ({}){}\n", d.path.string(), d.origin,
                                 std::filesystem::is_directory(d.path, ec) ? "" : ": does not exist");
    }
    return kSuccess;
}

}  // namespace dpbo::cli
