// ONNX Runtime's execution providers as edgebench targets: which devices the loaded library
// offers (from Ort::GetAvailableProviders, not from a list), and how each is added to a session
// with the options edgebench does not own passed to the provider as its own.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <onnxruntime_cxx_api.h>

namespace edgebench {

// How edgebench adds a provider to a session.
enum class OrtAppend {
  kNone,      // the CPU provider is always there
  kXnnpack,   // by name; its factory reads intra_op_num_threads only (edgebench's threads=)
  kDnnl,      // OrtDnnlProviderOptions, which parse and report their options
  kCuda,      // OrtCUDAProviderOptionsV2, likewise
  kTensorRt,  // OrtTensorRTProviderOptionsV2, likewise
  kByName,    // Ort::SessionOptions::AppendExecutionProvider(name, options): QNN, OpenVINO, ...
  kUnknown,   // a provider edgebench has no way to add yet
};

struct OrtProviderRoute {
  std::string provider;  // "CUDAExecutionProvider"
  std::string device;    // the target's device: "cuda"
  OrtAppend append = OrtAppend::kUnknown;
  std::string api_name;  // for kByName: the name AppendExecutionProvider takes ("QNN")
  bool available = false;
  std::string reason;    // why it is not available
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

// "use_arena=1;threadpool_args=0;" -> {use_arena: 1, threadpool_args: 0}.
std::map<std::string, std::string> ParseOrtOptionsString(const std::string& text);

}  // namespace edgebench
