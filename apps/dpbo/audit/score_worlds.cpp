#include "score_worlds.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::audit {

namespace {

arma::vec parse_scores(const std::string& text, const std::string& option) {
    if (text.empty())
        throw ValidationError(fmt::format("{} is empty; expected comma-separated finite numbers (e.g. 0,1,2)", option));
    std::vector<double> values;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        const std::string entry = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        // strtod, not stod: it takes denormals; a leading blank or any trailing text is refused.
        char* end = nullptr;
        const bool blank = entry.empty() || std::isspace(static_cast<unsigned char>(entry.front()));
        const double value = blank ? 0.0 : std::strtod(entry.c_str(), &end);
        if (blank || end != entry.c_str() + entry.size() || !std::isfinite(value))
            throw ValidationError(
                fmt::format("{} entry {} ('{}') is not a finite number; expected comma-separated "
                            "finite numbers (e.g. 0,1,2)",
                            option, values.size() + 1, entry));
        values.push_back(value);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return arma::vec(values);
}

}  // namespace

ScoreWorlds score_worlds(const std::string& scores, const std::string& neighbour_scores, double sensitivity) {
    ScoreWorlds worlds{parse_scores(scores, "--scores"), parse_scores(neighbour_scores, "--neighbour-scores")};
    if (worlds.first.n_elem != worlds.second.n_elem)
        throw ValidationError(
            fmt::format("--scores has {} entries and --neighbour-scores {}; both worlds score the "
                        "same candidates, so they need as many",
                        worlds.first.n_elem, worlds.second.n_elem));
    for (arma::uword i = 0; i < worlds.first.n_elem; ++i) {
        // The difference of two finite doubles can overflow; compared as |a − b| > Δ it then is refused too.
        if (!(std::fabs(worlds.first[i] - worlds.second[i]) <= sensitivity))
            throw ValidationError(
                fmt::format("score {} moves from {} (--scores) to {} (--neighbour-scores), by more "
                            "than --sensitivity {}: neighbouring datasets move each score by at most "
                            "the quality sensitivity",
                            i + 1, worlds.first[i], worlds.second[i], sensitivity));
    }
    return worlds;
}

}  // namespace dpbo::audit
