#pragma once
#include <cstdint>

namespace dpbo {

// Bumped whenever a public type that crosses the plugin boundary changes layout or meaning.
// The host refuses a plugin built against another value before calling into it. The test
// abi_fingerprint fails when the installed headers change without a bump: each value's headers are
// recorded in tests/abi/abi_fingerprints.txt.
inline constexpr std::uint32_t kAbiVersion = 14;

// First bytes of every plugin header; lets the host tell a dpbo plugin from a library that merely
// happens to export a symbol of the same name.
inline constexpr std::uint32_t kPluginMagic = 0x4450424FU;  // "DPBO"

}  // namespace dpbo
