#include "validation_gain.hpp"

#include <algorithm>
#include <cmath>

namespace dpbo::logreg_validation {

Gain gain_from_name(const std::string& name) {
    if (name == "ramp") return Gain::Ramp;
    if (name == "sigmoid") return Gain::Sigmoid;
    return Gain::Accuracy;  // the schema admits only these three names
}

arma::vec record_gains(Gain gain, const arma::vec& margins) {
    arma::vec out(margins.n_elem);
    for (arma::uword i = 0; i < margins.n_elem; ++i) {
        const double z = margins[i];
        switch (gain) {
            case Gain::Accuracy:
                out[i] = z > 0.0 ? 1.0 : 0.0;
                break;
            case Gain::Ramp:
                out[i] = -std::clamp(1.0 - z, 0.0, 1.0);
                break;
            // 1/(1 + e^z) written so that neither branch overflows.
            case Gain::Sigmoid:
                out[i] = z >= 0.0 ? -std::exp(-z) / (1.0 + std::exp(-z)) : -1.0 / (1.0 + std::exp(z));
                break;
        }
    }
    return out;
}

std::optional<double> lipschitz_constant(Gain gain) {
    switch (gain) {
        case Gain::Ramp:
            return 1.0;
        case Gain::Sigmoid:
            return 0.25;
        case Gain::Accuracy:
            break;
    }
    return std::nullopt;
}

double gain_bound(Gain) { return 1.0; }

}  // namespace dpbo::logreg_validation
