#include "dpbo/host/unnamed_temporary_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace dpbo {

int open_unnamed_temporary_file(const char* name, bool inherited) {
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
