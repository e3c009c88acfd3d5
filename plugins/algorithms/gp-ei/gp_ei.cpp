// GP-EI: the core BO loop with expected improvement (the `ei` plugin), over a box or a finite
// candidate set.
#include <dpbo/bo/loop.hpp>
#include <dpbo/plugin.hpp>

namespace {

class GpEi final : public dpbo::SequentialBo {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema = dpbo::bo_loop_schema(60, 10);
        dpbo::add_batch_key(schema);
        return schema;
    }
    explicit GpEi(const dpbo::ParameterSet& parameters)
        : SequentialBo(parameters, "gp-ei", "ei", "expected improvement over the best observed value") {}
};

}  // namespace

DPBO_PLUGIN(GpEi, "gp-ei", "1.0.0",
            "GP-EI: Bayesian optimisation with expected improvement, over a box or a candidate set (not private)",
            "Jones, Schonlau & Welch (1998)")
