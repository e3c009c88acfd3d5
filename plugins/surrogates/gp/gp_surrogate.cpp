// The `gp` surrogate: exact GP regression (dpbo::gp::GaussianProcess) behind the Surrogate
// interface, with fixed or marginal-likelihood hyperparameters, and one independent GP per output
// when the targets have several columns. The kernels are built when the first data arrive, because
// only then are the input dimension and the number of outputs known.
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/errors.hpp"
#include "dpbo/gp/gaussian_process.hpp"
#include "dpbo/gp/hyperparameter_fit.hpp"
#include "dpbo/gp/kernel.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/surrogate.hpp"

namespace {

// Armadillo's col() on a matrix without rows binds a reference to its null memory (undefined
// behaviour that UBSan reports: conditioning on no points happens at DP-GIBO's first step).
arma::vec column(const arma::mat& m, arma::uword j) { return m.n_rows == 0 ? arma::vec() : arma::vec(m.col(j)); }

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
        schema
            .choice("kernel", {"rbf", "matern52", "polynomial"}, "rbf",
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
            .real("refit_growth",
                  {.fallback = 0.05,
                   .lower = 0.0,
                   .doc = "with many points, refit only once the data have grown by this fraction since the last "
                          "fit (and by at least refit_every points): a fit costs O(n³), so refitting after a fixed "
                          "fraction keeps its cost per point O(n²); 0 refits every refit_every points "
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
          refit_every_(static_cast<std::size_t>(parameters.integer("refit_every"))),
          refit_growth_(parameters.real("refit_growth")) {
        const bool stationary = family_ != dpbo::gp::KernelFamily::Polynomial;
        refuse_unless(parameters, "lengthscale", stationary, "to the rbf and matern52 kernels");
        refuse_unless(parameters, "lengthscales", stationary, "to the rbf and matern52 kernels");
        refuse_unless(parameters, "polynomial_offset", !stationary, "to the polynomial kernel");
        refuse_unless(parameters, "polynomial_degree", !stationary, "to the polynomial kernel");
        refuse_unless(parameters, "refit_every", fit_, "with fit = marginal-likelihood");
        refuse_unless(parameters, "refit_growth", fit_, "with fit = marginal-likelihood");
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
                throw dpbo::ValidationError(
                    fmt::format("{}: surrogate.lengthscales gives one length-scale per "
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
                    throw dpbo::ValidationError(
                        fmt::format("{}: surrogate.lengthscales holds {}; every length-scale "
                                    "must be a finite value > 0",
                                    kOwner, value));
                }
            }
            lengthscales_ = arma::vec(values);
            ard_ = true;
        }

        settings_.noise_variance = parameters.real("noise_variance");
        settings_.mean =
            parameters.text("mean") == "constant" ? dpbo::gp::MeanFunction::Constant : dpbo::gp::MeanFunction::Zero;
        settings_.standardise = parameters.boolean("standardise");
        fit_settings_.restarts = static_cast<std::size_t>(parameters.integer("restarts"));
        fit_settings_.fit_noise = parameters.boolean("fit_noise");
    }

    // The single-output methods are the multi-output ones with one column (output 0 for predictions
    // and gradients), so both paths run the same code.
    void condition(const arma::mat& points, const arma::vec& targets) override {
        condition_outputs(points, arma::mat(targets));
    }

    void append(const arma::mat& points, const arma::vec& targets) override {
        append_outputs(points, arma::mat(targets));
    }

    std::size_t output_count() const override { return outputs_.empty() ? 1 : outputs_.size(); }

    // With the same number of outputs as before, each output keeps its hyperparameters and refit
    // schedule (as a single GP does when conditioned anew); another number starts every output from
    // the configured hyperparameters. Either all outputs take the new data or none does.
    void condition_outputs(const arma::mat& points, const arma::mat& targets) override {
        check_outputs(points, targets, "condition_outputs");
        const std::size_t dim = checked_dim(points.n_cols);
        if (targets.n_cols != outputs_.size()) {
            std::vector<Output> fresh;
            fresh.reserve(targets.n_cols);
            for (arma::uword j = 0; j < targets.n_cols; ++j) {
                fresh.push_back(Output{dpbo::gp::GaussianProcess(dpbo::gp::make_kernel(spec_for(dim)), settings_)});
                fresh.back().gp.condition(points, column(targets, j));
            }
            outputs_ = std::move(fresh);
            return;
        }
        // In place (GIBO conditions on its window every step, so no copies of the factors); a GP
        // that fails keeps its data, and the outputs conditioned before it get theirs back.
        if (outputs_.size() == 1) {
            outputs_.front().gp.condition(points, column(targets, 0));
            return;
        }
        const arma::mat old_points = first().points();
        std::vector<arma::vec> old_targets;
        old_targets.reserve(outputs_.size());
        for (const Output& output : outputs_) old_targets.push_back(output.gp.targets());
        std::size_t done = 0;
        try {
            for (; done < outputs_.size(); ++done) outputs_[done].gp.condition(points, column(targets, done));
        } catch (...) {
            for (std::size_t j = 0; j < done; ++j) outputs_[j].gp.condition(old_points, old_targets[j]);
            throw;
        }
    }

    // Either all outputs take the new points or none does: a failure in one output truncates the
    // others back.
    void append_outputs(const arma::mat& points, const arma::mat& targets) override {
        if (outputs_.empty()) {
            condition_outputs(points, targets);
            return;
        }
        check_outputs(points, targets, "append_outputs");
        if (targets.n_cols != outputs_.size()) {
            throw dpbo::ValidationError(
                fmt::format("{}: the targets have {} column(s) but this surrogate models {} "
                            "output(s); give one column per output (the number of outputs "
                            "is set by condition_outputs)",
                            kOwner, targets.n_cols, outputs_.size()));
        }
        checked_dim(points.n_cols);
        const std::size_t before = size();
        std::size_t appended = 0;
        try {
            for (; appended < outputs_.size(); ++appended) {
                outputs_[appended].gp.append(points, column(targets, appended));
            }
        } catch (...) {
            for (std::size_t j = 0; j < appended; ++j) outputs_[j].gp.truncate(before);
            throw;
        }
    }

    void truncate(std::size_t n) override {
        if (outputs_.empty()) {
            if (n == 0) return;
            throw dpbo::ValidationError(fmt::format("{}: cannot truncate to {} points; it holds none", kOwner, n));
        }
        // All outputs hold the same points, so the first refuses a bad n before any output changes.
        for (Output& output : outputs_) output.gp.truncate(n);
    }

    std::size_t size() const override { return outputs_.empty() ? 0 : outputs_.front().gp.size(); }

    dpbo::Posterior predict(const arma::mat& points) const override {
        if (!outputs_.empty()) return outputs_.front().gp.predict(points);
        return prior(points.n_cols).predict(points);
    }

    dpbo::MultiPosterior predict_outputs(const arma::mat& points) const override {
        if (outputs_.empty()) return Surrogate::predict_outputs(points);
        dpbo::MultiPosterior posterior{arma::mat(points.n_rows, outputs_.size()),
                                       arma::mat(points.n_rows, outputs_.size())};
        for (std::size_t j = 0; j < outputs_.size(); ++j) {
            const dpbo::Posterior one = outputs_[j].gp.predict(points);
            posterior.mean.col(j) = one.mean;
            posterior.variance.col(j) = one.variance;
        }
        return posterior;
    }

    bool refit_if_due(dpbo::ExperimentRng& rng) override {
        if (!fit_) return false;
        bool refitted = false;
        for (std::size_t j = 0; j < outputs_.size(); ++j) {
            Output& output = outputs_[j];
            if (output.gp.size() == 0) continue;
            if (output.size_at_last_fit &&
                output.gp.size() < *output.size_at_last_fit + refit_interval(*output.size_at_last_fit))
                continue;
            dpbo::gp::FitResult result;
            try {
                result = dpbo::gp::fit_hyperparameters(output.gp, fit_settings_, rng);
            } catch (const dpbo::RunError& error) {
                if (outputs_.size() == 1) throw;
                throw dpbo::RunError(fmt::format("{}: output {}: {}", kOwner, j, error.what()));
            }
            output.size_at_last_fit = output.gp.size();
            ++output.fits;
            output.last_log_likelihood = result.log_marginal_likelihood;
            refitted = true;
        }
        return refitted;
    }

    std::string describe() const override {
        const std::string common = fmt::format("mean={}; standardise={}",
                                               settings_.mean == dpbo::gp::MeanFunction::Constant ? "constant" : "zero",
                                               settings_.standardise ? "true" : "false");
        if (outputs_.empty()) {
            return fmt::format("gp: {} kernel (built when the data arrive); noise_variance={:.4g}; {}; {}",
                               family_name_, settings_.noise_variance, common, fitting(nullptr));
        }
        if (outputs_.size() == 1) {
            const Output& only = outputs_.front();
            return fmt::format("gp: {}; noise_variance={:.4g}; {}; {}", only.gp.kernel().describe(),
                               only.gp.noise_variance(), common, fitting(&only));
        }
        std::string text = fmt::format("gp: {} independent outputs; {}", outputs_.size(), common);
        for (std::size_t j = 0; j < outputs_.size(); ++j) {
            const Output& output = outputs_[j];
            text += fmt::format("; output {}: {}, noise_variance={:.4g}, {}", j, output.gp.kernel().describe(),
                                output.gp.noise_variance(), fitting(&output));
        }
        return text;
    }

    bool provides_gradients() const override { return true; }

    dpbo::PointPosterior predict_with_gradient(const arma::rowvec& point) const override {
        const auto convert = [](const dpbo::gp::GaussianProcess::PointPrediction& p) {
            return dpbo::PointPosterior{p.mean, p.variance, p.mean_gradient, p.variance_gradient};
        };
        if (!outputs_.empty()) return convert(first().predict_with_gradient(point));
        return convert(prior(point.n_elem).predict_with_gradient(point));
    }

    arma::vec mean_gradient(const arma::rowvec& point) const override {
        return !outputs_.empty() ? first().mean_gradient(point) : prior(point.n_elem).mean_gradient(point);
    }

    arma::mat mean_gradient_weights(const arma::rowvec& point) const override {
        return !outputs_.empty() ? first().mean_gradient_weights(point)
                                 : prior(point.n_elem).mean_gradient_weights(point);
    }

    arma::mat gradient_covariance(const arma::rowvec& point) const override {
        return !outputs_.empty() ? first().gradient_covariance(point) : prior(point.n_elem).gradient_covariance(point);
    }

    arma::mat gradient_covariance_with(const arma::rowvec& point, const arma::mat& extra) const override {
        return !outputs_.empty() ? first().gradient_covariance_with(point, extra)
                                 : prior(point.n_elem).gradient_covariance_with(point, extra);
    }

    arma::vec gradient_trace_with_each(const arma::rowvec& point, const arma::mat& pending,
                                       const arma::mat& candidates) const override {
        return !outputs_.empty() ? first().gradient_trace_with_each(point, pending, candidates)
                                 : prior(point.n_elem).gradient_trace_with_each(point, pending, candidates);
    }

    arma::vec lengthscales() const override {
        if (!outputs_.empty()) return first().kernel().lengthscales();
        if (family_ != dpbo::gp::KernelFamily::Polynomial && lengthscales_) return *lengthscales_;
        throw dpbo::RunError(
            fmt::format("{}: the length-scales are per input dimension, which is known only once the "
                        "surrogate holds data",
                        kOwner));
    }

private:
    // One independent GP per output, with its own refit bookkeeping.
    struct Output {
        dpbo::gp::GaussianProcess gp;
        std::optional<std::size_t> size_at_last_fit;
        std::size_t fits = 0;
        double last_log_likelihood = 0.0;
    };

    const dpbo::gp::GaussianProcess& first() const { return outputs_.front().gp; }

    // Points to add after a fit at `fitted` points before the next: refit_every, or the fraction
    // refit_growth of the data when that is more. Fits at geometrically spaced sizes cost
    // Σ O(n_k³) = O(N³/refit_growth) over a run to N points: O(N²/refit_growth) per point.
    std::size_t refit_interval(std::size_t fitted) const {
        const double growth = std::ceil(refit_growth_ * static_cast<double>(fitted));
        return std::max(refit_every_, static_cast<std::size_t>(growth));
    }

    std::string fitting(const Output* output) const {
        if (!fit_) return "fixed hyperparameters";
        if (output == nullptr || output->fits == 0) return "marginal-likelihood fit (not yet run)";
        return fmt::format("marginal-likelihood fit ({} fits, log likelihood {:.6g})", output->fits,
                           output->last_log_likelihood);
    }

    // Shapes and values every output needs, checked before any output changes: one target row per
    // point, at least one column, every target finite (named by output and point).
    static void check_outputs(const arma::mat& points, const arma::mat& targets, const char* method) {
        if (targets.n_cols == 0) {
            throw dpbo::ValidationError(
                fmt::format("{}: {} was given targets with no columns; give one column per output", kOwner, method));
        }
        if (targets.n_rows != points.n_rows) {
            throw dpbo::ValidationError(
                fmt::format("{}: {} was given {} points but {} target rows; expected one "
                            "row per point",
                            kOwner, method, points.n_rows, targets.n_rows));
        }
        if (targets.n_cols == 1) return;  // the GP names a non-finite target itself
        for (arma::uword j = 0; j < targets.n_cols; ++j) {
            for (arma::uword i = 0; i < targets.n_rows; ++i) {
                if (!std::isfinite(targets(i, j))) {
                    throw dpbo::ValidationError(fmt::format(
                        "{}: the target of output {} at point {} (x = [{:.6g}]) "
                        "is {}; observations must be finite",
                        kOwner, j, i, fmt::join(points.row(i).begin(), points.row(i).end(), ", "), targets(i, j)));
                }
            }
        }
    }

    // The input dimension of new points, refused when it differs from the data already held.
    std::size_t checked_dim(std::size_t dim) const {
        if (dim == 0) throw dpbo::ValidationError(fmt::format("{}: points have no coordinates", kOwner));
        if (!outputs_.empty() && first().dim() != dim) {
            throw dpbo::ValidationError(fmt::format("{}: points have {} coordinates; this surrogate models {}-D inputs",
                                                    kOwner, dim, first().dim()));
        }
        return dim;
    }

    dpbo::gp::KernelSpec spec_for(std::size_t dim) const {
        if (dim == 0) throw dpbo::ValidationError(fmt::format("{}: points have no coordinates", kOwner));
        dpbo::gp::KernelSpec spec = spec_;
        spec.dim = dim;
        if (lengthscales_) {
            if (lengthscales_->n_elem != dim) {
                throw dpbo::ValidationError(
                    fmt::format("{}: surrogate.lengthscales has {} entries but the inputs "
                                "have dimension {}; give one length-scale per dimension",
                                kOwner, lengthscales_->n_elem, dim));
            }
            spec.lengthscales = *lengthscales_;
        } else {
            spec.lengthscales = ard_ ? arma::vec(dim, arma::fill::value(lengthscale_)) : arma::vec{lengthscale_};
        }
        return spec;
    }

    // Before any data: the prior with the configured hyperparameters.
    dpbo::gp::GaussianProcess prior(std::size_t dim) const {
        return dpbo::gp::GaussianProcess(dpbo::gp::make_kernel(spec_for(dim)), settings_);
    }

    dpbo::gp::KernelFamily family_;
    std::string family_name_;
    bool fit_;
    std::size_t refit_every_;
    double refit_growth_;
    dpbo::gp::KernelSpec spec_;
    double lengthscale_ = 1.0;
    bool ard_ = false;
    std::optional<arma::vec> lengthscales_;
    dpbo::gp::GpSettings settings_;
    dpbo::gp::FitSettings fit_settings_;
    std::vector<Output> outputs_;  // empty until the first data arrive
};

}  // namespace

DPBO_PLUGIN(GpSurrogate, "gp", "1.0.0",
            "Gaussian-process regression: rbf, Matérn 5/2 or polynomial kernels, posterior gradients, O(n²) "
            "appends, marginal-likelihood fitting",
            "Rasmussen & Williams (2006), ch. 2 and 5; posterior gradients as in Sopa et al., Scalable Differentially "
            "Private Bayesian Optimization, §2.4 of the earlier version")
