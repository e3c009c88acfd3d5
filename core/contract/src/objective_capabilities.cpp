// The objective capabilities' key functions (their destructors: one vtable and typeinfo, libdpbo's,
// for host and plugins alike, which dynamic_cast across the plugin boundary needs) and the readers
// that report a capability's figure or what its absence means.
#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"

namespace dpbo {

RecordDecomposable::~RecordDecomposable() = default;
RecordGradients::~RecordGradients() = default;
FiniteCandidates::~FiniteCandidates() = default;
DeclaredConstants::~DeclaredConstants() = default;
HasKnownOptimum::~HasKnownOptimum() = default;
ObservationNoise::~ObservationNoise() = default;
SensitiveData::~SensitiveData() = default;
PrivacyAssumptions::~PrivacyAssumptions() = default;
PrivacyLimits::~PrivacyLimits() = default;
ThreadSafe::~ThreadSafe() = default;
PrivateTrials::~PrivateTrials() = default;

std::string_view to_string(RowStatus status) {
    switch (status) {
        case RowStatus::Sensitive:
            return "sensitive";
        case RowStatus::DataIndependent:
            return "data-independent";
        case RowStatus::Released:
            return "released";
    }
    return "unknown";
}

std::optional<double> DeclaredConstants::declared_constant(std::string_view name) const {
    for (const auto& constant : declared_constants())
        if (constant.name == name) return constant.value;
    return std::nullopt;
}

std::size_t record_count(const Objective& objective) {
    const auto* records = capability<RecordDecomposable>(objective);
    return records ? records->record_count() : 0;
}

std::optional<KnownOptimum> known_optimum(const Objective& objective) {
    const auto* optimum = capability<HasKnownOptimum>(objective);
    return optimum ? optimum->known_optimum() : std::nullopt;
}

double observation_noise_stddev(const Objective& objective) {
    const auto* noise = capability<ObservationNoise>(objective);
    return noise ? noise->observation_noise_stddev() : 0.0;
}

std::string data_description(const Objective& objective) {
    const auto* data = capability<SensitiveData>(objective);
    return data ? data->data_description() : std::string{};
}

std::vector<ReleasedValue> reference_values(const Objective& objective) {
    const auto* data = capability<SensitiveData>(objective);
    return data ? data->reference_values() : std::vector<ReleasedValue>{};
}

std::vector<std::string> privacy_assumptions(const Objective& objective) {
    const auto* assumptions = capability<PrivacyAssumptions>(objective);
    return assumptions ? assumptions->privacy_assumptions() : std::vector<std::string>{};
}

std::vector<std::string> privacy_limits(const Objective& objective) {
    const auto* limits = capability<PrivacyLimits>(objective);
    return limits ? limits->privacy_limits() : std::vector<std::string>{};
}

std::vector<DeclaredConstant> declared_constants(const Objective& objective) {
    const auto* constants = capability<DeclaredConstants>(objective);
    return constants ? constants->declared_constants() : std::vector<DeclaredConstant>{};
}

bool thread_safe(const Objective& objective) { return capability<ThreadSafe>(objective) != nullptr; }

void check_objective_capabilities(const Objective& objective) {
    const SearchSpace& space = objective.space();
    const auto* finite = capability<FiniteCandidates>(objective);
    if (space.is_finite() && !finite)
        throw ValidationError(fmt::format(
            "{} has a finite search space but does not provide the capability FiniteCandidates: whether its "
            "candidate rows are public or sensitive data must be declared (dpbo/objective_capabilities.hpp)",
            objective.describe_origin()));
    if (!finite) return;
    if (!space.is_finite())
        throw ValidationError(
            fmt::format("{} provides FiniteCandidates but its search space is a box; candidate "
                        "rows need a finite space (SearchSpace::candidates)",
                        objective.describe_origin()));
    const arma::mat& rows = finite->candidates().rows;
    const arma::mat& space_rows = space.candidate_rows();
    if (&rows != &space_rows && (rows.n_rows != space_rows.n_rows || rows.n_cols != space_rows.n_cols ||
                                 arma::any(arma::vectorise(rows != space_rows))))
        throw ValidationError(
            fmt::format("{}: FiniteCandidates::candidates() returned {}×{} rows that are not its "
                        "search space's {}×{} candidate rows",
                        objective.describe_origin(), rows.n_rows, rows.n_cols, space_rows.n_rows, space_rows.n_cols));
}

}  // namespace dpbo
