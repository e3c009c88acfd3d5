#pragma once
#include <cstdint>

namespace dpbo::bo {

// The BO toolkit's ABI version (libdpbo-bo's soname). Bumped whenever an installed header under
// dpbo/bo or dpbo/gp changes layout or meaning; the test bo_fingerprint fails when they change
// without a bump (tests/abi/bo_fingerprints.txt). Independent of the plugin contract's kAbiVersion:
// plugins that do not link the toolkit are not rebuilt for it.
inline constexpr std::uint32_t kBoVersion = 1;

}  // namespace dpbo::bo
