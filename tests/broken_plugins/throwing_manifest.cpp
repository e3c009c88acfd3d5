// The manifest factory throws: the host reports the file and the message and carries on.
#include <stdexcept>

#include <dpbo/plugin.hpp>

namespace {
dpbo::Manifest throwing_manifest() { throw std::runtime_error("deliberate failure in the manifest factory"); }
const dpbo::PluginHeader header{dpbo::kPluginMagic, dpbo::kAbiVersion, DPBO_BUILD_SIGNATURE, "test",
                                &throwing_manifest};
const dpbo::PluginHeader* entry() { return &header; }
}  // namespace

BOOST_DLL_ALIAS(entry, dpbo_plugin)
