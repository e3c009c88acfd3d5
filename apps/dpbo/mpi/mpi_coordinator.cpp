#include "mpi/mpi_coordinator.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "mpi/mpi_channel.hpp"
#include "mpi/mpi_module.hpp"

namespace dpbo::cli::mpi {

namespace {

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return out;
}

}  // namespace

Coordinator::Coordinator(int ranks)
    : hosts_(static_cast<std::size_t>(ranks)),
      reported_(hosts_.size(), false),
      busy_(hosts_.size(), false),
      failure_kind_(hosts_.size(), static_cast<std::uint64_t>(ErrorKind::kNone)),
      failure_(hosts_.size()),
      timeout_(kDefaultTimeoutSeconds) {
    reported_[0] = true;
}

std::string Coordinator::name(int rank) const {
    const std::string& host = hosts_.at(static_cast<std::size_t>(rank));
    return host.empty() ? fmt::format("rank {}", rank) : fmt::format("rank {} on {}", rank, host);
}

void Coordinator::collect_reports() {
    const Deadline deadline = deadline_after(timeout_);
    for (;;) {
        bool all = true;
        for (const bool r : reported_) all = all && r;
        if (all) return;
        const auto message = receive(-1, kHello, deadline);
        if (!message) return;
        MessageReader report(message->bytes, fmt::format("the report of rank {}", message->rank));
        const auto rank = static_cast<std::size_t>(message->rank);
        failure_kind_.at(rank) = report.number();
        failure_.at(rank) = report.text();
        hosts_.at(rank) = report.text();
        reported_.at(rank) = true;
    }
}

void Coordinator::await_workers() {
    if (awaited_) return;
    collect_reports();
    std::vector<std::string> silent;
    for (int rank = 1; rank < ranks(); ++rank)
        if (!reported_[static_cast<std::size_t>(rank)]) silent.push_back(name(rank));
    if (!silent.empty())
        throw RunError(
            fmt::format("{} did not report within --mpi-timeout {} s that {} built the job's objective; "
                        "every rank must find the same dpbo, plugins and data files",
                        listed(silent), timeout_, silent.size() == 1 ? "it" : "they"));
    for (int rank = 1; rank < ranks(); ++rank) {
        const auto r = static_cast<std::size_t>(rank);
        if (failure_kind_[r] == static_cast<std::uint64_t>(ErrorKind::kNone)) continue;
        const std::string message = fmt::format("{}: {}", name(rank), failure_[r]);
        if (failure_kind_[r] == static_cast<std::uint64_t>(ErrorKind::kValidation)) throw ValidationError(message);
        throw RunError(message);
    }
    awaited_ = true;
}

std::vector<std::string> Coordinator::stop_workers() {
    // A report left unreceived could hold its rank in MPI_Send while rank 0 waits in MPI_Finalize.
    collect_reports();
    std::vector<std::string> unstoppable;
    const Deadline deadline = deadline_after(timeout_);
    for (int rank = 1; rank < ranks(); ++rank) {
        const auto r = static_cast<std::size_t>(rank);
        if (!reported_[r] || busy_[r] || !send(rank, kStop, MessageWriter(), deadline))
            unstoppable.push_back(name(rank));
    }
    return unstoppable;
}

}  // namespace dpbo::cli::mpi
