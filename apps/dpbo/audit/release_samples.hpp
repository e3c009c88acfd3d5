#pragma once
// Where an audit's samples come from: a mechanism released on two neighbouring inputs, or an
// algorithm run in-process on two neighbouring datasets. Either way each world's privacy noise comes
// from its own source (successive draws are independent) and nothing else varies between runs.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/host/job_modules.hpp"
#include "dpbo/result.hpp"
#include "run_ledgers.hpp"

namespace dpbo {
class Mechanism;
class Objective;
class PluginRegistry;
class PrivacyNoiseSource;
class Selection;
}  // namespace dpbo

namespace dpbo::audit {

struct ReleaseSamples {
    std::vector<std::string> coordinates;  // one name per column
    arma::mat first;                       // runs × coordinates, world D
    arma::mat second;                      // world D′
};

// `runs` releases of the 1-coordinate query value `value` (world D) and `value + sensitivity` (D′)
// by a calibrated mechanism, each release charged on a fresh ledger of its world's (run_ledgers.hpp).
// Throws RunError if a release is not a finite number.
ReleaseSamples sample_mechanism(const Mechanism& mechanism, double value, double sensitivity, std::size_t runs,
                                RunLedgers& ledgers_first, RunLedgers& ledgers_second);

// `runs` choices of a calibrated selection over the scores `first` (world D) and `second` (D′), each
// choice charged on a fresh ledger as for sample_mechanism; the released coordinate is the index.
ReleaseSamples sample_selection(const Selection& selection, const arma::vec& first, const arma::vec& second,
                                std::size_t runs, RunLedgers& ledgers_first, RunLedgers& ledgers_second);

// The values a run releases, flattened: every RunResult.released entry (column-major, named
// "NAME[i]" or "NAME[i,j]"), then every trace column not marked evaluation-only at every row
// ("COLUMN (trace row t)") — exactly what the run's privacy statement covers.
struct ObservedRelease {
    std::vector<std::string> names;
    std::vector<double> values;
};
ObservedRelease observed_release(const RunResult& result);

// One world of an algorithm audit: the job's modules, its objective built once (objectives are
// deterministic given their parameters; building gp-lengthscales' data is costly), and fresh
// algorithm and components for every run.
class AlgorithmWorld {
public:
    AlgorithmWorld(PluginRegistry& registry, const JobSpec& spec);
    // One run with experiment randomness from `experiment_seed` and privacy noise from `noise`,
    // releasing through a fresh ledger of its own (one run is the claim under test, so runs are not
    // composed) with the runner's accountant and no budget; the result's statement is the ledger's. Throws RunError if that statement is invalid or nothing is released.
    RunResult run(std::uint64_t experiment_seed, PrivacyNoiseSource& noise) const;
    const JobModules& modules() const { return modules_; }

private:
    PluginRegistry& registry_;
    JobModules modules_;
    std::shared_ptr<Objective> objective_;
};

// `runs` runs per world with the same experiment seed. `claim_headline` receives the privacy
// headline every run stated; throws RunError when runs state different ones (a claim that depends
// on the data would itself leak) or release differently laid-out values.
ReleaseSamples sample_algorithm(const AlgorithmWorld& first, const AlgorithmWorld& second, std::size_t runs,
                                std::uint64_t experiment_seed, PrivacyNoiseSource& noise_first,
                                PrivacyNoiseSource& noise_second, PrivacyStatement& statement);

}  // namespace dpbo::audit
