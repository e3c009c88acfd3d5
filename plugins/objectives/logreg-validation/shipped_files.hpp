#pragma once
// Where the a9a splits shipped with the plugin live: <prefix>/share/dpbo/data, found from the
// plugin's own file at <prefix>/lib/dpbo/plugins (the same layout in the build tree and installed).
#include <string>

namespace logreg_validation {

inline constexpr const char* kTrainingFile = "a9a.gz";
inline constexpr const char* kValidationFile = "a9a.t.gz";

// The path of the shipped file `name`. Throws dpbo::RunError naming `owner` and the expected path
// when the plugin cannot locate itself or the file is not there.
std::string shipped_file(const std::string& name, const std::string& owner);

}  // namespace logreg_validation
