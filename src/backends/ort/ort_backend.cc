#include "backends/ort/ort_backend.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>

#include <onnxruntime_cxx_api.h>

#include "backends/ort/ort_log.h"
#include "core/log.h"
#include "core/stderr_filter.h"

namespace edgebench {
namespace {

struct OrtDevice {
  const char* name;
  const char* provider;
};
constexpr OrtDevice kDevices[] = {
    {"cpu", "CPUExecutionProvider"},
    {"xnnpack", "XnnpackExecutionProvider"},
    {"dnnl", "DnnlExecutionProvider"},
};

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
             std::vector<std::string> notes, std::map<std::string, std::string> options)
      : session_(std::move(session)),
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
    for (size_t i = 0; i < session_.GetOutputCount(); ++i) {
      const std::string name = session_.GetOutputNameAllocated(i, allocator).get();
      signature_.outputs.push_back(SpecFromTypeInfo(name, session_.GetOutputTypeInfo(i)));
    }
    for (const auto& in : signature_.inputs) input_names_.push_back(in.name.c_str());
    for (const auto& out : signature_.outputs) output_names_.push_back(out.name.c_str());
    // Run-time logging stays at warnings: the session's verbose level is for creation only.
    run_options_.SetRunLogSeverityLevel(ORT_LOGGING_LEVEL_WARNING);
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
      outputs.resize(results.size());
      for (size_t i = 0; i < results.size(); ++i) {
        if (!results[i].IsTensor()) {
          return Status::Error("output '" + signature_.outputs[i].name + "' is not a tensor");
        }
        const auto info = results[i].GetTensorTypeAndShapeInfo();
        Tensor& out = outputs[i];
        out.name = signature_.outputs[i].name;
        out.dtype = FromOrtType(info.GetElementType());
        out.shape = info.GetShape();
        const size_t bytes = static_cast<size_t>(info.GetElementCount()) * DTypeSize(out.dtype);
        out.data.resize(bytes);
        if (bytes) std::memcpy(out.data.data(), results[i].GetTensorRawData(), bytes);
      }
    } catch (const Ort::Exception& e) {
      return Status::Error("ONNX Runtime (" + provider_ + ") failed to run: " + e.what());
    }
    return Status::Ok();
  }

  Placement GetPlacement() const override { return placement_; }
  std::vector<std::string> notes() const override { return notes_; }
  std::map<std::string, std::string> effective_options() const override { return options_; }

 private:
  Ort::Session session_;
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
    BackendInfo info;
    info.name = "ort";
    info.runtime = "ONNX Runtime";
    info.version = Ort::GetVersionString();
    info.artifact_extensions = {".onnx", ".ort"};
    std::vector<std::string> available;
    try {
      available = Ort::GetAvailableProviders();
    } catch (const Ort::Exception& e) {
      info.reason = e.what();
    }
    for (const OrtDevice& d : kDevices) {
      const bool ok = std::find(available.begin(), available.end(), d.provider) != available.end();
      info.devices.push_back({d.name, d.provider, ok,
                              ok ? "" : std::string("this ONNX Runtime build has no ") + d.provider, "",
                              // Ort::Session::Run is documented as safe to call concurrently.
                              {.thread_safe_run = true, .dynamic_shapes = true, .placement = true}});
    }
    return info;
  }

  Result<std::unique_ptr<Session>> Load(const Artifact& artifact, const Target& target) override {
    const OrtDevice* device = nullptr;
    for (const OrtDevice& d : kDevices) {
      if (target.device == d.name) device = &d;
    }
    if (!device) {
      return Status::Error("ONNX Runtime has no device '" + target.device +
                           "'; use ort:cpu, ort:xnnpack or ort:dnnl");
    }
    TargetOptions options(target);
    auto threads = options.Int("threads", static_cast<int>(std::thread::hardware_concurrency()),
                               1, 1024);
    auto opt = options.Choice("opt", "all", {"disable", "basic", "extended", "all"});
    for (const Status& s : {threads.status(), opt.status(), options.CheckAllUsed()}) {
      if (!s.ok()) return s;
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(artifact.path, ec)) {
      return Status::Error("model file '" + artifact.path + "' does not exist or is not a file");
    }

    std::lock_guard<std::mutex> lock(mutex_);
    StderrFilter quiet(IsOnnxSchemaNoise);
    try {
      if (!env_) {
        env_ = std::make_unique<Ort::Env>(ORT_LOGGING_LEVEL_WARNING, "edgebench",
                                          &OrtLogCapture::OnMessage, &log_);
      }
      Ort::SessionOptions so;
      so.SetIntraOpNumThreads(threads.value());
      so.SetGraphOptimizationLevel(opt.value() == "disable"    ? ORT_DISABLE_ALL
                                   : opt.value() == "basic"    ? ORT_ENABLE_BASIC
                                   : opt.value() == "extended" ? ORT_ENABLE_EXTENDED
                                                               : ORT_ENABLE_ALL);
      // Verbose during creation only, to read ORT's node placement.
      so.SetLogSeverityLevel(ORT_LOGGING_LEVEL_VERBOSE);
      if (target.device == "xnnpack") {
        // XNNPACK has its own thread pool; ORT's spinning pool would contend with it.
        so.AddConfigEntry("session.intra_op.allow_spinning", "0");
        so.AppendExecutionProvider("XNNPACK",
                                   {{"intra_op_num_threads", std::to_string(threads.value())}});
      } else if (target.device == "dnnl") {
        OrtDnnlProviderOptions* dnnl = nullptr;
        Ort::ThrowOnError(Ort::GetApi().CreateDnnlProviderOptions(&dnnl));
        std::unique_ptr<OrtDnnlProviderOptions, void (*)(OrtDnnlProviderOptions*)> owned(
            dnnl, Ort::GetApi().ReleaseDnnlProviderOptions);
        so.AppendExecutionProvider_Dnnl(*dnnl);
      }
      env_->UpdateEnvWithCustomLogLevel(ORT_LOGGING_LEVEL_VERBOSE);
      log_.Begin();
      std::optional<Ort::Session> session;
      try {
        session.emplace(*env_, artifact.path.c_str(), so);
      } catch (...) {
        log_.End();
        env_->UpdateEnvWithCustomLogLevel(ORT_LOGGING_LEVEL_WARNING);
        throw;
      }
      OrtLogCapture::Captured captured = log_.End();
      env_->UpdateEnvWithCustomLogLevel(ORT_LOGGING_LEVEL_WARNING);

      Placement placement;
      placement.known = !captured.nodes_by_provider.empty();
      for (const auto& [provider, nodes] : captured.nodes_by_provider) {
        const std::string name = OrtProviderToDevice(provider);
        placement.nodes_by_device[name] += nodes;
        placement.devices_used.push_back(name);
      }
      if (quiet.dropped() > 0) {
        Log(LogLevel::kDebug, "onnxruntime: hid " + std::to_string(quiet.dropped()) +
                                  " 'Schema error: ... already registered' lines");
      }
      return std::unique_ptr<Session>(new OrtSession(std::move(*session), device->provider,
                                                     std::move(placement),
                                                     std::move(captured.notes),
                                                     {{"threads", std::to_string(threads.value())},
                                                      {"opt", opt.value()}}));
    } catch (const Ort::Exception& e) {
      return Status::Error("ONNX Runtime (" + std::string(device->provider) +
                           ") could not create a session for '" + artifact.path + "': " + e.what());
    }
  }

 private:
  std::mutex mutex_;
  OrtLogCapture log_;
  std::unique_ptr<Ort::Env> env_;
};

}  // namespace

std::unique_ptr<Backend> MakeOrtBackend() { return std::make_unique<OrtBackend>(); }

}  // namespace edgebench
