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

namespace {

using edgebench::DType;

int64_t Median(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

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

int64_t EdgebenchP50(const std::string& model, int threads, int queries) {
  const std::string command = std::string(EDGEBENCH_EXECUTABLE) + " run '" + model +
                              "' --format jsonl --warmup 20 --min-duration 0 --min-queries " +
                              std::to_string(queries) + " --target 'ort:cpu?threads=" +
                              std::to_string(threads) + "'";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string output;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  ::pclose(pipe);
  const auto record = nlohmann::json::parse(output);
  if (record["status"] != "ok") {
    std::fprintf(stderr, "edgebench run failed: %s\n", record["failure"]["error"].dump().c_str());
    std::exit(1);
  }
  return record["summary"]["percentiles_ns"]["p50"].get<int64_t>();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODEL.onnx [--threads N] [--queries N] [--rounds N]\n", argv[0]);
    return 2;
  }
  const std::string model = argv[1];
  int threads = 2, queries = 200, rounds = 5;
  for (int i = 2; i + 1 < argc; i += 2) {
    const int value = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--threads")) threads = value;
    else if (!std::strcmp(argv[i], "--queries")) queries = value;
    else if (!std::strcmp(argv[i], "--rounds")) rounds = value;
  }
  edgebench::StderrFilter quiet(edgebench::IsOnnxSchemaNoise);
  Ort::Env env(ORT_LOGGING_LEVEL_WARNING, "bench");
  std::vector<int64_t> bare, harness;
  for (int r = 0; r < rounds; ++r) {
    // Alternate which goes first so drift in machine state hits both.
    if (r % 2 == 0) {
      bare.push_back(BareLoopP50(env, model, threads, queries));
      harness.push_back(EdgebenchP50(model, threads, queries));
    } else {
      harness.push_back(EdgebenchP50(model, threads, queries));
      bare.push_back(BareLoopP50(env, model, threads, queries));
    }
    std::printf("round %d: bare p50 %.3f ms, edgebench p50 %.3f ms\n", r + 1, bare.back() / 1e6,
                harness.back() / 1e6);
    std::fflush(stdout);
  }
  const double ratio = static_cast<double>(Median(harness)) / static_cast<double>(Median(bare));
  std::printf("model %s, %d threads, %d queries x %d rounds\n", model.c_str(), threads, queries, rounds);
  std::printf("median p50: bare Ort::Session::Run %.3f ms, edgebench run %.3f ms\n",
              Median(bare) / 1e6, Median(harness) / 1e6);
  std::printf("ratio edgebench / bare p50: %.4f (goal: within 2%%: %s)\n", ratio,
              std::abs(ratio - 1.0) <= 0.02 ? "met" : "NOT met");
  return 0;
}
