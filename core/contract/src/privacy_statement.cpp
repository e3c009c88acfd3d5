#include "dpbo/privacy_statement.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

std::string to_string(PrivacyNotion notion) {
    switch (notion) {
        case PrivacyNotion::NotPrivate:
            return "not private";
        case PrivacyNotion::PureDP:
            return "epsilon-DP";
        case PrivacyNotion::ApproxDP:
            return "(epsilon, delta)-DP";
        case PrivacyNotion::GaussianDP:
            return "mu-GDP";
        case PrivacyNotion::Renyi:
            return "Renyi DP";
    }
    return "unknown";
}

PrivacyStatement PrivacyStatement::not_private(std::vector<std::string> released, std::string why) {
    PrivacyStatement s;
    s.notion = PrivacyNotion::NotPrivate;
    s.released = std::move(released);
    s.mechanism = std::move(why);
    return s;
}

PrivacyStatement PrivacyStatement::gaussian_dp(double mu) {
    PrivacyStatement s;
    s.notion = PrivacyNotion::GaussianDP;
    s.mu = mu;
    return s;
}

PrivacyStatement PrivacyStatement::pure_dp(double epsilon) {
    PrivacyStatement s;
    s.notion = PrivacyNotion::PureDP;
    s.epsilon = epsilon;
    return s;
}

PrivacyStatement PrivacyStatement::approx_dp(double epsilon, double delta) {
    PrivacyStatement s;
    s.notion = PrivacyNotion::ApproxDP;
    s.epsilon = epsilon;
    s.delta = delta;
    return s;
}

void PrivacyStatement::validate() const {
    const auto refuse = [&](const std::string& why) {
        return ValidationError(fmt::format("privacy statement ({}): {}", to_string(notion), why));
    };
    const auto positive = [](double v) { return std::isfinite(v) && v > 0.0; };
    switch (notion) {
        case PrivacyNotion::NotPrivate:
            if (released.empty()) throw refuse("must list what is released");
            return;
        case PrivacyNotion::PureDP:
            if (!positive(epsilon)) throw refuse(fmt::format("epsilon = {} must be finite and > 0", epsilon));
            break;
        case PrivacyNotion::ApproxDP:
            if (!positive(epsilon)) throw refuse(fmt::format("epsilon = {} must be finite and > 0", epsilon));
            if (!(delta > 0.0 && delta < 1.0)) throw refuse(fmt::format("delta = {} must lie in (0, 1)", delta));
            break;
        case PrivacyNotion::GaussianDP:
            if (!positive(mu)) throw refuse(fmt::format("mu = {} must be finite and > 0", mu));
            break;
        case PrivacyNotion::Renyi:
            if (rdp_curve.empty()) throw refuse("an RDP statement needs its curve (order, epsilon)");
            for (const auto& [order, eps] : rdp_curve)
                if (!(order > 1.0) || !(eps >= 0.0))
                    throw refuse(fmt::format("RDP point (order {}, epsilon {}) is invalid", order, eps));
            break;
    }
    for (const auto& [eps, del] : equivalent_epsilon_delta)
        if (!(eps >= 0.0) || !(del > 0.0 && del < 1.0))
            throw refuse(fmt::format("equivalent (epsilon, delta) = ({}, {}) is invalid", eps, del));
    if (neighbouring.empty()) throw refuse("must state the neighbouring relation");
    if (protected_unit.empty()) throw refuse("must state the unit protected");
    if (released.empty()) throw refuse("must list what is released");
}

std::string PrivacyStatement::headline() const {
    if (notion != PrivacyNotion::NotPrivate && !conditional_on.empty()) {
        PrivacyStatement unconditional = *this;
        unconditional.conditional_on.clear();
        return fmt::format("{} conditional on {}", unconditional.headline(), conditional_on);
    }
    switch (notion) {
        case PrivacyNotion::NotPrivate:
            return "not private";
        case PrivacyNotion::PureDP:
            return fmt::format("{:g}-DP", epsilon);
        case PrivacyNotion::ApproxDP:
            return fmt::format("({:g}, {:g})-DP", epsilon, delta);
        case PrivacyNotion::GaussianDP:
            return fmt::format("{:g}-GDP", mu);
        case PrivacyNotion::Renyi:
            return fmt::format("RDP curve with {} orders", rdp_curve.size());
    }
    return "unknown";
}

std::string PrivacyStatement::describe() const {
    std::string out = fmt::format("privacy: {}\n", headline());
    for (const auto& [eps, del] : equivalent_epsilon_delta)
        out += fmt::format("  equivalent to ({:.6g}, {:g})-DP\n", eps, del);
    if (notion == PrivacyNotion::NotPrivate) {
        if (!mechanism.empty()) out += fmt::format("  why: {}\n", mechanism);
    } else {
        out += fmt::format("  protects: {} (neighbouring: {})\n", protected_unit, neighbouring);
        if (!mechanism.empty()) out += fmt::format("  mechanism: {}\n", mechanism);
    }
    for (const auto& r : released) out += fmt::format("  released: {}\n", r);
    for (const auto& a : assumptions) out += fmt::format("  assumes: {}\n", a);
    for (const auto& n : not_protected) out += fmt::format("  does not protect: {}\n", n);
    return out;
}

}  // namespace dpbo
