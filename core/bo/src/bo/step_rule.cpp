#include "dpbo/bo/step_rule.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

void add_step_rule_parameters(ParameterSchema& schema, const std::string& default_optimizer, double default_lr) {
    schema
        .choice("optimizer", {"plain", "adagrad", "adam", "momentum"}, default_optimizer,
                "how the privatised gradient becomes a step (post-processing): plain θ − η_t g, AdaGrad, Adam, or "
                "heavy-ball momentum")
        .real("lr", {.fallback = default_lr,
                     .lower = 0.0,
                     .lower_inclusive = false,
                     .doc = "learning rate η (plain: η_0 of the schedule)"})
        .choice("lr_schedule", {"constant", "inverse-sqrt"}, "constant", "plain steps only: η_t = η, or η_t = η/√(t+1)")
        .real("beta1", {.fallback = 0.9,
                        .lower = 0.0,
                        .upper = 1.0,
                        .upper_inclusive = false,
                        .doc = "Adam's first-moment decay; the momentum factor for momentum"})
        .real("beta2", {.fallback = 0.999,
                        .lower = 0.0,
                        .upper = 1.0,
                        .upper_inclusive = false,
                        .doc = "Adam's second-moment decay"})
        .real("optimizer_epsilon", {.fallback = 1e-8,
                                    .lower = 0.0,
                                    .lower_inclusive = false,
                                    .doc = "added to AdaGrad's and Adam's denominators"});
}

StepRuleSettings step_rule_settings(const ParameterSet& parameters) {
    StepRuleSettings settings;
    const std::string& name = parameters.text("optimizer");
    if (name == "plain")
        settings.kind = StepRuleKind::Plain;
    else if (name == "adagrad")
        settings.kind = StepRuleKind::AdaGrad;
    else if (name == "adam")
        settings.kind = StepRuleKind::Adam;
    else
        settings.kind = StepRuleKind::Momentum;
    settings.learning_rate = parameters.real("lr");
    settings.schedule = parameters.text("lr_schedule");
    settings.beta1 = parameters.real("beta1");
    settings.beta2 = parameters.real("beta2");
    settings.epsilon = parameters.real("optimizer_epsilon");
    // A setting the chosen optimizer never reads would be silently ignored: refuse it instead.
    struct UsedBy {
        const char* key;
        std::vector<StepRuleKind> kinds;
        const char* optimizers;
    };
    const UsedBy settings_used[] = {
        {"lr_schedule", {StepRuleKind::Plain}, "plain"},
        {"beta1", {StepRuleKind::Adam, StepRuleKind::Momentum}, "adam and momentum"},
        {"beta2", {StepRuleKind::Adam}, "adam"},
        {"optimizer_epsilon", {StepRuleKind::AdaGrad, StepRuleKind::Adam}, "adagrad and adam"},
    };
    for (const UsedBy& used : settings_used) {
        if (!parameters.given_by_user(used.key)) continue;
        if (std::find(used.kinds.begin(), used.kinds.end(), settings.kind) != used.kinds.end()) continue;
        const std::string value = std::string(used.key) == "lr_schedule"
                                      ? parameters.text(used.key)
                                      : fmt::format("{:g}", parameters.real(used.key));
        throw ValidationError(fmt::format("{}: {} = {} applies only to optimizer = {} (got optimizer = {})",
                                          parameters.owner(), used.key, value, used.optimizers, name));
    }
    return settings;
}

StepRule::StepRule(const StepRuleSettings& settings) : settings_(settings) {}

arma::vec StepRule::step(const arma::vec& gradient) {
    if (steps_ == 0) {
        first_moment_.zeros(gradient.n_elem);
        second_moment_.zeros(gradient.n_elem);
    }
    ++steps_;
    const double eta = settings_.learning_rate;
    switch (settings_.kind) {
        case StepRuleKind::Plain: {
            const double scale =
                settings_.schedule == "inverse-sqrt" ? 1.0 / std::sqrt(static_cast<double>(steps_)) : 1.0;
            return eta * scale * gradient;
        }
        case StepRuleKind::AdaGrad:
            second_moment_ += arma::square(gradient);
            return eta * gradient / (arma::sqrt(second_moment_) + settings_.epsilon);
        case StepRuleKind::Adam: {
            first_moment_ = settings_.beta1 * first_moment_ + (1.0 - settings_.beta1) * gradient;
            second_moment_ = settings_.beta2 * second_moment_ + (1.0 - settings_.beta2) * arma::square(gradient);
            const double t = static_cast<double>(steps_);
            const arma::vec first_hat = first_moment_ / (1.0 - std::pow(settings_.beta1, t));
            const arma::vec second_hat = second_moment_ / (1.0 - std::pow(settings_.beta2, t));
            return eta * first_hat / (arma::sqrt(second_hat) + settings_.epsilon);
        }
        case StepRuleKind::Momentum:
            first_moment_ = settings_.beta1 * first_moment_ + gradient;
            return eta * first_moment_;
    }
    return eta * gradient;
}

}  // namespace dpbo
