// Backend "libtorch": LibTorch (Debian's libtorch-dev) running TorchScript modules (.pt, from
// torch.jit.trace in scripts/models/export-torch-models) on the CPU. Options: threads (intra-op),
// interop (inter-op; once per process). See docs/backends.md.
#pragma once

#include <memory>

#include "backends/backend.h"

namespace edgebench {

std::unique_ptr<Backend> MakeLibTorchBackend();
// What the backend says of itself before it is created (backends/backend.h); its plugin exports it.
BackendDescription DescribeLibTorchBackend();

}  // namespace edgebench
