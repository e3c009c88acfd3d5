// PO-GP-UCB's loan applications (Kharkovskii, Dai & Low 2020, §4): a loan's features — the amount
// funded by investors, its interest rate and the applicant's annual income — and, as the response,
// the log of what it paid investors over what they funded. The paper had 36 000 LendingClub loans;
// only a sample of the first 1 000 (all issued in December 2011) ships here.
#include <string>

#include <fmt/format.h>

#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "table_rows.hpp"

namespace {

constexpr const char* kOwner = "objective 'loan-roi'";
constexpr const char* kShipped = "lending_club_first1000_roi.csv.gz";

dpbo::plugin_data::TableSpec loan_spec(const dpbo::ParameterSet& p) {
    dpbo::plugin_data::TableSpec spec;
    spec.owner = kOwner;
    spec.setting = "data_file";
    spec.file = dpbo::plugin_data::shipped_or_given_file(p, kShipped, kOwner);
    // Public ranges, not the sample's: LendingClub's loans were at most 35 000 USD then and its rates
    // within 5–25 %; incomes above 250 000 USD are clipped to it.
    spec.features = {{"funded_amnt_inv", 0.0, 35000.0}, {"int_rate", 5.0, 25.0}, {"annual_inc", 0.0, 250000.0}};
    spec.response = "total_pymnt_inv";
    spec.response_divisor = "funded_amnt_inv";
    spec.transform = dpbo::plugin_data::ResponseTransform::Log;
    spec.drop_unusable = true;  // a loan that funded or paid nothing has no return to log
    return spec;
}

class LoanRoi final : public dpbo::plugin_data::TableObjective {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        dpbo::plugin_data::add_shipped_table_parameters(
            schema,
            "a CSV in the Kaggle LendingClub schema (at least funded_amnt_inv, int_rate, annual_inc, "
            "total_pymnt_inv); absent: the shipped sample of 1 000 loans");
        return schema;
    }
    explicit LoanRoi(const dpbo::ParameterSet& p) : LoanRoi(loan_spec(p), p.real("noise_stddev")) {}

private:
    LoanRoi(const dpbo::plugin_data::TableSpec& spec, double noise)
        : TableObjective(dpbo::plugin_data::read_table(spec), spec.features, noise, kOwner,
                         fmt::format("LendingClub loans from {} (the shipped sample: the first 1 000 loans, issued "
                                     "December 2011; the paper used 36 000): funded_amnt_inv in [0, 35000] USD, "
                                     "int_rate in [5, 25] %, annual_inc in [0, 250000] USD (clipped); response "
                                     "log(total_pymnt_inv / funded_amnt_inv)",
                                     spec.file)) {}
};

}  // namespace

DPBO_PLUGIN(LoanRoi, "loan-roi", "1.0.0",
            "log return to investors of LendingClub loans over their amount, rate and income (PO-GP-UCB's loan "
            "dataset; 1 000-loan sample)",
            "Kharkovskii, Dai & Low (2020), §4 (loan applications)")
