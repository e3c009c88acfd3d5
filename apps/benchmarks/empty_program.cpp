// The start-up floor of a C++ program on this machine: nothing but the C++ runtime is loaded and
// initialised (performance.py times it beside a trivial `dpbo run`, whose start-up target is set
// against Limbo's, a C++ program with almost nothing else to load).
#include <iostream>

int main() { return std::cout.good() ? 0 : 1; }
