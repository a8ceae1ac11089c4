// Side by side on the same model and thread count: a bare C++ loop of OpenCV DNN's
// Net::setInput + Net::forward and `edgebench run` on opencv:cpu, alternated for several rounds
// so both see the same machine noise. Prints the ratio of their p50 latencies (goal: within 2%).
//
//   opencv_overhead_bench MODEL.onnx [--threads N] [--queries N] [--rounds N] [--fusion on|off]
//
// --fusion off: both sides without OpenCV's layer fusion (Net::enableFusion(false); the
// BlazeFace fixture needs it in OpenCV 4.10).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/dnn.hpp>

#include "core/clock.h"
#include "core/onnx_graph_reader.h"
#include "core/tensor.h"
#include "inputs/input_generator.h"
#include "stats/summary.h"
#include "side_by_side.h"

namespace {

// The bare loop: what a user would write with OpenCV's DNN API alone (the graph's input and
// output names and shapes read from the file, free axes as 1, as edgebench binds them; float32
// inputs, as the models it is run on take).
int64_t BareOpenCvLoopP50(const std::string& model, int threads, int queries, bool fusion) {
  auto graph = edgebench::ReadOnnxGraph(model);
  if (!graph.ok()) {
    std::fprintf(stderr, "%s\n", graph.error().c_str());
    std::exit(1);
  }
  cv::dnn::Net net = cv::dnn::readNet(model);
  net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
  net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
  net.enableFusion(fusion);
  cv::setNumThreads(threads);
  edgebench::Signature signature;
  std::vector<std::vector<int64_t>> shapes;
  for (const edgebench::OnnxValueInfo& value : graph.value().inputs) {
    edgebench::TensorSpec spec{value.name, edgebench::DType::kFloat32, {}};
    std::vector<int64_t> shape;
    for (const edgebench::OnnxDim& d : value.dims) shape.push_back(d.value ? *d.value : 1);
    for (int64_t d : shape) spec.shape.push_back(edgebench::Dim::Fixed(d));
    signature.inputs.push_back(spec);
    shapes.push_back(shape);
  }
  auto tensors = edgebench::GenerateInputs(signature, shapes, 0).take();
  std::vector<cv::Mat> blobs;
  for (auto& t : tensors) {
    std::vector<int> sizes(t.shape.begin(), t.shape.end());
    blobs.emplace_back(static_cast<int>(sizes.size()), sizes.data(), CV_32F, t.data.data());
  }
  const std::vector<std::string>& out_names = graph.value().outputs;
  std::vector<cv::Mat> outs;
  std::vector<int64_t> samples;
  for (int i = 0; i < 20 + queries; ++i) {
    const auto start = edgebench::SteadyClock::now();
    for (size_t k = 0; k < blobs.size(); ++k) net.setInput(blobs[k], signature.inputs[k].name);
    net.forward(outs, out_names);
    const auto end = edgebench::SteadyClock::now();
    if (i >= 20) samples.push_back(edgebench::ElapsedNs(start, end));
  }
  std::sort(samples.begin(), samples.end());
  return *edgebench::NearestRankPercentile(samples, 0.5);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace edgebench::bench;
  const SideBySideArgs args = ParseSideBySideArgs(
      argc, argv, "MODEL.onnx [--threads N] [--queries N] [--rounds N] [--fusion on|off]", {{"fusion", "on"}});
  const bool fusion = args.options.at("fusion") != "off";
  const std::string target = "opencv:cpu?threads=" + std::to_string(args.threads) + (fusion ? "" : "&fusion=off");
  const SideBySide result = RunSideBySide(
      args.rounds, [&] { return BareOpenCvLoopP50(args.model, args.threads, args.queries, fusion); },
      [&] { return EdgebenchRunP50(args.model, target, args.queries); });
  std::printf("model %s, OpenCV %s, %d threads, fusion %s, %d queries x %d rounds\n", args.model.c_str(), CV_VERSION,
              args.threads, fusion ? "on" : "off", args.queries, args.rounds);
  PrintSideBySide(result, "Net::setInput+forward");
  return 0;
}
