#pragma once
// What DPareto reports beyond the BO loop's result: the exact hypervolume w.r.t. v† in the trace
// after every iteration, and the evaluated points and the empirical front as files.
#include <cstddef>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/bo/loop.hpp"
#include "dpbo/result.hpp"

namespace dpbo::dpareto {

// The loop's standard columns and "hypervolume": hypervolume_2d of the front so far w.r.t. the
// reference, in the objective's units.
class HypervolumeStatistics final : public LoopStatistics {
public:
    explicit HypervolumeStatistics(arma::rowvec reference) : reference_(std::move(reference)) {}
    std::vector<TraceColumn> columns(const BoLoop& loop) const override;
    std::vector<double> row(const BoLoop& loop, double score, double cpu_seconds) const override;

private:
    StandardStatistics standard_;
    arma::rowvec reference_;
};

double front_hypervolume(const BoLoop& loop, const arma::rowvec& reference);

// points.csv (every evaluated point: its iteration, whether it was drawn at random, coordinates, both outputs as observed and the
// objective's auxiliary outputs, e.g. an oracle's best and worst repetition),
// front.csv (the rows of points.csv no other row dominates, in evaluation order) and front.json
// (the same front with the outputs' senses, v†, its hypervolume and what the file is).
// `iterations`: the loop iteration each evaluation belongs to (0: the initial design).
// `drawn`: whether each evaluation was drawn at random (the seed points and plateau draws) rather
// than chosen by the acquisition.
std::vector<ResultFile> front_files(const BoLoop& loop, const std::vector<std::size_t>& iterations,
                                    const std::vector<bool>& drawn, const arma::rowvec& reference,
                                    const std::string& statement);

}  // namespace dpbo::dpareto
