// A Study kept open keeps its algorithm alive between asks (dpbo/host/study.hpp): the same trials and
// the same result as a new Study per call (which replays the file each time, as the CLI does), and
// an open Study closed while its run waits, or the file told by another Study meanwhile, loses nothing.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <memory>

#include "dpbo/host/study.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;

double branin(const arma::rowvec& x) {
    const double pi = 3.14159265358979323846;
    const double b = 5.1 / (4 * pi * pi), c = 5 / pi, t = 1 / (8 * pi);
    const double u = x(1) - b * x(0) * x(0) + c * x(0) - 6;
    return u * u + 10 * (1 - t) * std::cos(x(0)) + 10;
}

dpbo::JobSpec gp_ucb_job() {
    dpbo::JobSpec job;
    job.algorithm = {"gp-ucb", {{"budget", "14"}, {"initial_points", "4"}}};
    job.objective = {"branin", {}};
    job.seed = 11;
    return job;
}

// Every trial told at once, by a study opened for each call (open_each) or kept open.
nlohmann::ordered_json finish(const fs::path& file, bool open_each) {
    std::unique_ptr<dpbo::Study> kept;
    for (;;) {
        std::unique_ptr<dpbo::Study> fresh;
        if (open_each || !kept)
            (open_each ? fresh : kept) = std::make_unique<dpbo::Study>(dpbo::test::registry(), file);
        dpbo::Study& study = open_each ? *fresh : *kept;
        const dpbo::StudyState state = study.ask(8);
        if (state.finished) return state.result;
        REQUIRE_FALSE(state.handed.empty());
        for (const dpbo::StoredTrial& trial : state.handed)
            study.tell(trial.id, {arma::rowvec{branin(trial.point)}, {}, {}, {}});
    }
}

}  // namespace

TEST_CASE("study: a study kept open gives the trials and result of a replay per call") {
    const dpbo::test::TemporaryDirectory folder;
    const fs::path replayed = fs::path(folder.path()) / "replayed.db", kept = fs::path(folder.path()) / "kept.db";
    dpbo::Study::create(dpbo::test::registry(), replayed, gp_ucb_job());
    dpbo::Study::create(dpbo::test::registry(), kept, gp_ucb_job());
    const auto by_replay = finish(replayed, true);
    const auto kept_open = finish(kept, false);
    CHECK(kept_open.at("released") == by_replay.at("released"));
    CHECK(kept_open.at("evaluations") == by_replay.at("evaluations"));
    const auto points = [](const fs::path& file) {
        std::vector<std::vector<double>> out;
        for (const auto& trial : dpbo::Study(dpbo::test::registry(), file).trials())
            out.emplace_back(trial.point.begin(), trial.point.end());
        return out;
    };
    CHECK(points(kept) == points(replayed));
}

TEST_CASE("study: a kept run goes on from values another client told, and closes cleanly while it waits") {
    const dpbo::test::TemporaryDirectory folder;
    const fs::path file = fs::path(folder.path()) / "shared.db";
    dpbo::Study::create(dpbo::test::registry(), file, gp_ucb_job());
    auto kept = std::make_unique<dpbo::Study>(dpbo::test::registry(), file);
    dpbo::StudyState state = kept->ask(8);
    REQUIRE(state.handed.size() == 4);  // the design
    {
        // Another client (its own Study on the file) tells the whole design.
        dpbo::Study other(dpbo::test::registry(), file);
        for (const dpbo::StoredTrial& trial : state.handed)
            other.tell(trial.id, {arma::rowvec{branin(trial.point)}, {}, {}, {}});
    }
    state = kept->ask(1);  // the kept run reads the file again: the design is told
    REQUIRE(state.handed.size() == 1);
    CHECK(state.handed.front().batch == 1);
    kept.reset();  // closed while its run waits for trial 5: the thread ends, nothing is lost
    dpbo::Study reopened(dpbo::test::registry(), file);
    const dpbo::StudyState again = reopened.ask(1);
    CHECK(again.handed.empty());
    REQUIRE(again.waiting_for.size() == 1);
    CHECK(again.waiting_for.front() == state.handed.front().id);
}
