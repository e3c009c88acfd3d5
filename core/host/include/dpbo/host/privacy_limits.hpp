#pragma once
// What a run's privacy statement does not protect, stated by the host for every run so that no
// algorithm or objective can leave it out: the figures written beside the release, group privacy,
// the count of records, what the data as a whole reveal, choices made by looking at the data, and
// what the objective itself declares (PrivacyLimits, e.g. a user's program's own outputs).
#include "dpbo/privacy_statement.hpp"

namespace dpbo {

class Objective;

// Appends to `statement.not_protected` what it does not cover, in the terms of its own protected
// unit and neighbouring relation, after whatever the algorithm put there. A statement that claims
// nothing gets the one line that says so. Calls into the objective (record_count, privacy_limits,
// PrivateTrials) through the module call guard.
void add_privacy_limits(PrivacyStatement& statement, const Objective& objective);

}  // namespace dpbo
