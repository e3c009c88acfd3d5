// An objective for the tests only, declaring Kusner et al.'s Assumption-2 constants (lipschitz,
// gain_bound, validation_records, lambda_min, lambda_max) so dp-ucb's lipschitz variant can run
// before a real one exists; `omit` drops some of them, for the refusal. The function on
// [lambda_min, lambda_max] is a fixed smooth bump (maximised); it holds no data.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"

namespace {

class DeclaredConstants final : public dpbo::Objective, public dpbo::DeclaredConstants {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.text("omit", std::string(), "comma-separated names of constants not to declare");
        return schema;
    }

    explicit DeclaredConstants(const dpbo::ParameterSet& p)
        : space_(dpbo::SearchSpace::uniform_box(1, kLambdaMin, kLambdaMax, "lambda")) {
        std::stringstream names(p.text("omit"));
        for (std::string name; std::getline(names, name, ',');) omitted_.push_back(name);
    }

    const dpbo::SearchSpace& space() const override { return space_; }
    dpbo::Sense sense() const override { return dpbo::Sense::Maximise; }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest&) override {
        dpbo::Evaluations result;
        result.points = points;
        result.values = -arma::square(points.col(0) - 0.3);
        return result;
    }
    std::vector<dpbo::DeclaredConstant> declared_constants() const override {
        std::vector<dpbo::DeclaredConstant> all = {{"lipschitz", 1.0, "L"},
                                                   {"gain_bound", 1.0, "g*"},
                                                   {"validation_records", 1000.0, "m"},
                                                   {"lambda_min", kLambdaMin, "smallest λ"},
                                                   {"lambda_max", kLambdaMax, "largest λ"}};
        std::vector<dpbo::DeclaredConstant> kept;
        for (const auto& constant : all)
            if (std::find(omitted_.begin(), omitted_.end(), constant.name) == omitted_.end()) kept.push_back(constant);
        return kept;
    }

private:
    static constexpr double kLambdaMin = 0.1;
    static constexpr double kLambdaMax = 1.0;
    dpbo::SearchSpace space_;
    std::vector<std::string> omitted_;
};

}  // namespace

DPBO_PLUGIN(DeclaredConstants, "test-declared-constants", "1.0.0",
            "test only: an objective on [0.1, 1] declaring Kusner et al.'s Assumption-2 constants (L = 1, g* = 1, "
            "m = 1000, lambda_min = 0.1, lambda_max = 1)",
            "none (a test of dp-ucb's lipschitz variant)")
