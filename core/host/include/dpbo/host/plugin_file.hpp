#pragma once
// What the host checks about a plugin file before anything loads it: that it is a regular,
// readable, 64-bit ELF shared object for this machine, and that it is as long as its own ELF
// headers say. The dynamic loader maps a file by what its headers claim, so a truncated copy
// faults (SIGBUS) when the missing pages are touched; this check refuses it first.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace dpbo {

// A file as it was when examined: if any field changes, it is another file to the cache and to
// the registry.
struct FileIdentity {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::uint64_t size = 0;
    std::int64_t mtime_ns = 0;

    bool operator==(const FileIdentity&) const = default;
};

struct PluginFileCheck {
    // Empty when the file may be handed to the dynamic loader; otherwise what is wrong with it, in a
    // phrase that follows the file name ("a directory, not a shared library").
    std::string problem;
    FileIdentity identity;  // of the file examined (through any symbolic link); valid when problem is empty

    bool usable() const { return problem.empty(); }
};

PluginFileCheck check_plugin_file(const std::filesystem::path& path);

// The identity of the regular file at `path` (through any symbolic link), read with one stat and
// without opening it; nothing when there is no regular file there. For telling whether a cached
// manifest is still the file's; check_plugin_file still examines a file before it is loaded.
std::optional<FileIdentity> regular_file_identity(const std::filesystem::path& path);

}  // namespace dpbo
