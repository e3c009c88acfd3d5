// The hypervolume-based probability of improvement of Couckuyt, Deschrijver & Dhaene (2014), as
// DPareto uses it (Avent et al. 2020, eq. 1–3): HVPoI(λ) = Δ_PF(m(λ)) · PoI(λ), for two outputs.
//
// Where each factor is computed. The surrogate models t_j(y_j) (DPareto: log ε, logit error; see
// AcquisitionContext::transforms), while the reference point v† = (10, 1) is in the user's units,
// where logit(1) = +∞. So:
//  - PoI is computed in the model's space, where the posteriors are Gaussian: the staircase of the
//    modelled front (AcquisitionContext::front) with infinite outer bounds. A monotone increasing
//    transform per output maps the staircase's cells one-to-one onto the user's cells, so this is
//    exactly the probability that the point's outputs are not dominated in the user's units.
//  - Δ_PF is computed in the user's units, against the observed front and v†, at the means mapped
//    back (t⁻¹(m)). t⁻¹ of a Gaussian mean is the median of the back-transformed output, which,
//    like PoI, does not depend on the transform; and the gain is then measured in the units in
//    which the hypervolume is reported, so v† = (10, 1) means what the paper says (v† = 1 is a
//    finite bound here, which no model-space bound could be).
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "dpbo/acquisition.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/surrogate.hpp"
#include "staircase.hpp"

namespace {

constexpr const char* kOwner = "acquisition 'hvpoi'";

class HypervolumePoi final : public dpbo::Acquisition {
public:
    static dpbo::ParameterSchema schema() { return {}; }
    explicit HypervolumePoi(const dpbo::ParameterSet& /*parameters*/) {}

    std::size_t supported_outputs() const override { return 2; }

    arma::vec score(const dpbo::Surrogate& model, const arma::mat& points,
                    const dpbo::AcquisitionContext& context) const override {
        check(context);
        const arma::mat model_staircase = dpbo::hvpoi::sorted_staircase(context.front);
        const arma::rowvec signs = context.signs.is_empty() ? arma::rowvec{1.0, 1.0} : context.signs;
        // The observed front and the reference in the maximisation sense of the user's units.
        arma::mat user_front = context.front_values.is_empty() ? arma::mat(0, 2) : context.front_values;
        if (!user_front.is_empty()) user_front.each_row() %= signs;
        const arma::mat user_staircase = dpbo::hvpoi::sorted_staircase(user_front);
        const arma::rowvec reference = reference_point(context) % signs;

        const dpbo::MultiPosterior posterior = model.predict_outputs(points);
        if (posterior.mean.n_cols != 2)
            throw dpbo::RunError(
                fmt::format("{}: the surrogate predicts {} outputs; hvpoi scores 2", kOwner, posterior.mean.n_cols));
        const bool staircase_finite = model_staircase.is_finite();
        arma::vec scores(points.n_rows);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            arma::rowvec median = {to_user(context, 0, posterior.mean(i, 0)),
                                   to_user(context, 1, posterior.mean(i, 1))};
            median %= signs;
            const double gain = dpbo::hvpoi::exclusive_hypervolume(user_staircase, median, reference);
            // Where the predicted medians add nothing (most of the domain once the front is good)
            // the score is 0 whatever the probability, which lies in [0, 1] for a finite posterior
            // and staircase (a variance <= 0 is a point mass): its erfc calls, most of the cost,
            // are skipped. Anything else still goes through the product, so a NaN shows as before.
            const bool well_posed = staircase_finite && std::isfinite(posterior.mean(i, 0)) &&
                                    std::isfinite(posterior.mean(i, 1)) && std::isfinite(posterior.variance(i, 0)) &&
                                    std::isfinite(posterior.variance(i, 1));
            if (gain == 0.0 && well_posed) {
                scores(i) = 0.0;
                continue;
            }
            const double probability =
                dpbo::hvpoi::nondominated_probability(model_staircase, posterior.mean(i, 0), posterior.variance(i, 0),
                                                      posterior.mean(i, 1), posterior.variance(i, 1));
            scores(i) = probability * gain;
        }
        return scores;
    }

private:
    static void check(const dpbo::AcquisitionContext& context) {
        if (context.outputs != 2 || context.front.n_cols != 2)
            throw dpbo::RunError(
                fmt::format("{}: the context describes {} outputs and a front of {} columns; hvpoi "
                            "scores exactly 2 outputs",
                            kOwner, context.outputs, context.front.n_cols));
        if (!context.signs.is_empty() && context.signs.n_elem != 2)
            throw dpbo::RunError(fmt::format("{}: {} output signs for 2 outputs", kOwner, context.signs.n_elem));
        if (!context.transforms.empty() && context.transforms.size() != 2)
            throw dpbo::RunError(
                fmt::format("{}: {} output transforms for 2 outputs", kOwner, context.transforms.size()));
        if (!context.front_values.is_empty() && context.front_values.n_rows != context.front.n_rows)
            throw dpbo::RunError(fmt::format("{}: the front has {} modelled rows but {} observed rows", kOwner,
                                             context.front.n_rows, context.front_values.n_rows));
        if (!context.adaptive_reference && context.reference.n_elem != 2)
            throw dpbo::RunError(
                fmt::format("{}: needs a reference point of 2 entries in the objective's units "
                            "(AcquisitionContext::reference) or adaptive_reference; the algorithm "
                            "gave {} entries",
                            kOwner, context.reference.n_elem));
    }

    static double to_user(const dpbo::AcquisitionContext& context, arma::uword j, double model_value) {
        const double sign = context.signs.is_empty() ? 1.0 : context.signs(j);
        const dpbo::OutputTransform transform =
            context.transforms.empty() ? dpbo::OutputTransform::Identity : context.transforms[j];
        return dpbo::from_model_scale(transform, sign * model_value);
    }

    // v† in the objective's units; adaptive: GPflowOpt's HVPoI reference (gpflowopt/acquisition/
    // hvpoi.py, _setup), computed where GPflowOpt computes it — on the modelled values, minimised —
    // as max(front) + 2·(max(front) − min(front))/|front| per output, then mapped to the user's units.
    static arma::rowvec reference_point(const dpbo::AcquisitionContext& context) {
        if (!context.adaptive_reference) return context.reference;
        if (context.front.n_rows == 0)
            throw dpbo::RunError(fmt::format("{}: adaptive_reference needs a non-empty front", kOwner));
        const arma::mat minimised = -context.front;
        const arma::rowvec worst = arma::max(minimised, 0);
        const arma::rowvec range = worst - arma::min(minimised, 0);
        const arma::rowvec model_reference = -(worst + 2.0 * range / static_cast<double>(context.front.n_rows));
        return {to_user(context, 0, model_reference(0)), to_user(context, 1, model_reference(1))};
    }
};

}  // namespace

DPBO_PLUGIN(HypervolumePoi, "hvpoi", "1.0.0",
            "hypervolume-based probability of improvement for two outputs: P(not dominated by the front), exact "
            "over the front's staircase cells, times the hypervolume the predicted medians add w.r.t. the "
            "reference point (in the objective's units)",
            "Couckuyt, Deschrijver & Dhaene, J. Global Optim. 60 (2014); Avent et al., DPareto (2020), eq. 1-3")
