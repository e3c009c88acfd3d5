#pragma once
// A temporary file that has no name: made in $TMPDIR (else /tmp) with O_TMPFILE, or, where the file
// system cannot, made under a name and unlinked at once. Nothing is left behind however the process
// ends; it is read back through its descriptor (or /proc/self/fd/N). The host has the same helper
// (dpbo/host/unnamed_temporary_file.hpp); plugins cannot link the host.
namespace dpbo::plugin_process {

// A read-write, close-on-exec descriptor, or −1 with errno set. `name` names the fallback's file
// ("dpbo-program-stderr") for the moment it exists.
int open_unnamed_temporary_file(const char* name);

}  // namespace dpbo::plugin_process
