// The Algorithm and RunObserver interfaces' out-of-line parts.
#include "dpbo/algorithm.hpp"
#include "dpbo/observer.hpp"

namespace dpbo {

Algorithm::~Algorithm() = default;
RunObserver::~RunObserver() = default;

}  // namespace dpbo
