#include "dp_gibo_figures.hpp"

namespace dpbo::dp_gibo {

std::vector<dpbo::FigureSpec> figures() {
    // The trace's names for the two quantities (see the trace columns of dp_gibo_run.cpp); the noise
    // norm is computed from the data, and the trace marks it evaluation only.
    return {{.id = "dp-gibo.bias-and-noise",
             .title = "DP-GIBO on {folder}: bias proxy and privacy noise per iteration",
             .caption = "Tr Σ∇(θ_t) is the trace of the GP posterior covariance of the gradient at θ_t — the bias "
                        "proxy the batch rule drives down, released with the path. ‖noise‖₂ is the Euclidean norm "
                        "of the Gaussian noise added to the clipped gradient at step t (σ calibrated to μ = "
                        "{/job/algorithm/parameters/mu}; the folder's privacy: {/privacy/headline}): it is computed "
                        "from the data, so it is evaluation only and not released. Faint: each repeat; bold: the "
                        "median over repeats.",
             .x = {.label = "iteration t", .unit = "gradient steps"},
             .y = {.label = "gradient units (Tr Σ∇: squared)", .log = true},
             .series = {{.source = dpbo::FigureSource::trace,
                         .x = "iteration",
                         .y = "gradient_trace",
                         .legend = "Tr Σ∇(θ_t), the bias proxy: median"},
                        {.source = dpbo::FigureSource::trace,
                         .x = "iteration",
                         .y = "noise_norm",
                         .legend = "‖noise‖₂ of the privatised gradient: median"}},
             .scope = dpbo::FigureScope::folder,
             .evaluation_only = true}};
}

}  // namespace dpbo::dp_gibo
