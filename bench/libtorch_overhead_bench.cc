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
#include "side_by_side.h"

namespace {

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

}  // namespace

int main(int argc, char** argv) {
  using namespace edgebench::bench;
  const SideBySideArgs args = ParseSideBySideArgs(argc, argv, "MODEL.pt [--threads N] [--queries N] [--rounds N]");
  const SideBySide result = RunSideBySide(
      args.rounds, [&] { return BareLibTorchLoopP50(args.model, args.threads, args.queries); },
      [&] {
        return EdgebenchRunP50(args.model, "libtorch:cpu?threads=" + std::to_string(args.threads), args.queries,
                               "--dim batch=1");
      });
  std::printf("model %s, LibTorch %s, %d threads, %d queries x %d rounds\n", args.model.c_str(), TORCH_VERSION,
              args.threads, args.queries, args.rounds);
  PrintSideBySide(result, "Module::forward");
  return 0;
}
