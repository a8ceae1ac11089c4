#include "backends/libtorch/libtorch_backend.h"

#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <ATen/Parallel.h>
#include <torch/script.h>
#include <torch/version.h>

#include "backends/libtorch/libtorch_module_facts.h"
#include "backends/libtorch/libtorch_profile.h"

namespace edgebench {
namespace {

// LibTorch's thread counts are the process's. The intra-op count LibTorch chose before any
// session set one, so that threads=0 (the default) means that default in every session.
int DefaultIntraOpThreads() {
  static const int threads = at::get_num_threads();
  return threads;
}

// "ATen parallel backend: OpenMP" from at::get_parallel_info(), for the record.
std::string ParallelBackendLine() {
  const std::string info = at::get_parallel_info();
  const size_t at = info.find("ATen parallel backend:");
  if (at == std::string::npos) return "";
  return info.substr(at, info.find('\n', at) - at);
}

struct LibTorchSettings {
  int threads = 0;  // intra-op; 0: LibTorch's default
  int interop = 0;  // inter-op; 0: LibTorch's default
};

Result<LibTorchSettings> ReadLibTorchSettings(const Target& target) {
  TargetOptions options(target);
  LibTorchSettings settings;
  auto threads = options.Int("threads", 0, 0, 1024);
  if (!threads.ok()) return threads.status();
  auto interop = options.Int("interop", 0, 0, 1024);
  if (!interop.ok()) return interop.status();
  if (Status s = options.CheckAllUsed(); !s.ok()) return s;
  settings.threads = threads.value();
  settings.interop = interop.value();
  return settings;
}

// The inter-op pool's size can be set once per process, before any inter-op work; a second
// different value is refused with LibTorch's reason.
Status ApplyInterOpThreads(int asked) {
  if (asked == 0 || static_cast<int>(at::get_num_interop_threads()) == asked) return Status::Ok();
  try {
    at::set_num_interop_threads(asked);
  } catch (const std::exception& e) {
    return Status::Error("interop=" + std::to_string(asked) + ": LibTorch sets its inter-op pool once per process, "
                         "and this process already has " + std::to_string(at::get_num_interop_threads()) +
                         " inter-op threads (" + TorchErrorText(e) + "); run this target in a process "
                         "of its own or with the same interop value");
  }
  return Status::Ok();
}

class TorchScriptSession : public Session {
 public:
  static Result<std::unique_ptr<Session>> Create(const Artifact& artifact, const Target& target) {
    auto settings = ReadLibTorchSettings(target);
    if (!settings.ok()) return settings.status();
    auto session = std::unique_ptr<TorchScriptSession>(new TorchScriptSession());
    session->path_ = artifact.path;
    if (Status s = session->ApplyThreads(settings.value()); !s.ok()) return s;
    if (Status s = session->Open(); !s.ok()) return s;
    if (target.profile_operators) session->profiler_ = std::make_unique<LibTorchOperatorProfiler>();
    return std::unique_ptr<Session>(std::move(session));
  }

  const Signature& signature() const override { return signature_; }

  Status Prepare(const std::vector<std::vector<int64_t>>& input_shapes) override {
    if (input_shapes.size() != signature_.inputs.size()) {
      return Status::Error("libtorch: " + std::to_string(input_shapes.size()) + " input shapes given; " +
                           path_ + " takes " + std::to_string(signature_.inputs.size()) + " inputs");
    }
    // TorchScript has no shapes to bind: a forward on zeros of the asked shapes is what tells
    // whether they fit, with LibTorch's own reason when they do not.
    std::vector<Tensor> zeros;
    for (size_t i = 0; i < input_shapes.size(); ++i) {
      const TensorSpec& spec = signature_.inputs[i];
      if (Status s = CheckDeclaredShape(spec, input_shapes[i]); !s.ok()) return s;
      auto size = CheckedSize(input_shapes[i], spec.dtype, INT64_MAX, "input '" + spec.name + "'");
      if (!size.ok()) return size.status();
      Tensor t{spec.name, spec.dtype, input_shapes[i], {}};
      t.data.resize(static_cast<size_t>(size.value().second));
      zeros.push_back(std::move(t));
    }
    std::vector<Tensor> outputs;
    if (Status s = Forward(zeros, outputs); !s.ok()) {
      return Status::Error("libtorch: " + path_ + " does not run with input shapes " + ShapesText(input_shapes) +
                           ": " + s.message());
    }
    prepared_shapes_ = input_shapes;
    return Status::Ok();
  }

  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    if (prepared_shapes_.empty()) return Status::Error("libtorch: Run before Prepare");
    std::optional<LibTorchOperatorProfiler::RunScope> profiled;
    if (profiler_) profiled.emplace(*profiler_);
    return Forward(inputs, outputs);
  }

  std::vector<std::vector<int64_t>> PreparedInputShapes() const override { return prepared_shapes_; }
  Placement GetPlacement() const override { return placement_; }
  std::vector<std::string> notes() const override { return notes_; }
  std::map<std::string, std::string> effective_options() const override {
    return {{"threads", std::to_string(threads_)}, {"interop", std::to_string(interop_)}};
  }

  void BeginOperatorProfile() override {
    if (profiler_) profiler_->Begin();
  }
  Result<OperatorProfile> TakeOperatorProfile() override {
    if (!profiler_) return Status::Error("the session was loaded without --profile");
    return profiler_->Take();
  }

 private:
  TorchScriptSession() = default;

  Status ApplyThreads(const LibTorchSettings& settings) {
    const int defaults = DefaultIntraOpThreads();
    if (Status s = ApplyInterOpThreads(settings.interop); !s.ok()) return s;
    threads_ = settings.threads > 0 ? settings.threads : defaults;
    try {
      at::set_num_threads(threads_);
    } catch (const std::exception& e) {
      return Status::Error("libtorch: threads=" + std::to_string(threads_) + " was refused: " + TorchErrorText(e));
    }
    // Read back: what the record states is LibTorch's count, not the asked one.
    threads_ = at::get_num_threads();
    interop_ = static_cast<int>(at::get_num_interop_threads());
    if (settings.threads > 0 && threads_ != settings.threads) {
      notes_.push_back("threads=" + std::to_string(settings.threads) + " was asked; LibTorch runs " +
                       std::to_string(threads_) + " intra-op threads");
    }
    if (settings.threads == 0) {
      notes_.push_back("threads=0: LibTorch's default intra-op count in this process, " + std::to_string(threads_));
    }
    const std::string backend = ParallelBackendLine();
    if (!backend.empty()) notes_.push_back(backend);
    const std::string blas = MappedBlasNote();
    if (!blas.empty()) notes_.push_back(blas);
    return Status::Ok();
  }

  Status Open() {
    if (!std::filesystem::is_regular_file(path_)) {
      return Status::Error("libtorch: no file " + path_);
    }
    torch::jit::ExtraFilesMap extra{{kTorchScriptDescriptionFile, ""}};
    try {
      module_ = torch::jit::load(path_, torch::kCPU, extra);
      module_.eval();
      forward_.emplace(module_.get_method("forward"));
    } catch (const std::exception& e) {
      return Status::Error("libtorch: cannot load " + path_ + " as a TorchScript module (torch::jit::load "
                           "of a torch.jit.save file, with LibTorch " + TORCH_VERSION + "'s ops): " +
                           TorchErrorText(e));
    }
    const std::string& description = extra[kTorchScriptDescriptionFile];
    if (description.empty()) {
      return Status::Error("libtorch: " + path_ + " has no " + kTorchScriptDescriptionFile +
                           " (the extra file scripts/models/export-torch-models saves with every .pt): "
                           "TorchScript keeps no input shapes or dtypes, so edgebench cannot tell what "
                           "to feed it; export the model with that script");
    }
    auto signature = SignatureFromTorchScriptDescription(description, path_);
    if (!signature.ok()) return signature.status();
    signature_ = signature.value();
    for (const TensorSpec& spec : signature_.inputs) {
      auto type = ToTorchScalarType(spec.dtype);
      if (!type.ok()) return type.status();
      input_types_.push_back(type.value());
    }
    const size_t declared = forward_->function().getSchema().arguments().size() - 1;  // less self
    if (declared != signature_.inputs.size()) {
      return Status::Error("libtorch: " + path_ + "'s forward takes " + std::to_string(declared) +
                           " arguments, and its " + kTorchScriptDescriptionFile + " describes " +
                           std::to_string(signature_.inputs.size()) + " inputs");
    }
    for (const at::Tensor& tensor : module_.parameters()) {
      if (!tensor.device().is_cpu()) return Status::Error("libtorch: " + path_ + " kept a parameter off the CPU");
    }
    ReadPlacement();
    return Status::Ok();
  }

  // Every node of the module's forward graph (submodules inlined) runs on the CPU: the module was
  // loaded onto it, the inputs are CPU tensors, and CPU is the only device this LibTorch has.
  void ReadPlacement() {
    const TorchScriptGraphFacts facts = ReadTorchScriptGraph(module_);
    placement_.known = facts.operator_nodes > 0;
    if (!placement_.known) return;
    placement_.nodes_by_device["cpu"] = facts.operator_nodes;
    placement_.ops_by_device["cpu"] = facts.operators;
    placement_.devices_used = {"cpu"};
    placement_.model_nodes = facts.operator_nodes;
    placement_.original_nodes_by_device["cpu"] = facts.operator_nodes;
    notes_.push_back("LibTorch ran a TorchScript module (.pt) with torch::jit's graph executor; placement "
                     "counts the ATen operator nodes of its forward graph as saved, submodules inlined (" +
                     std::to_string(facts.bookkeeping_nodes) + " prim:: nodes, constants, attributes, lists, "
                     "not counted), before TorchScript's executor optimizes it at run time");
    if (facts.forks == 0) {
      notes_.push_back("the graph has no prim::fork, so the inter-op pool (interop) runs none of its work");
    }
  }

  Status CheckDeclaredShape(const TensorSpec& spec, const std::vector<int64_t>& shape) const {
    bool fits = shape.size() == spec.shape.size();
    for (size_t axis = 0; fits && axis < shape.size(); ++axis) {
      fits = !spec.shape[axis].fixed() || spec.shape[axis].size == shape[axis];
    }
    if (fits) return Status::Ok();
    return Status::Error("libtorch: input '" + spec.name + "' of shape " + ShapeToString(shape) + " does not fit " +
                         path_ + ", which takes " + ShapeToString(spec.shape));
  }

  static std::string ShapesText(const std::vector<std::vector<int64_t>>& shapes) {
    std::string text;
    for (const auto& shape : shapes) text += (text.empty() ? "" : ", ") + ShapeToString(shape);
    return text;
  }

  // GCC 16 sees c10::InferenceMode's saved state (an optional Python object, never set without
  // Python) as maybe uninitialized in its destructor: a false positive in LibTorch's header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
  Status Forward(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) {
    if (inputs.size() != signature_.inputs.size()) {
      return Status::Error("libtorch: " + std::to_string(inputs.size()) + " inputs given; " + path_ + " takes " +
                           std::to_string(signature_.inputs.size()));
    }
    // Another session in this process may have set LibTorch's (process-wide) count since.
    if (at::get_num_threads() != threads_) at::set_num_threads(threads_);
    c10::InferenceMode inference;
    try {
      std::vector<c10::IValue> arguments;
      arguments.reserve(inputs.size());
      for (size_t i = 0; i < inputs.size(); ++i) {
        const Tensor& in = inputs[i];
        if (in.dtype != signature_.inputs[i].dtype) {
          return Status::Error("libtorch: input '" + signature_.inputs[i].name + "' is " + DTypeName(in.dtype) +
                               "; " + path_ + " takes " + DTypeName(signature_.inputs[i].dtype));
        }
        // A tensor over the caller's bytes, no copy: the traced forward does not write its inputs.
        arguments.emplace_back(torch::from_blob(const_cast<std::byte*>(in.data.data()), in.shape,
                                                torch::TensorOptions().dtype(input_types_[i])));
      }
      const c10::IValue result = (*forward_)(std::move(arguments));
      return CopyOutputs(result, outputs);
    } catch (const std::exception& e) {
      return Status::Error("libtorch: running " + path_ + " failed: " + TorchErrorText(e));
    }
  }
#pragma GCC diagnostic pop

  Status CopyOutputs(const c10::IValue& result, std::vector<Tensor>& outputs) {
    std::vector<at::Tensor> tensors;
    if (result.isTensor()) {
      tensors.push_back(result.toTensor());
    } else if (result.isTuple() || result.isTensorList()) {
      const std::vector<c10::IValue> elements =
          result.isTuple() ? result.toTupleRef().elements().vec() : result.toList().vec();
      for (const c10::IValue& element : elements) {
        if (!element.isTensor()) {
          return Status::Error("libtorch: " + path_ + " returns a " + element.tagKind() +
                               " among its outputs; edgebench compares tensors only");
        }
        tensors.push_back(element.toTensor());
      }
    } else {
      return Status::Error("libtorch: " + path_ + " returns a " + result.tagKind() +
                           "; edgebench compares tensors (a tensor, or a tuple or list of them)");
    }
    outputs.resize(tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) {
      const at::Tensor tensor = tensors[i].contiguous();
      Tensor& out = outputs[i];
      out.name = i < signature_.outputs.size() ? signature_.outputs[i].name : "output_" + std::to_string(i);
      out.dtype = FromTorchScalarType(tensor.scalar_type());
      if (out.dtype == DType::kUnknown) {
        return Status::Error("libtorch: output " + std::to_string(i) + " of " + path_ + " has ATen type " +
                             std::string(c10::toString(tensor.scalar_type())) + ", which edgebench does not read");
      }
      out.shape.assign(tensor.sizes().begin(), tensor.sizes().end());
      const size_t bytes = tensor.nbytes();
      out.data.resize(bytes);
      if (bytes) std::memcpy(out.data.data(), tensor.const_data_ptr(), bytes);
    }
    return Status::Ok();
  }

  std::string path_;
  torch::jit::Module module_;
  std::optional<torch::jit::Method> forward_;
  Signature signature_;
  std::vector<c10::ScalarType> input_types_;
  std::vector<std::vector<int64_t>> prepared_shapes_;
  int threads_ = 0;
  int interop_ = 0;
  Placement placement_;
  std::vector<std::string> notes_;
  std::unique_ptr<LibTorchOperatorProfiler> profiler_;
};

class LibTorchBackend : public Backend {
 public:
  BackendInfo Info() const override {
    BackendInfo info = InfoFromDescription(DescribeLibTorchBackend());
    info.version = TORCH_VERSION;
    DeviceInfo cpu;
    cpu.name = "cpu";
    cpu.description = "LibTorch's ATen CPU kernels (TorchScript .pt, torch::jit)";
    cpu.available = true;
    cpu.capabilities.dynamic_shapes = true;
    cpu.capabilities.placement = true;
    info.devices = {cpu};
    return info;
  }

  Result<std::unique_ptr<Session>> Load(const Artifact& artifact, const Target& target) override {
    if (target.device != "cpu") {
      return Status::Error("backend 'libtorch' has device cpu, not '" + target.device +
                           "' (Debian's LibTorch is built for the CPU only)");
    }
    const std::string extension = std::filesystem::path(artifact.path).extension().string();
    if (extension != ".pt") {
      return Status::Error("libtorch runs TorchScript .pt files, not " + artifact.path);
    }
    return TorchScriptSession::Create(artifact, target);
  }
};

}  // namespace

BackendDescription DescribeLibTorchBackend() {
  return {"libtorch", "LibTorch", {".pt"}, "",
          "a TorchScript .pt carries its forward as source code that LibTorch compiles and runs when the model "
          "is loaded and run: it can read, write and delete files and start processes with the rights of the "
          "process that runs it"};
}

std::unique_ptr<Backend> MakeLibTorchBackend() { return std::make_unique<LibTorchBackend>(); }

}  // namespace edgebench
