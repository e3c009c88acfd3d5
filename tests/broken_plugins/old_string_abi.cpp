// An ordinary plugin, compiled with _GLIBCXX_USE_CXX11_ABI=0 (see CMakeLists.txt): its std::string
// is libstdc++'s old copy-on-write string. It calls into libdpbo only where no std::string appears
// in a mangled name (SearchSpace::box takes Dimensions, which hold strings; the Manifest's strings
// cross through a function pointer), so it links and loads, and only the build signature in its
// header can tell the host that every string it hands over has another layout.
#include <dpbo/objective.hpp>
#include <dpbo/parameters.hpp>
#include <dpbo/plugin.hpp>

namespace {

class OldAbiSphere : public dpbo::Objective {
public:
    static dpbo::ParameterSchema schema() { return {}; }
    explicit OldAbiSphere(const dpbo::ParameterSet&)
        : space_(dpbo::SearchSpace::box({dpbo::Dimension{"x0", -1.0, 1.0}, dpbo::Dimension{"x1", -1.0, 1.0}})) {}
    const dpbo::SearchSpace& space() const override { return space_; }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest&) override {
        dpbo::Evaluations e;
        e.points = points;
        e.values = arma::sum(arma::square(points), 1);
        return e;
    }

private:
    dpbo::SearchSpace space_;
};

}  // namespace

DPBO_PLUGIN(OldAbiSphere, "old-abi-sphere", "1.0.0", "test objective built with the old string ABI", "none")
