#pragma once
// A minimal valid objective shared by the broken-plugin cases, so each case differs from a good
// plugin in exactly one way.
#include <dpbo/errors.hpp>
#include <dpbo/objective.hpp>
#include <dpbo/parameters.hpp>

namespace broken_cases {

class Sphere : public dpbo::Objective {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema s;
        s.integer("dim", {.fallback = 2, .lower = 1, .upper = 100, .doc = "dimension"});
        return s;
    }
    explicit Sphere(const dpbo::ParameterSet& p)
        : space_(dpbo::SearchSpace::uniform_box(static_cast<std::size_t>(p.integer("dim")), -1.0, 1.0)) {}
    const dpbo::SearchSpace& space() const override { return space_; }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest&) override {
        dpbo::Evaluations e;
        e.points = points;
        e.values = arma::sum(arma::square(points), 1);
        return e;
    }

private:
    dpbo::SearchSpace space_;
};

}  // namespace broken_cases
