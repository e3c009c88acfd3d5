// The row releases of PO-GP-UCB's curator, loaded through the registry: Algorithm 1 as published
// (random-projection) against hand-computed values and the M its seeded noise draws; the JL distance
// preservation of Lemma 1 as a statistical test; why its DP claim fails (its release lies in the
// column space of X, and d + 1 known rows give every other row back); and the (ε, δ)-DP
// noisy-projection's noise.
#include <cmath>
#include <map>
#include <memory>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "audit/row_release_samples.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/privacy/gaussian_dp.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/row_release.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

std::shared_ptr<dpbo::RowRelease> row_release(const std::string& name, const Parameters& parameters) {
    auto release = dpbo::test::make<dpbo::RowRelease>(name, parameters);
    release->calibrate(1.0);
    return release;
}

struct Released {
    dpbo::RowReleaseOutcome outcome;
    arma::mat m;  // the projection the release drew, redrawn from the same seed
};

// The release of `rows` with privacy noise from `seed`, and the M it drew: the release's first noise
// draws are M's d·r entries, from stream 0 of the key the ledger derives from the run's source, so
// the same stream of a source with the same seed gives M again.
Released release_seeded(const dpbo::RowRelease& release, const arma::mat& rows, std::size_t r, std::uint64_t seed) {
    auto accountant = dpbo::test::make<dpbo::Accountant>("basic");
    dpbo::PrivacyNoiseSource noise = dpbo::PrivacyNoiseSource::from_seed(seed);
    dpbo::PrivacyLedger ledger(accountant, std::nullopt, noise, "test");
    ledger.set_scope("one row moved by 1", "one row");
    Released out;
    out.outcome = release.release(rows, ledger, "rows");
    dpbo::PrivacyNoiseSource run_source = dpbo::PrivacyNoiseSource::from_seed(seed);
    dpbo::PrivacyNoiseSource again = run_source.derive().stream(0);
    out.m = arma::reshape(dpbo::privacy::gaussian_release(arma::vec(rows.n_cols * r, arma::fill::zeros), 1.0, again),
                          rows.n_cols, r);
    return out;
}

double diagnostic(const Released& released, const std::string& name) {
    return dpbo::test::named_value(released.outcome.evaluation_only, name)(0, 0);
}

// Four centred rows with orthogonal columns: singular values 2a and 2b.
arma::mat orthogonal_rows(double a, double b) {
    return arma::mat{{a, b}, {-a, b}, {a, -b}, {-a, -b}} + 7.0;  // +7: centring must remove the offset
}

// ω = 16·√(r·log(2/δ))·ε⁻¹·log(16r/δ) at ε = 3, δ = 1e-5, r = 10, evaluated independently (Python);
// kLiteralOmega the paper's typesetting, 16√r·log(2/δ)·ε⁻¹·log(16r/δ).
constexpr double kOmega = 977.4247437075368;
constexpr double kLiteralOmega = 3414.847425378098;

}  // namespace

TEST_CASE("random-projection: ω and the regime decision against hand-computed values") {
    const auto release = row_release("random-projection", {{"epsilon", "3"}, {"delta", "1e-5"}, {"r", "10"}});
    SUBCASE("σ_min ≥ ω: Z = r^-1/2·X_c·M, not lifted, C′ = 1") {
        const arma::mat rows = orthogonal_rows(2500.0, 1800.0);  // σ = 5000, 3600 ≥ ω
        const Released r = release_seeded(*release, rows, 10, 3);
        CHECK(diagnostic(r, "omega") == doctest::Approx(kOmega).epsilon(1e-12));
        CHECK(diagnostic(r, "sigma_min") == doctest::Approx(3600.0).epsilon(1e-12));
        CHECK(diagnostic(r, "lifted") == 0.0);
        CHECK(diagnostic(r, "c_prime") == 1.0);
        arma::mat centred = rows;
        centred.each_row() -= arma::mean(rows, 0);
        REQUIRE(r.outcome.rows.n_rows == 4);
        REQUIRE(r.outcome.rows.n_cols == 10);
        CHECK(arma::approx_equal(r.outcome.rows, centred * r.m / std::sqrt(10.0), "absdiff", 1e-9));
    }
    SUBCASE("σ_min < ω: every singular value lifted to √(σ² + ω²), C′ = 1 + ω²/σ_min²") {
        const arma::mat rows = orthogonal_rows(50.0, 30.0);  // σ = 100, 60
        const Released r = release_seeded(*release, rows, 10, 4);
        CHECK(diagnostic(r, "lifted") == 1.0);
        CHECK(diagnostic(r, "c_prime") == doctest::Approx(1.0 + kOmega * kOmega / 3600.0).epsilon(1e-12));
        // X̃ = √r·Z·M⁺ (M is d × r of rank d): its singular values are the lifted ones.
        const arma::mat lifted = std::sqrt(10.0) * r.outcome.rows * arma::pinv(r.m);
        const arma::vec sigma = arma::svd(lifted);
        CHECK(sigma(0) == doctest::Approx(std::sqrt(100.0 * 100.0 + kOmega * kOmega)).epsilon(1e-10));
        CHECK(sigma(1) == doctest::Approx(std::sqrt(60.0 * 60.0 + kOmega * kOmega)).epsilon(1e-10));
    }
    SUBCASE("always_lift lifts above ω too, and ω scales with the sensitivity") {
        auto lifting = dpbo::test::make<dpbo::RowRelease>(
            "random-projection", {{"epsilon", "3"}, {"delta", "1e-5"}, {"r", "10"}, {"always_lift", "true"}});
        lifting->calibrate(2.0);
        const Released r = release_seeded(*lifting, orthogonal_rows(25000.0, 18000.0), 10, 5);
        CHECK(diagnostic(r, "lifted") == 1.0);
        CHECK(diagnostic(r, "omega") == doctest::Approx(2.0 * kOmega).epsilon(1e-12));
    }
    SUBCASE("omega = literal reads line 5 as typeset") {
        auto literal = dpbo::test::make<dpbo::RowRelease>(
            "random-projection", {{"epsilon", "3"}, {"delta", "1e-5"}, {"r", "10"}, {"omega", "literal"}});
        literal->calibrate(1.0);
        const Released r = release_seeded(*literal, orthogonal_rows(2500.0, 1800.0), 10, 3);
        CHECK(diagnostic(r, "omega") == doctest::Approx(kLiteralOmega).epsilon(1e-12));
        CHECK(diagnostic(r, "lifted") == 0.0);
    }
    CHECK(release->guarantee().notion == dpbo::PrivacyNotion::NotPrivate);
}

TEST_CASE("random-projection: ω as Blocki et al. state it gives the paper's regime thresholds on its grid") {
    // The synthetic grid of the paper's §4 scaled to norm 25 has σ_min = 1030.88 (both singular values:
    // docs/methods/po-gp-ucb.md). The paper: the largest r with σ_min ≥ ω is 10 at ε = e^1.1, 15 at
    // e^1.3 and 20 at e^1.5, and ε = e^0.9 (r = 10) is lifted.
    const arma::mat grid_like = orthogonal_rows(1030.88 / 2.0, 1030.88 / 2.0);
    const auto lifted = [&](double log_epsilon, int r) {
        auto release = dpbo::test::make<dpbo::RowRelease>(
            "random-projection",
            {{"epsilon", fmt::format("{:.17g}", std::exp(log_epsilon))}, {"delta", "1e-5"}, {"r", std::to_string(r)}});
        release->calibrate(1.0);
        return diagnostic(release_seeded(*release, grid_like, static_cast<std::size_t>(r), 7), "lifted") == 1.0;
    };
    CHECK_FALSE(lifted(1.1, 10));
    CHECK(lifted(1.1, 15));
    CHECK_FALSE(lifted(1.3, 15));
    CHECK(lifted(1.3, 20));
    CHECK_FALSE(lifted(1.5, 20));
    CHECK(lifted(1.5, 30));
    CHECK(lifted(0.9, 10));
}

TEST_CASE("random-projection preserves pairwise distances as Lemma 1 states (statistical, seeded)") {
    // r ≥ 8 log(n²/μ)/ν² gives, with probability ≥ 1 − μ, (1 − ν)‖x − x′‖² ≤ ‖z − z′‖² ≤ (1 + ν)‖x − x′‖² for
    // every pair. n = 20, ν = 0.5, μ = 0.1: r = 266. An ε large enough that σ_min ≥ ω (no lift).
    const std::size_t n = 20;
    const double nu = 0.5;
    const double mu = 0.1;
    const auto r = static_cast<std::size_t>(std::ceil(8.0 * std::log(n * n / mu) / (nu * nu)));
    REQUIRE(r == 266);
    const auto release =
        row_release("random-projection", {{"epsilon", "1e9"}, {"delta", "0.5"}, {"r", std::to_string(r)}});
    dpbo::ExperimentRng rng(11);
    const arma::mat rows = 1000.0 * rng.normal(n, 3);
    constexpr std::size_t kReleases = 200;
    std::size_t failures = 0;
    for (std::size_t k = 0; k < kReleases; ++k) {
        const Released released = release_seeded(*release, rows, r, 100 + k);
        REQUIRE(diagnostic(released, "lifted") == 0.0);
        bool all_kept = true;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) {
                const double before = arma::accu(arma::square(rows.row(i) - rows.row(j)));
                const double after =
                    arma::accu(arma::square(released.outcome.rows.row(i) - released.outcome.rows.row(j)));
                all_kept = all_kept && after >= (1.0 - nu) * before && after <= (1.0 + nu) * before;
            }
        failures += all_kept ? 0 : 1;
    }
    // Failures are Binomial(200, p) with p ≤ μ; the largest count a binomial at p = μ exceeds with
    // probability below 1e-6 is the bound, computed here from the distribution itself.
    double tail = 1.0;  // P(X ≥ k)
    std::size_t bound = 0;
    for (std::size_t k = 0; k <= kReleases; ++k) {
        const double pk =
            std::exp(std::lgamma(kReleases + 1.0) - std::lgamma(k + 1.0) - std::lgamma(kReleases - k + 1.0) +
                     k * std::log(mu) + (kReleases - k) * std::log1p(-mu));
        tail -= pk;  // now P(X > k)
        if (tail < 1e-6) {
            bound = k;
            break;
        }
    }
    CHECK(failures <= bound);
}

TEST_CASE("random-projection is not private: Z lies in span(X), and d + 1 known rows reveal every other row") {
    const auto release = row_release("random-projection", {{"epsilon", "3"}, {"delta", "1e-5"}, {"r", "10"}});
    dpbo::ExperimentRng rng(21);
    const arma::mat rows = 10.0 * rng.uniform(50, 2);  // σ_min far below ω: the lifted regime
    const Released released = release_seeded(*release, rows, 10, 22);
    REQUIRE(diagnostic(released, "lifted") == 1.0);
    const arma::mat& z = released.outcome.rows;
    // Z = (X − 1·x̄ᵀ)·B for a d × r matrix B, so z_i − z_0 = (x_i − x_0)·B: the attacker who knows rows
    // 0..d of X and their images solves for B, then recovers every other row as x_0 + (z_i − z_0)·B⁺.
    arma::mat known_moves = rows.rows(1, 2);
    known_moves.each_row() -= rows.row(0);
    arma::mat image_moves = z.rows(1, 2);
    image_moves.each_row() -= z.row(0);
    const arma::mat b = arma::solve(known_moves, image_moves);
    const arma::mat b_pinv = arma::pinv(b);
    double worst = 0.0;
    for (arma::uword i = 3; i < rows.n_rows; ++i) {
        const arma::rowvec guess = rows.row(0) + (z.row(i) - z.row(0)) * b_pinv;
        worst = std::max(worst, arma::abs(guess - rows.row(i)).max());
    }
    CHECK(worst < 1e-8);

    // The audit's residual feature: ≈ 0 in the world whose rows were released, clearly not in its neighbour's.
    const dpbo::audit::RowWorlds worlds = dpbo::audit::row_worlds(200, 2, 25.0, 1.0, 5);
    CHECK(arma::norm(worlds.second.row(0) - worlds.first.row(0)) == doctest::Approx(1.0).epsilon(1e-12));
    const std::shared_ptr<const dpbo::Accountant> accountant = dpbo::test::make<dpbo::Accountant>("basic");
    dpbo::PrivacyNoiseSource noise_first = dpbo::PrivacyNoiseSource::from_seed(6);
    dpbo::PrivacyNoiseSource noise_second = dpbo::PrivacyNoiseSource::from_seed(7);
    dpbo::audit::RunLedgers first(accountant, noise_first, "test", "one row moved by 1", "one row");
    dpbo::audit::RunLedgers second(accountant, noise_second, "test", "one row moved by 1", "one row");
    const auto samples = dpbo::audit::sample_row_release(*release, worlds, 50, first, second);
    CHECK(samples.first.col(0).max() < 1e-12);   // D's release, residual outside span(D)
    CHECK(samples.second.col(0).min() > 1e-6);   // D′'s release, residual outside span(D)
    CHECK(samples.second.col(1).max() < 1e-12);  // D′'s release, residual outside span(D′)
}

TEST_CASE("noisy-projection adds analytic-Gaussian noise to the centred rows (statistical, seeded)") {
    const auto release = row_release("noisy-projection", {{"epsilon", "2"}, {"delta", "1e-5"}, {"r", "0"}});
    CHECK(release->guarantee().notion == dpbo::PrivacyNotion::ApproxDP);
    const double sigma = dpbo::analytic_gaussian_sigma(2.0, 1e-5, 1.0, "test");
    dpbo::ExperimentRng rng(31);
    const arma::mat rows = 25.0 * rng.uniform(1000, 2);
    const Released released = release_seeded(*release, rows, 0, 32);
    arma::mat centred = rows;
    centred.each_row() -= arma::mean(rows, 0);
    const arma::vec noise = arma::vectorise(released.outcome.rows - centred);
    const double count = static_cast<double>(noise.n_elem);
    // Mean: N(0, σ²/N); variance: relative standard error √(2/N). Five standard errors each.
    CHECK(std::abs(arma::mean(noise)) < 5.0 * sigma / std::sqrt(count));
    CHECK(std::abs(arma::var(noise) / (sigma * sigma) - 1.0) < 5.0 * std::sqrt(2.0 / count));
    const auto projected = row_release("noisy-projection", {{"epsilon", "2"}, {"delta", "1e-5"}, {"r", "6"}});
    CHECK(projected->released_columns(2) == 6);
    CHECK(release->released_columns(2) == 2);
}

TEST_CASE("a row release refuses what it cannot release") {
    const auto release = row_release("noisy-projection", {});
    auto accountant = dpbo::test::make<dpbo::Accountant>("basic");
    dpbo::PrivacyNoiseSource noise = dpbo::PrivacyNoiseSource::from_seed(1);
    dpbo::PrivacyLedger ledger(accountant, std::nullopt, noise, "test");
    ledger.set_scope("one row moved by 1", "one row");
    arma::mat rows(3, 2, arma::fill::ones);
    rows(1, 1) = arma::datum::nan;
    CHECK_THROWS_AS(release->release(rows, ledger, "rows"), dpbo::ValidationError);
    CHECK(ledger.charges() == 0);
    auto uncalibrated = dpbo::test::make<dpbo::RowRelease>("noisy-projection", {});
    CHECK_THROWS_AS(uncalibrated->calibrate(0.0), dpbo::ValidationError);
    CHECK_THROWS_AS(uncalibrated->event(), dpbo::RunError);
}
