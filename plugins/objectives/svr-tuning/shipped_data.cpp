#include "shipped_data.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace svr_tuning {
namespace {

// Any address inside this shared object tells dladdr which file it was loaded from; a data object
// avoids converting a function pointer to void*.
const char kLocationAnchor = 0;

}  // namespace

std::string shipped_ct_slice_sample(const std::string& owner) {
    Dl_info info{};
    if (dladdr(&kLocationAnchor, &info) == 0 || info.dli_fname == nullptr) {
        throw dpbo::RunError(fmt::format(
            "{}: cannot find the plugin's own file to locate its shipped CT-slice sample; set "
            "data_file to slice_localization_data.csv (plain or .gz)",
            owner));
    }
    std::error_code error;
    const std::filesystem::path plugin = std::filesystem::absolute(info.dli_fname, error);
    // <prefix>/lib/dpbo/plugins/<plugin>.so → <prefix>/share/dpbo/data/<sample>
    const std::filesystem::path sample =
        (plugin.parent_path() / "../../../share/dpbo/data" / kShippedSampleName).lexically_normal();
    if (!std::filesystem::is_regular_file(sample, error)) {
        throw dpbo::RunError(fmt::format(
            "{}: the CT-slice sample shipped with the plugin is missing: expected {} (share/dpbo/"
            "data three levels above the plugin {}); rebuild or reinstall dpbo, or set data_file "
            "to slice_localization_data.csv (plain or .gz)",
            owner, sample.string(), plugin.string()));
    }
    return sample.string();
}

}  // namespace svr_tuning
