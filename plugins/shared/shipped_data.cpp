#include "shipped_data.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::plugin_data {

namespace {

// An address inside the plugin this static library is linked into: dladdr names the plugin's file.
// A data object avoids converting a function pointer to void*.
const char kLocationAnchor = 0;

}  // namespace

std::string shipped_data_file(const std::string& name, const std::string& owner, const std::string& instead) {
    Dl_info info{};
    if (dladdr(&kLocationAnchor, &info) == 0 || info.dli_fname == nullptr)
        throw RunError(fmt::format("{}: cannot find the plugin's own file to locate its shipped data {}; {}", owner,
                                   name, instead));
    std::error_code error;
    const std::filesystem::path plugin = std::filesystem::absolute(info.dli_fname, error);
    const std::filesystem::path file = (plugin.parent_path() / "../../../share/dpbo/data" / name).lexically_normal();
    if (!std::filesystem::is_regular_file(file, error))
        throw RunError(
            fmt::format("{}: the data shipped with the plugin is missing: expected {} (share/dpbo/data "
                        "three levels above the plugin {}); rebuild or reinstall dpbo, or {}",
                        owner, file.string(), plugin.string(), instead));
    return file.string();
}

}  // namespace dpbo::plugin_data
