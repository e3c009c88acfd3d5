#pragma once
// The neighbour switch of record objectives. A record objective's privacy statements protect "one
// record replaced"; to test such a claim (`dpbo audit`), one needs the same objective on a dataset
// that differs from the drawn one in exactly one record. Two parameters declare it, shared by every
// record objective so that users meet one spelling:
//   neighbour_record  −1 (default): the data as drawn; i ≥ 0: record i is replaced;
//   neighbour_value   what the replacement record is, in a form each objective documents (for
//                     example "every coordinate of the record"), with an adversarial default: a
//                     record far from the others, whose per-record gradient is clipped.
// The objective draws its records exactly as without the switch and replaces one afterwards, so
// everything else about the data stays bit-identical.
#include <cstddef>
#include <optional>
#include <string>

#include "dpbo/parameters.hpp"

namespace dpbo {

// Declares neighbour_record and neighbour_value; `value_doc` says what the replacement record is
// made of and why its default is adversarial.
void add_neighbour_parameters(ParameterSchema& schema, double default_value, const std::string& value_doc);

struct NeighbourSwitch {
    std::optional<std::size_t> record;  // the replaced record; none: the data as drawn
    double value = 0.0;                 // neighbour_value, as the objective interprets it

    bool active() const { return record.has_value(); }
    // "" for the data as drawn, else "; record i replaced by <what> (neighbour_record = i)".
    std::string describe(const std::string& what) const;
};

// Reads the two parameters for data of `records` records. Throws ValidationError naming `owner`,
// neighbour_record, its value and the number of records when the index is not a record.
NeighbourSwitch neighbour_switch(const ParameterSet& parameters, std::size_t records, const std::string& owner);

}  // namespace dpbo
