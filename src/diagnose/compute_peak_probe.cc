#include "diagnose/compute_peak_probe.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "backends/isolated_listing.h"
#include "backends/target.h"
#include "core/clock.h"
#include "core/file_replace.h"
#include "core/filler_values.h"
#include "core/onnx_writer.h"
#include "diagnose/tflite_probe_model.h"

namespace edgebench {
namespace {

// kNative: the runtime builds the product itself (Backend::LoadMatMulProbe): llama.cpp's ggml.
enum class ProbeFormat { kOnnx, kTflite, kNative };

std::string OnnxProbeBytes(int64_t size, bool int8) {
  OnnxModelWriter writer;
  if (int8) {
    writer.AddInput("a", 2, {size, size});  // uint8 activations, int8 weights: the usual quantized product
    std::string raw(static_cast<size_t>(size * size), '\0');
    FillBytes(raw.data(), raw.size(), 12345);
    writer.AddInitializer("b", 3, {size, size}, raw);
    writer.AddNode("MatMulInteger", {"a", "b"}, {"y"});
    writer.AddOutput("y", 6, {size, size});
  } else {
    writer.AddInput("a", 1, {size, size});
    writer.AddRandomFloatInitializer("b", {size, size}, 7);
    writer.AddNode("MatMul", {"a", "b"}, {"y"});
    writer.AddOutput("y", 1, {size, size});
  }
  return writer.Serialize(13);
}

// The probe's model: Y = A x B, A the input, B a constant; written once per format, size and
// precision, to a temporary file renamed into place (two processes at once leave one whole file).
Result<std::string> WriteProbeModel(const std::string& dir, int64_t size, bool int8, ProbeFormat format) {
  const std::string path = dir + "/matmul_" + (int8 ? "int8_" : "fp32_") + std::to_string(size) +
                           (format == ProbeFormat::kOnnx ? ".onnx" : ".tflite");
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return path;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error("cannot create " + dir + ": " + ec.message());
  std::string bytes;
  if (format == ProbeFormat::kOnnx) {
    bytes = OnnxProbeBytes(size, int8);
  } else {
    auto tflite = TfliteMatMulModel(size, int8);
    if (!tflite.ok()) return tflite.status();
    bytes = tflite.take();
  }
  if (Status written = ReplaceFileContents(path, bytes); !written.ok()) return written;
  return path;
}

// ONNX's quantized product takes uint8 activations, TFLite's int8.
Tensor ProbeInput(int64_t size, bool int8, ProbeFormat format) {
  Tensor t;
  t.name = "a";
  if (format == ProbeFormat::kNative) int8 = false;  // the runtime quantizes its float input itself
  t.dtype = !int8 ? DType::kFloat32 : format == ProbeFormat::kOnnx ? DType::kUInt8 : DType::kInt8;
  t.shape = {size, size};
  t.data.resize(static_cast<size_t>(size * size) * (int8 ? 1 : 4));
  if (int8) {
    FillBytes(t.data.data(), t.data.size(), 99);
  } else {
    FillFloats(t.as<float>(), static_cast<size_t>(size * size), 99);
  }
  return t;
}

Result<ComputePeak> MeasureOne(Backend& backend, const Target& target, const std::string& path, bool int8,
                               ProbeFormat format, const ComputePeakOptions& options) {
  auto session = format == ProbeFormat::kNative ? backend.LoadMatMulProbe(options.size, int8, target)
                                                : backend.Load(Artifact{path}, target);
  if (!session.ok()) return Status::Error("load: " + session.error());
  Session& s = *session.value();
  if (Status prepared = s.Prepare({{options.size, options.size}}); !prepared.ok()) {
    return Status::Error("prepare: " + prepared.message());
  }
  const std::vector<Tensor> inputs = {ProbeInput(options.size, int8, format)};
  std::vector<Tensor> outputs;
  if (Status ran = s.Run(inputs, outputs); !ran.ok()) return Status::Error("run: " + ran.message());
  const Placement placement = s.GetPlacement();
  std::string ran_on;
  for (const auto& [device, nodes] : placement.nodes_by_device) ran_on += (ran_on.empty() ? "" : "+") + device;
  // AUTO chooses a device itself: what it chose is named in the method.
  if (placement.known && target.device != "auto") {
    const auto on_device = placement.nodes_by_device.find(target.device);
    if (on_device == placement.nodes_by_device.end() || on_device->second == 0) {
      return Status::Error("the product ran on " + (ran_on.empty() ? std::string("an unnamed device") : ran_on) +
                           ", not on " + target.device);
    }
  }
  const double flops = 2.0 * static_cast<double>(options.size) * static_cast<double>(options.size) *
                       static_cast<double>(options.size);
  std::vector<double> rates;
  for (int pass = 0; pass < options.passes; ++pass) {
    const int64_t start = NowNs();
    int64_t runs = 0;
    int64_t elapsed = 0;
    do {
      if (Status ran = s.Run(inputs, outputs); !ran.ok()) return Status::Error("run: " + ran.message());
      ++runs;
      elapsed = NowNs() - start;
    } while (elapsed < static_cast<int64_t>(options.pass_seconds * 1e9));
    rates.push_back(flops * static_cast<double>(runs) / static_cast<double>(elapsed));  // flops/ns = GFLOP/s
  }
  std::sort(rates.begin(), rates.end());
  ComputePeak peak;
  peak.target = target.backend + ":" + target.device;
  peak.precision = int8 ? "int8" : "fp32";
  peak.gflops = rates.back();
  peak.worst_gflops = rates.front();
  peak.median_gflops = rates[rates.size() / 2];
  peak.size = options.size;
  peak.passes = options.passes;
  const auto effective = s.effective_options();
  const auto threads = effective.find("threads");
  peak.threads = threads == effective.end() ? 0 : std::atoi(threads->second.c_str());
  const std::vector<std::string> notes = s.notes();
  const std::string kernel =
      format == ProbeFormat::kNative ? (notes.empty() ? std::string("the runtime's own product") : notes.front())
      : format == ProbeFormat::kTflite ? (int8 ? "FULLY_CONNECTED int8 x int8" : "FULLY_CONNECTED float32")
                                       : (int8 ? "MatMulInteger uint8 x int8" : "MatMul float32");
  peak.method = kernel + " [" +
                std::to_string(options.size) + "x" + std::to_string(options.size) + "] x [" +
                std::to_string(options.size) + "x" + std::to_string(options.size) + "] through the runtime";
  if (target.device == "auto" && !ran_on.empty()) peak.method += " (AUTO chose " + ran_on + ")";
  // A runtime that computes a float product at a lower precision by default (OpenVINO: bf16 on
  // CPUs that have it) says so: a model run with the same defaults computes at it too.
  if (const auto precision = effective.find("precision"); precision != effective.end()) {
    peak.method += " (the runtime's inference precision: " + precision->second + ")";
  }
  return peak;
}

}  // namespace

ComputePeakResults MeasureComputePeaks(Registry& registry, const ComputePeakOptions& options,
                                       const std::function<void(const std::string&)>& progress) {
  ComputePeakResults results;
  // A device of a backend's description, as a target with no options: nothing to parse.
  struct ProbeTarget {
    std::string backend, device, name;
    ProbeFormat format;
    Target target() const {
      Target t;
      t.text = name;
      t.backend = backend;
      t.device = device;
      return t;
    }
  };
  std::vector<ProbeTarget> targets;
  const auto reads = [](const BackendInfo& info, const char* extension) {
    return std::find(info.artifact_extensions.begin(), info.artifact_extensions.end(), extension) !=
           info.artifact_extensions.end();
  };
  std::vector<std::string> named_but_unseen = options.only_targets;
  // Asked each in a process of its own, as `edgebench devices` does: a runtime whose probe
  // crashes costs its own targets' peaks only.
  const std::vector<BackendInfo> backends = ListBackendsIsolated(registry);
  for (const BackendInfo& info : backends) {
    for (const DeviceInfo& device : info.devices) {
      const std::string name = info.name + ":" + device.name;
      const bool named = std::find(options.only_targets.begin(), options.only_targets.end(), name) !=
                         options.only_targets.end();
      if (!options.only_targets.empty() && !named) continue;
      std::erase(named_but_unseen, name);
      if (!info.built || !info.loaded || !device.available || info.name == "null") {
        // No device is dropped silently: say why it was not measured (the null backend's
        // pseudo-devices only when named: they run no model).
        if (named || (info.name != "null" && info.built)) {
          const std::string why = !device.reason.empty() ? device.reason
                                  : info.name == "null"  ? "the null backend runs no model"
                                                         : registry.WhyUnusable(info.name);
          results.missing.push_back(name + ": not measured (unavailable: " + why + ")");
        }
        continue;
      }
      if (!device.capabilities.bare_tensor_models) {
        results.missing.push_back(name + ": not measured (" + info.runtime +
                                  " runs tasks on images, not a bare matrix product)");
      } else if (reads(info, ".onnx")) {
        targets.push_back({info.name, device.name, name, ProbeFormat::kOnnx});
      } else if (reads(info, ".tflite")) {
        targets.push_back({info.name, device.name, name, ProbeFormat::kTflite});
      } else if (device.capabilities.matrix_probe) {
        targets.push_back({info.name, device.name, name, ProbeFormat::kNative});  // llama.cpp's ggml
      } else {
        results.missing.push_back(name + ": not measured (the probe is an ONNX MatMul, a TFLite FULLY_CONNECTED " +
                                  "or the runtime's own product; " + info.runtime +
                                  " reads neither format and builds none)");
      }
    }
  }
  for (const std::string& name : named_but_unseen) {
    const std::string backend_name = name.substr(0, name.find(':'));
    const bool known_backend = std::any_of(backends.begin(), backends.end(),
                                           [&](const BackendInfo& info) { return info.name == backend_name; });
    results.missing.push_back(name + ": not measured (" +
                              (known_backend ? "unavailable: " + registry.WhyUnusable(backend_name)
                                             : std::string("no such target; `edgebench devices` lists them")) +
                              ")");
  }
  for (const bool int8 : {false, true}) {
    const std::string precision = int8 ? "int8" : "fp32";
    for (const ProbeTarget& target : targets) {
      Result<std::string> path = std::string();
      if (target.format != ProbeFormat::kNative) path = WriteProbeModel(options.model_dir, options.size, int8, target.format);
      if (!path.ok()) {
        results.missing.push_back(target.name + " " + precision + ": " + path.error());
        continue;
      }
      Backend* backend = registry.Find(target.backend);
      if (!backend) {
        results.missing.push_back(target.name + " " + precision + ": " + registry.WhyUnusable(target.backend));
        continue;
      }
      if (progress) progress(target.name + " " + precision);
      auto peak = MeasureOne(*backend, target.target(), path.value(), int8, target.format, options);
      if (peak.ok()) results.peaks.push_back(peak.take());
      else results.missing.push_back(target.name + " " + precision + ": " + peak.error());
    }
  }
  return results;
}

}  // namespace edgebench
