#include "dpbo/host/result_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

using json = nlohmann::ordered_json;

namespace {

// mkstemp's template: the X's are replaced by as many characters.
constexpr std::string_view kTemporarySuffix = ".tmp.XXXXXX";

// Noise keyed from a seed the user chose (and usually publishes with the results) protects nothing:
// anyone with the seed regenerates the noise and subtracts it. Such a run is headlined as not
// private; what it would claim with secret noise is kept, marked hypothetical.
bool seed_voids_claim(const PrivacyStatement& statement, const std::optional<std::uint64_t>& seed) {
    return seed.has_value() && statement.notion != PrivacyNotion::NotPrivate;
}

std::string seeded_headline(const PrivacyStatement& statement) {
    return fmt::format("not private (reproducible run: noise known to anyone with the seed; with secret noise: {})",
                       statement.headline());
}

}  // namespace

bool is_atomic_write_temporary(const std::string& file_name, const std::string& target_name) {
    const std::string_view fixed = kTemporarySuffix.substr(0, kTemporarySuffix.find('X'));
    return file_name.size() == target_name.size() + kTemporarySuffix.size() && file_name.rfind(target_name, 0) == 0 &&
           file_name.compare(target_name.size(), fixed.size(), fixed) == 0;
}

namespace {

// The content of a file about to be named: written in full and flushed to disk.
void write_and_flush(int fd, const std::string& content, const std::function<RunError(const std::string&)>& fail) {
    std::size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw fail("write failed");
        }
        written += static_cast<std::size_t>(n);
    }
    // fsync before rename: after a crash the file is either the old one or the complete new one.
    ::fchmod(fd, 0644);
    if (::fsync(fd) != 0) throw fail("flush failed");
}

// A temporary's name as mkstemp makes it from kTemporarySuffix, for naming an unnamed file.
std::string temporary_name(const std::filesystem::path& target) {
    static constexpr char kLetters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static thread_local std::mt19937_64 generator{std::random_device{}()};
    std::string name = target.string() + std::string(kTemporarySuffix);
    const std::size_t letters = kTemporarySuffix.size() - kTemporarySuffix.find('X');
    for (std::size_t i = name.size() - letters; i < name.size(); ++i)
        name[i] = kLetters[generator() % (sizeof kLetters - 1)];
    return name;
}

// The file is written without a name (O_TMPFILE) and named only to be renamed over the target, so
// a temporary exists for the moment between the two calls rather than while the content is
// written: a process killed mid-write leaves nothing. False, with nothing left, when the file
// system or a missing /proc does not allow it.
bool write_unnamed_then_rename(const std::filesystem::path& target, const std::string& content,
                               const std::function<RunError(const std::string&)>& fail) {
    const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : ".";
    const int fd = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    try {
        write_and_flush(fd, content, fail);
    } catch (...) {
        ::close(fd);
        throw;
    }
    const std::string self = fmt::format("/proc/self/fd/{}", fd);
    std::string temporary;
    int linked = -1;
    for (int attempt = 0; attempt < 100 && linked != 0; ++attempt) {
        temporary = temporary_name(target);
        linked = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temporary.c_str(), AT_SYMLINK_FOLLOW);
        if (linked != 0 && errno != EEXIST) break;
    }
    ::close(fd);
    if (linked != 0) return false;
    if (std::rename(temporary.c_str(), target.c_str()) != 0) {
        const int reason = errno;
        ::unlink(temporary.c_str());
        errno = reason;
        throw fail("rename failed");
    }
    return true;
}

}  // namespace

void write_file_atomically(const std::filesystem::path& target, const std::string& content) {
    const auto fail = [&](const std::string& what) {
        return RunError(fmt::format("cannot write '{}': {} ({})", target.string(), what, std::strerror(errno)));
    };
    std::error_code ec;
    if (target.has_parent_path()) {
        std::filesystem::create_directories(target.parent_path(), ec);
        if (ec)
            throw RunError(
                fmt::format("cannot create directory '{}': {}", target.parent_path().string(), ec.message()));
    }
    if (write_unnamed_then_rename(target, content, fail)) return;
    // A named temporary beside the target; one that a killed process leaves is removed by the next
    // run that opens the folder (is_atomic_write_temporary).
    std::string temporary = target.string() + std::string(kTemporarySuffix);
    const int fd = mkstemp(temporary.data());
    if (fd < 0) throw fail("cannot create a temporary file beside it");
    try {
        write_and_flush(fd, content, fail);
    } catch (...) {
        ::close(fd);
        ::unlink(temporary.c_str());
        throw;
    }
    if (::close(fd) != 0) {
        ::unlink(temporary.c_str());
        throw fail("flush failed");
    }
    if (std::rename(temporary.c_str(), target.c_str()) != 0) {
        ::unlink(temporary.c_str());
        throw fail("rename failed");
    }
}

std::string trace_to_csv(const Trace& trace) {
    std::string out;
    for (std::size_t i = 0; i < trace.columns().size(); ++i) {
        if (i) out += ',';
        out += trace.columns()[i].name;
    }
    out += '\n';
    for (const auto& row : trace.rows()) {
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (i) out += ',';
            out += fmt::format("{:.17g}", row[i]);
        }
        out += '\n';
    }
    return out;
}

nlohmann::ordered_json search_space_dimensions_json(const SearchSpace& space) {
    json out = json::array();
    if (space.is_finite()) {
        for (const std::string& name : space.names()) out.push_back({{"name", name}});
        return out;
    }
    for (const Dimension& d : space.dimensions())
        out.push_back({{"name", d.name}, {"scale", d.scale == Scale::Log ? "log" : "linear"}});
    return out;
}

nlohmann::ordered_json privacy_statement_json(const PrivacyStatement& s) {
    json out;
    out["notion"] = to_string(s.notion);
    // A conditional guarantee says so in its notion (see PrivacyStatement::conditional_on).
    if (!s.conditional_on.empty() && s.notion != PrivacyNotion::NotPrivate)
        out["notion"] = fmt::format("{} conditional on {}", to_string(s.notion), s.conditional_on);
    if (!s.conditional_on.empty()) out["conditional_on"] = s.conditional_on;
    out["headline"] = s.headline();
    switch (s.notion) {
        case PrivacyNotion::PureDP:
            out["epsilon"] = s.epsilon;
            break;
        case PrivacyNotion::ApproxDP:
            out["epsilon"] = s.epsilon;
            out["delta"] = s.delta;
            break;
        case PrivacyNotion::GaussianDP:
            out["mu"] = s.mu;
            break;
        case PrivacyNotion::Renyi: {
            json curve = json::array();
            for (const auto& [order, eps] : s.rdp_curve) curve.push_back({{"order", order}, {"epsilon", eps}});
            out["rdp_curve"] = curve;
            break;
        }
        case PrivacyNotion::NotPrivate:
            break;
    }
    json equivalents = json::array();
    for (const auto& [eps, del] : s.equivalent_epsilon_delta) equivalents.push_back({{"epsilon", eps}, {"delta", del}});
    out["equivalent_epsilon_delta"] = equivalents;
    out["neighbouring"] = s.neighbouring;
    out["protected_unit"] = s.protected_unit;
    out["released"] = s.released;
    out["assumptions"] = s.assumptions;
    out["not_protected"] = s.not_protected;
    out["mechanism"] = s.mechanism;
    return out;
}

json matrix_json(const arma::mat& m) {
    if (m.n_elem == 1) return m(0, 0);
    const auto row_json = [&](std::size_t i) {
        json row = json::array();
        for (std::size_t j = 0; j < m.n_cols; ++j) row.push_back(m(i, j));
        return row;
    };
    if (m.n_rows == 1) return row_json(0);
    json rows = json::array();
    for (std::size_t i = 0; i < m.n_rows; ++i) rows.push_back(m.n_cols == 1 ? json(m(i, 0)) : row_json(i));
    return rows;
}

json run_privacy_json(const PrivacyStatement& statement, const std::optional<std::uint64_t>& seed) {
    if (!seed_voids_claim(statement, seed)) return privacy_statement_json(statement);
    return {{"notion", to_string(PrivacyNotion::NotPrivate)},
            {"headline", seeded_headline(statement)},
            {"why", fmt::format("the privacy noise was drawn from ChaCha20 keyed from --seed {}: anyone who knows the "
                                "seed can regenerate the noise and remove it from the released values",
                                *seed)},
            {"not_protected", {"anything the released values hold: whoever knows the seed removes the noise"}},
            {"hypothetical", privacy_statement_json(statement)}};
}

std::string run_privacy_text(const PrivacyStatement& statement, const std::optional<std::uint64_t>& seed) {
    if (!seed_voids_claim(statement, seed)) return statement.describe();
    std::string hypothetical;
    std::istringstream lines(statement.describe());
    for (std::string line; std::getline(lines, line);) hypothetical += "    " + line + "\n";
    return fmt::format(
        "privacy: {}\n  why: the noise is keyed from --seed {}; anyone with the seed can remove it\n"
        "  hypothetically, with secret noise:\n{}",
        seeded_headline(statement), *seed, hypothetical);
}

json released_values_json(const std::vector<ReleasedValue>& values) {
    json out = json::object();
    for (const auto& v : values) out[v.name] = {{"value", matrix_json(v.value)}, {"description", v.description}};
    return out;
}

}  // namespace dpbo
