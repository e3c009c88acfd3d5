#pragma once
// The ρ-zCDP event (Bun & Steinke 2016, Def. 1.1): a release M is ρ-zCDP when for neighbouring
// datasets D_α(M(x) ‖ M(x')) ≤ ρα at every order α > 1 — an RDP curve that is a line through the
// origin. The three plugins of this example compile this class each: the mechanism builds the events,
// the event module builds them from text, and the accountant reads them by kind name and parameter
// ("zcdp", "rho"), never by type, since each plugin's copy of the class is a type of its own.
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <dpbo/parameters.hpp>
#include <dpbo/privacy_event.hpp>

namespace zcdp {

class ZcdpEvent final : public dpbo::EventDescription {
public:
    static constexpr std::string_view kind_name = "zcdp";

    // What `dpbo account --event zcdp:rho=0.1` reads and `dpbo info zcdp` shows.
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("rho", {.lower = 0.0,
                            .lower_inclusive = false,
                            .required = true,
                            .doc = "ρ of the ρ-zCDP guarantee of one release"});
        return schema;
    }

    explicit ZcdpEvent(double rho) : rho_(rho) {}
    explicit ZcdpEvent(const dpbo::ParameterSet& parameters) : rho_(parameters.real("rho")) {}

    std::string_view kind() const override { return kind_name; }
    // Events built in code do not pass through the schema: the check that matters is here.
    void validate() const override { dpbo::EventParameterCheck(kind_name).positive("rho", rho_); }
    std::string parameter_text() const override { return "rho = " + dpbo::event_number(rho_); }
    std::map<std::string, dpbo::ParameterValue> parameters() const override { return {{"rho", rho_}}; }

    // ρα, rounded up: any accountant composing RDP curves (the shipped rdp one) composes zCDP
    // events through this view without knowing the kind. No μ-GDP or single (ε, δ) view: zCDP
    // implies neither exactly.
    std::optional<double> rdp_epsilon(double alpha) const override {
        return std::nextafter(rho_ * alpha, std::numeric_limits<double>::infinity());
    }

    double rho() const { return rho_; }

private:
    double rho_;
};

}  // namespace zcdp
