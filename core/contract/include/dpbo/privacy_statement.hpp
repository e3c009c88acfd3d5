#pragma once
// What a run may claim about privacy. Every result carries one statement: the notion and its
// parameters, the neighbouring relation and unit protected, what was released, the assumptions the
// guarantee rests on, and what it does not protect. A statement is validated before it is written.
#include <string>
#include <utility>
#include <vector>

namespace dpbo {

enum class PrivacyNotion {
    NotPrivate,  // nothing is claimed
    PureDP,      // ε-DP
    ApproxDP,    // (ε, δ)-DP
    GaussianDP,  // μ-GDP (Dong, Roth & Su 2022)
    Renyi,       // an RDP curve (order α, ε(α))
};

std::string to_string(PrivacyNotion notion);

struct PrivacyStatement {
    PrivacyNotion notion = PrivacyNotion::NotPrivate;
    double epsilon = 0.0;                              // PureDP, ApproxDP
    double delta = 0.0;                                // ApproxDP
    double mu = 0.0;                                   // GaussianDP
    std::vector<std::pair<double, double>> rdp_curve;  // Renyi: (α, ε(α))
    // Equivalent (ε, δ) pairs implied by the main notion (e.g. from μ-GDP at the user's δ).
    std::vector<std::pair<double, double>> equivalent_epsilon_delta;

    std::string neighbouring;              // "replace one record", "add or remove one record"
    std::string protected_unit;            // "one validation record"
    std::vector<std::string> released;     // what left the trusted boundary
    std::vector<std::string> assumptions;  // what the guarantee rests on
    // What the guarantee does not cover, in the user's units: data, figures and side channels a
    // reader could take for protected (the count of records, what a user's program itself stores).
    // The host adds what holds for every run of its kind and what the objective declares
    // (PrivacyLimits); an algorithm adds what only it knows.
    std::vector<std::string> not_protected;
    // Non-empty for a guarantee that holds only when the data satisfy a distributional assumption
    // (Kusner et al. 2015, Assumption 1: the validation functions of neighbouring datasets are
    // jointly a GP), i.e. not a worst-case guarantee. It is part of the notion, not a footnote:
    // headline() reads "(ε, δ)-DP conditional on …" and the JSON notion carries it.
    std::string conditional_on;
    std::string mechanism;  // how it was achieved, one line

    static PrivacyStatement not_private(std::vector<std::string> released, std::string why);
    static PrivacyStatement gaussian_dp(double mu);
    static PrivacyStatement pure_dp(double epsilon);
    static PrivacyStatement approx_dp(double epsilon, double delta);

    // Throws ValidationError when parameters are missing or meaningless (μ <= 0, δ >= 1, no
    // protected unit for a private notion, ...). Called before any result is written.
    void validate() const;
    // "0.5-GDP" / "(1, 1e-05)-DP" / "not private"; "(2, 0.0002)-DP conditional on …" when conditional.
    std::string headline() const;
    // Multi-line human summary, for the CLI.
    std::string describe() const;
};

}  // namespace dpbo
