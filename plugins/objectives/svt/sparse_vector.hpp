#pragma once
// The non-interactive sparse vector technique of DPareto (Avent et al. 2020, Algorithm 1): m binary
// queries of sensitivity 1 against the threshold 1/2, total noise b split as b₁ = b/(1 + (2C)^{1/3})
// on the threshold and b₂ = b − b₁ on each answer, stopping after C positive answers.
#include <cstdint>
#include <random>
#include <vector>

namespace dpbo {
class PrivacyNoiseSource;
}

namespace dpbo::svt {

// Algorithm 1's split of the total noise b: b₁ = b/(1 + (2C)^{1/3}) on the threshold, b₂ = b − b₁ on
// each answer (Lyu et al. 2017 §4.2: ε₁ : ε₂ = 1 : (2C)^{2/3}).
struct NoiseSplit {
    double threshold = 0.0;  // b₁
    double answer = 0.0;     // b₂
};
NoiseSplit split_noise(double noise, int cutoff);

// The total noise b for which Algorithm 1 with cutoff C is `epsilon`-DP (the inverse of
// privacy_oracle), enlarged by a relative 1e-12 so that the rounding of b₁ and b₂ (a few units in
// the last place) can never make 1/b₁ + 2C/b₂ exceed epsilon.
double noise_for_epsilon(double epsilon, int cutoff);

// ε of Algorithm 1 (Appendix B, Lyu et al. 2017 Thm. 4 with ε₁ = 1/b₁, ε₂ = 2C/b₂):
// (1 + (2C)^{1/3})(1 + (2C)^{2/3}) / b, at δ = 0. Valid for an integer cutoff C.
double privacy_oracle(double noise, double cutoff);

// One run on the true answers `truth` (0/1, in the order the queries are asked); returns the
// answers w. `engine` draws the Laplace noise — utility measurement only, nothing is released.
std::vector<int> run(const std::vector<int>& truth, double noise, int cutoff, std::mt19937_64& engine);

// The same run with its Laplace noise from the secure layer: the noisy threshold and each noisy
// answer are laplace_release()s, rounded onto grids of spacing g₁, g₂ ≤ 1/2 (callers check) on which
// the threshold 1/2 and the answers 0, 1 lie. Rounding then shifts nothing but the noise, and the
// shifts of Lyu et al.'s proof (the threshold's noise by 1, an answer's by 2) are multiples of both
// grids, so the proof carries over to the rounded noise and the run is the ε of privacy_oracle.
std::vector<int> run(const std::vector<int>& truth, double noise, int cutoff, PrivacyNoiseSource& source);

// F₁ = 2TP / (2TP + FP + FN) of `answers` against `truth`; 0 when nothing is true or answered.
double f1_score(const std::vector<int>& truth, const std::vector<int>& answers);

}  // namespace dpbo::svt
