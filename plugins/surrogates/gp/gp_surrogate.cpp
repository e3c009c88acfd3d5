// The `gp` surrogate: exact GP regression (dpbo::gp::GaussianProcess) behind the Surrogate
// interface, with fixed or marginal-likelihood hyperparameters. The kernel is built when the first
// data arrive, because only then is the input dimension known.
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/gp/gaussian_process.hpp"
#include "dpbo/gp/hyperparameter_fit.hpp"
#include "dpbo/gp/kernel.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/surrogate.hpp"

namespace {

constexpr const char* kOwner = "surrogate 'gp'";

dpbo::gp::KernelFamily kernel_family(const std::string& name) {
    if (name == "rbf") return dpbo::gp::KernelFamily::SquaredExponential;
    if (name == "matern52") return dpbo::gp::KernelFamily::Matern52;
    return dpbo::gp::KernelFamily::Polynomial;
}

// A key that only means something for some settings must not be given with the others: it would
// be silently ignored.
void refuse_unless(const dpbo::ParameterSet& parameters, const std::string& key, bool applies,
                   const std::string& condition) {
    if (!applies && parameters.given_by_user(key)) {
        throw dpbo::ValidationError(
            fmt::format("{}: parameter '{}' (surrogate.{}) applies only {}; remove it", kOwner, key, key, condition));
    }
}

class GpSurrogate final : public dpbo::Surrogate {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.choice("kernel", {"rbf", "matern52", "polynomial"}, "rbf",
                      "covariance function: squared exponential (rbf), Matérn 5/2, or σ_f² (xᵀy + c)^p")
            .boolean("ard", false,
                     "one length-scale per input dimension (automatic relevance determination); ignored by the "
                     "polynomial kernel, which has no length-scales")
            .real("lengthscale", {.fallback = 1.0,
                                  .lower = 0.0,
                                  .lower_inclusive = false,
                                  .doc = "length-scale of every dimension: the fixed value, or where fitting "
                                         "starts (rbf, matern52)"})
            .real_list("lengthscales", std::nullopt,
                       "one length-scale per input dimension (implies ard; its length must equal the input "
                       "dimension, checked when the data arrive)")
            .real("signal_variance", {.fallback = 1.0,
                                      .lower = 0.0,
                                      .lower_inclusive = false,
                                      .doc = "prior variance σ_f² of the latent function (in standardised units "
                                             "when standardise is on)"})
            .real("noise_variance", {.fallback = 1e-6,
                                     .lower = 0.0,
                                     .doc = "observation-noise variance σ², in the units of the targets the GP "
                                            "models (divided by their standard deviation squared when "
                                            "standardise is on)"})
            .choice("mean", {"zero", "constant"}, "zero", "prior mean: zero, or the mean of the targets")
            .boolean("standardise", false, "divide the targets by their standard deviation before modelling")
            .real("polynomial_offset", {.fallback = 1.0,
                                        .lower = 0.0,
                                        .lower_inclusive = false,
                                        .doc = "c in σ_f² (xᵀy + c)^p (polynomial kernel; positive, as it is "
                                               "fitted in log space)"})
            .integer("polynomial_degree",
                     {.fallback = 2, .lower = 1, .upper = 64, .doc = "p in σ_f² (xᵀy + c)^p (polynomial kernel)"})
            .choice("fit", {"none", "marginal-likelihood"}, "none",
                    "hyperparameters fixed as given, or refitted by maximising the log marginal likelihood "
                    "(L-BFGS on log-parameters, inputs assumed in the unit cube)")
            .integer("refit_every", {.fallback = 1,
                                     .lower = 1,
                                     .doc = "points added since the last fit before the next refit "
                                            "(fit = marginal-likelihood)"})
            .integer("restarts", {.fallback = 2,
                                  .lower = 0,
                                  .upper = 1000,
                                  .doc = "random log-uniform starts besides the current hyperparameters "
                                         "(fit = marginal-likelihood)"})
            .boolean("fit_noise", true, "fit the noise variance too (fit = marginal-likelihood)");
        return schema;
    }

    explicit GpSurrogate(const dpbo::ParameterSet& parameters)
        : family_(kernel_family(parameters.text("kernel"))),
          family_name_(parameters.text("kernel")),
          fit_(parameters.text("fit") == "marginal-likelihood"),
          refit_every_(static_cast<std::size_t>(parameters.integer("refit_every"))) {
        const bool stationary = family_ != dpbo::gp::KernelFamily::Polynomial;
        refuse_unless(parameters, "lengthscale", stationary, "to the rbf and matern52 kernels");
        refuse_unless(parameters, "lengthscales", stationary, "to the rbf and matern52 kernels");
        refuse_unless(parameters, "polynomial_offset", !stationary, "to the polynomial kernel");
        refuse_unless(parameters, "polynomial_degree", !stationary, "to the polynomial kernel");
        refuse_unless(parameters, "refit_every", fit_, "with fit = marginal-likelihood");
        refuse_unless(parameters, "restarts", fit_, "with fit = marginal-likelihood");
        refuse_unless(parameters, "fit_noise", fit_, "with fit = marginal-likelihood");

        spec_.family = family_;
        spec_.signal_variance = parameters.real("signal_variance");
        spec_.polynomial_offset = parameters.real("polynomial_offset");
        spec_.polynomial_degree = static_cast<int>(parameters.integer("polynomial_degree"));
        lengthscale_ = parameters.real("lengthscale");
        ard_ = parameters.boolean("ard");
        if (parameters.has("lengthscales")) {
            if (parameters.given_by_user("ard") && !ard_) {
                throw dpbo::ValidationError(fmt::format("{}: surrogate.lengthscales gives one length-scale per "
                                                        "dimension, which contradicts ard = false; remove one of them",
                                                        kOwner));
            }
            const std::vector<double>& values = parameters.real_list("lengthscales");
            if (values.empty()) {
                throw dpbo::ValidationError(
                    fmt::format("{}: surrogate.lengthscales is empty; give one positive value per dimension", kOwner));
            }
            for (double value : values) {
                if (!std::isfinite(value) || value <= 0.0) {
                    throw dpbo::ValidationError(fmt::format("{}: surrogate.lengthscales holds {}; every length-scale "
                                                            "must be a finite value > 0",
                                                            kOwner, value));
                }
            }
            lengthscales_ = arma::vec(values);
            ard_ = true;
        }

        settings_.noise_variance = parameters.real("noise_variance");
        settings_.mean = parameters.text("mean") == "constant" ? dpbo::gp::MeanFunction::Constant
                                                               : dpbo::gp::MeanFunction::Zero;
        settings_.standardise = parameters.boolean("standardise");
        fit_settings_.restarts = static_cast<std::size_t>(parameters.integer("restarts"));
        fit_settings_.fit_noise = parameters.boolean("fit_noise");
    }

    void condition(const arma::mat& points, const arma::vec& targets) override {
        model_for(points.n_cols).condition(points, targets);
    }

    void append(const arma::mat& points, const arma::vec& targets) override {
        model_for(points.n_cols).append(points, targets);
    }

    void truncate(std::size_t n) override {
        if (!gp_) {
            if (n == 0) return;
            throw dpbo::ValidationError(fmt::format("{}: cannot truncate to {} points; it holds none", kOwner, n));
        }
        gp_->truncate(n);
    }

    std::size_t size() const override { return gp_ ? gp_->size() : 0; }

    dpbo::Posterior predict(const arma::mat& points) const override {
        if (gp_) return gp_->predict(points);
        return prior(points.n_cols).predict(points);
    }

    bool refit_if_due(dpbo::ExperimentRng& rng) override {
        if (!fit_ || !gp_ || gp_->size() == 0) return false;
        if (size_at_last_fit_ && gp_->size() < *size_at_last_fit_ + refit_every_) return false;
        const dpbo::gp::FitResult result = dpbo::gp::fit_hyperparameters(*gp_, fit_settings_, rng);
        size_at_last_fit_ = gp_->size();
        ++fits_;
        last_log_likelihood_ = result.log_marginal_likelihood;
        return true;
    }

    std::string describe() const override {
        std::string kernel;
        if (gp_) {
            kernel = gp_->kernel().describe();
        } else {
            kernel = fmt::format("{} kernel (built when the data arrive)", family_name_);
        }
        std::string fitting = "fixed hyperparameters";
        if (fit_) {
            fitting = fits_ == 0 ? std::string("marginal-likelihood fit (not yet run)")
                                 : fmt::format("marginal-likelihood fit ({} fits, log likelihood {:.6g})", fits_,
                                               last_log_likelihood_);
        }
        return fmt::format("gp: {}; noise_variance={:.4g}; mean={}; standardise={}; {}", kernel,
                           gp_ ? gp_->noise_variance() : settings_.noise_variance,
                           settings_.mean == dpbo::gp::MeanFunction::Constant ? "constant" : "zero",
                           settings_.standardise ? "true" : "false", fitting);
    }

    bool provides_gradients() const override { return true; }

    dpbo::PointPosterior predict_with_gradient(const arma::rowvec& point) const override {
        const auto convert = [](const dpbo::gp::GaussianProcess::PointPrediction& p) {
            return dpbo::PointPosterior{p.mean, p.variance, p.mean_gradient, p.variance_gradient};
        };
        if (gp_) return convert(gp_->predict_with_gradient(point));
        return convert(prior(point.n_elem).predict_with_gradient(point));
    }

    arma::vec mean_gradient(const arma::rowvec& point) const override {
        return gp_ ? gp_->mean_gradient(point) : prior(point.n_elem).mean_gradient(point);
    }

    arma::mat mean_gradient_weights(const arma::rowvec& point) const override {
        return gp_ ? gp_->mean_gradient_weights(point) : prior(point.n_elem).mean_gradient_weights(point);
    }

    arma::mat gradient_covariance(const arma::rowvec& point) const override {
        return gp_ ? gp_->gradient_covariance(point) : prior(point.n_elem).gradient_covariance(point);
    }

    arma::mat gradient_covariance_with(const arma::rowvec& point, const arma::mat& extra) const override {
        return gp_ ? gp_->gradient_covariance_with(point, extra)
                   : prior(point.n_elem).gradient_covariance_with(point, extra);
    }

    arma::vec gradient_trace_with_each(const arma::rowvec& point, const arma::mat& pending,
                                       const arma::mat& candidates) const override {
        return gp_ ? gp_->gradient_trace_with_each(point, pending, candidates)
                   : prior(point.n_elem).gradient_trace_with_each(point, pending, candidates);
    }

    arma::vec lengthscales() const override {
        if (gp_) return gp_->kernel().lengthscales();
        if (family_ != dpbo::gp::KernelFamily::Polynomial && lengthscales_) return *lengthscales_;
        throw dpbo::RunError(fmt::format("{}: the length-scales are per input dimension, which is known only once the "
                                         "surrogate holds data",
                                         kOwner));
    }

private:
    dpbo::gp::KernelSpec spec_for(std::size_t dim) const {
        if (dim == 0) throw dpbo::ValidationError(fmt::format("{}: points have no coordinates", kOwner));
        dpbo::gp::KernelSpec spec = spec_;
        spec.dim = dim;
        if (lengthscales_) {
            if (lengthscales_->n_elem != dim) {
                throw dpbo::ValidationError(fmt::format("{}: surrogate.lengthscales has {} entries but the inputs "
                                                        "have dimension {}; give one length-scale per dimension",
                                                        kOwner, lengthscales_->n_elem, dim));
            }
            spec.lengthscales = *lengthscales_;
        } else {
            spec.lengthscales = ard_ ? arma::vec(dim, arma::fill::value(lengthscale_)) : arma::vec{lengthscale_};
        }
        return spec;
    }

    dpbo::gp::GaussianProcess& model_for(std::size_t dim) {
        if (!gp_) {
            gp_.emplace(dpbo::gp::make_kernel(spec_for(dim)), settings_);
        } else if (gp_->dim() != dim) {
            throw dpbo::ValidationError(fmt::format("{}: points have {} coordinates; this surrogate models {}-D inputs",
                                                    kOwner, dim, gp_->dim()));
        }
        return *gp_;
    }

    // Before any data: the prior with the configured hyperparameters.
    dpbo::gp::GaussianProcess prior(std::size_t dim) const {
        return dpbo::gp::GaussianProcess(dpbo::gp::make_kernel(spec_for(dim)), settings_);
    }

    dpbo::gp::KernelFamily family_;
    std::string family_name_;
    bool fit_;
    std::size_t refit_every_;
    dpbo::gp::KernelSpec spec_;
    double lengthscale_ = 1.0;
    bool ard_ = false;
    std::optional<arma::vec> lengthscales_;
    dpbo::gp::GpSettings settings_;
    dpbo::gp::FitSettings fit_settings_;
    std::optional<dpbo::gp::GaussianProcess> gp_;
    std::optional<std::size_t> size_at_last_fit_;
    std::size_t fits_ = 0;
    double last_log_likelihood_ = 0.0;
};

}  // namespace

DPBO_PLUGIN(GpSurrogate, "gp", "1.0.0",
            "Gaussian-process regression: rbf, Matérn 5/2 or polynomial kernels, posterior gradients, O(n²) "
            "appends, marginal-likelihood fitting",
            "Rasmussen & Williams (2006), ch. 2 and 5; SPEC §0")
