#include "backends/openvino/openvino_backend.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <openvino/op/util/op_types.hpp>
#include <openvino/openvino.hpp>

#include "backends/openvino/openvino_profile.h"
#include "core/log.h"
#include "core/strings.h"

namespace edgebench {
namespace {

// edgebench's device name -> OpenVINO's.
struct OpenVinoDevice {
  const char* name;
  const char* ov_name;
  const char* description;
  const char* missing;  // why get_available_devices() may not list it
};
constexpr OpenVinoDevice kDevices[] = {
    {"cpu", "CPU", "OpenVINO's CPU plugin (oneDNN and its own JIT kernels)",
     "no CPU the plugin supports"},
    {"gpu", "GPU", "OpenVINO's GPU plugin (OpenCL, Intel GPUs)", "no OpenCL device"},
    {"npu", "NPU", "OpenVINO's NPU plugin (Intel NPUs)", "no NPU driver or device"},
    {"auto", "AUTO", "OpenVINO's AUTO device (picks among the devices found)", ""},
};

// OpenVINO's messages run over several lines (with the source location first); the record
// wants one line.
std::string OneLine(const std::string& text) {
  std::string line;
  for (char c : text) line += (c == '\n' || c == '\r') ? ' ' : c;
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

DType FromElementType(const ov::element::Type& type) {
  if (type == ov::element::f32) return DType::kFloat32;
  if (type == ov::element::f16) return DType::kFloat16;
  if (type == ov::element::i8) return DType::kInt8;
  if (type == ov::element::u8) return DType::kUInt8;
  if (type == ov::element::i32) return DType::kInt32;
  if (type == ov::element::i64) return DType::kInt64;
  if (type == ov::element::boolean) return DType::kBool;
  return DType::kUnknown;
}

std::string PortName(const ov::Output<const ov::Node>& port, const char* kind, size_t index) {
  const auto& names = port.get_names();
  if (names.empty()) return std::string(kind) + "_" + std::to_string(index);
  // get_any_name() picks the same name each time; the set's first would not be the ONNX name.
  return port.get_any_name();
}

TensorSpec SpecFromPort(const ov::Output<const ov::Node>& port, const char* kind, size_t index) {
  TensorSpec spec;
  spec.name = PortName(port, kind, index);
  spec.dtype = FromElementType(port.get_element_type());
  const ov::PartialShape& shape = port.get_partial_shape();
  if (shape.rank().is_dynamic()) return spec;  // rank unknown: no dims to bind
  for (const ov::Dimension& dim : shape) {
    // OpenVINO keeps no name for a dynamic dimension (ONNX's dim_param is dropped): "?" is
    // bound by `--dim NAME.AXIS=` or `--dim '*='`.
    spec.shape.push_back(dim.is_static() ? Dim::Fixed(dim.get_length()) : Dim::Symbol("?"));
  }
  return spec;
}

struct Settings {
  std::string hint;  // latency | throughput
  int streams = 0;
  int threads = 0;
  std::string precision;  // "" = the device's default
  bool profile = false;
};

Result<Settings> ReadSettings(const Target& target) {
  TargetOptions options(target);
  Settings settings;
  auto hint = options.Choice("hint", "latency", {"latency", "throughput"});
  if (!hint.ok()) return hint.status();
  auto streams = options.Int("streams", 0, 0, 1024);
  if (!streams.ok()) return streams.status();
  auto threads = options.Int("threads", 0, 0, 1024);
  if (!threads.ok()) return threads.status();
  auto precision = options.Choice("precision", "", {"f32", "bf16", "f16"});
  if (!precision.ok()) return precision.status();
  if (Status s = options.CheckAllUsed(); !s.ok()) return s;
  settings.hint = hint.value();
  settings.streams = streams.value();
  settings.threads = threads.value();
  settings.precision = precision.value();
  settings.profile = target.profile_operators;
  return settings;
}

ov::AnyMap CompileConfig(const Settings& settings) {
  ov::AnyMap config;
  config.emplace(ov::hint::performance_mode(settings.hint == "throughput"
                                                ? ov::hint::PerformanceMode::THROUGHPUT
                                                : ov::hint::PerformanceMode::LATENCY));
  if (settings.streams > 0) config.emplace(ov::num_streams(ov::streams::Num(settings.streams)));
  if (settings.threads > 0) config.emplace(ov::inference_num_threads(settings.threads));
  if (!settings.precision.empty()) {
    config.emplace(ov::hint::inference_precision(ov::element::Type(settings.precision)));
  }
  if (settings.profile) config.emplace(ov::enable_profiling(true));
  return config;
}

class OpenVinoSession : public Session {
 public:
  static Result<std::unique_ptr<Session>> Create(const Artifact& artifact, const Target& target,
                                                 const OpenVinoDevice& device) {
    auto settings = ReadSettings(target);
    if (!settings.ok()) return settings.status();
    auto session = std::unique_ptr<OpenVinoSession>(new OpenVinoSession());
    session->settings_ = settings.value();
    session->device_ = &device;
    session->path_ = artifact.path;
    try {
      session->model_ = session->core_.read_model(artifact.path);
    } catch (const std::exception& e) {
      return Status::Error("openvino: cannot read " + artifact.path +
                           " (OpenVINO reads .onnx, .tflite and IR .xml; is the file complete?): " +
                           OneLine(e.what()));
    }
    for (size_t i = 0; i < session->model_->inputs().size(); ++i) {
      session->signature_.inputs.push_back(SpecFromPort(session->model_->input(i), "input", i));
    }
    for (size_t i = 0; i < session->model_->outputs().size(); ++i) {
      session->signature_.outputs.push_back(SpecFromPort(session->model_->output(i), "output", i));
    }
    // Compiled now, so the record's effective options and placement (read after the load) are
    // OpenVINO's. A model with dynamic dimensions is compiled as declared, and Prepare compiles
    // it again with the bound shapes; a device that cannot compile it dynamic waits for those.
    Status compiled = session->Compile();
    if (!session->model_->is_dynamic()) {
      if (!compiled.ok()) return compiled;
    } else if (compiled.ok()) {
      session->notes_.push_back(
          "the placement is of the model compiled with its dynamic dimensions at load; Prepare "
          "compiles it again with the bound shapes");
    } else {
      session->notes_.push_back(compiled.message() + "; compiled at Prepare with the bound shapes");
    }
    return std::unique_ptr<Session>(std::move(session));
  }

  const Signature& signature() const override { return signature_; }

  Status Prepare(const std::vector<std::vector<int64_t>>& input_shapes) override {
    if (input_shapes.size() != signature_.inputs.size()) {
      return Status::Error("openvino: " + std::to_string(input_shapes.size()) +
                           " input shapes given; " + path_ + " has " +
                           std::to_string(signature_.inputs.size()) + " inputs");
    }
    for (const TensorSpec& in : signature_.inputs) {
      if (in.dtype == DType::kUnknown) {
        return Status::Error("openvino: input '" + in.name + "' of " + path_ +
                             " has an element type edgebench cannot feed");
      }
    }
    if (compiled_ && input_shapes == prepared_shapes_) return Status::Ok();
    std::map<size_t, ov::PartialShape> shapes;
    bool same = !model_->is_dynamic();
    for (size_t i = 0; i < input_shapes.size(); ++i) {
      shapes[i] = ov::PartialShape(std::vector<ov::Dimension>(input_shapes[i].begin(), input_shapes[i].end()));
      if (same && model_->input(i).get_partial_shape() != shapes[i]) same = false;
    }
    if (!same) {
      try {
        model_->reshape(shapes);
      } catch (const std::exception& e) {
        return Status::Error("openvino: " + path_ + " cannot be reshaped to the given input shapes: " +
                             OneLine(e.what()));
      }
    }
    if (!same || !compiled_) {
      if (Status s = Compile(); !s.ok()) return s;
    }
    return Status::Ok();
  }

  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    if (!compiled_) return Status::Error("openvino: Run before Prepare");
    if (inputs.size() != signature_.inputs.size()) {
      return Status::Error("openvino: " + std::to_string(inputs.size()) + " inputs given; " +
                           path_ + " takes " + std::to_string(signature_.inputs.size()));
    }
    RequestLease lease(*this);
    ov::InferRequest& request = lease.request();
    try {
      for (size_t i = 0; i < inputs.size(); ++i) {
        const Tensor& in = inputs[i];
        const ov::element::Type& type = input_types_[i];
        if (FromElementType(type) != in.dtype) {
          return Status::Error("openvino: input '" + signature_.inputs[i].name + "' is " +
                               DTypeName(in.dtype) + "; the model takes " + type.get_type_name());
        }
        // A tensor over the caller's bytes, no copy: OpenVINO reads inputs only.
        request.set_input_tensor(i, ov::Tensor(type, ov::Shape(in.shape.begin(), in.shape.end()),
                                               const_cast<std::byte*>(in.data.data())));
      }
      request.infer();
      const size_t count = signature_.outputs.size();  // the model's outputs, read once at load
      outputs.resize(count);
      for (size_t i = 0; i < count; ++i) {
        const ov::Tensor result = request.get_output_tensor(i);
        Tensor& out = outputs[i];
        out.name = signature_.outputs[i].name;
        out.dtype = FromElementType(result.get_element_type());
        const ov::Shape& shape = result.get_shape();
        out.shape.assign(shape.begin(), shape.end());
        const size_t bytes = result.get_byte_size();
        out.data.resize(bytes);
        if (bytes) std::memcpy(out.data.data(), result.data(), bytes);
      }
      if (profiling_active_.load(std::memory_order_relaxed)) AddProfiledRun(request);
    } catch (const std::exception& e) {
      return Status::Error("openvino (" + std::string(device_->ov_name) + ") failed to run " +
                           path_ + ": " + OneLine(e.what()));
    }
    return Status::Ok();
  }

  std::vector<std::vector<int64_t>> PreparedInputShapes() const override { return prepared_shapes_; }
  Placement GetPlacement() const override { return placement_; }
  std::vector<std::string> notes() const override {
    std::vector<std::string> all = notes_;
    all.insert(all.end(), compile_notes_.begin(), compile_notes_.end());
    return all;
  }
  std::map<std::string, std::string> effective_options() const override { return effective_; }

  void BeginOperatorProfile() override {
    if (!settings_.profile) return;
    std::lock_guard<std::mutex> lock(profile_mutex_);
    profile_ = OpenVinoProfileAccumulator(ToLowerAscii(execution_device_));
    profiling_active_.store(true);
  }

  Result<OperatorProfile> TakeOperatorProfile() override {
    if (!settings_.profile) return Status::Error("the session was loaded without --profile");
    profiling_active_.store(false);
    std::lock_guard<std::mutex> lock(profile_mutex_);
    return profile_.Profile();
  }

 private:
  OpenVinoSession() = default;

  // One infer request per concurrent caller, from the pool; returned when the run ends.
  class RequestLease {
   public:
    explicit RequestLease(OpenVinoSession& session) : session_(session) {
      std::lock_guard<std::mutex> lock(session_.pool_mutex_);
      if (session_.idle_requests_.empty()) {
        request_ = session_.compiled_.create_infer_request();
      } else {
        request_ = std::move(session_.idle_requests_.back());
        session_.idle_requests_.pop_back();
      }
    }
    ~RequestLease() {
      std::lock_guard<std::mutex> lock(session_.pool_mutex_);
      session_.idle_requests_.push_back(std::move(request_));
    }
    RequestLease(const RequestLease&) = delete;
    RequestLease& operator=(const RequestLease&) = delete;
    ov::InferRequest& request() { return request_; }

   private:
    OpenVinoSession& session_;
    ov::InferRequest request_;
  };

  Status Compile() {
    try {
      compiled_ = core_.compile_model(model_, device_->ov_name, CompileConfig(settings_));
    } catch (const std::exception& e) {
      return Status::Error("openvino: compiling " + path_ + " for " + device_->ov_name +
                           " failed: " + OneLine(e.what()));
    }
    {
      std::lock_guard<std::mutex> lock(pool_mutex_);
      idle_requests_.clear();
      // The first request now, so the first measured run does not pay for its creation.
      try {
        idle_requests_.push_back(compiled_.create_infer_request());
      } catch (const std::exception& e) {
        return Status::Error("openvino: cannot create an infer request for " + path_ + ": " +
                             OneLine(e.what()));
      }
    }
    input_types_.clear();
    prepared_shapes_.clear();
    for (const auto& port : compiled_.inputs()) {
      input_types_.push_back(port.get_element_type());
      const ov::PartialShape& shape = port.get_partial_shape();
      if (shape.is_static()) {
        const ov::Shape s = shape.get_shape();
        prepared_shapes_.emplace_back(s.begin(), s.end());
      }
    }
    if (prepared_shapes_.size() != input_types_.size()) prepared_shapes_.clear();
    compile_notes_.clear();
    ReadEffectiveOptions();
    ReadPlacement();
    return Status::Ok();
  }

  // The compiled model's own values, so the record shows what ran, defaults included. A device
  // that does not report one (AUTO, for some) shows what was asked, marked as such.
  void ReadEffectiveOptions() {
    effective_.clear();
    auto read = [&](const char* key, auto property, auto format, const std::string& asked) {
      try {
        effective_[key] = format(compiled_.get_property(property));
      } catch (const std::exception&) {
        effective_[key] = asked + " (asked; " + device_->ov_name + " does not report it)";
      }
    };
    read("hint", ov::hint::performance_mode,
         [](ov::hint::PerformanceMode mode) {
           return mode == ov::hint::PerformanceMode::THROUGHPUT ? std::string("throughput")
                                                                : std::string("latency");
         },
         settings_.hint);
    read("streams", ov::num_streams, [](ov::streams::Num n) { return std::to_string(n.num); },
         std::to_string(settings_.streams));
    read("threads", ov::inference_num_threads, [](int32_t n) { return std::to_string(n); },
         std::to_string(settings_.threads));
    read("precision", ov::hint::inference_precision,
         [](const ov::element::Type& type) { return type.get_type_name(); },
         settings_.precision.empty() ? std::string("default") : settings_.precision);
    if (!settings_.precision.empty() && effective_["precision"] != settings_.precision &&
        effective_["precision"].find("asked") == std::string::npos) {
      compile_notes_.push_back("precision=" + settings_.precision + " was asked; " + device_->ov_name +
                       " compiled the model with " + effective_["precision"]);
    }
    // OpenVINO adjusts some asked values (it caps streams at what the cores allow): the record
    // holds the compiled value, and this note says it is not the one asked.
    for (const auto& [key, asked] : {std::pair<const char*, int64_t>{"streams", settings_.streams},
                                     std::pair<const char*, int64_t>{"threads", settings_.threads}}) {
      if (asked > 0 && effective_[key] != std::to_string(asked) &&
          effective_[key].find("asked") == std::string::npos) {
        compile_notes_.push_back(std::string(key) + "=" + std::to_string(asked) + " was asked; " +
                                 device_->ov_name + " compiled the model with " + key + "=" + effective_[key] +
                                 ", which is what ran");
      }
    }
    // OpenVINO's CPU plugin lowers an f32 model to bf16 or f16 by default where the CPU has the
    // instructions: what a user gets, but not f32's outputs, so the record says it.
    if (settings_.precision.empty() && (effective_["precision"] == "bf16" || effective_["precision"] == "f16")) {
      compile_notes_.push_back(std::string(device_->ov_name) + " runs this model in " + effective_["precision"] +
                               ", OpenVINO's default inference precision on this processor, not the "
                               "model's own; add precision=f32 to compare like for like");
    }
    try {
      const auto devices = compiled_.get_property(ov::execution_devices);
      execution_device_ = devices.empty() ? device_->ov_name : devices.front();
    } catch (const std::exception&) {
      execution_device_ = device_->ov_name;
    }
  }

  // The executed graph's nodes (after OpenVINO's fusions) by layer type, kernel and precision;
  // the model's own nodes the device supports from query_model.
  void ReadPlacement() {
    placement_ = Placement{};
    const std::string device = ToLowerAscii(execution_device_);
    std::map<std::string, int> kernels, precisions;
    int executed = 0;
    try {
      const std::shared_ptr<const ov::Model> runtime = compiled_.get_runtime_model();
      for (const auto& node : runtime->get_ordered_ops()) {
        const ov::RTMap& info = node->get_rt_info();
        auto text = [&](const char* key) {
          const auto it = info.find(key);
          return it == info.end() ? std::string() : it->second.as<std::string>();
        };
        const std::string layer = text("layerType");
        // Inputs, outputs and constants are the graph's edges, not work the device does.
        if (layer.empty() || layer == "Input" || layer == "Output" || layer == "Const" ||
            layer == "Constant") {
          continue;
        }
        ++executed;
        ++placement_.ops_by_device[device][layer];
        std::string kernel = text("primitiveType");
        if (kernel.empty()) kernel = text("execType");
        if (!kernel.empty()) ++kernels[kernel];
        const std::string precision = text("runtimePrecision");
        if (!precision.empty()) ++precisions[precision];
      }
    } catch (const std::exception& e) {
      compile_notes_.push_back("OpenVINO's executed graph could not be read: " + OneLine(e.what()));
      return;
    }
    placement_.known = executed > 0;
    placement_.nodes_by_device[device] = executed;
    placement_.devices_used.push_back(device);
    if (!kernels.empty()) compile_notes_.push_back("OpenVINO kernels (executed nodes): " + OpTypeCountsText(kernels));
    if (!precisions.empty()) {
      compile_notes_.push_back("OpenVINO runtime precision (executed nodes): " + OpTypeCountsText(precisions));
    }
    // The model's own nodes, less parameters, results and constants, as ORT's placement counts.
    std::set<std::string> own;
    for (const auto& node : model_->get_ops()) {
      if (ov::op::util::is_parameter(node) || ov::op::util::is_output(node) ||
          ov::op::util::is_constant(node)) {
        continue;
      }
      own.insert(node->get_friendly_name());
    }
    placement_.model_nodes = static_cast<int>(own.size());
    try {
      const ov::SupportedOpsMap supported = core_.query_model(model_, execution_device_);
      int on_device = 0;
      for (const auto& [name, where] : supported) on_device += own.count(name) ? 1 : 0;
      placement_.original_nodes_by_device[device] = on_device;
      if (on_device < static_cast<int>(own.size())) {
        compile_notes_.push_back(std::to_string(static_cast<int>(own.size()) - on_device) + " of the model's " +
                         std::to_string(own.size()) + " nodes are not in " + execution_device_ +
                         "'s query_model answer (fused into others or unsupported)");
      }
    } catch (const std::exception& e) {
      compile_notes_.push_back(execution_device_ + " did not answer query_model: " + OneLine(e.what()));
    }
  }

  void AddProfiledRun(ov::InferRequest& request) {
    std::vector<OpenVinoNodeTime> nodes;
    for (const ov::ProfilingInfo& info : request.get_profiling_info()) {
      nodes.push_back({info.node_name, info.node_type, info.exec_type,
                       info.status == ov::ProfilingInfo::Status::EXECUTED,
                       static_cast<int64_t>(info.real_time.count())});
    }
    std::lock_guard<std::mutex> lock(profile_mutex_);
    if (profiling_active_.load()) profile_.AddRun(nodes);
  }

  ov::Core core_;
  Settings settings_;
  const OpenVinoDevice* device_ = nullptr;
  std::string execution_device_;  // the device that runs the model (AUTO's choice for auto)
  std::string path_;
  std::shared_ptr<ov::Model> model_;
  ov::CompiledModel compiled_;
  Signature signature_;
  std::vector<ov::element::Type> input_types_;
  std::vector<std::vector<int64_t>> prepared_shapes_;
  std::map<std::string, std::string> effective_;
  Placement placement_;
  std::vector<std::string> notes_;          // from the load
  std::vector<std::string> compile_notes_;  // from the last compile
  std::mutex pool_mutex_;
  std::vector<ov::InferRequest> idle_requests_;
  std::atomic<bool> profiling_active_{false};
  std::mutex profile_mutex_;
  OpenVinoProfileAccumulator profile_{"cpu"};
};

class OpenVinoBackend : public Backend {
 public:
  BackendInfo Info() const override {
    BackendInfo info = InfoFromDescription(DescribeOpenVinoBackend());
    const ov::Version version = ov::get_openvino_version();
    // "2026.4.1-22982-e213a147257-releases/2026/4": the release and build number are enough.
    const std::string build = version.buildNumber;
    const size_t second_dash = build.find('-', build.find('-') + 1);
    info.version = build.substr(0, second_dash);
    std::vector<std::string> available;
    try {
      available = core_.get_available_devices();
    } catch (const std::exception& e) {
      info.reason = "OpenVINO could not list its devices: " + OneLine(e.what());
    }
    for (const OpenVinoDevice& d : kDevices) {
      DeviceInfo device;
      device.name = d.name;
      device.description = d.description;
      device.capabilities = {.thread_safe_run = true, .dynamic_shapes = true, .placement = true};
      if (std::string(d.ov_name) == "AUTO") {
        device.available = !available.empty();
        if (!device.available) device.reason = "OpenVINO found no device for AUTO to choose from";
      } else {
        device.available = std::find(available.begin(), available.end(), d.ov_name) != available.end();
        if (!device.available) device.reason = MissingReason(d);
      }
      info.devices.push_back(device);
    }
    return info;
  }

  Result<std::unique_ptr<Session>> Load(const Artifact& artifact, const Target& target) override {
    for (const OpenVinoDevice& d : kDevices) {
      if (target.device == d.name) return OpenVinoSession::Create(artifact, target, d);
    }
    return Status::Error("backend 'openvino' has devices cpu, gpu, npu and auto, not '" +
                         target.device + "'");
  }

 private:
  // Whether the device's plugin loaded (it then answers AVAILABLE_DEVICES, with none) or not.
  std::string MissingReason(const OpenVinoDevice& d) const {
    const std::string head = std::string("OpenVINO found no ") + d.ov_name + " device";
    try {
      core_.get_property(d.ov_name, ov::available_devices);
      return head + " (its " + d.ov_name + " plugin loaded; " + d.missing + ")";
    } catch (const std::exception& e) {
      return head + " (its " + d.ov_name + " plugin did not load: " + OneLine(e.what()) + ")";
    }
  }

  mutable ov::Core core_;
};

}  // namespace

BackendDescription DescribeOpenVinoBackend() {
  return {"openvino", "OpenVINO", {".onnx", ".tflite", ".xml"}, "", ""};
}

std::unique_ptr<Backend> MakeOpenVinoBackend() { return std::make_unique<OpenVinoBackend>(); }

}  // namespace edgebench
