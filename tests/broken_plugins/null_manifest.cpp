// A plugin header whose manifest function pointer is null: calling it would jump to address 0.
// The host must refuse the file, naming the null pointer, without calling it.
#include <dpbo/plugin.hpp>

namespace {
const dpbo::PluginHeader header{dpbo::kPluginMagic, dpbo::kAbiVersion, DPBO_BUILD_SIGNATURE, "test", nullptr};
const dpbo::PluginHeader* entry() { return &header; }
}  // namespace

BOOST_DLL_ALIAS(entry, dpbo_plugin)
