#include "batched_direct.hpp"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"

namespace dpbo::detail {

namespace {

// Each division trisects one side: the parent keeps the middle third, the children are centred one
// new width to either side.
constexpr double kThird = 1.0 / 3.0;
// Sides within 5 % of the longest count as longest (NLopt's EQUAL_SIDE_TOL): widths are repeated
// thirds of 1, equal in exact arithmetic, and need not be equal after rounding.
constexpr double kEqualSideTolerance = 5e-2;

// Internally DIRECT minimises f = −score, as the algorithm is written.
struct RectKey {
    double value;
    std::uint64_t age;  // older first among equal values: DIRECT-L divides one of them, the oldest
    std::size_t rect;
    // "Comes after": std::push_heap and friends then keep the best (lowest value, oldest) on top.
    bool operator<(const RectKey& other) const {
        if (value != other.value) return value > other.value;
        return age > other.age;
    }
};

// The rectangles of one size as a heap with the best on top: DIRECT only ever divides a size's
// best rectangle, so removal is always from the top and no node-based container is needed.
struct SizeGroup {
    double size;
    std::vector<RectKey> heap;
    const RectKey& best() const { return heap.front(); }
    void push(const RectKey& key) {
        heap.push_back(key);
        std::push_heap(heap.begin(), heap.end());
    }
    void pop_best() {
        std::pop_heap(heap.begin(), heap.end());
        heap.pop_back();
    }
};

class Search {
public:
    Search(std::size_t dim, std::size_t max_evaluations, std::uint64_t seed, const BatchScorer& score)
        : dim_(dim), max_evaluations_(max_evaluations), score_(score), rng_(seed) {}

    DirectResult run() {
        // The whole cube: its centre first, then its first division, as DIRECT starts.
        const std::vector<double> centre(dim_, 0.5);
        const std::vector<double> widths(dim_, 1.0);
        queue_child(centre.data(), widths.data());
        evaluate_queued();
        if (remaining() > 0) {
            divide(0);
            evaluate_queued();
        }
        while (remaining() > 0) {
            const double best_at_start = values_[best_];
            for (const std::size_t rect : potentially_optimal(best_at_start)) divide(rect);
            evaluate_queued();
        }
        DirectResult result;
        result.point = arma::rowvec(centres_.data() + best_ * dim_, dim_);
        result.score = -values_[best_];
        result.evaluations = evaluations_;
        return result;
    }

private:
    std::size_t remaining() const { return max_evaluations_ - evaluations_; }
    const double* widths_of(std::size_t rect) const { return widths_.data() + rect * dim_; }
    double* widths_of(std::size_t rect) { return widths_.data() + rect * dim_; }

    // Gablonsky's size measure, half the longest side, rounded to single precision so that
    // rectangles of one size compare equal despite the rounding of repeated thirds (as NLopt does).
    double diameter(const double* widths) const {
        return static_cast<double>(static_cast<float>(0.5 * *std::max_element(widths, widths + dim_)));
    }

    // The lower-right convex hull of (size, best value of that size), one rectangle per size (the
    // oldest of the best: DIRECT-L), and from it the rectangles for which some rate of change K > 0
    // makes them the most promising: value − K·size ≤ the best value (Jones et al. 1993, with
    // ε = 0 as in NLopt's DIRECT-L). The largest size is always among them, so every iteration
    // divides something.
    std::vector<std::size_t> potentially_optimal(double best_value) const {
        std::vector<std::pair<double, std::size_t>> hull;  // (size, rect)
        const auto value = [&](const std::pair<double, std::size_t>& p) { return values_[p.second]; };
        for (const SizeGroup& group : by_size_) {
            if (group.heap.empty()) continue;
            const std::pair<double, std::size_t> point{group.size, group.best().rect};
            // Andrew's monotone chain; collinear points stay on the hull, as in NLopt.
            while (hull.size() >= 2) {
                const auto& t1 = hull[hull.size() - 1];
                const auto& t2 = hull[hull.size() - 2];
                const double turn = (t1.first - t2.first) * (value(point) - value(t2)) -
                                    (value(t1) - value(t2)) * (point.first - t2.first);
                if (turn >= 0.0) break;
                hull.pop_back();
            }
            hull.push_back(point);
        }
        std::vector<std::size_t> chosen;
        for (std::size_t i = 0; i < hull.size(); ++i) {
            const double y = value(hull[i]);
            const double x = hull[i].first;
            double rate = -std::numeric_limits<double>::infinity();
            if (i > 0) rate = (y - value(hull[i - 1])) / (x - hull[i - 1].first);
            const bool last = i + 1 == hull.size();
            if (!last) rate = std::max(rate, (y - value(hull[i + 1])) / (x - hull[i + 1].first));
            if (last || y - rate * x <= best_value) chosen.push_back(hull[i].second);
        }
        return chosen;
    }

    // Trisects one longest side of `rect` (a random one among equally long sides) and queues the
    // two new centres.
    void divide(std::size_t rect) {
        SizeGroup& group = group_of(sizes_[rect]);
        if (group.best().rect != rect)
            throw RunError(
                "acquisition optimiser (DIRECT-L): divided a rectangle that is "
                "not the best of its size (an internal error)");
        group.pop_best();
        double* widths = widths_of(rect);
        const double longest = *std::max_element(widths, widths + dim_);
        longest_sides_.clear();
        for (std::size_t j = 0; j < dim_; ++j)
            if (longest - widths[j] <= longest * kEqualSideTolerance) longest_sides_.push_back(j);
        const std::size_t side =
            longest_sides_.size() > 1 ? longest_sides_[rng_.index(longest_sides_.size())] : longest_sides_.front();
        widths[side] *= kThird;
        sizes_[rect] = diameter(widths);
        ages_[rect] = next_age_++;
        group_of(sizes_[rect]).push(RectKey{values_[rect], ages_[rect], rect});

        centre_.assign(centres_.begin() + static_cast<std::ptrdiff_t>(rect * dim_),
                       centres_.begin() + static_cast<std::ptrdiff_t>((rect + 1) * dim_));
        const double middle = centre_[side];
        for (const double direction : {-1.0, 1.0}) {
            centre_[side] = middle + direction * widths[side];
            queue_child(centre_.data(), widths);
        }
    }

    void queue_child(const double* centre, const double* widths) {
        queued_centres_.insert(queued_centres_.end(), centre, centre + dim_);
        queued_widths_.insert(queued_widths_.end(), widths, widths + dim_);
        queued_ages_.push_back(next_age_++);
    }

    // The group of one size, created empty if new; sizes stay sorted ascending (there are few:
    // one per number of trisections of the longest side).
    SizeGroup& group_of(double size) {
        auto it = std::lower_bound(by_size_.begin(), by_size_.end(), size,
                                   [](const SizeGroup& group, double value) { return group.size < value; });
        if (it == by_size_.end() || it->size != size) it = by_size_.insert(it, SizeGroup{size, {}});
        return *it;
    }

    // Scores the queued centres in one batch (as many as the budget allows) and files them.
    void evaluate_queued() {
        const std::size_t count = std::min(queued_ages_.size(), remaining());
        if (count > 0) {
            arma::mat points(count, dim_);
            for (std::size_t i = 0; i < count; ++i)
                for (std::size_t j = 0; j < dim_; ++j) points(i, j) = queued_centres_[i * dim_ + j];
            const arma::vec scores = score_(points);
            if (scores.n_elem != count) {
                throw RunError(
                    fmt::format("acquisition optimiser (DIRECT-L): {} scores for {} points", scores.n_elem, count));
            }
            for (std::size_t i = 0; i < count; ++i) {
                const std::size_t rect = values_.size();
                centres_.insert(centres_.end(), queued_centres_.begin() + static_cast<std::ptrdiff_t>(i * dim_),
                                queued_centres_.begin() + static_cast<std::ptrdiff_t>((i + 1) * dim_));
                widths_.insert(widths_.end(), queued_widths_.begin() + static_cast<std::ptrdiff_t>(i * dim_),
                               queued_widths_.begin() + static_cast<std::ptrdiff_t>((i + 1) * dim_));
                values_.push_back(-scores(i));
                ages_.push_back(queued_ages_[i]);
                sizes_.push_back(diameter(widths_of(rect)));
                group_of(sizes_[rect]).push(RectKey{values_[rect], ages_[rect], rect});
                // Strictly lower: the first of equal values stays the best.
                if (rect == 0 || values_[rect] < values_[best_]) best_ = rect;
            }
            evaluations_ += count;
        }
        queued_centres_.clear();
        queued_widths_.clear();
        queued_ages_.clear();
    }

    std::size_t dim_;
    std::size_t max_evaluations_;
    const BatchScorer& score_;
    ExperimentRng rng_;

    // One entry (or dim_ entries) per evaluated rectangle.
    std::vector<double> centres_;
    std::vector<double> widths_;
    std::vector<double> values_;
    std::vector<std::uint64_t> ages_;
    std::vector<double> sizes_;
    std::vector<SizeGroup> by_size_;  // ascending size

    std::vector<std::size_t> longest_sides_;  // scratch of divide()
    std::vector<double> centre_;              // scratch of divide()

    std::vector<double> queued_centres_;
    std::vector<double> queued_widths_;
    std::vector<std::uint64_t> queued_ages_;

    std::uint64_t next_age_ = 0;
    std::size_t evaluations_ = 0;
    std::size_t best_ = 0;
};

}  // namespace

DirectResult batched_direct_l(std::size_t dim, std::size_t max_evaluations, std::uint64_t seed,
                              const BatchScorer& score) {
    if (dim == 0 || max_evaluations == 0) {
        throw ValidationError(
            fmt::format("acquisition optimiser (DIRECT-L): dimension {} and {} evaluations; "
                        "allowed: at least 1 of each",
                        dim, max_evaluations));
    }
    return Search(dim, max_evaluations, seed, score).run();
}

}  // namespace dpbo::detail
