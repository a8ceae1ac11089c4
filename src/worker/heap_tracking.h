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

// At the worker's start: pauses heaptrack when the orchestrator asked for leak sites and
// heaptrack's library is in the process. Returns whether it is.
bool StartHeapTracking();
// The measured phase's bounds: resume (and mark), then stop for good.
void OpenHeapTrackingWindow();
void CloseHeapTrackingWindow();

}  // namespace edgebench
