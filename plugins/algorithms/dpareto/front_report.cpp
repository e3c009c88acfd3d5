#include "front_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "dpbo/algorithm.hpp"
#include "dpbo/bo/pareto.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/space.hpp"

namespace dpbo::dpareto {

namespace {

std::vector<Sense> senses_of(const BoLoop& loop) {
    std::vector<Sense> senses;
    for (const Output& output : loop.outputs()) senses.push_back(output.sense);
    return senses;
}

std::string dimension_name(const SearchSpace& space, std::size_t j) {
    return space.dimensions().size() == space.dim() ? space.dimensions()[j].name : fmt::format("x[{}]", j);
}

std::string csv(const BoLoop& loop, const std::vector<std::size_t>& iterations, const std::vector<bool>& drawn,
                const arma::uvec& rows) {
    const SearchSpace& space = loop.context().objective.space();
    std::string out = "evaluation,iteration,random";
    // Appended piece by piece: "," + name trips GCC 12's false -Wrestrict warning (its bug 105329).
    for (std::size_t j = 0; j < space.dim(); ++j) {
        out += ',';
        out += dimension_name(space, j);
    }
    for (const Output& output : loop.outputs()) {
        out += ',';
        out += output.name;
    }
    for (const AuxiliaryOutput& output : loop.auxiliary_outputs()) {
        out += ',';
        out += output.name;
    }
    out += "\n";
    for (const arma::uword i : rows) {
        // Enough digits that a value read back is the double written.
        out += fmt::format("{},{},{}", i, iterations.at(i), drawn.at(i) ? 1 : 0);
        for (const double x : loop.observed_points().row(i)) out += fmt::format(",{:.17g}", x);
        for (const double y : loop.observed_values().row(i)) out += fmt::format(",{:.17g}", y);
        if (!loop.auxiliary_outputs().empty())
            for (const double y : loop.observed_auxiliary().row(i)) out += fmt::format(",{:.17g}", y);
        out += "\n";
    }
    return out;
}

}  // namespace

double front_hypervolume(const BoLoop& loop, const arma::rowvec& reference) {
    const arma::uvec front = loop.pareto_front();
    return hypervolume_2d(loop.observed_values().rows(front), reference, senses_of(loop));
}

std::vector<TraceColumn> HypervolumeStatistics::columns(const BoLoop& loop) const {
    std::vector<TraceColumn> columns = standard_.columns(loop);
    columns.push_back({"hypervolume"});
    return columns;
}

std::vector<double> HypervolumeStatistics::row(const BoLoop& loop, double score, double cpu_seconds) const {
    std::vector<double> row = standard_.row(loop, score, cpu_seconds);
    row.push_back(front_hypervolume(loop, reference_));
    return row;
}

std::vector<ResultFile> front_files(const BoLoop& loop, const std::vector<std::size_t>& iterations,
                                    const std::vector<bool>& drawn, const arma::rowvec& reference,
                                    const std::string& statement) {
    const arma::uvec all = arma::regspace<arma::uvec>(0, loop.observations() - 1);
    const arma::uvec front = loop.pareto_front();
    const SearchSpace& space = loop.context().objective.space();

    nlohmann::ordered_json json;
    json["what"] =
        "the empirical Pareto front of the evaluated points (no other evaluated point is at least as good "
        "in both outputs and better in one)";
    json["statement"] = statement;
    json["outputs"] = nlohmann::ordered_json::array();
    for (const Output& output : loop.outputs())
        json["outputs"].push_back({{"name", output.name}, {"sense", to_string(output.sense)}});
    if (!loop.auxiliary_outputs().empty()) {
        json["auxiliary_outputs"] = nlohmann::ordered_json::array();
        for (const AuxiliaryOutput& output : loop.auxiliary_outputs())
            json["auxiliary_outputs"].push_back({{"name", output.name}, {"doc", output.doc}});
    }
    json["reference"] = {reference(0), reference(1)};
    json["hypervolume"] = front_hypervolume(loop, reference);
    json["points"] = nlohmann::ordered_json::array();
    for (const arma::uword i : front) {
        nlohmann::ordered_json point;
        point["evaluation"] = i;
        point["iteration"] = iterations.at(i);
        point["random"] = drawn.at(i);
        nlohmann::ordered_json x = nlohmann::ordered_json::object();
        for (std::size_t j = 0; j < space.dim(); ++j) x[dimension_name(space, j)] = loop.observed_points()(i, j);
        point["x"] = x;
        nlohmann::ordered_json values = nlohmann::ordered_json::object();
        for (std::size_t j = 0; j < loop.outputs().size(); ++j)
            values[loop.outputs()[j].name] = loop.observed_values()(i, j);
        point["values"] = values;
        if (!loop.auxiliary_outputs().empty()) {
            nlohmann::ordered_json auxiliary = nlohmann::ordered_json::object();
            for (std::size_t j = 0; j < loop.auxiliary_outputs().size(); ++j)
                auxiliary[loop.auxiliary_outputs()[j].name] = loop.observed_auxiliary()(i, j);
            point["auxiliary"] = auxiliary;
        }
        json["points"].push_back(point);
    }
    return {
        {"points.csv",
         "every evaluated point: its iteration (0: the initial design), whether it was drawn at random (1: "
         "a seed point or a plateau draw) or chosen by HVPoI (0), coordinates, both outputs and the "
         "objective's auxiliary outputs (reported, not modelled)",
         csv(loop, iterations, drawn, all)},
        {"front.csv", "the empirical Pareto front: the rows of points.csv no other row dominates",
         csv(loop, iterations, drawn, front)},
        {"front.json",
         fmt::format("the empirical Pareto front with the outputs' senses, the reference point and its "
                     "hypervolume"),
         json.dump(2) + "\n"},
    };
}

}  // namespace dpbo::dpareto
