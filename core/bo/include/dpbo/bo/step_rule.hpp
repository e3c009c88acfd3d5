#pragma once
// Turns a (privatised) gradient into a descent step. Every rule only post-processes the gradient
// it is given, so it changes no privacy guarantee. Shared by DP-GIBO and DP-GD, whose papers use
// plain steps θ − η_t g and AdaGrad (the authors' code also offers Adam and heavy-ball momentum).
#include <cstddef>
#include <string>

#include <armadillo>

#include "dpbo/parameters.hpp"

namespace dpbo {

enum class StepRuleKind { Plain, AdaGrad, Adam, Momentum };

struct StepRuleSettings {
    StepRuleKind kind = StepRuleKind::AdaGrad;
    double learning_rate = 0.3;         // η (plain: η_0 of the schedule)
    std::string schedule = "constant";  // plain only: constant (η_t = η) or inverse-sqrt (η/√(t+1))
    double beta1 = 0.9;                 // Adam first moment; momentum factor
    double beta2 = 0.999;               // Adam second moment
    double epsilon = 1e-8;              // AdaGrad and Adam denominators
};

// Declares optimizer, lr, lr_schedule, beta1, beta2, optimizer_epsilon with the given defaults.
void add_step_rule_parameters(ParameterSchema& schema, const std::string& default_optimizer, double default_lr);
StepRuleSettings step_rule_settings(const ParameterSet& parameters);

class StepRule {
public:
    explicit StepRule(const StepRuleSettings& settings);
    // The displacement to subtract from θ for this gradient (the rule keeps its own state).
    arma::vec step(const arma::vec& gradient);
    std::size_t steps_taken() const { return steps_; }

private:
    StepRuleSettings settings_;
    std::size_t steps_ = 0;
    arma::vec first_moment_;
    arma::vec second_moment_;
};

}  // namespace dpbo
