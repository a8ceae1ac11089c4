// oneDNN's execution provider runs on OpenMP's threads, not on ONNX Runtime's pool: it ignores
// SessionOptions' intra-op threads (threads=1 ran on every core: 176% of a core's time on two).
// OpenMP takes its thread count from OMP_NUM_THREADS when its runtime loads, which here is when
// the provider's library loads, in the worker that runs the case.
#pragma once

#include "core/status.h"

namespace edgebench {

// Makes OpenMP's threads `threads` for runtimes loaded after this call, or says why it cannot:
// OpenMP was loaded already in this process with another count (a second case with another
// threads= in one process, --in-process). OK when it is loaded already with this count.
Status ApplyOpenMpThreads(int threads);

// OpenMP's thread count for a new parallel region, as its runtime reports it; 0 when OpenMP is
// not loaded.
int OpenMpMaxThreads();

}  // namespace edgebench
