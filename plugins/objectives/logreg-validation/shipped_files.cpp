#include "shipped_files.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace logreg_validation {
namespace {

// An address inside this shared object: dladdr names the file it was loaded from.
const char kLocationAnchor = 0;

}  // namespace

std::string shipped_file(const std::string& name, const std::string& owner) {
    Dl_info info{};
    if (dladdr(&kLocationAnchor, &info) == 0 || info.dli_fname == nullptr)
        throw dpbo::RunError(fmt::format("{}: cannot find the plugin's own file to locate its shipped data {}", owner,
                                         name));
    std::error_code error;
    const std::filesystem::path plugin = std::filesystem::absolute(info.dli_fname, error);
    const std::filesystem::path file = (plugin.parent_path() / "../../../share/dpbo/data" / name).lexically_normal();
    if (!std::filesystem::is_regular_file(file, error))
        throw dpbo::RunError(fmt::format("{}: the data shipped with the plugin is missing: expected {} (share/dpbo/"
                                         "data three levels above the plugin {}); rebuild or reinstall dpbo",
                                         owner, file.string(), plugin.string()));
    return file.string();
}

}  // namespace logreg_validation
