// The event-kind module's out-of-line destructor and the table of built-in kinds.
#include "dpbo/event_kind.hpp"

namespace dpbo {

EventKind::~EventKind() = default;

namespace {

template <class Description>
EventKindEntry entry(std::string summary) {
    return {std::string(Description::kind_name), std::move(summary), Description::schema(),
            [](const ParameterSet& parameters) -> std::shared_ptr<const EventDescription> {
                return std::make_shared<const Description>(parameters);
            }};
}

}  // namespace

const std::vector<EventKindEntry>& builtin_event_kinds() {
    static const std::vector<EventKindEntry> kinds = {
        entry<GaussianEvent>("Gaussian noise σ on an L2-sensitivity-Δ query: (Δ/σ)-GDP"),
        entry<GdpEvent>("a release stated as μ-GDP"),
        entry<LaplaceEvent>("Laplace noise b on an L1-sensitivity-Δ₁ query: (Δ₁/b)-DP"),
        entry<ExponentialEvent>("the exponential mechanism: ε-DP"),
        entry<SubsampledGaussianEvent>("subsampled Gaussian releases (DP-SGD steps)"),
        entry<PureDpEvent>("a release stated as ε-DP"),
        entry<ApproxDpEvent>("a release stated as (ε, δ)-DP"),
        entry<RepeatAndSelectEvent>("the best of K trials, K random (Papernot & Steinke 2022), or the first above a "
                                    "threshold (Liu & Talwar 2019)"),
    };
    return kinds;
}

const EventKindEntry* find_builtin_event_kind(std::string_view name) {
    for (const EventKindEntry& kind : builtin_event_kinds())
        if (kind.name == name) return &kind;
    return nullptr;
}

}  // namespace dpbo
