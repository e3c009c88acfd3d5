// The event kind "zcdp" as a module: the host builds a ZcdpEvent from `zcdp:rho=...` through it
// (`dpbo account --event`), and `dpbo list --kind event` / `dpbo info zcdp` show it.
#include <dpbo/event_kind.hpp>
#include <dpbo/plugin.hpp>

#include "zcdp_event.hpp"

DPBO_PLUGIN(dpbo::EventKindOf<zcdp::ZcdpEvent>, "zcdp", "1.0.0",
            "ρ-zCDP: a release whose Rényi divergence of every order α > 1 is at most ρα",
            "Bun & Steinke 2016, Concentrated Differential Privacy: Simplifications, Extensions, and Lower "
            "Bounds (TCC), Def. 1.1")
