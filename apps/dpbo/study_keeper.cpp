#include "study_keeper.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/study.hpp"

namespace dpbo::cli {

namespace fs = std::filesystem;

namespace {

// A request is one JSON line: a command's words. Far more than any ask or show needs.
constexpr std::size_t kLongestRequest = std::size_t{1} << 20;

struct Kept {
    fs::path file;  // canonical
    Study* study = nullptr;
};

Kept& kept() {
    static Kept slot;
    return slot;
}

volatile std::sig_atomic_t stop_signal = 0;
extern "C" void on_stop_signal(int signal) { stop_signal = signal; }

class Descriptor {
public:
    explicit Descriptor(int fd) : fd_(fd) {}
    ~Descriptor() {
        if (fd_ >= 0) close(fd_);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

sockaddr_un address_of(const fs::path& socket) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string text = socket.string();
    if (text.size() >= sizeof address.sun_path)
        throw ValidationError(
            fmt::format("the keeper's socket '{}' is {} characters long; a Unix socket's path takes "
                        "at most {}: move the study to a shorter path",
                        text, text.size(), sizeof address.sun_path - 1));
    std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
    return address;
}

// A connected socket to the keeper, or -1 when none listens there.
int connect_to(const fs::path& socket) {
    std::error_code ec;
    if (!fs::exists(socket, ec)) return -1;
    sockaddr_un address{};
    try {
        address = address_of(socket);
    } catch (const ValidationError&) {
        return -1;
    }
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

bool write_all(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// Everything up to the first newline (or the end), at most `limit` bytes; nothing on a read error.
std::optional<std::string> read_line(int fd, std::size_t limit) {
    std::string text;
    char buffer[65536];
    while (text.size() <= limit) {
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return std::nullopt;
        if (n == 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (const auto end = text.find('\n'); end != std::string::npos) return text.substr(0, end);
    }
    if (text.size() > limit) return std::nullopt;
    return text;
}

std::pair<dev_t, ino_t> identity(const fs::path& file) {
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0) return {0, 0};
    return {info.st_dev, info.st_ino};
}

}  // namespace

fs::path keeper_socket(const fs::path& study) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(study, ec);
    return (ec ? study : canonical).string() + ".keeper";
}

Study* kept_study(const fs::path& file) {
    if (kept().study == nullptr) return nullptr;
    std::error_code ec;
    return fs::weakly_canonical(file, ec) == kept().file ? kept().study : nullptr;
}

int serve_study(Study& study, double idle_seconds) {
    const fs::path socket = keeper_socket(study.file());
    const sockaddr_un address = address_of(socket);
    if (const int other = connect_to(socket); other >= 0) {
        close(other);
        throw ValidationError(fmt::format("a keeper already serves study '{}' (its socket '{}' answers)",
                                          study.file().string(), socket.string()));
    }
    std::error_code ec;
    fs::remove(socket, ec);  // a keeper that ended without removing it (killed): nobody answers there
    const Descriptor listener(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (listener.get() < 0) throw RunError(fmt::format("cannot make a socket: {}", std::strerror(errno)));
    // The socket is the study's door: its owner's only, like the file (mode 0600).
    const mode_t previous = ::umask(0077);
    const int bound = ::bind(listener.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address);
    ::umask(previous);
    if (bound != 0 || ::listen(listener.get(), 16) != 0)
        throw RunError(fmt::format("cannot listen on '{}': {}", socket.string(), std::strerror(errno)));
    struct RemoveSocket {
        fs::path path;
        ~RemoveSocket() {
            std::error_code ignored;
            fs::remove(path, ignored);
        }
    } remove_socket{socket};

    kept() = {fs::weakly_canonical(study.file(), ec), &study};
    const auto file_identity = identity(study.file());
    struct sigaction action {};
    action.sa_handler = on_stop_signal;  // no SA_RESTART: poll returns at once
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);

    std::cout << fmt::format("keeping study {} at {} (ends after {} s without a request)", study.file().string(),
                             socket.string(), idle_seconds)
              << std::endl;
    const int idle_ms = static_cast<int>(std::min(idle_seconds * 1000.0, 2.0e9));
    while (stop_signal == 0) {
        pollfd waiting{listener.get(), POLLIN, 0};
        const int ready = ::poll(&waiting, 1, idle_ms);
        if (ready == 0) {
            std::cout << "no request for " << idle_seconds << " s: the keeper ends" << std::endl;
            break;
        }
        if (ready < 0) continue;  // a signal: the loop's test decides
        const Descriptor client(::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
        if (client.get() < 0) continue;
        const timeval patience{10, 0};  // a client that connects and says nothing does not hold the keeper
        setsockopt(client.get(), SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
        const std::optional<std::string> line = read_line(client.get(), kLongestRequest);
        const json request = line ? json::parse(*line, nullptr, false) : json();
        if (identity(study.file()) != file_identity) {
            // The file was replaced or removed: the run kept here is no longer the file's.
            write_all(client.get(), json{{"gone", true}}.dump() + "\n");
            std::cout << "the study file was replaced or removed: the keeper ends" << std::endl;
            break;
        }
        const bool well_formed = request.is_object() && request.contains("words") && request["words"].is_array() &&
                                 std::all_of(request["words"].begin(), request["words"].end(),
                                             [](const json& word) { return word.is_string(); });
        if (!well_formed) {
            write_all(client.get(),
                      json{{"status", 2}, {"out", ""}, {"err", "dpbo: error: not a keeper request\n"}}.dump() + "\n");
            continue;
        }
        const auto words = request["words"].get<std::vector<std::string>>();
        const CapturedCommand answer = run_captured(words, true);
        write_all(client.get(), json{{"status", answer.status}, {"out", answer.out}, {"err", answer.err}}.dump(
                                    -1, ' ', false, json::error_handler_t::replace) +
                                    "\n");
        std::cout << fmt::format("answered: dpbo {} (exit {})", fmt::join(words, " "), answer.status) << std::endl;
    }
    kept() = {};
    return kSuccess;
}

std::optional<CapturedCommand> ask_keeper(const fs::path& study, const std::vector<std::string>& words) {
    const Descriptor keeper(connect_to(keeper_socket(study)));
    if (keeper.get() < 0) return std::nullopt;
    if (!write_all(keeper.get(), json{{"words", words}}.dump() + "\n")) return std::nullopt;
    const std::optional<std::string> line = read_line(keeper.get(), std::string::npos - 1);
    if (!line) return std::nullopt;
    const json answer = json::parse(*line, nullptr, false);
    if (!answer.is_object() || answer.contains("gone") || !answer.contains("status")) return std::nullopt;
    return CapturedCommand{answer["status"].get<int>(), answer["out"].get<std::string>(),
                           answer["err"].get<std::string>()};
}

}  // namespace dpbo::cli
