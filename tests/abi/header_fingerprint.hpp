#pragma once
// The fingerprint that ties the installed SDK headers to kAbiVersion: one SHA-256 over every
// installed header, so that no change to the plugin contract can ship without a version bump.
// Comments and layout do not count, because they cannot change what a plugin compiles to.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dpbo::abi_guard {

// The header's tokens with comments removed and whitespace kept only where it separates two
// tokens that would otherwise merge (two words, or two operator characters such as "> >"); a
// preprocessor directive keeps its terminating newline. String and character literals are kept
// verbatim, so "//" or "/*" inside them is not taken for a comment.
std::string normalise_header(std::string_view text);

// The value of kAbiVersion as written in `abi_header`. Throws std::runtime_error naming the file
// when it holds no `kAbiVersion = N` definition.
std::uint32_t read_abi_version(const std::filesystem::path& abi_header, const std::string& name = "kAbiVersion");

// SHA-256 (lower-case hex) over the installed headers below `include_root` (the directory that
// holds dpbo/): every *.hpp under include_root/dpbo, as cmake/Install.cmake installs them, in
// byte order of their paths relative to include_root, each as its path and its normalised text.
// The number assigned to kAbiVersion is left out, so the fingerprint stays the same across the
// bump it calls for and the line to record can be printed before the bump is made.
// `version_name` is the constant whose number is left out (kAbiVersion, or kBoVersion for the
// BO toolkit's headers).
std::string fingerprint_headers(const std::filesystem::path& include_root,
                                const std::string& version_name = "kAbiVersion");

struct RecordedFingerprint {
    std::uint32_t version = 0;
    std::string sha256;
};

// The lines `VERSION SHA256` of a fingerprint file; blank lines and lines starting with '#' are
// skipped. Throws std::runtime_error naming the file, the line number and what was expected when
// a line is malformed or the versions do not increase strictly.
std::vector<RecordedFingerprint> read_fingerprint_file(const std::filesystem::path& file);

// Where a set of headers states its version: the header (relative to the include root) and the
// constant. The plugin contract: dpbo/abi.hpp, kAbiVersion; the BO toolkit: dpbo/bo/version.hpp,
// kBoVersion.
struct VersionSpec {
    std::filesystem::path header = "dpbo/abi.hpp";
    std::string name = "kAbiVersion";
};

struct FingerprintVerdict {
    bool ok = false;
    std::string message;
};

// Compares the headers' fingerprint with the one recorded for their kAbiVersion.
// `print_command` is the command a developer runs to print the line to record; it is quoted in
// the failure message.
FingerprintVerdict check_fingerprint(const std::filesystem::path& include_root,
                                     const std::filesystem::path& fingerprint_file, const std::string& print_command,
                                     const VersionSpec& spec = {});

}  // namespace dpbo::abi_guard
