// Loads and lists fine; its evaluate() aborts or reads address 0 at its `after`-th call unless the
// file `marker` exists, which it creates just before it crashes: a run dies once, partway through,
// and the same command run again goes through, resuming from the first run's journal.
#include <cstdlib>
#include <fstream>
#include <string>

#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
class CrashesOnce : public broken_cases::Sphere {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema s = Sphere::schema();
        s.text("marker", std::nullopt, "a file: absent, the objective creates it and crashes; present, it does not");
        s.integer("after", {.fallback = 3, .lower = 1, .upper = 1000, .doc = "the evaluate call that crashes"});
        s.choice("crash", {"abort", "segfault"}, "abort", "abort() or a read through a null pointer");
        return s;
    }
    explicit CrashesOnce(const dpbo::ParameterSet& p)
        : Sphere(p),
          marker_(p.text("marker")),
          after_(static_cast<int>(p.integer("after"))),
          segfault_(p.text("crash") == "segfault") {}

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        if (++calls_ == after_ && !std::ifstream(marker_)) {
            std::ofstream(marker_) << "crashed\n";
            if (!segfault_) std::abort();
            // Volatile pointer and target: the compiler can neither see the null nor drop the load.
            const volatile double* volatile nowhere = nullptr;
            if (*nowhere == 0.0) std::abort();
        }
        return Sphere::evaluate(points, request);
    }

private:
    std::string marker_;
    int after_;
    bool segfault_;
    int calls_ = 0;
};
}  // namespace

DPBO_PLUGIN(CrashesOnce, "crashes-once-objective", "1.0.0", "its evaluate crashes once, until a marker file exists",
            "none")
