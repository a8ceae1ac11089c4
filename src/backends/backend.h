// The backend interface: one adapter per inference runtime.
//
// Lifecycle: the registry owns Backends for the whole process. Backend::Load() creates a
// Session for one artifact on one target; a Session is used from one thread at a time
// unless its backend reports Capabilities::thread_safe_run. Prepare() binds concrete input
// shapes and must be called before Run(); Run() may be called any number of times after it.
//
// The harness owns the clock: a backend loads, prepares and runs, and never times itself.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/llm_session.h"
#include "backends/target.h"
#include "core/operator_profile.h"
#include "core/placement.h"
#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

// What a device can do, asked at run time (never #ifdef'd in callers). Per device, not per
// backend: litert:cpu resizes inputs, litert:xnnpack runs only the compiled shape.
struct Capabilities {
  bool thread_safe_run = false;  // Session::Run may be called from several threads at once
  bool dynamic_shapes = false;   // Prepare() accepts other shapes than the model's declared ones
  bool placement = false;        // Session::GetPlacement() reports where nodes ran
  bool language_model = false;   // LoadLlm() gives language-model sessions
  // Load() runs any model of the backend's formats as plain tensors in and out, a bare matrix
  // product included; false where the runtime runs tasks on images only (MediaPipe's vision
  // tasks), so the compute probe says so instead of loading one.
  bool bare_tensor_models = true;
  // Backend::LoadMatMulProbe builds the compute probe's product in the runtime's own kernels
  // (llama.cpp, whose GGUF files cannot hold a bare product).
  bool matrix_probe = false;
  // The largest size one dimension may have in the runtime's own type (TFLite: int32).
  int64_t max_dim = INT64_MAX;
};

// Which kind of session a case needs: tensors in and out, or a language model token by token.
enum class SessionKind { kTensor, kLanguageModel };

// What the harness will ask of a language-model session, so the backend can size it.
struct LlmLoadHints {
  int32_t tokens_per_sequence = 0;  // prompt + generated tokens
  int32_t sequences = 1;
  // Vision-language requests: a projector loaded with the model, the images the requests take
  // (each is pre-processed at load: a bad one fails the load) and their text. The context then
  // holds tokens_per_sequence (set it to the generation) plus the text's and images' tokens.
  std::string mmproj{};
  std::vector<std::string> images{};
  int32_t images_per_request = 1;
  std::string text{};
};

// Something a backend can run on: an ORT execution provider, a TFLite delegate, a ggml device.
struct DeviceInfo {
  std::string name;         // the part after "backend:" in a target, e.g. "xnnpack"
  std::string description;  // e.g. "XnnpackExecutionProvider"
  bool available = false;
  std::string reason;  // why it is not available
  std::string runtime;  // set when this device runs on another runtime than its backend's
  Capabilities capabilities;
};

// What a backend says of itself before it is created, in its own code: its plugin exports it
// (backends/plugin_abi.h) and the Registry keeps the answer, so a backend is declared once. Its
// Info() starts from the same description (InfoFromDescription).
struct BackendDescription {
  std::string name;     // the registry's name: "ort"
  std::string runtime;  // the runtime's own name: "ONNX Runtime"
  std::vector<std::string> artifact_extensions;  // the model files it reads: ".onnx", ".ort"
  // Empty when the backend can run on this machine; otherwise why not, for a person (a library
  // its runtime needs that is absent, a driver, a device). Asked when the plugin is opened.
  std::string unusable;
  // Empty when the backend's model files are data for the runtime's own kernels; otherwise how
  // a model file carries code the runtime runs (docs/sandbox.md), said by `edgebench devices`.
  std::string model_is_code;
};

struct BackendInfo {
  std::string name;  // "ort", "litert", "llamacpp", "null"
  std::string runtime;  // the runtime's own name, e.g. "ONNX Runtime"
  std::string version;
  bool built = true;       // false when the build had no package for it
  std::string reason;      // why it is not built / not usable
  std::vector<std::string> artifact_extensions;  // ".onnx", ".tflite", ...
  std::vector<DeviceInfo> devices;
  // false: built as a plugin that could not be opened here (reason says why: missing file,
  // the dynamic loader's error, another plugin ABI version).
  bool loaded = true;
  std::string model_is_code;  // as in BackendDescription
  // A target option that names a runtime's plugin library (ONNX Runtime's `ep_library`): a
  // target carrying it may name a device this list does not have, which the library brings;
  // Load registers it and says what it found. Empty: the devices are only those listed.
  std::string device_library_option;
  // Listed in a process of its own (backends/isolated_listing.h) and that process crashed while
  // the runtime was asked: no devices known, `reason` says how it died.
  bool listing_crashed = false;
};

// A backend's info as its description says, before its runtime is asked for its version and devices.
inline BackendInfo InfoFromDescription(const BackendDescription& description) {
  BackendInfo info;
  info.name = description.name;
  info.runtime = description.runtime;
  info.artifact_extensions = description.artifact_extensions;
  info.reason = description.unusable;
  info.model_is_code = description.model_is_code;
  return info;
}

// A model file in one format.
struct Artifact {
  std::string path;
};

// One tensor a node produced in the last Run (Session::Intermediates), for `edgebench drift`.
struct IntermediateTensor {
  // float32 where the runtime held it quantized (int8/uint8 with a scale and zero point: values
  // dequantized, `dequantized` set); otherwise as the runtime held it. Named as in the runtime.
  Tensor tensor;
  std::string node;     // the producing node's name ("" where the format names no nodes)
  std::string op_type;  // its operator ("Conv", "CONV_2D")
  bool dequantized = false;
};

class Session {
 public:
  virtual ~Session() = default;
  virtual const Signature& signature() const = 0;
  // Bind concrete shapes (one per signature input, in order) and allocate.
  virtual Status Prepare(const std::vector<std::vector<int64_t>>& input_shapes) = 0;
  // Run once. `outputs` is reused across calls; the backend resizes it as needed.
  virtual Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) = 0;
  // Optional: the input shapes the runtime holds after Prepare, read back from it (one per
  // signature input), so a record states the shape that ran, not the one that was asked for.
  // Empty when the runtime cannot tell (it then runs exactly the tensors it is given).
  virtual std::vector<std::vector<int64_t>> PreparedInputShapes() const { return {}; }
  // Optional: where nodes ran. Default: unknown.
  virtual Placement GetPlacement() const { return {}; }
  // Messages the runtime produced while loading or running (warnings, notes), for the record.
  virtual std::vector<std::string> notes() const { return {}; }
  // Every target option with the value in force, defaults included, for the record.
  virtual std::map<std::string, std::string> effective_options() const { return {}; }

  // Every node output of the last Run, in execution order (graph outputs included), for a session
  // loaded with Target::expose_intermediates. An error saying why where the runtime cannot show
  // them, or the session was loaded without the request.
  virtual Result<std::vector<IntermediateTensor>> Intermediates() {
    return Status::Error("this backend cannot show intermediate tensors");
  }

  // Operator profiles (--profile; the session was loaded with Target::profile_operators).
  // BeginOperatorProfile() is called when the measured phase starts, after warmup: runs before
  // it are not in the profile. TakeOperatorProfile() is called once, after the last run.
  virtual void BeginOperatorProfile() {}
  virtual Result<OperatorProfile> TakeOperatorProfile() {
    return Status::Error("this backend reads no per-operator times from its runtime");
  }
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendInfo Info() const = 0;
  virtual Result<std::unique_ptr<Session>> Load(const Artifact& artifact,
                                                const Target& target) = 0;
  // Optional (Capabilities::language_model): a language-model session.
  virtual Result<std::unique_ptr<LlmSession>> LoadLlm(const Artifact& /*artifact*/,
                                                      const Target& target,
                                                      const LlmLoadHints& /*hints*/) {
    return Status::Error("backend '" + target.backend + "' does not run language models");
  }
  // Optional (Capabilities::matrix_probe): the compute probe's product
  // (diagnose/compute_peak_probe.h), Y = A x B with A the float32 input "a" [size, size] and B
  // constant, built in the runtime's own kernels, for a runtime whose model files cannot hold a
  // bare product (llama.cpp's GGUF). `int8`: B in the runtime's 8-bit format. The session's
  // first note names the kernel and types.
  virtual Result<std::unique_ptr<Session>> LoadMatMulProbe(int64_t /*size*/, bool /*int8*/, const Target& target) {
    return Status::Error("backend '" + target.backend + "' has no matrix-product probe of its own");
  }
};

}  // namespace edgebench
