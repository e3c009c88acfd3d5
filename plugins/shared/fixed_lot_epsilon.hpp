#pragma once
// ε of DP-SGD with fixed-size lots (Avent et al. 2020, Algorithm 3; Abadi et al. 2016): every step
// is the Gaussian mechanism with noise multiplier σ on a lot of m of the n private rows drawn
// without replacement (the clipped mean's sensitivity is 2L/m when one row is replaced, the noise
// (2L/m)σ), and the steps compose. ε at δ comes from the `rdp` accountant's subsampled Gaussian
// with sampling without replacement (Wang, Balle & Kasiviswanathan 2019, replace-one neighbours)
// and the tight RDP-to-(ε, δ) conversion. The clipping norm cancels: ε depends on (m/n, σ, steps)
// only, so values are memoised by (n, m, σ, steps) — a search revisits them often.
#include <cstddef>
#include <map>
#include <mutex>
#include <tuple>

namespace dpbo::plugin_data {

class FixedLotEpsilon {
public:
    explicit FixedLotEpsilon(double delta) : delta_(delta) {}

    double delta() const { return delta_; }
    // ε at delta() after `steps` lots of `lot_size` of the `rows` rows, noise multiplier σ.
    // Safe to call from several threads.
    double operator()(std::size_t rows, std::size_t lot_size, double noise_multiplier, std::size_t steps);

private:
    double delta_;
    std::mutex mutex_;
    std::map<std::tuple<std::size_t, std::size_t, double, std::size_t>, double> memo_;
};

}  // namespace dpbo::plugin_data
