// A well-formed shared library that exports a function, but no dpbo entry symbol.
#include <boost/config.hpp>

extern "C" BOOST_SYMBOL_EXPORT int some_unrelated_function() { return 42; }
