// The worker's side of --leak-sites (docs/monitoring.md, "Leak sites"): when the orchestrator
// starts it under heaptrack's preload library (runner/leak_sites_run.h), the worker pauses
// heaptrack at once, resumes it as the measured phase starts (marking the moment with one
// allocation from kHeapTrackingStartFunction, which monitor/heaptrack_reader.h looks for) and
// stops it as the phase ends, so that only the measured phase's allocations are traced and
// load and warm-up run at full speed. Without heaptrack in the process, every call does nothing.
#pragma once

namespace edgebench {

inline constexpr const char* kHeapTrackingStartFunction = "EdgebenchLeakSitesWindowStart";
// Set by the orchestrator in the worker's environment with --leak-sites.
inline constexpr const char* kHeapTrackingVariable = "EDGEBENCH_LEAK_SITES";
// heaptrack's trace grows by some 100 bytes per allocation (15 MB a second on ONNX Runtime): the
// worker stops heaptrack early when the file (named by kHeapTrackingTraceVariable: heaptrack
// removes its own DUMP_HEAPTRACK_OUTPUT from the environment) passes this many MB (the user's
// environment may set it; default 2048), so a long soak cannot fill the disk.
inline constexpr const char* kHeapTrackingTraceVariable = "EDGEBENCH_LEAK_SITES_TRACE";
inline constexpr const char* kHeapTrackingLimitVariable = "EDGEBENCH_LEAK_SITES_MAX_MB";
inline constexpr double kHeapTrackingDefaultLimitMb = 2048;

// At the worker's start: pauses heaptrack when the orchestrator asked for leak sites and
// heaptrack's library is in the process. Returns whether it is.
bool StartHeapTracking();
// The measured phase's bounds: resume (and mark), then stop for good.
void OpenHeapTrackingWindow();
void CloseHeapTrackingWindow();

}  // namespace edgebench
