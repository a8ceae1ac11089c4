// Backend "executorch": ExecuTorch's C++ runtime from its PyPI wheel (Debian has none).
//
// Targets: executorch:cpu runs a .pte without delegates on the wheel's optimized and portable
// kernels; executorch:xnnpack runs an XNNPACK-lowered .pte (its delegated blocks on XNNPACK,
// the rest on the kernels). Options: threads=N (the runtime's thread pool, which XNNPACK and the
// optimized kernels share; 0: the runtime's default), fallback=allow|fail (fail: a .pte that
// leaves nodes off XNNPACK on executorch:xnnpack is a failed record naming them).
//
// The wheel's XNNPACK defines the same xnn_* symbols as Debian's libXNNPACK, which ONNX Runtime
// loads: this backend must never share a symbol namespace with ONNX Runtime (see issue 12).
#pragma once

#include <memory>

#include "backends/backend.h"

namespace edgebench {

std::unique_ptr<Backend> MakeExecuTorchBackend();
// What the backend says of itself before it is created (backends/backend.h); its plugin exports it.
BackendDescription DescribeExecuTorchBackend();

}  // namespace edgebench
