#pragma once
// How the dpbo program ends on a fatal signal (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL), most often
// a plugin's abort or null dereference inside a call. The module call guard names the module and
// then passes the signal on to the handler installed before it: this one, which says that the run
// stopped and, while a repeat keeps a journal, that running the same command again resumes it, and
// ends the process with exit status 1 — a run-time failure, like any other module failure, rather
// than a death by signal that the shell reports as 134 or 139. Everything it does is
// async-signal-safe (write(2) and _exit(2)): the journal's open transaction, if any, is rolled back
// when the next run opens it, and the output folder's lock goes with the process.
#include <string_view>

namespace dpbo {

// Installs the handler. Call it first thing in main, before any module call guard exists, so that
// the guard's report is installed in front of it and chains to it; call it again after a library
// (Open MPI) replaced the handlers, then install the guard's report again. When a handler was in
// place at the first call (a sanitizer's), the signal is passed on to it after the line is written,
// so its report is not lost; it exits with status 1 too (AddressSanitizer's default exitcode).
void install_fatal_signal_exit();

// In a child forked to be watched by its parent (`dpbo check`): the signal takes its default course,
// so the parent sees which signal it was.
void let_fatal_signals_kill();

// What the stop line adds while it is set, e.g. where the journal is; copied (truncated to 1 KiB).
// Empty clears it.
void set_fatal_signal_note(std::string_view note);

// Sets the note for as long as it lives, then clears it.
class FatalSignalNote {
public:
    explicit FatalSignalNote(std::string_view note) { set_fatal_signal_note(note); }
    ~FatalSignalNote() { set_fatal_signal_note({}); }
    FatalSignalNote(const FatalSignalNote&) = delete;
    FatalSignalNote& operator=(const FatalSignalNote&) = delete;
};

}  // namespace dpbo
