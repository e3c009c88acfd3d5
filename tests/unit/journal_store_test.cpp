// The run journal's storage and its checks: values come back with their exact bits (after the file is
// closed and opened again), a run that asks for other points or other releases than its journal
// recorded is refused naming the file, a journal of another job, kind or format or a file that is not
// SQLite is refused as such, and a ledger given the journal of an earlier run takes its releases back
// — charged again, against the budget too — without drawing their noise.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/journal_store.hpp"
#include "dpbo/host/repeat_journal.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using dpbo::EvaluationRequest;
using dpbo::Evaluations;
using dpbo::RepeatJournal;

bool same_bits(const arma::mat& a, const arma::mat& b) {
    return a.n_rows == b.n_rows && a.n_cols == b.n_cols &&
           (a.is_empty() || std::memcmp(a.memptr(), b.memptr(), a.n_elem * sizeof(double)) == 0);
}

// Values whose bits a decimal or a careless copy would change: a value with no exact binary form,
// negative zero, tiny normals and subnormals, the extremes.
arma::mat awkward(std::size_t rows, std::size_t cols, double shift) {
    const std::vector<double> pool = {0.1,
                                      -0.0,
                                      1e-300,
                                      std::numeric_limits<double>::denorm_min(),
                                      -std::numeric_limits<double>::denorm_min() * 12345.0,
                                      std::numeric_limits<double>::min() / 3.0,
                                      std::numeric_limits<double>::max(),
                                      -std::numeric_limits<double>::lowest() / 7.0,
                                      1.0 / 3.0,
                                      std::nextafter(1.0, 2.0)};
    arma::mat out(rows, cols);
    for (std::size_t i = 0; i < out.n_elem; ++i) out(i) = pool[(i + static_cast<std::size_t>(shift)) % pool.size()];
    return out;
}

Evaluations evaluations(std::size_t points, std::size_t dim, std::size_t records) {
    Evaluations e;
    e.points = awkward(points, dim, 0);
    e.values = awkward(points, 1, 3);
    e.per_record = awkward(points, records, 5);
    e.auxiliary = awkward(points, 2, 7);
    e.candidate_rows = arma::regspace<arma::uvec>(points + 10, 1, 2 * points + 9);
    return e;
}

// doctest's matcher of a message that holds `part`.
doctest::Contains holds(const std::string& part) { return doctest::Contains(part.c_str()); }

dpbo::PrivacyEvent gdp(double mu, std::string what) { return {dpbo::GdpEvent{mu}, 1, std::move(what)}; }

const std::string kJob = R"({"algorithm":{"name":"test"},"seed":3})";

class ScratchFile {
public:
    ScratchFile() : path_(fs::path(dir_.path()) / "journal.sqlite") {}
    const fs::path& path() const { return path_; }

private:
    dpbo::test::TemporaryDirectory dir_;
    fs::path path_;
};

}  // namespace

TEST_CASE("journal store: batches, trials and releases keep their exact bits across closing and opening") {
    ScratchFile file;
    const Evaluations recorded = evaluations(3, 2, 4);
    const arma::vec released = awkward(5, 1, 2);
    const arma::mat figure = awkward(3, 2, 4);
    {
        auto store = dpbo::JournalStore::create(file.path(), "run", {{"job", kJob}, {"note", "é ✓"}});
        dpbo::JournalStore::Transaction transaction(*store);
        store->add_evaluated_batch(0, recorded, true);
        transaction.commit();
        // A study's batch: waiting trials, then told one by one.
        dpbo::JournalStore::Transaction study(*store);
        store->add_batch(1, recorded.points, true);
        study.commit();
        for (const dpbo::StoredTrial& trial : store->trials_of(1))
            store->mark_done(trial.id, recorded.values.row(trial.position), recorded.per_record.row(trial.position),
                             recorded.auxiliary.row(trial.position));
        store->add_release(0, {"gdp (mu = 0.5): first", released, {{"figure", "a figure", figure}}});
    }
    auto store = dpbo::JournalStore::open(file.path(), "run");
    CHECK(store->meta("job") == kJob);
    CHECK(store->meta("note") == "é ✓");
    CHECK(store->meta("kind") == "run");
    CHECK(store->meta("format") == dpbo::JournalStore::kFormat);
    CHECK_FALSE(store->find_meta("absent"));
    CHECK_THROWS_WITH_AS(store->meta("absent"), doctest::Contains("lacks its 'absent' record"), dpbo::ValidationError);

    REQUIRE(store->batch_count() == 2);
    const auto evaluated = store->evaluated_batch(0);
    REQUIRE(evaluated);
    CHECK(evaluated->per_record);
    CHECK(evaluated->size == 3);
    CHECK(evaluated->points_digest == dpbo::JournalStore::points_digest(recorded.points));
    CHECK(same_bits(evaluated->values, recorded.values));
    CHECK(same_bits(evaluated->per_record_values, recorded.per_record));
    CHECK(same_bits(evaluated->auxiliary, recorded.auxiliary));
    CHECK(arma::all(evaluated->candidate_rows == recorded.candidate_rows));
    CHECK(store->trials_of(0).empty());  // a run's batch is one row, not a trial per point
    CHECK_FALSE(store->evaluated_batch(2));
    // A study's batch is no run's.
    CHECK_THROWS_WITH_AS(store->evaluated_batch(1), doctest::Contains("batch 2 of"), dpbo::RunError);

    const auto batch = store->batch(1);
    REQUIRE(batch);
    CHECK(batch->per_record);
    CHECK(same_bits(batch->points, recorded.points));
    CHECK_FALSE(store->batch(2));
    const auto trials = store->trials_of(1);
    REQUIRE(trials.size() == 3);
    for (std::size_t i = 0; i < trials.size(); ++i) {
        CAPTURE(i);
        CHECK(trials[i].state == dpbo::TrialState::Done);
        CHECK(trials[i].position == i);
        CHECK(same_bits(trials[i].point, recorded.points.row(i)));
        CHECK(same_bits(trials[i].values, recorded.values.row(i)));
        CHECK(same_bits(trials[i].per_record, recorded.per_record.row(i)));
        CHECK(same_bits(trials[i].auxiliary, recorded.auxiliary.row(i)));
    }

    REQUIRE(store->release_count() == 1);
    const auto release = store->release(0);
    REQUIRE(release);
    CHECK(release->event == "gdp (mu = 0.5): first");
    CHECK(same_bits(release->released, released));
    REQUIRE(release->evaluation_only.size() == 1);
    CHECK(release->evaluation_only[0].name == "figure");
    CHECK(release->evaluation_only[0].description == "a figure");
    CHECK(same_bits(release->evaluation_only[0].value, figure));
    CHECK_FALSE(store->release(1));
    // An entry is recorded once: the same entry again is an error, never a second copy.
    CHECK_THROWS_AS(store->add_release(0, {"gdp (mu = 0.5): again", released, {}}), dpbo::RunError);
    CHECK(store->release_count() == 1);
}

TEST_CASE("journal store: a change is rolled back unless committed") {
    ScratchFile file;
    auto store = dpbo::JournalStore::create(file.path(), "run", {});
    {
        dpbo::JournalStore::Transaction transaction(*store);
        store->add_evaluated_batch(0, evaluations(2, 2, 3), true);
    }
    CHECK(store->batch_count() == 0);
    CHECK(store->trials().empty());
}

TEST_CASE("journal store: refuses to create over a file, and opens only a dpbo journal of its kind and format") {
    ScratchFile file;
    dpbo::JournalStore::create(file.path(), "study", {});
    CHECK_THROWS_WITH_AS(dpbo::JournalStore::create(file.path(), "study", {}),
                         holds(fmt::format("'{}' exists already", file.path().string())), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::JournalStore::open(file.path(), "run"),
                         holds(fmt::format("'{}' is a dpbo study file; expected a run file", file.path().string())),
                         dpbo::ValidationError);
    const fs::path missing = file.path().parent_path() / "missing.sqlite";
    CHECK_THROWS_WITH_AS(dpbo::JournalStore::open(missing, "run"),
                         holds(fmt::format("'{}' is not a file", missing.string())), dpbo::ValidationError);

    // Not SQLite at all, or an SQLite file of something else: no dpbo journal.
    const fs::path text = file.path().parent_path() / "text.sqlite";
    std::ofstream(text) << "SQLite format 3? no: a text file long enough to fill a database header's first bytes\n";
    CHECK_THROWS_WITH_AS(dpbo::JournalStore::open(text, "run"),
                         holds(fmt::format("'{}' is not a dpbo run file", text.string())), dpbo::ValidationError);
    const fs::path empty = file.path().parent_path() / "empty.sqlite";
    std::ofstream{empty};
    CHECK_THROWS_WITH_AS(dpbo::JournalStore::open(empty, "run"),
                         holds(fmt::format("'{}' is not a dpbo run file", empty.string())), dpbo::ValidationError);

    // A removed journal's write-ahead log left beside the name would be taken as the new file's own.
    const fs::path removed = file.path().parent_path() / "removed.sqlite";
    const fs::path log = removed.string() + "-wal";
    std::ofstream(log) << "a write-ahead log of another journal";
    CHECK_THROWS_WITH_AS(
        dpbo::JournalStore::create(removed, "study", {}),
        holds(fmt::format("'{}' exists beside '{}': a removed journal's SQLite file", log.string(), removed.string())),
        dpbo::ValidationError);
    CHECK_FALSE(fs::exists(removed));
}

TEST_CASE("repeat journal: resumes with the seed it recorded, and refuses another job, repeat or a damaged file") {
    ScratchFile file;
    const EvaluationRequest request{true, nullptr};
    const Evaluations recorded = evaluations(3, 2, 4);
    {
        RepeatJournal journal(file.path(), kJob, 1, 77);
        CHECK_FALSE(journal.resumed());
        CHECK(journal.experiment_seed() == 77);
        CHECK_FALSE(journal.recorded_batch(0, recorded.points, request));
        journal.record_batch(0, recorded, request);
        journal.record_release(0, {gdp(0.5, "first").describe(), {1.0, -0.0}, {}});
    }
    {
        // A run without --seed draws another experiment seed; the journal's is the repeat's.
        RepeatJournal journal(file.path(), kJob, 1, 12345);
        CHECK(journal.resumed());
        CHECK(journal.experiment_seed() == 77);
        CHECK(journal.recorded_batches() == 1);
        CHECK(journal.recorded_releases() == 1);
        const auto batch = journal.recorded_batch(0, recorded.points, request);
        REQUIRE(batch);
        CHECK(same_bits(batch->values, recorded.values));
        CHECK(same_bits(batch->per_record, recorded.per_record));
        CHECK(same_bits(batch->auxiliary, recorded.auxiliary));
        CHECK(arma::all(batch->candidate_rows == recorded.candidate_rows));
        CHECK_FALSE(journal.recorded_batch(1, recorded.points, request));
        CHECK_FALSE(journal.diverged());
    }
    const std::string another =
        fmt::format("'{}' is the journal of another job or repeat; remove it to run this one", file.path().string());
    CHECK_THROWS_WITH_AS(RepeatJournal(file.path(), R"({"algorithm":{"name":"test"},"seed":4})", 1, 77), holds(another),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(RepeatJournal(file.path(), kJob, 2, 77), holds(another), dpbo::ValidationError);

    dpbo::remove_journal_files(file.path());
    std::ofstream(file.path()) << std::string(4096, 'x');
    CHECK_THROWS_WITH_AS(RepeatJournal(file.path(), kJob, 1, 77),
                         holds(fmt::format("'{}' is not a dpbo run file", file.path().string())),
                         dpbo::ValidationError);
}

TEST_CASE("repeat journal: a run that asks for other points or another release belongs to another run") {
    ScratchFile file;
    const EvaluationRequest request{true, nullptr};
    const Evaluations recorded = evaluations(3, 2, 4);
    {
        RepeatJournal first(file.path(), kJob, 1, 77);
        first.record_batch(0, recorded, request);
        first.record_batch(1, evaluations(2, 2, 4), EvaluationRequest{false, nullptr});
        first.record_release(0, {gdp(0.5, "gradient at step 1").describe(), {0.25, 0.5}, {}});
    }
    // The run resumed: the journal replays what the killed run recorded.
    RepeatJournal journal(file.path(), kJob, 1, 77);
    const std::string not_this_run = fmt::format("'{}' belongs to another run", file.path().string());

    SUBCASE("one bit of one coordinate") {
        arma::mat moved = recorded.points;
        moved(1, 1) = std::nextafter(moved(1, 1), 1.0);
        CHECK_THROWS_WITH_AS(journal.recorded_batch(0, moved, request),
                             doctest::Contains("batch 1 at 3 point(s) other than the 3 its journal recorded"),
                             dpbo::RunError);
        CHECK(journal.diverged());
    }
    SUBCASE("negative zero for zero") {
        arma::mat signed_zero = recorded.points;
        REQUIRE(std::signbit(signed_zero(1, 0)));  // awkward()'s −0.0
        signed_zero(1, 0) = 0.0;
        CHECK_THROWS_WITH_AS(journal.recorded_batch(0, signed_zero, request), holds(not_this_run), dpbo::RunError);
    }
    SUBCASE("fewer points") {
        CHECK_THROWS_WITH_AS(journal.recorded_batch(0, recorded.points.head_rows(2), request), holds(not_this_run),
                             dpbo::RunError);
    }
    SUBCASE("per-record values of a batch recorded without them") {
        CHECK_THROWS_WITH_AS(journal.recorded_batch(1, evaluations(2, 2, 4).points, request),
                             doctest::Contains("per-record values of batch 2, which its journal recorded without"),
                             dpbo::RunError);
        CHECK(journal.diverged());
    }
    SUBCASE("another release") {
        CHECK_THROWS_WITH_AS(journal.recorded_release(0, gdp(0.4, "gradient at step 1")),
                             doctest::Contains("the run's release 1 is gdp (mu = 0.4): gradient at step 1, but its "
                                               "journal recorded gdp (mu = 0.5): gradient at step 1"),
                             dpbo::RunError);
        CHECK_THROWS_WITH_AS(journal.recorded_release(0, gdp(0.5, "gradient at step 2")), holds(not_this_run),
                             dpbo::RunError);
        CHECK(journal.diverged());
    }
    SUBCASE("the recorded ones are taken back") {
        CHECK(journal.recorded_batch(0, recorded.points, request));
        const auto release = journal.recorded_release(0, gdp(0.5, "gradient at step 1"));
        REQUIRE(release);
        CHECK(same_bits(release->released, arma::vec{0.25, 0.5}));
        CHECK_FALSE(journal.recorded_release(1, gdp(0.5, "gradient at step 2")));
        CHECK_FALSE(journal.diverged());
    }
}

TEST_CASE("repeat journal: a ledger takes recorded releases back without noise, charging each to its budget") {
    ScratchFile file;
    auto mechanism = dpbo::test::make<dpbo::Mechanism>("gaussian", {{"mu", "0.5"}});
    mechanism->calibrate(1.0);
    const auto ledger = [](dpbo::PrivacyNoiseSource& noise, std::optional<dpbo::PrivacyBudget> budget) {
        auto out = std::make_unique<dpbo::PrivacyLedger>(dpbo::test::make<dpbo::Accountant>("gdp"), std::move(budget),
                                                         noise, "algorithm 'test'");
        out->set_scope("replace one record", "one record");
        return out;
    };
    const arma::vec value = {1.0, 2.0};
    std::vector<arma::vec> first;
    {
        // The run that was killed after three releases.
        RepeatJournal journal(file.path(), kJob, 1, 77);
        auto noise = dpbo::PrivacyNoiseSource::from_seed(1);
        auto killed = ledger(noise, std::nullopt);
        killed->attach_journal(&journal);
        for (int t = 1; t <= 3; ++t) first.push_back(mechanism->release(value, *killed, fmt::format("step {}", t)));
    }
    SUBCASE("resumed with other noise: the three come back, the fourth is new") {
        RepeatJournal journal(file.path(), kJob, 1, 77);
        auto noise = dpbo::PrivacyNoiseSource::from_seed(2);
        auto resumed = ledger(noise, std::nullopt);
        resumed->attach_journal(&journal);
        for (int t = 1; t <= 3; ++t)
            CHECK(same_bits(mechanism->release(value, *resumed, fmt::format("step {}", t)), first[t - 1]));
        const arma::vec fourth = mechanism->release(value, *resumed, "step 4");
        // Stream 3 of the new key: the replayed releases drew nothing from it.
        auto key = dpbo::PrivacyNoiseSource::from_seed(2).derive();
        auto stream = key.stream(3);
        CHECK(same_bits(fourth, dpbo::privacy::gaussian_release(value, 2.0, stream)));  // σ = Δ/μ
        CHECK(resumed->charges() == 4);
        CHECK(resumed->spent().mu == doctest::Approx(1.0));  // √4 · 0.5
        CHECK(journal.recorded_releases() == 3);
        auto reopened = dpbo::JournalStore::open(file.path(), "run");
        CHECK(reopened->release_count() == 4);
    }
    SUBCASE("resumed under a budget of two: the third recorded release is refused, not taken back free") {
        RepeatJournal journal(file.path(), kJob, 1, 77);
        auto noise = dpbo::PrivacyNoiseSource::from_seed(2);
        auto resumed = ledger(noise, dpbo::PrivacyBudget::parse("mu=0.75"));
        resumed->attach_journal(&journal);
        CHECK(same_bits(mechanism->release(value, *resumed, "step 1"), first[0]));
        CHECK(same_bits(mechanism->release(value, *resumed, "step 2"), first[1]));
        CHECK_THROWS_WITH_AS(mechanism->release(value, *resumed, "step 3"), doctest::Contains("'step 3'"),
                             dpbo::BudgetExceeded);
        CHECK(resumed->charges() == 2);
    }
}
