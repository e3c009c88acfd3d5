#pragma once
// Work that would need more memory than the machine has is refused before it starts, naming the
// setting, its value and the estimate, rather than ending in bad_alloc (or swapping) much later.
// Header-only so that the host and the in-tree plugins (through the dpbo_memory_bound CMake target)
// share one copy without it entering the installed plugin contract.
#include <unistd.h>

#include <string>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::memory {

// The machine's physical memory in bytes (0 when the system does not say).
inline double machine_bytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page_size = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page_size > 0 ? static_cast<double>(pages) * static_cast<double>(page_size) : 0.0;
}

inline std::string gib(double bytes) { return fmt::format("{:.3g} GiB", bytes / (1024.0 * 1024.0 * 1024.0)); }

// Throws ValidationError "OWNER: SETTING would need about N GiB (WHAT); this machine has M GiB of
// memory" when `bytes` exceeds the machine's memory. Estimates are lower bounds: what the named
// setting alone forces the module to hold at once.
inline void require(const std::string& owner, const std::string& setting, double bytes, const std::string& what) {
    const double available = machine_bytes();
    if (available <= 0.0 || bytes <= available) return;
    throw ValidationError(fmt::format("{}: {} would need about {} ({}); this machine has {} of memory", owner, setting,
                                      gib(bytes), what, gib(available)));
}

}  // namespace dpbo::memory
