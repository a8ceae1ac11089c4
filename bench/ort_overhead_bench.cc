// Side by side on the same model and thread count: a bare C++ loop of Ort::Session::Run and
// `edgebench run`, alternated for several rounds so both see the same machine noise. Prints
// the ratio of their p50 latencies (goal: within 2%).
//
//   ort_overhead_bench MODEL.onnx [--threads N] [--queries N] [--rounds N]
#include <onnxruntime_cxx_api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.h"
#include "core/stderr_filter.h"
#include "core/tensor.h"
#include "inputs/input_generator.h"
#include "stats/summary.h"
#include "side_by_side.h"

namespace {

using edgebench::DType;

DType FromOrt(ONNXTensorElementDataType t) {
  return t == ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT ? DType::kFloat32
         : t == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64 ? DType::kInt64
                                                    : DType::kUnknown;
}

// The bare loop: what a user would write with ORT's C++ API alone.
int64_t BareLoopP50(Ort::Env& env, const std::string& model, int threads, int queries) {
  Ort::SessionOptions options;
  options.SetIntraOpNumThreads(threads);
  options.SetGraphOptimizationLevel(ORT_ENABLE_ALL);
  Ort::Session session(env, model.c_str(), options);
  Ort::AllocatorWithDefaultOptions allocator;
  std::vector<std::string> in_names, out_names;
  edgebench::Signature signature;
  std::vector<std::vector<int64_t>> shapes;
  for (size_t i = 0; i < session.GetInputCount(); ++i) {
    in_names.push_back(session.GetInputNameAllocated(i, allocator).get());
    const Ort::TypeInfo type_info = session.GetInputTypeInfo(i);  // owns what info views
    const auto info = type_info.GetTensorTypeAndShapeInfo();
    edgebench::TensorSpec spec{in_names.back(), FromOrt(info.GetElementType()), {}};
    std::vector<int64_t> shape = info.GetShape();
    for (int64_t& d : shape) d = d < 0 ? 1 : d;
    for (int64_t d : shape) spec.shape.push_back(edgebench::Dim::Fixed(d));
    signature.inputs.push_back(spec);
    shapes.push_back(shape);
  }
  for (size_t i = 0; i < session.GetOutputCount(); ++i) {
    out_names.push_back(session.GetOutputNameAllocated(i, allocator).get());
  }
  auto tensors = edgebench::GenerateInputs(signature, shapes, 0).take();
  auto memory = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
  std::vector<const char*> in_ptrs, out_ptrs;
  for (auto& n : in_names) in_ptrs.push_back(n.c_str());
  for (auto& n : out_names) out_ptrs.push_back(n.c_str());
  std::vector<Ort::Value> values;
  for (auto& t : tensors) {
    values.push_back(Ort::Value::CreateTensor(memory, t.data.data(), t.data.size(), t.shape.data(),
                                              t.shape.size(),
                                              t.dtype == DType::kFloat32
                                                  ? ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT
                                                  : ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64));
  }
  std::vector<int64_t> samples;
  for (int i = 0; i < 20 + queries; ++i) {
    const auto start = edgebench::SteadyClock::now();
    auto out = session.Run(Ort::RunOptions{nullptr}, in_ptrs.data(), values.data(), values.size(),
                           out_ptrs.data(), out_ptrs.size());
    const auto end = edgebench::SteadyClock::now();
    if (i >= 20) samples.push_back(edgebench::ElapsedNs(start, end));
  }
  std::sort(samples.begin(), samples.end());
  return *edgebench::NearestRankPercentile(samples, 0.5);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace edgebench::bench;
  const SideBySideArgs args = ParseSideBySideArgs(argc, argv, "MODEL.onnx [--threads N] [--queries N] [--rounds N]");
  edgebench::StderrFilter quiet(edgebench::IsOnnxSchemaNoise);
  Ort::Env env(ORT_LOGGING_LEVEL_WARNING, "bench");
  const SideBySide result = RunSideBySide(
      args.rounds, [&] { return BareLoopP50(env, args.model, args.threads, args.queries); },
      [&] { return EdgebenchRunP50(args.model, "ort:cpu?threads=" + std::to_string(args.threads), args.queries); });
  std::printf("model %s, %d threads, %d queries x %d rounds\n", args.model.c_str(), args.threads, args.queries,
              args.rounds);
  PrintSideBySide(result, "Ort::Session::Run");
  return 0;
}
