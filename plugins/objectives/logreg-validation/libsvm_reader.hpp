#pragma once
// Reads binary-classification data in LIBSVM's sparse text format (`label idx:value idx:value ...`,
// 1-based increasing indices, labels ±1), plain or gzip-compressed, validating every line it reads.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <armadillo>

namespace logreg_validation {

// Rows as sparse vectors: row r holds entries starts[r] .. starts[r + 1] − 1 of index and value.
struct SparseRows {
    std::vector<std::size_t> starts{0};
    std::vector<std::uint32_t> index;  // 0-based feature
    std::vector<double> value;
    arma::vec labels;                  // ±1

    std::size_t rows() const { return starts.size() - 1; }
};

// The first `rows` rows of `path` (named by `file_parameter`), for `features` features. Throws
// dpbo::RunError naming `owner`, the file and the line for a file that cannot be read, a label
// other than +1 / −1, an index outside 1..features or not above the previous one, a value that is
// not a finite number, or a malformed entry; dpbo::ValidationError for what is not a regular file
// or a line longer than 64 KiB, and naming `rows_parameter` when the file has fewer than `rows` rows.
SparseRows read_libsvm(const std::string& path, const std::string& file_parameter, std::size_t rows,
                       const std::string& rows_parameter, std::size_t features, const std::string& owner);

}  // namespace logreg_validation
