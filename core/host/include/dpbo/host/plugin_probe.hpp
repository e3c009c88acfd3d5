#pragma once
// Reads plugin manifests where a crash cannot reach the host: each file is loaded by the probe
// program (core/host/probe/dpbo_probe.cpp) in a process of its own, killed if it takes longer than the
// time limit. Probes run a few at a time.
#include <chrono>
#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

namespace dpbo {

// Where the probe program is: beside libdpbo, in dpbo/dpbo-probe (lib/dpbo/dpbo-probe in both the
// build tree and an installation), so every program that links libdpbo finds the same probe.
std::filesystem::path probe_program_path();

// One result per file, in order: {"manifest": {...}, "compiler": "..."} for a plugin that loaded,
// {"refused": "why"} for one that did not (how the probe ended when the plugin took it down:
// the signal, the exit, the time limit — with "timed_out_after": seconds — and the step it was on).
std::vector<nlohmann::json> probe_plugin_files(const std::filesystem::path& program,
                                               const std::vector<std::filesystem::path>& files,
                                               std::chrono::duration<double> timeout);

}  // namespace dpbo
