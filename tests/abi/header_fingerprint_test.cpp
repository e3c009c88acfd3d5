// The normalisation decides which header edits call for an ABI bump: comments and layout must not,
// any change of a token must. Then the check itself on a scratch include tree.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <unistd.h>

#include <fstream>
#include <stdexcept>

#include "header_fingerprint.hpp"

namespace fs = std::filesystem;
using dpbo::abi_guard::check_fingerprint;
using dpbo::abi_guard::fingerprint_headers;
using dpbo::abi_guard::normalise_header;
using dpbo::abi_guard::read_fingerprint_file;

namespace {

const char* const kHeader = R"(#pragma once
// A comment that may change.
#include <cstdint>

namespace demo {
/* block
   comment */
struct Layout {
    std::uint32_t magic;   // trailing comment
    const char* name = "a // not a comment /* either */";
    char quote = '"';
    std::uint64_t big = 1'000'000;
};
template <class T> using Nested = std::vector<std::vector<T> >;
#define DEMO_TWICE(x) \
    ((x) + (x))
}  // namespace demo
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

// A scratch include root with dpbo/abi.hpp and one more header.
struct ScratchTree {
    // ctest runs the cases in parallel, each in its own process: the name and pid keep them apart.
    explicit ScratchTree(const std::string& name) {
        root = fs::temp_directory_path() / ("dpbo-abi-" + name + "-" + std::to_string(::getpid()));
        fs::remove_all(root);
        fs::create_directories(root / "dpbo" / "gp");
        write("dpbo/abi.hpp", "namespace dpbo { inline constexpr unsigned kAbiVersion = 7; }\n");
        write("dpbo/gp/model.hpp", "struct Model { double mean; };\n");
    }
    ~ScratchTree() { fs::remove_all(root); }
    void write(const std::string& relative, const std::string& text) const {
        std::ofstream(root / relative, std::ios::binary) << text;
    }
    fs::path root;
};

}  // namespace

TEST_CASE("abi fingerprint: comments and whitespace do not count") {
    const std::string base = normalise_header(kHeader);
    CHECK(base.find("may change") == std::string::npos);
    CHECK(base.find("trailing") == std::string::npos);
    CHECK(base.find("block") == std::string::npos);
    CHECK(normalise_header(replaced(kHeader, "// A comment that may change.", "// Reworded entirely.")) == base);
    CHECK(normalise_header(replaced(kHeader, "/* block\n   comment */", "")) == base);
    CHECK(normalise_header(
              replaced(kHeader, "std::uint32_t magic;   // trailing comment", "std::uint32_t   magic ;")) == base);
    CHECK(normalise_header(replaced(kHeader, "template <class T> using", "template<class T>\n  using")) == base);
    CHECK(normalise_header(replaced(kHeader, "\n\nnamespace demo {", "\n\n\n\nnamespace demo\n{")) == base);
}

TEST_CASE("abi fingerprint: every token counts, inside literals too") {
    const std::string base = normalise_header(kHeader);
    // Text that only looks like a comment inside a string literal is part of the literal.
    CHECK(base.find("\"a // not a comment /* either */\"") != std::string::npos);
    CHECK(normalise_header(replaced(kHeader, "not a comment", "not a  comment")) != base);
    CHECK(normalise_header(replaced(kHeader, "std::uint32_t magic;", "std::uint64_t magic;")) != base);
    CHECK(normalise_header(replaced(kHeader, "1'000'000", "1'000'001")) != base);
    CHECK(normalise_header(replaced(kHeader, "char quote", "char quote2")) != base);
    // A space that separates two tokens is kept: "> >" and ">>" are different token sequences.
    CHECK(normalise_header(replaced(kHeader, "std::vector<T> >", "std::vector<T>>")) != base);
    // The directive ends at its newline, so joining the next line into it changes the result.
    CHECK(normalise_header(replaced(kHeader, "#include <cstdint>\n\n", "#include <cstdint> ")) != base);
    // A continued macro is one directive whether or not its continuation is indented.
    CHECK(normalise_header(replaced(kHeader, "\\\n    ((x)", "\\\n((x)")) == base);
}

TEST_CASE("abi fingerprint: the check passes on the recorded line and names the line to record otherwise") {
    ScratchTree tree("check");
    const std::string fingerprint = fingerprint_headers(tree.root);
    CHECK(fingerprint.size() == 64);
    tree.write("fingerprints.txt", "# comment\n6 " + std::string(64, 'a') + "\n7 " + fingerprint + "\n");
    const auto ok = check_fingerprint(tree.root, tree.root / "fingerprints.txt", "print-it");
    CHECK(ok.ok);

    // A comment edit keeps the fingerprint; a member type change breaks it.
    tree.write("dpbo/gp/model.hpp", "// the model\nstruct Model {\n  double mean;  // its mean\n};\n");
    CHECK(check_fingerprint(tree.root, tree.root / "fingerprints.txt", "print-it").ok);
    tree.write("dpbo/gp/model.hpp", "struct Model { float mean; };\n");
    const auto changed = check_fingerprint(tree.root, tree.root / "fingerprints.txt", "print-it");
    CHECK_FALSE(changed.ok);
    const std::string now = fingerprint_headers(tree.root);
    CHECK(now != fingerprint);
    CHECK(changed.message.find("The installed headers under " + (tree.root / "dpbo").string() + " changed") !=
          std::string::npos);
    CHECK(changed.message.find("Bump kAbiVersion in " + (tree.root / "dpbo" / "abi.hpp").string() + " to 8") !=
          std::string::npos);
    CHECK(changed.message.find("\n  8 " + now + "\n") != std::string::npos);
    CHECK(changed.message.find("'print-it'") != std::string::npos);

    // After the bump the printed line is the one that passes: the version number is not hashed.
    tree.write("dpbo/abi.hpp", "namespace dpbo { inline constexpr unsigned kAbiVersion = 8; }\n");
    CHECK(fingerprint_headers(tree.root) == now);
    const auto unrecorded = check_fingerprint(tree.root, tree.root / "fingerprints.txt", "print-it");
    CHECK_FALSE(unrecorded.ok);
    CHECK(unrecorded.message.find("no fingerprint for kAbiVersion 8") != std::string::npos);
    tree.write("fingerprints.txt", "6 " + std::string(64, 'a') + "\n7 " + fingerprint + "\n8 " + now + "\n");
    CHECK(check_fingerprint(tree.root, tree.root / "fingerprints.txt", "print-it").ok);

    // A new header, or a renamed one, is a change too.
    tree.write("dpbo/extra.hpp", "");
    CHECK_FALSE(check_fingerprint(tree.root, tree.root / "fingerprints.txt", "print-it").ok);
}

TEST_CASE("abi fingerprint: a version that goes back and malformed lines are refused, naming the line") {
    ScratchTree tree("refusals");
    tree.write("fingerprints.txt", "8 " + std::string(64, 'b') + "\n");
    const auto back = check_fingerprint(tree.root, tree.root / "fingerprints.txt", "print-it");
    CHECK_FALSE(back.ok);
    CHECK(back.message.find("records ABI version 8") != std::string::npos);
    CHECK(back.message.find("kAbiVersion = 7") != std::string::npos);

    tree.write("fingerprints.txt", "\n7 " + std::string(63, 'b') + "\n");
    CHECK_THROWS_WITH_AS(read_fingerprint_file(tree.root / "fingerprints.txt"),
                         doctest::Contains("fingerprints.txt:2: '7 bbb"), std::runtime_error);
    tree.write("fingerprints.txt", "7 " + std::string(64, 'b') + "\n6 " + std::string(64, 'c') + "\n");
    CHECK_THROWS_WITH_AS(read_fingerprint_file(tree.root / "fingerprints.txt"),
                         doctest::Contains("fingerprints.txt:2: version 6 follows version 7"), std::runtime_error);
    tree.write("dpbo/abi.hpp", "// kAbiVersion = 3; only in a comment\n");
    CHECK_THROWS_WITH_AS(dpbo::abi_guard::read_abi_version(tree.root / "dpbo" / "abi.hpp"),
                         doctest::Contains("defines no 'kAbiVersion = N;'"), std::runtime_error);
}

TEST_CASE("abi fingerprint: a toolkit's headers carry their own version constant") {
    ScratchTree tree("toolkit");
    fs::create_directories(tree.root / "dpbo" / "bo");
    tree.write("dpbo/bo/version.hpp", "namespace dpbo::bo { inline constexpr unsigned kBoVersion = 2; }\n");
    const dpbo::abi_guard::VersionSpec toolkit{"dpbo/bo/version.hpp", "kBoVersion"};
    const std::string fingerprint = fingerprint_headers(tree.root, toolkit.name);
    tree.write("bo_fingerprints.txt", "2 " + fingerprint + "\n");
    CHECK(check_fingerprint(tree.root, tree.root / "bo_fingerprints.txt", "print-it", toolkit).ok);
    // The toolkit's number is left out of its fingerprint, as kAbiVersion's is of the contract's.
    tree.write("dpbo/bo/version.hpp", "namespace dpbo::bo { inline constexpr unsigned kBoVersion = 3; }\n");
    CHECK(fingerprint_headers(tree.root, toolkit.name) == fingerprint);
    tree.write("dpbo/bo/version.hpp", "namespace dpbo::bo { inline constexpr unsigned kBoVersion = 2; }\n");
    tree.write("dpbo/gp/model.hpp", "struct Model { double mean; double variance; };\n");
    const auto changed = check_fingerprint(tree.root, tree.root / "bo_fingerprints.txt", "print-it", toolkit);
    CHECK_FALSE(changed.ok);
    CHECK(changed.message.find("Bump kBoVersion in") != std::string::npos);
    // A header without the named constant is refused by name.
    CHECK_THROWS_WITH_AS(dpbo::abi_guard::read_abi_version(tree.root / "dpbo" / "abi.hpp", "kBoVersion"),
                         doctest::Contains("defines no 'kBoVersion = N;'"), std::runtime_error);
}
