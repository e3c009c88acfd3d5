#pragma once
// The messages between rank 0 and the worker ranks of `dpbo run` under mpirun, and the waits for
// them. Every wait polls with short sleeps rather than blocking inside MPI: Open MPI's blocking calls
// spin on the CPU, which an idle worker would take from rank 0's model fitting (mpirun
// --oversubscribe puts several ranks on a core), and a poll can give up at a deadline, so a rank that
// stops answering is reported instead of waited for forever.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <armadillo>

namespace dpbo::cli::mpi {

// Rank 0 ↔ worker messages, one tag each.
enum Tag : int {
    kHello = 1,  // worker → 0: whether it built the job's objective (or the error), and its host name
    kBatch = 2,  // 0 → worker: points to evaluate, the request, the slice's generator
    kReply = 3,  // worker → 0: the slice's evaluations, or the objective's error
    kStop = 4,   // 0 → worker: the job is over; finalise and exit 0
};

// How an error crosses ranks, so rank 0 reports it with the kind (and exit code) it had on the worker.
enum class ErrorKind : std::uint64_t { kNone = 0, kValidation = 1, kRun = 2 };

// A message's bytes: numbers in the byte order of the machine (every rank runs the same dpbo build on
// the same kind of machine), text and matrices preceded by their sizes.
class MessageWriter {
public:
    MessageWriter& number(std::uint64_t value);
    MessageWriter& text(const std::string& value);
    MessageWriter& matrix(const arma::mat& value);
    MessageWriter& indices(const arma::uvec& value);
    const std::vector<char>& bytes() const { return bytes_; }

private:
    void append(const void* data, std::size_t size);
    std::vector<char> bytes_;
};

// Reads what MessageWriter wrote, in the same order. Throws RunError naming `what` when the message
// ends early (a message from another dpbo version).
class MessageReader {
public:
    MessageReader(std::vector<char> bytes, std::string what);
    std::uint64_t number();
    std::string text();
    arma::mat matrix();
    arma::uvec indices();

private:
    [[noreturn]] void ended_early() const;
    void take(void* out, std::size_t size);
    std::vector<char> bytes_;
    std::size_t at_ = 0;
    std::string what_;
};

using Clock = std::chrono::steady_clock;
// No deadline: wait as long as it takes.
using Deadline = std::optional<Clock::time_point>;
Deadline deadline_after(double seconds);

// Sends `message` to `rank`; false when the deadline passed before the rank took it.
bool send(int rank, Tag tag, const MessageWriter& message, Deadline deadline);

struct Received {
    int rank = -1;
    int tag = -1;
    std::vector<char> bytes;
};
// The next message with `tag` (or any tag: -1) from `rank` (or any rank: -1); none when the deadline
// passes first.
std::optional<Received> receive(int rank, int tag, Deadline deadline);

}  // namespace dpbo::cli::mpi
