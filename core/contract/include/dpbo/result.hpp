#pragma once
// A run's result: what was released (covered by the privacy statement), what is reported for
// evaluation only (never released, e.g. the true objective value), the statement, the trace.
#include <map>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/figure_spec.hpp"
#include "dpbo/privacy_statement.hpp"

namespace dpbo {

struct TraceColumn {
    std::string name;
    // true: computed from the sensitive data without privatisation; for evaluating the method
    // only, never part of the release.
    bool evaluation_only = false;
};

class Trace {
public:
    void set_columns(std::vector<TraceColumn> columns);
    // A convenience for vector columns: "theta" with d = 3 adds theta[0], theta[1], theta[2].
    static std::vector<TraceColumn> vector_columns(const std::string& name, std::size_t d, bool evaluation_only);
    // Throws RunError when the row length does not match the columns.
    void add_row(std::vector<double> row);
    const std::vector<TraceColumn>& columns() const { return columns_; }
    const std::vector<std::vector<double>>& rows() const { return rows_; }
    std::size_t column_index(const std::string& name) const;  // throws RunError if absent
    double last(const std::string& name) const;

private:
    std::vector<TraceColumn> columns_;
    std::vector<std::vector<double>> rows_;
};

struct ReleasedValue {
    std::string name;
    std::string description;
    arma::mat value;  // scalar: 1×1, point: 1×d, set of points: k×d
};

// A file an algorithm adds to its repeat's output folder (beside result.json and trace.csv), e.g.
// DPareto's Pareto front as CSV and JSON. The host writes it atomically before result.json and
// lists it there; `name` is a plain file name (no folder) other than the host's own files.
struct ResultFile {
    std::string name;
    std::string description;  // one line: what the file holds
    std::string content;
};

struct RunResult {
    std::vector<ReleasedValue> released;         // covered by `privacy`
    std::vector<ReleasedValue> evaluation_only;  // not released; for judging the run
    PrivacyStatement privacy;
    Trace trace;
    std::size_t evaluations = 0;
    std::string stop_reason;
    std::vector<ResultFile> files;  // covered by `privacy` like `released`
    // How `dpbo report` draws this result (see figure_spec.hpp). Declared here, beside the trace the
    // figures read, because they follow what the run had: its objective's outputs, whether it traced
    // a hypervolume, its parameters. Written into result.json; not released (they hold no numbers).
    std::vector<FigureSpec> figures;
};

}  // namespace dpbo
