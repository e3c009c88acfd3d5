#pragma once
// CPU clocks for the traces' and benchmarks' timing columns: the calling thread's CPU time (what
// one iteration of an algorithm costs, whatever else the process does) and the whole process's.
namespace dpbo {

double thread_cpu_seconds();
double process_cpu_seconds();

}  // namespace dpbo
