#include "backends/ort/ort_providers.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>
#include <unordered_map>

#include "backends/ort/ort_log.h"

namespace edgebench {
namespace {

// Providers Ort::SessionOptions::AppendExecutionProvider(name, options) adds, by the name it takes.
struct ByName {
  const char* provider;
  const char* api_name;
};
constexpr ByName kByName[] = {
    {"QNNExecutionProvider", "QNN"},         {"OpenVINOExecutionProvider", "OpenVINO"},
    {"SNPEExecutionProvider", "SNPE"},       {"WebGpuExecutionProvider", "WebGPU"},
    {"VitisAIExecutionProvider", "VitisAI"}, {"CoreMLExecutionProvider", "CoreML"},
    {"AzureExecutionProvider", "AZURE"},
};

OrtProviderRoute RouteFor(const std::string& provider) {
  OrtProviderRoute route;
  route.provider = provider;
  route.device = OrtProviderToDevice(provider);
  if (provider == "CPUExecutionProvider") route.append = OrtAppend::kNone;
  if (provider == "XnnpackExecutionProvider") route.append = OrtAppend::kXnnpack;
  if (provider == "DnnlExecutionProvider") route.append = OrtAppend::kDnnl;
  if (provider == "CUDAExecutionProvider") route.append = OrtAppend::kCuda;
  if (provider == "TensorrtExecutionProvider") route.append = OrtAppend::kTensorRt;
  for (const ByName& b : kByName) {
    if (provider == b.provider) {
      route.append = OrtAppend::kByName;
      route.api_name = b.api_name;
    }
  }
  return route;
}

// Frees a string ONNX Runtime allocated with the default allocator.
std::string TakeOrtString(char* text) {
  const std::string copy = text ? text : "";
  Ort::AllocatorWithDefaultOptions allocator;
  if (text) allocator.Free(text);
  return copy;
}

// Keys and values as the C API takes them.
struct KeyValues {
  explicit KeyValues(const std::map<std::string, std::string>& options) {
    for (const auto& [key, value] : options) {
      keys.push_back(key.c_str());
      values.push_back(value.c_str());
    }
  }
  std::vector<const char*> keys;
  std::vector<const char*> values;
};

// What the provider reports for the keys the user passed (its string holds all its options).
std::map<std::string, std::string> Applied(const std::map<std::string, std::string>& passed,
                                           const std::string& reported) {
  const std::map<std::string, std::string> all = ParseOrtOptionsString(reported);
  std::map<std::string, std::string> applied;
  for (const auto& [key, value] : passed) {
    const auto it = all.find(key);
    applied[key] = it == all.end() ? value : it->second;
  }
  return applied;
}

// A provider whose options are an object of the C API (oneDNN, CUDA, TensorRT): created, updated
// with the user's keys (the provider refuses a key it does not know), added to the session by
// `append`, and read back as the provider reports it applied them.
template <typename Options, typename Create, typename Release, typename Update, typename AsString, typename Append>
std::map<std::string, std::string> AppendThroughOptionsObject(Create create, Release release, Update update,
                                                              AsString as_string, Append append,
                                                              const std::map<std::string, std::string>& provider_options) {
  Options* raw = nullptr;
  Ort::ThrowOnError(create(&raw));
  std::unique_ptr<Options, Release> owned(raw, release);
  if (!provider_options.empty()) {
    const KeyValues kv(provider_options);
    Ort::ThrowOnError(update(raw, kv.keys.data(), kv.values.data(), kv.keys.size()));
  }
  append(*raw);
  char* text = nullptr;
  Ort::AllocatorWithDefaultOptions allocator;
  Ort::ThrowOnError(as_string(raw, allocator, &text));
  return Applied(provider_options, TakeOrtString(text));
}

}  // namespace

std::vector<OrtProviderRoute> OrtProviderRoutes(const std::vector<std::string>& available) {
  std::vector<OrtProviderRoute> routes;
  const auto has = [&](const std::string& p) {
    return std::find(available.begin(), available.end(), p) != available.end();
  };
  for (const char* p : {"CPUExecutionProvider", "XnnpackExecutionProvider", "DnnlExecutionProvider"}) {
    OrtProviderRoute route = RouteFor(p);
    route.available = has(p);
    if (!route.available) route.reason = std::string("this ONNX Runtime build has no ") + p;
    routes.push_back(route);
  }
  // Qualcomm's NPU (HTP): listed always, because where the library lacks it, it comes as a plugin
  // library the target names.
  OrtProviderRoute qnn = RouteFor("QNNExecutionProvider");
  qnn.available = has("QNNExecutionProvider");
  if (!qnn.available) {
    qnn.reason = "this ONNX Runtime build has no QNNExecutionProvider; QNN's provider also ships as a plugin "
                 "library (the onnxruntime-qnn wheel, for ONNX Runtime 1.24 or later): name it with "
                 "ort:qnn?ep_library=PATH (docs/accelerators.md)";
  }
  routes.push_back(qnn);
  for (const std::string& p : available) {
    if (std::any_of(routes.begin(), routes.end(), [&](const OrtProviderRoute& r) { return r.provider == p; })) {
      continue;
    }
    OrtProviderRoute route = RouteFor(p);
    route.available = route.append != OrtAppend::kUnknown;
    if (!route.available) {
      route.reason = "this ONNX Runtime has " + p +
                     "; edgebench cannot add it to a session yet (it takes neither options by name nor a V2 "
                     "options object)";
    }
    routes.push_back(route);
  }
  return routes;
}

Result<OrtProviderRoute> RegisterOrtPluginProvider(Ort::Env& env, std::map<std::string, std::string>& registered,
                                                   const std::string& name, const std::string& path) {
  try {
    const auto known = registered.find(name);
    if (known != registered.end() && known->second != path) {
      return Status::Error("a plugin library is already registered as '" + name + "' (" + known->second +
                           "); one name, one library per process");
    }
    if (known == registered.end()) {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) {
        return Status::Error("ep_library '" + path + "' does not exist or is not a file");
      }
      try {
        env.RegisterExecutionProviderLibrary(name.c_str(), path);
      } catch (const Ort::Exception& e) {
        return Status::Error("ONNX Runtime could not register the execution-provider library '" + path + "' as '" +
                             name + "': " + e.what());
      }
      registered[name] = path;
    }
    OrtProviderRoute route;
    route.device = name;
    route.append = OrtAppend::kPlugin;
    route.available = true;
    route.env = &env;
    route.ep_library = path;
    std::set<std::string> others;
    for (const Ort::ConstEpDevice& device : env.GetEpDevices()) {
      const std::string ep = device.EpName();
      if (OrtProviderToDevice(ep) == name) {
        route.provider = ep;
        route.ep_devices.push_back(device);
      } else {
        others.insert(ep);
      }
    }
    if (route.ep_devices.empty()) {
      std::string listed;
      for (const std::string& ep : others) listed += (listed.empty() ? "" : ", ") + ep;
      return Status::Error("the library '" + path + "' offers no execution provider named for ort:" + name +
                           " on this machine's devices (ONNX Runtime lists: " + listed +
                           "); name the target after one of its providers without ExecutionProvider, in lower case");
    }
    return route;
  } catch (const Ort::Exception& e) {
    return Status::Error(std::string("ONNX Runtime: ") + e.what());
  }
}

std::map<std::string, std::string> ParseOrtOptionsString(const std::string& text) {
  std::map<std::string, std::string> options;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(';', start);
    if (end == std::string::npos) end = text.size();
    const std::string pair = text.substr(start, end - start);
    const size_t eq = pair.find('=');
    if (eq != std::string::npos && eq > 0) options[pair.substr(0, eq)] = pair.substr(eq + 1);
    start = end + 1;
  }
  return options;
}

std::map<std::string, std::string> AppendOrtProvider(Ort::SessionOptions& so, const OrtProviderRoute& route,
                                                     int threads,
                                                     const std::map<std::string, std::string>& provider_options) {
  const OrtApi& api = Ort::GetApi();
  switch (route.append) {
    case OrtAppend::kNone:
    case OrtAppend::kUnknown:
      return {};
    case OrtAppend::kXnnpack:
      // XNNPACK has its own thread pool; ORT's spinning pool would contend with it.
      so.AddConfigEntry("session.intra_op.allow_spinning", "0");
      so.AppendExecutionProvider("XNNPACK", {{"intra_op_num_threads", std::to_string(threads)}});
      return {};
    case OrtAppend::kDnnl:
      return AppendThroughOptionsObject<OrtDnnlProviderOptions>(
          api.CreateDnnlProviderOptions, api.ReleaseDnnlProviderOptions, api.UpdateDnnlProviderOptions,
          api.GetDnnlProviderOptionsAsString,
          [&](const OrtDnnlProviderOptions& options) { so.AppendExecutionProvider_Dnnl(options); }, provider_options);
    case OrtAppend::kCuda:
      return AppendThroughOptionsObject<OrtCUDAProviderOptionsV2>(
          api.CreateCUDAProviderOptions, api.ReleaseCUDAProviderOptions, api.UpdateCUDAProviderOptions,
          api.GetCUDAProviderOptionsAsString,
          [&](const OrtCUDAProviderOptionsV2& options) { so.AppendExecutionProvider_CUDA_V2(options); },
          provider_options);
    case OrtAppend::kTensorRt:
      return AppendThroughOptionsObject<OrtTensorRTProviderOptionsV2>(
          api.CreateTensorRTProviderOptions, api.ReleaseTensorRTProviderOptions, api.UpdateTensorRTProviderOptions,
          api.GetTensorRTProviderOptionsAsString,
          [&](const OrtTensorRTProviderOptionsV2& options) { so.AppendExecutionProvider_TensorRT_V2(options); },
          provider_options);
    case OrtAppend::kPlugin: {
      std::unordered_map<std::string, std::string> options(provider_options.begin(), provider_options.end());
      so.AppendExecutionProvider_V2(*route.env, route.ep_devices, options);
      // Added as session entries "ep.<provider>.<key>", for the provider to read: as passed.
      return provider_options;
    }
    case OrtAppend::kByName: {
      std::unordered_map<std::string, std::string> options(provider_options.begin(), provider_options.end());
      so.AppendExecutionProvider(route.api_name, options);
      // These providers do not report what they applied: the record holds the options as passed.
      return provider_options;
    }
  }
  return {};
}

}  // namespace edgebench
