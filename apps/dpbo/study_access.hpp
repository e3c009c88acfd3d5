#pragma once
// What the study commands, the keeper and the Python package share: a study file opened as the
// commands open it, and a trial as their JSON shows it.
#include <memory>
#include <string>

#include "cli.hpp"
#include "dpbo/host/study.hpp"

namespace dpbo::cli {

// A study whose replays load only the plugin files it uses (most of dpbo's start-up is finding and
// checking every plugin), and every plugin if a replay asks for another. In a keeper's process, the
// study it keeps (its run alive between asks). `registry` outlives the study.
std::shared_ptr<Study> open_study(PluginRegistry& registry, const std::string& file, const CommonOptions& common);

// Id, batch, state and point; the values told once done, the reason once failed.
json trial_json(const StoredTrial& trial);

}  // namespace dpbo::cli
