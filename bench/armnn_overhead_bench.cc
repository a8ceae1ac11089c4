// Side by side on the same model: a bare C++ loop of Arm NN's own API (TFLite parser, Optimize for
// one backend, IRuntime::EnqueueWorkload) and `edgebench run` on armnn:BACKEND, alternated for
// several rounds so both see the same machine noise. Prints the ratio of their p50 latencies
// (goal: within 2%).
//
//   armnn_overhead_bench MODEL.tflite [--device cpuref|cpuacc|gpuacc] [--queries N] [--rounds N]
#include <armnn/ArmNN.hpp>
#include <armnn/Utils.hpp>
#include <armnnTfLiteParser/ITfLiteParser.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.h"
#include "core/tensor.h"
#include "inputs/input_generator.h"
#include "stats/summary.h"
#include "side_by_side.h"

namespace {

const std::map<std::string, std::string> kArmNnBenchBackends = {
    {"cpuref", "CpuRef"}, {"cpuacc", "CpuAcc"}, {"gpuacc", "GpuAcc"}};

// The bare loop: what a user would write with Arm NN's API alone (float32 inputs).
int64_t BareArmNnP50(armnn::IRuntime& runtime, const std::string& model, const std::string& backend, int queries) {
  auto parser = armnnTfLiteParser::ITfLiteParser::Create();
  armnn::INetworkPtr network = parser->CreateNetworkFromBinaryFile(model.c_str());
  armnn::IOptimizedNetworkPtr optimized =
      armnn::Optimize(*network, {armnn::BackendId(backend)}, runtime.GetDeviceSpec());
  armnn::NetworkId id = 0;
  std::string error;
  const armnn::INetworkProperties properties(false, armnn::MemorySource::Undefined, armnn::MemorySource::Undefined);
  if (runtime.LoadNetwork(id, std::move(optimized), error, properties) != armnn::Status::Success) {
    std::fprintf(stderr, "Arm NN could not load %s: %s\n", model.c_str(), error.c_str());
    std::exit(1);
  }
  edgebench::Signature signature;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<std::pair<armnn::LayerBindingId, armnn::TensorInfo>> inputs, outputs;
  for (const std::string& name : parser->GetSubgraphInputTensorNames(0)) {
    const auto binding = parser->GetNetworkInputBindingInfo(0, name);
    armnn::TensorInfo info = runtime.GetInputTensorInfo(id, binding.first);
    info.SetConstant(true);
    inputs.emplace_back(binding.first, info);
    std::vector<int64_t> shape;
    for (unsigned int d = 0; d < info.GetNumDimensions(); ++d) shape.push_back(info.GetShape()[d]);
    edgebench::TensorSpec spec{name, edgebench::DType::kFloat32, {}};
    for (int64_t d : shape) spec.shape.push_back(edgebench::Dim::Fixed(d));
    signature.inputs.push_back(spec);
    shapes.push_back(shape);
  }
  for (const std::string& name : parser->GetSubgraphOutputTensorNames(0)) {
    const auto binding = parser->GetNetworkOutputBindingInfo(0, name);
    outputs.emplace_back(binding.first, runtime.GetOutputTensorInfo(id, binding.first));
  }
  auto tensors = edgebench::GenerateInputs(signature, shapes, 0).take();
  armnn::InputTensors input_tensors;
  for (size_t i = 0; i < inputs.size(); ++i) {
    input_tensors.emplace_back(inputs[i].first, armnn::ConstTensor(inputs[i].second, tensors[i].data.data()));
  }
  std::vector<std::vector<std::byte>> output_data;
  armnn::OutputTensors output_tensors;
  for (const auto& [binding, info] : outputs) {
    output_data.emplace_back(info.GetNumBytes());
    output_tensors.emplace_back(binding, armnn::Tensor(info, output_data.back().data()));
  }
  std::vector<int64_t> samples;
  for (int i = 0; i < 20 + queries; ++i) {
    const auto start = edgebench::SteadyClock::now();
    runtime.EnqueueWorkload(id, input_tensors, output_tensors);
    const auto end = edgebench::SteadyClock::now();
    if (i >= 20) samples.push_back(edgebench::ElapsedNs(start, end));
  }
  runtime.UnloadNetwork(id);
  std::sort(samples.begin(), samples.end());
  return *edgebench::NearestRankPercentile(samples, 0.5);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace edgebench::bench;
  const SideBySideArgs args = ParseSideBySideArgs(
      argc, argv, "MODEL.tflite [--device cpuref|cpuacc|gpuacc] [--queries N] [--rounds N]", {{"device", "cpuref"}});
  const std::string device = args.options.at("device");
  const auto backend = kArmNnBenchBackends.find(device);
  if (backend == kArmNnBenchBackends.end()) {
    std::fprintf(stderr, "--device %s: Arm NN's devices are cpuref, cpuacc, gpuacc\n", device.c_str());
    return 2;
  }
  armnn::ConfigureLogging(false, false, armnn::LogSeverity::Fatal);
  armnn::IRuntimePtr runtime = armnn::IRuntime::Create(armnn::IRuntime::CreationOptions());
  const SideBySide result = RunSideBySide(
      args.rounds, [&] { return BareArmNnP50(*runtime, args.model, backend->second, args.queries); },
      [&] { return EdgebenchRunP50(args.model, "armnn:" + device, args.queries); });
  std::printf("model %s, Arm NN %s (%s), %d queries x %d rounds\n", args.model.c_str(), armnn::GetVersion().c_str(),
              backend->second.c_str(), args.queries, args.rounds);
  PrintSideBySide(result, "IRuntime::EnqueueWorkload");
  return 0;
}
