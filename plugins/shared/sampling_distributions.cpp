#include "sampling_distributions.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::sampling {

namespace {

std::string trim(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const auto end = text.find(separator, start);
        parts.push_back(trim(text.substr(start, end == std::string::npos ? std::string::npos : end - start)));
        if (end == std::string::npos) return parts;
        start = end + 1;
    }
}

double parse_number(const std::string& text, const std::string& key, const std::string& part) {
    const std::string value = trim(text);
    char* end = nullptr;
    errno = 0;
    const double number = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || errno == ERANGE || !std::isfinite(number))
        throw ValidationError(fmt::format("{}: in '{}', '{}' is not a finite number", key, part, value));
    return number;
}

std::string known_dimensions(const SearchSpace& space) {
    std::string names;
    for (const Dimension& dimension : space.dimensions()) names += (names.empty() ? "" : ", ") + dimension.name;
    return names;
}

DimensionDistribution parse_distribution(const std::string& text, const std::string& key, const std::string& part) {
    DimensionDistribution distribution;
    distribution.text = text;
    const auto open = text.find('(');
    const std::string kind = trim(text.substr(0, open));
    std::vector<double> arguments;
    if (open != std::string::npos) {
        if (text.back() != ')')
            throw ValidationError(fmt::format("{}: in '{}', expected KIND(ARGS) with a closing ')'", key, part));
        for (const std::string& argument : split(text.substr(open + 1, text.size() - open - 2), ','))
            arguments.push_back(parse_number(argument, key, part));
    }
    auto expect_arguments = [&](std::size_t count, const char* form) {
        if (arguments.size() != count)
            throw ValidationError(
                fmt::format("{}: in '{}', {} takes {} argument(s): {}", key, part, kind, count, form));
    };
    if (kind == "uniform") {
        if (open != std::string::npos) expect_arguments(0, "uniform (over the dimension's bounds and scale)");
    } else if (kind == "normal") {
        expect_arguments(2, "normal(MEAN, STDDEV)");
        distribution.kind = DimensionDistribution::Kind::Normal;
        if (!(arguments[1] > 0.0))
            throw ValidationError(fmt::format("{}: in '{}', the standard deviation must be > 0", key, part));
    } else if (kind == "shifted-exponential") {
        expect_arguments(2, "shifted-exponential(RATE, SHIFT)");
        distribution.kind = DimensionDistribution::Kind::ShiftedExponential;
        if (!(arguments[0] > 0.0)) throw ValidationError(fmt::format("{}: in '{}', the rate must be > 0", key, part));
    } else {
        throw ValidationError(
            fmt::format("{}: in '{}', unknown distribution '{}'; expected uniform, normal(MEAN, STDDEV) or "
                        "shifted-exponential(RATE, SHIFT)",
                        key, part, kind));
    }
    if (arguments.size() == 2) {
        distribution.first = arguments[0];
        distribution.second = arguments[1];
    }
    return distribution;
}

}  // namespace

Distributions::Distributions(const SearchSpace& space)
    : space_(space), distributions_(space.dim(), DimensionDistribution{.text = "uniform"}) {}

Distributions::Distributions(const SearchSpace& space, const std::string& spec, const std::string& key)
    : Distributions(space) {
    if (space.is_finite())
        throw ValidationError(
            fmt::format("{}: per-dimension distributions need a box; the objective's space is a "
                        "finite set of candidates",
                        key));
    std::set<std::string> named;
    for (const std::string& part : split(spec, ';')) {
        if (part.empty())
            throw ValidationError(
                fmt::format("{}: '{}' has an empty entry; expected NAME:KIND(ARGS) separated by ';'", key, spec));
        const auto colon = part.find(':');
        if (colon == std::string::npos)
            throw ValidationError(fmt::format("{}: '{}' is not NAME:KIND(ARGS)", key, part));
        const std::string name = trim(part.substr(0, colon));
        std::size_t index = space.dim();
        for (std::size_t j = 0; j < space.dim(); ++j)
            if (space.dimensions()[j].name == name) index = j;
        if (index == space.dim())
            throw ValidationError(
                fmt::format("{}: '{}' names no dimension of the objective's space; its dimensions "
                            "are {}",
                            key, name, known_dimensions(space)));
        if (!named.insert(name).second)
            throw ValidationError(fmt::format("{}: dimension '{}' is given twice", key, name));
        distributions_[index] = parse_distribution(trim(part.substr(colon + 1)), key, part);
    }
}

double Distributions::draw(std::size_t j, ExperimentRng& rng) const {
    const Dimension& dimension = space_.dimensions()[j];
    const DimensionDistribution& distribution = distributions_[j];
    if (distribution.kind == DimensionDistribution::Kind::Uniform) {
        arma::mat unit(1, space_.dim(), arma::fill::value(0.5));
        unit(0, j) = rng.uniform();
        return space_.from_unit(unit)(0, j);
    }
    // Rejection keeps the draw's shape inside the accept range (Tables 3–4, "Accept Range").
    for (std::size_t attempt = 0; attempt < kMaxAttempts; ++attempt) {
        double value = distribution.kind == DimensionDistribution::Kind::Normal
                           ? distribution.first + distribution.second * rng.normal()
                           : distribution.second - std::log1p(-rng.uniform()) / distribution.first;
        if (dimension.integer) value = std::round(value);
        if (value >= dimension.lower && value <= dimension.upper) return value;
    }
    throw RunError(
        fmt::format("sampling dimension '{}' from {}: no draw in {} landed in its range [{}, {}]; "
                    "choose a distribution that reaches the range",
                    dimension.name, distribution.text, kMaxAttempts, dimension.lower, dimension.upper));
}

arma::mat Distributions::sample(std::size_t count, ExperimentRng& rng) const {
    arma::mat points(count, space_.dim());
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = 0; j < space_.dim(); ++j) points(i, j) = draw(j, rng);
    return points;
}

std::vector<std::string> Distributions::describe() const {
    std::vector<std::string> lines;
    for (std::size_t j = 0; j < space_.dim(); ++j) {
        const Dimension& dimension = space_.dimensions()[j];
        const bool uniform = distributions_[j].kind == DimensionDistribution::Kind::Uniform;
        lines.push_back(fmt::format("{}: {}{} in [{}, {}]{}", dimension.name, distributions_[j].text,
                                    uniform && dimension.scale == Scale::Log ? " (log scale)" : "",
                                    uniform ? "" : " accepted", dimension.lower, dimension.upper,
                                    dimension.integer ? ", integer" : ""));
    }
    return lines;
}

}  // namespace dpbo::sampling
