// Backend "opencv": OpenCV's DNN module (Debian's libopencv-dnn-dev), cv::dnn::readNet.
//
// Targets: opencv:cpu (DNN_BACKEND_OPENCV on DNN_TARGET_CPU), opencv:opencl (DNN_BACKEND_OPENCV
// on DNN_TARGET_OPENCL) and opencv:vulkan (DNN_BACKEND_VKCOM on DNN_TARGET_VULKAN), each available
// when cv::dnn::getAvailableTargets(backend) lists its target; otherwise listed unavailable with
// the reason OpenCV gives (no OpenCL device, no Vulkan in the build). Artifacts: .onnx, and
// .tflite where OpenCV was built with FlatBuffers (asked of OpenCV at run time; Debian's 4.10 is
// not: .tflite is then not among the backend's extensions, and a load of one returns OpenCV's own
// error).
//
// Options (each reported by effective_options(), defaults too):
//   backend=opencv|inference_engine|vkcom|cuda   Net::setPreferableBackend (default: the device's)
//   target=...        Net::setPreferableTarget, one of the device's: cpu|cpu_fp16 (cpu),
//                     opencl|opencl_fp16 (opencl), vulkan (vulkan); the pair must be one
//                     cv::dnn::getAvailableBackends() lists
//   threads=N         cv::setNumThreads(N); 0 (default): OpenCV's own count. PROCESS-GLOBAL in
//                     OpenCV: the session sets it again before a Run where another changed it
//   fusion=on|off     Net::enableFusion (default on)
//   winograd=on|off   Net::enableWinograd (default on)
//
// A session holds one cv::dnn::Net, which is not safe to run from several threads at once: Run
// is called from one thread at a time (no Capabilities::thread_safe_run). Other input shapes than
// the declared ones (another batch) are accepted: OpenCV infers the layers' shapes again on
// the first forward with a new input shape, which Prepare runs.
//
// Placement: each layer of the net (getLayerNames, Layer::type), the target it was set up for
// (Layer::preferableTarget; a layer that does not support the chosen backend runs in OpenCV's CPU
// implementation) and which layers OpenCV fused into others (0 ticks in getPerfProfile after the
// set-up run). --profile sums Net::getPerfProfile's per-layer ticks after each measured run.
#pragma once

#include <memory>

#include "backends/backend.h"

namespace edgebench {

std::unique_ptr<Backend> MakeOpenCvBackend();
// What the backend says of itself before it is created (backends/backend.h); its plugin exports it.
BackendDescription DescribeOpenCvBackend();

}  // namespace edgebench
