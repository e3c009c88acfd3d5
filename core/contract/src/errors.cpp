#include "dpbo/errors.hpp"

namespace dpbo {

ValidationError::ValidationError(const std::string& message) : std::invalid_argument(message) {}
ValidationError::~ValidationError() = default;

RunError::RunError(const std::string& message) : std::runtime_error(message) {}
RunError::~RunError() = default;

BudgetExceeded::BudgetExceeded(const std::string& message) : RunError(message) {}
BudgetExceeded::~BudgetExceeded() = default;

}  // namespace dpbo
