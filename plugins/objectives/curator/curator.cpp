// The modeler's view of a curator on another machine (PO-GP-UCB with two parties, Kharkovskii, Dai &
// Low 2020, §2): the rows the curator released (its `dpbo curator release` output), searched here,
// and a curator program that answers for rows by index (`dpbo curator answer`, possibly through
// ssh). It speaks the dpbo-curator protocol, one JSON object per line:
//   curator → modeler, once:  {"protocol":"dpbo-curator","version":1,"rows":N,"sense":"maximise"}
//   modeler → curator:        {"rows":[i, j, ...]}            (0-based row indices)
//   curator → modeler:        {"values":[y_i, y_j, ...]}  or  {"error":"..."}
// and the modeler closes the curator's input at the end.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "line_process.hpp"
#include "data_file_lines.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "released_rows.hpp"
#include "table_rows.hpp"

namespace {

constexpr const char* kOwner = "objective 'curator'";

// The released rows: a header z0,…,z{r−1} and one line of r numbers per row.
arma::mat read_released_rows(const std::string& path) {
    dpbo::plugin_data::DataFileLines lines(path, {kOwner, "candidates", "released rows (CSV, header z0,z1,...)"});
    std::string line;
    const auto split = [&] {
        return dpbo::plugin_data::split_csv_fields(
            line, ',', fmt::format("{}: candidates '{}' line {}", kOwner, path, lines.line_number()));
    };
    if (!lines.next(line))
        throw dpbo::ValidationError(
            fmt::format("{}: candidates '{}' is empty; expected a header z0,z1,...", kOwner, path));
    const std::vector<std::string> header = split();
    for (std::size_t j = 0; j < header.size(); ++j)
        if (header[j] != fmt::format("z{}", j))
            throw dpbo::ValidationError(
                fmt::format("{}: candidates '{}' has column '{}' where z{} was expected; released "
                            "rows are written by `dpbo curator release`",
                            kOwner, path, header[j], j));
    std::vector<double> values;
    while (lines.next(line)) {
        const std::vector<std::string> fields = split();
        if (fields.size() != header.size())
            throw dpbo::ValidationError(fmt::format("{}: candidates '{}' line {} has {} fields; the header has {}",
                                                    kOwner, path, lines.line_number(), fields.size(), header.size()));
        for (const auto& field : fields) {
            const auto value = dpbo::plugin_data::finite_number(field);
            if (!value)
                throw dpbo::ValidationError(fmt::format("{}: candidates '{}' line {}: '{}' is not a finite number",
                                                        kOwner, path, lines.line_number(), field));
            values.push_back(*value);
        }
    }
    if (values.empty())
        throw dpbo::ValidationError(fmt::format("{}: candidates '{}' has a header and no row", kOwner, path));
    return arma::mat(values.data(), header.size(), values.size() / header.size()).t();
}

std::string shortened(const std::string& line) { return line.size() > 200 ? line.substr(0, 200) + "…" : line; }

// Starts the curator and reads its handshake: the sense it declares, after checking the protocol and
// the row count against the released rows.
struct Handshake {
    std::unique_ptr<dpbo::plugin_process::LineProcess> process;
    dpbo::Sense sense = dpbo::Sense::Maximise;
};

Handshake connect(const std::string& command, double timeout, std::size_t rows, const std::string& candidates) {
    // /bin/sh -c '' runs nothing and exits 0: the handshake would fail with a puzzling message.
    if (command.find_first_not_of(" \t") == std::string::npos)
        throw dpbo::ValidationError(fmt::format(
            "{}: command = '{}' names no program; expected the curator program, e.g. command = dpbo curator answer "
            "--objective loan-roi",
            kOwner, command));
    Handshake out;
    out.process = std::make_unique<dpbo::plugin_process::LineProcess>(command, timeout, kOwner, "curator");
    const std::string line = out.process->receive("handshake");
    const auto hello = nlohmann::json::parse(line, nullptr, false);
    if (hello.is_discarded() || !hello.is_object() || hello.value("protocol", "") != "dpbo-curator")
        throw dpbo::RunError(out.process->describe_failure(fmt::format(
            "began with '{}'; expected the handshake {{\"protocol\":\"dpbo-curator\",\"version\":1,\"rows\":N,"
            "\"sense\":\"maximise\"}}",
            shortened(line))));
    if (hello.value("version", 0) != 1)
        throw dpbo::RunError(out.process->describe_failure(
            fmt::format("speaks version {} of the protocol; this dpbo speaks version 1", hello.value("version", 0))));
    if (!hello.contains("rows") || !hello["rows"].is_number_unsigned() || hello["rows"].get<std::size_t>() != rows)
        throw dpbo::ValidationError(out.process->describe_failure(
            fmt::format("holds {} rows but candidates '{}' has {}: they are not its released rows",
                        hello.value("rows", -1), candidates, rows)));
    const std::string sense = hello.value("sense", "");
    if (sense != "maximise" && sense != "minimise")
        throw dpbo::RunError(out.process->describe_failure(
            fmt::format("declared sense '{}'; expected \"maximise\" or \"minimise\"", sense)));
    out.sense = sense == "maximise" ? dpbo::Sense::Maximise : dpbo::Sense::Minimise;
    return out;
}

class Curator final : public dpbo::released_rows::ReleasedRowsObjective, public dpbo::SensitiveData {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.text("candidates", std::nullopt, "the released rows Z: released_rows.csv of `dpbo curator release`")
            .text("command", std::nullopt,
                  "the curator program, run through /bin/sh -c and kept running, e.g. `ssh curator-host dpbo curator "
                  "answer --objective loan-roi`")
            .real("timeout", {.fallback = 120.0,
                              .lower = 0.0,
                              .lower_inclusive = false,
                              .unit = "seconds",
                              .doc = "longest wait for the curator's handshake or one answer"});
        return schema;
    }

    explicit Curator(const dpbo::ParameterSet& p) : Curator(read_released_rows(p.text("candidates")), p) {}

    std::string data_description() const override { return description_; }

protected:
    arma::vec answer(const arma::uvec& rows, const dpbo::EvaluationRequest&) override {
        nlohmann::json request;
        request["rows"] = std::vector<arma::uword>(rows.begin(), rows.end());
        process_->send(request.dump());
        const std::string line = process_->receive("answer", rows.n_elem);
        const auto reply = nlohmann::json::parse(line, nullptr, false);
        if (reply.is_discarded() || !reply.is_object())
            throw dpbo::RunError(process_->describe_failure(
                fmt::format("answered '{}' to {}, which is {}; expected {{\"values\":[...]}} or {{\"error\":\"...\"}}",
                            shortened(line), request.dump(),
                            reply.is_discarded() ? "not valid JSON (numbers must be finite)" : "no JSON object")));
        if (reply.contains("error"))
            throw dpbo::RunError(process_->describe_failure(
                fmt::format("refused {}: {}", request.dump(),
                            reply["error"].is_string() ? reply["error"].get<std::string>() : reply["error"].dump())));
        if (!reply.contains("values") || !reply["values"].is_array())
            throw dpbo::RunError(process_->describe_failure(
                fmt::format("answered '{}'; expected {{\"values\":[...]}}", shortened(line))));
        const auto& values = reply["values"];
        if (values.size() != rows.n_elem)
            throw dpbo::RunError(
                process_->describe_failure(fmt::format("answered {} values for {} rows", values.size(), rows.n_elem)));
        arma::vec out(rows.n_elem);
        for (std::size_t i = 0; i < rows.n_elem; ++i) {
            if (!values[i].is_number() || !std::isfinite(values[i].get<double>()))
                throw dpbo::RunError(process_->describe_failure(
                    fmt::format("answered {} for row {}; expected a finite number", values[i].dump(), rows(i))));
            out(i) = values[i].get<double>();
        }
        return out;
    }

private:
    Curator(const arma::mat& released, const dpbo::ParameterSet& p)
        : Curator(released, connect(p.text("command"), p.real("timeout"), released.n_rows, p.text("candidates")), p) {}
    Curator(const arma::mat& released, Handshake handshake, const dpbo::ParameterSet& p)
        : ReleasedRowsObjective(released, handshake.sense, kOwner),
          process_(std::move(handshake.process)),
          description_(fmt::format("{} rows released by a curator, read from {}; responses from `{}`", released.n_rows,
                                   p.text("candidates"), p.text("command"))) {}

    std::unique_ptr<dpbo::plugin_process::LineProcess> process_;
    std::string description_;
};

}  // namespace

DPBO_PLUGIN(Curator, "curator", "1.0.0",
            "rows a PO-GP-UCB curator released, with responses asked of a curator program by row index "
            "(the dpbo-curator line-JSON protocol)",
            "Kharkovskii, Dai & Low (2020), §2 and Algorithm 2")
