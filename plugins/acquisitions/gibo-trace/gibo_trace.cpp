// GIBO's gradient-information acquisition: how uncertain the gradient at the current iterate θ
// would remain after also observing a candidate z. Only the locations enter, never observed
// values, so choosing z is post-processing of the data already seen (which DP-GIBO relies on).
#include <string>

#include <fmt/format.h>

#include "dpbo/acquisition.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/surrogate.hpp"

namespace {

constexpr const char* kOwner = "acquisition 'gibo-trace'";

class GiboTrace final : public dpbo::Acquisition {
public:
    static dpbo::ParameterSchema schema() { return {}; }

    explicit GiboTrace(const dpbo::ParameterSet& /*parameters*/) {}

    // −Tr Σ∇(θ | D ∪ pending ∪ {z}) per row z: larger is better, as for every acquisition. Each row
    // is one block update of the surrogate's factor by the pending points and z, never a refit. The
    // Surrogate interface has no batch form of this trace, so the surrogate's work on D (in the gp
    // plugin, the O(n²d) solve with ∇k(θ, D)) is repeated for every row.
    arma::vec score(const dpbo::Surrogate& model, const arma::mat& points,
                    const dpbo::AcquisitionContext& context) const override {
        check(model, points, context);
        const arma::mat pending = context.pending.n_rows > 0 ? context.pending : arma::mat(0, points.n_cols);
        return -model.gradient_trace_with_each(context.anchor, pending, points);
    }

private:
    static void check(const dpbo::Surrogate& model, const arma::mat& points, const dpbo::AcquisitionContext& context) {
        if (!model.provides_gradients()) {
            throw dpbo::ValidationError(
                fmt::format("{}: the surrogate provides no posterior gradients; use one with a differentiable kernel "
                            "(e.g. 'gp' with kernel rbf or matern52)",
                            kOwner));
        }
        if (context.anchor.n_elem != points.n_cols) {
            throw dpbo::ValidationError(
                fmt::format("{}: the context's anchor (the iterate θ whose gradient is targeted) has {} coordinates, "
                            "the points have {}; only algorithms that set an anchor can use it (gibo, dp-gibo)",
                            kOwner, context.anchor.n_elem, points.n_cols));
        }
        if (context.pending.n_rows > 0 && context.pending.n_cols != points.n_cols) {
            throw dpbo::ValidationError(fmt::format("{}: pending points have {} columns, the candidates {}", kOwner,
                                                    context.pending.n_cols, points.n_cols));
        }
    }
};

}  // namespace

DPBO_PLUGIN(GiboTrace, "gibo-trace", "1.0.0",
            "GIBO's acquisition: minus the trace of the posterior gradient covariance at the iterate after "
            "adding the candidate (and the points already chosen for the batch)",
            "Müller, von Rohr & Trimpe (2021), Local policy search with Bayesian optimization, Sec. 4.2 (Eq. 7); "
            "Sopa et al., Scalable Differentially Private Bayesian Optimization, §3.1")
