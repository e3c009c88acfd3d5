#pragma once
// How many trials a private selection among trials runs. K is drawn by the secure layer before any
// trial, and only the best trial is released (Papernot & Steinke 2022, "Hyperparameter tuning with
// Renyi differential privacy", §2–3): the privacy cost depends on K's distribution, not on the K
// drawn. A fixed k is plain composition of k trials.
#include <cstdint>
#include <string>
#include <string_view>

namespace dpbo {

class PrivacyNoiseSource;

struct TrialCount {
    enum class Family {
        Fixed,                      // K = k: composition of k trials
        TruncatedNegativeBinomial,  // shape η ≥ 0: η = 0 logarithmic, η = 1 geometric (Papernot–Steinke Thm 2)
        Poisson,                    // Poisson(μ) (Papernot–Steinke Thm 6); K = 0 releases nothing
    };
    Family family = Family::Fixed;
    double mean = 1.0;  // E[K]; k itself for Fixed
    double eta = 1.0;   // the truncated negative binomial's shape

    // "fixed:k=20", "geometric:mean=10", "logarithmic:mean=10", "negative-binomial:mean=10,eta=0.5",
    // "poisson:mean=10". Throws ValidationError naming the text, the key or value and what is allowed.
    static TrialCount parse(std::string_view text);
    // The canonical text: parse(text()) gives the same distribution.
    std::string text() const;
    // "K ~ geometric with mean 10", for statements.
    std::string describe() const;
    // Throws ValidationError when the mean is not finite or below 1, η is negative or not finite,
    // or a fixed k is not a whole number.
    void validate() const;

    // The truncated negative binomial's γ ∈ (0, 1] for this mean and η (E[K] = η(1−γ)/(γ(1−γ^η)),
    // and (1−γ)/(γ·log(1/γ)) at η = 0); RunError for another family.
    double gamma() const;
    // P(K = k).
    double probability(std::uint64_t k) const;
    // The smallest k with P(K ≤ k) ≥ p, for p in (0, 1): the compute a plan must provide for.
    std::uint64_t quantile(double p) const;
    // K drawn from the secure layer (privacy randomness: which trials run is part of the mechanism).
    std::uint64_t draw(PrivacyNoiseSource& noise) const;
};

}  // namespace dpbo
