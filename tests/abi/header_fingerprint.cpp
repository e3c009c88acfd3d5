#include "header_fingerprint.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace dpbo::abi_guard {

namespace fs = std::filesystem;

namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Characters that combine into longer operators ("> >" is not ">>", "+ +" is not "++"), so a
// space between two of them is kept.
bool is_operator_char(char c) { return c != '\0' && std::strchr("+-*/%^&|<>=!:.#~?", c) != nullptr; }

bool is_quote(char c) { return c == '"' || c == '\''; }

class Normaliser {
public:
    explicit Normaliser(std::string_view text) : in_(text) {}

    std::string run() {
        while (i_ < in_.size()) step();
        if (in_directive_) out_ += '\n';
        return std::move(out_);
    }

private:
    char at(std::size_t k) const { return k < in_.size() ? in_[k] : '\0'; }

    void step() {
        const char c = in_[i_];
        if (c == '\\' && (at(i_ + 1) == '\n' || (at(i_ + 1) == '\r' && at(i_ + 2) == '\n'))) {
            // A spliced line continues the logical line (and a directive) it ends.
            i_ += at(i_ + 1) == '\n' ? 2 : 3;
            pending_space_ = true;
            return;
        }
        if (c == '\n') {
            if (in_directive_) {
                out_ += '\n';
                in_directive_ = false;
                pending_space_ = false;
            } else {
                pending_space_ = true;
            }
            at_line_start_ = true;
            ++i_;
            return;
        }
        if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            pending_space_ = true;
            ++i_;
            return;
        }
        if (c == '/' && at(i_ + 1) == '/') {
            while (i_ < in_.size() && in_[i_] != '\n') ++i_;
            pending_space_ = true;
            return;
        }
        if (c == '/' && at(i_ + 1) == '*') {
            const std::size_t end = in_.find("*/", i_ + 2);
            i_ = end == std::string_view::npos ? in_.size() : end + 2;
            pending_space_ = true;
            return;
        }
        if (c == '#' && at_line_start_) {
            if (!out_.empty() && out_.back() != '\n') out_ += '\n';
            out_ += '#';
            in_directive_ = true;
            at_line_start_ = false;
            pending_space_ = false;
            ++i_;
            return;
        }
        at_line_start_ = false;
        emit(read_token());
    }

    std::string_view read_token() {
        const std::size_t start = i_;
        const char c = in_[i_];
        if (std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_') {
            while (i_ < in_.size() && is_word_char(in_[i_])) ++i_;
            const std::string_view word = in_.substr(start, i_ - start);
            if (at(i_) == '"' && (word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R")) {
                skip_raw_string();
            } else if (is_quote(at(i_)) && (word == "L" || word == "u" || word == "U" || word == "u8")) {
                skip_quoted();
            }
        } else if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
                   (c == '.' && std::isdigit(static_cast<unsigned char>(at(i_ + 1))) != 0)) {
            // A pp-number: digits, letters, '.', digit separators and an exponent's sign.
            ++i_;
            while (i_ < in_.size()) {
                const char d = in_[i_];
                const char previous = in_[i_ - 1];
                const bool after_exponent = previous == 'e' || previous == 'E' || previous == 'p' || previous == 'P';
                const bool exponent_sign = (d == '+' || d == '-') && after_exponent;
                if (!is_word_char(d) && d != '.' && d != '\'' && !exponent_sign) break;
                ++i_;
            }
        } else if (is_quote(c)) {
            skip_quoted();
        } else {
            ++i_;
        }
        return in_.substr(start, i_ - start);
    }

    // A "..." or '...' literal starting at i_, escapes honoured.
    void skip_quoted() {
        const char quote = in_[i_++];
        while (i_ < in_.size() && in_[i_] != quote && in_[i_] != '\n') i_ += in_[i_] == '\\' ? 2 : 1;
        i_ = std::min(i_ + 1, in_.size());
    }

    // R"delimiter( ... )delimiter" starting at the opening quote.
    void skip_raw_string() {
        const std::size_t open = in_.find('(', i_);
        if (open == std::string_view::npos) {
            i_ = in_.size();
            return;
        }
        const std::string terminator = ")" + std::string(in_.substr(i_ + 1, open - i_ - 1)) + "\"";
        const std::size_t end = in_.find(terminator, open + 1);
        i_ = end == std::string_view::npos ? in_.size() : end + terminator.size();
    }

    void emit(std::string_view token) {
        if (pending_space_ && !out_.empty() && out_.back() != '\n') {
            const char previous = out_.back();
            const char next = token.front();
            if ((is_word_char(previous) && (is_word_char(next) || is_quote(next))) ||
                (is_operator_char(previous) && is_operator_char(next))) {
                out_ += ' ';
            }
        }
        out_ += token;
        pending_space_ = false;
    }

    std::string_view in_;
    std::size_t i_ = 0;
    std::string out_;
    bool pending_space_ = false;
    bool at_line_start_ = true;
    bool in_directive_ = false;
};

std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("cannot read {}", file.string()));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string sha256_hex(const std::string& bytes) {
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
    std::array<unsigned char, crypto_hash_sha256_BYTES> digest{};
    crypto_hash_sha256(digest.data(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    std::string hex;
    for (const unsigned char byte : digest) hex += fmt::format("{:02x}", byte);
    return hex;
}

std::regex version_definition(const std::string& name) { return std::regex("\\b" + name + "=([0-9]+)[uU]?;"); }

}  // namespace

std::string normalise_header(std::string_view text) { return Normaliser(text).run(); }

std::uint32_t read_abi_version(const fs::path& abi_header, const std::string& name) {
    const std::string normalised = normalise_header(read_text(abi_header));
    std::smatch match;
    if (!std::regex_search(normalised, match, version_definition(name))) {
        throw std::runtime_error(
            fmt::format("{} defines no '{} = N;'; expected the ABI version there", abi_header.string(), name));
    }
    return static_cast<std::uint32_t>(std::stoul(match[1].str()));
}

std::string fingerprint_headers(const fs::path& include_root, const std::string& version_name) {
    const fs::path contract = include_root / "dpbo";
    std::error_code ec;
    if (!fs::is_directory(contract, ec)) {
        throw std::runtime_error(
            fmt::format("{} is not a directory; expected the include root that holds dpbo/", contract.string()));
    }
    std::vector<std::string> headers;
    for (const auto& entry : fs::recursive_directory_iterator(contract)) {
        if (entry.is_regular_file() && entry.path().extension() == ".hpp") {
            headers.push_back(entry.path().lexically_relative(include_root).generic_string());
        }
    }
    if (headers.empty()) throw std::runtime_error(fmt::format("no *.hpp file under {}", contract.string()));
    std::sort(headers.begin(), headers.end());
    const std::regex version_number("\\b" + version_name + "=[0-9]+[uU]?;");
    std::string all;
    for (const auto& header : headers) {
        all += "=== " + header + "\n";
        all += std::regex_replace(normalise_header(read_text(include_root / header)), version_number,
                                  version_name + "=N;");
        all += "\n";
    }
    return sha256_hex(all);
}

std::vector<RecordedFingerprint> read_fingerprint_file(const fs::path& file) {
    std::istringstream lines(read_text(file));
    static const std::regex pattern("([0-9]{1,9}) ([0-9a-f]{64})");
    std::vector<RecordedFingerprint> recorded;
    std::string line;
    for (std::size_t number = 1; std::getline(lines, line); ++number) {
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())) != 0) line.pop_back();
        if (line.empty() || line.front() == '#') continue;
        std::smatch match;
        if (!std::regex_match(line, match, pattern)) {
            throw std::runtime_error(
                fmt::format("{}:{}: '{}' is not a fingerprint line; expected 'VERSION SHA256': "
                            "the ABI version, one space, 64 lower-case hex digits",
                            file.string(), number, line));
        }
        const auto version = static_cast<std::uint32_t>(std::stoul(match[1].str()));
        if (!recorded.empty() && version <= recorded.back().version) {
            throw std::runtime_error(
                fmt::format("{}:{}: version {} follows version {}; expected one line per "
                            "version, in increasing order",
                            file.string(), number, version, recorded.back().version));
        }
        recorded.push_back({version, match[2].str()});
    }
    return recorded;
}

FingerprintVerdict check_fingerprint(const fs::path& include_root, const fs::path& fingerprint_file,
                                     const std::string& print_command, const VersionSpec& spec) {
    const fs::path abi_header = include_root / spec.header;
    const std::string& name = spec.name;
    const std::uint32_t version = read_abi_version(abi_header, name);
    const std::string actual = fingerprint_headers(include_root, name);
    const std::vector<RecordedFingerprint> recorded = read_fingerprint_file(fingerprint_file);
    const auto current = std::find_if(recorded.begin(), recorded.end(),
                                      [&](const RecordedFingerprint& r) { return r.version == version; });
    if (!recorded.empty() && recorded.back().version > version) {
        return {false,
                fmt::format("{} records ABI version {}, but {} says {} = {}; the version must never "
                            "go back",
                            fingerprint_file.string(), recorded.back().version, abi_header.string(), name, version)};
    }
    if (current == recorded.end()) {
        return {false, fmt::format("{} has no fingerprint for {} {} (set in {}). Record the line\n  {} {}\n"
                                   "in it ('{}' prints it).",
                                   fingerprint_file.string(), name, version, abi_header.string(), version, actual,
                                   print_command)};
    }
    if (current->sha256 != actual) {
        return {false,
                fmt::format("The installed headers under {} changed since {} {} was recorded (recorded "
                            "fingerprint {}, now {}): a plugin built against the recorded headers would still "
                            "load and would meet other layouts or meanings. Bump {} in {} to {} and record "
                            "the line\n  {} {}\nin {} ('{}' prints it). Comment and whitespace edits do not count.",
                            (include_root / "dpbo").string(), name, version, current->sha256, actual, name,
                            abi_header.string(), version + 1, version + 1, actual, fingerprint_file.string(),
                            print_command)};
    }
    return {true, fmt::format("the installed headers under {} match the fingerprint recorded for {} {} "
                              "({})",
                              (include_root / "dpbo").string(), name, version, actual)};
}

}  // namespace dpbo::abi_guard
