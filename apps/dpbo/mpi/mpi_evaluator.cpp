#include "mpi/mpi_evaluator.hpp"

#include <map>
#include <optional>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/host/batch_slices.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/random.hpp"
#include "mpi/mpi_channel.hpp"
#include "mpi/mpi_coordinator.hpp"

namespace dpbo::cli::mpi {

namespace {

std::string points_of(const BatchSlice& slice, std::size_t batch_size) {
    if (slice.count == 1) return fmt::format("point {} of a batch of {}", slice.first + 1, batch_size);
    return fmt::format("points {}–{} of a batch of {}", slice.first + 1, slice.first + slice.count, batch_size);
}

// Each point's trial events as a worker sends them (write_trial_events): a count of points, then
// per point a count of event texts and the texts.
std::vector<std::vector<PrivacyEvent>> read_trial_events(MessageReader& in) {
    std::vector<std::vector<PrivacyEvent>> out(in.number());
    for (auto& events : out) {
        const std::uint64_t count = in.number();
        for (std::uint64_t e = 0; e < count; ++e) events.push_back(parse_builtin_event(in.text()));
    }
    return out;
}

struct Failure {
    std::uint64_t kind = 0;
    std::string message;
};

}  // namespace

MpiEvaluator::MpiEvaluator(Coordinator& coordinator, std::size_t repeat) : coordinator_(coordinator), repeat_(repeat) {}

Evaluations MpiEvaluator::evaluate_batch(Objective& objective, const arma::mat& points,
                                         const EvaluationRequest& request) {
    coordinator_.await_workers();
    const std::vector<BatchSlice> slices = batch_slices(points.n_rows, coordinator_.workers());
    const bool split = slices.size() >= 2;
    const std::uint64_t base = request.rng != nullptr ? request.rng->seed() : 0;
    const Deadline deadline = deadline_after(coordinator_.timeout());
    const auto rank_of = [](std::size_t slice) { return static_cast<int>(slice + 1); };
    // Trial noise (PrivateTrials): slice s gets the key PrivacyNoiseSource::derive would give the s-th
    // slice of --workers (the next 256 bits of the batch's trial stream), so both draw the same.
    std::optional<PrivacyNoiseSource> trial_keys;
    if (request.trial_noise != nullptr) trial_keys.emplace(*request.trial_noise);

    std::size_t sent = 0;
    for (; sent < slices.size(); ++sent) {
        const BatchSlice& slice = slices[sent];
        MessageWriter message;
        message.number(repeat_).number(request.per_record ? 1 : 0).number(request.rng != nullptr ? 1 : 0);
        // A batch's generator is its own and fresh (Evaluator::evaluate): a worker seeded like it draws
        // what a serial evaluation would; split batches seed each slice from it, as --workers does.
        message.number(request.rng == nullptr ? 0 : split ? slice_seed(base, sent) : base);
        message.matrix(slice.count == 0 ? arma::mat(0, points.n_cols)
                                        : arma::mat(points.rows(slice.first, slice.first + slice.count - 1)));
        message.number(trial_keys ? 1 : 0);
        for (int word = 0; word < 4; ++word) message.number(trial_keys ? trial_keys->next_u64() : 0);
        coordinator_.sent(rank_of(sent));
        if (!send(rank_of(sent), kBatch, message, deadline)) break;
    }

    // Every answer is taken, or waited for until the deadline, before any failure is reported.
    std::vector<Evaluations> parts(slices.size());
    std::vector<bool> answered(slices.size(), false);
    std::map<std::size_t, Failure> failures;
    for (std::size_t pending = sent; pending > 0; --pending) {
        const auto reply = receive(-1, kReply, deadline);
        if (!reply) break;
        const std::size_t s = static_cast<std::size_t>(reply->rank - 1);
        if (s >= slices.size() || answered[s])
            throw RunError(fmt::format("{} answered a batch it was not sent", coordinator_.name(reply->rank)));
        answered[s] = true;
        coordinator_.answered(reply->rank);
        MessageReader in(reply->bytes, fmt::format("the answer of {}", coordinator_.name(reply->rank)));
        const std::uint64_t kind = in.number();
        if (kind != static_cast<std::uint64_t>(ErrorKind::kNone)) {
            failures[s] = {kind, in.text()};
            continue;
        }
        Evaluations& part = parts[s];
        part.values = in.matrix();
        part.per_record = in.matrix();
        part.candidate_rows = in.indices();
        part.auxiliary = in.matrix();
        part.trial_events = read_trial_events(in);
    }

    // A send that timed out counts as silent; the slices after it were never sent.
    std::vector<std::string> silent;
    for (std::size_t s = 0; s < slices.size() && s <= sent; ++s)
        if (!answered[s])
            silent.push_back(
                fmt::format("{} ({})", coordinator_.name(rank_of(s)), points_of(slices[s], points.n_rows)));
    if (!silent.empty()) {
        std::string names;
        for (const std::string& name : silent) names += (names.empty() ? "" : "; ") + name;
        throw RunError(fmt::format("no answer within --mpi-timeout {} s from {}: a worker rank is stuck or unreachable",
                                   coordinator_.timeout(), names));
    }
    if (!failures.empty()) {
        const auto& [s, failure] = *failures.begin();
        const std::string message = fmt::format("{} failed evaluating {}: {}", coordinator_.name(rank_of(s)),
                                                points_of(slices[s], points.n_rows), failure.message);
        if (failure.kind == static_cast<std::uint64_t>(ErrorKind::kValidation)) throw ValidationError(message);
        throw RunError(message);
    }
    return merge_slices(points, slices, parts, fmt::format("{} (over MPI)", objective.describe_origin()));
}

}  // namespace dpbo::cli::mpi
