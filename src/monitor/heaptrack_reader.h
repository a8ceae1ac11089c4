// Reads the trace heaptrack_interpret writes (heaptrack's symbolized text format: "s" strings,
// "i" instruction pointers with their module and function, "t" trace nodes, "a" allocation
// sites, "+"/"-" allocations and frees, "c" ticks of its clock every 10 ms) and finds the call
// stacks whose live bytes grew over the measured phase (--leak-sites, docs/monitoring.md).
//
// The window opens at the first allocation made from `start_function` (the worker makes one as
// the measured phase starts, worker/heap_tracking.h) and closes at the trace's end (the worker
// stops heaptrack as the phase ends). Before it, what heaptrack saw is ignored. A site is the
// first frame of a stack outside the allocator (malloc, operator new, the standard library's
// allocation plumbing); its live bytes are sampled at each tick and fitted against the queries
// completed by then (`progress`: time on the measured phase's axis, queries; record_monitor.h's
// QueryProgress), so that a stalled stretch of the run bends no line; without progress, against
// time.
#pragma once

#include <istream>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "record/leak_sites.h"

namespace edgebench {

Result<LeakSites> ReadHeaptrackSites(std::istream& in, const std::string& start_function,
                                     const std::vector<std::pair<int64_t, double>>& progress = {});

// The name a frame is shown by: GCC's ".localalias" and "[clone ...]" suffixes removed.
std::string FrameFunctionName(const std::string& symbol);

}  // namespace edgebench
