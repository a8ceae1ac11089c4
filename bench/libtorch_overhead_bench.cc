// Side by side on the same TorchScript module and thread count: a bare C++ loop of LibTorch's
// torch::jit::Module::forward and `edgebench run` on libtorch:cpu, alternated for several rounds
// so both see the same machine noise. Prints the ratio of their p50 latencies (goal: within 2%).
//
//   libtorch_overhead_bench MODEL.pt [--threads N] [--queries N] [--rounds N]
// MODEL.pt: a module from scripts/models/export-torch-models (its edgebench.json gives the input
// shape; the batch is 1 on both sides).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <ATen/Parallel.h>
#include <nlohmann/json.hpp>
#include <torch/script.h>
#include <torch/version.h>

#include "backends/libtorch/libtorch_module_facts.h"
#include "core/clock.h"
#include "core/tensor.h"
#include "inputs/input_generator.h"
#include "stats/summary.h"

namespace {

int64_t LibTorchBenchMedian(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// GCC 16 sees c10::InferenceMode's saved state as maybe uninitialized in its destructor: a false
// positive in LibTorch's header (as in the backend).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// The bare loop: what a user would write with LibTorch's C++ API alone: load, eval, inference
// mode, the intra-op thread count, forward on a CPU tensor.
int64_t BareLibTorchLoopP50(const std::string& model, int threads, int queries) {
  torch::jit::ExtraFilesMap extra{{edgebench::kTorchScriptDescriptionFile, ""}};
  torch::jit::Module module = torch::jit::load(model, torch::kCPU, extra);
  module.eval();
  at::set_num_threads(threads);
  auto signature = edgebench::SignatureFromTorchScriptDescription(extra[edgebench::kTorchScriptDescriptionFile], model);
  if (!signature.ok()) {
    std::fprintf(stderr, "%s\n", signature.error().c_str());
    std::exit(1);
  }
  std::vector<std::vector<int64_t>> shapes;
  for (const edgebench::TensorSpec& spec : signature.value().inputs) {
    std::vector<int64_t> shape;
    for (const edgebench::Dim& d : spec.shape) shape.push_back(d.fixed() ? d.size : 1);
    shapes.push_back(shape);
  }
  auto tensors = edgebench::GenerateInputs(signature.value(), shapes, 0).take();
  c10::InferenceMode inference;
  std::vector<c10::IValue> inputs;
  for (auto& t : tensors) inputs.emplace_back(torch::from_blob(t.data.data(), t.shape, torch::kFloat32));
  std::vector<int64_t> samples;
  for (int i = 0; i < 20 + queries; ++i) {
    const auto start = edgebench::SteadyClock::now();
    const c10::IValue out = module.forward(inputs);
    const auto end = edgebench::SteadyClock::now();
    if (i >= 20) samples.push_back(edgebench::ElapsedNs(start, end));
  }
  std::sort(samples.begin(), samples.end());
  return *edgebench::NearestRankPercentile(samples, 0.5);
}
#pragma GCC diagnostic pop

int64_t EdgebenchLibTorchP50(const std::string& model, int threads, int queries) {
  const std::string command = std::string(EDGEBENCH_EXECUTABLE) + " run '" + model +
                              "' --format jsonl --warmup 20 --min-duration 0 --min-queries " +
                              std::to_string(queries) + " --dim batch=1 --target 'libtorch:cpu?threads=" +
                              std::to_string(threads) + "'";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string output;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  ::pclose(pipe);
  const auto record = nlohmann::json::parse(output, nullptr, false);
  if (record.is_discarded() || record["status"] != "ok") {
    std::fprintf(stderr, "edgebench run failed: %s\n",
                 record.is_discarded() ? output.c_str() : record["failure"]["error"].dump().c_str());
    std::exit(1);
  }
  return record["summary"]["percentiles_ns"]["p50"].get<int64_t>();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODEL.pt [--threads N] [--queries N] [--rounds N]\n", argv[0]);
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
  std::vector<int64_t> bare, harness;
  for (int r = 0; r < rounds; ++r) {
    // Alternate which goes first so drift in machine state hits both.
    if (r % 2 == 0) {
      bare.push_back(BareLibTorchLoopP50(model, threads, queries));
      harness.push_back(EdgebenchLibTorchP50(model, threads, queries));
    } else {
      harness.push_back(EdgebenchLibTorchP50(model, threads, queries));
      bare.push_back(BareLibTorchLoopP50(model, threads, queries));
    }
    std::printf("round %d: bare p50 %.3f ms, edgebench p50 %.3f ms\n", r + 1, bare.back() / 1e6,
                harness.back() / 1e6);
    std::fflush(stdout);
  }
  const double ratio = static_cast<double>(LibTorchBenchMedian(harness)) / static_cast<double>(LibTorchBenchMedian(bare));
  std::printf("model %s, LibTorch %s, %d threads, %d queries x %d rounds\n", model.c_str(), TORCH_VERSION, threads,
              queries, rounds);
  std::printf("median p50: bare Module::forward %.3f ms, edgebench run %.3f ms\n",
              LibTorchBenchMedian(bare) / 1e6, LibTorchBenchMedian(harness) / 1e6);
  std::printf("ratio edgebench / bare p50: %.4f (goal: within 2%%: %s)\n", ratio,
              std::abs(ratio - 1.0) <= 0.02 ? "met" : "NOT met");
  return 0;
}
