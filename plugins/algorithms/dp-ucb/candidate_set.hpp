#pragma once
// The finite candidate set Λ of Algorithms 1 and 2, built from public settings only (a grid, a
// seeded low-discrepancy sample, a file, or the objective's own finite set) so that Λ never
// depends on the sensitive data.
#include <cstddef>
#include <string>

#include <armadillo>

#include "dpbo/objective.hpp"
#include "dpbo/space.hpp"

namespace dpbo::dp_ucb {

struct DpUcbSettings;

struct CandidateSet {
    arma::mat rows;           // |Λ| × d, in the objective's units
    std::string description;  // one line, for the statement and `released`
};

// Throws ValidationError naming the setting (and, for a CSV file, the file and line) when Λ cannot
// be built: a box objective with candidates = objective, candidates = objective over rows that are
// sensitive data (FiniteCandidates says so: Λ would be the data), a grid or sample on a finite objective, a
// CSV value that is not a finite number, a row with the wrong column count or outside the box, or
// a set too large for the machine's memory over `budget` observations.
CandidateSet build_candidate_set(const DpUcbSettings& settings, const dpbo::Objective& objective);

// The CSV form alone (tests): rows of `dim` finite numbers inside the box of `space`.
arma::mat read_candidate_csv(const std::string& path, const dpbo::SearchSpace& space);

}  // namespace dpbo::dp_ucb
