// The exponential mechanism (McSherry & Talwar 2007; Dwork & Roth 2014, Thm 3.10): candidate i with
// probability ∝ exp(ε·q_i/(2Δq)) is ε-DP when every score moves by at most Δq between neighbouring
// datasets; ∝ exp(ε·q_i/Δq) is ε-DP when, in addition, all scores move in the same direction
// (Dwork & Roth 2014, remark after Thm 3.10).
//
// Sampled exactly by inversion in the secure layer: i is the index with P_i ≤ U·S < P_(i+1), P_i the
// sum of exp(−γ_j) over j < i and S the sum of all, γ_j = ε·(q* − q_j)/(2Δq). Every exp(−γ_j) is
// bounded rigorously and all n prefix sums are visited for one 128-bit U, so the work does not depend
// on the scores (an earlier rejection sampler took about n/S proposals: its time told S apart).
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
        return pure_statement(
            "exponential mechanism (McSherry & Talwar 2007) by exact inversion",
            "128 random bits and, for each of the n candidates, the same branch-free fixed-point arithmetic, "
            "whatever the scores; only with probability at most n·(ln n + 2)·2^-56 + n²·2^-92 per choice (a "
            "uniform within a bound's slack) does a refinement run whose length depends on the scores");
    }

protected:
    std::size_t choose(const arma::vec& scores, dpbo::PrivacyNoiseSource& noise) const override {
        best_score(scores);  // refuses a non-finite score with this selection's name
        return dpbo::privacy::exponential_mechanism_index(scores, scale(), noise);
    }
};

}  // namespace

DPBO_PLUGIN(ExponentialSelection, "exponential", "1.0.0",
            "exponential mechanism: Pr[i] ∝ exp(ε q_i/(2Δq)), ε-DP, sampled exactly",
            "McSherry & Talwar 2007; Dwork & Roth 2014, Thm 3.10; Kusner et al. 2015, Alg. 1 (release of λ̃)")
