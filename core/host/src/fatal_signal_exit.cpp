#include "dpbo/host/fatal_signal_exit.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <iterator>

#include "signal_safe_line.hpp"

namespace dpbo {

namespace {

struct FatalSignal {
    int number;
    const char* name;
};

constexpr FatalSignal kFatalSignals[] = {
    {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"}, {SIGABRT, "SIGABRT"}, {SIGFPE, "SIGFPE"}, {SIGILL, "SIGILL"},
};

// The handlers in place at the first installation (a sanitizer's, or the default action).
struct sigaction first_actions[std::size(kFatalSignals)];
bool installed_once = false;
std::atomic<bool> exit_with_status{true};

// Two buffers, so that a note being replaced is never read half-written: the handler reads the one
// `current_note` names, set only after the other was filled.
constexpr std::size_t kNoteCapacity = 1024;
char notes[2][kNoteCapacity];
std::size_t note_lengths[2] = {0, 0};
std::atomic<int> current_note{0};

bool is_handler(const struct sigaction& action) {
    return (action.sa_flags & SA_SIGINFO) ? action.sa_sigaction != nullptr
                                          : action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN;
}

void on_fatal_signal(int number) {
    std::size_t index = 0;
    while (index < std::size(kFatalSignals) && kFatalSignals[index].number != number) ++index;
    const bool known = index < std::size(kFatalSignals);
    if (!exit_with_status.load() || !known) {
        ::signal(number, SIG_DFL);
        ::raise(number);
        return;
    }
    // One write(2) for the whole line (signal_safe_line.hpp): the other --workers threads may still
    // be writing.
    signal_safe::Line line;
    line.append("dpbo: stopped by ").append(kFatalSignals[index].name).append(" (exit status 1)");
    const int note = current_note.load();
    if (note_lengths[note] > 0) line.append("; ").append(notes[note], note_lengths[note]);
    line.write_to_stderr();
    if (is_handler(first_actions[index])) {
        // A sanitizer's handler reports where it happened and exits (status 1 by default).
        ::sigaction(number, &first_actions[index], nullptr);
        ::raise(number);
        return;
    }
    ::_exit(1);
}

}  // namespace

void install_fatal_signal_exit() {
    for (std::size_t i = 0; i < std::size(kFatalSignals); ++i) {
        struct sigaction action {};
        action.sa_handler = &on_fatal_signal;
        // On the alternate stack when the guard has set one up (a stack overflow leaves no other).
        action.sa_flags = SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        ::sigaction(kFatalSignals[i].number, &action, installed_once ? nullptr : &first_actions[i]);
    }
    installed_once = true;
}

void let_fatal_signals_kill() { exit_with_status.store(false); }

void set_fatal_signal_note(std::string_view note) {
    const int next = 1 - current_note.load();
    const std::size_t length = std::min(note.size(), kNoteCapacity);
    // An empty note (the default string_view) has no data pointer, which memcpy may not be given.
    if (length > 0) std::memcpy(notes[next], note.data(), length);
    note_lengths[next] = length;
    current_note.store(next);
}

}  // namespace dpbo
