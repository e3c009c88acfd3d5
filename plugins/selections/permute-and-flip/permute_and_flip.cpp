// Permute-and-flip (McKenna & Sheldon 2020, Alg. 1): visit the candidates in a uniformly random
// order and stop at the first i whose coin, heads with probability exp(−ε·(q* − q_i)/(2Δq)), comes
// up heads. ε-DP for scores of sensitivity Δq (their Thm 1), and never worse than the exponential
// mechanism in expected quality at the same ε (their Thm 2). With monotone scores the factor 2 is
// dropped: permute-and-flip is report-noisy-max with Exp(2Δq/ε) noise (Ding, Kifer, Steinke et al.
// 2021), for which Dwork & Roth's argument for monotone queries (2014, Claim 3.9) allows Δq/ε.
//
// Exact, in the secure layer: the order is a Fisher–Yates shuffle drawn with exact uniform
// integers, each coin a 96-bit uniform against rigorous bounds on exp(−γ). Every coin is flipped
// and the first heads found by a scan of the whole order, so the work does not depend on where the
// first heads falls (stopping there, as Alg. 1 reads, made the time tell the scores apart).
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
            "below the exponential mechanism's), every coin flipped",
            "a uniform permutation of the n candidates (its random bits depend on n alone), 96 random bits and "
            "the same branch-free fixed-point arithmetic for each candidate, whatever the scores; only with "
            "probability below n·2^-57 per choice (a uniform within a bound's slack) does a refinement run "
            "whose length depends on the scores");
    }

protected:
    std::size_t choose(const arma::vec& scores, dpbo::PrivacyNoiseSource& noise) const override {
        best_score(scores);  // refuses a non-finite score with this selection's name
        return dpbo::privacy::permute_and_flip_index(scores, scale(), noise);
    }
};

}  // namespace

DPBO_PLUGIN(PermuteAndFlip, "permute-and-flip", "1.0.0",
            "permute-and-flip: ε-DP selection, never worse than the exponential mechanism in expected quality",
            "McKenna & Sheldon 2020, Alg. 1, Thms 1–2")
