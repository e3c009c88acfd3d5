#pragma once
// The RDP curve of a composition of privacy events: RDP adds order by order (Mironov 2017, Prop. 1).
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "dpbo/privacy_event.hpp"
#include "rdp_conversion.hpp"

namespace dpbo::rdp {

class SelectionCurve;

// The composed events; each is checked on add() against the neighbouring relation its bound is proved
// for. Throws dpbo::ValidationError naming the event and the relation when it does not match.
class RdpCurve {
public:
    // A selection among trials (repeat-and-select) finds δ̂ of Papernot & Steinke's Thm. 6 by this
    // conversion; set it before adding events.
    explicit RdpCurve(Conversion conversion = Conversion::Tight) : conversion_(conversion) {}
    void add(const PrivacyEvent& event, const std::string& owner);
    bool empty() const { return events_.empty(); }
    // True when every event's RDP is defined at real orders α > 1 (every built-in kind now is: the
    // without-replacement bound between integers by interpolation; a selection may still not be).
    bool real_orders() const { return real_orders_; }
    // Σ_events repetitions · ε_event(α), rounded upward; +∞ where an event is not defined at α.
    double at(double alpha) const;
    // "add or remove one record" / "replace one record" / "as stated by each event's sensitivity".
    std::string neighbouring() const;
    std::size_t releases() const { return releases_; }
    const std::vector<PrivacyEvent>& events() const { return events_; }

private:
    double compute_at(double alpha) const;
    // Checks a subsampled event's neighbouring relation against the ones already composed (and,
    // for a selection, every event of its trial).
    void note_sampling(const PrivacyEvent& event, const std::string& owner);

    // at(α) remembered per order: `dpbo account` minimises over orders for ε(δ) and again for the
    // statement, and the statement lists the curve at its own orders. A clone shares the values while
    // its events are the same; add() starts a new table.
    struct Remembered {
        std::mutex mutex;
        std::map<double, double> values;
    };
    mutable std::shared_ptr<Remembered> remembered_ = std::make_shared<Remembered>();
    Conversion conversion_;
    std::vector<PrivacyEvent> events_;
    std::vector<std::shared_ptr<const SelectionCurve>> selections_;  // parallel to events_; null but for selections
    bool real_orders_ = true;
    bool poisson_ = false, without_replacement_ = false;
    std::size_t releases_ = 0;
};

}  // namespace dpbo::rdp
