#include "backends/litert/litert_xnnpack_session.h"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <sstream>

#include "backends/litert/litert_shape_signatures.h"
#include "backends/litert/litert_types.h"
#include "core/log.h"
#include "core/placement.h"
#include "core/stderr_filter.h"
#include "tensorflow/lite/error_reporter.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace edgebench {
namespace {

constexpr int kCpuAccelerator = 1;  // kLiteRtHwAcceleratorCpu
constexpr int kGpuAccelerator = 2;  // kLiteRtHwAcceleratorGpu

// LiteRtRankedTensorType, kept opaque: the library fills it and gets it back. In 2.3.0 it is
// {int32 element_type; uint8 rank:7; ...; int32 dims[8] at byte 8; ...}; we read the element
// type, rank and dims and rewrite dims for resized inputs, nothing else.
struct alignas(64) RankedType {
  unsigned char bytes[512] = {};
  int element_type() const { int32_t t; std::memcpy(&t, bytes, 4); return t; }
  int rank() const { return bytes[4] & 0x7f; }
  std::vector<int64_t> dims() const {
    std::vector<int64_t> d;
    for (int i = 0; i < rank() && i < 8; ++i) {
      int32_t v;
      std::memcpy(&v, bytes + 8 + 4 * i, 4);
      d.push_back(v);
    }
    return d;
  }
  void set_dims(const std::vector<int64_t>& d) {
    for (size_t i = 0; i < d.size() && i < 8; ++i) {
      const auto v = static_cast<int32_t>(d[i]);
      std::memcpy(bytes + 8 + 4 * i, &v, 4);
    }
  }
};

std::vector<int64_t> DeclaredDims(const TensorSpec& spec) {
  std::vector<int64_t> dims;
  for (const Dim& d : spec.shape) dims.push_back(d.fixed() ? d.size : -1);
  return dims;
}

// LiteRT writes INFO lines and warnings about GPU/NPU accelerators it cannot find to stderr.
// Its WebGPU accelerator logs through absl ("I0000 00:00:... file.cc:532] ...", before which
// "WARNING: Logging before InitGoogle()..."), and Dawn warns about limits it lowers; absl's
// warnings and errors (W, E) pass.
bool IsLiteRtNoise(const std::string& line) {
  return line.rfind("INFO: ", 0) == 0 || line.rfind("I0000 ", 0) == 0 ||
         line.rfind("WARNING: Logging before InitGoogle()", 0) == 0 ||
         (line.rfind("Warning: max", 0) == 0 && line.find("artificially reduced") != std::string::npos) ||
         (line.rfind("WARNING: ", 0) == 0 &&
          (line.find("accelerator could not be loaded") != std::string::npos ||
           line.find("Attempting to load") != std::string::npos ||
           line.find("Failed to load plugin") != std::string::npos)) ||
         line.rfind("\u2514 Could not load shared library", 0) == 0;
}

// The verifier's messages are summarised in our own error instead.
class SilentReporter : public tflite::ErrorReporter {
 public:
  int Report(const char*, va_list) override { return 0; }
};

struct AlignedBuffer {
  void* data = nullptr;
  size_t size = 0;
  ~AlignedBuffer() { std::free(data); }
};

class LiteRtXnnpackSession : public Session {
 public:
  LiteRtXnnpackSession(std::shared_ptr<LiteRtLibrary> library, int threads, bool fail_on_fallback,
                       BuiltinShapeCheck builtin_check, bool profile, LiteRtAccelerator accelerator)
      : lib_(std::move(library)),
        api_(lib_->api()),
        accelerator_(accelerator),
        device_(LiteRtAcceleratorName(accelerator)),
        threads_(threads),
        fail_on_fallback_(fail_on_fallback),
        profile_(profile),
        builtin_check_(std::move(builtin_check)) {}

  ~LiteRtXnnpackSession() override {
    StderrFilter quiet(IsLiteRtNoise);  // LiteRT logs "DestroyAccelerator" at INFO
    DestroyBuffers();
    if (compiled_) api_.DestroyCompiledModel(compiled_);
    if (options_) api_.DestroyOptions(options_);
    if (model_) api_.DestroyModel(model_);
    if (env_) api_.DestroyEnvironment(env_);
  }

  Status Init(const std::string& path) {
    // LiteRT 2.3.0 crashes on some corrupt files; TensorFlow Lite's flatbuffer verifier
    // rejects them first, with a message for people.
    SilentReporter silent;
    auto verified = tflite::FlatBufferModel::VerifyAndBuildFromFile(path.c_str(), nullptr, &silent);
    if (!verified) {
      return Error("cannot read '" + path + "': not a valid .tflite flatbuffer (truncated or corrupt?)");
    }
    // LiteRT reports dynamic axes as 1; the model's shape signatures keep them as -1.
    const ShapeSignatures declared = ReadShapeSignatures(*verified->GetModel());
    StderrFilter quiet(IsLiteRtNoise);
    if (api_.CreateEnvironment(0, nullptr, &env_) != 0) return Error("could not create its environment");
    if (api_.CreateModelFromFile(env_, path.c_str(), &model_) != 0 || !model_) {
      return Error("cannot read '" + path + "': not a valid .tflite model (truncated or corrupt?)");
    }
    size_t signatures = 0;
    if (api_.GetNumModelSignatures(model_, &signatures) != 0 || signatures == 0 ||
        api_.GetModelSignature(model_, 0, &signature_handle_) != 0) {
      return Error("'" + path + "' has no signature to run");
    }
    void* subgraph = nullptr;
    size_t ops = 0;
    if (api_.GetSignatureSubgraph(signature_handle_, &subgraph) == 0 &&
        api_.GetNumSubgraphOps(subgraph, &ops) == 0) {
      for (size_t i = 0; i < ops; ++i) {
        void* op = nullptr;
        int code = -1;
        if (api_.GetSubgraphOp(subgraph, i, &op) == 0 && api_.GetOpCode(op, &code) == 0) {
          const char* name = code >= 0 && code <= tflite::BuiltinOperator_MAX
                                 ? tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(code))
                                 : "";
          op_types_[name && *name ? name : "op" + std::to_string(code)] += 1;
        }
      }
    }
    size_t inputs = 0, outputs = 0;
    api_.GetNumSignatureInputs(signature_handle_, &inputs);
    api_.GetNumSignatureOutputs(signature_handle_, &outputs);
    for (size_t i = 0; i < inputs + outputs; ++i) {
      const bool is_input = i < inputs;
      const size_t index = is_input ? i : i - inputs;
      void* tensor = nullptr;
      const char* name = nullptr;
      RankedType type;
      if ((is_input ? api_.GetSignatureInputTensorByIndex : api_.GetSignatureOutputTensorByIndex)(
              signature_handle_, index, &tensor) != 0 ||
          api_.GetRankedTensorType(tensor, type.bytes) != 0 || type.rank() > 8) {
        return Error("cannot read the type of " + std::string(is_input ? "input " : "output ") +
                     std::to_string(index));
      }
      (is_input ? api_.GetSignatureInputName : api_.GetSignatureOutputName)(signature_handle_, index, &name);
      TensorSpec spec{name ? name : "", FromTfLiteType(static_cast<TfLiteType>(type.element_type())), {}};
      std::vector<int64_t> dims = type.dims();
      const auto& signatures = is_input ? declared.inputs : declared.outputs;
      if (index < signatures.size() && signatures[index].size() == dims.size()) dims = signatures[index];
      for (int64_t d : dims) spec.shape.push_back(d >= 0 ? Dim::Fixed(d) : Dim::Symbol("?"));
      const auto& quantization = is_input ? declared.input_quantization : declared.output_quantization;
      if (index < quantization.size()) spec.quantization = quantization[index];
      (is_input ? signature_.inputs : signature_.outputs).push_back(spec);
      (is_input ? input_types_ : output_types_).push_back(type);
    }
    if (Status s = Compile(profile_, &compiled_, &options_); !s.ok()) return s;
    bool full = false;
    api_.CompiledModelIsFullyAccelerated(compiled_, &full);
    placement_.known = true;
    int builtin_total = 0;
    if (!full && accelerator_ == LiteRtAccelerator::kGpu) {
      // What the GPU left went to XNNPACK or to builtin kernels, both on the CPU; LiteRT's
      // profile does not tell the GPU's delegate rows from XNNPACK's.
      placement_.known = false;
      if (fail_on_fallback_) {
        return Status::Error("fallback=fail: LiteRT's GPU accelerator did not take the whole model "
                             "(LiteRtCompiledModelIsFullyAccelerated is false); with fallback=allow the rest runs "
                             "on the CPU");
      }
      notes_.push_back("fallback=allow: LiteRT's GPU accelerator did not take the whole model; the rest ran on the "
                       "CPU (XNNPACK or builtin kernels: LiteRT does not say which nodes)");
    } else if (!full) {
      // Which nodes XNNPACK left to builtin kernels: one profiled run of a second compiled model.
      auto builtin = ProfileBuiltinNodes();
      if (!builtin.ok()) {
        placement_.known = false;
        notes_.push_back("LiteRT: the model is not fully taken by XNNPACK, and the nodes left to "
                         "builtin kernels could not be counted: " + builtin.error());
      } else {
        for (const auto& [op, n] : builtin.value()) {
          placement_.ops_by_device["cpu"][op] += n;
          builtin_total += n;
        }
      }
    }
    int total = 0;
    for (const auto& [op, n] : op_types_) total += n;
    if (placement_.known) {
      if (builtin_total > 0) placement_.nodes_by_device["cpu"] = builtin_total;
      if (total - builtin_total > 0) {
        placement_.nodes_by_device[device_] = total - builtin_total;
      }
      auto& xnn = placement_.ops_by_device[device_];
      for (const auto& [op, n] : op_types_) {
        const int left = placement_.ops_by_device["cpu"].count(op) ? placement_.ops_by_device["cpu"][op] : 0;
        if (n - left > 0) xnn[op] = n - left;
      }
      if (placement_.ops_by_device["cpu"].empty()) placement_.ops_by_device.erase("cpu");
      if (xnn.empty()) placement_.ops_by_device.erase(device_);
      for (const auto& [device, n] : placement_.nodes_by_device) placement_.devices_used.push_back(device);
      // Counted from the model's own operators, so these are the model's nodes too.
      placement_.model_nodes = total;
      placement_.original_nodes_by_device = placement_.nodes_by_device;
      if (const auto cpu = placement_.ops_by_device.find("cpu"); cpu != placement_.ops_by_device.end()) {
        placement_.cpu_op_types = cpu->second;
      }
      // A model XNNPACK takes whole is one partition (TFLite groups consecutive supported nodes);
      // LiteRT's C API does not say how many islands a partly taken model breaks into.
      if (full && total > 0) placement_.partitions_by_device[device_] = 1;
    }
    if (!full && accelerator_ == LiteRtAccelerator::kXnnpack) {
      const std::optional<std::string> left = CpuFallbackText(placement_, "xnnpack");
      const std::string what = left ? *left : "some nodes stayed on the CPU (which, LiteRT did not tell)";
      if (fail_on_fallback_) {
        return Status::Error("fallback=fail: " + what +
                             "; LiteRT would have run them on its builtin kernels with fallback=allow");
      }
      notes_.push_back("fallback=allow: " + what + " (LiteRT's builtin kernels)");
    }
    if (accelerator_ == LiteRtAccelerator::kGpu) {
      notes_.push_back("LiteRT " + std::string(kLiteRtWheelVersion) + " (ai-edge-litert wheel) from " + lib_->path() +
                       ", its WebGPU accelerator on " + (adapter_.empty() ? "an adapter it did not name" : adapter_));
      if (IsSoftwareWebGpuAdapter(adapter_)) {
        notes_.push_back("emulated: " + adapter_.substr(0, adapter_.find(" (")) +
                         " (a software Vulkan device): the latencies are this machine's CPU running the GPU's "
                         "kernels, not a device's");
      }
    } else {
      notes_.push_back("LiteRT " + std::string(kLiteRtWheelVersion) + " (ai-edge-litert wheel) from " +
                       lib_->path() + ", XNNPACK with " + std::to_string(threads_) + " threads");
    }
    return Status::Ok();
  }

  const Signature& signature() const override { return signature_; }

  Status Prepare(const std::vector<std::vector<int64_t>>& shapes) override {
    if (shapes.size() != input_types_.size()) {
      return Status::Error("expected " + std::to_string(input_types_.size()) + " input shapes");
    }
    for (size_t i = 0; i < shapes.size(); ++i) {
      // LiteRT compiles dynamic axes as 1. Resizing through its C API (seen here with 2.3.0)
      // left the output buffers at the compiled size: allocation failed, then the process
      // crashed. So this target runs the compiled shape only, and says so.
      if (shapes[i] != input_types_[i].dims()) {
        return Error("runs this model only at its compiled input shape " +
                     ShapeToString(input_types_[i].dims()) + ", not " + ShapeToString(shapes[i]) +
                     " (input '" + signature_.inputs[i].name + "')" + WhatLiteRtCpuDoes(shapes));
      }
    }
    StderrFilter quiet(IsLiteRtNoise);  // the GPU accelerator logs its environment here
    return AllocateBuffers(compiled_, shapes);
  }

  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    if (inputs.size() != in_memory_.size()) return Status::Error("call Prepare before Run");
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i].data.size() > in_memory_[i]->size) {
        return Status::Error("input '" + inputs[i].name + "' is larger than the prepared buffer");
      }
      std::memcpy(in_memory_[i]->data, inputs[i].data.data(), inputs[i].data.size());
    }
    // The GPU accelerator may make its environment on the first run, and logs it: filtered then,
    // never on a later (timed) run.
    std::optional<StderrFilter> first_run_quiet;
    if (!ran_) first_run_quiet.emplace(IsLiteRtNoise);
    ran_ = true;
    if (api_.RunCompiledModel(compiled_, 0, in_buffers_.size(), in_buffers_.data(), out_buffers_.size(),
                              out_buffers_.data()) != 0) {
      return Error("failed to run");
    }
    first_run_quiet.reset();
    if (profiler_) ++profiled_runs_;
    outputs.resize(out_memory_.size());
    for (size_t i = 0; i < out_memory_.size(); ++i) {
      Tensor& o = outputs[i];
      o.name = signature_.outputs[i].name;
      o.dtype = signature_.outputs[i].dtype;
      o.shape = out_shapes_[i];
      const size_t bytes = static_cast<size_t>(ElementCount(o.shape)) * DTypeSize(o.dtype);
      o.data.resize(bytes);
      std::memcpy(o.data.data(), out_memory_[i]->data, std::min(bytes, out_memory_[i]->size));
    }
    return Status::Ok();
  }

  void BeginOperatorProfile() override {
    if (!profile_) return;
    void* profiler = nullptr;
    if (api_.CompiledModelGetProfiler(compiled_, &profiler) == 0 && profiler && api_.ResetProfiler(profiler) == 0 &&
        api_.StartProfiler(profiler) == 0) {
      profiler_ = profiler;
      profiled_runs_ = 0;
    }
  }

  Result<std::vector<IntermediateTensor>> Intermediates() override {
    return Status::Error("LiteRT's compiled model (litert:" + device_ + ") shows only the model's outputs: " +
                         "the accelerator keeps the tensors inside its partitions; litert:cpu shows them all");
  }

  Result<OperatorProfile> TakeOperatorProfile() override {
    if (!profile_) return Status::Error("the session was loaded without --profile");
    if (!profiler_) return Error("did not start its profiler (LiteRtCompiledModelGetProfiler/LiteRtStartProfiler failed)");
    const char* summary = nullptr;
    if (api_.StopProfiler(profiler_) != 0 || api_.GetProfileSummary(profiler_, compiled_, &summary) != 0 || !summary) {
      return Error("did not give its profile summary (LiteRtGetProfileSummary failed)");
    }
    const std::string text = summary;
    std::free(const_cast<char*>(summary));
    Log(LogLevel::kDebug, "LiteRT profile summary:\n" + text);
    auto profile = OperatorProfileFromLiteRtSummary(text, profiled_runs_, device_);
    if (!profile.ok()) return Error("gave a profile summary edgebench cannot read: " + profile.error());
    return profile;
  }

  Placement GetPlacement() const override { return placement_; }
  std::vector<std::string> notes() const override { return notes_; }
  std::map<std::string, std::string> effective_options() const override {
    std::map<std::string, std::string> options;
    if (accelerator_ == LiteRtAccelerator::kGpu) {
      options["accelerator"] = "webgpu";
      // LiteRT's GPU default (its enforce_f32 off), which this library's C API does not expose.
      options["precision"] = "fp16 allowed";
      // Its name only ("llvmpipe"): the whole description (with commas) is in the notes.
      options["adapter"] = adapter_.empty() ? "unnamed" : adapter_.substr(0, adapter_.find(" ("));
    } else {
      options["threads"] = std::to_string(threads_);
    }
    if (fail_on_fallback_) options["fallback"] = "fail";
    return options;
  }

 private:
  // The advice after "only at its compiled shape": litert:cpu only when it runs these shapes.
  std::string WhatLiteRtCpuDoes(const std::vector<std::vector<int64_t>>& shapes) const {
    if (!builtin_check_) return "";
    std::map<std::string, std::vector<int64_t>> by_name;
    for (size_t i = 0; i < shapes.size(); ++i) by_name[signature_.inputs[i].name] = shapes[i];
    const Status cpu = builtin_check_(by_name);
    if (cpu.ok()) return "; litert:cpu runs it at this shape";
    return "; litert:cpu cannot run it at this shape either (" + cpu.message() + ")";
  }

  Status Error(const std::string& what) const {
    return Status::Error("LiteRT " + std::string(kLiteRtWheelVersion) +
                         (accelerator_ == LiteRtAccelerator::kGpu ? " (GPU, WebGPU) " : " (XNNPACK) ") + what);
  }

  Status Compile(bool profiling, void** compiled, void** options) {
    const bool gpu = accelerator_ == LiteRtAccelerator::kGpu;
    std::string adapter;
    std::mutex adapter_mutex;
    {
      // The WebGPU accelerator names the adapter Dawn chose only in its log: kept from there.
      StderrFilter quiet([&](const std::string& line) {
        if (const std::string named = WebGpuAdapterInLine(line); !named.empty()) {
          std::lock_guard<std::mutex> lock(adapter_mutex);
          adapter = named;
          return true;
        }
        return IsLiteRtNoise(line);
      });
      // Its GPU environment's OpenCL loader writes "INFO: Failed to load OpenCL library" to stdout.
      StderrFilter quiet_stdout(IsLiteRtNoise, STDOUT_FILENO);
      // fallback=allow: what the GPU does not take runs on XNNPACK; fallback=fail: the GPU alone.
      const int accelerators = gpu ? (fail_on_fallback_ ? kGpuAccelerator : kGpuAccelerator | kCpuAccelerator)
                                   : kCpuAccelerator;
      if (api_.CreateOptions(options) != 0 || api_.SetOptionsHardwareAccelerators(*options, accelerators) != 0) {
        return Error("could not create compilation options");
      }
      Status made = AddCompileOptions(profiling, *options);
      if (made.ok() && (api_.CreateCompiledModel(env_, model_, *options, compiled) != 0 || !*compiled)) {
        made = Error(gpu ? "could not compile the model for the GPU (LiteRT's WebGPU accelerator" +
                               std::string(adapter.empty() ? ", which named no adapter: is there a Vulkan device?"
                                                           : " on " + adapter) + ")"
                         : "could not compile the model for the CPU (XNNPACK)");
      }
      if (!made.ok()) return made;
    }
    if (gpu && !adapter.empty()) adapter_ = adapter;
    return Status::Ok();
  }

  Status AddCompileOptions(bool profiling, void* options) {
    auto add = [&](const char* id, const std::string& toml) {
      void* opaque = nullptr;
      char* payload = ::strdup(toml.c_str());
      if (api_.CreateOpaqueOptions(id, payload, std::free, &opaque) != 0) {
        std::free(payload);
        return false;
      }
      return api_.AddOpaqueOptions(options, opaque) == 0;  // the options own it now
    };
    if (accelerator_ == LiteRtAccelerator::kXnnpack && !add("xnnpack", "num_threads = " + std::to_string(threads_) + "\n")) {
      return Error("rejected the XNNPACK options");
    }
    if (profiling && !add("runtime_options_string", "enable_profiling = true\n")) {
      return Error("rejected the profiling option");
    }
    return Status::Ok();
  }

  Status AllocateBuffers(void* compiled, const std::vector<std::vector<int64_t>>& input_shapes) {
    DestroyBuffers();
    for (size_t i = 0; i < input_types_.size() + output_types_.size(); ++i) {
      const bool is_input = i < input_types_.size();
      const size_t index = is_input ? i : i - input_types_.size();
      void* requirements = nullptr;
      size_t size = 0;
      if ((is_input ? api_.GetCompiledModelInputBufferRequirements : api_.GetCompiledModelOutputBufferRequirements)(
              compiled, 0, index, &requirements) != 0 ||
          api_.GetTensorBufferRequirementsBufferSize(requirements, &size) != 0) {
        return Error("cannot size the buffer of " + std::string(is_input ? "input " : "output ") + std::to_string(index));
      }
      RankedType type = is_input ? input_types_[index] : output_types_[index];
      std::vector<int64_t> shape = is_input ? input_shapes[index] : DeclaredDims(signature_.outputs[index]);
      if (!is_input) {
        // Outputs: the model's dims, with one dynamic axis resolved from the buffer size.
        const size_t width = DTypeSize(signature_.outputs[index].dtype);
        int64_t known = 1;
        int dynamic = -1;
        for (size_t k = 0; k < shape.size(); ++k) {
          if (shape[k] < 0) {
            if (dynamic >= 0) return Error("cannot tell the shape of output " + std::to_string(index));
            dynamic = static_cast<int>(k);
          } else {
            known *= shape[k];
          }
        }
        if (dynamic >= 0 && width && known) shape[static_cast<size_t>(dynamic)] = static_cast<int64_t>(size / width) / known;
        out_shapes_.push_back(shape);
      }
      type.set_dims(shape);
      auto memory = std::make_unique<AlignedBuffer>();
      memory->size = (size + 63) / 64 * 64;
      memory->data = std::aligned_alloc(64, memory->size);
      std::memset(memory->data, 0, memory->size);
      void* buffer = nullptr;
      if (api_.CreateTensorBufferFromHostMemory(type.bytes, memory->data, memory->size, nullptr, &buffer) != 0) {
        return Error("cannot wrap host memory for " + std::string(is_input ? "input " : "output ") + std::to_string(index));
      }
      (is_input ? in_buffers_ : out_buffers_).push_back(buffer);
      (is_input ? in_memory_ : out_memory_).push_back(std::move(memory));
    }
    return Status::Ok();
  }

  void DestroyBuffers() {
    for (void* b : in_buffers_) api_.DestroyTensorBuffer(b);
    for (void* b : out_buffers_) api_.DestroyTensorBuffer(b);
    in_buffers_.clear();
    out_buffers_.clear();
    in_memory_.clear();
    out_memory_.clear();
    out_shapes_.clear();
  }

  Result<std::map<std::string, int>> ProfileBuiltinNodes() {
    std::vector<std::vector<int64_t>> shapes;
    for (const RankedType& t : input_types_) {
      shapes.push_back(t.dims());
      for (int64_t d : shapes.back()) {
        if (d < 0) return Status::Error("the model has dynamic input shapes");
      }
    }
    void* compiled = nullptr;
    void* options = nullptr;
    Status compiled_ok = Compile(true, &compiled, &options);
    std::map<std::string, int> builtin;
    Status result = compiled_ok;
    if (compiled_ok.ok()) {
      StderrFilter quiet(IsLiteRtNoise);
      void* profiler = nullptr;
      const char* summary = nullptr;
      result = AllocateBuffers(compiled, shapes);
      if (result.ok() && api_.CompiledModelGetProfiler(compiled, &profiler) == 0 && profiler &&
          api_.StartProfiler(profiler) == 0 &&
          api_.RunCompiledModel(compiled, 0, in_buffers_.size(), in_buffers_.data(), out_buffers_.size(),
                                out_buffers_.data()) == 0 &&
          api_.StopProfiler(profiler) == 0 && api_.GetProfileSummary(profiler, compiled, &summary) == 0 && summary) {
        builtin = BuiltinNodesInProfile(summary);
        std::free(const_cast<char*>(summary));
      } else if (result.ok()) {
        result = Status::Error("the profiled run failed");
      }
      DestroyBuffers();
    }
    if (compiled) api_.DestroyCompiledModel(compiled);
    if (options) api_.DestroyOptions(options);
    if (!result.ok()) return result;
    return builtin;
  }

  std::shared_ptr<LiteRtLibrary> lib_;
  const LiteRtApi& api_;
  LiteRtAccelerator accelerator_;
  std::string device_;   // "xnnpack" or "gpu": the placement's and the profile's device
  std::string adapter_;  // kGpu: the adapter LiteRT's WebGPU accelerator named
  int threads_;
  bool ran_ = false;
  bool fail_on_fallback_;
  bool profile_;
  void* profiler_ = nullptr;  // owned by compiled_; set once the measured phase started it
  int64_t profiled_runs_ = 0;
  BuiltinShapeCheck builtin_check_;
  void* env_ = nullptr;
  void* model_ = nullptr;
  void* signature_handle_ = nullptr;
  void* options_ = nullptr;
  void* compiled_ = nullptr;
  Signature signature_;
  std::vector<RankedType> input_types_, output_types_;
  std::vector<void*> in_buffers_, out_buffers_;
  std::vector<std::unique_ptr<AlignedBuffer>> in_memory_, out_memory_;
  std::vector<std::vector<int64_t>> out_shapes_;
  std::map<std::string, int> op_types_;
  Placement placement_;
  std::vector<std::string> notes_;
};

}  // namespace

const char* LiteRtAcceleratorName(LiteRtAccelerator accelerator) {
  return accelerator == LiteRtAccelerator::kGpu ? "gpu" : "xnnpack";
}

std::string WebGpuAdapterInLine(const std::string& line) {
  static constexpr char kSelected[] = "Selected adapter: ";
  const size_t at = line.find(kSelected);
  if (at == std::string::npos) return "";
  std::string adapter = line.substr(at + sizeof kSelected - 1);
  while (!adapter.empty() && (adapter.back() == '\r' || adapter.back() == ' ')) adapter.pop_back();
  return adapter;
}

bool IsSoftwareWebGpuAdapter(const std::string& adapter) {
  const size_t at = adapter.find("adapterType=");
  if (at == std::string::npos) return false;
  const std::string type = adapter.substr(at + 12);
  return type.rfind("CPU", 0) == 0 || type.find("Software") != std::string::npos;
}

Result<std::unique_ptr<Session>> LoadLiteRtXnnpackSession(std::shared_ptr<LiteRtLibrary> library,
                                                         const Artifact& artifact, int threads,
                                                         bool fail_on_fallback,
                                                         BuiltinShapeCheck builtin_check, bool profile,
                                                         LiteRtAccelerator accelerator) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(artifact.path, ec)) {
    return Status::Error("model file '" + artifact.path + "' does not exist or is not a file");
  }
  if (accelerator == LiteRtAccelerator::kGpu) {
    StderrFilter quiet(IsLiteRtNoise);  // its initialisers look for OpenCL, and log it
    if (Status loaded = library->LoadGpuAccelerator(); !loaded.ok()) return loaded;
  }
  auto session = std::make_unique<LiteRtXnnpackSession>(std::move(library), threads, fail_on_fallback,
                                                        std::move(builtin_check), profile, accelerator);
  if (Status s = session->Init(artifact.path); !s.ok()) return s;
  return std::unique_ptr<Session>(std::move(session));
}

}  // namespace edgebench
