#pragma once
// The statement of a search whose trials are private learners (PrivateTrials) and which does not
// select among them privately: the composition of every trial the host charged.
#include <string>
#include <vector>

#include "dpbo/privacy_statement.hpp"

namespace dpbo {

class Evaluator;
class Objective;
class PrivacyLedger;

// What the algorithm `described` when the host's composition of trials must state it instead: for
// a PrivateTrials objective whose trials were charged one by one (no Evaluator::cover_trials) and an
// algorithm that claims nothing itself, a private description ("composition of N trials", what a
// trial protects, what the search releases) that PrivacyLedger::statement_for fills with the
// numbers. A trial's auxiliary outputs are part of what it releases (a PrivateTrials objective
// declares them covered by its events), and the statement names them. Every other run: `described`
// unchanged.
PrivacyStatement trial_search_statement(const PrivacyStatement& described, const Objective& objective,
                                        const Evaluator& evaluator, const PrivacyLedger& ledger);

// The events the evaluator charged for each trial (composition mode), as event texts, in the order
// the trials ran: what result.json lists under "trial_events" so that anyone can compose them again
// (`dpbo account --event ...`). Empty when no trial was charged one by one.
std::vector<std::vector<std::string>> charged_trial_events(const PrivacyLedger& ledger);

}  // namespace dpbo
