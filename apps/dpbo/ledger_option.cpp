#include "ledger_option.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/host/lifetime_ledger.hpp"

namespace dpbo::cli {

void add_ledger_option(po::options_description& options, std::string& text) {
    options.add_options()("ledger", po::value(&text),
                          "the dataset's lifetime ledger (dpbo ledger create): every release is charged to it "
                          "before its noise is drawn, and refused beyond its budget");
}

std::filesystem::path read_ledger_option(const po::variables_map& given, const std::string& text) {
    if (!given.count("ledger")) return {};
    if (text.empty())
        throw ValidationError(
            "--ledger is empty; expected the file of a lifetime ledger (dpbo ledger create FILE "
            "--budget ...)");
    LifetimeLedger::open(text)->verify();
    return text;
}

}  // namespace dpbo::cli
