#include "mpi/mpi_channel.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <thread>

#include <fmt/format.h>
#include <mpi.h>

#include "dpbo/errors.hpp"

namespace dpbo::cli::mpi {

namespace {

// The sleep between polls doubles from the first to the last: a message that arrives at once is taken
// within microseconds, and a long wait costs a wake-up per quarter millisecond — an idle worker uses
// a few per cent of a core, and a batch's round trip stays near half a millisecond (with 1 ms pauses
// it was 2.7 ms).
constexpr auto kFirstPause = std::chrono::microseconds(20);
constexpr auto kLongestPause = std::chrono::microseconds(250);

bool passed(const Deadline& deadline) { return deadline && Clock::now() >= *deadline; }

}  // namespace

MessageWriter& MessageWriter::number(std::uint64_t value) {
    append(&value, sizeof value);
    return *this;
}

MessageWriter& MessageWriter::text(const std::string& value) {
    number(value.size());
    append(value.data(), value.size());
    return *this;
}

MessageWriter& MessageWriter::matrix(const arma::mat& value) {
    number(value.n_rows).number(value.n_cols);
    append(value.memptr(), value.n_elem * sizeof(double));
    return *this;
}

MessageWriter& MessageWriter::indices(const arma::uvec& value) {
    number(value.n_elem);
    for (const arma::uword index : value) number(index);
    return *this;
}

void MessageWriter::append(const void* data, std::size_t size) {
    const char* begin = static_cast<const char*>(data);
    bytes_.insert(bytes_.end(), begin, begin + size);
}

MessageReader::MessageReader(std::vector<char> bytes, std::string what)
    : bytes_(std::move(bytes)), what_(std::move(what)) {}

void MessageReader::ended_early() const {
    throw RunError(
        fmt::format("{}: the message ends after {} bytes, in the middle of a field; every rank must run the "
                    "same dpbo build",
                    what_, bytes_.size()));
}

void MessageReader::take(void* out, std::size_t size) {
    if (bytes_.size() - at_ < size) ended_early();
    std::memcpy(out, bytes_.data() + at_, size);
    at_ += size;
}

std::uint64_t MessageReader::number() {
    std::uint64_t value = 0;
    take(&value, sizeof value);
    return value;
}

std::string MessageReader::text() {
    const std::uint64_t size = number();
    if (size > bytes_.size() - at_) ended_early();
    std::string value(bytes_.data() + at_, size);
    at_ += size;
    return value;
}

arma::mat MessageReader::matrix() {
    const std::uint64_t rows = number();
    const std::uint64_t cols = number();
    // Checked before allocating, so a corrupt size cannot ask for more memory than the message holds.
    if (cols != 0 && rows > (bytes_.size() - at_) / sizeof(double) / cols) ended_early();
    arma::mat value(rows, cols);
    take(value.memptr(), value.n_elem * sizeof(double));
    return value;
}

arma::uvec MessageReader::indices() {
    const std::uint64_t count = number();
    if (count > (bytes_.size() - at_) / sizeof(std::uint64_t)) ended_early();
    arma::uvec value(count);
    for (arma::uword& index : value) index = static_cast<arma::uword>(number());
    return value;
}

Deadline deadline_after(double seconds) {
    // Beyond 30 years the clock's count of nanoseconds would overflow; no run waits that long anyway.
    if (seconds > 1e9) return std::nullopt;
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

bool send(int rank, Tag tag, const MessageWriter& message, Deadline deadline) {
    // MPI counts a message's elements in an int.
    if (message.bytes().size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw RunError(
            fmt::format("a message of {} bytes for rank {}: MPI sends at most {} bytes at once; evaluate "
                        "smaller batches or fewer records",
                        message.bytes().size(), rank, std::numeric_limits<int>::max()));
    MPI_Request request;
    // MPI_Isend does not write into the buffer; the C binding's signature predates const.
    MPI_Isend(const_cast<char*>(message.bytes().data()), static_cast<int>(message.bytes().size()), MPI_BYTE, rank, tag,
              MPI_COMM_WORLD, &request);
    auto pause = kFirstPause;
    for (;;) {
        int done = 0;
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done) return true;
        if (passed(deadline)) {
            // The rank never took it: leave the send pending (MPI_Abort follows) rather than wait in
            // MPI_Cancel for a rank that does not answer.
            MPI_Request_free(&request);
            return false;
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, kLongestPause);
    }
}

std::optional<Received> receive(int rank, int tag, Deadline deadline) {
    auto pause = kFirstPause;
    for (;;) {
        int found = 0;
        MPI_Status status;
        MPI_Iprobe(rank < 0 ? MPI_ANY_SOURCE : rank, tag < 0 ? MPI_ANY_TAG : tag, MPI_COMM_WORLD, &found, &status);
        if (found) {
            int size = 0;
            MPI_Get_count(&status, MPI_BYTE, &size);
            Received message;
            message.rank = status.MPI_SOURCE;
            message.tag = status.MPI_TAG;
            message.bytes.resize(static_cast<std::size_t>(size));
            MPI_Recv(message.bytes.data(), size, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            return message;
        }
        if (passed(deadline)) return std::nullopt;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, kLongestPause);
    }
}

}  // namespace dpbo::cli::mpi
