// The RunJournal interface's out-of-line parts.
#include "dpbo/run_journal.hpp"

namespace dpbo {

RunSuspended::RunSuspended(const std::string& message) : RunError(message) {}
RunSuspended::~RunSuspended() = default;

RunJournal::~RunJournal() = default;

}  // namespace dpbo
