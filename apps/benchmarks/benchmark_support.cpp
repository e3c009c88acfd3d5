#include "benchmark_support.hpp"

#include <stdlib.h>

#include <algorithm>
#include <exception>
#include <iostream>
#include <stdexcept>

#include "dpbo/accountant.hpp"
#include "dpbo/acquisition.hpp"
#include "dpbo/util/blas_threads.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/host/runner.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/surrogate.hpp"

namespace dpbo::bench {

bool limit_blas_threads_or_report(const char* program) {
    try {
        limit_blas_threads();
        return true;
    } catch (const std::exception& e) {
        std::cerr << program << ": " << e.what() << "\n";
        return false;
    }
}

PluginRegistry& registry() {
    static PluginRegistry instance = [] {
        limit_blas_threads();
        PluginRegistry r;
        r.load({{DPBO_PLUGIN_BUILD_DIR, "build tree"}});
        return r;
    }();
    return instance;
}

RunResult run_once(const std::string& algorithm, const std::map<std::string, std::string>& algorithm_parameters,
                   const std::string& objective, const std::map<std::string, std::string>& objective_parameters,
                   const std::string& surrogate, const std::map<std::string, std::string>& surrogate_parameters,
                   const std::string& acquisition, const std::map<std::string, std::string>& acquisition_parameters,
                   std::uint64_t seed) {
    auto& modules = registry();
    auto algo = modules.create_as<Algorithm>(algorithm, algorithm_parameters);
    auto target = modules.create_as<Objective>(objective, objective_parameters);
    SerialEvaluator evaluator;
    ExperimentRng rng(seed);
    auto noise = PrivacyNoiseSource::from_seed(seed);
    RunObserver quiet;
    PrivacyLedger ledger(modules.create_as<Accountant>("gdp"), std::nullopt, noise, algorithm);
    RunContext context{*target, evaluator, rng, ledger, quiet, modules, {}};
    if (!surrogate.empty())
        context.roles.add("surrogate", modules.create_as<Surrogate>(surrogate, surrogate_parameters));
    if (!acquisition.empty())
        context.roles.add("acquisition", modules.create_as<Acquisition>(acquisition, acquisition_parameters));
    RunResult result = algo->run(context);
    result.privacy = ledger.statement_for(result.privacy);
    return result;
}

TimedRun run_with_roles(const std::string& algorithm, const std::map<std::string, std::string>& algorithm_parameters,
                        Objective& objective, const std::map<std::string, RoleModule>& roles, std::uint64_t seed) {
    auto& modules = registry();
    auto algo = modules.create_as<Algorithm>(algorithm, algorithm_parameters);
    RoleModules chosen;
    for (const Role& role : algo->roles()) {
        if (const auto given = roles.find(role.name); given != roles.end())
            chosen.add(role.name, modules.create(role.kind, given->second.name, given->second.parameters));
        else if (!role.default_module.empty())
            chosen.add(role.name, modules.create(role.kind, role.default_module, role.default_parameters));
    }
    for (const auto& [name, module] : roles)
        if (!chosen.has(name))
            throw std::invalid_argument("algorithm '" + algorithm + "' declares no role '" + name + "'");
    const std::string owner = "algorithm '" + algorithm + "'";
    SerialEvaluator evaluator;
    ExperimentRng rng(seed);
    auto noise = PrivacyNoiseSource::from_seed(seed);
    RunObserver quiet;
    PrivacyLedger ledger(create_run_accountant(modules, owner, algo->roles(), chosen), std::nullopt, noise, owner);
    RunContext context{objective, evaluator, rng, ledger, quiet, modules, std::move(chosen)};
    const double start = thread_cpu_seconds();
    RunResult result = algo->run(context);
    const double seconds = thread_cpu_seconds() - start;
    result.privacy = ledger.statement_for(result.privacy);
    return {std::move(result), seconds};
}

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

ScratchFolder::ScratchFolder(const std::string& stem) {
    std::string pattern = (std::filesystem::temp_directory_path() / (stem + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a folder like " + pattern);
    path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

}  // namespace dpbo::bench
