#pragma once
// Optional callbacks during a run; every method has an empty default so an observer overrides only
// what it needs (progress display, recording, early stopping).
#include <cstddef>
#include <string>
#include <vector>

namespace dpbo {

class Trace;

class RunObserver {
public:
    virtual ~RunObserver();
    virtual void on_start(std::size_t /*planned_iterations*/) {}
    // Called after each iteration with the trace so far (its last row is the new one).
    virtual void on_iteration(std::size_t /*iteration*/, const Trace& /*trace*/) {}
    // Polled between iterations; returning true ends the run early with stop reason "observer".
    virtual bool should_stop() { return false; }
    virtual void on_finish() {}
};

}  // namespace dpbo
