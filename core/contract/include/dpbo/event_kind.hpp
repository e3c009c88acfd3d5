#pragma once
// How an event kind is built from parameters, so that `dpbo account --event KIND:key=value,...`
// (and anything else that reads an event as text) works for every kind, built-in or a plugin's.
//
// A plugin adds a kind with an "event" module: its EventDescription class gets a kind_name, a
// schema() and a constructor from the validated parameters — the shape of the built-in classes in
// privacy_event.hpp — and one line registers it:
//
//   DPBO_PLUGIN(dpbo::EventKindOf<ZcdpEvent>, "zcdp", "1.0.0", "ρ-zCDP", "Bun & Steinke 2016")
//
// The module's name must be the kind's name (the host checks it). Accountants never see the module:
// they see the events, which mechanisms build directly in code. `dpbo list --kind event` lists the
// plugin kinds, `dpbo info KIND` their parameters.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dpbo/module.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo {

// An event kind as a module: created with the event's parameters, it holds the event they describe.
class EventKind : public Module {
public:
    ~EventKind() override;
    static constexpr ModuleKind static_kind = ModuleKind::Event;
    ModuleKind kind() const final { return static_kind; }

    // The event of one release with these parameters (not yet validated: the caller validates).
    virtual std::shared_ptr<const EventDescription> event() const = 0;
};

// The event module of a description class with `static ParameterSchema schema()` and a constructor
// from `const ParameterSet&`.
template <class Description>
class EventKindOf final : public EventKind {
public:
    static ParameterSchema schema() { return Description::schema(); }
    explicit EventKindOf(const ParameterSet& parameters) : event_(std::make_shared<const Description>(parameters)) {}
    std::shared_ptr<const EventDescription> event() const override { return event_; }

private:
    std::shared_ptr<const Description> event_;
};

// What the host needs to build an event of one kind from text.
struct EventKindEntry {
    std::string name;
    std::string summary;
    ParameterSchema schema;
    std::function<std::shared_ptr<const EventDescription>(const ParameterSet&)> build;
};

// The built-in kinds, in the order messages list them: gaussian, gdp, laplace, exponential,
// subsampled-gaussian, pure, approx, repeat-and-select.
const std::vector<EventKindEntry>& builtin_event_kinds();
const EventKindEntry* find_builtin_event_kind(std::string_view name);

}  // namespace dpbo
