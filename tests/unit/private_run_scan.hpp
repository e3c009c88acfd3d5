#pragma once
// The scan behind evaluation_only_scan_test.cpp: which private runs it makes and how it reads them.
//
// What is scanned comes from the registry. Algorithms: every shipped algorithm is either private in
// some configuration (private_configs(), one or more per algorithm) or declares no privacy role at
// all (not_private_algorithms(), checked). Objectives: every shipped objective that holds sensitive
// data (SensitiveData) is scanned with a neighbouring dataset — record i replaced (`neighbour_record`)
// for record objectives, one row's features moved (a copy of its file) for row objectives — unless
// not_scanned_objectives() gives the reason it cannot be.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <armadillo>

#include "dpbo/host/runner.hpp"

namespace dpbo::test::scan {

using Parameters = std::map<std::string, std::string>;
// Public leaves of result.json ("/released/best_value/value") and public trace columns
// ("trace.csv:iteration"), each as text.
using Fields = std::map<std::string, std::string>;

struct PrivateConfig {
    std::string label;  // "random-search + gaussian"
    std::string algorithm;
    Parameters parameters;
    std::map<std::string, ModuleChoice> roles;
    // Settings for the objective, applied where its schema has the key (e.g. the observation noise
    // dp-ucb's noisy variant needs).
    Parameters objective_settings;
};
const std::vector<PrivateConfig>& private_configs();
// Algorithm name → why it releases nothing privately.
const std::map<std::string, std::string>& not_private_algorithms();
// Objective name → why the scan cannot give it a neighbouring dataset.
const std::map<std::string, std::string>& not_scanned_objectives();

struct ScanObjective {
    std::string name;
    Parameters data;       // D
    Parameters neighbour;  // overrides giving D′: one record or row replaced
    Parameters other;      // overrides giving other data (another draw where there is one, else D′)
    bool rows_are_data = false;
};
// Every shipped objective with sensitive data, less not_scanned_objectives(); fails the test (naming
// it) for one it cannot build or give a neighbour.
const std::vector<ScanObjective>& scanned_objectives();

struct ScanRun {
    std::optional<std::string> refused;  // the ValidationError's message when the job was refused
    Fields fields;
    // Every public array of numbers in result.json, by its path, and each trace row's public cells.
    std::vector<std::pair<std::string, std::vector<double>>> public_arrays;
    std::vector<std::vector<double>> public_trace_rows;
};
// Runs `config` on `objective` with `overrides` (D′ or other data) and the seed.
ScanRun run(const PrivateConfig& config, const ScanObjective& objective, const Parameters& overrides,
            std::uint64_t seed);

// A public field that moves with the data (a, b: same seed, other data) but not with the noise (a, c:
// same data, other seed) carries the data unprivatised.
std::vector<std::string> moves_with_data_not_noise(const Fields& a, const Fields& b, const Fields& c);
// Between neighbouring datasets at the same seed only released values and public trace columns may
// differ: the statement, the objective's description, the counts and the stop reason may not.
std::vector<std::string> unreleased_differences(const Fields& first, const Fields& neighbour);
// Every public array or trace row that holds one of `rows` (the data's own rows) as it is.
std::vector<std::string> verbatim_rows(const ScanRun& run, const arma::mat& rows);
// The objective's candidate rows with `overrides`, when they are sensitive data (else empty).
arma::mat sensitive_rows(const ScanObjective& objective, const Parameters& overrides);

}  // namespace dpbo::test::scan
