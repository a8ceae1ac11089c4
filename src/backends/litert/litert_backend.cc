#include "backends/litert/litert_backend.h"

#include "backends/litert/litert_types.h"
#include "backends/litert/litert_xnnpack_session.h"
#include "backends/litert/tflite_op_profiler.h"
#include "core/dequantize.h"
#include "core/environment.h"

#include <dlfcn.h>

#include <cstdarg>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <thread>

#include "tensorflow/lite/core/interpreter_builder.h"
#include "tensorflow/lite/error_reporter.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_options.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/logger.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "tensorflow/lite/c/c_api.h"

namespace edgebench {
namespace {

// Collects TFLite's error messages so they reach the record instead of raw stderr.
class CollectingReporter : public tflite::ErrorReporter {
 public:
  int Report(const char* format, va_list args) override {
    char buffer[2048];
    std::vsnprintf(buffer, sizeof buffer, format, args);
    if (!text_.empty()) text_ += "; ";
    text_ += buffer;
    return 0;
  }
  const std::string& text() const { return text_; }
  void Clear() { text_.clear(); }

 private:
  std::string text_;
};

// The affine quantization of an int8/uint8 tensor; empty for others.
TensorQuantization QuantizationOf(const TfLiteTensor* t) {
  TensorQuantization q;
  const auto* affine = t->quantization.type == kTfLiteAffineQuantization
                           ? static_cast<const TfLiteAffineQuantization*>(t->quantization.params)
                           : nullptr;
  if ((t->type != kTfLiteInt8 && t->type != kTfLiteUInt8) || !affine || !affine->scale || !affine->zero_point) {
    return q;
  }
  q.scales.assign(affine->scale->data, affine->scale->data + affine->scale->size);
  q.zero_points.assign(affine->zero_point->data, affine->zero_point->data + affine->zero_point->size);
  q.axis = affine->quantized_dimension;
  return q;
}

TensorSpec SpecOf(const TfLiteTensor* t) {
  TensorSpec spec;
  spec.name = t->name ? t->name : "";
  spec.dtype = FromTfLiteType(t->type);
  spec.quantization = QuantizationOf(t);
  // dims_signature keeps -1 for dynamic axes; dims has them as 1.
  const TfLiteIntArray* dims = t->dims_signature && t->dims_signature->size ? t->dims_signature : t->dims;
  for (int i = 0; i < dims->size; ++i) {
    spec.shape.push_back(dims->data[i] >= 0 ? Dim::Fixed(dims->data[i]) : Dim::Symbol("?"));
  }
  return spec;
}

// Makes "unresolved custom op" errors name the op and say what it means.
std::string Explain(const std::string& message) {
  static const std::regex kCustomOp(R"(unresolved custom op: ([A-Za-z0-9_]+))");
  std::smatch match;
  if (std::regex_search(message, match, kCustomOp)) {
    return "the model needs the custom operator '" + match[1].str() +
           "', which TensorFlow Lite's builtin kernels do not provide (the runtime the model "
           "was made for, e.g. MediaPipe, registers it). TensorFlow Lite said: " + message;
  }
  return message.empty() ? "unknown error" : message;
}

// Whether any input has a dynamic axis (-1 in its shape signature).
bool HasDynamicInput(const tflite::Interpreter& interpreter) {
  for (int index : interpreter.inputs()) {
    const TfLiteIntArray* signature = interpreter.tensor(index)->dims_signature;
    if (!signature) continue;
    for (int i = 0; i < signature->size; ++i) {
      if (signature->data[i] < 0) return true;
    }
  }
  return false;
}

// Whether the loaded TFLite library carries the XNNPACK delegate (Debian's does not).
bool LibraryHasXnnpack() {
  void* self = ::dlopen(nullptr, RTLD_LAZY);
  const bool found = self && ::dlsym(self, "TfLiteXNNPackDelegateCreate") != nullptr;
  if (self) ::dlclose(self);
  return found;
}

class LiteRtSession : public Session {
 public:
  LiteRtSession(std::unique_ptr<CollectingReporter> reporter,
                std::unique_ptr<tflite::FlatBufferModel> model,
                std::unique_ptr<tflite::Interpreter> interpreter, int threads, bool fail_on_fallback,
                std::unique_ptr<TfLiteOperatorProfiler> profiler, bool exposes_intermediates)
      : exposes_intermediates_(exposes_intermediates),
        profiler_(std::move(profiler)),
        reporter_(std::move(reporter)),
        model_(std::move(model)),
        interpreter_(std::move(interpreter)),
        threads_(threads),
        fail_on_fallback_(fail_on_fallback) {
    for (int index : interpreter_->inputs()) signature_.inputs.push_back(SpecOf(interpreter_->tensor(index)));
    for (int index : interpreter_->outputs()) signature_.outputs.push_back(SpecOf(interpreter_->tensor(index)));
    // Name tensors as the model's first signature does ("input_1", not the tensor name
    // "serving_default_input_1:0"), as litert:xnnpack (LiteRT's signature API) names them, so
    // --input and --dim NAME.AXIS mean the same input on both targets.
    const auto keys = interpreter_->signature_keys();
    if (!keys.empty()) {
      auto rename = [&](const std::map<std::string, uint32_t>& by_name, const std::vector<int>& indices,
                        std::vector<TensorSpec>& specs) {
        for (const auto& [name, tensor] : by_name) {
          for (size_t i = 0; i < indices.size(); ++i) {
            if (indices[i] == static_cast<int>(tensor)) specs[i].name = name;
          }
        }
      };
      rename(interpreter_->signature_inputs(keys[0]->c_str()), interpreter_->inputs(), signature_.inputs);
      rename(interpreter_->signature_outputs(keys[0]->c_str()), interpreter_->outputs(), signature_.outputs);
    }
  }

  const Signature& signature() const override { return signature_; }

  Status Prepare(const std::vector<std::vector<int64_t>>& input_shapes) override {
    const auto& inputs = interpreter_->inputs();
    if (input_shapes.size() != inputs.size()) {
      return Status::Error("expected " + std::to_string(inputs.size()) + " input shapes, got " +
                           std::to_string(input_shapes.size()));
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      for (int64_t d : input_shapes[i]) {
        // TFLite's dimensions are int: a larger one would be narrowed, and a different shape
        // measured under the asked one's name.
        if (d < 0 || d > std::numeric_limits<int>::max()) {
          return Status::Error("input '" + signature_.inputs[i].name + "' shape " + ShapeToString(input_shapes[i]) +
                               " has a dimension outside TensorFlow Lite's range (0 to " +
                               std::to_string(std::numeric_limits<int>::max()) + ")");
        }
      }
      const TfLiteTensor* t = interpreter_->tensor(inputs[i]);
      std::vector<int> wanted(input_shapes[i].begin(), input_shapes[i].end());
      const std::vector<int> current(t->dims->data, t->dims->data + t->dims->size);
      if (wanted != current &&
          interpreter_->ResizeInputTensor(inputs[i], wanted) != kTfLiteOk) {
        return Status::Error("TensorFlow Lite cannot resize input '" + signature_.inputs[i].name +
                             "' to " + ShapeToString(input_shapes[i]));
      }
    }
    reporter_->Clear();
    if (interpreter_->AllocateTensors() != kTfLiteOk) {
      return Status::Error("TensorFlow Lite could not allocate tensors for input shapes " +
                           ShapesText(input_shapes) + ": " + Explain(reporter_->text()));
    }
    return Status::Ok();
  }

  std::vector<std::vector<int64_t>> PreparedInputShapes() const override {
    std::vector<std::vector<int64_t>> shapes;
    for (int index : interpreter_->inputs()) {
      const TfLiteTensor* t = interpreter_->tensor(index);
      shapes.emplace_back(t->dims->data, t->dims->data + t->dims->size);
    }
    return shapes;
  }

  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    const auto& in = interpreter_->inputs();
    if (inputs.size() != in.size()) {
      return Status::Error("expected " + std::to_string(in.size()) + " inputs, got " +
                           std::to_string(inputs.size()));
    }
    for (size_t i = 0; i < in.size(); ++i) {
      TfLiteTensor* t = interpreter_->tensor(in[i]);
      if (t->bytes != inputs[i].data.size()) {
        return Status::Error("input '" + signature_.inputs[i].name + "' holds " +
                             std::to_string(t->bytes) + " bytes but " +
                             std::to_string(inputs[i].data.size()) + " were given; call Prepare");
      }
      std::memcpy(t->data.raw, inputs[i].data.data(), t->bytes);
    }
    reporter_->Clear();
    if (interpreter_->Invoke() != kTfLiteOk) {
      return Status::Error("TensorFlow Lite failed to run: " +
                           (reporter_->text().empty() ? "Invoke returned an error" : reporter_->text()));
    }
    if (profiler_) profiler_->CountRun();
    const auto& out = interpreter_->outputs();
    outputs.resize(out.size());
    for (size_t i = 0; i < out.size(); ++i) {
      const TfLiteTensor* t = interpreter_->tensor(out[i]);
      Tensor& o = outputs[i];
      o.name = t->name ? t->name : "";
      o.dtype = FromTfLiteType(t->type);
      o.shape.assign(t->dims->data, t->dims->data + t->dims->size);
      o.data.resize(t->bytes);
      if (t->bytes) std::memcpy(o.data.data(), t->data.raw, t->bytes);
    }
    return Status::Ok();
  }

  // Every node output in execution order. With preserve-all-tensors TFLite gives each tensor its
  // own memory, so all of them still hold the last Invoke's values.
  Result<std::vector<IntermediateTensor>> Intermediates() override {
    if (!exposes_intermediates_) {
      return Status::Error("the session was loaded without a request for intermediate tensors");
    }
    std::vector<IntermediateTensor> values;
    for (int node_index : interpreter_->execution_plan()) {
      const auto* node_and_reg = interpreter_->node_and_registration(node_index);
      if (!node_and_reg) continue;
      const TfLiteNode& node = node_and_reg->first;
      const TfLiteRegistration& reg = node_and_reg->second;
      const std::string op =
          reg.builtin_code == tflite::BuiltinOperator_CUSTOM
              ? std::string(reg.custom_name ? reg.custom_name : "CUSTOM")
              : std::string(tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(reg.builtin_code)));
      for (int k = 0; node.outputs && k < node.outputs->size; ++k) {
        const int index = node.outputs->data[k];
        if (index < 0) continue;
        const TfLiteTensor* t = interpreter_->tensor(index);
        if (!t || !t->data.raw || t->bytes == 0) continue;
        IntermediateTensor value;
        // TFLite names tensors, not nodes: a node is its position in the execution plan.
        value.node = "#" + std::to_string(node_index);
        value.op_type = op;
        Tensor& raw = value.tensor;
        raw.name = t->name ? t->name : "tensor " + std::to_string(index);
        raw.dtype = FromTfLiteType(t->type);
        raw.shape.assign(t->dims->data, t->dims->data + t->dims->size);
        raw.data.resize(t->bytes);
        std::memcpy(raw.data.data(), t->data.raw, t->bytes);
        const TensorQuantization q = QuantizationOf(t);
        if (!q.empty()) {
          auto dequantized = DequantizeAffine(raw, q.scales, q.zero_points, q.axis);
          if (!dequantized.ok()) return dequantized.status();
          raw = dequantized.take();
          value.dequantized = true;
        }
        values.push_back(std::move(value));
      }
    }
    return values;
  }

  void BeginOperatorProfile() override {
    if (profiler_) profiler_->Begin();
  }

  Result<OperatorProfile> TakeOperatorProfile() override {
    if (!profiler_) return Status::Error("the session was loaded without --profile");
    return profiler_->Take();
  }

  Placement GetPlacement() const override {
    Placement placement;
    placement.known = true;
    placement.delegate_partitions = 0;
    bool original_known = true;
    for (int node_index : interpreter_->execution_plan()) {
      const auto* node_and_reg = interpreter_->node_and_registration(node_index);
      if (!node_and_reg) continue;
      const TfLiteNode& node = node_and_reg->first;
      const TfLiteRegistration& reg = node_and_reg->second;
      std::string op;
      if (reg.builtin_code == tflite::BuiltinOperator_CUSTOM) {
        op = reg.custom_name ? reg.custom_name : "CUSTOM";
      } else {
        op = tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(reg.builtin_code));
      }
      const std::string device = node.delegate ? "delegate" : "cpu";
      // Each delegate kernel in the execution plan is one partition the delegate took; its
      // parameters list the model's nodes it replaced.
      if (node.delegate) {
        placement.delegate_partitions = placement.delegate_partitions.value_or(0) + 1;
        placement.partitions_by_device[device] += 1;
        const auto* params = static_cast<const TfLiteDelegateParams*>(node.builtin_data);
        if (params && params->nodes_to_replace) {
          placement.original_nodes_by_device[device] += params->nodes_to_replace->size;
        } else {
          original_known = false;
        }
      } else {
        placement.original_nodes_by_device[device] += 1;
        placement.cpu_op_types[op] += 1;
      }
      placement.nodes_by_device[device] += 1;
      placement.ops_by_device[device][op] += 1;
    }
    for (const auto& [device, nodes] : placement.nodes_by_device) placement.devices_used.push_back(device);
    if (original_known) {
      int total = 0;
      for (const auto& [device, nodes] : placement.original_nodes_by_device) total += nodes;
      placement.model_nodes = total;
    } else {
      placement.original_nodes_by_device.clear();
    }
    // The op types "left" on the CPU only when a delegate was asked for; on litert:cpu the CPU
    // is the device asked for.
    if (placement.partitions_by_device.empty()) placement.cpu_op_types.clear();
    return placement;
  }

  std::map<std::string, std::string> effective_options() const override {
    std::map<std::string, std::string> options = {{"threads", std::to_string(threads_)}};
    if (fail_on_fallback_) options["fallback"] = "fail";
    return options;
  }

 private:
  static std::string ShapesText(const std::vector<std::vector<int64_t>>& shapes) {
    std::string text;
    for (const auto& s : shapes) text += (text.empty() ? "" : ", ") + ShapeToString(s);
    return text;
  }

  bool exposes_intermediates_;
  // --profile; declared first so that it outlives the interpreter that calls it.
  std::unique_ptr<TfLiteOperatorProfiler> profiler_;
  std::unique_ptr<CollectingReporter> reporter_;     // the model reports through it
  std::unique_ptr<tflite::FlatBufferModel> model_;  // must outlive the interpreter
  std::unique_ptr<tflite::Interpreter> interpreter_;
  int threads_;
  bool fail_on_fallback_;  // only shown: builtin kernels are the CPU, so nothing falls back
  Signature signature_;
};

class LiteRtBackend : public Backend {
 public:
  BackendInfo Info() const override {
    BackendInfo info = InfoFromDescription(DescribeLiteRtBackend());
    info.version = TfLiteVersion();
    // A TFLite interpreter is not safe to run from several threads at once.
    info.devices.push_back({"cpu", "TensorFlow Lite builtin kernels", true, "", "",
                            {.dynamic_shapes = true, .placement = true,
                             .max_dim = std::numeric_limits<int>::max()}});
    // Debian's TFLite has no XNNPACK delegate; XNNPACK comes from LiteRT's own library.
    auto library = Library();
    std::string reason;
    if (!library.ok()) {
      reason = (LibraryHasXnnpack()
                    ? "edgebench drives XNNPACK through LiteRT's own library"
                    : "Debian's TensorFlow Lite " + std::string(TfLiteVersion()) +
                          " is built without the XNNPACK delegate (no TfLiteXNNPackDelegateCreate)") +
               ", and LiteRT's library with XNNPACK is not usable: " + library.error();
    }
    info.devices.push_back({"xnnpack",
                            library.ok() ? "XNNPACK via LiteRT " + std::string(kLiteRtWheelVersion) +
                                               " (ai-edge-litert wheel) at " + library.value()->path()
                                         : "XNNPACK delegate",
                            library.ok(), reason,
                            library.ok() ? "LiteRT " + std::string(kLiteRtWheelVersion) : "",
                            // LiteRT 2.3.0's C API could not resize (it crashed the worker): the
                            // compiled shape only.
                            {.placement = true, .max_dim = std::numeric_limits<int>::max()}});
    // LiteRT's GPU accelerator: the wheel's WebGPU one, which Dawn runs on a Vulkan device.
    std::string gpu_reason = library.ok() ? "" : "LiteRT's library is not usable: " + library.error();
    std::string gpu_path;
    if (library.ok()) {
      gpu_path = library.value()->GpuAcceleratorPath();
      std::error_code ec;
      if (!std::filesystem::is_regular_file(gpu_path, ec)) {
        gpu_reason = "LiteRT's GPU accelerator " + gpu_path +
                     " is absent (run scripts/fixtures: it comes in the ai-edge-litert wheel)";
      }
    }
    info.devices.push_back({"gpu",
                            gpu_reason.empty() ? "GPU via LiteRT " + std::string(kLiteRtWheelVersion) +
                                                     "'s WebGPU accelerator (Dawn on a Vulkan device: the run "
                                                     "records the adapter, and a CPU one such as lavapipe is "
                                                     "labelled emulated) at " + gpu_path
                                               : "GPU via LiteRT's WebGPU accelerator",
                            gpu_reason.empty(), gpu_reason,
                            gpu_reason.empty() ? "LiteRT " + std::string(kLiteRtWheelVersion) : "",
                            {.placement = true, .max_dim = std::numeric_limits<int>::max()}});
    return info;
  }

  Result<std::unique_ptr<Session>> Load(const Artifact& artifact, const Target& target) override {
    if (target.device != "cpu" && target.device != "xnnpack" && target.device != "gpu") {
      return Status::Error("TensorFlow Lite has no device '" + target.device +
                           "'; use litert:cpu, litert:xnnpack or litert:gpu");
    }
    TargetOptions options(target);
    if (target.device == "gpu") {
      // The GPU's own threads are Dawn's; XNNPACK's thread count would not reach it.
      auto fallback = options.Choice("fallback", "allow", {"allow", "fail"});
      for (const Status& s : {fallback.status(), options.CheckAllUsed()}) {
        if (!s.ok()) return s;
      }
      auto library = Library();
      if (!library.ok()) return library.status();
      return LoadLiteRtXnnpackSession(library.value(), artifact, 0, fallback.value() == "fail", {},
                                      target.profile_operators, LiteRtAccelerator::kGpu);
    }
    auto threads = options.Int("threads", UsableCores(), 1, 1024);
    // fallback=fail: the model must run wholly on the requested device. litert:cpu's builtin
    // kernels are the CPU, so it always does.
    auto fallback = options.Choice("fallback", "allow", {"allow", "fail"});
    for (const Status& s : {threads.status(), fallback.status(), options.CheckAllUsed()}) {
      if (!s.ok()) return s;
    }
    const bool fail_on_fallback = fallback.value() == "fail";
    if (target.device == "xnnpack") {
      auto library = Library();
      if (!library.ok()) return library.status();
      // Loads the model on builtin kernels (one thread) and prepares it at the shapes asked for.
      auto builtin_check = [artifact](const std::map<std::string, std::vector<int64_t>>& by_name) -> Status {
        auto builtin = LoadBuiltin(artifact, 1);
        if (!builtin.ok()) return builtin.status();
        std::vector<std::vector<int64_t>> shapes;
        for (const TensorSpec& input : builtin.value()->signature().inputs) {
          const auto it = by_name.find(input.name);
          if (it == by_name.end()) return Status::Error("it names input '" + input.name + "' differently");
          shapes.push_back(it->second);
        }
        return builtin.value()->Prepare(shapes);
      };
      // Its sessions keep the default Session::Intermediates(): LiteRT's compiled model does not
      // show the tensors XNNPACK keeps inside its partitions.
      return LoadLiteRtXnnpackSession(library.value(), artifact, threads.value(), fail_on_fallback,
                                      builtin_check, target.profile_operators);
    }
    return LoadBuiltin(artifact, threads.value(), fail_on_fallback, target.profile_operators,
                       target.expose_intermediates);
  }

 private:
  // litert:cpu: TensorFlow Lite's interpreter with its builtin kernels.
  static Result<std::unique_ptr<Session>> LoadBuiltin(const Artifact& artifact, int threads,
                                                      bool fail_on_fallback = false, bool profile = false,
                                                      bool expose_intermediates = false) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(artifact.path, ec)) {
      return Status::Error("model file '" + artifact.path + "' does not exist or is not a file");
    }
    // TFLite's INFO lines ("Initialized TensorFlow Lite runtime") are noise for users.
    tflite::LoggerOptions::SetMinimumLogSeverity(tflite::TFLITE_LOG_WARNING);
    auto owned_reporter = std::make_unique<CollectingReporter>();
    CollectingReporter& reporter = *owned_reporter;
    auto model = tflite::FlatBufferModel::VerifyAndBuildFromFile(artifact.path.c_str(), nullptr, &reporter);
    if (!model) {
      return Status::Error("TensorFlow Lite cannot read '" + artifact.path +
                           "': not a valid .tflite flatbuffer (truncated or corrupt?)" +
                           (reporter.text().empty() ? "" : ": " + reporter.text()));
    }
    tflite::ops::builtin::BuiltinOpResolverWithoutDefaultDelegates resolver;
    std::unique_ptr<tflite::Interpreter> interpreter;
    reporter.Clear();
    tflite::InterpreterBuilder builder(*model, resolver);  // reports through the model's reporter
    if (builder(&interpreter, threads) != kTfLiteOk || !interpreter) {
      return Status::Error("TensorFlow Lite cannot build an interpreter for '" + artifact.path +
                           "': " + Explain(reporter.text()));
    }
    if (expose_intermediates) {
      // Before any allocation: the arena then gives every tensor its own memory instead of
      // reusing one tensor's for the next, so each holds its value after Invoke.
      tflite::InterpreterOptions preserve;
      preserve.SetPreserveAllTensors(true);
      if (interpreter->ApplyOptions(&preserve) != kTfLiteOk) {
        return Status::Error("TensorFlow Lite refused to preserve the tensors of '" + artifact.path +
                             "': " + Explain(reporter.text()));
      }
    }
    // A model with a dynamic input axis (-1 in its shape signature) is built with that axis at 1,
    // a shape many such models cannot run (melspectrogram's STFT needs more than one sample):
    // allocating now would fail before Prepare can resize to the shape asked for, so Prepare
    // allocates. A static model is allocated now, so that its errors belong to the load stage.
    if (!HasDynamicInput(*interpreter) && interpreter->AllocateTensors() != kTfLiteOk) {
      return Status::Error("TensorFlow Lite cannot prepare '" + artifact.path + "': " +
                           Explain(reporter.text()));
    }
    std::unique_ptr<TfLiteOperatorProfiler> profiler;
    if (profile) {
      profiler = std::make_unique<TfLiteOperatorProfiler>();
      interpreter->SetProfiler(profiler.get());
    }
    return std::unique_ptr<Session>(new LiteRtSession(std::move(owned_reporter), std::move(model),
                                                      std::move(interpreter), threads,
                                                      fail_on_fallback, std::move(profiler),
                                                      expose_intermediates));
  }

  // LiteRT's library, opened once on first use.
  Result<std::shared_ptr<LiteRtLibrary>> Library() const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!library_) library_ = LiteRtLibrary::Open(LiteRtLibraryPath());
    return *library_;
  }

  mutable std::mutex mutex_;
  mutable std::optional<Result<std::shared_ptr<LiteRtLibrary>>> library_;

};

}  // namespace

BackendDescription DescribeLiteRtBackend() {
  return {"litert", "TensorFlow Lite", {".tflite"}, "", ""};
}

std::unique_ptr<Backend> MakeLiteRtBackend() { return std::make_unique<LiteRtBackend>(); }

}  // namespace edgebench
