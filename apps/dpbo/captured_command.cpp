#include "captured_command.hpp"

#include <iostream>
#include <mutex>
#include <sstream>

#include "cli.hpp"
#include "command_dispatch.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/util/blas_threads.hpp"

namespace dpbo::cli {

int run_reporting_errors(const std::vector<std::string>& words) {
    std::string path = "dpbo";  // the command path, once dispatch has read it: "dpbo study create"
    try {
        limit_blas_threads();
        return dispatch(words, path);
    } catch (const ValidationError& e) {
        std::cerr << "dpbo: error: " << e.what() << "\n";
        return kUsageError;
    } catch (const po::error& e) {
        std::cerr << path << ": error: " << e.what() << "\n";
        return kUsageError;
    } catch (const std::exception& e) {
        std::cerr << "dpbo: failed: " << e.what() << "\n";
        return kRunFailure;
    } catch (...) {
        // Calls into modules translate their exceptions; this is the net under whatever is left.
        std::cerr << "dpbo: failed: " << describe_current_exception() << "\n";
        return kRunFailure;
    }
}

CapturedCommand run_captured(const std::vector<std::string>& words, bool report_errors) {
    static std::mutex one_at_a_time;
    std::lock_guard lock(one_at_a_time);
    std::ostringstream out, err;
    // Restored however the command ends, exceptions included.
    struct Redirect {
        std::ostream& stream;
        std::streambuf* const saved;
        Redirect(std::ostream& s, std::ostringstream& into) : stream(s), saved(s.rdbuf(into.rdbuf())) {}
        ~Redirect() { stream.rdbuf(saved); }
        Redirect(const Redirect&) = delete;
        Redirect& operator=(const Redirect&) = delete;
    };
    CapturedCommand result;
    {
        const Redirect cout_redirect(std::cout, out), cerr_redirect(std::cerr, err);
        if (report_errors) {
            result.status = run_reporting_errors(words);
        } else {
            std::string path = "dpbo";
            result.status = dispatch(words, path);
        }
    }
    result.out = out.str();
    result.err = err.str();
    return result;
}

}  // namespace dpbo::cli
