#include "report/dp_gibo_figures.hpp"

#include <fmt/format.h>

#include "report/trace_series.hpp"

namespace dpbo::cli::report {

namespace {

// The trace's names for the two quantities (see the dp-gibo plugin's trace columns).
constexpr const char* kBiasProxy = "gradient_trace";
constexpr const char* kNoiseNorm = "noise_norm";

std::string mu_text(const ReportFolder& folder) {
    const json& parameters = folder.first()["job"]["algorithm"]["parameters"];
    return parameters.contains("mu") && parameters["mu"].is_number()
               ? fmt::format("μ = {:g}", parameters["mu"].get<double>())
               : std::string("its μ");
}

}  // namespace

std::vector<Figure> dp_gibo_figures(const ReportFolder& folder) {
    if (folder.algorithm() != "dp-gibo") return {};
    Figure figure;
    for (Series& s : repeats_and_median(folder, "iteration", kBiasProxy, 0, "Tr Σ∇(θ_t), the bias proxy: median"))
        figure.series.push_back(std::move(s));
    for (Series& s : repeats_and_median(folder, "iteration", kNoiseNorm, 1,
                                        "‖noise‖₂ of the privatised gradient: median"))
        figure.series.push_back(std::move(s));
    if (figure.series.empty()) return {};
    figure.title = marked_title(fmt::format("DP-GIBO on {}: bias proxy and privacy noise per iteration",
                                            folder.label),
                                figure.series);
    figure.evaluation_only = true;
    figure.x_label = "iteration t [gradient steps]";
    figure.y_label = "gradient units (Tr Σ∇: squared) [log scale]";
    figure.log_y = true;
    figure.caption = fmt::format(
        "Tr Σ∇(θ_t) is the trace of the GP posterior covariance of the gradient at θ_t — the bias proxy the "
        "batch rule drives down, released with the path. ‖noise‖₂ is the Euclidean norm of the Gaussian noise "
        "added to the clipped gradient at step t (σ calibrated to {}; the folder's privacy: {}): it is computed from the data, so it is "
        "evaluation only and not released. Faint: each repeat; bold: the median over repeats.",
        mu_text(folder), folder.first()["privacy"]["headline"].get<std::string>());
    settle_log_scales(figure);
    if (!has_drawable_point(figure)) return {};
    return {std::move(figure)};
}

}  // namespace dpbo::cli::report
