#include "dpbo/neighbour.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

void add_neighbour_parameters(ParameterSchema& schema, double default_value, const std::string& value_doc) {
    schema
        .integer("neighbour_record",
                 {.fallback = -1,
                  .lower = -1,
                  .doc = "−1: the data as drawn; i ≥ 0: a neighbouring dataset in which record i is replaced "
                         "by the record neighbour_value describes, everything else bit-identical (for "
                         "'dpbo audit --neighbour objective.neighbour_record=i')"})
        .real("neighbour_value", {.fallback = default_value, .doc = value_doc});
}

std::string NeighbourSwitch::describe(const std::string& what) const {
    if (!record) return {};
    return fmt::format("; record {} replaced by {} (neighbour_record = {}, neighbour_value = {})", *record, what,
                       *record, value);
}

NeighbourSwitch neighbour_switch(const ParameterSet& parameters, std::size_t records, const std::string& owner) {
    NeighbourSwitch out;
    out.value = parameters.real("neighbour_value");
    const std::int64_t index = parameters.integer("neighbour_record");
    if (index < 0) return out;
    if (static_cast<std::size_t>(index) >= records)
        throw ValidationError(fmt::format(
            "{}: neighbour_record = {} is not a record: the data has {} records; allowed: −1 (the data as drawn) "
            "or 0 … {}",
            owner, index, records, records - 1));
    out.record = static_cast<std::size_t>(index);
    return out;
}

}  // namespace dpbo
