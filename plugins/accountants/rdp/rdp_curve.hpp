#pragma once
// The RDP curve of a composition of privacy events: RDP adds order by order (Mironov 2017, Prop. 1).
#include <string>
#include <vector>

#include "dpbo/privacy_event.hpp"

namespace dpbo::rdp {

// The composed events; each is checked on add() against the neighbouring relation its bound is proved
// for. Throws dpbo::ValidationError naming the event and the relation when it does not match.
class RdpCurve {
public:
    void add(const PrivacyEvent& event, const std::string& owner);
    bool empty() const { return events_.empty(); }
    // True when every event's RDP is defined at real orders α > 1 (no without-replacement event,
    // whose bound holds for integer orders only).
    bool real_orders() const { return real_orders_; }
    // Σ_events repetitions · ε_event(α), rounded upward; +∞ where an event is not defined at α.
    double at(double alpha) const;
    // "add or remove one record" / "replace one record" / "as stated by each event's sensitivity".
    std::string neighbouring() const;
    std::size_t releases() const { return releases_; }
    const std::vector<PrivacyEvent>& events() const { return events_; }

private:
    std::vector<PrivacyEvent> events_;
    bool real_orders_ = true;
    bool poisson_ = false, without_replacement_ = false;
    std::size_t releases_ = 0;
};

}  // namespace dpbo::rdp
