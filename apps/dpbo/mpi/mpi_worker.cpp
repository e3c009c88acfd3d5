#include "mpi/mpi_worker.hpp"

#include <array>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <mpi.h>

#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/random.hpp"
#include "mpi/mpi_channel.hpp"

namespace dpbo::cli::mpi {

namespace {

struct Outcome {
    ErrorKind kind = ErrorKind::kNone;
    std::string message;
};

// Runs `work`, turning whatever it throws into an error for rank 0.
template <class Work>
Outcome attempt(Work&& work) {
    try {
        work();
        return {};
    } catch (const ValidationError& e) {
        return {ErrorKind::kValidation, e.what()};
    } catch (const std::exception& e) {
        return {ErrorKind::kRun, e.what()};
    } catch (...) {
        return {ErrorKind::kRun, describe_current_exception()};
    }
}

std::string processor_name() {
    char name[MPI_MAX_PROCESSOR_NAME];
    int length = 0;
    MPI_Get_processor_name(name, &length);
    return std::string(name, static_cast<std::size_t>(length));
}

class Worker {
public:
    explicit Worker(std::optional<WorkerJob> job, Outcome setup) : job_(std::move(job)), setup_(std::move(setup)) {}

    // One slice: the request as rank 0 made it, with a generator seeded as rank 0 says (the batch's
    // own, or the slice's from it), evaluated by this rank's objective.
    MessageWriter evaluate(std::vector<char> bytes) {
        Evaluations result;
        std::optional<ExperimentRng> rng;
        std::optional<PrivacyNoiseSource> trial_noise;
        const Outcome outcome = attempt([&] {
            MessageReader in(std::move(bytes), "a batch from rank 0");
            const std::uint64_t repeat = in.number();
            const bool per_record = in.number() != 0;
            const bool has_generator = in.number() != 0;
            const std::uint64_t seed = in.number();
            const arma::mat points = in.matrix();
            const bool has_trial_noise = in.number() != 0;
            std::array<std::uint32_t, 8> key{};
            for (std::size_t i = 0; i < 8; i += 2) {
                const std::uint64_t word = in.number();
                key[i] = static_cast<std::uint32_t>(word);
                key[i + 1] = static_cast<std::uint32_t>(word >> 32);
            }
            if (setup_.kind != ErrorKind::kNone) throw RunError(setup_.message);
            if (!job_) throw RunError("this rank has no job to evaluate (the command line asks for none)");
            if (serving_repeat_ && *serving_repeat_ != repeat) job_->objective = job_->fresh_objective();
            serving_repeat_ = repeat;
            if (has_generator) rng.emplace(seed);
            // A trial's privacy noise: the slice's key from rank 0 (see MpiEvaluator), as derive() keys it.
            if (has_trial_noise) trial_noise.emplace(PrivacyNoiseSource::from_key(key));
            const EvaluationRequest request{per_record, rng ? &*rng : nullptr, trial_noise ? &*trial_noise : nullptr};
            Objective& objective = *job_->objective;
            result = call_into_module(objective.describe_origin(), "evaluating points",
                                      [&] { return objective.evaluate(points, request); });
        });
        MessageWriter reply;
        reply.number(static_cast<std::uint64_t>(outcome.kind));
        if (outcome.kind != ErrorKind::kNone) {
            reply.text(outcome.message);
            return reply;
        }
        reply.matrix(result.values).matrix(result.per_record).indices(result.candidate_rows).matrix(result.auxiliary);
        // Trial events as texts (the coordinator reads them back with parse_builtin_event).
        reply.number(result.trial_events.size());
        for (const std::vector<PrivacyEvent>& events : result.trial_events) {
            reply.number(events.size());
            for (const PrivacyEvent& event : events) reply.text(event_text(event));
        }
        return reply;
    }

private:
    std::optional<WorkerJob> job_;
    Outcome setup_;
    std::optional<std::uint64_t> serving_repeat_;
};

}  // namespace

int serve(const std::function<std::optional<WorkerJob>()>& prepare) {
    std::optional<WorkerJob> job;
    const Outcome setup = attempt([&] { job = prepare(); });
    MessageWriter report;
    report.number(static_cast<std::uint64_t>(setup.kind)).text(setup.message).text(processor_name());
    send(0, kHello, report, std::nullopt);

    Worker worker(std::move(job), setup);
    for (;;) {
        const auto message = receive(0, -1, std::nullopt);
        if (message->tag == kStop) return 0;
        if (message->tag != kBatch) continue;
        send(0, kReply, worker.evaluate(std::move(message->bytes)), std::nullopt);
    }
}

}  // namespace dpbo::cli::mpi
