// Backend "openvino": OpenVINO's C++ runtime from its PyPI wheel (the SDK under openvino/).
//
// Targets: openvino:cpu, and openvino:gpu, openvino:npu, openvino:auto, each available when
// ov::Core::get_available_devices() lists its device (auto: when it lists any). Artifacts: .onnx,
// .tflite and OpenVINO IR (.xml with its .bin), read by OpenVINO's own frontends.
//
// Options (each reported by effective_options() as the compiled model holds it, defaults too):
//   hint=latency|throughput   ov::hint::performance_mode (default latency, as benchmark_app's)
//   streams=N                 ov::num_streams; 0 (default): what the hint chooses
//   threads=N                 ov::inference_num_threads; 0 (default): what the device chooses
//   precision=f32|bf16|f16    ov::hint::inference_precision; unset: the device's default (bf16
//                             on CPUs with AVX512-BF16 or AMX, f32 elsewhere)
//
// Run is safe from several threads (Capabilities::thread_safe_run): the session keeps a pool of
// ov::InferRequests created from one compiled model, and each concurrent Run takes one of its
// own, OpenVINO's own way of running several streams. So `--sessions shared` with hint=throughput
// runs N requests on one compiled model's streams; with one stream (hint=latency) concurrent
// requests take turns on it.
//
// Placement comes from the compiled model's executed graph (get_runtime_model(): each node's
// layer type, kernel and precision) and from query_model (the model's own nodes the device
// supports). --profile turns on ov::enable_profiling and sums get_profiling_info() after each
// measured run.
#pragma once

#include <memory>

#include "backends/backend.h"

namespace edgebench {

std::unique_ptr<Backend> MakeOpenVinoBackend();
// What the backend says of itself before it is created (backends/backend.h); its plugin exports it.
BackendDescription DescribeOpenVinoBackend();

}  // namespace edgebench
