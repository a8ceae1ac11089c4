// ONNX Runtime's execution providers as edgebench targets: which devices the loaded library
// offers (from Ort::GetAvailableProviders, not from a list), and how each is added to a session
// with the options edgebench does not own passed to the provider as its own.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <onnxruntime_cxx_api.h>

#include "core/status.h"

namespace edgebench {

// How edgebench adds a provider to a session.
enum class OrtAppend {
  kNone,      // the CPU provider is always there
  kXnnpack,   // by name; its factory reads intra_op_num_threads only (edgebench's threads=)
  kDnnl,      // OrtDnnlProviderOptions, which parse and report their options
  kCuda,      // OrtCUDAProviderOptionsV2, likewise
  kTensorRt,  // OrtTensorRTProviderOptionsV2, likewise
  kByName,    // Ort::SessionOptions::AppendExecutionProvider(name, options): QNN, OpenVINO, ...
  kPlugin,    // a plugin EP library the target names (ep_library=PATH): AppendExecutionProvider_V2
  kUnknown,   // a provider edgebench has no way to add yet
};

struct OrtProviderRoute {
  std::string provider;  // "CUDAExecutionProvider"
  std::string device;    // the target's device: "cuda"
  OrtAppend append = OrtAppend::kUnknown;
  std::string api_name;  // for kByName: the name AppendExecutionProvider takes ("QNN")
  bool available = false;
  std::string reason;    // why it is not available
  // kPlugin: the environment the library is registered in, and the library's devices for this EP.
  Ort::Env* env = nullptr;
  std::vector<Ort::ConstEpDevice> ep_devices;
  std::string ep_library;  // the library's path, as the target names it
};

// Every device a target may name, from what the loaded ONNX Runtime reports: cpu, xnnpack and
// dnnl always (absent ones with why), then every other provider the library has.
std::vector<OrtProviderRoute> OrtProviderRoutes(const std::vector<std::string>& available);

// Adds the route's provider to `so` with `provider_options` (the target's options edgebench does
// not own) and returns what the provider says it applied, key by key, or throws Ort::Exception
// with the provider's own message (a misspelt option, a value out of range).
std::map<std::string, std::string> AppendOrtProvider(Ort::SessionOptions& so, const OrtProviderRoute& route,
                                                     int threads,
                                                     const std::map<std::string, std::string>& provider_options);

// ort:NAME?ep_library=PATH: registers the plugin execution-provider library at `path` with `env`
// as `name` (once: `registered` maps each name to its path, and a second path under one name is
// refused) and returns the route to the library's provider this device names
// ("FakeNpuExecutionProvider" for ort:fakenpu), on every device the library offers it on; or why
// not, in ONNX Runtime's words, with the providers the library does have.
Result<OrtProviderRoute> RegisterOrtPluginProvider(Ort::Env& env, std::map<std::string, std::string>& registered,
                                                   const std::string& name, const std::string& path);

// "use_arena=1;threadpool_args=0;" -> {use_arena: 1, threadpool_args: 0}.
std::map<std::string, std::string> ParseOrtOptionsString(const std::string& text);

}  // namespace edgebench
