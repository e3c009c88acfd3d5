// dpbo_abi_fingerprint [--version HEADER NAME] INCLUDE_ROOT
//     prints the line `VERSION SHA256` for the headers under INCLUDE_ROOT/dpbo (the form
//     tests/abi/abi_fingerprints.txt records);
// dpbo_abi_fingerprint [--version HEADER NAME] --check FINGERPRINT_FILE INCLUDE_ROOT
//     exits 0 when the headers match the line recorded for their version, 1 (with what to do)
//     when they do not, 2 on bad input.
// --version names where the headers state their version: HEADER relative to INCLUDE_ROOT and the
// constant NAME; by default dpbo/abi.hpp and kAbiVersion (the plugin contract). The BO toolkit's
// headers use --version dpbo/bo/version.hpp kBoVersion.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "header_fingerprint.hpp"

namespace {

int usage() {
    std::fputs(
        "usage: dpbo_abi_fingerprint [--version HEADER NAME] INCLUDE_ROOT\n"
        "       dpbo_abi_fingerprint [--version HEADER NAME] --check FINGERPRINT_FILE INCLUDE_ROOT\n"
        "INCLUDE_ROOT is the directory that holds dpbo/ (core/contract/include in the source tree);\n"
        "HEADER NAME: where the version is stated (default: dpbo/abi.hpp kAbiVersion)\n",
        stderr);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace dpbo::abi_guard;
    try {
        std::vector<std::string> args(argv + 1, argv + argc);
        VersionSpec spec;
        std::string version_option;
        if (args.size() >= 3 && args[0] == "--version") {
            spec.header = args[1];
            spec.name = args[2];
            version_option = fmt::format("--version {} {} ", args[1], args[2]);
            args.erase(args.begin(), args.begin() + 3);
        }
        if (args.size() == 1 && args[0] != "--check") {
            const std::filesystem::path root = args[0];
            fmt::print("{} {}\n", read_abi_version(root / spec.header, spec.name),
                       fingerprint_headers(root, spec.name));
            return 0;
        }
        if (args.size() == 3 && args[0] == "--check") {
            const std::string print_command = fmt::format("{} {}{}", argv[0], version_option, args[2]);
            const FingerprintVerdict verdict = check_fingerprint(args[2], args[1], print_command, spec);
            fmt::print(verdict.ok ? stdout : stderr, "{}\n", verdict.message);
            return verdict.ok ? 0 : 1;
        }
        return usage();
    } catch (const std::exception& e) {
        fmt::print(stderr, "dpbo_abi_fingerprint: {}\n", e.what());
        return 2;
    }
}
