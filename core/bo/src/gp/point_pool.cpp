#include "point_pool.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <map>
#include <utility>

#include <sys/mman.h>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "blas_extras.hpp"

namespace dpbo::gp::detail {

namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kMinPoints = 64;  // a chunk of DIRECT's centres (31) twice over, whatever n is

// A point's key: its coordinates' bits mixed (equal keys are then compared bit for bit, so a
// collision costs a miss, never a wrong answer).
std::uint64_t key_of(const double* point, std::size_t dim) {
    std::uint64_t h = 0x243F6A8885A308D3ULL;
    for (std::size_t j = 0; j < dim; ++j) {
        h ^= std::bit_cast<std::uint64_t>(point[j]);
        h *= 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    return h;
}

// Transparent huge pages for the whole 2 MB pages inside [data, data + bytes), where the system
// gives them on request: the storage is written a column at a time as points come, and with 4 kB
// pages each first write is a page fault. Advice only: where it is refused nothing changes.
void advise_huge_pages(double* data, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
    const auto first = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t begin = (first + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t end = (first + bytes) & ~(kHugePage - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

// block ← T⁻¹ block for T the block of the factor at (first, first), as the GP's own solves.
void solve_lower_block(const arma::mat& chol, std::size_t first, arma::mat& block) {
    if (const arma::blas_int info = solve_with_lower_block(chol, first, block, false); info != 0) {
        throw RunError(
            fmt::format("Gaussian process: the Cholesky factor has a zero on its diagonal (entry {})", first + info));
    }
}

}  // namespace

void PointPool::reset(std::uint64_t epoch, std::size_t dim) {
    epoch_ = epoch;
    slots_used_ = 0;
    std::fill(slots_.begin(), slots_.end(), Slot{});
    free_.clear();
    slot_of_.clear();
    if (dim != dim_) {
        columns_.reset();
        points_.reset();
        slots_.clear();
        max_points_ = 0;
        planned_rows_ = 0;
        dim_ = dim;
    }
    // Otherwise the storage stays: a refit makes every column stale but not the pages that hold
    // them, and writing into pages already touched spares the kernel zero-filling them again (a
    // tenth of DPareto's run went to those faults when the pool was freed at every refit).
}

void PointPool::reserve_rows(std::size_t n) {
    if (planned_rows_ >= n && max_points_ > 0) return;
    // How many points the pool holds is set by columns with room for a run of appends (25 % or 32
    // more observations), as the factor keeps.
    planned_rows_ = std::max<std::size_t>(n, planned_rows_ + std::max<std::size_t>(planned_rows_ / 4, 32));
    const std::size_t max_points =
        std::clamp<std::size_t>(kPoolBytes / (sizeof(double) * planned_rows_), kMinPoints, kMaxPoints);
    // Longer columns leave room for fewer points: start afresh rather than choose whom to keep.
    if (max_points < slots_used_) reset(epoch_, dim_);
    max_points_ = max_points;
    if (columns_.n_cols == max_points_ && columns_.n_rows >= planned_rows_) return;  // room enough already
    // The storage, though, doubles its rows while the pool's bytes allow: each growth copies every
    // kept column into pages the kernel must first hand over, and growing by a quarter made those
    // copies and page faults a sixth of gp-ucb's run to n = 400. Which points are held, and so every
    // answer, is the same either way: only planned_rows_ decides it.
    const std::size_t rows =
        std::max(planned_rows_, std::min<std::size_t>(2 * n, kPoolBytes / (sizeof(double) * max_points_)));
    // Room for every point the pool may hold at once: pages not yet written are not resident (huge
    // pages are given whole, 2 MB at a time, within the pool's bytes), so this costs little until
    // used and spares the copies of growing.
    relayout(rows, max_points_);
}

void PointPool::relayout(std::size_t rows, std::size_t points) {
    // Not through resize(), which zero-fills the new part: pages of a matrix of several tens of MB
    // are then touched (and faulted in) long before a point is stored there.
    arma::mat columns(rows, points, arma::fill::none);
    advise_huge_pages(columns.memptr(), columns.n_elem * sizeof(double));
    for (std::size_t s = 0; s < std::min<std::size_t>(slots_used_, points); ++s) {
        const std::size_t kept = std::min(slots_[s].rows, rows);
        if (kept > 0) std::memcpy(columns.colptr(s), columns_.colptr(s), kept * sizeof(double));
    }
    columns_ = std::move(columns);
    arma::mat coordinates(dim_, points, arma::fill::none);
    const std::size_t copied = std::min<std::size_t>(points_.n_cols, points);
    if (copied > 0 && dim_ > 0) std::memcpy(coordinates.memptr(), points_.memptr(), copied * dim_ * sizeof(double));
    points_ = std::move(coordinates);
    slots_.resize(points);
}

std::size_t PointPool::find(std::uint64_t key, const double* point, std::size_t dim) const {
    const auto it = slot_of_.find(key);
    if (it == slot_of_.end()) return kNone;
    const std::size_t slot = it->second;
    return std::memcmp(points_.colptr(slot), point, dim * sizeof(double)) == 0 ? slot : kNone;
}

std::size_t PointPool::take_slot() {
    if (!free_.empty()) {
        const std::size_t slot = free_.back();
        free_.pop_back();
        return slot;
    }
    if (slots_used_ < max_points_) return slots_used_++;
    // Full: forget the least recently used quarter at once (never a point of the current call, whose
    // column is about to be read).
    std::vector<std::pair<std::uint64_t, std::size_t>> age;
    age.reserve(slots_used_);
    for (std::size_t s = 0; s < slots_used_; ++s)
        if (slots_[s].last_used < clock_) age.emplace_back(slots_[s].last_used, s);
    if (age.empty()) return kNone;
    const std::size_t forget = std::max<std::size_t>(1, age.size() / 4);
    std::nth_element(age.begin(), age.begin() + static_cast<std::ptrdiff_t>(forget - 1), age.end());
    for (std::size_t k = 0; k < forget; ++k) {
        const std::size_t s = age[k].second;
        const auto it = slot_of_.find(slots_[s].key);
        if (it != slot_of_.end() && it->second == s) slot_of_.erase(it);
        slots_[s] = Slot{};
        free_.push_back(s);
    }
    return take_slot();
}

void PointPool::refresh_explained(std::size_t s) {
    Slot& slot = slots_[s];
    if (slot.explained_valid) return;
    slot.explained = slot.rows == 0 ? 0.0 : arma::accu(arma::square(columns_.col(s).head(slot.rows)));
    slot.explained_valid = true;
}

void PointPool::extend(const Factor& factor, const std::vector<std::size_t>& slots, std::size_t from) {
    const std::size_t n = factor.points.n_rows;
    const arma::uvec index = arma::conv_to<arma::uvec>::from(slots);
    for (const std::size_t s : slots) refresh_explained(s);
    // v's new entries: L22 v₂ = k(D₂, q) − L21 v₁, for the rows [from, n) of the factor.
    const arma::mat queries = points_.cols(index).t();
    arma::mat fresh = factor.kernel.cross(factor.points.rows(from, n - 1), queries);  // (n − from) × S
    if (from > 0) {
        // L21 v₁ for each slot from its column in place (a gather of the columns first copied them
        // all); L21, rows of the factor far apart in memory, copied once.
        const arma::mat below = factor.chol.submat(from, 0, n - 1, from - 1);
        const char no = 'N';
        const auto rows = static_cast<arma::blas_int>(n - from);
        const auto inner = static_cast<arma::blas_int>(from);
        const arma::blas_int unit = 1;
        const double minus_one = -1.0;
        const double one = 1.0;
        for (arma::uword k = 0; k < index.n_elem; ++k) {
            arma::blas::gemv(&no, &rows, &inner, &minus_one, below.memptr(), &rows, columns_.colptr(index(k)), &unit,
                             &one, fresh.colptr(k), &unit);
        }
    }
    solve_lower_block(factor.chol, from, fresh);
    for (arma::uword k = 0; k < index.n_elem; ++k) {
        Slot& slot = slots_[index(k)];
        columns_.col(index(k)).subvec(from, n - 1) = fresh.col(k);
        slot.explained += arma::accu(arma::square(fresh.col(k)));
        slot.rows = n;
    }
}

void PointPool::evaluate(const Factor& factor, const arma::mat& queries, arma::vec& explained, arma::vec& projected) {
    const std::size_t n = factor.points.n_rows;
    const std::size_t m = queries.n_rows;
    const std::size_t dim = queries.n_cols;
    if (factor.epoch != epoch_ || dim != dim_) reset(factor.epoch, dim);
    reserve_rows(n);
    ++clock_;
    explained.set_size(m);
    projected.set_size(m);

    std::vector<std::size_t> slot_of_query(m, kNone);
    std::vector<std::uint64_t> keys(m);
    std::vector<arma::uword> missed;
    std::map<std::size_t, std::vector<std::size_t>> stale;  // rows up to date → slots to extend
    std::vector<double> point(dim);
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < dim; ++j) point[j] = queries(i, j);
        keys[i] = key_of(point.data(), dim);
        const std::size_t s = find(keys[i], point.data(), dim);
        if (s == kNone) {
            missed.push_back(i);
            continue;
        }
        slot_of_query[i] = s;
        Slot& slot = slots_[s];
        if (slot.last_used != clock_ && slot.rows < n) stale[slot.rows].push_back(s);
        slot.last_used = clock_;
    }
    hits_ += m - missed.size();
    misses_ += missed.size();
    for (const auto& [from, slots] : stale) extend(factor, slots, from);

    for (std::size_t i = 0; i < m; ++i) {
        const std::size_t s = slot_of_query[i];
        if (s == kNone) continue;
        Slot& slot = slots_[s];
        refresh_explained(s);  // cut by a truncate, not extended since
        explained(i) = slot.explained;
        projected(i) = arma::dot(columns_.col(s).head(n), factor.beta);
    }
    if (missed.empty()) return;

    // The misses in one triangular solve, then remembered.
    const arma::uvec rows = arma::conv_to<arma::uvec>::from(missed);
    arma::mat solved = factor.kernel.cross(factor.points, queries.rows(rows));  // n × misses
    solve_lower_block(factor.chol, 0, solved);
    for (arma::uword k = 0; k < rows.n_elem; ++k) {
        const arma::uword i = rows(k);
        const double norm = arma::accu(arma::square(solved.col(k)));
        explained(i) = norm;
        projected(i) = arma::dot(solved.col(k), factor.beta);
        for (std::size_t j = 0; j < dim; ++j) point[j] = queries(i, j);
        if (find(keys[i], point.data(), dim) != kNone) continue;  // the same point twice in one call
        const std::size_t s = take_slot();
        if (s == kNone) continue;
        std::memcpy(points_.colptr(s), point.data(), dim * sizeof(double));
        columns_.col(s).head(n) = solved.col(k);
        slots_[s] = Slot{keys[i], n, norm, true, clock_};
        slot_of_[keys[i]] = s;
    }
}

void PointPool::truncate(std::size_t n) {
    for (std::size_t s = 0; s < slots_used_; ++s) {
        Slot& slot = slots_[s];
        if (slot.rows > n) {
            slot.rows = n;
            slot.explained_valid = false;
        }
    }
}

}  // namespace dpbo::gp::detail
