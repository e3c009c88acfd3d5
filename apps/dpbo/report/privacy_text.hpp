#pragma once
// A folder's privacy statement and job in plain words, as HTML: what was protected, what was
// released, the guarantee and its assumptions — and, for a seeded run, that it is not private and
// which claim it would carry with secret noise.
#include <string>

#include "report/report_folder.hpp"

namespace dpbo::cli::report {

std::string privacy_html(const ReportFolder& folder);
std::string job_html(const ReportFolder& folder);

}  // namespace dpbo::cli::report
