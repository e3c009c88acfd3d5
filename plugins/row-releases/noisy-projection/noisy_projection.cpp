// A row release that is (ε, δ)-DP, for PO-GP-UCB's curator in place of the published Algorithm 1
// (whose claim fails: see random-projection). The centred rows get Gaussian noise calibrated to the
// whole matrix, and the noisy rows are then projected as in Algorithm 1:
//   Z = r^{-1/2}·(X_c + G)·M,   G_ij ~ N(0, σ²),   M_ij ~ N(0, 1).
// When one row moves by at most Δ in L2, the centred matrix X_c = X − 1·x̄ᵀ moves by Δ·√(1 − 1/n) ≤ Δ
// in Frobenius norm (the row by (1 − 1/n)·v, each of the other n − 1 rows by v/n), so the analytic
// Gaussian mechanism (Balle & Wang 2018) with L2 sensitivity Δ makes X_c + G (ε, δ)-DP, and the
// projection by an M drawn independently of the data is post-processing. Pairwise distances of
// X_c + G are those of X_c plus noise of order σ√(2d), and the projection keeps them up to the
// Johnson–Lindenstrauss factor (1 ± ν) of Lemma 1.
#include <cmath>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy/gaussian_dp.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/row_release.hpp"

namespace {

constexpr const char* kOwner = "row release 'noisy-projection'";

class NoisyProjection final : public dpbo::RowRelease {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema
            .real("epsilon", {.fallback = 3.0,
                              .lower = 0.0,
                              .lower_inclusive = false,
                              .doc = "ε of the (ε, δ)-DP release of the rows"})
            .real("delta", {.fallback = 1e-5,
                            .lower = 0.0,
                            .upper = 1.0,
                            .lower_inclusive = false,
                            .upper_inclusive = false,
                            .doc = "δ of the (ε, δ)-DP release (keep it below 1/n)"})
            .integer("r", {.fallback = 10,
                           .lower = 0,
                           .upper = 100000,
                           .doc = "projection dimension r (0: release the noisy centred rows unprojected, d columns)"});
        return schema;
    }

    explicit NoisyProjection(const dpbo::ParameterSet& parameters)
        : epsilon_(parameters.real("epsilon")),
          delta_(parameters.real("delta")),
          r_(static_cast<std::size_t>(parameters.integer("r"))) {}

    std::size_t released_columns(std::size_t input_columns) const override { return r_ == 0 ? input_columns : r_; }

    void calibrate(double sensitivity) override {
        if (!std::isfinite(sensitivity) || sensitivity <= 0.0)
            throw dpbo::ValidationError(fmt::format(
                "{}: sensitivity = {} is not allowed; expected the L2 bound on one row's change, a finite number > 0",
                kOwner, sensitivity));
        const double sigma = dpbo::analytic_gaussian_sigma(epsilon_, delta_, sensitivity, kOwner);
        dpbo::privacy::release_grid(sigma, fmt::format("{}: sigma", kOwner));
        sigma_ = sigma;
        sensitivity_ = sensitivity;
    }
    bool calibrated() const override { return sigma_.has_value(); }
    double sigma() const { return require_sigma("sigma()"); }

    dpbo::PrivacyEvent event() const override {
        require_sigma("event()");
        return {dpbo::ApproxDpEvent{epsilon_, delta_}};
    }
    dpbo::AccountantChoice accountant() const override { return {"basic", {}}; }

    dpbo::PrivacyStatement guarantee() const override {
        const double sigma = require_sigma("guarantee()");
        dpbo::PrivacyStatement statement = dpbo::PrivacyStatement::approx_dp(epsilon_, delta_);
        statement.mechanism = fmt::format(
            "analytic Gaussian noise σ = {:.6g} on every entry of the column-centred rows (Balle & Wang 2018; the "
            "centred matrix moves by at most Δ = {} in Frobenius norm when one row moves by Δ), exact sampling "
            "rounded to the grid 2^{}; {}",
            sigma, *sensitivity_, std::ilogb(dpbo::privacy::release_grid(sigma)),
            r_ == 0 ? "released unprojected"
                    : fmt::format("then projected by r^-1/2·M, M ∈ R^(d×{}) with N(0, 1) entries drawn independently "
                                  "of the data (post-processing)",
                                  r_));
        statement.assumptions.push_back(
            fmt::format("neighbouring datasets differ in one row by at most Δ = {} in L2 norm in the release's units",
                        *sensitivity_));
        return statement;
    }

protected:
    dpbo::RowReleaseOutcome transform(const arma::mat& rows, dpbo::PrivacyNoiseSource& noise) const override {
        const double sigma = require_sigma("release()");
        arma::mat centred = rows;
        centred.each_row() -= arma::mean(rows, 0);
        const arma::mat noisy = arma::reshape(dpbo::privacy::gaussian_release(arma::vectorise(centred), sigma, noise),
                                              rows.n_rows, rows.n_cols);
        dpbo::RowReleaseOutcome outcome;
        if (r_ == 0) {
            outcome.rows = noisy;
        } else {
            const arma::mat m = arma::reshape(
                dpbo::privacy::gaussian_release(arma::vec(rows.n_cols * r_, arma::fill::zeros), 1.0, noise),
                rows.n_cols, r_);
            outcome.rows = noisy * m / std::sqrt(static_cast<double>(r_));
        }
        // How much of the rows' spread survives the noise: the data's centred Frobenius norm against
        // the noise's expected one, σ√(n·d).
        outcome.evaluation_only = {
            {"signal_to_noise", "‖X_c‖_F / (σ·√(n·d)): the centred rows' spread against the noise added to them",
             arma::mat{arma::norm(centred, "fro") / (sigma * std::sqrt(static_cast<double>(rows.n_elem)))}},
        };
        return outcome;
    }

private:
    double require_sigma(const char* operation) const {
        if (!sigma_)
            throw dpbo::RunError(
                fmt::format("{}: {} called before calibrate(sensitivity); σ depends on it", kOwner, operation));
        return *sigma_;
    }

    double epsilon_;
    double delta_;
    std::size_t r_;
    std::optional<double> sensitivity_;
    std::optional<double> sigma_;
};

}  // namespace

DPBO_PLUGIN(NoisyProjection, "noisy-projection", "1.0.0",
            "(ε, δ)-DP release of a dataset's rows: analytic Gaussian noise on the centred rows, then a random "
            "projection (post-processing)",
            "Balle & Wang (2018), Thm 8; projection as in Kharkovskii, Dai & Low (2020), Algorithm 1")
