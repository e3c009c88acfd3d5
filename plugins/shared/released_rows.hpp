#pragma once
// The rows a curator released (PO-GP-UCB's Z, Kharkovskii, Dai & Low 2020, Alg. 2) as the modeler
// searches them: an objective over those rows whose values come from the curator, asked by row
// index only. Whoever answers — the curator's own objective in the same process, or a curator
// program on another machine — the modeler sees the released rows, the indices it asks for and the
// answers, nothing else.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include <armadillo>

#include "dpbo/objective.hpp"

namespace dpbo::released_rows {

// A row's exact values as a hashable key (its bytes): rows are addressed by their values.
std::string row_key(const arma::rowvec& row);

// Every column of the released rows gets the same declared bounds [−m, m], m = max |Z_ij| (Z is
// public), so the BO loop's unit-cube map scales Z by one factor and keeps the pairwise distances the
// release preserved, on which an isotropic kernel depends.
SearchSpace space_of(const arma::mat& released);

// The row of each point, by exact match of its values (a point the modeler proposes is a stored row).
class RowIndex {
public:
    explicit RowIndex(const arma::mat& rows);
    // Throws ValidationError naming `owner` and the first point that is no row. Of identical rows, the
    // first is taken: the modeler cannot tell them apart.
    arma::uvec rows_of(const arma::mat& points, const std::string& owner) const;

private:
    // The row of `values` (cols() entries), or none.
    std::optional<arma::uword> find(const double* values) const;

    arma::mat by_row_;  // the rows transposed: row i's values contiguous in column i, compared bit for bit
    // A hash of a row's bits → its index, one entry per distinct row: no string per row (36 000 of
    // them were most of the index's cost).
    std::unordered_multimap<std::uint64_t, arma::uword> index_;
};

// Its rows are a release already made: released (FiniteCandidates says so).
class ReleasedRowsObjective : public Objective, public FiniteCandidates {
public:
    ReleasedRowsObjective(const arma::mat& released, Sense sense, std::string owner);

    const SearchSpace& space() const final { return space_; }
    Sense sense() const final { return sense_; }
    CandidateRows candidates() const final { return {space_.candidate_rows(), RowStatus::Released}; }
    Evaluations evaluate(const arma::mat& points, const EvaluationRequest& request) final;

protected:
    // One value per row index, from the curator. Per-record losses are never asked of released rows.
    virtual arma::vec answer(const arma::uvec& rows, const EvaluationRequest& request) = 0;
    const std::string& owner() const { return owner_; }

private:
    SearchSpace space_;
    Sense sense_;
    RowIndex index_;
    std::string owner_;
};

}  // namespace dpbo::released_rows
