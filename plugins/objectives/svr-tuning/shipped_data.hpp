#pragma once
// Where the CT-slice sample shipped with the plugin lives: <prefix>/share/dpbo/data, found from
// the plugin's own file at <prefix>/lib/dpbo/plugins — the same layout in the build tree and after
// `cmake --install`, so no configuration is needed in either.
#include <string>

namespace svr_tuning {

inline constexpr const char* kShippedSampleName = "slice_localization_data.head682.csv.gz";

// The path of the shipped sample. Throws dpbo::RunError naming `owner` and the expected path when
// the plugin cannot locate itself or the file is not there.
std::string shipped_ct_slice_sample(const std::string& owner);

}  // namespace svr_tuning
