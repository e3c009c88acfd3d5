#pragma once
// Where the data shipped with an in-tree plugin lives: <prefix>/share/dpbo/data, found from the
// plugin's own file at <prefix>/lib/dpbo/plugins (the same layout in the build tree and installed;
// dpbo_ship_plugin_data in CMakeLists.txt puts the files there).
#include <string>

namespace dpbo::plugin_data {

// The path of the shipped file `name`. Throws dpbo::RunError naming `owner`, the expected path and
// `instead` (what the user can do, e.g. "set data_file to ...") when the plugin cannot locate
// itself or the file is not there.
std::string shipped_data_file(const std::string& name, const std::string& owner, const std::string& instead);

}  // namespace dpbo::plugin_data
