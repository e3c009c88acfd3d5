#pragma once
// dp-ucb's parameters: the schema `dpbo info dp-ucb` shows, and their validation (which variant
// needs which constant; none gets a silent default the paper does not give).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "dpbo/bo/acquisition_optimiser.hpp"
#include "dpbo/gp/kernel.hpp"
#include "dpbo/parameters.hpp"

namespace dpbo::dp_ucb {

inline constexpr const char* kOwner = "algorithm 'dp-ucb'";

enum class Variant { Noisy, NoiseFree, Lipschitz };
std::string to_string(Variant variant);

struct DpUcbSettings {
    Variant variant = Variant::Noisy;
    std::size_t budget = 0;     // T
    double epsilon = 0.0;       // ε of each release
    double delta = 0.0;         // δ of each release (noisy, noise-free)
    double one_minus_k1 = 0.0;  // 1 − k₁(V, V′) (noisy, noise-free)
    double a = 0.0;             // A (noise-free)
    double tau = 0.0;           // τ (noise-free)
    dpbo::gp::KernelFamily kernel = dpbo::gp::KernelFamily::SquaredExponential;
    std::vector<double> lengthscales;              // k₂'s, in the objective's units (noisy, noise-free)
    std::string candidates;                        // "objective", "grid", "quasi-random" or a CSV path
    std::size_t per_dimension = 0;                 // grid
    std::size_t candidate_count = 0;               // quasi-random
    std::uint64_t candidate_seed = 0;              // quasi-random
    bool evaluate_candidates = false;              // evaluation-only: f at every candidate
    std::size_t initial_points = 0;                // lipschitz: the inner BO's design
    dpbo::AcquisitionOptimiserSettings optimiser;  // lipschitz: the inner BO's, from the BO loop's keys
};

dpbo::ParameterSchema dp_ucb_schema();
// Throws ValidationError naming the parameter, the variant and what is expected.
DpUcbSettings dp_ucb_settings(const dpbo::ParameterSet& parameters);

}  // namespace dpbo::dp_ucb
