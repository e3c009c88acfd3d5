#pragma once
// A study file (dpbo study create) read for the report as a folder of one repeat: the study replayed
// as `dpbo study show` replays it, its result once finished (else the privacy spent so far and
// nothing released), and its told trials as the trace — each trial's point by dimension and the
// value its client told, which is evaluation only: the clients' own, unprivatised number.
#include <string>

#include "dpbo/host/registry.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

// ValidationError naming the file when it is not a study file.
ReportFolder read_study(const std::string& file, const std::string& label, PluginRegistry& registry);

}  // namespace dpbo::cli::report
