// The structures come from glibc's <elf.h>; reading three fixed-layout tables needs no ELF library
// (elfutils' libelf would add a run-time dependency to every program linking libdpbo for it).
#include "dpbo/host/plugin_file.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include <fmt/format.h>

namespace dpbo {

namespace fs = std::filesystem;

namespace {

#if defined(__x86_64__)
constexpr std::optional<std::uint16_t> kHostMachine = EM_X86_64;
constexpr const char* kHostMachineName = "x86-64";
#elif defined(__aarch64__)
constexpr std::optional<std::uint16_t> kHostMachine = EM_AARCH64;
constexpr const char* kHostMachineName = "AArch64";
#elif defined(__riscv) && __riscv_xlen == 64
constexpr std::optional<std::uint16_t> kHostMachine = EM_RISCV;
constexpr const char* kHostMachineName = "RISC-V";
#elif defined(__powerpc64__)
constexpr std::optional<std::uint16_t> kHostMachine = EM_PPC64;
constexpr const char* kHostMachineName = "PowerPC 64";
#else
// Elsewhere the dynamic loader's own refusal names the mismatch.
constexpr std::optional<std::uint16_t> kHostMachine = std::nullopt;
constexpr const char* kHostMachineName = "this machine";
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr unsigned char kHostByteOrder = ELFDATA2LSB;
#else
constexpr unsigned char kHostByteOrder = ELFDATA2MSB;
#endif

class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

std::string describe_errno(int error) {
    if (error == EACCES || error == EPERM) return "cannot read: permission denied";
    return fmt::format("cannot read: {}", std::strerror(error));
}

// What a non-regular file is, as the refusal says it.
std::string describe_file_type(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

std::string link_target(const fs::path& path) {
    std::error_code ec;
    const fs::path target = fs::read_symlink(path, ec);
    return ec ? std::string("?") : target.string();
}

bool read_exactly(int fd, void* buffer, std::uint64_t size, std::uint64_t offset) {
    auto* out = static_cast<char*>(buffer);
    while (size > 0) {
        const ssize_t n = ::pread(fd, out, size, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        out += n;
        size -= static_cast<std::uint64_t>(n);
        offset += static_cast<std::uint64_t>(n);
    }
    return true;
}

// The end of a table or segment, or nullopt when offset + length overflows (a corrupt header).
std::optional<std::uint64_t> end_of(std::uint64_t offset, std::uint64_t count, std::uint64_t entry_size) {
    if (entry_size != 0 && count > (UINT64_MAX - offset) / entry_size) return std::nullopt;
    return offset + count * entry_size;
}

std::string describe_elf_type(std::uint16_t type) {
    switch (type) {
        case ET_EXEC:
            return "an ELF executable";
        case ET_REL:
            return "an ELF relocatable object (.o)";
        case ET_CORE:
            return "an ELF core dump";
        default:
            return fmt::format("an ELF file of type {}", type);
    }
}

// How many bytes the headers say the file has: the header tables and everything the program and
// section headers place in the file. Empty string in `problem` when readable.
struct ElfExtent {
    std::uint64_t needed = 0;
    std::string problem;
};

ElfExtent elf_extent(int fd, const Elf64_Ehdr& header, std::uint64_t size) {
    ElfExtent out;
    out.needed = sizeof(Elf64_Ehdr);
    const auto need = [&](std::optional<std::uint64_t> end) {
        if (!end) {
            out.problem = "a corrupt ELF file (a header table or segment ends beyond 2^64 bytes)";
            return false;
        }
        out.needed = std::max(out.needed, *end);
        return true;
    };

    if (header.e_phnum > 0) {
        if (header.e_phentsize != sizeof(Elf64_Phdr)) {
            out.problem = fmt::format("a corrupt ELF file (program header entries of {} bytes, expected {})",
                                      header.e_phentsize, sizeof(Elf64_Phdr));
            return out;
        }
        if (!need(end_of(header.e_phoff, header.e_phnum, sizeof(Elf64_Phdr)))) return out;
        if (out.needed <= size) {
            std::vector<Elf64_Phdr> segments(header.e_phnum);
            if (!read_exactly(fd, segments.data(), segments.size() * sizeof(Elf64_Phdr), header.e_phoff)) {
                out.problem = describe_errno(errno);
                return out;
            }
            for (const auto& segment : segments)
                if (!need(end_of(segment.p_offset, 1, segment.p_filesz))) return out;
        }
    }

    if (header.e_shoff != 0) {
        if (header.e_shentsize != sizeof(Elf64_Shdr)) {
            out.problem = fmt::format("a corrupt ELF file (section header entries of {} bytes, expected {})",
                                      header.e_shentsize, sizeof(Elf64_Shdr));
            return out;
        }
        // With 0 sections listed and a table present, the first entry holds the real count.
        std::uint64_t sections = header.e_shnum;
        if (!need(end_of(header.e_shoff, std::max<std::uint64_t>(sections, 1), sizeof(Elf64_Shdr)))) return out;
        if (out.needed > size) return out;
        if (sections == 0) {
            Elf64_Shdr first{};
            if (!read_exactly(fd, &first, sizeof first, header.e_shoff)) {
                out.problem = describe_errno(errno);
                return out;
            }
            sections = first.sh_size;
            if (!need(end_of(header.e_shoff, sections, sizeof(Elf64_Shdr)))) return out;
            if (out.needed > size) return out;
        }
        std::vector<Elf64_Shdr> table(sections);
        if (!read_exactly(fd, table.data(), table.size() * sizeof(Elf64_Shdr), header.e_shoff)) {
            out.problem = describe_errno(errno);
            return out;
        }
        for (const auto& section : table)
            if (section.sh_type != SHT_NOBITS && !need(end_of(section.sh_offset, 1, section.sh_size))) return out;
    }
    return out;
}

FileIdentity identity_of(const struct stat& info) {
    return {static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
            static_cast<std::uint64_t>(info.st_size),
            static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec};
}

}  // namespace

std::optional<FileIdentity> regular_file_identity(const fs::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
    return identity_of(info);
}

PluginFileCheck check_plugin_file(const fs::path& path) {
    PluginFileCheck check;
    const auto refuse = [&](std::string problem) {
        check.problem = std::move(problem);
        return check;
    };

    struct stat link_info {};
    if (::lstat(path.c_str(), &link_info) != 0)
        return refuse(fmt::format("cannot be examined: {}", std::strerror(errno)));
    const bool is_link = S_ISLNK(link_info.st_mode);
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        const int error = errno;
        if (error == ELOOP) return refuse("a symbolic link loop (too many levels of symbolic links), not a file");
        if (error == ENOENT && is_link)
            return refuse(fmt::format("a dangling symbolic link: its target '{}' does not exist", link_target(path)));
        return refuse(describe_errno(error));
    }
    const std::string via_link = is_link ? fmt::format(" (a symbolic link to '{}')", link_target(path)) : "";
    if (!S_ISREG(info.st_mode))
        return refuse(fmt::format("{}{}, not a shared library", describe_file_type(info.st_mode), via_link));

    // O_NONBLOCK: if the file was replaced by a FIFO since stat, opening it must not wait for a writer.
    const FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (file.get() < 0) return refuse(describe_errno(errno));
    if (::fstat(file.get(), &info) != 0) return refuse(describe_errno(errno));
    if (!S_ISREG(info.st_mode))
        return refuse(fmt::format("{}{}, not a shared library", describe_file_type(info.st_mode), via_link));
    const auto size = static_cast<std::uint64_t>(info.st_size);
    check.identity = identity_of(info);

    Elf64_Ehdr header{};
    const std::uint64_t head = std::min<std::uint64_t>(size, sizeof header);
    if (head > 0 && !read_exactly(file.get(), &header, head, 0)) return refuse(describe_errno(errno));
    if (head < SELFMAG || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
        return refuse("not a shared library (no ELF header)");
    if (head > EI_CLASS && header.e_ident[EI_CLASS] != ELFCLASS64)
        return refuse(fmt::format("a {} ELF file; this dpbo loads 64-bit shared libraries",
                                  header.e_ident[EI_CLASS] == ELFCLASS32 ? "32-bit" : "malformed"));
    if (head < sizeof header)
        return refuse(fmt::format("truncated: {} bytes, its ELF headers need {}", size, sizeof header));
    if (header.e_ident[EI_DATA] != kHostByteOrder)
        return refuse(fmt::format("an ELF file of the other byte order ({}); this dpbo runs on {}",
                                  header.e_ident[EI_DATA] == ELFDATA2MSB ? "big-endian" : "unknown", kHostMachineName));
    if (header.e_type != ET_DYN)
        return refuse(fmt::format("{}, not a shared library", describe_elf_type(header.e_type)));
    if (kHostMachine && header.e_machine != *kHostMachine)
        return refuse(fmt::format("built for another machine (ELF machine {}); this dpbo runs on {}", header.e_machine,
                                  kHostMachineName));

    const ElfExtent extent = elf_extent(file.get(), header, size);
    if (!extent.problem.empty()) return refuse(extent.problem);
    if (extent.needed > size)
        return refuse(fmt::format("truncated: {} bytes, its ELF headers need {}", size, extent.needed));
    return check;
}

}  // namespace dpbo
