#pragma once
// A temporary file that has no name: made in $TMPDIR (else /tmp) with O_TMPFILE, or, where the file
// system cannot, made under a name and unlinked at once. Nothing is left behind however the process
// ends (a killed `dpbo check` or `dpbo report` left files in /tmp); it is read back through its
// descriptor, or opened by a child through /dev/fd/N. Plugins have the same helper
// (plugins/shared/unnamed_temporary_file.hpp).
namespace dpbo {

// A read-write descriptor, or −1 with errno set; close-on-exec unless `inherited` (a child started
// with posix_spawn then finds it at the same number). `name` names the fallback's file
// ("dpbo-check") for the moment it exists.
int open_unnamed_temporary_file(const char* name, bool inherited = false);

}  // namespace dpbo
