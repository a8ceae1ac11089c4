#include "backends/opencv/opencv_backend.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <opencv2/core/ocl.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/dnn.hpp>

#include "backends/opencv/opencv_opencl.h"
#include "backends/opencv/opencv_profile.h"
#include "core/model_ops.h"
#include "core/onnx_graph_reader.h"
#include "core/strings.h"

namespace edgebench {
namespace {

// OpenCV's names for its backends and targets, as options spell them.
struct OpenCvNamed {
  const char* name;
  int id;
};
constexpr OpenCvNamed kOpenCvBackends[] = {
    {"opencv", cv::dnn::DNN_BACKEND_OPENCV},
    {"inference_engine", cv::dnn::DNN_BACKEND_INFERENCE_ENGINE},
    {"vkcom", cv::dnn::DNN_BACKEND_VKCOM},
    {"cuda", cv::dnn::DNN_BACKEND_CUDA},
};
constexpr OpenCvNamed kOpenCvTargets[] = {
    {"cpu", cv::dnn::DNN_TARGET_CPU},
    {"cpu_fp16", cv::dnn::DNN_TARGET_CPU_FP16},
    {"opencl", cv::dnn::DNN_TARGET_OPENCL},
    {"opencl_fp16", cv::dnn::DNN_TARGET_OPENCL_FP16},
    {"vulkan", cv::dnn::DNN_TARGET_VULKAN},
    {"cuda", cv::dnn::DNN_TARGET_CUDA},
    {"cuda_fp16", cv::dnn::DNN_TARGET_CUDA_FP16},
    {"npu", cv::dnn::DNN_TARGET_NPU},
};

std::string OpenCvBackendName(int id) {
  for (const OpenCvNamed& b : kOpenCvBackends) {
    if (b.id == id) return b.name;
  }
  return "backend#" + std::to_string(id);
}

std::string OpenCvTargetName(int id) {
  for (const OpenCvNamed& t : kOpenCvTargets) {
    if (t.id == id) return t.name;
  }
  return "target#" + std::to_string(id);
}

// The edgebench device a layer set up for OpenCV target `id` runs on.
std::string OpenCvDeviceOfTarget(int id) {
  switch (id) {
    case cv::dnn::DNN_TARGET_CPU:
    case cv::dnn::DNN_TARGET_CPU_FP16: return "cpu";
    case cv::dnn::DNN_TARGET_OPENCL:
    case cv::dnn::DNN_TARGET_OPENCL_FP16: return "opencl";
    case cv::dnn::DNN_TARGET_VULKAN: return "vulkan";
    default: return OpenCvTargetName(id);
  }
}

// edgebench's devices: the backend and target each runs by default, and the targets it takes.
struct OpenCvDevice {
  const char* name;
  const char* description;
  int backend;
  int target;
  std::vector<std::string> targets;  // the `target=` values this device takes
};
const std::vector<OpenCvDevice>& OpenCvDevices() {
  static const std::vector<OpenCvDevice> devices = {
      {"cpu", "OpenCV DNN's own CPU layers (DNN_BACKEND_OPENCV, DNN_TARGET_CPU)",
       cv::dnn::DNN_BACKEND_OPENCV, cv::dnn::DNN_TARGET_CPU, {"cpu", "cpu_fp16"}},
      {"opencl", "OpenCV DNN's OpenCL kernels (DNN_BACKEND_OPENCV, DNN_TARGET_OPENCL)",
       cv::dnn::DNN_BACKEND_OPENCV, cv::dnn::DNN_TARGET_OPENCL, {"opencl", "opencl_fp16"}},
      {"vulkan", "OpenCV DNN's Vulkan backend (DNN_BACKEND_VKCOM, DNN_TARGET_VULKAN)",
       cv::dnn::DNN_BACKEND_VKCOM, cv::dnn::DNN_TARGET_VULKAN, {"vulkan"}},
  };
  return devices;
}

// OpenCV's messages run over several lines (a location line, then "> " continuations).
std::string OpenCvOneLine(const std::string& text) {
  std::string line;
  for (char c : text) line += (c == '\n' || c == '\r') ? ' ' : c;
  // OpenCV ends a nested error with "> " on a line of its own.
  while (!line.empty() && (line.back() == ' ' || line.back() == '>')) line.pop_back();
  return line;
}

bool OpenCvPairAvailable(int backend, int target) {
  const auto pairs = cv::dnn::getAvailableBackends();
  return std::any_of(pairs.begin(), pairs.end(), [&](const auto& pair) {
    return static_cast<int>(pair.first) == backend && static_cast<int>(pair.second) == target;
  });
}

std::string OpenCvAvailablePairsText() {
  std::string text;
  for (const auto& [backend, target] : cv::dnn::getAvailableBackends()) {
    text += (text.empty() ? "" : ", ") + OpenCvBackendName(backend) + "/" + OpenCvTargetName(target);
  }
  return text.empty() ? "none" : text;
}

// Why getAvailableTargets() does not list the device's target, in OpenCV's own terms.
std::string OpenCvMissingReason(const OpenCvDevice& device) {
  const std::string head = "cv::dnn::getAvailableTargets(DNN_BACKEND_" +
                           std::string(device.backend == cv::dnn::DNN_BACKEND_VKCOM ? "VKCOM" : "OPENCV") +
                           ") does not list DNN_TARGET_" +
                           (device.target == cv::dnn::DNN_TARGET_VULKAN ? "VULKAN" : "OPENCL");
  if (device.target == cv::dnn::DNN_TARGET_VULKAN) {
    const bool built = cv::getBuildInformation().find("Vulkan:") != std::string::npos;
    return head + (built ? " (OpenCV was built with Vulkan but found no Vulkan device)"
                         : " (this OpenCV was built without Vulkan: cv::getBuildInformation() has no "
                           "Vulkan entry)");
  }
  if (!cv::ocl::haveOpenCL()) {
    return head + " (cv::ocl::haveOpenCL() is false: no OpenCL platform or device was found; install "
                  "the GPU's OpenCL ICD)";
  }
  const std::string name = cv::ocl::Device::getDefault().name();
  if (name.empty()) {
    return head + " (OpenCV's default OpenCL device is a GPU and there is none; an OpenCL platform on the CPU "
                  "(PoCL) needs OPENCV_OPENCL_DEVICE=:CPU: and OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES=1; "
                  "docs/accelerators.md)";
  }
  return head + " (OpenCL device '" + name +
         "': OpenCV's DNN takes OpenCL on Intel GPUs only unless OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES=1)";
}

// Whether this OpenCV reads TFLite files, asked of OpenCV: a build without FlatBuffers refuses
// every buffer with its own message, one with them refuses an empty buffer as a bad model.
struct OpenCvTfliteSupport {
  bool reads = false;
  std::string reason;
};
const OpenCvTfliteSupport& OpenCvTflite() {
  static const OpenCvTfliteSupport support = [] {
    OpenCvTfliteSupport s;
    try {
      static const char kEmpty[1] = {0};
      cv::dnn::readNetFromTFLite(kEmpty, 0);
      s.reads = true;
    } catch (const cv::Exception& e) {
      const std::string message = e.what();
      s.reads = message.find("FlatBuffers") == std::string::npos;
      if (!s.reads) s.reason = "this OpenCV was built without FlatBuffers, so it reads no .tflite files";
    }
    return s;
  }();
  return support;
}

DType OpenCvDTypeOfOnnx(int64_t elem_type) {
  switch (elem_type) {
    case 1: return DType::kFloat32;
    case 2: return DType::kUInt8;
    case 3: return DType::kInt8;
    case 6: return DType::kInt32;
    case 7: return DType::kInt64;
    case 9: return DType::kBool;
    case 10: return DType::kFloat16;
    default: return DType::kUnknown;
  }
}

// The cv::Mat depth for a tensor's type; -1 where cv::Mat (4.x) has none (int64, bool).
int OpenCvDepthOf(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return CV_32F;
    case DType::kFloat16: return CV_16F;
    case DType::kInt8: return CV_8S;
    case DType::kUInt8: return CV_8U;
    case DType::kInt32: return CV_32S;
    default: return -1;
  }
}

DType OpenCvDTypeOfDepth(int depth) {
  switch (depth) {
    case CV_32F: return DType::kFloat32;
    case CV_16F: return DType::kFloat16;
    case CV_8S: return DType::kInt8;
    case CV_8U: return DType::kUInt8;
    case CV_32S: return DType::kInt32;
    default: return DType::kUnknown;
  }
}

struct OpenCvSettings {
  int backend = cv::dnn::DNN_BACKEND_OPENCV;
  int target = cv::dnn::DNN_TARGET_CPU;
  int threads = 0;  // 0: OpenCV's own count
  bool fusion = true;
  bool winograd = true;
  bool profile = false;
};

Result<OpenCvSettings> ReadOpenCvSettings(const Target& target, const OpenCvDevice& device) {
  TargetOptions options(target);
  std::vector<std::string> backend_names;
  for (const OpenCvNamed& b : kOpenCvBackends) backend_names.push_back(b.name);
  auto backend = options.Choice("backend", OpenCvBackendName(device.backend), backend_names);
  if (!backend.ok()) return backend.status();
  auto target_name = options.Choice("target", OpenCvTargetName(device.target), device.targets);
  if (!target_name.ok()) return target_name.status();
  auto threads = options.Int("threads", 0, 0, 1024);
  if (!threads.ok()) return threads.status();
  auto fusion = options.Bool("fusion", true);
  if (!fusion.ok()) return fusion.status();
  auto winograd = options.Bool("winograd", true);
  if (!winograd.ok()) return winograd.status();
  if (Status s = options.CheckAllUsed(); !s.ok()) return s;
  OpenCvSettings settings;
  for (const OpenCvNamed& b : kOpenCvBackends) {
    if (backend.value() == b.name) settings.backend = b.id;
  }
  for (const OpenCvNamed& t : kOpenCvTargets) {
    if (target_name.value() == t.name) settings.target = t.id;
  }
  if (!OpenCvPairAvailable(settings.backend, settings.target)) {
    return Status::Error("opencv: backend=" + backend.value() + " with target=" + target_name.value() +
                         " is not available in this OpenCV (cv::dnn::getAvailableBackends() lists " +
                         OpenCvAvailablePairsText() + "); choose one of those");
  }
  settings.threads = threads.value();
  settings.fusion = fusion.value();
  settings.winograd = winograd.value();
  settings.profile = target.profile_operators;
  return settings;
}

// A zero-filled tensor of `shape`, as a cv::Mat of `depth` (for the set-up forward).
cv::Mat OpenCvZeros(const std::vector<int64_t>& shape, int depth) {
  std::vector<int> sizes(shape.begin(), shape.end());
  if (sizes.empty()) sizes.push_back(1);
  return cv::Mat(static_cast<int>(sizes.size()), sizes.data(), CV_MAKETYPE(depth, 1), cv::Scalar(0));
}

class OpenCvSession : public Session {
 public:
  static Result<std::unique_ptr<Session>> Create(const Artifact& artifact, const Target& target,
                                                 const OpenCvDevice& device) {
    auto settings = ReadOpenCvSettings(target, device);
    if (!settings.ok()) return settings.status();
    auto session = std::unique_ptr<OpenCvSession>(new OpenCvSession());
    session->settings_ = settings.value();
    session->device_ = &device;
    session->path_ = artifact.path;
    if (Status s = session->ReadNet(); !s.ok()) return s;
    if (Status s = session->ReadSignature(); !s.ok()) return s;
    session->ApplySettings();
    // OpenCV sets the net up (allocation, fusion, the backend's nodes) on its first forward: done
    // now at the declared shapes, free axes as 1, so placement and effective options are what
    // runs and no measured run pays for it. A model that cannot run as declared fails here.
    std::vector<std::vector<int64_t>> declared;
    bool runnable = true;
    for (const TensorSpec& in : session->signature_.inputs) {
      std::vector<int64_t> shape;
      for (const Dim& d : in.shape) shape.push_back(d.fixed() ? d.size : 1);
      runnable = runnable && OpenCvDepthOf(in.dtype) >= 0;
      declared.push_back(shape);
    }
    if (runnable) {
      if (Status s = session->SetUp(declared); !s.ok()) return s;
    } else {
      session->notes_.push_back("an input's type has no cv::Mat depth, so the net was not set up at load");
    }
    session->ReadPlacement();
    return std::unique_ptr<Session>(std::move(session));
  }

  const Signature& signature() const override { return signature_; }

  Status Prepare(const std::vector<std::vector<int64_t>>& input_shapes) override {
    if (input_shapes.size() != signature_.inputs.size()) {
      return Status::Error("opencv: " + std::to_string(input_shapes.size()) + " input shapes given; " + path_ +
                           " has " + std::to_string(signature_.inputs.size()) + " inputs");
    }
    for (size_t i = 0; i < input_shapes.size(); ++i) {
      const TensorSpec& in = signature_.inputs[i];
      if (OpenCvDepthOf(in.dtype) < 0) {
        return Status::Error("opencv: input '" + in.name + "' of " + path_ + " is " + DTypeName(in.dtype) +
                             "; OpenCV " CV_VERSION "'s cv::Mat holds float32, float16, int32, int8 and uint8 "
                             "tensors only");
      }
      if (!ShapeMatches(in, input_shapes[i])) {
        return Status::Error("opencv: input '" + in.name + "' of " + path_ + " is declared " +
                             ShapeToString(in.shape) + "; " + ShapeToString(input_shapes[i]) +
                             " does not fit it (only its free axes may change)");
      }
    }
    if (input_shapes == set_up_shapes_) return Status::Ok();
    return SetUp(input_shapes);
  }

  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    if (set_up_shapes_.empty() && !signature_.inputs.empty()) return Status::Error("opencv: Run before Prepare");
    if (inputs.size() != signature_.inputs.size()) {
      return Status::Error("opencv: " + std::to_string(inputs.size()) + " inputs given; " + path_ + " takes " +
                           std::to_string(signature_.inputs.size()));
    }
    // cv::setNumThreads is process-wide: another session may have changed it since.
    if (settings_.threads > 0 && cv::getNumThreads() != settings_.threads) cv::setNumThreads(settings_.threads);
    try {
      for (size_t i = 0; i < inputs.size(); ++i) {
        const Tensor& in = inputs[i];
        if (in.dtype != signature_.inputs[i].dtype) {
          return Status::Error("opencv: input '" + signature_.inputs[i].name + "' is " + DTypeName(in.dtype) +
                               "; the model takes " + DTypeName(signature_.inputs[i].dtype));
        }
        input_sizes_.assign(in.shape.begin(), in.shape.end());
        if (input_sizes_.empty()) input_sizes_.push_back(1);
        // A header over the caller's bytes, no copy: OpenCV's input layer only reads it.
        const cv::Mat blob(static_cast<int>(input_sizes_.size()), input_sizes_.data(),
                           CV_MAKETYPE(OpenCvDepthOf(in.dtype), 1), const_cast<std::byte*>(in.data.data()));
        net_.setInput(blob, input_names_[i]);
      }
      net_.forward(forwarded_, output_names_);
    } catch (const cv::Exception& e) {
      return Status::Error("opencv (" + OpenCvBackendName(settings_.backend) + "/" +
                           OpenCvTargetName(settings_.target) + ") failed to run " + path_ + ": " +
                           OpenCvOneLine(e.what()));
    }
    if (Status s = CopyOutputs(outputs); !s.ok()) return s;
    if (profiling_) {
      std::vector<double> ticks;
      net_.getPerfProfile(ticks);
      profile_.AddRun(ticks);
    }
    return Status::Ok();
  }

  std::vector<std::vector<int64_t>> PreparedInputShapes() const override { return {}; }
  Placement GetPlacement() const override { return placement_; }
  std::vector<std::string> notes() const override { return notes_; }
  std::map<std::string, std::string> effective_options() const override { return effective_; }

  void BeginOperatorProfile() override {
    if (!settings_.profile || !ProfileSupported()) return;
    profile_ = OpenCvProfileAccumulator(layers_, cv::getTickFrequency());
    profiling_ = true;
  }

  Result<OperatorProfile> TakeOperatorProfile() override {
    if (!settings_.profile) return Status::Error("the session was loaded without --profile");
    if (!ProfileSupported()) {
      return Status::Error("OpenCV's Net::getPerfProfile times layers on DNN_BACKEND_OPENCV with DNN_TARGET_CPU "
                           "only; this session ran " + OpenCvBackendName(settings_.backend) + "/" +
                           OpenCvTargetName(settings_.target));
    }
    profiling_ = false;
    return profile_.Profile();
  }

 private:
  OpenCvSession() = default;

  bool ProfileSupported() const {
    return settings_.backend == cv::dnn::DNN_BACKEND_OPENCV && settings_.target == cv::dnn::DNN_TARGET_CPU;
  }

  static bool ShapeMatches(const TensorSpec& spec, const std::vector<int64_t>& shape) {
    if (spec.shape.empty()) return true;  // the file declares no shape
    if (spec.shape.size() != shape.size()) return false;
    for (size_t a = 0; a < shape.size(); ++a) {
      if (shape[a] < 1 || (spec.shape[a].fixed() && spec.shape[a].size != shape[a])) return false;
    }
    return true;
  }

  Status ReadNet() {
    const bool tflite = EndsWith(path_, ".tflite");
    try {
      net_ = cv::dnn::readNet(path_);
    } catch (const cv::Exception& e) {
      std::string why;
      if (tflite && !OpenCvTflite().reads) {
        why = " (" + OpenCvTflite().reason + "; run the model's .onnx export)";
      } else if (!tflite) {
        auto graph = ReadOnnxGraph(path_);
        why = graph.ok() ? " (the file is a complete ONNX model: OpenCV " CV_VERSION
                           "'s importer does not support one of its layers, or this use of it)"
                         : " (" + graph.error() + ")";
      }
      return Status::Error("opencv: cv::dnn::readNet cannot read " + path_ + why + ": " + OpenCvOneLine(e.what()));
    }
    if (net_.empty()) return Status::Error("opencv: cv::dnn::readNet read no layers from " + path_);
    return Status::Ok();
  }

  // Names, types and declared shapes from the file itself: OpenCV's Net does not tell them.
  Status ReadSignature() {
    if (EndsWith(path_, ".onnx")) {
      auto graph = ReadOnnxGraph(path_);
      if (!graph.ok()) return Status::Error("opencv: cannot read the inputs of " + path_ + ": " + graph.error());
      for (const OnnxValueInfo& value : graph.value().inputs) {
        TensorSpec spec{value.name, OpenCvDTypeOfOnnx(value.elem_type), {}};
        for (const OnnxDim& d : value.dims) {
          spec.shape.push_back(d.value ? Dim::Fixed(*d.value) : Dim::Symbol(d.param.empty() ? "?" : d.param));
        }
        signature_.inputs.push_back(spec);
      }
      output_names_ = graph.value().outputs;
      model_nodes_ = 0;
      for (const OnnxGraphNode& node : graph.value().nodes) model_nodes_ += node.op_type == "Constant" ? 0 : 1;
    } else {
      auto ops = ReadModelOps(path_);
      if (!ops.ok()) return Status::Error("opencv: cannot read the inputs of " + path_ + ": " + ops.error());
      for (const ModelInput& input : ops.value().inputs) {
        TensorSpec spec{input.name, DType::kFloat32, {}};
        for (const auto& axis : input.axes) spec.shape.push_back(axis ? Dim::Fixed(*axis) : Dim::Symbol("?"));
        signature_.inputs.push_back(spec);
      }
      notes_.push_back("OpenCV's TFLite importer takes float32 inputs: the inputs are fed as float32");
      output_names_ = net_.getUnconnectedOutLayersNames();
      model_nodes_ = static_cast<int>(ops.value().nodes.size());
    }
    for (const TensorSpec& in : signature_.inputs) input_names_.push_back(in.name);
    for (const std::string& name : output_names_) signature_.outputs.push_back({name, DType::kUnknown, {}});
    return Status::Ok();
  }

  void ApplySettings() {
    net_.setPreferableBackend(settings_.backend);
    net_.setPreferableTarget(settings_.target);
    net_.enableFusion(settings_.fusion);
    net_.enableWinograd(settings_.winograd);
    if (settings_.threads > 0) cv::setNumThreads(settings_.threads);
    effective_["backend"] = OpenCvBackendName(settings_.backend);
    effective_["target"] = OpenCvTargetName(settings_.target);
    effective_["fusion"] = settings_.fusion ? "on" : "off";
    effective_["winograd"] = settings_.winograd ? "on" : "off";
    if (settings_.target == cv::dnn::DNN_TARGET_OPENCL || settings_.target == cv::dnn::DNN_TARGET_OPENCL_FP16) {
      effective_["opencl_device"] = OpenClDeviceText();
      if (const std::string emulated = OpenClEmulation(); !emulated.empty()) {
        notes_.push_back("emulated: " + emulated + ": the latencies are this machine's CPU running the device's "
                         "kernels, not a device's");
      }
    }
    const int threads = cv::getNumThreads();
    effective_["threads"] = std::to_string(threads);
    notes_.push_back("threads=" + std::to_string(threads) + " (" +
                     (settings_.threads > 0 ? "asked" : "OpenCV's default") +
                     ") is cv::setNumThreads, process-wide in OpenCV (" +
                     ParallelFramework() + "): every OpenCV session in this process "
                     "shares it" + (settings_.threads > 0 ? "; this session sets it again before a Run where it changed" : ""));
    if (settings_.threads > 0 && threads != settings_.threads) {
      notes_.push_back("threads=" + std::to_string(settings_.threads) + " was asked; cv::getNumThreads() reads " +
                       std::to_string(threads) + ", which is what runs");
    }
  }

  static std::string ParallelFramework() {
    const std::string info = cv::getBuildInformation();
    const size_t at = info.find("Parallel framework:");
    if (at == std::string::npos) return "parallel framework unknown";
    const size_t from = at + std::strlen("Parallel framework:");
    const size_t end = info.find('\n', from);
    return TrimBlanks(info.substr(from, end == std::string::npos ? std::string::npos : end - from));
  }

  // One forward at `shapes` (zeros): OpenCV sets the net up for them, or says why it cannot.
  Status SetUp(const std::vector<std::vector<int64_t>>& shapes) {
    try {
      for (size_t i = 0; i < shapes.size(); ++i) {
        net_.setInput(OpenCvZeros(shapes[i], OpenCvDepthOf(signature_.inputs[i].dtype)), input_names_[i]);
      }
      net_.forward(forwarded_, output_names_);
    } catch (const cv::Exception& e) {
      std::string asked;
      for (size_t i = 0; i < shapes.size(); ++i) {
        asked += (asked.empty() ? "" : ", ") + input_names_[i] + " " + ShapeToString(shapes[i]);
      }
      set_up_shapes_.clear();
      return Status::Error("opencv (" + OpenCvBackendName(settings_.backend) + "/" +
                           OpenCvTargetName(settings_.target) + ") cannot set " + path_ + " up for " + asked +
                           ": " + OpenCvOneLine(e.what()) +
                           (settings_.fusion ? " (fusion=off sets the net up without OpenCV's layer fusion, "
                                               "which some models need)"
                                             : ""));
    }
    set_up_shapes_ = shapes;
    for (size_t i = 0; i < forwarded_.size() && i < signature_.outputs.size(); ++i) {
      signature_.outputs[i].dtype = OpenCvDTypeOfDepth(forwarded_[i].depth());
    }
    return Status::Ok();
  }

  Status CopyOutputs(std::vector<Tensor>& outputs) {
    outputs.resize(forwarded_.size());
    for (size_t i = 0; i < forwarded_.size(); ++i) {
      cv::Mat& result = forwarded_[i];
      if (!result.isContinuous()) result = result.clone();
      Tensor& out = outputs[i];
      out.name = i < output_names_.size() ? output_names_[i] : "output_" + std::to_string(i);
      out.dtype = OpenCvDTypeOfDepth(result.depth());
      if (out.dtype == DType::kUnknown || result.channels() != 1) {
        return Status::Error("opencv: output '" + out.name + "' of " + path_ + " came back as cv::Mat type " +
                             cv::typeToString(result.type()) + ", which edgebench does not read");
      }
      out.shape.resize(static_cast<size_t>(result.dims));
      for (int a = 0; a < result.dims; ++a) out.shape[static_cast<size_t>(a)] = result.size[a];
      const size_t bytes = result.total() * result.elemSize();
      out.data.resize(bytes);
      if (bytes) std::memcpy(out.data.data(), result.data, bytes);
    }
    return Status::Ok();
  }

  // Each layer of the net (the input layer aside), where it was set up to run, and which OpenCV
  // fused away (0 ticks in the set-up forward's getPerfProfile).
  void ReadPlacement() {
    placement_ = Placement{};
    layers_.clear();
    std::vector<double> ticks;
    const bool timed = !set_up_shapes_.empty() && ProfileSupported();
    if (timed) net_.getPerfProfile(ticks);
    const std::vector<std::string> names = net_.getLayerNames();
    std::map<std::string, int> fused, fallback;
    for (size_t i = 0; i < names.size(); ++i) {
      const cv::Ptr<cv::dnn::Layer> layer = net_.getLayer(net_.getLayerId(names[i]));
      std::string device = OpenCvDeviceOfTarget(layer->preferableTarget);
      const bool supported = layer->supportBackend(settings_.backend);
      if (!supported) device = "cpu";
      layers_.push_back({names[i], layer->type, device});
      if (timed && i < ticks.size() && ticks[i] <= 0) {
        ++fused[layer->type];
        continue;
      }
      if (!supported && settings_.backend != cv::dnn::DNN_BACKEND_OPENCV) ++fallback[layer->type];
      ++placement_.nodes_by_device[device];
      ++placement_.ops_by_device[device][layer->type];
    }
    for (const auto& [device, count] : placement_.nodes_by_device) placement_.devices_used.push_back(device);
    placement_.known = !layers_.empty();
    if (model_nodes_ > 0) placement_.model_nodes = model_nodes_;
    if (!fallback.empty()) {
      placement_.cpu_op_types = fallback;
      notes_.push_back("layers " + OpenCvBackendName(settings_.backend) +
                       " does not support run in OpenCV's CPU implementation: " + OpTypeCountsText(fallback));
    }
    std::string text = "OpenCV DNN made " + std::to_string(names.size()) + " layers of the file's " +
                       std::to_string(model_nodes_) + " nodes (it folds constants and shape arithmetic at import)";
    if (timed) {
      int count = 0;
      for (const auto& [type, n] : fused) count += n;
      text += "; " + std::to_string(count) + " of them took 0 ticks in the set-up run (fused into another layer "
              "or skipped)" + (fused.empty() ? "" : ": " + OpTypeCountsText(fused));
    } else {
      text += "; which layers OpenCV fused is told only on DNN_BACKEND_OPENCV/DNN_TARGET_CPU after a run";
    }
    notes_.push_back(text);
  }

  OpenCvSettings settings_;
  const OpenCvDevice* device_ = nullptr;
  std::string path_;
  cv::dnn::Net net_;
  Signature signature_;
  std::vector<std::string> input_names_;
  std::vector<std::string> output_names_;
  std::vector<std::vector<int64_t>> set_up_shapes_;
  std::vector<int> input_sizes_;  // reused by Run
  std::vector<cv::Mat> forwarded_;
  int model_nodes_ = 0;
  std::vector<OpenCvLayerInfo> layers_;
  Placement placement_;
  std::vector<std::string> notes_;
  std::map<std::string, std::string> effective_;
  bool profiling_ = false;
  OpenCvProfileAccumulator profile_;
};

class OpenCvBackend : public Backend {
 public:
  BackendInfo Info() const override {
    BackendInfo info = InfoFromDescription(DescribeOpenCvBackend());
    info.version = cv::getVersionString();
    for (const OpenCvDevice& d : OpenCvDevices()) {
      DeviceInfo device;
      device.name = d.name;
      device.description = d.description;
      if (!OpenCvTflite().reads) device.description += "; reads .onnx only (" + OpenCvTflite().reason + ")";
      device.capabilities = {.thread_safe_run = false, .dynamic_shapes = true, .placement = true};
      const auto targets = cv::dnn::getAvailableTargets(static_cast<cv::dnn::Backend>(d.backend));
      device.available = std::find(targets.begin(), targets.end(), d.target) != targets.end();
      if (!device.available) device.reason = OpenCvMissingReason(d);
      if (device.available && d.target == cv::dnn::DNN_TARGET_OPENCL) {
        device.description += " on " + OpenClDeviceText();
        if (const std::string emulated = OpenClEmulation(); !emulated.empty()) {
          device.description += " (emulated: " + emulated + ")";
        }
      }
      info.devices.push_back(device);
    }
    return info;
  }

  Result<std::unique_ptr<Session>> Load(const Artifact& artifact, const Target& target) override {
    for (const OpenCvDevice& d : OpenCvDevices()) {
      if (target.device == d.name) return OpenCvSession::Create(artifact, target, d);
    }
    return Status::Error("backend 'opencv' has devices cpu, opencl and vulkan, not '" + target.device + "'");
  }
};

}  // namespace

BackendDescription DescribeOpenCvBackend() {
  BackendDescription description{"opencv", "OpenCV DNN", {".onnx"}, "", ""};
  // Its TFLite importer is there only in the OpenCV releases that have one.
  if (OpenCvTflite().reads) description.artifact_extensions.push_back(".tflite");
  return description;
}

std::unique_ptr<Backend> MakeOpenCvBackend() { return std::make_unique<OpenCvBackend>(); }

}  // namespace edgebench
