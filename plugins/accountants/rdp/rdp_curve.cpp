#include "rdp_curve.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "rdp_mechanisms.hpp"
#include "selection_curve.hpp"
#include "subsampled_gaussian.hpp"

namespace dpbo::rdp {

namespace {
double up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }
}  // namespace

void RdpCurve::add(const PrivacyEvent& event, const std::string& owner) {
    note_sampling(event, owner);
    std::shared_ptr<const SelectionCurve> selection;
    if (const auto* s = event.as<RepeatAndSelectEvent>()) {
        selection = std::make_shared<const SelectionCurve>(*s, owner, conversion_);
        if (!selection->real_orders()) real_orders_ = false;
    }
    events_.push_back(event);
    selections_.push_back(std::move(selection));
    releases_ += event.repetitions;
    remembered_ = std::make_shared<Remembered>();
}

void RdpCurve::note_sampling(const PrivacyEvent& event, const std::string& owner) {
    if (const auto* s = event.as<RepeatAndSelectEvent>()) {
        for (const PrivacyEvent& inner : s->trial) note_sampling(inner, owner);
        return;
    }
    if (const auto* sub = event.as<SubsampledGaussianEvent>()) {
        using S = SubsampledGaussianEvent;
        const bool poisson = sub->sampling == S::Sampling::Poisson;
        // Mironov, Talwar & Zhang 2019 prove the Poisson bound for add/remove-one neighbours; Wang,
        // Balle & Kasiviswanathan 2019, Thm. 9 and 27 the without-replacement bounds for replace-one.
        const S::Neighbouring proved = poisson ? S::Neighbouring::AddRemoveOne : S::Neighbouring::ReplaceOne;
        if (sub->neighbouring != proved) {
            throw ValidationError(fmt::format(
                "{}: event 'subsampled-gaussian' with sampling = {} and neighbouring = {} is refused: the {} bound "
                "is proved for neighbouring = {} only ({})",
                owner, to_string(sub->sampling), to_string(sub->neighbouring),
                poisson ? "Poisson" : "without-replacement", to_string(proved),
                poisson ? "Mironov, Talwar & Zhang 2019" : "Wang, Balle & Kasiviswanathan 2019, Thm. 9 and 27"));
        }
        if ((poisson && without_replacement_) || (!poisson && poisson_)) {
            throw ValidationError(fmt::format(
                "{}: event 'subsampled-gaussian' with sampling = {} is refused: the composition already holds a "
                "subsampled event under the other neighbouring relation (add-remove-one for poisson, replace-one "
                "for fixed-size-without-replacement), and the two guarantees do not add",
                owner, to_string(sub->sampling)));
        }
        (poisson ? poisson_ : without_replacement_) = true;
    }
}

double RdpCurve::at(double alpha) const {
    const std::shared_ptr<Remembered> remembered = remembered_;
    {
        const std::lock_guard<std::mutex> lock(remembered->mutex);
        const auto it = remembered->values.find(alpha);
        if (it != remembered->values.end()) return it->second;
    }
    const double total = compute_at(alpha);
    const std::lock_guard<std::mutex> lock(remembered->mutex);
    remembered->values.emplace(alpha, total);
    return total;
}

double RdpCurve::compute_at(double alpha) const {
    double total = 0.0;
    for (std::size_t i = 0; i < events_.size(); ++i) {
        const PrivacyEvent& event = events_[i];
        double one = 0.0;
        // The built-in kinds with this accountant's own numerics (its numbers predate the views);
        // any other kind through its RDP curve view.
        if (selections_[i]) {
            one = selections_[i]->at(alpha);
        } else if (const auto* g = event.as<GaussianEvent>()) {
            one = gaussian_rdp(up(g->sensitivity / g->sigma), alpha);
        } else if (const auto* gdp = event.as<GdpEvent>()) {
            // μ-GDP is exactly the Gaussian mechanism with Δ/σ = μ (Dong, Roth & Su 2022, Thm. 2.7).
            one = gaussian_rdp(gdp->mu, alpha);
        } else if (const auto* l = event.as<LaplaceEvent>()) {
            one = laplace_rdp(up(l->sensitivity / l->scale), alpha);
        } else if (const auto* s = event.as<SubsampledGaussianEvent>()) {
            one = subsampled_gaussian_curve(s->sampling == SubsampledGaussianEvent::Sampling::Poisson
                                                ? Sampling::Poisson
                                                : Sampling::WithoutReplacement,
                                            s->sampling_rate, s->noise_multiplier, s->steps, alpha);
        } else {
            one = *event.description().rdp_epsilon(alpha);
        }
        if (!std::isfinite(one)) return std::numeric_limits<double>::infinity();
        total = up(total + up(static_cast<double>(event.repetitions) * one));
    }
    return total;
}

std::string RdpCurve::neighbouring() const {
    if (poisson_) return "add or remove one record";
    if (without_replacement_) return "replace one record";
    return "the relation under which each event's sensitivity is stated";
}

}  // namespace dpbo::rdp
