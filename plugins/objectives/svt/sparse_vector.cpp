#include "sparse_vector.hpp"

#include <cmath>

#include "dpbo/privacy/secure_sampling.hpp"

namespace dpbo::svt {

namespace {

// Laplace(0, scale) by inversion of a uniform on (−1/2, 1/2): a statistical sampler, acceptable
// because this noise only measures the learner's utility and is never released by dpbo.
double laplace(double scale, std::mt19937_64& engine) {
    std::uniform_real_distribution<double> uniform(-0.5, 0.5);
    double u = uniform(engine);
    while (u == -0.5) u = uniform(engine);  // log(0) at the open end
    return -scale * std::copysign(1.0, u) * std::log1p(-2.0 * std::abs(u));
}

}  // namespace

double privacy_oracle(double noise, double cutoff) {
    const double root = std::cbrt(2.0 * cutoff);
    return (1.0 + root) * (1.0 + root * root) / noise;
}

NoiseSplit split_noise(double noise, int cutoff) {
    // Algorithm 1, lines 2–3.
    const double threshold_noise = noise / (1.0 + std::cbrt(2.0 * cutoff));
    return {threshold_noise, noise - threshold_noise};
}

double noise_for_epsilon(double epsilon, int cutoff) {
    return privacy_oracle(1.0, static_cast<double>(cutoff)) / epsilon * (1.0 + 1e-12);
}

std::vector<int> run(const std::vector<int>& truth, double noise, int cutoff, PrivacyNoiseSource& source) {
    const NoiseSplit split = split_noise(noise, cutoff);
    const double noisy_threshold = privacy::laplace_release(0.5, split.threshold, source);
    std::vector<int> answers(truth.size(), 0);
    int positives = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) {
        if (privacy::laplace_release(static_cast<double>(truth[i]), split.answer, source) >= noisy_threshold) {
            answers[i] = 1;
            if (++positives >= cutoff) break;  // line 8: stop after C positive answers
        }
    }
    return answers;
}

std::vector<int> run(const std::vector<int>& truth, double noise, int cutoff, std::mt19937_64& engine) {
    const NoiseSplit split = split_noise(noise, cutoff);
    const double rho = laplace(split.threshold, engine);
    std::vector<int> answers(truth.size(), 0);
    int positives = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) {
        const double nu = laplace(split.answer, engine);
        if (truth[i] + nu >= 0.5 + rho) {
            answers[i] = 1;
            if (++positives >= cutoff) break;  // line 8: stop after C positive answers
        }
    }
    return answers;
}

double f1_score(const std::vector<int>& truth, const std::vector<int>& answers) {
    double true_positives = 0, false_positives = 0, false_negatives = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) {
        if (truth[i] && answers[i]) ++true_positives;
        if (!truth[i] && answers[i]) ++false_positives;
        if (truth[i] && !answers[i]) ++false_negatives;
    }
    const double denominator = 2.0 * true_positives + false_positives + false_negatives;
    return denominator == 0.0 ? 0.0 : 2.0 * true_positives / denominator;
}

}  // namespace dpbo::svt
