#pragma once
// The SVR's data, as the authors' script prepares it (JurajMarusic/DPGIBO,
// svm_example/svm_dpbo_experiment.py): disjoint random training and validation rows, inputs and
// target standardised with the training rows' mean and population standard deviation
// (scikit-learn's StandardScaler fitted on the training split; a column constant on the training
// rows is only centred). Following the paper (Sopa et al., appendix E.2) rather than the script,
// the k features are drawn at random, not taken as the first k columns.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <armadillo>

#include "ct_slice_table.hpp"

namespace dpbo::svr_tuning {

enum class SplitOrder {
    Random,     // rows drawn without replacement with the data seed
    FileOrder,  // the first train_rows rows train, the next validation_rows rows validate
};

struct SplitSettings {
    std::size_t features = 100;
    std::size_t train_rows = 200;
    std::size_t validation_rows = 482;
    std::uint64_t seed = 0;
    SplitOrder order = SplitOrder::Random;
};

struct SvrDataset {
    arma::mat train_inputs;       // train_rows × features, standardised
    arma::vec train_targets;      // standardised
    arma::mat validation_inputs;  // validation_rows × features, with the training statistics
    arma::vec validation_targets;
    std::vector<std::size_t> feature_columns;  // the chosen CT-slice columns (value<j>), ascending
};

// Draws, from ExperimentRng(seed) and in this order: the feature columns (a uniform k-subset of
// the 384), then, for the random split, the training rows followed by the validation rows (a
// uniform ordered sample without replacement). The caller checks the sizes against the table.
SvrDataset make_svr_dataset(const CtSliceTable& table, const SplitSettings& settings);

}  // namespace dpbo::svr_tuning
