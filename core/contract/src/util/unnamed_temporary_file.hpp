#pragma once
// A temporary file that has no name: made in $TMPDIR (else /tmp) with O_TMPFILE, or, where the file
// system cannot, made under a name and unlinked at once. Nothing is left behind however the process
// ends (a killed `dpbo check` or `dpbo report` left files in /tmp, a killed run its program's stderr);
// it is read back through its descriptor, or opened by a child through /dev/fd/N. Header-only and
// not installed: shared by the host, the apps and the plugins' shared code (target dpbo_bounded_input).
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace dpbo {

// A read-write descriptor, or −1 with errno set; close-on-exec unless `inherited` (a child started
// with posix_spawn then finds it at the same number). `name` names the fallback's file
// ("dpbo-check") for the moment it exists.
inline int open_unnamed_temporary_file(const char* name, bool inherited = false) {
    const int close_on_exec = inherited ? 0 : O_CLOEXEC;
    const char* tmpdir = std::getenv("TMPDIR");
    const std::string folder = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
    const int fd = ::open(folder.c_str(), O_TMPFILE | O_RDWR | close_on_exec, 0600);
    if (fd >= 0) return fd;
    std::string pattern = folder + "/" + name + "-XXXXXX";
    const int named = ::mkostemp(pattern.data(), close_on_exec);
    if (named >= 0) ::unlink(pattern.c_str());
    return named;
}

}  // namespace dpbo
