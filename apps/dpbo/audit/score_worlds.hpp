#pragma once
// The two worlds of a selection audit: the scores on D (--scores) and on its neighbour D′
// (--neighbour-scores), as the auditor chooses them — any pair a sensitivity-Δq query could produce.
#include <string>

#include <armadillo>

namespace dpbo::audit {

struct ScoreWorlds {
    arma::vec first;   // D
    arma::vec second;  // D′
};

// Parses two comma-separated lists of finite numbers. Throws ValidationError naming the option and
// the entry when one is not a finite number, when the lists differ in length or are empty, or when
// an entry moves by more than `sensitivity` (the Δq the selection is calibrated to) between them.
ScoreWorlds score_worlds(const std::string& scores, const std::string& neighbour_scores, double sensitivity);

}  // namespace dpbo::audit
