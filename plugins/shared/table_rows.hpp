#pragma once
// A dataset of rows and a response, read from a CSV file with a header, as the objectives over finite
// datasets hold it (PO-GP-UCB's curator data: `table`, `loan-roi`, `property-price`). The features
// come with column bounds the data owner declares (a private release of the rows scales from them,
// never from the rows): a value outside them is clipped to them and counted.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/space.hpp"
#include "released_rows.hpp"

namespace dpbo::plugin_data {

enum class ResponseTransform { None, Log };

struct TableSpec {
    std::string owner;    // "objective 'table'"
    std::string setting;  // the parameter naming the file, for messages
    std::string file;
    std::vector<Dimension> features;  // column names and declared bounds
    std::string response;
    // When set, the response is response / this column (e.g. a loan's payments over its amount), taken
    // before the transform.
    std::string response_divisor;
    ResponseTransform transform = ResponseTransform::None;
    char delimiter = ',';
    // Rows whose response is ≤ 0 under a log transform, whose divisor is ≤ 0, or whose feature or
    // response is `NA` or empty, are dropped and counted when true; refused, naming the line, when
    // false.
    bool drop_unusable = false;
    // The parameters that named the feature columns, the response and the choice to drop unusable
    // rows, for messages; empty when the objective fixes them itself (its schema of columns).
    std::string columns_key;
    std::string response_key;
    std::string drop_key;
};

struct TableRows {
    arma::mat rows;              // n × d, within the declared bounds
    arma::vec responses;         // n, transformed
    std::size_t clipped = 0;     // rows with a feature clipped to its bounds
    std::size_t dropped = 0;     // unusable rows dropped (drop_unusable)
    std::size_t duplicates = 0;  // rows whose features repeat an earlier row's: dropped, the first kept
};

// Fields of one CSV line, each trimmed of blanks; a field in double quotes may hold the delimiter, and
// "" is a quote. An unclosed quote would swallow the rest of the line silently, so it is refused
// (ValidationError; `where` names the line).
std::vector<std::string> split_csv_fields(const std::string& line, char delimiter, const std::string& where);
// The text as a finite number, all of it read; nullopt otherwise.
std::optional<double> finite_number(const std::string& text);

// Throws ValidationError naming spec.owner, the setting, the file, and the line and column at fault:
// a missing file, a missing column (with the header's names and the nearest one), a line with another
// number of fields than the header or an unclosed quote, a value that is no number, NA, a
// non-positive response under the log transform (unless drop_unusable), no usable row. Of rows whose
// (clipped) features repeat, the first is kept and the others are counted in `duplicates`: a row is
// addressed by its features, so a repeat could never be asked for.
TableRows read_table(const TableSpec& spec);

// "lo:hi,lo:hi" (one pair per name) into declared bounds. Throws ValidationError naming `owner`, the
// key and the offending pair.
std::vector<Dimension> parse_bounds(const std::string& text, const std::vector<std::string>& names,
                                    const std::string& owner, const std::string& key);

// An objective that ships its table: its `data_file` parameter (absent: the shipped file) and
// `noise_stddev`.
void add_shipped_table_parameters(ParameterSchema& schema, const std::string& data_file_doc);
// data_file when given, else the path of the shipped file `shipped` (RunError naming `owner` when it
// is missing).
std::string shipped_or_given_file(const ParameterSet& parameters, const std::string& shipped, const std::string& owner);

// An objective over a table's rows, maximised unless told otherwise: the value of a row is its
// response, found by the row's exact features; the known optimum is the best response. Figures computed from the rows (how
// many were clipped, dropped, duplicated) are reference values, never part of the description.
// Its rows are the sensitive data: FiniteCandidates says so.
class TableObjective : public Objective,
                       public FiniteCandidates,
                       public ObservationNoise,
                       public HasKnownOptimum,
                       public SensitiveData {
public:
    TableObjective(TableRows table, std::vector<Dimension> features, double noise_stddev, std::string owner,
                   std::string description, Sense sense = Sense::Maximise);
    const SearchSpace& space() const override { return space_; }
    Sense sense() const override { return sense_; }
    Evaluations evaluate(const arma::mat& points, const EvaluationRequest& request) override;
    CandidateRows candidates() const final { return {space_.candidate_rows(), RowStatus::Sensitive}; }
    double observation_noise_stddev() const override { return noise_stddev_; }
    std::optional<KnownOptimum> known_optimum() const override;
    std::string data_description() const override { return description_; }
    std::vector<ReleasedValue> reference_values() const override;

private:
    SearchSpace space_;
    arma::vec responses_;
    released_rows::RowIndex index_;
    double noise_stddev_;
    std::string owner_;
    std::string description_;
    Sense sense_;
    std::size_t clipped_;
    std::size_t dropped_;
    std::size_t duplicates_;
};

}  // namespace dpbo::plugin_data
