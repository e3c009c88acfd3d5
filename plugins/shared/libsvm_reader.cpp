#include "libsvm_reader.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "data_file_lines.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::plugin_data {
namespace {

// An a9a line is about 150 bytes; anything far longer is not this format (and a file without line
// breaks would otherwise be read whole into one string).
constexpr std::size_t kMaxLineBytes = 1 << 16;

}  // namespace

SparseRows read_libsvm(const std::string& path, const std::string& file_parameter, std::size_t rows,
                       const std::string& rows_parameter, std::size_t features, const std::string& owner) {
    dpbo::plugin_data::DataFileLines lines(
        path, {owner, file_parameter, "LIBSVM lines 'label idx:value ...'", kMaxLineBytes});
    SparseRows out;
    std::vector<double> labels;
    std::string line;
    const auto fail = [&](const std::string& what) {
        return dpbo::RunError(
            fmt::format("{}: {} line {}: {}; expected LIBSVM lines 'label idx:value ...' with label "
                        "+1 or -1, increasing indices 1..{} and finite values",
                        owner, path, lines.line_number(), what, features));
    };
    while (labels.size() < rows && lines.next(line)) {
        std::string_view rest(line);
        const auto token = [&]() {
            const auto start = rest.find_first_not_of(" \t");
            if (start == std::string_view::npos) return std::string_view{};
            rest.remove_prefix(start);
            const auto end = rest.find_first_of(" \t");
            const std::string_view word = rest.substr(0, end);
            rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
            return word;
        };
        const std::string_view label = token();
        if (label == "+1" || label == "1") {
            labels.push_back(1.0);
        } else if (label == "-1") {
            labels.push_back(-1.0);
        } else {
            throw fail(label.empty() ? "no label" : fmt::format("label '{}' is not +1 or -1", label));
        }
        std::uint32_t previous = 0;
        for (std::string_view entry = token(); !entry.empty(); entry = token()) {
            const auto colon = entry.find(':');
            if (colon == std::string_view::npos) throw fail(fmt::format("entry '{}' is not idx:value", entry));
            std::uint32_t index = 0;
            const auto [index_end, index_error] = std::from_chars(entry.data(), entry.data() + colon, index);
            if (index_error != std::errc() || index_end != entry.data() + colon || index < 1 || index > features)
                throw fail(fmt::format("entry '{}' has an index outside 1..{}", entry, features));
            if (index <= previous)
                throw fail(fmt::format("entry '{}' has an index not above the previous one ({})", entry, previous));
            double value = 0.0;
            const char* value_end = entry.data() + entry.size();
            const auto [parsed_end, value_error] = std::from_chars(entry.data() + colon + 1, value_end, value);
            if (value_error != std::errc() || parsed_end != value_end || !std::isfinite(value))
                throw fail(fmt::format("entry '{}' has a value that is not a finite number", entry));
            previous = index;
            out.index.push_back(index - 1);
            out.value.push_back(value);
        }
        out.starts.push_back(out.index.size());
    }
    if (labels.size() < rows)
        throw dpbo::ValidationError(fmt::format("{}: {} = {} is not allowed; {} has only {} rows", owner,
                                                rows_parameter, rows, path, labels.size()));
    out.labels = arma::vec(labels);
    return out;
}

double linear_accuracy(const SparseRows& rows, const arma::vec& w) {
    std::size_t correct = 0;
    for (std::size_t r = 0; r < rows.rows(); ++r) {
        double margin = 0.0;
        for (std::size_t k = rows.starts[r]; k < rows.starts[r + 1]; ++k) margin += w[rows.index[k]] * rows.value[k];
        if ((margin >= 0.0) == (rows.labels[r] > 0.0)) ++correct;
    }
    return static_cast<double>(correct) / static_cast<double>(rows.rows());
}

void scale_to_unit_norm(SparseRows& rows, double squared_norm_bound, const std::string& path,
                        const std::string& owner) {
    const double scale = 1.0 / std::sqrt(squared_norm_bound);
    for (std::size_t r = 0; r < rows.rows(); ++r) {
        double squared = 0.0;
        for (std::size_t k = rows.starts[r]; k < rows.starts[r + 1]; ++k) squared += rows.value[k] * rows.value[k];
        if (!(squared <= squared_norm_bound))
            throw dpbo::RunError(
                fmt::format("{}: {} line {} has squared norm above the public bound {}, so after "
                            "scaling it would exceed norm 1 and break the Lipschitz constants",
                            owner, path, r + 1, squared_norm_bound));
        for (std::size_t k = rows.starts[r]; k < rows.starts[r + 1]; ++k) rows.value[k] *= scale;
    }
}

}  // namespace dpbo::plugin_data
