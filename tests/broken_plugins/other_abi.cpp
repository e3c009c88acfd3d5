// A plugin header claiming a different ABI version: the host must refuse it before calling the
// manifest function (which would abort the process if it were called).
#include <cstdlib>

#include <dpbo/plugin.hpp>

namespace {
dpbo::Manifest never_called() { std::abort(); }
const dpbo::PluginHeader header{dpbo::kPluginMagic, dpbo::kAbiVersion + 1, DPBO_BUILD_SIGNATURE, "test", &never_called};
const dpbo::PluginHeader* entry() { return &header; }
}  // namespace

BOOST_DLL_ALIAS(entry, dpbo_plugin)
