#pragma once
// The acquisition over a box as NLopt sees it: only the free coordinates (upper > lower; BOBYQA
// and DIRECT refuse a zero-width dimension, and a fixed coordinate has nothing to search), every
// evaluation counted against one hard cap shared by all the searches run on it, and the best point
// evaluated kept — so a search that stops early or is stopped still leaves its best point.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>

#include <armadillo>

#include "dpbo/acquisition.hpp"

struct nlopt_opt_s;

namespace dpbo {

class Surrogate;

namespace detail {

class BoxSearch {
public:
    // `cap`: the acquisition evaluations every search on this object may spend together.
    BoxSearch(const Acquisition& acquisition, const Surrogate& model, const AcquisitionContext& context,
              const arma::rowvec& lower, const arma::rowvec& upper, std::size_t cap);

    bool has_free_coordinates() const { return free_.n_elem > 0; }
    std::size_t evaluations() const { return evaluations_; }
    std::size_t remaining() const { return cap_ - evaluations_; }

    // L-BFGS when the acquisition and the model provide gradients, BOBYQA otherwise, from `start`
    // for at most `max_evaluations` (and never past the cap).
    void local(const arma::rowvec& start, std::size_t max_evaluations);
    // NLopt's DIRECT-L with randomised tie breaks (GN_DIRECT_L_RAND, Gablonsky & Kelley 2001) over
    // the whole box for at most `max_evaluations`; its random choices come from `seed`.
    void direct(std::size_t max_evaluations, std::uint64_t seed);
    // Our DIRECT-L (batched_direct.hpp): the same search up to the differences documented there,
    // with each iteration's new centres scored in one batched prediction.
    void batched_direct(std::size_t max_evaluations, std::uint64_t seed);
    // A point scored elsewhere (a sweep) that competes for the best.
    void consider(const arma::rowvec& point, double score);

    bool found() const { return best_score_ > -std::numeric_limits<double>::infinity(); }
    const arma::rowvec& best_point() const { return best_point_; }
    double best_score() const { return best_score_; }

    // The callback NLopt calls; public only for the C trampoline. A C++ exception must not
    // unwind through NLopt's C frames: it is kept, NLopt is stopped, and it is rethrown after.
    double callback(const double* x, double* grad) noexcept;

private:
    double evaluate(const double* x, double* grad);
    void run(nlopt_opt_s* opt, const arma::rowvec& start, std::size_t max_evaluations, bool gradient);

    const Acquisition& acquisition_;
    const Surrogate& model_;
    const AcquisitionContext& context_;
    const arma::rowvec& lower_;
    const arma::rowvec& upper_;
    arma::uvec free_;
    std::size_t cap_;
    bool gradient_available_;

    nlopt_opt_s* running_ = nullptr;
    bool use_gradient_ = false;
    std::size_t run_limit_ = 0;  // evaluations_ may not pass this during the current search
    arma::rowvec point_;         // full point, reused between evaluations
    arma::rowvec gradient_;      // full gradient, reused between evaluations
    arma::rowvec best_point_;
    double best_score_ = -std::numeric_limits<double>::infinity();
    std::size_t evaluations_ = 0;
    std::exception_ptr failure_;
};

}  // namespace detail
}  // namespace dpbo
