#pragma once
// MNIST as DPareto's MLP oracle reads it. Only the 10 000 test images of MNIST are available here
// (../shared/data/mnist lacks the training images), so they are split into the learner's training
// set (its private data, one person's digit per image) and a test set by a data-independent rule: a
// permutation of the image indices drawn from a fixed seed (Fisher–Yates with mt19937_64, whose
// output the C++ standard fixes), the first `training_images` for training and the next
// `test_images` for testing. A permutation rather than a cut by index because MNIST's test file is
// ordered by origin — its first 5 000 images come from the Census Bureau employees' SD-3, the
// last 5 000 from the students' SD-1 — so a cut would test on another population than it trains on.
// Pixels are scaled to [0, 1]; each image is one column.
#include <cstdint>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/parameters.hpp"

namespace dpbo::mlp {

inline constexpr std::size_t kMnistClasses = 10;

// training_images (default 8000, at least `least_training_images`), test_images (default 2000),
// split_seed, images_file and labels_file (default: the shipped t10k files).
void add_mnist_split_parameters(dpbo::ParameterSchema& schema, std::int64_t least_training_images);

struct MnistSplit {
    arma::fmat training_images;  // pixels × n, in [0, 1]
    arma::uvec training_labels;  // n, in 0 .. 9
    arma::fmat test_images;
    arma::uvec test_labels;
    std::string description;  // one line for SensitiveData::data_description (no figure from the images)
};

// Reads both files and splits them as the parameters say. Errors name `owner`, the key and the
// file: IDX problems (idx_reader.hpp), image and label counts that differ, a label above 9, more
// training and test images than the file has.
MnistSplit load_mnist_split(const dpbo::ParameterSet& parameters, const std::string& owner);

// The data-independent split: a permutation of 0 .. count − 1 from `seed` (Fisher–Yates, j drawn as
// engine() mod (i + 1); the modulo bias is below 2⁻⁵⁰ for MNIST's counts).
std::vector<arma::uword> split_permutation(std::size_t count, std::uint64_t seed);

}  // namespace dpbo::mlp
