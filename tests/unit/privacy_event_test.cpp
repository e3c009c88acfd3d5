// The open event API: the views each built-in kind offers, its text and parameters (which rebuild
// it), and how accountants treat a kind they have never heard of — composed through a view they use,
// or refused by name, saying what they need and what the event offers.
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/event_kind.hpp"
#include "dpbo/privacy_event.hpp"
#include "test_support.hpp"

namespace {

using dpbo::EventView;
using dpbo::PrivacyEvent;

// A kind no accountant knows, as a plugin would add it: ρ-zCDP, offering its RDP curve ρα only.
class LineEvent final : public dpbo::EventDescription {
public:
    explicit LineEvent(double rho) : rho_(rho) {}
    std::string_view kind() const override { return "line-rdp"; }
    void validate() const override { dpbo::EventParameterCheck(kind()).positive("rho", rho_); }
    std::string parameter_text() const override { return "rho = " + dpbo::event_number(rho_); }
    std::map<std::string, dpbo::ParameterValue> parameters() const override { return {{"rho", rho_}}; }
    std::optional<double> rdp_epsilon(double alpha) const override { return rho_ * alpha; }

private:
    double rho_;
};

// A kind that offers no view at all.
class OpaqueEvent final : public dpbo::EventDescription {
public:
    std::string_view kind() const override { return "opaque"; }
    void validate() const override {}
    std::string parameter_text() const override { return "nothing"; }
    std::map<std::string, dpbo::ParameterValue> parameters() const override { return {{"mode", std::string("x")}}; }
};

std::shared_ptr<dpbo::Accountant> accountant(const std::string& name) {
    return dpbo::test::make<dpbo::Accountant>(name);
}

std::string refusal_of(dpbo::Accountant& accountant, const PrivacyEvent& event) {
    try {
        accountant.compose(event);
    } catch (const dpbo::ValidationError& e) {
        return e.what();
    }
    return "(composed)";
}

}  // namespace

TEST_CASE("privacy events: each built-in kind offers the views its guarantee can be stated in") {
    const dpbo::GaussianEvent gaussian{2.0, 1.0};
    CHECK(gaussian.gdp_mu() == 0.5);
    CHECK(*gaussian.rdp_epsilon(4.0) == doctest::Approx(4.0 * 0.25 / 2.0).epsilon(1e-15));
    CHECK(*gaussian.rdp_epsilon(4.0) >= 4.0 * 0.25 / 2.0);  // rounded up, never below
    CHECK(gaussian.views() == std::vector<EventView>{EventView::GaussianDp, EventView::Renyi});
    CHECK(dpbo::GdpEvent{0.5}.views() == std::vector<EventView>{EventView::GaussianDp, EventView::Renyi});

    const dpbo::LaplaceEvent laplace{2.0, 1.0};
    CHECK(laplace.approximate_dp()->epsilon == 0.5);
    CHECK(laplace.approximate_dp()->delta == 0.0);
    // Mironov 2017, Prop. 6 at α = 2, Δ/b = 1/2.
    const double r = 0.5, a = 2.0;
    const double mironov =
        std::log(a / (2 * a - 1) * std::exp((a - 1) * r) + (a - 1) / (2 * a - 1) * std::exp(-a * r)) / (a - 1);
    CHECK(*laplace.rdp_epsilon(2.0) == doctest::Approx(mironov).epsilon(1e-14));
    CHECK(*laplace.rdp_epsilon(2.0) >= mironov * (1 - 1e-15));
    CHECK(laplace.views() == std::vector<EventView>{EventView::ApproximateDp, EventView::Renyi});

    CHECK(dpbo::ExponentialEvent{0.3, 1.0}.views() == std::vector<EventView>{EventView::ApproximateDp});
    CHECK(dpbo::PureDpEvent{0.3}.approximate_dp()->epsilon == 0.3);
    CHECK(dpbo::ApproxDpEvent{0.3, 1e-6}.approximate_dp()->delta == 1e-6);
    // No generic view: only the rdp accountant's own numerics compose it, by kind.
    CHECK(dpbo::SubsampledGaussianEvent{0.1, 1.0, 10}.views().empty());
    CHECK_THROWS_WITH_AS(gaussian.rdp_epsilon(1.0), doctest::Contains("alpha = 1"), dpbo::ValidationError);
}

TEST_CASE("privacy events: the text, the parameters and the kind come from the event, and rebuild it") {
    // The texts every journal recorded before events were open: replay compares them as text.
    using S = dpbo::SubsampledGaussianEvent;
    const std::vector<std::pair<PrivacyEvent, std::string>> texts = {
        {{dpbo::GaussianEvent{2.0, 1.0}, 3, "gradient at step 3"},
         "gaussian (sigma = 2, L2 sensitivity = 1) x 3: gradient at step 3"},
        {{dpbo::GdpEvent{0.1}}, "gdp (mu = 0.1)"},
        {{dpbo::LaplaceEvent{2.0, 0.5}}, "laplace (scale b = 2, L1 sensitivity = 0.5)"},
        {{dpbo::ExponentialEvent{0.25, 1.0}, 2}, "exponential (epsilon = 0.25, quality sensitivity = 1) x 2"},
        {{S{0.01, 4.0, 100000, S::Sampling::FixedSizeWithoutReplacement, S::Neighbouring::ReplaceOne}},
         "subsampled-gaussian (sampling rate q = 0.01, noise multiplier = 4, steps = 100000, "
         "fixed-size-without-replacement sampling, replace-one)"},
        {{dpbo::PureDpEvent{1e-5}}, "pure (epsilon = 1e-05)"},
        {{dpbo::ApproxDpEvent{0.0, 1e-6}, 1, "failure"}, "approx (epsilon = 0, delta = 1e-06): failure"},
        {{LineEvent{0.125}, 4}, "line-rdp (rho = 0.125) x 4"},
    };
    for (const auto& [event, text] : texts) {
        CAPTURE(text);
        CHECK(event.describe() == text);
        CHECK_NOTHROW(event.validate());
    }
    // Every built-in kind is rebuilt from its parameters by its own builder, to the same event.
    for (const auto& [event, text] : texts) {
        const dpbo::EventKindEntry* entry = dpbo::find_builtin_event_kind(event.kind());
        if (entry == nullptr) continue;  // the test's own kind
        CAPTURE(text);
        const dpbo::ParameterSet parameters("test", event.description().parameters(), {});
        const PrivacyEvent rebuilt(entry->build(parameters), event.repetitions, event.what);
        CHECK(rebuilt.describe() == text);
    }
    CHECK(texts[1].first.as<dpbo::GdpEvent>()->mu == 0.1);
    CHECK(texts[1].first.as<dpbo::GaussianEvent>() == nullptr);
    CHECK(texts[4].first.description().number("steps") == 100000.0);
    CHECK_THROWS_WITH_AS(texts[4].first.description().number("sampling"),
                         doctest::Contains("privacy event 'subsampled-gaussian': no numeric parameter 'sampling'"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(PrivacyEvent(std::shared_ptr<const dpbo::EventDescription>{}), doctest::Contains("null"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(PrivacyEvent{LineEvent{-1.0}}.validate(),
                         "privacy event 'line-rdp': 'rho' = -1; allowed: a finite number > 0", dpbo::ValidationError);
}

TEST_CASE("privacy events: the built-in kinds' table, in the order messages list them") {
    std::vector<std::string> names;
    for (const auto& kind : dpbo::builtin_event_kinds()) names.push_back(kind.name);
    CHECK(names == std::vector<std::string>{"gaussian", "gdp", "laplace", "exponential", "subsampled-gaussian", "pure",
                                            "approx", "repeat-and-select"});
    const auto* subsampled = dpbo::find_builtin_event_kind("subsampled-gaussian");
    REQUIRE(subsampled != nullptr);
    // The aliases and the neighbouring default by sampling, from parameters as a user gives them.
    const auto built = subsampled->build(dpbo::validate_parameters(
        subsampled->schema, {{"q", "0.01"}, {"sigma", "4"}, {"steps", "10"}, {"sampling", "without-replacement"}},
        "t"));
    CHECK(PrivacyEvent(built).describe() ==
          "subsampled-gaussian (sampling rate q = 0.01, noise multiplier = 4, steps = 10, "
          "fixed-size-without-replacement sampling, replace-one)");
    CHECK_THROWS_WITH_AS(
        subsampled->build(dpbo::validate_parameters(
            subsampled->schema,
            {{"q", "0.01"}, {"sampling_rate", "0.01"}, {"sigma", "4"}, {"steps", "10"}, {"sampling", "poisson"}}, "t")),
        doctest::Contains("keys 'sampling_rate' and 'q' name the same value"), dpbo::ValidationError);
    // A required choice without a fallback.
    CHECK_THROWS_WITH_AS(
        dpbo::validate_parameters(subsampled->schema, {{"q", "0.1"}, {"sigma", "1"}, {"steps", "1"}}, "t"),
        doctest::Contains("required parameter 'sampling' is missing"), dpbo::ValidationError);
    CHECK(dpbo::find_builtin_event_kind("zcdp") == nullptr);
}

TEST_CASE("accountants: an unknown kind is composed through a view the accountant uses") {
    // ρα is the Gaussian's curve αμ²/2 at ρ = μ²/2: the rdp accountant composes both to the same ε.
    auto through_view = accountant("rdp");
    CHECK(through_view->accepts(PrivacyEvent{LineEvent{0.125}}));
    through_view->compose({LineEvent{0.125}, 4});
    auto by_kind = accountant("rdp");
    by_kind->compose({dpbo::GdpEvent{0.5}, 4});
    CHECK(through_view->epsilon_for_delta(1e-5) == doctest::Approx(by_kind->epsilon_for_delta(1e-5)).epsilon(1e-12));
    CHECK(through_view->epsilon_for_delta(1e-5) >= by_kind->epsilon_for_delta(1e-5) * (1 - 1e-12));
}

TEST_CASE("accountants: an event they cannot compose is refused by its kind's name, with what they need") {
    auto gdp = accountant("gdp");
    const std::string line = refusal_of(*gdp, {LineEvent{0.1}, 1, "a plugin's release"});
    CHECK(line ==
          "accountant 'gdp': cannot account a 'line-rdp' event (a plugin's release): it composes any event offering a "
          "μ-GDP parameter (gdp_mu), and 'line-rdp' offers only an RDP curve (rdp_epsilon); it accepts: gaussian, gdp");
    CHECK(gdp->refusal(PrivacyEvent{LineEvent{0.1}}).find("cannot account a 'line-rdp' event") == 0);
    CHECK(gdp->refusal(PrivacyEvent{dpbo::GdpEvent{1.0}}).empty());

    auto basic = accountant("basic");
    CHECK(
        refusal_of(*basic, PrivacyEvent{LineEvent{0.1}}) ==
        "accountant 'basic': cannot account a 'line-rdp' event: it composes any event offering an (ε, δ)-DP statement "
        "(approximate_dp), and 'line-rdp' offers only an RDP curve (rdp_epsilon); it accepts: laplace, exponential, "
        "pure, approx, repeat-and-select");
    auto rdp = accountant("rdp");
    CHECK(
        refusal_of(*rdp, PrivacyEvent{OpaqueEvent{}}) ==
        "accountant 'rdp': cannot account a 'opaque' event: it composes any event offering an RDP curve (rdp_epsilon), "
        "and 'opaque' offers none of the views; it accepts: gaussian, gdp, laplace, subsampled-gaussian, "
        "repeat-and-select");
    // The built-in accountants' lists, read by `dpbo account` and the refusals.
    CHECK(rdp->accepted_kind_names() ==
          std::vector<std::string>{"gaussian", "gdp", "laplace", "subsampled-gaussian", "repeat-and-select"});
    CHECK(basic->accepted_kind_names() ==
          std::vector<std::string>{"laplace", "exponential", "pure", "approx", "repeat-and-select"});
    // A refused event leaves nothing behind.
    CHECK_THROWS_AS(gdp->total(), dpbo::RunError);
    CHECK_THROWS_AS(rdp->total(), dpbo::RunError);
}
