#pragma once
// A GP's memory of single query points that a search scores again and again: DIRECT's rectangle
// centres repeat from one BO iteration to the next wherever the acquisition's landscape did not
// move, and each iteration adds one observation. For every remembered point q the pool keeps
// v = L⁻¹k(D, q) (the column the posterior variance needs), so scoring q again after k appended
// observations costs O(n·k) — the k new entries of v — instead of the O(n²) triangular solve of a
// fresh point. Misses are solved together (one triangular solve with many right-hand sides) and
// then remembered. Exact: a remembered point's posterior is the one a fresh solve gives, up to
// rounding.
//
// The mean comes from the same column: k(q, D)α = vᵀβ with β = L⁻¹ỹ (ỹ the centred, scaled targets),
// so nothing but v is stored: one column of at most `rows` doubles per point, the pool holding at
// most kPoolBytes.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <armadillo>

#include "dpbo/gp/kernel.hpp"

namespace dpbo::gp::detail {

class PointPool {
public:
    // The factor's data: the n data points, the lower-triangular L (leading n × n block of `chol`,
    // which may hold spare capacity), β = L⁻¹ỹ, and the factor's epoch (a full factorisation makes
    // every remembered column stale).
    struct Factor {
        const Kernel& kernel;
        const arma::mat& points;
        const arma::mat& chol;
        const arma::vec& beta;
        std::uint64_t epoch;
    };

    // For every row q of `queries`: explained(i) = ‖v‖² and projected(i) = vᵀβ.
    void evaluate(const Factor& factor, const arma::mat& queries, arma::vec& explained, arma::vec& projected);
    // The data were cut to their first n points: longer columns are cut too (their tails described
    // points that are gone, and the next appends reuse those indices).
    void truncate(std::size_t n);

    std::size_t size() const { return slots_used_; }
    std::uint64_t hits() const { return hits_; }
    std::uint64_t misses() const { return misses_; }

    static constexpr std::size_t kPoolBytes = std::size_t{96} << 20;
    static constexpr std::size_t kMaxPoints = 4096;

private:
    struct Slot {
        std::uint64_t key = 0;
        std::size_t rows = 0;    // entries of v that are up to date
        double explained = 0.0;  // ‖v[0, rows)‖², when explained_valid
        bool explained_valid = true;
        std::uint64_t last_used = 0;
    };

    // Forgets every point; the storage is kept unless the dimension changed.
    void reset(std::uint64_t epoch, std::size_t dim);
    void reserve_rows(std::size_t n);
    // Storage for `points` columns of `rows` entries, the kept slots' columns copied over.
    void relayout(std::size_t rows, std::size_t points);
    std::size_t find(std::uint64_t key, const double* point, std::size_t dim) const;
    std::size_t take_slot();
    // ‖v‖² over the slot's up-to-date entries, when a truncation left it to be recomputed.
    void refresh_explained(std::size_t slot);
    void extend(const Factor& factor, const std::vector<std::size_t>& slots, std::size_t from);

    std::uint64_t epoch_ = 0;
    std::size_t dim_ = 0;
    std::size_t max_points_ = 0;
    std::size_t planned_rows_ = 0;  // the rows max_points_ is set from; the storage may have more
    std::size_t slots_used_ = 0;
    arma::mat columns_;  // row capacity × max_points_: column s is slot s's v
    arma::mat points_;   // dim × max_points_: column s is slot s's point, compared bit for bit
    std::vector<Slot> slots_;
    std::vector<std::size_t> free_;  // slots forgotten, to be taken before new ones
    std::unordered_map<std::uint64_t, std::size_t> slot_of_;
    std::uint64_t clock_ = 0;
    std::uint64_t hits_ = 0;
    std::uint64_t misses_ = 0;
};

}  // namespace dpbo::gp::detail
