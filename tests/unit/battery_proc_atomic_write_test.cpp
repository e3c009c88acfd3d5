// Issue 29's battery: temporary files are created already unlinked or removed on every exit path,
// atomic-write temporaries included. write_file_atomically writes into a file without a name and
// names it only to rename it over the target, so a process killed at any moment while writing
// leaves the old file or the complete new one, and no temporary beside it.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "dpbo/host/result_io.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<std::string> names_in(const fs::path& folder) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
    return names;
}

}  // namespace

TEST_CASE("battery proc: a process killed while writing a file atomically leaves no temporary") {
    dpbo::test::TemporaryDirectory dir;
    const fs::path folder = dir.path();
    const fs::path target = folder / "result.json";
    // Large enough that writing and flushing it takes tens of milliseconds: kills land mid-write.
    constexpr std::size_t kBytes = 48u << 20;
    std::ofstream(target) << "old\n";
    for (const int milliseconds : {1, 5, 15, 40, 80, 160}) {
        CAPTURE(milliseconds);
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            dpbo::write_file_atomically(target, std::string(kBytes, 'x'));
            ::_exit(0);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
        ::kill(child, SIGKILL);
        ::waitpid(child, nullptr, 0);
        CHECK(names_in(folder) == std::vector<std::string>{"result.json"});
        const auto size = fs::file_size(target);
        CHECK((size == 4 || size == kBytes));
    }
    // Uninterrupted: the content, and nothing else.
    dpbo::write_file_atomically(target, "new\n");
    CHECK(names_in(folder) == std::vector<std::string>{"result.json"});
    std::ifstream in(target);
    std::string line;
    std::getline(in, line);
    CHECK(line == "new");
    CHECK((fs::status(target).permissions() & fs::perms::all) ==
          (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read));
}
