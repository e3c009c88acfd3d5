// A selection for the tests only, standing in for the shipped selection plugins in dp-ucb's tests:
// permute-and-flip (McKenna & Sheldon 2020) — visit the candidates in a uniformly random order and
// stop at r with probability exp(−ε (q* − q_r)/(2Δq)). Its randomness comes from the secure layer
// (uniform_below, bernoulli_exp_minus); the exponent ε(q* − q_r) is rounded once, which the shipped
// plugins avoid, so this one states nothing beyond the tests.
#include <cmath>
#include <numeric>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/random.hpp"
#include "dpbo/selection.hpp"

namespace {

constexpr const char* kOwner = "selection 'test-permute-and-flip'";

class TestPermuteAndFlip final : public dpbo::Selection {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("epsilon", {.lower = 0.0, .lower_inclusive = false, .required = true, .doc = "ε"});
        return schema;
    }
    explicit TestPermuteAndFlip(const dpbo::ParameterSet& p) : epsilon_(p.real("epsilon")) {}

    void calibrate(double sensitivity) override {
        if (!(std::isfinite(sensitivity) && sensitivity > 0.0))
            throw dpbo::ValidationError(fmt::format("{}: sensitivity = {} must be finite and > 0", kOwner, sensitivity));
        sensitivity_ = sensitivity;
    }
    bool calibrated() const override { return sensitivity_.has_value(); }
    dpbo::PrivacyEvent event() const override { return {dpbo::ExponentialEvent{epsilon_, require()}}; }
    dpbo::AccountantChoice accountant() const override { return {"basic", {}}; }
    dpbo::PrivacyStatement guarantee() const override {
        auto statement = dpbo::PrivacyStatement::pure_dp(epsilon_);
        statement.mechanism = fmt::format("test permute-and-flip, epsilon = {}, quality sensitivity {}", epsilon_,
                                          require());
        return statement;
    }

protected:
    std::size_t choose(const arma::vec& scores, dpbo::PrivacyNoiseSource& noise) const override {
        const double best = scores.max();
        std::vector<std::size_t> order(scores.n_elem);
        std::iota(order.begin(), order.end(), std::size_t{0});
        while (true) {
            for (std::size_t i = 0; i < order.size(); ++i) {
                const std::size_t j = i + dpbo::privacy::uniform_below(order.size() - i, noise);
                std::swap(order[i], order[j]);
                const std::size_t r = order[i];
                const dpbo::privacy::Ratio gamma{epsilon_ * (best - scores(r)), 2.0 * require()};
                if (dpbo::privacy::bernoulli_exp_minus(gamma, noise)) return r;
            }
        }
    }

private:
    double require() const {
        if (!sensitivity_) throw dpbo::RunError(fmt::format("{}: used before calibrate()", kOwner));
        return *sensitivity_;
    }
    double epsilon_;
    std::optional<double> sensitivity_;
};

}  // namespace

DPBO_PLUGIN(TestPermuteAndFlip, "test-permute-and-flip", "1.0.0",
            "test only: permute-and-flip selection (McKenna & Sheldon 2020) for dp-ucb's tests",
            "McKenna & Sheldon (2020)")
