// ONNX Runtime backend. Targets:
//   ort:cpu       the CPU execution provider
//   ort:xnnpack   the XNNPACK execution provider (nodes it cannot take run on the CPU provider)
//   ort:dnnl      the oneDNN execution provider
// Options: threads=N (intra-op threads; default: all logical cores),
//          opt=disable|basic|extended|all (graph optimisation level; default all).
//
// Placement comes from ORT's own "Node placements" log during session creation.
// One Ort::Env per backend object, created on first load; sessions are created one at a time.
#pragma once

#include <memory>

#include "backends/backend.h"

namespace edgebench {

std::unique_ptr<Backend> MakeOrtBackend();
// What the backend says of itself before it is created (backends/backend.h); its plugin exports it.
BackendDescription DescribeOrtBackend();

}  // namespace edgebench
