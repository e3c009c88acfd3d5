// The hostile-input battery over the command line, parameters, config files and data files: one row
// per case of issue 11's "hangs and unbounded work", "silent defaults" and "messages that name
// nothing" (and other members of each class). Each row runs `dpbo` and asserts the exit code and that
// stderr names the offending option, key, value or file. DPBO_TEST_EXECUTABLE runs the battery
// against another build (e.g. the previous release) to see which rows it fails.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using dpbo::test::TemporaryDirectory;

struct Row {
    const char* name;
    std::vector<std::string> arguments;  // "{dir}" is replaced by the row's temporary folder
    int exit_code;
    std::vector<std::string> named;  // each must appear in stderr
    std::map<std::string, std::string> environment = {};
    std::function<void(const fs::path&)> setup = {};
};

void write(const fs::path& file, const std::string& content) {
    std::ofstream out(file, std::ios::binary);
    out << content;
}

// The CT-slice table's header and one row whose reference (the target) is `target`.
std::string ct_slice_table(const std::string& target) {
    std::string header = "patientId", row = "0";
    for (int i = 0; i < 384; ++i) {
        header += ",value" + std::to_string(i);
        row += ",0.5";
    }
    return header + ",reference\n" + row + "," + target + "\n";
}

const std::vector<std::string> kQuadratic = {"run",       "--algorithm", "random-search", "--objective",
                                             "quadratic", "--out",       "{dir}/out"};

std::vector<std::string> quadratic_with(std::vector<std::string> extra) {
    std::vector<std::string> arguments = kQuadratic;
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
}

const std::vector<Row>& rows() {
    static const std::vector<Row> table = {
        // Negative counts never wrap; blanks are not digits.
        {"--repeat -1", quadratic_with({"--repeat", "-1"}), 2, {"--repeat", "'-1'"}},
        {"repeat = -1 in a config",
         quadratic_with({"--config", "{dir}/job.ini"}),
         2,
         {"job.ini", "'repeat'", "-1"},
         {},
         [](const fs::path& dir) { write(dir / "job.ini", "repeat = -1\n"); }},
        {"--seed ' -5'", quadratic_with({"--seed", " -5"}), 2, {"--seed", "' -5'"}},
        {"--seed '+5'", quadratic_with({"--seed", "+5"}), 2, {"--seed", "'+5'"}},
        {"--runs -1 (audit)", {"audit", "--mechanism", "laplace", "--runs", "-1"}, 2, {"--runs", "-1"}},
        // Values given empty are refused, not read as "not given".
        {"--seed ''", quadratic_with({"--seed", ""}), 2, {"--seed", "''"}},
        {"seed = (empty) in a config",
         quadratic_with({"--config", "{dir}/job.ini"}),
         2,
         {"job.ini", "'seed'"},
         {},
         [](const fs::path& dir) { write(dir / "job.ini", "seed =\n"); }},
        {"--seed '' (audit)", {"audit", "--mechanism", "laplace", "--seed", ""}, 2, {"--seed", "''"}},
        {"--runs '' (audit)", {"audit", "--mechanism", "laplace", "--runs", ""}, 2, {"--runs", "''"}},
        {"--out ''", {"run", "--algorithm", "random-search", "--objective", "quadratic", "--out", ""}, 2, {"--out"}},
        {"--budget ''", quadratic_with({"--budget", ""}), 2, {"--budget"}},
        {"--config ''", quadratic_with({"--config", ""}), 2, {"--config"}},
        {"--config naming a folder", quadratic_with({"--config", "{dir}"}), 2, {"--config", "it is a directory"}},
        {"a binary --config",
         quadratic_with({"--config", "{dir}/binary.ini"}),
         2,
         {"binary.ini", "not a text file", "byte 2"},
         {},
         [](const fs::path& dir) { write(dir / "binary.ini", std::string("a=\xff\xfe\x01\x02 raw", 10)); }},
        {"--config /dev/zero",
         quadratic_with({"--config", "/dev/zero"}),
         2,
         {"/dev/zero", "not a regular file", "character device"}},
        {"a trailing comma in a list",
         quadratic_with({"--set", "objective.centre=0.1,0.2,"}),
         2,
         {"'centre'", "0.1,0.2,", "empty entry 3"}},
        {"an empty entry inside a list",
         quadratic_with({"--set", "objective.centre=0.1,,0.2"}),
         2,
         {"'centre'", "empty entry 2"}},
        {"a trailing comma in an --event", {"account", "--event", "gdp:mu=2,"}, 2, {"gdp:mu=2,", "empty"}},
        {"DPBO_BLAS_THREADS=abc",
         {"account", "--mu", "1"},
         2,
         {"DPBO_BLAS_THREADS", "'abc'"},
         {{"DPBO_BLAS_THREADS", "abc"}}},
        {"DPBO_BLAS_THREADS=-5",
         {"account", "--mu", "1"},
         2,
         {"DPBO_BLAS_THREADS", "'-5'"},
         {{"DPBO_BLAS_THREADS", "-5"}}},
        {"dp-gibo beta1 under AdaGrad",
         {"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set", "algorithm.beta1=0.5", "--out",
          "{dir}/out"},
         2,
         {"beta1", "adagrad"}},
        {"dp-gibo optimizer_epsilon under plain steps",
         {"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set", "algorithm.optimizer=plain",
          "--set", "algorithm.optimizer_epsilon=0.1", "--out", "{dir}/out"},
         2,
         {"optimizer_epsilon", "plain"}},
        {"summary of a result.json that is {}",
         {"summary", "{dir}"},
         2,
         {"result.json", "/job/algorithm/name"},
         {},
         [](const fs::path& dir) { write(dir / "result.json", "{}\n"); }},
        {"summary of a result.json with a number for a name",
         {"summary", "{dir}"},
         2,
         {"result.json", "/job/algorithm/name", "number"},
         {},
         [](const fs::path& dir) { write(dir / "result.json", R"({"job":{"algorithm":{"name":3}}})"); }},
        // Denormals are finite numbers (documented); a value past the largest double is not.
        {"--mu 1e-320 (a denormal)", {"account", "--mu", "1e-320"}, 0, {}},
        {"--event gdp:mu=1e-320", {"account", "--event", "gdp:mu=1e-320"}, 0, {}},
        {"--mu 1e400", {"account", "--mu", "1e400"}, 2, {"--mu", "1e400"}},
        {"bounds of ±1e308",
         quadratic_with({"--set", "objective.lower=-1e308", "--set", "objective.upper=1e308"}),
         2,
         {"lower", "upper", "1e+308"}},
        // Sizes beyond the machine's memory are refused up front, naming the key, value and estimate.
        {"objective.dim=1000000000",
         quadratic_with({"--set", "objective.dim=1000000000"}),
         2,
         {"dim = 1000000000", "GiB", "of memory"}},
        {"algorithm.budget=8000000000000000",
         quadratic_with({"--set", "algorithm.budget=8000000000000000"}),
         2,
         {"budget = 8000000000000000", "GiB"}},
        {"gp-ucb budget=10000000",
         {"run", "--algorithm", "gp-ucb", "--objective", "branin", "--set", "algorithm.budget=10000000", "--out",
          "{dir}/out"},
         2,
         {"budget = 10000000", "GiB"}},
        {"dp-gibo iterations=10^15",
         {"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set",
          "algorithm.iterations=1000000000000000", "--out", "{dir}/out"},
         2,
         {"iterations = 1000000000000000", "GiB"}},
        {"normal-location records=10^11",
         {"run", "--algorithm", "random-search", "--objective", "normal-location", "--set",
          "objective.records=100000000000", "--out", "{dir}/out"},
         2,
         {"records = 100000000000", "GiB"}},
        {"--repeat 10^11", quadratic_with({"--repeat", "100000000000"}), 2, {"--repeat 100000000000", "GiB"}},
        {"synthetic-gp dim=10^9",
         {"run", "--algorithm", "random-search", "--objective", "synthetic-gp", "--set", "objective.dim=1000000000",
          "--out", "{dir}/out"},
         2,
         {"objective 'synthetic-gp'", "dim = 1000000000 with support_points", "GiB"}},
        {"gp-lengthscales dim=10^8",
         {"run", "--algorithm", "random-search", "--objective", "gp-lengthscales", "--set", "objective.dim=100000000",
          "--out", "{dir}/out"},
         2,
         {"objective 'gp-lengthscales'", "dim = 100000000 with records = 2000", "GiB"}},
        // Data readers: regular files only, bounded lines, values the scaling can hold.
        {"objective.data_file=/dev/zero",
         {"run", "--algorithm", "random-search", "--objective", "svr-tuning", "--set", "objective.data_file=/dev/zero",
          "--out", "{dir}/out"},
         2,
         {"data_file", "/dev/zero", "not a regular file"}},
        {"a data file of one 2 MiB line",
         {"run", "--algorithm", "random-search", "--objective", "svr-tuning", "--set",
          "objective.data_file={dir}/long.csv", "--out", "{dir}/out"},
         2,
         {"long.csv", "line 1", "longer than"},
         {},
         [](const fs::path& dir) { write(dir / "long.csv", std::string(2 << 20, '7')); }},
        {"svr-tuning targets of 1e300",
         {"run", "--algorithm", "random-search", "--objective", "svr-tuning", "--set",
          "objective.data_file={dir}/huge.csv", "--out", "{dir}/out"},
         1,
         {"huge.csv", "line 2", "reference", "1e300"},
         {},
         [](const fs::path& dir) { write(dir / "huge.csv", ct_slice_table("1e300")); }},
        {"svr-tuning targets of -1e300",
         {"run", "--algorithm", "random-search", "--objective", "svr-tuning", "--set",
          "objective.data_file={dir}/huge.csv", "--out", "{dir}/out"},
         1,
         {"huge.csv", "reference", "-1e300"},
         {},
         [](const fs::path& dir) { write(dir / "huge.csv", ct_slice_table("-1e300")); }},
        // Output folders that cannot be dpbo's.
        {"a dangling --out symlink",
         {"run", "--algorithm", "random-search", "--objective", "quadratic", "--out", "{dir}/link"},
         2,
         {"link", "symbolic link", "does not exist"},
         {},
         [](const fs::path& dir) { fs::create_symlink(dir / "nowhere" / "x", dir / "link"); }},
        {"--out naming a file",
         {"run", "--algorithm", "random-search", "--objective", "quadratic", "--out", "{dir}/file"},
         2,
         {"file", "not a folder"},
         {},
         [](const fs::path& dir) { write(dir / "file", "mine\n"); }},
    };
    return table;
}

std::string substituted(const std::string& text, const std::string& dir) {
    std::string out = text;
    for (auto at = out.find("{dir}"); at != std::string::npos; at = out.find("{dir}", at + dir.size()))
        out.replace(at, 5, dir);
    return out;
}

// stderr holds only text: no control bytes other than newlines and tabs, no invalid UTF-8 lead bytes.
bool printable(const std::string& text) {
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7f || byte == 0xff || byte == 0xfe) return false;
    }
    return true;
}

dpbo::test::CommandResult run(const std::vector<std::string>& arguments,
                              const std::map<std::string, std::string>& environment) {
    if (const char* other = std::getenv("DPBO_TEST_EXECUTABLE"); other != nullptr && *other != '\0')
        return dpbo::test::run_program(other, arguments, environment, 20);
    return dpbo::test::run_dpbo(arguments, environment, 20);
}

}  // namespace

TEST_CASE("fuzz inputs: each hostile input ends in a clear error naming what is wrong, or in documented behaviour") {
    for (const Row& row : rows()) {
        const std::string name = row.name;
        CAPTURE(name);
        TemporaryDirectory dir;
        if (row.setup) row.setup(dir.path());
        std::vector<std::string> arguments;
        for (const auto& argument : row.arguments) arguments.push_back(substituted(argument, dir.path()));
        dpbo::test::CommandResult result;
        try {
            result = run(arguments, row.environment);
        } catch (const std::exception& e) {
            // A hang: the row fails, the battery goes on.
            FAIL_CHECK(e.what());
            continue;
        }
        CAPTURE(result.err);
        CHECK(result.exit_code == row.exit_code);
        for (const auto& part : row.named)
            CHECK_MESSAGE(result.err.find(substituted(part, dir.path())) != std::string::npos, part);
        CHECK(printable(result.err));
        // Nothing crashed or fell through to the catch-all for unexpected exceptions.
        CHECK(result.err.find("failed: std::") == std::string::npos);
    }
}
