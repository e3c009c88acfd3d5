#include "mnist_split.hpp"

#include <random>
#include <utility>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "idx_reader.hpp"
#include "shipped_data.hpp"

namespace dpbo::mlp {

namespace {

constexpr const char* kImagesFile = "t10k-images-idx3-ubyte.gz";
constexpr const char* kLabelsFile = "t10k-labels-idx1-ubyte.gz";

std::string file_path(const dpbo::ParameterSet& parameters, const std::string& key, const std::string& shipped,
                      const std::string& owner) {
    return parameters.has(key) ? parameters.text(key)
                               : dpbo::plugin_data::shipped_data_file(
                                     shipped, owner, fmt::format("set {} to an IDX file of unsigned bytes", key));
}

}  // namespace

void add_mnist_split_parameters(dpbo::ParameterSchema& schema, std::int64_t least_training_images) {
    schema
        .integer("training_images", {.fallback = 8000,
                                     .lower = least_training_images,
                                     .unit = "images",
                                     .doc = "images of the permuted file the learner trains on (its private data)"})
        .integer("test_images", {.fallback = 2000,
                                 .lower = 1,
                                 .unit = "images",
                                 .doc = "images after the training ones in the permutation, for the test error"})
        .integer("split_seed",
                 {.fallback = 1, .lower = 0, .doc = "seed of the permutation that splits the file (data-independent)"})
        .text("images_file", std::nullopt, "IDX images (default: the shipped MNIST t10k-images-idx3-ubyte.gz)")
        .text("labels_file", std::nullopt, "IDX labels (default: the shipped MNIST t10k-labels-idx1-ubyte.gz)");
}

std::vector<arma::uword> split_permutation(std::size_t count, std::uint64_t seed) {
    std::vector<arma::uword> order(count);
    for (std::size_t i = 0; i < count; ++i) order[i] = i;
    std::mt19937_64 engine(seed);
    for (std::size_t i = count; i > 1; --i) std::swap(order[i - 1], order[engine() % i]);
    return order;
}

MnistSplit load_mnist_split(const dpbo::ParameterSet& parameters, const std::string& owner) {
    const std::string images_path = file_path(parameters, "images_file", kImagesFile, owner);
    const std::string labels_path = file_path(parameters, "labels_file", kLabelsFile, owner);
    const dpbo::plugin_data::IdxBytes images = dpbo::plugin_data::read_idx_bytes(images_path, "images_file", 3, owner);
    const dpbo::plugin_data::IdxBytes labels = dpbo::plugin_data::read_idx_bytes(labels_path, "labels_file", 1, owner);
    const std::size_t count = images.sizes[0];
    if (labels.sizes[0] != count)
        throw dpbo::RunError(fmt::format("{}: {} has {} labels but {} has {} images; expected one label per image",
                                         owner, labels_path, labels.sizes[0], images_path, count));
    for (std::size_t i = 0; i < count; ++i)
        if (labels.values[i] >= kMnistClasses)
            throw dpbo::RunError(fmt::format("{}: {} label {} (0-based) is {}; expected a digit 0 .. 9", owner,
                                             labels_path, i, labels.values[i]));
    const auto training = static_cast<std::size_t>(parameters.integer("training_images"));
    const auto test = static_cast<std::size_t>(parameters.integer("test_images"));
    if (training + test > count)
        throw dpbo::ValidationError(
            fmt::format("{}: training_images = {} and test_images = {} add up to more than the "
                        "{} images of {}",
                        owner, training, test, count, images_path));
    const std::size_t pixels = images.sizes[1] * images.sizes[2];
    const std::vector<arma::uword> order =
        split_permutation(count, static_cast<std::uint64_t>(parameters.integer("split_seed")));
    const auto take = [&](std::size_t first, std::size_t size, arma::fmat& out_images, arma::uvec& out_labels) {
        out_images.set_size(pixels, size);
        out_labels.set_size(size);
        for (std::size_t j = 0; j < size; ++j) {
            const std::size_t image = order[first + j];
            const std::uint8_t* source = images.values.data() + image * pixels;
            for (std::size_t p = 0; p < pixels; ++p) out_images(p, j) = static_cast<float>(source[p]) / 255.0f;
            out_labels(j) = labels.values[image];
        }
    };
    MnistSplit split;
    take(0, training, split.training_images, split.training_labels);
    take(training, test, split.test_images, split.test_labels);
    const bool shipped = !parameters.has("images_file");
    split.description = fmt::format(
        "{} ({}x{} pixels scaled to [0, 1]), split by a permutation from split_seed {}: the learner trains on {} "
        "images (the private data, one person's digit per image) and is tested on {} others",
        shipped ? "MNIST's 10 000 test images (the training images are not available here)" : images_path,
        images.sizes[1], images.sizes[2], parameters.integer("split_seed"), training, test);
    return split;
}

}  // namespace dpbo::mlp
