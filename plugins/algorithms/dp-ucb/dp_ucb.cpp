// dp-ucb: Kusner, Gardner, Garnett & Weinberger (2015), "Differentially private Bayesian
// optimization" — GP-UCB whose best hyperparameters and validation gain are released privately.
// `variant` picks the paper's algorithm: noisy (Algorithm 1), noise-free (Algorithm 2) or lipschitz
// (Algorithm 3); every constant names its line (kusner_constants.hpp).
//
// The default selection is permute-and-flip (McKenna & Sheldon 2020), not the exponential mechanism
// of Algorithm 1 line 12: Corollary 1 needs only an ε-DP selection for the quality sensitivity of
// Theorem 1, which permute-and-flip is for the same sensitivity, and its expected quality is never
// worse. `--selection exponential` reproduces the paper's line 12 exactly.
#include <fmt/format.h>

#include "dp_ucb_figures.hpp"
#include "dp_ucb_settings.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/plugin.hpp"
#include "gp_ucb_variants.hpp"
#include "lipschitz_variant.hpp"

namespace {

class DpUcb final : public dpbo::Algorithm {
public:
    static dpbo::ParameterSchema schema() { return dpbo::dp_ucb::dp_ucb_schema(); }

    explicit DpUcb(const dpbo::ParameterSet& parameters) : settings_(dpbo::dp_ucb::dp_ucb_settings(parameters)) {}

    std::vector<dpbo::Role> roles() const override {
        const std::string epsilon = fmt::format("{}", settings_.epsilon);
        const dpbo::Role mechanism{"mechanism",
                                   dpbo::ModuleKind::Mechanism,
                                   true,
                                   "laplace",
                                   "the Laplace mechanism releasing the validation gain (Algorithm 1 line 14, "
                                   "Algorithm 2 line 4, Algorithm 3 line 5), calibrated by dp-ucb",
                                   {{"epsilon", epsilon}}};
        const dpbo::Role accountant{"accountant",
                                    dpbo::ModuleKind::Accountant,
                                    true,
                                    "basic",
                                    "composes the releases and their (0, delta) failure events (basic composition)",
                                    {}};
        if (settings_.variant == dpbo::dp_ucb::Variant::Lipschitz) {
            return {
                {"surrogate",
                 dpbo::ModuleKind::Surrogate,
                 true,
                 "gp",
                 "the inner BO's model (Algorithm 3 line 2)",
                 {{"kernel", "matern52"},
                  {"ard", "true"},
                  {"mean", "constant"},
                  {"standardise", "true"},
                  {"fit", "marginal-likelihood"}}},
                {"acquisition",
                 dpbo::ModuleKind::Acquisition,
                 true,
                 "ucb",
                 "the inner BO's acquisition (Algorithm 3 line 2: any acquisition)",
                 {}},
                mechanism,
                accountant,
            };
        }
        return {
            {"selection",
             dpbo::ModuleKind::Selection,
             true,
             "permute-and-flip",
             "releases lambda~ from the qualities mu_T (Algorithm 1 line 12; permute-and-flip: the same epsilon-DP, "
             "never worse in expected quality; exponential: the paper's mechanism)",
             {{"epsilon", epsilon}}},
            mechanism,
            accountant,
        };
    }

    dpbo::RunResult run(dpbo::RunContext& context) override {
        dpbo::RunResult result = settings_.variant == dpbo::dp_ucb::Variant::Lipschitz
                                     ? dpbo::dp_ucb::run_lipschitz_variant(context, settings_)
                                     : dpbo::dp_ucb::run_gp_ucb_variant(context, settings_);
        result.figures = dpbo::dp_ucb::figures();
        return result;
    }

private:
    dpbo::dp_ucb::DpUcbSettings settings_;
};

}  // namespace

DPBO_PLUGIN(DpUcb, "dp-ucb", "1.0.0",
            "Kusner et al. (2015): GP-UCB over a finite candidate set releasing the best hyperparameters (selection "
            "mechanism) and their validation gain (Laplace); variants noisy (Algorithm 1, (epsilon, delta)-DP per "
            "release conditional on Assumption 1), noise-free (Algorithm 2, likewise) and lipschitz (Algorithm 3, "
            "epsilon-DP under the objective's declared Assumption-2 constants)",
            "Kusner, Gardner, Garnett & Weinberger (2015), Differentially Private Bayesian Optimization, ICML, "
            "§3-5, Algorithms 1-3")
