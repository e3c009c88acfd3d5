// dpbo._dpbo: the C++ side of `import dpbo`. Two doors into the host, both thin: a study kept open in
// this process (dpbo/host/study.hpp, whose run stays alive between asks), and the dpbo commands run
// in this process (the same code as the executable's: account, list, info, study create), with what
// they print captured. Everything crosses as JSON text or numpy arrays; dpbo/__init__.py makes the
// Python objects. The GIL is released while C++ works, so other Python threads go on.
#include <dlfcn.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <boost/dll/runtime_symbol_info.hpp>
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "cli.hpp"
#include "captured_command.hpp"
#include "study_access.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/registry.hpp"
#include "dpbo/host/study.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/util/blas_threads.hpp"

namespace py = pybind11;
using json = nlohmann::ordered_json;

namespace {

namespace fs = std::filesystem;

// Where the dpbo executable of this build or install is: plugins are found beside it
// (bin/dpbo → lib/dpbo/plugins). In the build tree the package sits in BUILD/lib/python/dpbo; installed,
// in PREFIX/lib/pythonX.Y/dist-packages/dpbo; elsewhere (a moved package) the install prefix compiled
// in is taken.
fs::path dpbo_executable() {
    std::error_code ec;
    const fs::path package = boost::dll::this_line_location(ec).parent_path();
    if (!ec)
        for (const fs::path& lib : {package / ".." / "..", package / ".." / ".." / ".."})
            if (fs::is_directory(lib / "dpbo" / "plugins", ec)) return (lib / ".." / "bin" / "dpbo").lexically_normal();
    return fs::path(DPBO_INSTALL_PREFIX) / "bin" / "dpbo";
}

// The dpbo executable runs BLAS on one thread (apps/dpbo/main.cpp): results then do not depend on the
// thread count, so a study begun here and continued by `dpbo ask` asks for the same points bit for
// bit. The user's own numpy keeps its thread count outside dpbo's calls.
class OneBlasThread {
public:
    OneBlasThread() {
        using Get = int (*)();
        if (auto get = reinterpret_cast<Get>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads")); get != nullptr)
            previous_ = get();
        dpbo::limit_blas_threads();
    }
    ~OneBlasThread() {
        using Set = void (*)(int);
        if (auto set = reinterpret_cast<Set>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
            set != nullptr && previous_ > 0)
            set(previous_);
    }
    OneBlasThread(const OneBlasThread&) = delete;
    OneBlasThread& operator=(const OneBlasThread&) = delete;

private:
    int previous_ = 0;
};

// `dpbo WORDS...` with what it printed; its exceptions pass through to Python as the host's errors.
dpbo::cli::CapturedCommand run_command(const std::vector<std::string>& words) {
    OneBlasThread blas;
    return dpbo::cli::run_captured(words, false);
}

json state_json(const dpbo::StudyState& state) {
    json out{{"finished", state.finished},     {"batches", state.batches},
             {"releases", state.releases},     {"privacy_spent", state.privacy_so_far},
             {"per_record", state.per_record}, {"waiting_for", state.waiting_for}};
    json handed = json::array();
    for (const dpbo::StoredTrial& trial : state.handed) handed.push_back(dpbo::cli::trial_json(trial));
    out["trials"] = handed;
    if (state.finished) out["result"] = state.result;
    return out;
}

// A study file kept open: its plugin files loaded once, its run alive between asks.
class OpenStudy {
public:
    explicit OpenStudy(const std::string& file) {
        OneBlasThread blas;
        study_ = dpbo::cli::open_study(registry_, file, {});
    }

    std::string ask(std::size_t count) {
        const std::lock_guard lock(mutex_);
        OneBlasThread blas;
        return state_json(open().ask(count)).dump();
    }

    std::string show() {
        const std::lock_guard lock(mutex_);
        OneBlasThread blas;
        return state_json(open().show()).dump();
    }

    void tell(std::int64_t id, const std::vector<double>& values, std::optional<py::array_t<double>> per_record,
              const std::map<std::string, double>& named, const std::vector<std::string>& events) {
        dpbo::ToldValues told;
        if (!values.empty()) told.values = arma::rowvec(values);
        if (per_record) {
            // Copied while the GIL is held: the array belongs to Python.
            const py::array_t<double, py::array::c_style | py::array::forcecast> flat(*per_record);
            if (flat.ndim() != 1)
                throw dpbo::ValidationError(fmt::format(
                    "trial {}: per_record has {} dimensions; expected a 1-D array of the study's per-record values", id,
                    flat.ndim()));
            told.per_record = arma::rowvec(flat.data(), static_cast<arma::uword>(flat.size()));
        }
        told.named = named;
        told.events = events;
        py::gil_scoped_release release;
        const std::lock_guard lock(mutex_);
        open().tell(id, told);
    }

    std::int64_t fail(std::int64_t id, const std::string& reason) {
        const std::lock_guard lock(mutex_);
        return open().fail(id, reason);
    }

    std::string trials() const {
        const std::lock_guard lock(mutex_);
        json out = json::array();
        for (const dpbo::StoredTrial& trial : open().trials()) out.push_back(dpbo::cli::trial_json(trial));
        return out.dump();
    }

    // The job, the objective's names, outputs and records, and the lifetime ledger charged.
    std::string describe() const {
        const std::lock_guard lock(mutex_);
        const dpbo::Study& study = open();
        const dpbo::Objective& objective = study.objective();
        json outputs = json::array();
        for (const dpbo::Output& o : objective.outputs())
            outputs.push_back({{"name", o.name}, {"sense", dpbo::to_string(o.sense)}});
        json out{{"file", study.file().string()},
                 {"job", study.job()},
                 {"names", objective.space().names()},
                 {"outputs", outputs},
                 {"records", dpbo::record_count(objective)}};
        if (!study.ledger_file().empty())
            out["lifetime_ledger"] = {{"file", study.ledger_file().string()}, {"run", study.ledger_run()}};
        return out.dump();
    }

    std::string extend(const std::map<std::string, std::string>& algorithm, const std::optional<std::string>& budget) {
        const std::lock_guard lock(mutex_);
        OneBlasThread blas;
        std::optional<dpbo::PrivacyBudget> parsed;
        if (budget) parsed = dpbo::PrivacyBudget::parse(*budget);
        return state_json(open().extend(algorithm, parsed)).dump();
    }

    // Ends the kept run (its thread) and closes the file; later calls are refused.
    void close() {
        const std::lock_guard lock(mutex_);
        study_.reset();
    }

private:
    dpbo::Study& open() const {
        if (!study_)
            throw dpbo::ValidationError("the study was closed (Study.close()); open it again with dpbo.Study(path)");
        return *study_;
    }

    // Python threads share a Study object, and the GIL is released inside: one call at a time.
    mutable std::mutex mutex_;
    dpbo::PluginRegistry registry_;
    std::shared_ptr<dpbo::Study> study_;  // after the registry: it ends first
};

}  // namespace

PYBIND11_MODULE(_dpbo, m) {
    m.doc() = "dpbo's host, for the dpbo package (use `import dpbo`)";
    dpbo::cli::set_dpbo_location(dpbo_executable());

    // The host's errors keep its message: a bad input (exit 2 at the command line) is dpbo.Error, a
    // ValueError; a run that failed is dpbo.RunError, a RuntimeError.
    static py::exception<dpbo::ValidationError> error(m, "Error", PyExc_ValueError);
    static py::exception<dpbo::RunError> run_error(m, "RunError", PyExc_RuntimeError);
    py::register_exception_translator([](std::exception_ptr thrown) {
        try {
            if (thrown) std::rethrow_exception(thrown);
        } catch (const dpbo::ValidationError& e) {
            error(e.what());
        } catch (const boost::program_options::error& e) {
            error(e.what());
        } catch (const dpbo::RunError& e) {
            run_error(e.what());
        }
    });

    m.def(
        "command",
        [](const std::vector<std::string>& words) {
            dpbo::cli::CapturedCommand output;
            {
                py::gil_scoped_release release;
                output = run_command(words);
            }
            return py::make_tuple(output.status, output.out, output.err);
        },
        py::arg("words"), "Runs `dpbo WORDS...` in this process: (exit status, stdout, stderr).");
    m.def(
        "executable", [] { return dpbo_executable().string(); },
        "The dpbo executable whose plugins this package loads.");

    py::class_<OpenStudy>(m, "OpenStudy")
        .def(py::init<const std::string&>(), py::arg("file"), py::call_guard<py::gil_scoped_release>())
        .def("ask", &OpenStudy::ask, py::arg("count"), py::call_guard<py::gil_scoped_release>())
        .def("show", &OpenStudy::show, py::call_guard<py::gil_scoped_release>())
        .def("tell", &OpenStudy::tell, py::arg("id"), py::arg("values"), py::arg("per_record"), py::arg("named"),
             py::arg("events"))
        .def("fail", &OpenStudy::fail, py::arg("id"), py::arg("reason"), py::call_guard<py::gil_scoped_release>())
        .def("trials", &OpenStudy::trials, py::call_guard<py::gil_scoped_release>())
        .def("describe", &OpenStudy::describe, py::call_guard<py::gil_scoped_release>())
        .def("extend", &OpenStudy::extend, py::arg("algorithm"), py::arg("budget"),
             py::call_guard<py::gil_scoped_release>())
        .def("close", &OpenStudy::close, py::call_guard<py::gil_scoped_release>());
}
