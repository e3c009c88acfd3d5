#pragma once
#include <map>
#include <memory>
#include <string>

#include "dpbo/errors.hpp"
#include "dpbo/module.hpp"

namespace dpbo {

// Creates modules by kind and name from raw "key=value" parameters. The host's plugin registry
// implements it; algorithms use it for components they build themselves (e.g. an accountant).
class ModuleFactory {
public:
    virtual ~ModuleFactory();
    virtual std::shared_ptr<Module> create(ModuleKind kind, const std::string& name,
                                           const std::map<std::string, std::string>& raw) = 0;

    // Typed creation. The kind is checked by the registry before the cast, so a static cast is
    // exact and no dynamic_cast crosses a library boundary.
    template <class Interface>
    std::shared_ptr<Interface> create_as(const std::string& name, const std::map<std::string, std::string>& raw = {}) {
        return std::static_pointer_cast<Interface>(create(Interface::static_kind, name, raw));
    }
};

}  // namespace dpbo
