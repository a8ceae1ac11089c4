#include "backends/ort/ort_backend.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include <onnxruntime_cxx_api.h>

#include "backends/ort/onnx_graph.h"
#include "backends/ort/openmp_threads.h"
#include "backends/ort/ort_log.h"
#include "backends/ort/ort_profile.h"
#include "backends/ort/ort_providers.h"
#include "core/clock.h"
#include "core/environment.h"
#include "core/placement.h"
#include "core/log.h"
#include "core/stderr_filter.h"

namespace edgebench {
namespace {

// The target option naming a plugin execution-provider library (docs/accelerators.md).
constexpr char kEpLibraryOption[] = "ep_library";

DType FromOrtType(ONNXTensorElementDataType type) {
  switch (type) {
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT: return DType::kFloat32;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16: return DType::kFloat16;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8: return DType::kInt8;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8: return DType::kUInt8;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32: return DType::kInt32;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64: return DType::kInt64;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL: return DType::kBool;
    default: return DType::kUnknown;
  }
}

ONNXTensorElementDataType ToOrtType(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT;
    case DType::kFloat16: return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16;
    case DType::kInt8: return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
    case DType::kUInt8: return ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8;
    case DType::kInt32: return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32;
    case DType::kInt64: return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64;
    case DType::kBool: return ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL;
    case DType::kUnknown: break;
  }
  return ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
}

TensorSpec SpecFromTypeInfo(const std::string& name, const Ort::TypeInfo& info) {
  TensorSpec spec;
  spec.name = name;
  if (info.GetONNXType() != ONNX_TYPE_TENSOR) return spec;  // dtype stays kUnknown
  const auto tensor = info.GetTensorTypeAndShapeInfo();
  spec.dtype = FromOrtType(tensor.GetElementType());
  const std::vector<int64_t> dims = tensor.GetShape();
  std::vector<const char*> symbols(dims.size(), nullptr);
  tensor.GetSymbolicDimensions(symbols.data(), symbols.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] >= 0) {
      spec.shape.push_back(Dim::Fixed(dims[i]));
    } else {
      spec.shape.push_back(Dim::Symbol(symbols[i] && *symbols[i] ? symbols[i] : "?"));
    }
  }
  return spec;
}

class OrtSession : public Session {
 public:
  OrtSession(Ort::Session session, std::string provider, Placement placement,
             std::vector<std::string> notes, std::map<std::string, std::string> options,
             bool profiling, std::optional<ExposedOnnxModel> exposed)
      : session_(std::move(session)),
        exposed_(std::move(exposed)),
        profiling_(profiling),
        options_(std::move(options)),
        provider_(std::move(provider)),
        placement_(std::move(placement)),
        notes_(std::move(notes)),
        memory_(Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault)) {
    Ort::AllocatorWithDefaultOptions allocator;
    for (size_t i = 0; i < session_.GetInputCount(); ++i) {
      const std::string name = session_.GetInputNameAllocated(i, allocator).get();
      signature_.inputs.push_back(SpecFromTypeInfo(name, session_.GetInputTypeInfo(i)));
    }
    // Exposed intermediates are outputs to ORT but not to the model's signature: they follow the
    // model's own outputs (ExposeOnnxNodeOutputs appends them).
    const size_t signature_outputs = exposed_ ? exposed_->graph_outputs : session_.GetOutputCount();
    for (size_t i = 0; i < session_.GetOutputCount(); ++i) {
      std::string name = session_.GetOutputNameAllocated(i, allocator).get();
      if (i < signature_outputs) {
        signature_.outputs.push_back(SpecFromTypeInfo(name, session_.GetOutputTypeInfo(i)));
      } else {
        exposed_names_.push_back(std::move(name));
      }
    }
    for (const auto& in : signature_.inputs) input_names_.push_back(in.name.c_str());
    for (const auto& out : signature_.outputs) output_names_.push_back(out.name.c_str());
    for (const auto& name : exposed_names_) output_names_.push_back(name.c_str());
    if (exposed_) exposed_->bytes.clear();  // ORT holds its own copy
    // Run-time logging stays at warnings: the session's verbose level is for creation only.
    run_options_.SetRunLogSeverityLevel(ORT_LOGGING_LEVEL_WARNING);
    if (profiling_) {
      // The profile's zero is on the system clock; the harness's on the steady clock.
      const int64_t system_now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count();
      profile_start_ns_ = static_cast<int64_t>(session_.GetProfilingStartTimeNs()) - (system_now - NowNs());
    }
  }

  ~OrtSession() override {
    // A profile nobody took (the case failed): ORT would write it at destruction; remove it.
    if (profiling_ && !profile_taken_) {
      try {
        Ort::AllocatorWithDefaultOptions allocator;
        std::filesystem::remove(session_.EndProfilingAllocated(allocator).get());
      } catch (const Ort::Exception&) {
      }
    }
  }

  const Signature& signature() const override { return signature_; }

  Status Prepare(const std::vector<std::vector<int64_t>>& input_shapes) override {
    if (input_shapes.size() != signature_.inputs.size()) {
      return Status::Error("expected " + std::to_string(signature_.inputs.size()) +
                           " input shapes, got " + std::to_string(input_shapes.size()));
    }
    for (const auto& in : signature_.inputs) {
      if (in.dtype == DType::kUnknown) {
        return Status::Error("input '" + in.name + "' is not a tensor of a supported type");
      }
    }
    return Status::Ok();
  }

  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    if (inputs.size() != input_names_.size()) {
      return Status::Error("expected " + std::to_string(input_names_.size()) + " inputs, got " +
                           std::to_string(inputs.size()));
    }
    if (profiling_) runs_.fetch_add(1, std::memory_order_relaxed);  // --profile only: which runs were warmup
    if (!ran_.load(std::memory_order_relaxed)) ran_.store(true, std::memory_order_relaxed);
    try {
      std::vector<Ort::Value> values;
      values.reserve(inputs.size());
      for (const Tensor& t : inputs) {
        // ORT reads inputs only; the cast lets it wrap our buffer without a copy.
        values.push_back(Ort::Value::CreateTensor(
            memory_, const_cast<std::byte*>(t.data.data()), t.data.size(), t.shape.data(),
            t.shape.size(), ToOrtType(t.dtype)));
      }
      auto results = session_.Run(run_options_, input_names_.data(), values.data(),
                                  values.size(), output_names_.data(), output_names_.size());
      outputs.resize(signature_.outputs.size());
      // Only a session with exposed intermediates keeps the last run's values; Run stays free of
      // shared writes otherwise, since streams call it at once (`--sessions shared`).
      if (exposed_) last_values_.clear();
      for (size_t i = 0; i < results.size(); ++i) {
        const bool in_signature = i < signature_.outputs.size();
        const char* name = output_names_[i];
        if (!results[i].IsTensor()) {
          if (!in_signature) continue;  // an intermediate sequence or map: not compared
          return Status::Error("output '" + signature_.outputs[i].name + "' is not a tensor");
        }
        const auto info = results[i].GetTensorTypeAndShapeInfo();
        Tensor value;
        Tensor& out = in_signature ? outputs[i] : value;
        out.name = name;
        out.dtype = FromOrtType(info.GetElementType());
        out.shape = info.GetShape();
        const size_t bytes = static_cast<size_t>(info.GetElementCount()) * DTypeSize(out.dtype);
        out.data.resize(bytes);
        if (bytes) std::memcpy(out.data.data(), results[i].GetTensorRawData(), bytes);
        if (exposed_) last_values_[name] = in_signature ? out : std::move(value);
      }
    } catch (const Ort::Exception& e) {
      return Status::Error("ONNX Runtime (" + provider_ + ") failed to run: " + e.what());
    }
    return Status::Ok();
  }

  Result<std::vector<IntermediateTensor>> Intermediates() override {
    if (!exposed_) return Status::Error("the session was loaded without a request for intermediate tensors");
    if (last_values_.empty()) return Status::Error("no run yet: intermediate tensors are those of the last Run");
    std::vector<IntermediateTensor> values;
    for (const OnnxValue& v : exposed_->values) {
      auto it = last_values_.find(v.name);
      if (it == last_values_.end()) continue;  // not a tensor (a sequence, a map)
      values.push_back({std::move(it->second), v.node, v.op_type, false});
    }
    last_values_.clear();
    return values;
  }

  Placement GetPlacement() const override { return placement_; }
  // After the first run, what ONNX Runtime's CPU allocator holds too (asked again once the
  // measured phase is over: worker/run_case.cc AddNotesFromTheRun).
  std::vector<std::string> notes() const override {
    std::vector<std::string> notes = notes_;
    if (ran_.load(std::memory_order_relaxed)) notes.push_back(AllocatorNote());
    return notes;
  }
  std::map<std::string, std::string> effective_options() const override { return options_; }

  void BeginOperatorProfile() override { runs_before_profile_ = runs_.load(); }

  Result<OperatorProfile> TakeOperatorProfile() override {
    if (!profiling_) return Status::Error("the session was loaded without --profile");
    if (profile_taken_) return Status::Error("the operator profile was already taken");
    profile_taken_ = true;
    std::string path;
    try {
      Ort::AllocatorWithDefaultOptions allocator;
      path = session_.EndProfilingAllocated(allocator).get();
    } catch (const Ort::Exception& e) {
      return Status::Error(std::string("ONNX Runtime could not end its profile: ") + e.what());
    }
    std::ifstream in(path);
    if (!in) return Status::Error("cannot read ONNX Runtime's profile '" + path + "'");
    auto profile = ReadOrtProfile(in, runs_before_profile_ < 0 ? 0 : runs_before_profile_, profile_start_ns_);
    in.close();
    std::error_code ec;
    std::filesystem::remove(path, ec);
    if (profile.ok()) {
      const int64_t measured = runs_.load() - std::max<int64_t>(runs_before_profile_, 0);
      if (profile.value().runs < measured) {
        profile.value().notes.push_back(
            "ONNX Runtime's profiler recorded " + std::to_string(profile.value().runs) + " of the " +
            std::to_string(measured) + " measured runs (it stops at its limit of a million events)");
      }
    }
    return profile;
  }

 private:
  Ort::Session session_;
  // Set for Target::expose_intermediates: every node output is an output of the session.
  std::optional<ExposedOnnxModel> exposed_;
  std::vector<std::string> exposed_names_;
  std::map<std::string, Tensor> last_values_;  // every output of the last Run, when exposed_
  bool profiling_ = false;
  bool profile_taken_ = false;
  int64_t profile_start_ns_ = 0;
  // "allocator: ..." with the statistics ONNX Runtime's allocator for CPU memory keeps (its arena's:
  // in use, reserved, the most in use, allocations), or why there are none.
  std::string AllocatorNote() const {
    const OrtApi& api = Ort::GetApi();
    std::map<std::string, std::string> stats;
    try {
      Ort::Allocator allocator(session_, memory_);
      OrtKeyValuePairs* pairs = nullptr;
      Ort::ThrowOnError(api.AllocatorGetStats(allocator, &pairs));
      const char* const* keys = nullptr;
      const char* const* values = nullptr;
      size_t count = 0;
      api.GetKeyValuePairs(pairs, &keys, &values, &count);
      for (size_t i = 0; i < count; ++i) stats[keys[i]] = values[i];
      api.ReleaseKeyValuePairs(pairs);
    } catch (const Ort::Exception& e) {
      return std::string("allocator: ONNX Runtime's CPU allocator gave no statistics: ") + e.what();
    }
    if (stats.empty()) {
      return "allocator: ONNX Runtime's CPU allocator keeps no statistics (no arena: arena=off, or "
             "the provider allocates for itself); malloc's figures are in the memory map (--memory-map)";
    }
    auto mb = [&](const char* key) -> std::string {
      auto it = stats.find(key);
      if (it == stats.end()) return "?";
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.1f MB", std::strtod(it->second.c_str(), nullptr) / 1e6);
      return buffer;
    };
    if (stats.count("InUse") && stats.count("TotalAllocated")) {
      return "allocator: ONNX Runtime's CPU arena after the run: " + mb("InUse") + " in use of " +
             mb("TotalAllocated") + " reserved, at most " + mb("MaxInUse") + " in use, " +
             (stats.count("NumAllocs") ? stats["NumAllocs"] : std::string("?")) + " allocations, " +
             (stats.count("NumArenaExtensions") ? stats["NumArenaExtensions"] : std::string("?")) +
             " extensions of the arena";
    }
    std::string all;
    for (const auto& [key, value] : stats) all += (all.empty() ? "" : ", ") + key + "=" + value;
    return "allocator: ONNX Runtime's CPU allocator after the run: " + all;
  }

  std::atomic<int64_t> runs_{0};
  std::atomic<bool> ran_{false};
  int64_t runs_before_profile_ = -1;
  std::map<std::string, std::string> options_;
  std::string provider_;
  Placement placement_;
  std::vector<std::string> notes_;
  Ort::MemoryInfo memory_;
  Ort::RunOptions run_options_;
  Signature signature_;
  std::vector<const char*> input_names_;
  std::vector<const char*> output_names_;
};

class OrtBackend : public Backend {
 public:
  BackendInfo Info() const override {
    BackendInfo info = InfoFromDescription(DescribeOrtBackend());
    info.version = Ort::GetVersionString();
    std::vector<std::string> available;
    try {
      available = Ort::GetAvailableProviders();
    } catch (const Ort::Exception& e) {
      info.reason = e.what();
    }
    // ort:NAME?ep_library=PATH: a plugin execution-provider library (docs/accelerators.md).
    info.device_library_option = kEpLibraryOption;
    for (const OrtProviderRoute& route : OrtProviderRoutes(available)) {
      info.devices.push_back({route.device, route.provider, route.available, route.reason, "",
                              // Ort::Session::Run is documented as safe to call concurrently.
                              {.thread_safe_run = true, .dynamic_shapes = true, .placement = true}});
    }
    return info;
  }

  Result<std::unique_ptr<Session>> Load(const Artifact& artifact, const Target& target) override {
    std::vector<std::string> available;
    try {
      available = Ort::GetAvailableProviders();
    } catch (const Ort::Exception& e) {
      return Status::Error(std::string("ONNX Runtime could not list its providers: ") + e.what());
    }
    const std::vector<OrtProviderRoute> routes = OrtProviderRoutes(available);
    const auto found = std::find_if(routes.begin(), routes.end(),
                                    [&](const OrtProviderRoute& r) { return r.device == target.device; });
    // ep_library=PATH: a plugin execution-provider library the user names, registered with ONNX
    // Runtime under the target's device name; its EP is the one this device names.
    std::optional<OrtProviderRoute> plugin;
    if (const auto library = target.options.find(kEpLibraryOption); library != target.options.end()) {
      if (found != routes.end() && found->available) {
        return Status::Error("target '" + target.text + "': ort:" + target.device +
                             " is built into this ONNX Runtime; ep_library= names a plugin library for a provider "
                             "it does not have");
      }
      auto registered = RegisterPluginProvider(target.device, library->second);
      if (!registered.ok()) return Status::Error("target '" + target.text + "': " + registered.error());
      plugin = registered.take();
    }
    if (!plugin && (found == routes.end() || !found->available)) {
      std::string offered;
      for (const OrtProviderRoute& r : routes) {
        if (r.available) offered += (offered.empty() ? "ort:" : ", ort:") + r.device;
      }
      return Status::Error("ONNX Runtime has no device '" + target.device + "' here" +
                           (found == routes.end() ? "" : " (" + found->reason + ")") + "; use " + offered +
                           " (`edgebench devices` lists them)");
    }
    const OrtProviderRoute& route = plugin ? *plugin : *found;
    TargetOptions options(target);
    if (plugin) (void)options.Text(kEpLibraryOption, "");  // edgebench's, not the provider's
    auto threads = options.Int("threads", UsableCores(), 1, 1024);
    auto opt = options.Choice("opt", "all", {"disable", "basic", "extended", "all"});
    // fallback=fail: the model must run wholly on the requested device (ORT's
    // session.disable_cpu_ep_fallback); ort:cpu always does.
    auto fallback = options.Choice("fallback", "allow", {"allow", "fail"});
    // arena=off: the session allocates CPU memory without ONNX Runtime's arena
    // (DisableCpuMemArena), so what it holds is malloc's (the memory map's mallinfo2).
    auto arena = options.Choice("arena", "on", {"on", "off"});
    // Every other option is the provider's own, passed as written for it to apply or refuse
    // (docs/accelerators.md). The CPU provider has none; XNNPACK's reads only its thread count.
    const bool takes_options = route.append != OrtAppend::kNone && route.append != OrtAppend::kXnnpack;
    const std::map<std::string, std::string> provider_options =
        takes_options ? options.TakeUnused() : std::map<std::string, std::string>{};
    for (const Status& s :
         {threads.status(), opt.status(), fallback.status(), arena.status(), options.CheckAllUsed()}) {
      if (!s.ok()) return s;
    }
    const bool fail_on_fallback = fallback.value() == "fail";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(artifact.path, ec)) {
      return Status::Error("model file '" + artifact.path + "' does not exist or is not a file");
    }
    // The model's own nodes, which ORT does not count once it has fused them.
    const Result<std::map<std::string, int>> model_op_types = ReadOnnxOpTypes(artifact.path);
    std::optional<ExposedOnnxModel> exposed;
    if (target.expose_intermediates) {
      std::ifstream in(artifact.path, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (!in.good() && !in.eof()) return Status::Error("cannot read model file '" + artifact.path + "'");
      auto made = ExposeOnnxNodeOutputs(bytes, artifact.path);
      if (!made.ok()) {
        return Status::Error("cannot show the intermediate tensors of '" + artifact.path + "': " + made.error());
      }
      exposed = made.take();
    }

    std::lock_guard<std::mutex> lock(mutex_);
    StderrFilter quiet(IsOnnxSchemaNoise);
    try {
      EnsureEnv();
      // Where the provider places the model's own nodes: a session with graph optimizations off,
      // so that the nodes it leaves on the CPU are the model's (with them on, ORT fuses the CPU's
      // nodes after placement). Created and released before the measured session.
      // oneDNN's threads are OpenMP's, set before the provider's library (and OpenMP) loads,
      // which the placement probe below already does.
      const bool dnnl = route.append == OrtAppend::kDnnl;
      if (dnnl) {
        if (Status applied = ApplyOpenMpThreads(threads.value()); !applied.ok()) return applied;
      }
      // The provider checks its options here, before any model is read: a misspelt one is
      // refused with the provider's own message.
      std::map<std::string, std::string> applied;
      try {
        Ort::SessionOptions check;
        applied = AppendOrtProvider(check, route, threads.value(), provider_options);
      } catch (const Ort::Exception& e) {
        return Status::Error("target '" + target.text + "': " + route.provider + " refused its options: " + e.what());
      }
      std::optional<OrtLogCapture::Captured> probe;
      if (target.device != "cpu" && model_op_types.ok()) {
        try {
          Ort::SessionOptions probe_options = MakeOptions(route, 1, ORT_DISABLE_ALL, false, provider_options);
          probe = CreateSession(artifact, probe_options).second;
        } catch (const Ort::Exception& e) {
          // The measured session says why if it fails too; otherwise only the counts are lost.
          Log(LogLevel::kDebug,
              std::string("onnxruntime: the placement probe failed: ") + e.what());
        }
      }
      Placement original = OriginalPlacement(target.device, route.provider, model_op_types, probe);
      const std::optional<std::string> left_on_cpu = CpuFallbackText(original, target.device);

      Ort::SessionOptions so = MakeOptions(route, threads.value(), OptLevel(opt.value()),
                                           fail_on_fallback && target.device != "cpu", provider_options);
      if (arena.value() == "off") so.DisableCpuMemArena();
      if (exposed) {
        // From memory, ORT looks for external weights (a .onnx.data beside the model) here.
        const std::string folder = std::filesystem::absolute(artifact.path).parent_path().string();
        so.AddConfigEntry("session.model_external_initializers_file_folder_path", folder.c_str());
      }
      if (target.profile_operators) {
        // ORT names the file <prefix>_<date and time>.json; the session removes it once read.
        const std::string prefix = (std::filesystem::temp_directory_path() /
                                    ("edgebench-ort-profile-" + std::to_string(getpid()) + "-" +
                                     std::to_string(profile_files_++)))
                                       .string();
        so.EnableProfiling(prefix.c_str());
      }
      std::pair<std::optional<Ort::Session>, OrtLogCapture::Captured> created;
      try {
        created = CreateSession(artifact, so, exposed ? &exposed->bytes : nullptr);
      } catch (const Ort::Exception& e) {
        const std::string said = e.what();
        if (fail_on_fallback && said.find("fallback") != std::string::npos) {
          return FallbackError(
              left_on_cpu.value_or("nodes would stay on the CPU (ONNX Runtime did not say which)"),
              said);
        }
        throw;
      }
      OrtLogCapture::Captured& captured = created.second;

      Placement placement = original;
      placement.known = !captured.nodes_by_provider.empty();
      for (const auto& [provider, nodes] : captured.nodes_by_provider) {
        const std::string name = OrtProviderToDevice(provider);
        placement.nodes_by_device[name] += nodes;
        placement.devices_used.push_back(name);
      }
      for (const auto& [provider, op_types] : captured.op_types_by_provider) {
        placement.ops_by_device[OrtProviderToDevice(provider)] = op_types;
      }
      // Fused subgraphs in the measured session: each is one partition of its provider. A
      // provider that runs the model's nodes one by one (ORT's XNNPACK) has no such count.
      for (const auto& [provider, fused] : captured.fused_nodes_by_provider) {
        placement.partitions_by_device[OrtProviderToDevice(provider)] = fused;
      }
      std::vector<std::string> notes = std::move(captured.notes);
      if (route.append == OrtAppend::kPlugin) {
        std::string devices;
        for (const Ort::ConstEpDevice& d : route.ep_devices) {
          devices += std::string(devices.empty() ? "" : ", ") + HardwareTypeName(d.Device().Type()) + " (" +
                     d.Device().Vendor() + ")";
        }
        notes.push_back("plugin execution provider " + route.provider + " (" + route.ep_devices.front().EpVendor() +
                        ") from " + route.ep_library + ", on " + devices);
      }
      const auto cpu_nodes = placement.nodes_by_device.find("cpu");
      if (target.device != "cpu" && cpu_nodes != placement.nodes_by_device.end() &&
          cpu_nodes->second > 0) {
        // ORT refuses such a session with fallback=fail; this holds if it ever did not.
        const std::string text =
            CpuFallbackText(placement, target.device).value_or("nodes stayed on the CPU");
        if (fail_on_fallback) return FallbackError(text, "");
        notes.push_back("fallback=allow: " + text + " (ONNX Runtime's CPU provider)");
      }
      if (quiet.dropped() > 0) {
        Log(LogLevel::kDebug, "onnxruntime: hid " + std::to_string(quiet.dropped()) +
                                  " 'Schema error: ... already registered' lines");
      }
      if (dnnl && OpenMpMaxThreads() != threads.value()) {
        return Status::Error("oneDNN's OpenMP runtime runs " + std::to_string(OpenMpMaxThreads()) +
                             " threads, not the threads=" + std::to_string(threads.value()) +
                             " asked (OMP_NUM_THREADS was not applied)");
      }
      std::map<std::string, std::string> effective = {
          {"threads", std::to_string(threads.value())}, {"opt", opt.value()}};
      if (fail_on_fallback) effective["fallback"] = "fail";
      if (arena.value() == "off") effective["arena"] = "off";
      // The provider's own options as it reports it applied them.
      for (const auto& [key, value] : applied) effective[key] = value;
      return std::unique_ptr<Session>(new OrtSession(std::move(*created.first), route.provider,
                                                     std::move(placement), std::move(notes),
                                                     std::move(effective), target.profile_operators,
                                                     std::move(exposed)));
    } catch (const Ort::Exception& e) {
      return Status::Error("ONNX Runtime (" + route.provider +
                           ") could not create a session for '" + artifact.path + "': " + e.what());
    }
  }

 private:
  static GraphOptimizationLevel OptLevel(const std::string& opt) {
    return opt == "disable"    ? ORT_DISABLE_ALL
           : opt == "basic"    ? ORT_ENABLE_BASIC
           : opt == "extended" ? ORT_ENABLE_EXTENDED
                               : ORT_ENABLE_ALL;
  }

  static Ort::SessionOptions MakeOptions(const OrtProviderRoute& route, int threads, GraphOptimizationLevel level,
                                         bool disable_cpu_fallback,
                                         const std::map<std::string, std::string>& provider_options) {
    Ort::SessionOptions so;
    so.SetIntraOpNumThreads(threads);
    so.SetGraphOptimizationLevel(level);
    // Verbose during creation only, to read ORT's node placement.
    so.SetLogSeverityLevel(ORT_LOGGING_LEVEL_VERBOSE);
    if (disable_cpu_fallback) so.AddConfigEntry("session.disable_cpu_ep_fallback", "1");
    AppendOrtProvider(so, route, threads, provider_options);
    return so;
  }

  // Creates a session with ORT's log verbose and captured; called under mutex_.
  // `model_bytes`: the model from memory (with exposed intermediates) instead of from the file.
  std::pair<std::optional<Ort::Session>, OrtLogCapture::Captured> CreateSession(
      const Artifact& artifact, const Ort::SessionOptions& so, const std::string* model_bytes = nullptr) {
    env_->UpdateEnvWithCustomLogLevel(ORT_LOGGING_LEVEL_VERBOSE);
    log_.Begin();
    std::optional<Ort::Session> session;
    try {
      if (model_bytes) {
        session.emplace(*env_, model_bytes->data(), model_bytes->size(), so);
      } else {
        session.emplace(*env_, artifact.path.c_str(), so);
      }
    } catch (...) {
      log_.End();
      env_->UpdateEnvWithCustomLogLevel(ORT_LOGGING_LEVEL_WARNING);
      throw;
    }
    OrtLogCapture::Captured captured = log_.End();
    env_->UpdateEnvWithCustomLogLevel(ORT_LOGGING_LEVEL_WARNING);
    return {std::move(session), std::move(captured)};
  }

  // The model's own nodes by device, from its graph and a session with optimizations off
  // (`probe`, absent for ort:cpu). Unknown (absent fields) where they cannot tell.
  static Placement OriginalPlacement(const std::string& device, const std::string& provider,
                                     const Result<std::map<std::string, int>>& model_op_types,
                                     const std::optional<OrtLogCapture::Captured>& probe) {
    Placement placement;
    if (!model_op_types.ok()) return placement;
    const std::map<std::string, int>& model = model_op_types.value();
    int total = 0;
    for (const auto& [op, nodes] : model) total += nodes;
    placement.model_nodes = total;
    if (device == "cpu") {
      placement.original_nodes_by_device["cpu"] = total;
      return placement;
    }
    if (!probe || probe->nodes_by_provider.empty()) return placement;
    if (probe->nodes_by_provider.size() == 1) {
      // "All nodes placed on [X]": one provider took every node.
      const std::string only = OrtProviderToDevice(probe->nodes_by_provider.begin()->first);
      placement.original_nodes_by_device[only] = total;
      return placement;
    }
    const auto listed = [&](const std::string& p) {
      const auto it = probe->op_types_by_provider.find(p);
      return it == probe->op_types_by_provider.end() ? std::map<std::string, int>{} : it->second;
    };
    const std::map<std::string, int> on_provider = listed(provider);
    const std::map<std::string, int> on_cpu = listed("CPUExecutionProvider");
    const bool fused = probe->fused_nodes_by_provider.count(provider) > 0;
    // Counts of the model's op types, never more than the model has.
    const auto clamp = [&model](const std::map<std::string, int>& counts) {
      std::map<std::string, int> kept;
      for (const auto& [op, nodes] : counts) {
        const auto it = model.find(op);
        if (it != model.end()) kept[op] = std::min(nodes, it->second);
      }
      return kept;
    };
    std::map<std::string, int> cpu_ops;
    if (!fused) {
      // The provider ran single nodes of the model's op types; all the rest stayed on the CPU
      // (ORT's layout transformation adds Transposes there, which are not the model's).
      const std::map<std::string, int> taken = clamp(on_provider);
      for (const auto& [op, nodes] : model) {
        const int left = nodes - (taken.count(op) ? taken.at(op) : 0);
        if (left > 0) cpu_ops[op] = left;
      }
    } else {
      // The provider fused subgraphs, whose nodes ORT does not list: it took what the CPU's list
      // does not hold.
      cpu_ops = clamp(on_cpu);
    }
    int cpu = 0;
    for (const auto& [op, nodes] : cpu_ops) cpu += nodes;
    if (total - cpu > 0) placement.original_nodes_by_device[device] = total - cpu;
    if (cpu > 0) placement.original_nodes_by_device["cpu"] = cpu;
    placement.cpu_op_types = cpu_ops;
    placement.known = true;
    return placement;
  }

  static Status FallbackError(const std::string& left_on_cpu, const std::string& ort_said) {
    return Status::Error("fallback=fail: " + left_on_cpu +
                         "; ONNX Runtime would have run them there with fallback=allow" +
                         (ort_said.empty() ? "" : " (ONNX Runtime said: " + ort_said + ")"));
  }

  static const char* HardwareTypeName(OrtHardwareDeviceType type) {
    return type == OrtHardwareDeviceType_GPU ? "GPU" : type == OrtHardwareDeviceType_NPU ? "NPU" : "CPU";
  }

  // Under mutex_.
  void EnsureEnv() {
    if (!env_) {
      env_ = std::make_unique<Ort::Env>(ORT_LOGGING_LEVEL_WARNING, "edgebench", &OrtLogCapture::OnMessage, &log_);
    }
  }

  // Registers the plugin library (once per process) and returns the route to its provider.
  Result<OrtProviderRoute> RegisterPluginProvider(const std::string& name, const std::string& path) {
    std::lock_guard<std::mutex> lock(mutex_);
    StderrFilter quiet(IsOnnxSchemaNoise);
    try {
      EnsureEnv();
    } catch (const Ort::Exception& e) {
      return Status::Error(std::string("ONNX Runtime: ") + e.what());
    }
    return RegisterOrtPluginProvider(*env_, plugin_libraries_, name, path);
  }

  std::mutex mutex_;
  std::map<std::string, std::string> plugin_libraries_;  // registered name -> path, under mutex_
  OrtLogCapture log_;
  int profile_files_ = 0;  // under mutex_
  std::unique_ptr<Ort::Env> env_;
};

}  // namespace

BackendDescription DescribeOrtBackend() {
  return {"ort", "ONNX Runtime", {".onnx", ".ort"}, "", ""};
}

std::unique_ptr<Backend> MakeOrtBackend() { return std::make_unique<OrtBackend>(); }

}  // namespace edgebench
