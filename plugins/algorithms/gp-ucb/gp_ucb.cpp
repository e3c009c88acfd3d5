// GP-UCB: the core BO loop with an upper-confidence-bound acquisition (the `ucb` plugin and its β
// schedules), over a box or a finite candidate set.
#include <dpbo/bo/loop.hpp>
#include <dpbo/plugin.hpp>

namespace {

class GpUcb final : public dpbo::SequentialBo {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema = dpbo::bo_loop_schema(60, 10);
        dpbo::add_batch_key(schema);
        return schema;
    }
    explicit GpUcb(const dpbo::ParameterSet& parameters)
        : SequentialBo(parameters, "gp-ucb", "ucb", "upper confidence bound and its beta schedule") {}
};

}  // namespace

DPBO_PLUGIN(GpUcb, "gp-ucb", "1.0.0",
            "GP-UCB: Bayesian optimisation with an upper confidence bound, over a box or a candidate set (not private)",
            "Srinivas, Krause, Kakade & Seeger (2010), Algorithm 1")
