#include "backends/armnn/armnn_backend.h"

#include <link.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include <armnn/ArmNN.hpp>
#include <armnn/BackendRegistry.hpp>
#include <armnn/Utils.hpp>
#include <armnnTfLiteParser/ITfLiteParser.hpp>

#include "backends/armnn/armnn_graph.h"
#include "backends/armnn/armnn_tflite_options.h"
#include "backends/opencl_platforms.h"
#include "core/model_ops.h"

namespace edgebench {
namespace {

// edgebench's device name -> Arm NN's backend id.
struct ArmNnDevice {
  const char* name;
  const char* backend;
  const char* description;
  const char* where;  // which build of Arm NN has the backend
};
constexpr ArmNnDevice kArmNnDevices[] = {
    {"cpuref", "CpuRef", "Arm NN's reference backend (portable C++, one thread)",
     "every Arm NN build has it (Debian: libarmnn-cpuref-backend33)"},
    {"cpuacc", "CpuAcc", "Arm NN's CpuAcc backend (Arm Compute Library, Neon)",
     "it runs on Arm CPUs only (Debian builds libarmnn-cpuacc-backend33 for arm64)"},
    {"gpuacc", "GpuAcc", "Arm NN's GpuAcc backend (Arm Compute Library, OpenCL on Mali GPUs)",
     "it needs an OpenCL GPU (Debian builds libarmnn-gpuacc-backend33 for arm64)"},
};

const ArmNnDevice* FindArmNnDevice(const std::string& name) {
  for (const ArmNnDevice& device : kArmNnDevices) {
    if (name == device.name) return &device;
  }
  return nullptr;
}

std::string OneLineText(const std::string& text) {
  std::string line;
  for (char c : text) line += (c == '\n' || c == '\r') ? ' ' : c;
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

// The dynamic backends Arm NN loaded into this process (Arm_CpuRef_backend.so...): the files, as
// the dynamic loader lists them, since Arm NN's path for them is compiled in and not public.
std::vector<std::string> LoadedDynamicBackendFiles() {
  std::vector<std::string> files;
  dl_iterate_phdr(
      [](struct dl_phdr_info* info, size_t, void* data) {
        const std::string path = info->dlpi_name ? info->dlpi_name : "";
        if (path.size() > 11 && path.compare(path.size() - 11, 11, "_backend.so") == 0) {
          static_cast<std::vector<std::string>*>(data)->push_back(path);
        }
        return 0;
      },
      &files);
  return files;
}

// One Arm NN runtime per process: creating it loads the dynamic backends, destroying it unloads
// them and deregisters them from Arm NN's backend registry, a static of libarmnn whose own
// destruction order at exit is not edgebench's to choose; so the runtime lives until the process
// ends and is never destroyed.
struct ArmNnRuntime {
  armnn::IRuntimePtr runtime{nullptr, nullptr};
  std::string error;  // why there is none
  std::vector<std::string> dynamic_backend_files;
  std::vector<std::string> backends;  // the device spec's, sorted

  bool Has(const std::string& backend) const {
    return std::find(backends.begin(), backends.end(), backend) != backends.end();
  }
};

std::shared_ptr<ArmNnRuntime> SharedArmNnRuntime() {
  static std::mutex mutex;
  static auto* shared = new std::shared_ptr<ArmNnRuntime>();  // never destroyed: see above
  std::lock_guard<std::mutex> lock(mutex);
  if (*shared) return *shared;
  auto created = std::make_shared<ArmNnRuntime>();
  // Arm NN's log would go to stdout, where edgebench writes its records and tables; its errors
  // reach edgebench as exceptions and Optimize's warnings as messages, which the record keeps.
  armnn::ConfigureLogging(false, false, armnn::LogSeverity::Fatal);
  try {
    created->runtime = armnn::IRuntime::Create(armnn::IRuntime::CreationOptions());
    for (const armnn::BackendId& id : created->runtime->GetDeviceSpec().GetSupportedBackends()) {
      created->backends.push_back(id.Get());
    }
    std::sort(created->backends.begin(), created->backends.end());
  } catch (const std::exception& e) {
    created->error = "Arm NN could not create its runtime: " + OneLineText(e.what());
  }
  created->dynamic_backend_files = LoadedDynamicBackendFiles();
  *shared = created;
  return created;
}

std::string JoinText(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

// Why Arm NN cannot run `device` here, in Arm NN's terms.
std::string ArmNnMissingReason(const ArmNnRuntime& runtime, const ArmNnDevice& device) {
  if (!runtime.error.empty()) return runtime.error;
  const bool registered = armnn::BackendRegistryInstance().IsBackendRegistered(device.backend);
  std::string reason = "Arm NN " + armnn::GetVersion() + " has no " + device.backend + " backend here: ";
  reason += registered ? "it is registered, but the runtime could not create it (no device for it)"
                       : "its backends are [" + JoinText(runtime.backends, ", ") + "]";
  reason += "; " + std::string(device.where);
  return reason;
}

DType DTypeOfArmNn(armnn::DataType type) {
  switch (type) {
    case armnn::DataType::Float32: return DType::kFloat32;
    case armnn::DataType::Float16: return DType::kFloat16;
    case armnn::DataType::QAsymmU8: return DType::kUInt8;
    case armnn::DataType::QAsymmS8:
    case armnn::DataType::QSymmS8: return DType::kInt8;
    case armnn::DataType::Signed32: return DType::kInt32;
    case armnn::DataType::Signed64: return DType::kInt64;
    case armnn::DataType::Boolean: return DType::kBool;
    default: return DType::kUnknown;
  }
}

TensorSpec SpecOfArmNn(const std::string& name, const armnn::TensorInfo& info) {
  TensorSpec spec;
  spec.name = name;
  spec.dtype = DTypeOfArmNn(info.GetDataType());
  for (unsigned int d = 0; d < info.GetNumDimensions(); ++d) spec.shape.push_back(Dim::Fixed(info.GetShape()[d]));
  if (spec.dtype == DType::kInt8 || spec.dtype == DType::kUInt8) {
    spec.quantization.scales = info.GetQuantizationScales();
    if (info.HasPerAxisQuantization()) {
      spec.quantization.zero_points.assign(spec.quantization.scales.size(), 0);
      spec.quantization.axis = static_cast<int>(info.GetQuantizationDim().value());
    } else {
      spec.quantization.zero_points = {info.GetQuantizationOffset()};
    }
  }
  return spec;
}

std::vector<int64_t> ShapeOfArmNn(const armnn::TensorInfo& info) {
  std::vector<int64_t> shape;
  for (unsigned int d = 0; d < info.GetNumDimensions(); ++d) shape.push_back(info.GetShape()[d]);
  return shape;
}

// Arm NN's parser names a failing operator by its index ("Failed to parse operator #54") and its
// builtin code; the file says which operator that is: " (operator #54 is GELU in the file)".
std::string NameTheOperator(const std::string& path, const std::string& message) {
  const size_t mark = message.find("operator #");
  if (mark == std::string::npos) return "";
  size_t at = mark + 10;
  size_t index = 0;
  bool any = false;
  while (at < message.size() && message[at] >= '0' && message[at] <= '9' && index < 100'000'000) {
    index = index * 10 + static_cast<size_t>(message[at++] - '0');
    any = true;
  }
  auto ops = ReadModelOps(path);
  if (!any || !ops.ok() || index >= ops.value().nodes.size()) return "";
  return " (operator #" + std::to_string(index) + " is " + ops.value().nodes[index].op_type +
         " in the file: Arm NN 23.08 cannot run this model; its TFLite parser does not support that operator)";
}

struct ArmNnSettings {
  std::vector<const ArmNnDevice*> fallback;
  int threads = 0;
  bool profile = false;
};

Result<ArmNnSettings> ReadArmNnSettings(const Target& target, const ArmNnDevice& device,
                                        const ArmNnRuntime& runtime) {
  TargetOptions options(target);
  ArmNnSettings settings;
  const std::string fallback = options.Text("fallback", "none");
  auto threads = options.Int("threads", 0, 0, 1024);
  if (!threads.ok()) return threads.status();
  if (Status s = options.CheckAllUsed(); !s.ok()) return s;
  if (fallback != "none") {
    size_t start = 0;
    while (start <= fallback.size()) {
      size_t stop = fallback.find('+', start);
      if (stop == std::string::npos) stop = fallback.size();
      const std::string name = fallback.substr(start, stop - start);
      start = stop + 1;
      const ArmNnDevice* other = FindArmNnDevice(name);
      if (!other) {
        return Status::Error("option fallback=" + fallback + ": '" + name +
                             "' is not an Arm NN backend; use none or cpuref, cpuacc, gpuacc joined by '+' "
                             "(e.g. fallback=cpuref)");
      }
      if (other == &device || std::find(settings.fallback.begin(), settings.fallback.end(), other) !=
                                  settings.fallback.end()) {
        return Status::Error("option fallback=" + fallback + ": '" + name + "' is listed twice (the device " +
                             device.name + " comes first on its own)");
      }
      if (!runtime.Has(other->backend)) {
        return Status::Error("option fallback=" + fallback + ": " + ArmNnMissingReason(runtime, *other));
      }
      settings.fallback.push_back(other);
    }
  }
  settings.threads = threads.value();
  const bool any_cpuacc = std::string(device.backend) == "CpuAcc" ||
                          std::any_of(settings.fallback.begin(), settings.fallback.end(),
                                      [](const ArmNnDevice* d) { return std::string(d->backend) == "CpuAcc"; });
  if (settings.threads > 1 && std::string(device.backend) == "CpuRef" && !any_cpuacc) {
    return Status::Error("option threads=" + std::to_string(settings.threads) +
                         ": Arm NN's CpuRef backend runs on one thread and has no thread option; drop "
                         "threads (or give threads=1), or run armnn:cpuacc where Arm NN has it");
  }
  if (settings.threads > 0 && std::string(device.backend) == "GpuAcc" && !any_cpuacc) {
    return Status::Error("option threads=" + std::to_string(settings.threads) +
                         ": Arm NN's GpuAcc backend has no thread option (only CpuAcc has NumberOfThreads)");
  }
  settings.profile = target.profile_operators;
  return settings;
}

// How many measured runs the profiler records: Arm NN's IProfiler keeps every event of every run
// in memory and cannot be cleared, so it is switched off after these.
constexpr int64_t kArmNnProfiledRunsMax = 200;

class ArmNnSession : public Session {
 public:
  static Result<std::unique_ptr<Session>> Create(const Artifact& artifact, const Target& target,
                                                 const ArmNnDevice& device, std::shared_ptr<ArmNnRuntime> runtime) {
    auto settings = ReadArmNnSettings(target, device, *runtime);
    if (!settings.ok()) return settings.status();
    auto session = std::unique_ptr<ArmNnSession>(new ArmNnSession());
    session->runtime_ = std::move(runtime);
    session->device_ = &device;
    session->settings_ = settings.value();
    session->path_ = artifact.path;
    if (Status s = session->Load(); !s.ok()) return s;
    return std::unique_ptr<Session>(std::move(session));
  }

  ~ArmNnSession() override {
    if (loaded_) runtime_->runtime->UnloadNetwork(network_id_);
  }

  const Signature& signature() const override { return signature_; }

  Status Prepare(const std::vector<std::vector<int64_t>>& input_shapes) override {
    if (input_shapes.size() != inputs_.size()) {
      return Status::Error("armnn: " + path_ + " has " + std::to_string(inputs_.size()) + " inputs, " +
                           std::to_string(input_shapes.size()) + " shapes were given");
    }
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const std::vector<int64_t> declared = ShapeOfArmNn(inputs_[i].info);
      if (input_shapes[i] != declared) {
        return Status::Error("armnn: input '" + signature_.inputs[i].name + "' of " + path_ + " is " +
                             ShapeToString(declared) + " in Arm NN's network, not " +
                             ShapeToString(input_shapes[i]) +
                             ": Arm NN runs the shapes its TFLite parser read (give that shape)");
      }
    }
    prepared_ = true;
    return Status::Ok();
  }

  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    if (!prepared_) return Status::Error("armnn: Run before Prepare on " + path_);
    if (inputs.size() != inputs_.size()) {
      return Status::Error("armnn: " + path_ + " takes " + std::to_string(inputs_.size()) + " inputs, got " +
                           std::to_string(inputs.size()));
    }
    input_tensors_.clear();
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Binding& binding = inputs_[i];
      if (inputs[i].dtype != signature_.inputs[i].dtype || inputs[i].data.size() != binding.info.GetNumBytes()) {
        return Status::Error("armnn: input '" + signature_.inputs[i].name + "' of " + path_ + " takes " +
                             DTypeName(signature_.inputs[i].dtype) + " " + ShapeToString(ShapeOfArmNn(binding.info)) +
                             " (" + std::to_string(binding.info.GetNumBytes()) + " bytes), got " +
                             DTypeName(inputs[i].dtype) + " " + ShapeToString(inputs[i].shape) + " (" +
                             std::to_string(inputs[i].data.size()) + " bytes)");
      }
      input_tensors_.emplace_back(binding.id, armnn::ConstTensor(binding.info, inputs[i].data.data()));
    }
    outputs.resize(outputs_.size());
    output_tensors_.clear();
    for (size_t i = 0; i < outputs_.size(); ++i) {
      Tensor& out = outputs[i];
      out.name = signature_.outputs[i].name;
      out.dtype = signature_.outputs[i].dtype;
      out.shape = output_shapes_[i];
      out.data.resize(outputs_[i].info.GetNumBytes());
      output_tensors_.emplace_back(outputs_[i].id, armnn::Tensor(outputs_[i].info, out.data.data()));
    }
    try {
      const armnn::Status status = runtime_->runtime->EnqueueWorkload(network_id_, input_tensors_, output_tensors_);
      if (status != armnn::Status::Success) {
        return Status::Error("armnn (" + std::string(device_->backend) + ") failed to run " + path_ +
                             " (EnqueueWorkload returned failure)");
      }
    } catch (const std::exception& e) {
      return Status::Error("armnn (" + std::string(device_->backend) + ") failed to run " + path_ + ": " +
                           OneLineText(e.what()));
    }
    if (profiling_ && ++profiled_runs_ >= kArmNnProfiledRunsMax) {
      runtime_->runtime->GetProfiler(network_id_)->EnableProfiling(false);
      profiling_ = false;
    }
    return Status::Ok();
  }

  std::vector<std::vector<int64_t>> PreparedInputShapes() const override {
    std::vector<std::vector<int64_t>> shapes;
    for (const Binding& binding : inputs_) shapes.push_back(ShapeOfArmNn(binding.info));
    return shapes;
  }
  Placement GetPlacement() const override { return placement_; }
  std::vector<std::string> notes() const override { return notes_; }
  std::map<std::string, std::string> effective_options() const override { return effective_; }

  void BeginOperatorProfile() override {
    if (!settings_.profile || profile_begun_) return;
    profile_begun_ = true;
    runtime_->runtime->GetProfiler(network_id_)->EnableProfiling(true);
    profiling_ = true;
  }

  Result<OperatorProfile> TakeOperatorProfile() override {
    if (!settings_.profile) return Status::Error("the session was loaded without --profile");
    if (!profile_begun_) return Status::Error("armnn: the profile was taken before the measured runs began");
    const std::shared_ptr<armnn::IProfiler> profiler = runtime_->runtime->GetProfiler(network_id_);
    profiler->EnableProfiling(false);
    profiling_ = false;
    std::ostringstream json;
    profiler->Print(json);
    auto profile = ArmNnProfileFromJson(json.str(), layers_, device_->name, profiled_runs_);
    if (!profile.ok()) return Status::Error("armnn: " + profile.error());
    if (profiled_runs_ >= kArmNnProfiledRunsMax) {
      profile.value().notes.push_back("Arm NN's profiler keeps every event in memory: only the first " +
                                      std::to_string(kArmNnProfiledRunsMax) + " measured runs are profiled");
    }
    return profile;
  }

 private:
  struct Binding {
    armnn::LayerBindingId id = 0;
    armnn::TensorInfo info;
  };

  ArmNnSession() = default;

  std::vector<armnn::BackendId> Preferences() const {
    std::vector<armnn::BackendId> backends = {device_->backend};
    for (const ArmNnDevice* other : settings_.fallback) backends.emplace_back(other->backend);
    return backends;
  }

  Status Load() {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path_, error)) {
      return Status::Error("armnn: " + path_ + " is not a file (give a .tflite model)");
    }
    armnnTfLiteParser::ITfLiteParserPtr parser = armnnTfLiteParser::ITfLiteParser::Create();
    armnn::INetworkPtr network{nullptr, nullptr};
    try {
      network = parser->CreateNetworkFromBinaryFile(path_.c_str());
    } catch (const std::exception& e) {
      return Status::Error("armnn: Arm NN's TFLite parser cannot read " + path_ + ": " + OneLineText(e.what()) +
                           NameTheOperator(path_, e.what()));
    }
    std::vector<std::string> input_names, output_names;
    try {
      input_names = parser->GetSubgraphInputTensorNames(0);
      output_names = parser->GetSubgraphOutputTensorNames(0);
      for (const std::string& name : input_names) {
        const auto binding = parser->GetNetworkInputBindingInfo(0, name);
        inputs_.push_back({binding.first, binding.second});
      }
      for (const std::string& name : output_names) {
        const auto binding = parser->GetNetworkOutputBindingInfo(0, name);
        outputs_.push_back({binding.first, binding.second});
      }
    } catch (const std::exception& e) {
      return Status::Error("armnn: Arm NN's TFLite parser cannot bind the inputs and outputs of " + path_ +
                           ": " + OneLineText(e.what()));
    }
    armnn::OptimizerOptionsOpaque optimizer;
    if (settings_.threads > 0 && (std::string(device_->backend) == "CpuAcc" ||
                                  std::any_of(settings_.fallback.begin(), settings_.fallback.end(),
                                              [](const ArmNnDevice* d) { return std::string(d->backend) == "CpuAcc"; }))) {
      optimizer.AddModelOption(armnn::BackendOptions("CpuAcc", {{"NumberOfThreads", static_cast<unsigned int>(settings_.threads)}}));
    }
    const std::vector<armnn::BackendId> preferences = Preferences();
    std::string tried;
    for (const armnn::BackendId& id : preferences) tried += (tried.empty() ? "" : ", ") + id.Get();
    std::vector<std::string> messages;
    armnn::IOptimizedNetworkPtr optimized{nullptr, nullptr};
    try {
      optimized = armnn::Optimize(*network, preferences, runtime_->runtime->GetDeviceSpec(), optimizer,
                                  armnn::Optional<std::vector<std::string>&>(messages));
    } catch (const std::exception& e) {
      std::string why = OneLineText(e.what());
      for (const std::string& m : messages) why += "; " + OneLineText(m);
      return Status::Error("armnn: Arm NN cannot run " + path_ + " on " + tried + ": " + why +
                           (settings_.fallback.empty() ? " (fallback=cpuref lets Arm NN put such layers on CpuRef)" : ""));
    }
    if (!optimized) {
      return Status::Error("armnn: Arm NN's Optimize gave no network for " + path_ + " on " + tried + ": " +
                           JoinText(messages, "; "));
    }
    for (const std::string& m : messages) notes_.push_back("Arm NN Optimize: " + OneLineText(m));
    std::ostringstream dot;
    optimized->SerializeToDot(dot);
    auto layers = ParseArmNnDot(dot.str());
    if (layers.ok()) {
      layers_ = layers.take();
      std::optional<int> model_operators;
      if (auto ops = ReadModelOps(path_); ops.ok()) model_operators = static_cast<int>(ops.value().nodes.size());
      placement_ = ArmNnPlacement(layers_, device_->backend, model_operators, notes_);
      for (std::string& note : ArmNnResizeOptionNotes(path_, layers_)) notes_.push_back(std::move(note));
    } else {
      notes_.push_back("no placement: " + layers.error());
    }
    std::string load_error;
    try {
      const armnn::INetworkProperties properties(false, armnn::MemorySource::Undefined, armnn::MemorySource::Undefined);
      if (runtime_->runtime->LoadNetwork(network_id_, std::move(optimized), load_error, properties) !=
          armnn::Status::Success) {
        return Status::Error("armnn: Arm NN could not load " + path_ + " on " + tried + ": " + OneLineText(load_error));
      }
    } catch (const std::exception& e) {
      return Status::Error("armnn: Arm NN could not load " + path_ + " on " + tried + ": " + OneLineText(e.what()));
    }
    loaded_ = true;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      inputs_[i].info = runtime_->runtime->GetInputTensorInfo(network_id_, inputs_[i].id);
      inputs_[i].info.SetConstant(true);  // ConstTensor wants it; the runtime only reads inputs
      signature_.inputs.push_back(SpecOfArmNn(input_names[i], inputs_[i].info));
    }
    for (size_t i = 0; i < outputs_.size(); ++i) {
      outputs_[i].info = runtime_->runtime->GetOutputTensorInfo(network_id_, outputs_[i].id);
      signature_.outputs.push_back(SpecOfArmNn(output_names[i], outputs_[i].info));
      output_shapes_.push_back(ShapeOfArmNn(outputs_[i].info));
    }
    for (const TensorSpec& spec : signature_.inputs) {
      if (spec.dtype == DType::kUnknown) {
        return Status::Error("armnn: input '" + spec.name + "' of " + path_ + " has a data type edgebench cannot feed");
      }
    }
    notes_.push_back("Arm NN backend preferences given to Optimize: " + tried);
    std::vector<std::string> fallback_names;
    for (const ArmNnDevice* other : settings_.fallback) fallback_names.push_back(other->name);
    effective_["fallback"] = fallback_names.empty() ? "none" : JoinText(fallback_names, "+");
    if (std::string(device_->backend) == "CpuRef" && settings_.fallback.empty()) {
      effective_["threads"] = "1";
    } else if (settings_.threads > 0) {
      effective_["threads"] = std::to_string(settings_.threads);
    } else {
      effective_["threads"] = "0";
      if (std::string(device_->backend) == "CpuAcc") {
        notes_.push_back("threads=0: Arm NN's default for CpuAcc (its scheduler uses every core)");
      }
    }
    return Status::Ok();
  }

  std::shared_ptr<ArmNnRuntime> runtime_;
  const ArmNnDevice* device_ = nullptr;
  ArmNnSettings settings_;
  std::string path_;
  armnn::NetworkId network_id_ = 0;
  bool loaded_ = false;
  bool prepared_ = false;
  Signature signature_;
  std::vector<Binding> inputs_, outputs_;
  std::vector<std::vector<int64_t>> output_shapes_;
  armnn::InputTensors input_tensors_;
  armnn::OutputTensors output_tensors_;
  std::vector<ArmNnLayer> layers_;
  Placement placement_;
  std::vector<std::string> notes_;
  std::map<std::string, std::string> effective_;
  bool profile_begun_ = false;
  bool profiling_ = false;
  int64_t profiled_runs_ = 0;
};

class ArmNnBackend : public Backend {
 public:
  BackendInfo Info() const override {
    const std::shared_ptr<ArmNnRuntime> runtime = SharedArmNnRuntime();
    BackendInfo info = InfoFromDescription(DescribeArmNnBackend());
    info.version = armnn::GetVersion();
    info.reason = runtime->error;
    for (const ArmNnDevice& d : kArmNnDevices) {
      DeviceInfo device;
      device.name = d.name;
      device.description = d.description;
      device.available = runtime->Has(d.backend);
      if (device.available && std::string(d.backend) == "GpuAcc") {
        // Arm NN lists GpuAcc wherever its library is installed: it runs only where an OpenCL
        // platform answers with a device.
        const OpenClProbe opencl = ProbeOpenCl();
        if (opencl.devices.empty()) {
          device.available = false;
          device.reason = "Arm NN's GpuAcc backend is installed, but " + opencl.error;
        } else if (const std::string emulated = OpenClCpuEmulation(opencl); !emulated.empty()) {
          device.description += " (emulated: " + emulated + ")";
        }
      }
      for (const std::string& file : runtime->dynamic_backend_files) {
        if (file.find(std::string("_") + d.backend + "_") != std::string::npos) {
          device.description += " (dynamic backend " + file + ")";
        }
      }
      if (!device.available && device.reason.empty()) device.reason = ArmNnMissingReason(*runtime, d);
      device.capabilities = {.thread_safe_run = false, .dynamic_shapes = false, .placement = true};
      info.devices.push_back(device);
    }
    return info;
  }

  Result<std::unique_ptr<Session>> Load(const Artifact& artifact, const Target& target) override {
    const ArmNnDevice* device = FindArmNnDevice(target.device);
    if (!device) {
      return Status::Error("backend 'armnn' has devices cpuref, cpuacc and gpuacc, not '" + target.device + "'");
    }
    std::shared_ptr<ArmNnRuntime> runtime = SharedArmNnRuntime();
    if (!runtime->Has(device->backend)) {
      return Status::Error("armnn:" + target.device + " is not available here: " + ArmNnMissingReason(*runtime, *device));
    }
    if (std::string(device->backend) == "GpuAcc") {
      if (const OpenClProbe opencl = ProbeOpenCl(); opencl.devices.empty()) {
        return Status::Error("armnn:gpuacc is not available here: Arm NN's GpuAcc backend is installed, but " +
                             opencl.error);
      }
    }
    return ArmNnSession::Create(artifact, target, *device, std::move(runtime));
  }
};

}  // namespace

BackendDescription DescribeArmNnBackend() {
  return {"armnn", "Arm NN", {".tflite"}, "", ""};
}

std::unique_ptr<Backend> MakeArmNnBackend() { return std::make_unique<ArmNnBackend>(); }

}  // namespace edgebench
