// A plugin header claiming another Armadillo release. Only one Armadillo is installed here, so the
// header is made by hand rather than by building against another one; the manifest function must
// never be called (it would abort the process).
#include <cstdlib>

#include <dpbo/plugin.hpp>

namespace {
dpbo::Manifest never_called() { std::abort(); }
dpbo::BuildSignature next_patch_release() {
    dpbo::BuildSignature signature = DPBO_BUILD_SIGNATURE;
    ++signature.armadillo_patch;
    return signature;
}
const dpbo::PluginHeader header{dpbo::kPluginMagic, dpbo::kAbiVersion, next_patch_release(), "test", &never_called};
const dpbo::PluginHeader* entry() { return &header; }
}  // namespace

BOOST_DLL_ALIAS(entry, dpbo_plugin)
