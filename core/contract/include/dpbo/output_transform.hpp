#pragma once
// Monotone increasing transforms of an objective's outputs before a surrogate models them:
// DPareto's GPs model log ε and logit(error) (Avent et al. 2020, §3.2), whose ranges are all of ℝ where ε > 0 and
// the error in (0, 1) are not. Inline, so a plugin needs nothing beyond the header.
#include <cmath>
#include <string_view>

namespace dpbo {

enum class OutputTransform { Identity, Log, Logit };

inline std::string_view to_string(OutputTransform transform) {
    switch (transform) {
        case OutputTransform::Log:
            return "log";
        case OutputTransform::Logit:
            return "logit";
        case OutputTransform::Identity:
            break;
    }
    return "identity";
}

// t(y); the caller keeps y in the transform's domain (y > 0 for log, 0 < y < 1 for logit).
inline double to_model_scale(OutputTransform transform, double value) {
    switch (transform) {
        case OutputTransform::Log:
            return std::log(value);
        case OutputTransform::Logit:
            return std::log(value) - std::log1p(-value);
        case OutputTransform::Identity:
            break;
    }
    return value;
}

// t⁻¹(v): exp, or the logistic function (written so that neither branch overflows).
inline double from_model_scale(OutputTransform transform, double value) {
    switch (transform) {
        case OutputTransform::Log:
            return std::exp(value);
        case OutputTransform::Logit:
            return value >= 0.0 ? 1.0 / (1.0 + std::exp(-value)) : std::exp(value) / (1.0 + std::exp(value));
        case OutputTransform::Identity:
            break;
    }
    return value;
}

}  // namespace dpbo
