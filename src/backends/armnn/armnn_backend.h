// Backend "armnn": Arm NN (Debian's libarmnn 33, Arm NN 23.08) with its TFLite parser.
//
// Targets: armnn:cpuref (the reference backend, a dynamic backend here), armnn:cpuacc (Neon) and
// armnn:gpuacc (OpenCL), each available when the Arm NN runtime's device spec lists its backend
// (Debian builds CpuAcc and GpuAcc for arm64 only); an unavailable one says what Arm NN has.
// Artifacts: .tflite, read by armnnTfLiteParser. An operator the parser or the backends do not
// support fails the load with Arm NN's own message.
//
// Options (each reported by effective_options(), defaults too):
//   fallback=none|B[+B...]   backends Arm NN may give layers the device does not support, in
//                            order (cpuref, cpuacc, gpuacc). Default none: such a layer fails
//                            the load instead of running elsewhere without a word.
//   threads=N                CpuAcc's NumberOfThreads (0, the default: Arm NN's choice, all
//                            cores); armnn:cpuref runs one thread and refuses any other value;
//                            armnn:gpuacc refuses it.
//
// Placement: after armnn::Optimize, every layer of the optimized network with the backend Arm NN
// assigned it (read from IOptimizedNetwork::SerializeToDot), and the model's TFLite operators
// by the layers that name them. Optimize's messages (fallback warnings) go to the notes.
// --profile enables the network's IProfiler for the measured runs and sums its per-workload times.
#pragma once

#include <memory>

#include "backends/backend.h"

namespace edgebench {

std::unique_ptr<Backend> MakeArmNnBackend();
// What the backend says of itself before it is created (backends/backend.h); its plugin exports it.
BackendDescription DescribeArmNnBackend();

}  // namespace edgebench
