#pragma once
// Privacy mechanisms. A mechanism is built from its privacy parameters, then calibrated to the
// sensitivity of the query it will answer, and only then releases values — the order Google's
// library enforces: build, validate, use.
#include <string>

#include <armadillo>

#include "dpbo/module.hpp"
#include "dpbo/privacy_statement.hpp"

namespace dpbo {

class PrivacyNoiseSource;

enum class SensitivityNorm { L1, L2 };
std::string_view to_string(SensitivityNorm norm);

class Mechanism : public Module {
public:
    ~Mechanism() override;
    static constexpr ModuleKind static_kind = ModuleKind::Mechanism;
    ModuleKind kind() const final { return static_kind; }

    // The norm in which the caller must state the query's sensitivity.
    virtual SensitivityNorm sensitivity_norm() const = 0;
    // Fixes the noise for a query whose sensitivity (in sensitivity_norm()) is `sensitivity`.
    // Throws ValidationError for a non-positive or non-finite sensitivity.
    virtual void calibrate(double sensitivity) = 0;
    virtual bool calibrated() const = 0;
    // Standard deviation (Gaussian) or scale b (Laplace) of the per-coordinate noise.
    virtual double noise_scale() const = 0;
    // value + noise; throws RunError if calibrate() was not called.
    virtual arma::vec release(const arma::vec& value, PrivacyNoiseSource& noise) const = 0;
    // The guarantee of one release (notion and parameters; the caller adds unit and released).
    virtual PrivacyStatement guarantee() const = 0;
};

}  // namespace dpbo
