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

namespace {

int64_t OpenCvBenchMedian(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

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

int64_t EdgebenchOpenCvP50(const std::string& model, int threads, int queries, bool fusion) {
  const std::string command = std::string(EDGEBENCH_EXECUTABLE) + " run '" + model +
                              "' --format jsonl --warmup 20 --min-duration 0 --min-queries " +
                              std::to_string(queries) + " --target 'opencv:cpu?threads=" +
                              std::to_string(threads) + (fusion ? "" : "&fusion=off") + "'";
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
    std::fprintf(stderr, "usage: %s MODEL.onnx [--threads N] [--queries N] [--rounds N] [--fusion on|off]\n",
                 argv[0]);
    return 2;
  }
  const std::string model = argv[1];
  int threads = 2, queries = 200, rounds = 5;
  bool fusion = true;
  for (int i = 2; i + 1 < argc; i += 2) {
    const int value = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--threads")) threads = value;
    else if (!std::strcmp(argv[i], "--queries")) queries = value;
    else if (!std::strcmp(argv[i], "--rounds")) rounds = value;
    else if (!std::strcmp(argv[i], "--fusion")) fusion = std::strcmp(argv[i + 1], "off") != 0;
  }
  std::vector<int64_t> bare, harness;
  for (int r = 0; r < rounds; ++r) {
    // Alternate which goes first so drift in machine state hits both.
    if (r % 2 == 0) {
      bare.push_back(BareOpenCvLoopP50(model, threads, queries, fusion));
      harness.push_back(EdgebenchOpenCvP50(model, threads, queries, fusion));
    } else {
      harness.push_back(EdgebenchOpenCvP50(model, threads, queries, fusion));
      bare.push_back(BareOpenCvLoopP50(model, threads, queries, fusion));
    }
    std::printf("round %d: bare p50 %.3f ms, edgebench p50 %.3f ms\n", r + 1, bare.back() / 1e6,
                harness.back() / 1e6);
    std::fflush(stdout);
  }
  const double ratio = static_cast<double>(OpenCvBenchMedian(harness)) / static_cast<double>(OpenCvBenchMedian(bare));
  std::printf("model %s, OpenCV %s, %d threads, fusion %s, %d queries x %d rounds\n", model.c_str(), CV_VERSION,
              threads, fusion ? "on" : "off", queries, rounds);
  std::printf("median p50: bare Net::setInput+forward %.3f ms, edgebench run %.3f ms\n",
              OpenCvBenchMedian(bare) / 1e6, OpenCvBenchMedian(harness) / 1e6);
  std::printf("ratio edgebench / bare p50: %.4f (goal: within 2%%: %s)\n", ratio,
              std::abs(ratio - 1.0) <= 0.02 ? "met" : "NOT met");
  return 0;
}
