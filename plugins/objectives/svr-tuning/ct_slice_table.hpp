#pragma once
// Reads the UCI table "Relative location of CT slices on axial axis" (slice_localization_data.csv,
// Graf et al. 2011), plain or gzip-compressed: a header `patientId,value0,...,value383,reference`
// and one row of 386 numbers per CT slice.
#include <cstddef>
#include <string>
#include <vector>

namespace dpbo::svr_tuning {

inline constexpr std::size_t kCtSliceFeatures = 384;
inline constexpr std::size_t kCtSliceColumns = kCtSliceFeatures + 2;  // patientId, reference

struct CtSliceTable {
    std::string path;
    std::size_t rows = 0;
    std::vector<double> features;   // row-major, rows × kCtSliceFeatures (value0..value383)
    std::vector<double> reference;  // the target: relative axial location of each slice

    double feature(std::size_t row, std::size_t column) const { return features[row * kCtSliceFeatures + column]; }
};

// Throws dpbo::RunError naming `owner` and the file: when it cannot be opened or read, and for a
// wrong header or a malformed row (with its line number). Blank lines are skipped.
CtSliceTable read_ct_slice_table(const std::string& path, const std::string& owner);

}  // namespace dpbo::svr_tuning
