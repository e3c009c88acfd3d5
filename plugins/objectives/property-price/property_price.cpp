// A stand-in for PO-GP-UCB's private property prices (Kharkovskii, Dai & Low 2020, §4: 2 004 houses,
// their location and log price): 2 004 California census block groups (Pace & Barry 1997) with
// distinct coordinates, longitude and latitude as the features and the log median house value as
// the response. The paper's own data is not public. The paper's agency looks for the cheapest
// properties, so the price is minimised (`goal = cheapest`); the census caps values at 500 001 USD (85
// of the 2 004 block groups), so maximising (`goal = dearest`) has 85 tied optima and is an easy task.
#include <string>

#include <fmt/format.h>

#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "table_rows.hpp"

namespace {

constexpr const char* kOwner = "objective 'property-price'";
constexpr const char* kShipped = "cal_housing_sample2004.csv.gz";

dpbo::plugin_data::TableSpec property_spec(const dpbo::ParameterSet& p) {
    dpbo::plugin_data::TableSpec spec;
    spec.owner = kOwner;
    spec.setting = "data_file";
    spec.file = dpbo::plugin_data::shipped_or_given_file(p, kShipped, kOwner);
    // California's bounding box: public, whatever the sample.
    spec.features = {{"longitude", -124.5, -114.0}, {"latitude", 32.5, 42.0}};
    spec.response = "median_house_value";
    spec.transform = dpbo::plugin_data::ResponseTransform::Log;
    return spec;
}

class PropertyPrice final : public dpbo::plugin_data::TableObjective {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        dpbo::plugin_data::add_shipped_table_parameters(
            schema,
            "a CSV with longitude, latitude and median_house_value columns; absent: the shipped 2 004-row "
            "sample");
        schema.choice("goal", {"cheapest", "dearest"}, "cheapest",
                      "cheapest minimises the log price, as the paper's agency does; dearest maximises it");
        return schema;
    }
    explicit PropertyPrice(const dpbo::ParameterSet& p)
        : PropertyPrice(property_spec(p), p.real("noise_stddev"), p.text("goal") == "cheapest") {}

private:
    PropertyPrice(const dpbo::plugin_data::TableSpec& spec, double noise, bool cheapest)
        : TableObjective(dpbo::plugin_data::read_table(spec), spec.features, noise, kOwner,
                         fmt::format("California block groups from {} (a stand-in for the paper's 2 004 private "
                                     "property prices): longitude in [-124.5, -114], latitude in [32.5, 42]; response "
                                     "log(median_house_value), {}",
                                     spec.file, cheapest ? "minimised (the cheapest)" : "maximised (the dearest)"),
                         cheapest ? dpbo::Sense::Minimise : dpbo::Sense::Maximise) {}
};

}  // namespace

DPBO_PLUGIN(PropertyPrice, "property-price", "1.0.0",
            "log median house value over location, minimised (or maximised: goal), 2 004 California block groups (a "
            "stand-in for PO-GP-UCB's private property prices)",
            "Kharkovskii, Dai & Low (2020), §4 (property prices); Pace & Barry (1997)")
