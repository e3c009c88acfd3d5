#pragma once
// The non-interactive sparse vector technique of DPareto (Avent et al. 2020, Algorithm 1): m binary
// queries of sensitivity 1 against the threshold 1/2, total noise b split as b₁ = b/(1 + (2C)^{1/3})
// on the threshold and b₂ = b − b₁ on each answer, stopping after C positive answers.
#include <cstdint>
#include <random>
#include <vector>

namespace dpbo::svt {

// ε of Algorithm 1 (Appendix B, Lyu et al. 2017 Thm. 4 with ε₁ = 1/b₁, ε₂ = 2C/b₂):
// (1 + (2C)^{1/3})(1 + (2C)^{2/3}) / b, at δ = 0. Valid for an integer cutoff C.
double privacy_oracle(double noise, double cutoff);

// One run on the true answers `truth` (0/1, in the order the queries are asked); returns the
// answers w. `engine` draws the Laplace noise — utility measurement only, nothing is released.
std::vector<int> run(const std::vector<int>& truth, double noise, int cutoff, std::mt19937_64& engine);

// F₁ = 2TP / (2TP + FP + FN) of `answers` against `truth`; 0 when nothing is true or answered.
double f1_score(const std::vector<int>& truth, const std::vector<int>& answers);

}  // namespace dpbo::svt
