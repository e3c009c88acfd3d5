// The selection among repeated trials as an event (its text, checks and (ε, δ) theorems), the one
// event-text parser, and event coverage (event_dominated_by).
#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/event_kind.hpp"
#include "dpbo/privacy_event.hpp"

namespace {

using dpbo::parse_builtin_event;
using dpbo::PrivacyEvent;

const char* kSelection =
    "repeat-and-select:trial=(subsampled-gaussian:q=0.01,sigma=1.1,steps=10000,sampling=poisson;"
    "laplace:scale=10,sensitivity=1x2),count=geometric:mean=10";

}  // namespace

TEST_CASE("event text: every built-in kind round-trips through event_text and parse_builtin_event") {
    for (const char* text :
         {"gaussian:sigma=2,sensitivity=1x3", "gdp:mu=0.5", "laplace:scale=2,sensitivity=1",
          "exponential:epsilon=0.25,quality_sensitivity=1", "pure:epsilon=0.1", "approx:epsilon=0.2,delta=1e-06",
          "subsampled-gaussian:q=0.01,sigma=1.1,steps=100,sampling=fixed-size-without-replacement", kSelection,
          "repeat-and-select:trial=(pure:epsilon=0.5),count=(negative-binomial:mean=10,eta=0.5),release=best",
          "repeat-and-select:trial=(pure:epsilon=0.5),count=geometric:mean=5,release=first-above-threshold"}) {
        CAPTURE(text);
        const PrivacyEvent event = parse_builtin_event(text);
        const std::string canonical = dpbo::event_text(event);
        CAPTURE(canonical);
        const PrivacyEvent again = parse_builtin_event(canonical);
        CHECK(dpbo::event_text(again) == canonical);
        CHECK(again.describe() == event.describe());
        CHECK(again.repetitions == event.repetitions);
    }
    // 'x' inside a value ("fixed-size-...") is not a repetition count.
    CHECK(parse_builtin_event("subsampled-gaussian:q=0.1,sigma=1,steps=3,sampling=fixed-size-without-replacement")
              .repetitions == 1);
    CHECK(parse_builtin_event("gaussian:sigma=2,sensitivity=1x7").repetitions == 7);
}

TEST_CASE("event text: the parser names the text, the kind, the key and the value it refuses") {
    CHECK_THROWS_WITH_AS(parse_builtin_event("renyi:alpha=2"), doctest::Contains("unknown kind 'renyi'"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(parse_builtin_event("gaussian:sigma=1,sensitivity=1,rate=0.1"),
                         doctest::Contains("kind 'gaussian' has no key 'rate'"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(parse_builtin_event("gaussian:sigma=1,sensitivity=1x0"),
                         doctest::Contains("repetitions '0' is not a whole number >= 1"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(parse_builtin_event("repeat-and-select:trial=(pure:epsilon=1,count=geometric:mean=2"),
                         doctest::Contains("a '(' is never closed"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(parse_builtin_event("repeat-and-select:trial=(pure:epsilon=1),count=geo:mean=2"),
                         doctest::Contains("unknown distribution 'geo'"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(parse_builtin_event("repeat-and-select:trial=(pure:epsilon=1;),count=geometric:mean=2"),
                         doctest::Contains("empty event"), dpbo::ValidationError);
    // Thresholded stopping needs a geometric K and pure trials.
    CHECK_THROWS_WITH_AS(parse_builtin_event("repeat-and-select:trial=(pure:epsilon=1),count=poisson:mean=2,"
                                             "release=first-above-threshold"),
                         doctest::Contains("'count' = poisson:mean=2; allowed: geometric"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(parse_builtin_event("repeat-and-select:trial=(gaussian:sigma=1,sensitivity=1),"
                                             "count=geometric:mean=2,release=first-above-threshold"),
                         doctest::Contains("pure ε-DP"), dpbo::ValidationError);
    CHECK(dpbo::find_builtin_event_kind("repeat-and-select") != nullptr);
}

TEST_CASE("repeat-and-select: the (epsilon, delta) statements are the theorems, and nothing else") {
    const auto dp = [](const char* text) { return parse_builtin_event(text).description().approximate_dp(); };
    // Fixed k: basic composition of k trials.
    const auto fixed = dp("repeat-and-select:trial=(approx:epsilon=0.5,delta=1e-6),count=fixed:k=4");
    REQUIRE(fixed);
    CHECK(fixed->epsilon == doctest::Approx(2.0));
    CHECK(fixed->delta == doctest::Approx(4e-6));
    // Thresholded (Liu & Talwar Thm 3.1): 2ε; best of a geometric K (Thm 3.4): 3ε; TNB (P&S Cor. 3): (2+η)ε.
    const auto threshold =
        dp("repeat-and-select:trial=(pure:epsilon=0.5),count=geometric:mean=9,release=first-above-threshold");
    REQUIRE(threshold);
    CHECK(threshold->epsilon == doctest::Approx(1.0));
    const auto best =
        dp("repeat-and-select:trial=(pure:epsilon=0.5;laplace:scale=4,sensitivity=1),"
           "count=geometric:mean=9");
    REQUIRE(best);
    CHECK(best->epsilon == doctest::Approx(3 * 0.75));
    CHECK(best->epsilon >= 3 * 0.75);  // rounded up, never below
    const auto logarithmic = dp("repeat-and-select:trial=(pure:epsilon=0.5),count=logarithmic:mean=9");
    REQUIRE(logarithmic);
    CHECK(logarithmic->epsilon == doctest::Approx(1.0));
    // No pure theorem for a Poisson K, nor for approximate-DP trials under a random K.
    CHECK_FALSE(dp("repeat-and-select:trial=(pure:epsilon=0.5),count=poisson:mean=9"));
    CHECK_FALSE(dp("repeat-and-select:trial=(approx:epsilon=0.5,delta=1e-9),count=geometric:mean=9"));
    CHECK_FALSE(dp(kSelection));
}

TEST_CASE("event coverage: same kind, each parameter equal or on its cheaper side") {
    const auto e = [](const char* text) { return parse_builtin_event(text); };
    const PrivacyEvent bound = e("subsampled-gaussian:q=0.01,sigma=1.1,steps=10000,sampling=poisson");
    CHECK(dpbo::event_dominated_by(e("subsampled-gaussian:q=0.01,sigma=1.1,steps=10000,sampling=poisson"), bound));
    CHECK(dpbo::event_dominated_by(e("subsampled-gaussian:q=0.005,sigma=2,steps=5000,sampling=poisson"), bound));
    CHECK_FALSE(dpbo::event_dominated_by(e("subsampled-gaussian:q=0.02,sigma=2,steps=5000,sampling=poisson"), bound));
    CHECK_FALSE(dpbo::event_dominated_by(e("subsampled-gaussian:q=0.01,sigma=1,steps=10000,sampling=poisson"), bound));
    CHECK_FALSE(
        dpbo::event_dominated_by(e("subsampled-gaussian:q=0.01,sigma=1.1,steps=10001,sampling=poisson"), bound));
    CHECK_FALSE(dpbo::event_dominated_by(
        e("subsampled-gaussian:q=0.01,sigma=1.1,steps=100,sampling=fixed-size-without-replacement"), bound));
    CHECK_FALSE(dpbo::event_dominated_by(e("gaussian:sigma=1,sensitivity=1"), bound));
    CHECK(dpbo::event_dominated_by(e("laplace:scale=2,sensitivity=1x2"), e("laplace:scale=1,sensitivity=1x3")));
    CHECK_FALSE(dpbo::event_dominated_by(e("laplace:scale=2,sensitivity=1x4"), e("laplace:scale=1,sensitivity=1x3")));
    CHECK(dpbo::event_dominated_by(e("approx:epsilon=0.1,delta=0"), e("approx:epsilon=0.2,delta=1e-6")));
    CHECK_FALSE(dpbo::event_dominated_by(e("exponential:epsilon=0.1,quality_sensitivity=2"),
                                         e("exponential:epsilon=0.2,quality_sensitivity=1")));
    CHECK(dpbo::events_dominated_by({e("pure:epsilon=0.1"), e("gdp:mu=0.5")}, {e("pure:epsilon=0.1"), e("gdp:mu=1")}));
    CHECK_FALSE(
        dpbo::events_dominated_by({e("gdp:mu=0.5"), e("pure:epsilon=0.1")}, {e("pure:epsilon=0.1"), e("gdp:mu=1")}));
    CHECK_FALSE(dpbo::events_dominated_by({e("pure:epsilon=0.1")}, {e("pure:epsilon=0.1"), e("gdp:mu=1")}));
}
