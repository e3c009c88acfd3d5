#pragma once
// `dpbo account --event KIND:key=value,...[xR]` read into a typed privacy event.
#include <string>

#include "dpbo/privacy_event.hpp"

namespace dpbo::cli {

// KIND is one of gaussian, gdp, laplace, exponential, subsampled-gaussian, pure, approx; every key
// of the kind must be given once, no other. Throws ValidationError naming the text, the unknown
// kind or key (with the allowed ones), a missing key, or a malformed value; the event is validated.
PrivacyEvent parse_privacy_event(const std::string& text);

}  // namespace dpbo::cli
