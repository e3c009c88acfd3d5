#include <doctest/doctest.h>

#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "dpbo/host/plugin_file.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kRealPlugin = fs::path(DPBO_TEST_PLUGIN_DIR) / "mechanism-laplace.so";

std::string read_all(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const fs::path& file, const std::string& bytes) { std::ofstream(file, std::ios::binary) << bytes; }

std::string problem_of(const fs::path& file) { return dpbo::check_plugin_file(file).problem; }

}  // namespace

TEST_CASE("plugin file: a real plugin passes, with its identity") {
    const auto check = dpbo::check_plugin_file(kRealPlugin);
    CHECK(check.usable());
    CHECK(check.identity.size == fs::file_size(kRealPlugin));
    CHECK(check.identity.inode != 0);
    CHECK(check.identity.mtime_ns > 0);
}

TEST_CASE("plugin file: a truncated copy is refused before anything maps it, with both sizes") {
    dpbo::test::TemporaryDirectory dir;
    const std::string bytes = read_all(kRealPlugin);
    REQUIRE(bytes.size() > 8192);
    for (const std::size_t kept : {std::size_t{4096}, std::size_t{40}, bytes.size() - 1}) {
        CAPTURE(kept);
        const fs::path copy = fs::path(dir.path()) / "copy.so";
        write_all(copy, bytes.substr(0, kept));
        const std::string problem = problem_of(copy);
        CHECK(problem.rfind("truncated: " + std::to_string(kept) + " bytes, its ELF headers need ", 0) == 0);
    }
    // The section header table ends the file: the headers need every byte of it.
    write_all(fs::path(dir.path()) / "head.so", bytes.substr(0, 4096));
    CHECK(problem_of(fs::path(dir.path()) / "head.so") ==
          "truncated: 4096 bytes, its ELF headers need " + std::to_string(bytes.size()));
}

TEST_CASE("plugin file: what is not a regular file says what it is") {
    dpbo::test::TemporaryDirectory dir;
    const fs::path base(dir.path());
    fs::create_directory(base / "directory.so");
    CHECK(problem_of(base / "directory.so") == "a directory, not a shared library");
    REQUIRE(::mkfifo((base / "fifo.so").c_str(), 0600) == 0);
    CHECK(problem_of(base / "fifo.so") == "a FIFO (named pipe), not a shared library");
    fs::create_symlink(base / "loop-b.so", base / "loop-a.so");
    fs::create_symlink(base / "loop-a.so", base / "loop-b.so");
    CHECK(problem_of(base / "loop-a.so") == "a symbolic link loop (too many levels of symbolic links), not a file");
    fs::create_symlink("/dev/zero", base / "zero.so");
    CHECK(problem_of(base / "zero.so") == "a character device (a symbolic link to '/dev/zero'), not a shared library");
    fs::create_symlink(base / "nowhere.so", base / "dangling.so");
    CHECK(problem_of(base / "dangling.so") ==
          "a dangling symbolic link: its target '" + (base / "nowhere.so").string() + "' does not exist");
    // A link to a good plugin is the plugin.
    fs::create_symlink(kRealPlugin, base / "link.so");
    CHECK(dpbo::check_plugin_file(base / "link.so").usable());
}

TEST_CASE("plugin file: an unreadable file says so, not 'no ELF header'") {
    // Permissions do not bind root, who can read the file anyway: nothing to check then.
    if (::geteuid() == 0) return;
    dpbo::test::TemporaryDirectory dir;
    const fs::path copy = fs::path(dir.path()) / "unreadable.so";
    fs::copy_file(kRealPlugin, copy);
    fs::permissions(copy, fs::perms::none);
    CHECK(problem_of(copy) == "cannot read: permission denied");
}

TEST_CASE("plugin file: ELF files that are not a 64-bit shared object for this machine") {
    dpbo::test::TemporaryDirectory dir;
    const fs::path base(dir.path());
    const std::string bytes = read_all(kRealPlugin);
    write_all(base / "text.so", "just text\n");
    CHECK(problem_of(base / "text.so") == "not a shared library (no ELF header)");
    write_all(base / "empty.so", "");
    CHECK(problem_of(base / "empty.so") == "not a shared library (no ELF header)");

    std::string narrow = bytes;
    narrow[EI_CLASS] = ELFCLASS32;
    write_all(base / "narrow.so", narrow);
    CHECK(problem_of(base / "narrow.so") == "a 32-bit ELF file; this dpbo loads 64-bit shared libraries");

    std::string object = bytes;
    reinterpret_cast<Elf64_Ehdr*>(object.data())->e_type = ET_REL;
    write_all(base / "object.so", object);
    CHECK(problem_of(base / "object.so") == "an ELF relocatable object (.o), not a shared library");

    std::string foreign = bytes;
    reinterpret_cast<Elf64_Ehdr*>(foreign.data())->e_machine = EM_S390;
    write_all(base / "foreign.so", foreign);
    CHECK(problem_of(base / "foreign.so").rfind("built for another machine (ELF machine 22); this dpbo runs on ", 0) ==
          0);

    // A section that claims to reach far beyond the end of the file.
    std::string stretched = bytes;
    auto* header = reinterpret_cast<Elf64_Ehdr*>(stretched.data());
    auto* first_section = reinterpret_cast<Elf64_Shdr*>(stretched.data() + header->e_shoff + sizeof(Elf64_Shdr));
    first_section->sh_type = SHT_PROGBITS;
    first_section->sh_offset = 0;
    first_section->sh_size = 1ULL << 40;
    write_all(base / "stretched.so", stretched);
    CHECK(problem_of(base / "stretched.so") ==
          "truncated: " + std::to_string(bytes.size()) + " bytes, its ELF headers need " + std::to_string(1ULL << 40));
}
