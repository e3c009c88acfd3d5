// The exponential mechanism (McSherry & Talwar 2007; Dwork & Roth 2014, Thm 3.10): candidate i with
// probability ∝ exp(ε·q_i/(2Δq)) is ε-DP when every score moves by at most Δq between neighbouring
// datasets; ∝ exp(ε·q_i/Δq) is ε-DP when, in addition, all scores move in the same direction
// (Dwork & Roth 2014, remark after Thm 3.10).
//
// Sampled exactly by rejection: propose i uniformly, accept with probability exp(−γ_i),
// γ_i = ε·(q* − q_i)/(2Δq). A proposal is accepted with probability (1/n)·Σ_j exp(−γ_j), and i is
// returned with probability ∝ exp(−γ_i) ∝ exp(ε·q_i/(2Δq)) — the exact distribution, with no
// normalising sum ever formed (so nothing to overflow or underflow). The best candidate has γ = 0
// and is always accepted, so at most n proposals are expected.
#include "exact_score_selection.hpp"

#include "dpbo/plugin.hpp"

namespace {

class ExponentialSelection final : public dpbo::selections::ExactScoreSelection {
public:
    static dpbo::ParameterSchema schema() { return ExactScoreSelection::schema(); }

    explicit ExponentialSelection(const dpbo::ParameterSet& parameters)
        : ExactScoreSelection(parameters, "selection 'exponential'") {}

    dpbo::PrivacyEvent event() const override {
        return {dpbo::ExponentialEvent{epsilon(), require_sensitivity("event()")}};
    }

    dpbo::PrivacyStatement guarantee() const override {
        return pure_statement("exponential mechanism (McSherry & Talwar 2007) by exact rejection sampling");
    }

protected:
    std::size_t choose(const arma::vec& scores, dpbo::PrivacyNoiseSource& noise) const override {
        const double best = best_score(scores);
        for (;;) {
            const auto proposed = static_cast<arma::uword>(dpbo::privacy::uniform_below(scores.n_elem, noise));
            if (accept(best, scores[proposed], noise)) return proposed;
        }
    }
};

}  // namespace

DPBO_PLUGIN(ExponentialSelection, "exponential", "1.0.0",
            "exponential mechanism: Pr[i] ∝ exp(ε q_i/(2Δq)), ε-DP, sampled exactly",
            "McSherry & Talwar 2007; Dwork & Roth 2014, Thm 3.10; Kusner et al. 2015, Alg. 1 (release of λ̃)")
