#pragma once
// Text into HTML: escaping, and JSON safe inside a <script> element.
#include <string>

#include "cli.hpp"

namespace dpbo::cli::report {

// &, <, >, " and ' as character references: safe in text and in quoted attributes.
std::string escape_html(const std::string& text);

// The JSON text with "</" written "<\/" (the same string to a JSON parser), so that no value can
// close the <script> element that carries it.
std::string script_json(const json& value);

}  // namespace dpbo::cli::report
