// --leak-sites, the orchestrator's side (docs/monitoring.md, "Leak sites"): the worker runs under
// heaptrack's preload library (Debian's libheaptrack), writing its trace into the worker's scratch
// directory; once the worker has ended, heaptrack_interpret symbolizes the trace and
// monitor/heaptrack_reader.h finds the sites that grew over the measured phase.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "record/leak_sites.h"

namespace edgebench {

struct HeapTrackTools {
  std::string preload;      // libheaptrack_preload.so
  std::string interpreter;  // heaptrack_interpret
};

// Where the heaptrack package put them (/usr/lib/heaptrack, /usr/lib/<triplet>/heaptrack), or
// under $EDGEBENCH_HEAPTRACK_DIR; an error that says what to install when they are not there,
// and one when this edgebench is a sanitizer build (its runtime must come first in the process).
Result<HeapTrackTools> FindHeapTrack();

// The trace's file in a worker's scratch directory.
std::string HeapTrackTracePath(const std::string& scratch);

// The entries the worker's environment gains: heaptrack's library first in LD_PRELOAD, its output
// file, and the variable that tells the worker to pause and resume it (worker/heap_tracking.h).
std::vector<std::string> HeapTrackEnvironment(const HeapTrackTools& tools, const std::string& trace_path);

// Symbolizes the trace (heaptrack_interpret, at most `timeout_s` seconds) and reads the sites; what
// went wrong is the result's reason. Leaves the raw and symbolized files in the scratch directory
// (removed with it).
// `progress`: queries completed against time (record_monitor.h's QueryProgress), for the fits.
LeakSites ReadLeakSites(const HeapTrackTools& tools, const std::string& trace_path,
                        const std::vector<std::pair<int64_t, double>>& progress, int timeout_s = 300);

}  // namespace edgebench
