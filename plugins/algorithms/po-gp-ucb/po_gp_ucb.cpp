// PO-GP-UCB (Kharkovskii, Dai & Low 2020): the curator releases its rows through a row release
// (Algorithm 1), the modeler runs GP-UCB over the released rows (Algorithm 2) and asks the curator
// for responses by row index. With a run's objective that is already released rows (the `curator`
// objective, which asks a curator program, possibly on another machine) only the modeler runs here;
// otherwise the curator runs in this process too (local_curator.cpp).
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/bo/loop.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/module_factory.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/surrogate.hpp"
#include "local_curator.hpp"
#include "modeler.hpp"
#include "po_gp_ucb_figures.hpp"

namespace {

constexpr const char* kName = "po-gp-ucb";

class PoGpUcb final : public dpbo::Algorithm {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema = dpbo::bo_loop_schema(55, 5);
        schema
            .real("norm_bound",
                  {.fallback = 25.0,
                   .lower = 0.0,
                   .lower_inclusive = false,
                   .doc = "the curator scales the rows from their declared column bounds to rows of L2 norm at most "
                          "this (the paper: 25); a change of one row by 1 in those units is what the release covers"})
            .real("lengthscale",
                  {.lower = 0.0,
                   .lower_inclusive = false,
                   .doc = "the known length-scale of f's GP, in the release's units (norm_bound-scaled rows), used "
                          "unchanged on Z with signal variance 1 and noise_variance, as the paper's analysis does "
                          "(§2: the hyperparameters of the GP on X, reused on Z); absent: the surrogate role's "
                          "GP, fitted by maximum likelihood on Z"})
            .real("noise_variance", {.fallback = 1e-5,
                                     .lower = 0.0,
                                     .lower_inclusive = false,
                                     .doc = "with lengthscale: the known noise variance σ_n² of the responses"})
            .boolean("write_released_rows", true,
                     "write the released rows Z to released_rows.csv in the repeat's folder (one process only)");
        return schema;
    }

    explicit PoGpUcb(const dpbo::ParameterSet& parameters)
        : settings_(dpbo::bo_loop_settings(parameters)),
          norm_bound_(parameters.real("norm_bound")),
          known_lengthscale_(parameters.has("lengthscale") ? std::optional<double>(parameters.real("lengthscale"))
                                                           : std::nullopt),
          noise_variance_(parameters.real("noise_variance")),
          write_released_rows_(parameters.boolean("write_released_rows")) {}

    std::vector<dpbo::Role> roles() const override {
        return {
            {"surrogate",
             dpbo::ModuleKind::Surrogate,
             true,
             "gp",
             "the GP over the released rows: isotropic squared exponential, hyperparameters by maximum likelihood, "
             "refitted every 5 observations (between refits the posterior over the rows is extended, not recomputed)",
             {{"kernel", "rbf"},
              {"ard", "false"},
              {"mean", "constant"},
              {"standardise", "true"},
              {"fit", "marginal-likelihood"},
              {"refit_every", "5"}}},
            {"acquisition",
             dpbo::ModuleKind::Acquisition,
             true,
             "ucb",
             "GP-UCB with β_t = 2 log(n t² π² / (6δ′)), δ′ = δ_ucb/2 = 0.025 (the paper's δ_ucb = 0.05)",
             {{"beta_schedule", "finite"}, {"delta", "0.025"}}},
            {"release",
             dpbo::ModuleKind::RowRelease,
             false,
             "noisy-projection",
             "the curator's release of its rows when it runs in this process (random-projection: the paper's "
             "Algorithm 1, whose DP claim is refuted; noisy-projection: (ε, δ)-DP)",
             {}},
        };
    }

    dpbo::RunResult run(dpbo::RunContext& context) override {
        const auto* finite = dpbo::capability<dpbo::FiniteCandidates>(context.objective);
        if (finite != nullptr && finite->candidates().released()) return modeler_only(context);
        const auto release = context.role<dpbo::RowRelease>("release");
        if (!release)
            throw dpbo::ValidationError(fmt::format(
                "algorithm '{}': {} holds sensitive rows and no row release was given for the role 'release'", kName,
                context.objective.describe_origin()));
        auto curator = dpbo::po_gp_ucb::LocalCurator::release_rows(context, *release, norm_bound_, kName);
        dpbo::RunContext modeler_context{
            *curator,        context.evaluator,           context.rng, context.ledger, context.observer,
            context.modules, roles_for(*curator, context)};
        dpbo::RunResult result = dpbo::po_gp_ucb::run_modeler(modeler_context, settings_, kName);
        const dpbo::CuratorRelease& released = curator->release();
        for (const auto& diagnostic : released.evaluation_only) result.evaluation_only.push_back(diagnostic);
        if (write_released_rows_) result.files.push_back(released_rows_file(released.rows));
        result.privacy = statement(release->describe_origin(), released);
        result.figures = dpbo::po_gp_ucb::figures();
        return result;
    }

private:
    dpbo::RunResult modeler_only(dpbo::RunContext& context) {
        dpbo::RunContext modeler_context{context.objective,
                                         context.evaluator,
                                         context.rng,
                                         context.ledger,
                                         context.observer,
                                         context.modules,
                                         roles_for(context.objective, context)};
        dpbo::RunResult result = dpbo::po_gp_ucb::run_modeler(modeler_context, settings_, kName);
        result.privacy = dpbo::PrivacyStatement::not_private(
            {"the responses at the rows the modeler chose, as the curator answered them",
             "the best row, its index and its response"},
            fmt::format("this run releases nothing private of its own: it searches rows already released by the "
                        "curator ({}; the curator's release states that release's guarantee) and the curator "
                        "answers with responses it does not privatise",
                        dpbo::data_description(context.objective)));
        result.figures = dpbo::po_gp_ucb::figures();
        return result;
    }

    // The run's roles, with the surrogate replaced by a GP with the known hyperparameters when a
    // length-scale is given. The loop sees the released rows in the unit cube of their common bounds
    // [−m, m] (released_rows::space_of), so the length-scale ℓ in the release's units is ℓ/(2m) there.
    dpbo::RoleModules roles_for(const dpbo::Objective& rows, const dpbo::RunContext& context) const {
        if (!known_lengthscale_) return context.roles;
        const double width = rows.space().upper()(0) - rows.space().lower()(0);
        dpbo::RoleModules roles;
        for (const auto& [name, module] : context.roles.all())
            if (name != "surrogate") roles.add(name, module);
        roles.add("surrogate", context.modules.create_as<dpbo::Surrogate>(
                                   "gp", {{"kernel", "rbf"},
                                          {"ard", "false"},
                                          {"fit", "none"},
                                          {"lengthscale", fmt::format("{:.17g}", *known_lengthscale_ / width)},
                                          {"signal_variance", "1"},
                                          {"noise_variance", fmt::format("{:.17g}", noise_variance_)}}));
        return roles;
    }

    static dpbo::ResultFile released_rows_file(const arma::mat& rows) {
        return {"released_rows.csv", "the released rows Z, one per row of the curator's data, in its order",
                dpbo::released_rows_csv(rows)};
    }

    // The run claims nothing: the curator's answers are exact responses of its sensitive rows (the
    // paper leaves their private release to future work). What the release of the rows itself
    // guarantees is stated in the mechanism line, with the change of one row it covers.
    static dpbo::PrivacyStatement statement(const std::string& release_name, const dpbo::CuratorRelease& released) {
        dpbo::PrivacyStatement statement = dpbo::PrivacyStatement::not_private(
            {fmt::format("the released rows Z, by {}", release_name),
             "the responses at the rows the modeler chose, exactly as the curator observed them (not privatised)",
             "the best row, its index and its response"},
            fmt::format("the curator answers the modeler with exact responses of its sensitive rows, so the run as a "
                        "whole claims nothing; the release of the rows alone: {} — {}; it covers {}; scaling: {}",
                        released.guarantee.headline(), released.guarantee.mechanism, released.covered_change,
                        released.scaling));
        statement.assumptions = released.guarantee.assumptions;
        return statement;
    }

    dpbo::BoLoopSettings settings_;
    double norm_bound_;
    std::optional<double> known_lengthscale_;
    double noise_variance_;
    bool write_released_rows_;
};

}  // namespace

DPBO_PLUGIN(PoGpUcb, "po-gp-ucb", "1.0.0",
            "PO-GP-UCB: GP-UCB by a modeler over rows a curator released privately, asking responses by row index",
            "Kharkovskii, Dai & Low (2020), Algorithms 1 and 2")
