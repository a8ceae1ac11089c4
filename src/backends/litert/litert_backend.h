// LiteRT (TensorFlow Lite) backend on Debian's libtensorflow-lite 2.14. Targets:
//   litert:cpu      TFLite's builtin kernels (threads=N; default: all logical cores)
//   litert:xnnpack  the XNNPACK delegate: reported unavailable, with the reason, when the
//                   TFLite library has no XNNPACK delegate (Debian builds it without one).
//                   A target is what actually ran: builtin kernels are never run under an
//                   XNNPACK label.
//
// The delegation report (nodes per device, op types left to builtin kernels, delegate
// partitions) comes from the interpreter's execution plan after delegation.
#pragma once

#include <memory>

#include "backends/backend.h"

namespace edgebench {

std::unique_ptr<Backend> MakeLiteRtBackend();

}  // namespace edgebench
