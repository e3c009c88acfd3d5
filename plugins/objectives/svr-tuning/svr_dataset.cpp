#include "svr_dataset.hpp"

#include <algorithm>
#include <numeric>

#include "dpbo/random.hpp"

namespace dpbo::svr_tuning {
namespace {

// The first `count` entries of a partial Fisher–Yates shuffle of 0..population−1: a uniform
// ordered sample without replacement, reproducible from the generator alone.
std::vector<std::size_t> sample_without_replacement(std::size_t population, std::size_t count,
                                                    dpbo::ExperimentRng& rng) {
    std::vector<std::size_t> order(population);
    std::iota(order.begin(), order.end(), std::size_t{0});
    for (std::size_t i = 0; i < count; ++i) std::swap(order[i], order[i + rng.index(population - i)]);
    order.resize(count);
    return order;
}

arma::mat gather_inputs(const CtSliceTable& table, const std::vector<std::size_t>& rows,
                        const std::vector<std::size_t>& columns) {
    arma::mat inputs(rows.size(), columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c)
        for (std::size_t r = 0; r < rows.size(); ++r) inputs(r, c) = table.feature(rows[r], columns[c]);
    return inputs;
}

arma::vec gather_targets(const CtSliceTable& table, const std::vector<std::size_t>& rows) {
    arma::vec targets(rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) targets(r) = table.reference[rows[r]];
    return targets;
}

// StandardScaler's scale: the population standard deviation, or 1 for a column that is constant on
// the training rows (scikit-learn leaves such a column unscaled instead of dividing by ~0).
arma::rowvec training_scale(const arma::mat& train) {
    arma::rowvec scale = arma::stddev(train, 1, 0);
    const arma::rowvec range = arma::max(train, 0) - arma::min(train, 0);
    scale.elem(arma::find(range == 0.0)).ones();
    return scale;
}

}  // namespace

SvrDataset make_svr_dataset(const CtSliceTable& table, const SplitSettings& settings) {
    dpbo::ExperimentRng rng(settings.seed);
    SvrDataset data;
    data.feature_columns = sample_without_replacement(kCtSliceFeatures, settings.features, rng);
    std::sort(data.feature_columns.begin(), data.feature_columns.end());

    const std::size_t used = settings.train_rows + settings.validation_rows;
    std::vector<std::size_t> rows(used);
    if (settings.order == SplitOrder::Random) {
        rows = sample_without_replacement(table.rows, used, rng);
    } else {
        std::iota(rows.begin(), rows.end(), std::size_t{0});
    }
    const std::vector<std::size_t> train_rows(rows.begin(), rows.begin() + settings.train_rows);
    const std::vector<std::size_t> validation_rows(rows.begin() + settings.train_rows, rows.end());

    data.train_inputs = gather_inputs(table, train_rows, data.feature_columns);
    data.validation_inputs = gather_inputs(table, validation_rows, data.feature_columns);
    data.train_targets = gather_targets(table, train_rows);
    data.validation_targets = gather_targets(table, validation_rows);

    const arma::rowvec input_mean = arma::mean(data.train_inputs, 0);
    const arma::rowvec input_scale = training_scale(data.train_inputs);
    data.train_inputs.each_row() -= input_mean;
    data.train_inputs.each_row() /= input_scale;
    data.validation_inputs.each_row() -= input_mean;
    data.validation_inputs.each_row() /= input_scale;

    const double target_mean = arma::mean(data.train_targets);
    const double target_scale = training_scale(arma::mat(data.train_targets))(0);
    data.train_targets = (data.train_targets - target_mean) / target_scale;
    data.validation_targets = (data.validation_targets - target_mean) / target_scale;
    return data;
}

}  // namespace dpbo::svr_tuning
