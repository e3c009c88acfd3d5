// dpbo_abi_fingerprint INCLUDE_ROOT
//     prints the line `VERSION SHA256` for the headers under INCLUDE_ROOT/dpbo (the form
//     tests/abi/abi_fingerprints.txt records);
// dpbo_abi_fingerprint --check FINGERPRINT_FILE INCLUDE_ROOT
//     exits 0 when the headers match the line recorded for their kAbiVersion, 1 (with what to do)
//     when they do not, 2 on bad input.
#include <cstdio>
#include <exception>
#include <string>

#include <fmt/format.h>

#include "header_fingerprint.hpp"

namespace {

int usage() {
    std::fputs("usage: dpbo_abi_fingerprint INCLUDE_ROOT\n"
               "       dpbo_abi_fingerprint --check FINGERPRINT_FILE INCLUDE_ROOT\n"
               "INCLUDE_ROOT is the directory that holds dpbo/ (core/include in the source tree)\n",
               stderr);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace dpbo::abi_guard;
    try {
        if (argc == 2 && std::string(argv[1]) != "--check") {
            const std::filesystem::path root = argv[1];
            fmt::print("{} {}\n", read_abi_version(root / "dpbo" / "abi.hpp"), fingerprint_headers(root));
            return 0;
        }
        if (argc == 4 && std::string(argv[1]) == "--check") {
            const std::string print_command = fmt::format("{} {}", argv[0], argv[3]);
            const FingerprintVerdict verdict = check_fingerprint(argv[3], argv[2], print_command);
            fmt::print(verdict.ok ? stdout : stderr, "{}\n", verdict.message);
            return verdict.ok ? 0 : 1;
        }
        return usage();
    } catch (const std::exception& e) {
        fmt::print(stderr, "dpbo_abi_fingerprint: {}\n", e.what());
        return 2;
    }
}
