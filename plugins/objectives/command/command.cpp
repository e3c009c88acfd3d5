// Any program as an objective: dpbo starts it through /bin/sh -c and speaks the dpbo-objective
// protocol with it, one JSON object per line (README "Objectives in any language"):
//   program → dpbo, first line (or `spec` FILE):  {"protocol":"dpbo-objective","version":1,
//       "space":[{"name":"x","lower":-5,"upper":5,"scale":"linear","integer":false}, ...],
//       "outputs":[{"name":"value","sense":"minimise"}], "records":n}
//   dpbo → program:  {"points":[[x11, ...], ...], "per_record":false}
//   program → dpbo:  {"values":[v1, ...]} (one output) or {"values":[[v11, v12], ...]} (several),
//                    with "per_record":[[l11, ..., l1n], ...] when asked; or {"error":"..."}
//   A program whose every evaluation is a private learner adds to its handshake
//       "trials":{"neighbouring":"...","protected":"...","bound":["EVENT", ...]} (bound optional)
//   and to every answer "events":[["EVENT", ...], ...], one list per point (PrivateTrials).
// Persistent mode keeps the program running across batches (dpbo closes its input at the end);
// one-shot mode starts it for every batch, with the space from `spec`.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bounded_input.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "line_process.hpp"
#include "objective_spec.hpp"

namespace {

constexpr const char* kOwner = "objective 'command'";
constexpr const char* kRole = "objective program";

using dpbo::plugin_process::LineProcess;

std::string shortened(const std::string& line) { return line.size() > 200 ? line.substr(0, 200) + "…" : line; }

nlohmann::json read_spec_file(const std::string& path) {
    const std::string text = dpbo::bounded_input::read_file(
        path, {fmt::format("{}: spec '{}'", kOwner, path), "a file holding the dpbo-objective handshake as JSON",
               dpbo::bounded_input::kShortFileBytes});
    const auto spec = nlohmann::json::parse(text, nullptr, false);
    if (spec.is_discarded()) throw dpbo::ValidationError(fmt::format("{}: spec '{}' is not valid JSON", kOwner, path));
    return spec;
}

// The program as started, with what it declared: built before the objective, whose class depends on
// whether the program's trials are private learners.
struct Program {
    std::string command;
    bool one_shot = false;
    double timeout = 0.0;
    dpbo::command_objective::ObjectiveSpec spec;
    std::unique_ptr<LineProcess> process;  // persistent mode
};

Program open_program(const dpbo::ParameterSet& p) {
    Program program{p.text("command"), p.text("mode") == "one-shot", p.real("timeout"), {}, nullptr};
    // /bin/sh -c '' runs nothing and exits 0: a run would fail later with a puzzling message.
    if (program.command.find_first_not_of(" \t") == std::string::npos)
        throw dpbo::ValidationError(
            fmt::format("{}: command = '{}' names no program; expected the program to run, e.g. command = python3 "
                        "my_objective.py",
                        kOwner, program.command));
    if (program.one_shot && !p.has("spec"))
        throw dpbo::ValidationError(
            fmt::format("{}: mode = one-shot needs spec = FILE (the program, started for "
                        "each batch, sends no handshake)",
                        kOwner));
    if (p.has("spec"))
        program.spec = dpbo::command_objective::parse_spec(read_spec_file(p.text("spec")),
                                                           fmt::format("{}: spec '{}'", kOwner, p.text("spec")));
    if (!program.one_shot) {
        program.process = std::make_unique<LineProcess>(program.command, program.timeout, kOwner, kRole);
        if (!p.has("spec")) {
            const std::string line = program.process->receive("handshake");
            const auto hello = nlohmann::json::parse(line, nullptr, false);
            if (hello.is_discarded())
                throw dpbo::RunError(program.process->describe_failure(fmt::format(
                    "began with '{}', which is not JSON; expected the dpbo-objective handshake", shortened(line))));
            try {
                program.spec =
                    dpbo::command_objective::parse_spec(hello, program.process->describe_failure("sent a handshake"));
            } catch (const dpbo::ValidationError& e) {
                throw dpbo::RunError(e.what());
            }
        }
    }
    return program;
}

class CommandObjective : public dpbo::Objective,
                         public dpbo::RecordDecomposable,
                         public dpbo::SensitiveData,
                         public dpbo::PrivacyAssumptions,
                         public dpbo::PrivacyLimits {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.text("command", std::nullopt, "the program, run through /bin/sh -c (e.g. `python3 my_objective.py`)")
            .choice("mode", {"persistent", "one-shot"}, "persistent",
                    "persistent: started once, it answers batch after batch; one-shot: started for every batch, "
                    "it reads one request and answers once (needs spec)")
            .text("spec", std::nullopt,
                  "a file holding the handshake (space, outputs, records, trials) as JSON: required in one-shot mode; "
                  "in persistent mode the program then sends no handshake")
            .real("timeout", {.fallback = 120.0,
                              .lower = 0.0,
                              .lower_inclusive = false,
                              .unit = "seconds",
                              .doc = "longest wait for the handshake or one answer"});
        return schema;
    }

    // A program that declares "trials" is a PrivateTrials objective: its answers carry their events.
    static std::unique_ptr<dpbo::Module> create(const dpbo::ParameterSet& p);

    explicit CommandObjective(Program program)
        : command_(std::move(program.command)),
          one_shot_(program.one_shot),
          timeout_(program.timeout),
          spec_(std::move(program.spec)),
          process_(std::move(program.process)) {}

    const dpbo::SearchSpace& space() const override { return spec_.space; }
    dpbo::Sense sense() const override { return spec_.outputs.front().sense; }
    std::vector<dpbo::Output> outputs() const override { return spec_.outputs; }
    std::size_t record_count() const override { return spec_.records; }
    std::string data_description() const override {
        return fmt::format("values computed by the program `{}` ({} mode)", command_,
                           one_shot_ ? "one-shot" : "persistent");
    }
    std::vector<std::string> privacy_assumptions() const override {
        if (spec_.trials)
            return {fmt::format(
                "the program `{}` is a private learner that owns its privacy noise: dpbo charges the events it "
                "declares with each answer and cannot check that its training and score release spent no more",
                command_)};
        return {
            fmt::format("the program `{}` computing the objective is inside the trust boundary: it reads the "
                        "sensitive data, and its answers are sensitive until the algorithm privatises them",
                        command_)};
    }

    // dpbo sees only the program's answers: whatever else the program does with the data is its own.
    std::vector<std::string> privacy_limits() const override {
        std::vector<std::string> out;
        if (spec_.trials) {
            out.push_back(fmt::format(
                "what the program `{}` releases besides its answers (a model it saves, what it prints or logs): "
                "dpbo charges only the events it declares for its answers",
                command_));
            out.push_back(
                fmt::format("data the program reads outside what one trial's guarantee protects ({}), e.g. "
                            "a validation set it scores without a mechanism whose event it declares",
                            spec_.trials->protected_unit));
        } else {
            out.push_back(fmt::format(
                "what the program `{}` does with the data besides answering dpbo (what it prints, writes to files or "
                "sends elsewhere): only its answers pass through the algorithm's privacy",
                command_));
            out.push_back(fmt::format(
                "data the program reads besides {}: a change in them (e.g. one row of the set a model is trained "
                "on, when the program answers with its validation losses) can move every answer at once, so the "
                "guarantee does not extend to them",
                spec_.records > 0 ? "the records whose losses it returns" : "the records the statement protects"));
        }
        out.push_back(
            "the last lines of the program's standard error, which dpbo quotes when the program fails: not "
            "privatised");
        return out;
    }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        nlohmann::json ask;
        ask["points"] = nlohmann::json::array();
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const arma::rowvec row = points.row(i);
            ask["points"].push_back(std::vector<double>(row.begin(), row.end()));
        }
        ask["per_record"] = request.per_record;
        std::unique_ptr<LineProcess> one_shot = one_shot_ ? start() : nullptr;
        LineProcess& program = one_shot ? *one_shot : *process_;
        program.send(ask.dump());
        const std::size_t numbers =
            points.n_rows * (spec_.outputs.size() + (request.per_record ? spec_.records : std::size_t{0}));
        const std::string line = program.receive("answer", numbers);
        return parse_answer(program, line, points, request);
    }

protected:
    const dpbo::command_objective::ObjectiveSpec& spec() const { return spec_; }

private:
    std::unique_ptr<LineProcess> start() const {
        return std::make_unique<LineProcess>(command_, timeout_, kOwner, kRole);
    }

    dpbo::Evaluations parse_answer(const LineProcess& program, const std::string& line, const arma::mat& points,
                                   const dpbo::EvaluationRequest& request) const {
        const std::size_t b = points.n_rows;
        const std::size_t k = spec_.outputs.size();
        const auto reply = nlohmann::json::parse(line, nullptr, false);
        const auto refuse = [&](const std::string& what) { return dpbo::RunError(program.describe_failure(what)); };
        if (reply.is_discarded() || !reply.is_object())
            throw refuse(fmt::format(
                "answered '{}', which is {}; expected {{\"values\":[...]}} or {{\"error\":\"...\"}}", shortened(line),
                reply.is_discarded() ? "not valid JSON (numbers must be finite)" : "no JSON object"));
        if (reply.contains("error"))
            throw refuse(
                fmt::format("refused a batch of {} points: {}", b,
                            reply["error"].is_string() ? reply["error"].get<std::string>() : reply["error"].dump()));
        if (!reply.contains("values") || !reply["values"].is_array())
            throw refuse(fmt::format("answered '{}'; expected {{\"values\":[...]}}", shortened(line)));
        const auto& values = reply["values"];
        if (values.size() != b) throw refuse(fmt::format("answered {} values for {} points", values.size(), b));
        dpbo::Evaluations out;
        out.points = points;
        out.values.set_size(b, k);
        for (std::size_t i = 0; i < b; ++i) {
            const auto& entry = values[i];
            if (k == 1 && entry.is_number()) {
                out.values(i, 0) = entry.get<double>();
                continue;
            }
            if (!entry.is_array() || entry.size() != k)
                throw refuse(fmt::format("answered {} for point {}; expected {} number{}", shortened(entry.dump()), i,
                                         k, k == 1 ? "" : fmt::format("s (one per output: {})", output_names())));
            for (std::size_t j = 0; j < k; ++j) {
                if (!entry[j].is_number())
                    throw refuse(
                        fmt::format("answered {} for point {}, output {}; expected a number", entry[j].dump(), i, j));
                out.values(i, j) = entry[j].get<double>();
            }
        }
        parse_trial_events(reply, out, refuse);
        if (request.per_record) {
            if (!reply.contains("per_record") || !reply["per_record"].is_array() || reply["per_record"].size() != b)
                throw refuse(fmt::format(
                    "was asked for per-record values and answered {}; expected \"per_record\": "
                    "{} lists of {} numbers",
                    reply.contains("per_record") ? shortened(reply["per_record"].dump()) : "none", b, spec_.records));
            out.per_record.set_size(b, spec_.records);
            for (std::size_t i = 0; i < b; ++i) {
                const auto& row = reply["per_record"][i];
                if (!row.is_array() || row.size() != spec_.records)
                    throw refuse(fmt::format("answered {} per-record values for point {}; it declared {} records",
                                             row.is_array() ? row.size() : 0, i, spec_.records));
                for (std::size_t r = 0; r < spec_.records; ++r) {
                    if (!row[r].is_number())
                        throw refuse(fmt::format("answered {} as record {}'s value at point {}; expected a number",
                                                 row[r].dump(), r, i));
                    out.per_record(i, r) = row[r].get<double>();
                }
            }
        }
        return out;
    }

    // "events": one list of event texts per point for a program that declared trials; refused from
    // any other program, whose events nobody would charge.
    template <class Refuse>
    void parse_trial_events(const nlohmann::json& reply, dpbo::Evaluations& out, const Refuse& refuse) const {
        const std::size_t b = out.values.n_rows;
        if (!spec_.trials) {
            if (reply.contains("events"))
                throw refuse(
                    "answered \"events\", but its handshake declares no \"trials\"; a program whose evaluations "
                    "are private learners declares \"trials\": {\"neighbouring\": ..., \"protected\": ...} so that "
                    "dpbo charges them");
            return;
        }
        if (!reply.contains("events") || !reply["events"].is_array() || reply["events"].size() != b)
            throw refuse(fmt::format(
                "declared trials and answered {} as \"events\" for {} points; expected one list of event texts per "
                "point, e.g. [[\"subsampled-gaussian:q=0.01,sigma=1.1,sampling=poisson,steps=100\", \"laplace:scale=0.01,"
                "sensitivity=0.001\"], ...]",
                reply.contains("events") ? shortened(reply["events"].dump()) : "nothing", b));
        for (std::size_t i = 0; i < b; ++i) {
            try {
                out.trial_events.push_back(dpbo::command_objective::parse_events(
                    reply["events"][i], fmt::format("events[{}] (point {})", i, i)));
            } catch (const dpbo::ValidationError& e) {
                throw refuse(fmt::format("answered trial events that are not events: {}", e.what()));
            }
        }
    }

    std::string output_names() const {
        std::vector<std::string> names;
        for (const auto& o : spec_.outputs) names.push_back(o.name);
        return fmt::format("{}", fmt::join(names, ", "));
    }

    std::string command_;
    bool one_shot_;
    double timeout_;
    dpbo::command_objective::ObjectiveSpec spec_;
    std::unique_ptr<LineProcess> process_;
};

// The same program, whose every evaluation is a private learner it declared (PrivateTrials).
class TrialCommandObjective final : public CommandObjective, public dpbo::PrivateTrials {
public:
    explicit TrialCommandObjective(Program program) : CommandObjective(std::move(program)) {}
    std::string trial_neighbouring() const override { return spec().trials->neighbouring; }
    std::string trial_protected_unit() const override { return spec().trials->protected_unit; }
    std::vector<dpbo::PrivacyEvent> trial_bound() const override { return spec().trials->bound; }
};

std::unique_ptr<dpbo::Module> CommandObjective::create(const dpbo::ParameterSet& p) {
    Program program = open_program(p);
    if (program.spec.trials) return std::make_unique<TrialCommandObjective>(std::move(program));
    return std::make_unique<CommandObjective>(std::move(program));
}

}  // namespace

DPBO_PLUGIN(CommandObjective, "command", "1.0.0",
            "any program as an objective, over the dpbo-objective line-JSON protocol (space, outputs and records "
            "declared by the program; values, several outputs and per-record values answered per batch)",
            "dpbo's own dpbo-objective protocol (docs/objectives.md): objectives in any language")
