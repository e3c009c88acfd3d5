#pragma once
// Search spaces: a box of continuous (linear or log-scaled) and integer dimensions, or a finite set
// of candidates given as a matrix (one row per candidate). Points are always rows: a batch of b
// points in d dimensions is a b×d matrix.
#include <armadillo>
#include <string>
#include <vector>

namespace dpbo {

class ExperimentRng;

enum class Scale { Linear, Log };

struct Dimension {
    std::string name;
    double lower = 0.0;
    double upper = 1.0;
    Scale scale = Scale::Linear;
    bool integer = false;
};

class SearchSpace {
public:
    SearchSpace() = default;
    // Throws ValidationError for lower >= upper, a log scale with lower <= 0, or an empty box.
    static SearchSpace box(std::vector<Dimension> dimensions);
    static SearchSpace uniform_box(std::size_t dim, double lower, double upper, const std::string& name_prefix = "x");
    // Rows are candidates; names label the columns (generated when empty).
    static SearchSpace candidates(arma::mat rows, std::vector<std::string> names = {});
    // Rows with bounds the data owner declares independently of the data (e.g. the known range of
    // each column), as a private release of the rows needs: a scale computed from the rows would
    // itself leak them. One Dimension per column (names and bounds; scale and integrality are
    // ignored). Throws ValidationError naming the first row and column outside its bounds.
    static SearchSpace candidates_within(arma::mat rows, std::vector<Dimension> declared);

    bool is_finite() const { return finite_; }
    // True for a box, and for a candidate set made by candidates_within; false when the candidate
    // bounds are the rows' own minimum and maximum.
    bool bounds_declared() const { return !finite_ || bounds_declared_; }
    std::size_t dim() const;
    const std::vector<Dimension>& dimensions() const { return dimensions_; }
    const arma::mat& candidate_rows() const { return candidates_; }
    std::vector<std::string> names() const;
    arma::rowvec lower() const;
    arma::rowvec upper() const;

    // Box: maps to and from the unit cube [0,1]^d, where log dimensions are uniform in log space
    // and integer dimensions are rounded after mapping back. Samplers and optimisers work there.
    arma::mat to_unit(const arma::mat& points) const;
    arma::mat from_unit(const arma::mat& unit_points) const;

    // Uniform samples in the unit cube mapped back (box), or rows drawn uniformly (finite set).
    arma::mat sample(std::size_t count, ExperimentRng& rng) const;
    // Full factorial grid with `per_dimension` levels (box), respecting scale and integrality.
    arma::mat grid(std::size_t per_dimension) const;
    // Projection onto the box (post-processing for private iterates).
    arma::mat clamp(const arma::mat& points) const;
    arma::rowvec centre() const;

    // Throws ValidationError naming the first offending point and coordinate.
    void check_contains(const arma::mat& points, const std::string& context) const;

private:
    bool finite_ = false;
    bool bounds_declared_ = false;
    std::vector<Dimension> dimensions_;
    arma::mat candidates_;
};

}  // namespace dpbo
