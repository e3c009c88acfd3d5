#pragma once
// Reads binary-classification data in LIBSVM's sparse text format (`label idx:value idx:value ...`,
// 1-based increasing indices, labels ±1), plain or gzip-compressed, validating every line it reads.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <armadillo>

namespace dpbo::plugin_data {

// Rows as sparse vectors: row r holds entries starts[r] .. starts[r + 1] − 1 of index and value.
struct SparseRows {
    std::vector<std::size_t> starts{0};
    std::vector<std::uint32_t> index;  // 0-based feature
    std::vector<double> value;
    arma::vec labels;  // ±1

    std::size_t rows() const { return starts.size() - 1; }
};

// The first `rows` rows of `path` (named by `file_parameter`), for `features` features. Throws
// dpbo::RunError naming `owner`, the file and the line for a file that cannot be read, a label
// other than +1 / −1, an index outside 1..features or not above the previous one, a value that is
// not a finite number, or a malformed entry; dpbo::ValidationError for what is not a regular file
// or a line longer than 64 KiB, and naming `rows_parameter` when the file has fewer than `rows` rows.
SparseRows read_libsvm(const std::string& path, const std::string& file_parameter, std::size_t rows,
                       const std::string& rows_parameter, std::size_t features, const std::string& owner);

// Fraction of rows whose label has the sign of w·x (w·x = 0 counts as +1): a linear classifier's
// accuracy.
double linear_accuracy(const SparseRows& rows, const arma::vec& w);

// Scales every row by 1/√squared_norm_bound after checking ‖x‖² ≤ squared_norm_bound, so each row has
// norm ≤ 1 — the bound the Lipschitz constants and sensitivities of the learners rest on. The bound
// must be public (e.g. a9a: at most 14 ones per row), never computed from the rows. A row above it
// is refused by its line in `path` (not by its norm: the rows may be sensitive), naming `owner`.
void scale_to_unit_norm(SparseRows& rows, double squared_norm_bound, const std::string& path, const std::string& owner);

}  // namespace dpbo::plugin_data
