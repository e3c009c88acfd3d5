#pragma once
// A dpbo command run inside a program that is not the dpbo executable (the Python package, a study's
// keeper), with what it prints captured instead of written to the process's stdout and stderr.
#include <string>
#include <vector>

namespace dpbo::cli {

struct CapturedCommand {
    int status = 0;
    std::string out;
    std::string err;
};

// Runs `dpbo WORDS...` as main does — its errors become its exit status and the message main prints
// (report_errors), or pass through as exceptions (the Python package translates them). One command
// at a time: std::cout and std::cerr are the process's.
CapturedCommand run_captured(const std::vector<std::string>& words, bool report_errors);

// main's net under a command: runs it and turns what it throws into the exit status and the message
// on stderr (2 for bad input, 1 for a failed run).
int run_reporting_errors(const std::vector<std::string>& words);

}  // namespace dpbo::cli
