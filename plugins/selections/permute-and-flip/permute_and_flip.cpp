// Permute-and-flip (McKenna & Sheldon 2020, Alg. 1): visit the candidates in a uniformly random
// order and stop at the first i whose coin, heads with probability exp(−ε·(q* − q_i)/(2Δq)), comes
// up heads. ε-DP for scores of sensitivity Δq (their Thm 1), and never worse than the exponential
// mechanism in expected quality at the same ε (their Thm 2). With monotone scores the factor 2 is
// dropped: permute-and-flip is report-noisy-max with Exp(2Δq/ε) noise (Ding, Kifer, Steinke et al.
// 2021), for which Dwork & Roth's argument for monotone queries (2014, Claim 3.9) allows Δq/ε.
//
// Exact: the order is a Fisher–Yates shuffle drawn with exact uniform integers, each coin an exact
// Bernoulli(exp(−γ)) with γ an exact rational. The best candidate's coin always comes up heads, so
// the walk stops within n steps.
#include <numeric>
#include <utility>
#include <vector>

#include "exact_score_selection.hpp"

#include "dpbo/plugin.hpp"

namespace {

class PermuteAndFlip final : public dpbo::selections::ExactScoreSelection {
public:
    static dpbo::ParameterSchema schema() { return ExactScoreSelection::schema(); }

    explicit PermuteAndFlip(const dpbo::ParameterSet& parameters)
        : ExactScoreSelection(parameters, "selection 'permute-and-flip'") {}

    dpbo::PrivacyEvent event() const override {
        require_sensitivity("event()");
        return {dpbo::PureDpEvent{epsilon()}};
    }

    dpbo::PrivacyStatement guarantee() const override {
        return pure_statement(
            "permute-and-flip (McKenna & Sheldon 2020, Thm 1: ε-DP; Thm 2: expected quality never "
            "below the exponential mechanism's)");
    }

protected:
    std::size_t choose(const arma::vec& scores, dpbo::PrivacyNoiseSource& noise) const override {
        const double best = best_score(scores);
        std::vector<arma::uword> order(scores.n_elem);
        std::iota(order.begin(), order.end(), arma::uword{0});
        // The shuffle is drawn as it is walked: position k takes a uniform pick of the unvisited.
        for (std::size_t k = 0; k < order.size(); ++k) {
            const std::size_t pick = k + dpbo::privacy::uniform_below(order.size() - k, noise);
            std::swap(order[k], order[pick]);
            if (accept(best, scores[order[k]], noise)) return order[k];
        }
        // Unreachable: the best candidate (γ = 0) is accepted with probability exactly 1.
        throw dpbo::RunError(fmt::format("{}: no candidate was accepted, though the best always is", owner()));
    }
};

}  // namespace

DPBO_PLUGIN(PermuteAndFlip, "permute-and-flip", "1.0.0",
            "permute-and-flip: ε-DP selection, never worse than the exponential mechanism in expected quality",
            "McKenna & Sheldon 2020, Alg. 1, Thms 1–2")
