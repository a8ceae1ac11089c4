// LiteRT (TensorFlow Lite) backend on Debian's libtensorflow-lite 2.14. Targets:
//   litert:cpu      TFLite's builtin kernels (threads=N; default: all logical cores)
//   litert:xnnpack  XNNPACK through LiteRT 2.3.0's own library (the ai-edge-litert wheel's
//                   libLiteRt.so, its CompiledModel C API; litert_xnnpack_session.cc), since
//                   Debian's TFLite has no XNNPACK delegate. Without that library the target
//                   is reported unavailable with the reason: builtin kernels are never run
//                   under an XNNPACK label. It runs only the model's compiled shape.
//
// Placement: litert:cpu reports op types per device from the interpreter's execution plan;
// litert:xnnpack reports the nodes XNNPACK took (delegate partitions are unknown: LiteRT's C
// API does not tell).
#pragma once

#include <memory>

#include "backends/backend.h"

namespace edgebench {

std::unique_ptr<Backend> MakeLiteRtBackend();
// What the backend says of itself before it is created (backends/backend.h); its plugin exports it.
BackendDescription DescribeLiteRtBackend();

}  // namespace edgebench
